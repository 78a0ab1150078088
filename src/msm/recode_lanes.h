/* Lane template of the signed-digit recoding (recode.h): msm_scalar_fold and msm_digit of digits.h
 * for 8 scalars per step, with the borrow chains as mask operations. A build file defines
 * MSM_RECODE_NAME (and IFMA_REAL for the AVX-512 build), then includes this file once. */
#ifndef CUZK_MSM_RECODE_LANES_H
#define CUZK_MSM_RECODE_LANES_H
#include <string.h>
#include "ff/ifma/simd512.h"
#include "msm/recode.h"

_Static_assert(sizeof(cuzk_scalar_t) == 4 * sizeof(uint64_t), "a scalar is 4 words");

/* 8 consecutive scalars, limb-major: lane i of l[k] is limb k of s[i]. */
V8_INLINE void recode_load8(v8 l[4], const cuzk_scalar_t *s)
{
    static const uint64_t limbs01[8] = {0, 4, 8, 12, 1, 5, 9, 13}, limbs23[8] = {2, 6, 10, 14, 3, 7, 11, 15};
    static const uint64_t low4[8] = {0, 1, 2, 3, 8, 9, 10, 11}, high4[8] = {4, 5, 6, 7, 12, 13, 14, 15};
    const uint64_t *w = s->l;
    v8 a0 = v8_load(w), a1 = v8_load(w + 8), a2 = v8_load(w + 16), a3 = v8_load(w + 24);
    v8 b0 = v8_permx2(a0, v8_load(limbs01), a1); /* limbs 0, 1 of s[0..3] */
    v8 b1 = v8_permx2(a0, v8_load(limbs23), a1); /* limbs 2, 3 of s[0..3] */
    v8 c0 = v8_permx2(a2, v8_load(limbs01), a3); /* the same of s[4..7] */
    v8 c1 = v8_permx2(a2, v8_load(limbs23), a3);
    l[0] = v8_permx2(b0, v8_load(low4), c0);
    l[1] = v8_permx2(b0, v8_load(high4), c0);
    l[2] = v8_permx2(b1, v8_load(low4), c1);
    l[3] = v8_permx2(b1, v8_load(high4), c1);
}

/* The borrow out of a − b − borrow_in, per lane. */
V8_INLINE m8 recode_borrow(v8 a, v8 b, m8 borrow_in)
{
    return (m8)(v8_ltu_mask(a, b) | (v8_eq_mask(a, b) & borrow_in));
}

/* The codes of 8 scalars s (limb-major) in window *win. */
V8_INLINE v8 recode8(const v8 s[4], const msm_window *win)
{
    const v8 one = v8_set1(1);
    v8 t[4];
    m8 borrow = 0, gt = 0;
V8_UNROLL
    for (int k = 0; k < 4; k++) {   /* t = r − s; gt = s > (r − 1)/2, by the borrow of (r − 1)/2 − s */
        v8 r = v8_set1(MSM_R[k]);
        v8 d = v8_sub(r, s[k]);
        t[k] = v8_blend(borrow, d, v8_sub(d, one));
        borrow = recode_borrow(r, s[k], borrow);
        gt = recode_borrow(v8_set1(MSM_R_HALF[k]), s[k], gt);
    }
V8_UNROLL
    for (int k = 0; k < 4; k++)
        t[k] = v8_blend(gt, s[k], t[k]);

    unsigned c = win->c, idx = win->idx, sh = win->sh;
    v8 raw = v8_zero();
    if (idx < 4) {
        raw = v8_shr(t[idx], sh);
        if (sh + c > 64 && idx + 1 < 4)
            raw = v8_or(raw, v8_shl(t[idx + 1], 64 - sh));
        raw = v8_and(raw, v8_set1(((uint64_t)1 << c) - 1));
    }
    m8 carry = 0; /* (t mod 2^(c·w)) > H_w: the borrow of H_w − (t & low) */
    for (int k = 0; k < 4; k++)
        if (win->low[k] | win->h[k]) /* else both are 0: the borrow passes through */
            carry = recode_borrow(v8_set1(win->h[k]), v8_and(t[k], v8_set1(win->low[k])), carry);
    v8 d = v8_blend(carry, raw, v8_add(raw, one));
    m8 over = v8_ltu_mask(v8_set1((uint64_t)1 << (c - 1)), d); /* d > 2^(c−1): d − 2^c < 0 */
    v8 mag = v8_blend(over, d, v8_sub(v8_set1((uint64_t)1 << c), d));
    v8 code = v8_or(v8_shl(mag, 1), v8_blend((m8)(gt ^ over), v8_zero(), one));
    return v8_blend(v8_eq_mask(mag, v8_zero()), code, v8_zero());
}

/* See msm_recode_fn in recode.h. */
msm_recode_fn MSM_RECODE_NAME;
void MSM_RECODE_NAME(uint32_t *codes, const cuzk_scalar_t *scalars, const uint32_t *sidx, size_t lo,
                     size_t n, const msm_window *win)
{
    cuzk_scalar_t gathered[8];
    for (size_t j = 0; j < n; j += 8) {
        size_t m = n - j < 8 ? n - j : 8;
        const cuzk_scalar_t *s = &scalars[lo + j];
        if (sidx || m < 8) { /* scattered or the tail: copied together, the tail padded with 0 */
            for (size_t i = 0; i < 8; i++) {
                if (i < m)
                    gathered[i] = scalars[sidx ? sidx[lo + j + i] : lo + j + i];
                else
                    memset(&gathered[i], 0, sizeof gathered[i]);
            }
            s = gathered;
        }
        v8 l[4];
        uint64_t out[8];
        recode_load8(l, s);
        v8_store(out, recode8(l, win));
        for (size_t i = 0; i < m; i++)
            codes[j + i] = (uint32_t)out[i];
    }
}

#endif
