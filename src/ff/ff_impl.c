/* Dispatch of the hot field operations (fp_mul, fp_sqr, fr_mul, fr_sqr) between the portable and
 * the ADX code. The choice is a single flag tested in the function itself, with the ADX body
 * inlined behind it, so a dispatched call costs one well-predicted branch and no indirect call. */
#include "ff/ff_impl.h"
#include "ff/mont.h"
#include "ff/mont_adx.h"
#include "ff/fp_inline.h"

bool ff_use_adx;
static cuzk_impl current = CUZK_IMPL_PORTABLE;

cuzk_status ff_set_impl(cuzk_impl impl)
{
    if (!cuzk_impl_supported(impl))
        return CUZK_ERR_UNSUPPORTED;
    current = impl;
    /* IFMA is a batched-kernel implementation; its scalar operations are the ADX ones. */
    ff_use_adx = impl == CUZK_IMPL_ADX || impl == CUZK_IMPL_IFMA;
    return CUZK_OK;
}

cuzk_impl ff_get_impl(void) { return current; }

__attribute__((constructor)) static void ff_impl_init(void) { ff_set_impl(cuzk_impl_from_env()); }

#if defined(CUZK_FF_HAVE_ADX)
#define FF_ADX_ON __builtin_expect(ff_use_adx, 1)
#else
#define FF_ADX_ON 0
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
    fr_mul_portable(r, a, b);
}

void fr_sqr(fr *r, const fr *a)
{
#if defined(CUZK_FF_HAVE_ADX)
    if (FF_ADX_ON) {
        fr_sqr_adx_inl(r, a);
        return;
    }
#endif
    fr_sqr_portable(r, a);
}

void fp_mul_wide(uint64_t t[12], const uint64_t a[6], const uint64_t b[6])
{
#if defined(CUZK_FF_HAVE_ADX)
    if (FF_ADX_ON) {
        fp_mul_wide_adx_inl(t, a, b);
        return;
    }
#endif
    fp_mul_wide_portable(t, a, b);
}

void fp_redc(fp *r, const uint64_t t[12])
{
#if defined(CUZK_FF_HAVE_ADX)
    if (FF_ADX_ON) {
        fp_redc_adx_inl(r, t);
        return;
    }
#endif
    fp_redc_portable(r, t);
}
