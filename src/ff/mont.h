/* Internal: Montgomery constants and the per-implementation entry points of the dispatched
 * operations, so tests and benchmarks can call each implementation directly. */
#ifndef CUZK_FF_MONT_H
#define CUZK_FF_MONT_H
#include <stdbool.h>
#include "ff/fp.h"
#include "ff/fr.h"

/* -q^-1 mod 2^64 and R^2 mod q (Montgomery form of R), checked against GMP in tests/ff. */
extern const uint64_t FP_N0, FR_N0;
extern const fp FP_R2;
extern const fr FR_R2;

void fp_mul_portable(fp *r, const fp *a, const fp *b);
void fp_sqr_portable(fp *r, const fp *a);
void fr_mul_portable(fr *r, const fr *a, const fr *b);
void fr_sqr_portable(fr *r, const fr *a);

/* Lazy reduction for sums of products (Fp2 multiplication): t = a·b as 12 limbs (a, b < 2^383,
 * e.g. unreduced sums of two elements), and r = t·2^-384 mod p for t < p·2^384. Dispatched. */
void fp_mul_wide(uint64_t t[12], const uint64_t a[6], const uint64_t b[6]);
void fp_redc(fp *r, const uint64_t t[12]);
void fp_mul_wide_portable(uint64_t t[12], const uint64_t a[6], const uint64_t b[6]);
void fp_redc_portable(fp *r, const uint64_t t[12]);

#if defined(__x86_64__)
#define CUZK_FF_HAVE_ADX 1
void fp_mul_wide_adx(uint64_t t[12], const uint64_t a[6], const uint64_t b[6]);
void fp_redc_adx(fp *r, const uint64_t t[12]);
/* MULX/ADCX/ADOX code: only call when cuzk_impl_supported(CUZK_IMPL_ADX) (cuzk/cuzk.h). */
void fp_mul_adx(fp *r, const fp *a, const fp *b);
void fp_sqr_adx(fp *r, const fp *a);
void fr_mul_adx(fr *r, const fr *a, const fr *b);
void fr_sqr_adx(fr *r, const fr *a);
#endif

/* Inverses by Fermat's little theorem (exponentiation), an independent check of fp_inv/fr_inv. */
void fp_inv_fermat(fp *r, const fp *a);
void fr_inv_fermat(fr *r, const fr *a);

#endif
