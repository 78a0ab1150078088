/* Out-of-line entry points of the x86-64 ADX Montgomery code, for tests and benchmarks that
 * compare implementations. The dispatched fp_mul etc. inline the same code (ff_impl.c). */
#include "ff/mont_adx.h"
#if defined(__x86_64__)

void fp_mul_adx(fp *r, const fp *a, const fp *b) { fp_mul_adx_inl(r, a, b); }
void fp_sqr_adx(fp *r, const fp *a) { fp_sqr_adx_inl(r, a); }
void fr_mul_adx(fr *r, const fr *a, const fr *b) { fr_mul_adx_inl(r, a, b); }
void fr_sqr_adx(fr *r, const fr *a) { fr_sqr_adx_inl(r, a); }
void fp_mul_wide_adx(uint64_t t[12], const uint64_t a[6], const uint64_t b[6]) { fp_mul_wide_adx_inl(t, a, b); }
void fp_redc_adx(fp *r, const uint64_t t[12]) { fp_redc_adx_inl(r, t); }

#endif
