/* The scalar field operations dispatched through the table's FF entry (ff_impl.h). With the ADX
 * entry the ADX body is inlined behind the table's flag, so a dispatched call costs one
 * well-predicted branch and no indirect call; any other entry is called through its pointer. */
#include "ff/ff_impl.h"
#include "ff/mont.h"
#include "ff/mont_adx.h"
#include "ff/fp_inline.h"

const ff_ops ff_ops_portable = {
    .name = "portable",
    .fp_mul = fp_mul_portable,
    .fp_sqr = fp_sqr_portable,
    .fr_mul = fr_mul_portable,
    .fr_sqr = fr_sqr_portable,
    .fp_mul_wide = fp_mul_wide_portable,
    .fp_redc = fp_redc_portable,
};

#if defined(CUZK_FF_HAVE_ADX)
const ff_ops ff_ops_adx = {
    .name = "adx",
    .fp_mul = fp_mul_adx,
    .fp_sqr = fp_sqr_adx,
    .fr_mul = fr_mul_adx,
    .fr_sqr = fr_sqr_adx,
    .fp_mul_wide = fp_mul_wide_adx,
    .fp_redc = fp_redc_adx,
};
#endif

const void *ff_variant(cuzk_variant v)
{
#if defined(CUZK_FF_HAVE_ADX)
    if (v == CUZK_VARIANT_ADX || v == CUZK_VARIANT_AVX2 || v == CUZK_VARIANT_IFMA)
        return &ff_ops_adx;
#endif
    (void)v;
    return &ff_ops_portable;
}

#if defined(CUZK_FF_HAVE_ADX)
#define FF_ADX_ON __builtin_expect(cuzk_dispatch_ff_adx(), 1)
#endif

void fp_mul(fp *r, const fp *a, const fp *b) { fp_mul_inl(r, a, b); }

void fp_sqr(fp *r, const fp *a) { fp_sqr_inl(r, a); }

void fr_mul(fr *r, const fr *a, const fr *b)
{
#if defined(CUZK_FF_HAVE_ADX)
    if (FF_ADX_ON) {
        fr_mul_adx_inl(r, a, b);
        return;
    }
#endif
    ff_active()->fr_mul(r, a, b);
}

void fr_sqr(fr *r, const fr *a)
{
#if defined(CUZK_FF_HAVE_ADX)
    if (FF_ADX_ON) {
        fr_sqr_adx_inl(r, a);
        return;
    }
#endif
    ff_active()->fr_sqr(r, a);
}

void fp_mul_wide(uint64_t t[12], const uint64_t a[6], const uint64_t b[6])
{
#if defined(CUZK_FF_HAVE_ADX)
    if (FF_ADX_ON) {
        fp_mul_wide_adx_inl(t, a, b);
        return;
    }
#endif
    ff_active()->fp_mul_wide(t, a, b);
}

void fp_redc(fp *r, const uint64_t t[12])
{
#if defined(CUZK_FF_HAVE_ADX)
    if (FF_ADX_ON) {
        fp_redc_adx_inl(r, t);
        return;
    }
#endif
    ff_active()->fp_redc(r, t);
}
