/* Inline Fp and Fp2 operations for the MSM hot loops (msm_fp_*, msm_fp2_*), built on the field
 * code's inline header (ff/fp_inline.h), which follows its implementation switch. Each
 * batch-affine addition does ~7 additions/subtractions next to 6 multiplications; as calls they cost
 * about one multiplication more. Same results as fp_* / fp2_* (fully reduced Montgomery form). */
#ifndef CUZK_MSM_FE_INLINE_H
#define CUZK_MSM_FE_INLINE_H
#include <stdbool.h>
#include "ff/fp.h"
#include "ff/fp2.h"
#include "ff/fp_inline.h"
#include "ff/limbs.h"

static inline void msm_fp_add(fp *r, const fp *a, const fp *b)
{
    fp_add_inl(r, a, b);
}

static inline void msm_fp_sub(fp *r, const fp *a, const fp *b)
{
    fp_sub_inl(r, a, b);
}

static inline void msm_fp_dbl(fp *r, const fp *a)
{
    fp_dbl_inl(r, a);
}

static inline void msm_fp_neg(fp *r, const fp *a)
{
    fp_neg_inl(r, a);
}

static inline bool msm_fp_is_zero(const fp *a)
{
    return limbs_is_zero(a->l, FP_LIMBS);
}

static inline bool msm_fp_eq(const fp *a, const fp *b)
{
    uint64_t d = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        d |= a->l[i] ^ b->l[i];
    return d == 0;
}

static inline void msm_fp_mul(fp *r, const fp *a, const fp *b)
{
    fp_mul_inl(r, a, b);
}

static inline void msm_fp_sqr(fp *r, const fp *a)
{
    fp_sqr_inl(r, a);
}

static inline void msm_fp_inv(fp *r, const fp *a)
{
    fp_inv_vartime(r, a);   /* variable time: see fp.h */
}

static inline void msm_fp2_add(fp2 *r, const fp2 *a, const fp2 *b)
{
    msm_fp_add(&r->c0, &a->c0, &b->c0);
    msm_fp_add(&r->c1, &a->c1, &b->c1);
}

static inline void msm_fp2_sub(fp2 *r, const fp2 *a, const fp2 *b)
{
    msm_fp_sub(&r->c0, &a->c0, &b->c0);
    msm_fp_sub(&r->c1, &a->c1, &b->c1);
}

static inline void msm_fp2_dbl(fp2 *r, const fp2 *a)
{
    msm_fp_dbl(&r->c0, &a->c0);
    msm_fp_dbl(&r->c1, &a->c1);
}

static inline void msm_fp2_neg(fp2 *r, const fp2 *a)
{
    msm_fp_neg(&r->c0, &a->c0);
    msm_fp_neg(&r->c1, &a->c1);
}

static inline bool msm_fp2_is_zero(const fp2 *a)
{
    return msm_fp_is_zero(&a->c0) && msm_fp_is_zero(&a->c1);
}

static inline bool msm_fp2_eq(const fp2 *a, const fp2 *b)
{
    return msm_fp_eq(&a->c0, &b->c0) && msm_fp_eq(&a->c1, &b->c1);
}

/* The field code's Fp2 products use lazy reduction (two reductions for three products): faster
 * than anything assembled here from Fp operations. */
static inline void msm_fp2_mul(fp2 *r, const fp2 *a, const fp2 *b)
{
    fp2_mul(r, a, b);
}

static inline void msm_fp2_sqr(fp2 *r, const fp2 *a)
{
    fp2_sqr(r, a);
}

static inline void msm_fp2_inv(fp2 *r, const fp2 *a)
{
    fp2_inv(r, a);
}

#endif
