/* Portable (unsigned __int128) Montgomery multiplication and squaring for Fp and Fr: the test
 * oracle for every faster implementation, and the fallback on CPUs without ADX. */
#include "ff/limbs.h"
#include "ff/mont.h"

void fp_mul_portable(fp *r, const fp *a, const fp *b)
{
    limbs_mont_mul(r->l, a->l, b->l, FP_MODULUS, FP_N0, FP_LIMBS);
}

void fp_sqr_portable(fp *r, const fp *a)
{
    limbs_mont_mul(r->l, a->l, a->l, FP_MODULUS, FP_N0, FP_LIMBS);
}

void fr_mul_portable(fr *r, const fr *a, const fr *b)
{
    limbs_mont_mul(r->l, a->l, b->l, FR_MODULUS, FR_N0, FR_LIMBS);
}

void fr_sqr_portable(fr *r, const fr *a)
{
    limbs_mont_mul(r->l, a->l, a->l, FR_MODULUS, FR_N0, FR_LIMBS);
}

void fp_mul_wide_portable(uint64_t t[12], const uint64_t a[6], const uint64_t b[6])
{
    limbs_mul_wide(t, a, b, FP_LIMBS);
}

void fp_redc_portable(fp *r, const uint64_t t[12]) { limbs_redc(r->l, t, FP_MODULUS, FP_N0, FP_LIMBS); }
