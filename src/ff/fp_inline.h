/* Inline Fp operations for hot loops (MSM buckets): the same code and results as fp_add, fp_sub,
 * fp_dbl, fp_neg, fp_mul and fp_sqr, which are themselves built on these. fp_mul_inl / fp_sqr_inl
 * follow the dispatch table's FF entry (ff_impl.h) exactly as the out-of-line functions do. */
#ifndef CUZK_FF_FP_INLINE_H
#define CUZK_FF_FP_INLINE_H
#include "ff/addsub_x86.h"
#include "ff/ff_impl.h"
#include "ff/fp.h"
#include "ff/limbs.h"
#include "ff/mont.h"
#include "ff/mont_adx.h"

static inline void fp_add_inl(fp *r, const fp *a, const fp *b)
{
#if defined(__x86_64__)
    mod_add_6(r->l, a->l, b->l, FP_MODULUS);
#else
    limbs_mod_add(r->l, a->l, b->l, FP_MODULUS, FP_LIMBS);
#endif
}

static inline void fp_sub_inl(fp *r, const fp *a, const fp *b)
{
#if defined(__x86_64__)
    mod_sub_6(r->l, a->l, b->l, FP_MODULUS);
#else
    limbs_mod_sub(r->l, a->l, b->l, FP_MODULUS, FP_LIMBS);
#endif
}

static inline void fp_dbl_inl(fp *r, const fp *a) { fp_add_inl(r, a, a); }

/* 0 − a: the subtraction borrows (and adds p back) exactly when a is non-zero. */
static inline void fp_neg_inl(fp *r, const fp *a) { fp_sub_inl(r, &FP_ZERO, a); }

static inline void fp_mul_inl(fp *r, const fp *a, const fp *b)
{
#if defined(CUZK_FF_HAVE_ADX)
    if (__builtin_expect(cuzk_dispatch_ff_adx(), 1)) {
        fp_mul_adx_inl(r, a, b);
        return;
    }
#endif
    ff_active()->fp_mul(r, a, b);
}

static inline void fp_sqr_inl(fp *r, const fp *a)
{
#if defined(CUZK_FF_HAVE_ADX)
    if (__builtin_expect(cuzk_dispatch_ff_adx(), 1)) {
        fp_sqr_adx_inl(r, a);
        return;
    }
#endif
    ff_active()->fp_sqr(r, a);
}

#endif
