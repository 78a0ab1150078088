/* Butterfly arithmetic of the IFMA NTT kernels on fr8v (ff/ifma/fr8_ops.h: 5 limbs of 52 bits,
 * Montgomery divisor 2^260), shaped for the butterflies: the product can leave its limbs
 * unnormalised when every consumer normalises anyway. A value is "loose" when its limbs are
 * non-negative and below 2^60 but not necessarily below 2^52; its value obeys the same range as
 * a normalised one. A value is "loose-signed" (lf_reduce's results) when its limbs below the top
 * one are in (−2^52, 2^52) and its value is still non-negative and in range. Loose and
 * loose-signed values may enter lf_add, lf_sub, lf_sub_lazy, lf_dif_start and m52_norm;
 * multiplications, m52_csub, the final reduction and the stores need normalised ones. Included
 * after simd512.h. */
#ifndef CUZK_NTT_KERN_IFMA_ARITH_H
#define CUZK_NTT_KERN_IFMA_ARITH_H
#include <stdbool.h>
#include <stdint.h>
#include "ff/ifma/fr8_ops.h"

/* r = a·b·2^−260 mod r', in [0, a·b·2^−260 + r): m52_mul's operand scanning, with the final carry
 * propagation only when norm is set (else loose: each limb is a sum of fewer than 2^6 terms
 * below 2^52 plus a carry). Needs normalised a, b with a·b < r·2^260. */
V8_INLINE void lf_mul(fr8v *r, const fr8v *a, const fr8v *b, int norm)
{
    const v8 zero = v8_zero(), vqinv = v8_set1(FR8_RINV);
    v8 t[6];
V8_UNROLL
    for (int j = 0; j < 6; j++)
        t[j] = zero;
V8_UNROLL
    for (int i = 0; i < 5; i++) {
        const v8 ai = a->l[i];
V8_UNROLL
        for (int j = 0; j < 5; j++) {
            t[j] = v8_madd52lo(t[j], ai, b->l[j]);
            t[j + 1] = v8_madd52hi(t[j + 1], ai, b->l[j]);
        }
        const v8 m = v8_madd52lo(zero, t[0], vqinv);
V8_UNROLL
        for (int j = 0; j < 5; j++) {
            const v8 qj = v8_set1(FR8_R[j]);
            t[j] = v8_madd52lo(t[j], m, qj);
            t[j + 1] = v8_madd52hi(t[j + 1], m, qj);
        }
        const v8 c = v8_shr(t[0], 52);
V8_UNROLL
        for (int j = 0; j < 5; j++)
            t[j] = t[j + 1];
        t[5] = zero;
        t[0] = v8_add(t[0], c);
    }
V8_UNROLL
    for (int j = 0; j < 5; j++)
        r->l[j] = t[j];
    if (norm)
        m52_norm(r->l, 5);
}

/* N (<= LF_MULN_MAX) independent products of lf_mul, loose, their rounds interleaved: each
 * round's dependency chain (the quotient digit, then the carry) is long, and the other products'
 * rounds fill the pipelines meanwhile. Any r[u] may alias any input. Two is the measured best:
 * three spill out of the 32 vector registers and ran slower. */
#define LF_MULN_MAX 2
V8_INLINE void lf_muln(int N, fr8v *const *r, const fr8v *const *a, const fr8v *const *b)
{
    const v8 zero = v8_zero(), vqinv = v8_set1(FR8_RINV);
    v8 t[LF_MULN_MAX][6];
V8_UNROLL
    for (int u = 0; u < N; u++)
V8_UNROLL
        for (int j = 0; j < 6; j++)
            t[u][j] = zero;
V8_UNROLL
    for (int i = 0; i < 5; i++) {
        v8 m[LF_MULN_MAX];
V8_UNROLL
        for (int u = 0; u < N; u++) {
            const v8 ai = a[u]->l[i];
V8_UNROLL
            for (int j = 0; j < 5; j++) {
                t[u][j] = v8_madd52lo(t[u][j], ai, b[u]->l[j]);
                t[u][j + 1] = v8_madd52hi(t[u][j + 1], ai, b[u]->l[j]);
            }
            m[u] = v8_madd52lo(zero, t[u][0], vqinv);
        }
V8_UNROLL
        for (int u = 0; u < N; u++) {
V8_UNROLL
            for (int j = 0; j < 5; j++) {
                const v8 qj = v8_set1(FR8_R[j]);
                t[u][j] = v8_madd52lo(t[u][j], m[u], qj);
                t[u][j + 1] = v8_madd52hi(t[u][j + 1], m[u], qj);
            }
            const v8 c = v8_shr(t[u][0], 52);
V8_UNROLL
            for (int j = 0; j < 5; j++)
                t[u][j] = t[u][j + 1];
            t[u][5] = zero;
            t[u][0] = v8_add(t[u][0], c);
        }
    }
V8_UNROLL
    for (int u = 0; u < N; u++)
V8_UNROLL
        for (int j = 0; j < 5; j++)
            r[u]->l[j] = t[u][j];
}

/* Two products (lf_muln). */
V8_INLINE void lf_mul2(fr8v *r, const fr8v *a, const fr8v *b, fr8v *r2, const fr8v *a2,
                       const fr8v *b2)
{
    fr8v *const R[2] = {r, r2};
    const fr8v *const A[2] = {a, a2}, *const B[2] = {b, b2};
    lf_muln(2, R, A, B);
}

/* Limb j of k·r (k < 16), normalised, and M = floor(2^98 / (r_4 + 1)) for r_4 = r >> 208: the
 * quotient estimate of lf_reduce. */
static const uint64_t LF_KR[5][16] __attribute__((aligned(64))) = {
    {0x0ull, 0xfffff00000001ull, 0xffffe00000002ull, 0xffffd00000003ull, 0xffffc00000004ull,
     0xffffb00000005ull, 0xffffa00000006ull, 0xffff900000007ull, 0xffff800000008ull, 0xffff700000009ull,
     0xffff60000000aull, 0xffff50000000bull, 0xffff40000000cull, 0xffff30000000dull, 0xffff20000000eull,
     0xffff10000000full},
    {0x0ull, 0x2fffe5bfefffull, 0x5fffcb7fdfffull, 0x8fffb13fcfffull, 0xbfff96ffbfffull, 0xefff7cbfafffull,
     0x11fff627f9fffull, 0x14fff483f8fffull, 0x17fff2dff7fffull, 0x1afff13bf6fffull, 0x1dffef97f5fffull,
     0x20ffedf3f4fffull, 0x23ffec4ff3fffull, 0x26ffeaabf2fffull, 0x29ffe907f1fffull, 0x2cffe763f0fffull},
    {0x0ull, 0x9a1d80553bda4ull, 0x343b00aa77b48ull, 0xce5880ffb38ecull, 0x68760154ef690ull, 0x29381aa2b434ull,
     0x9cb101ff671d8ull, 0x36ce8254a2f7cull, 0xd0ec02a9ded20ull, 0x6b0982ff1aac4ull, 0x527035456868ull,
     0x9f4483a99260cull, 0x396203fece3b0ull, 0xd37f84540a154ull, 0x6d9d04a945ef8ull, 0x7ba84fe81c9cull},
    {0x0ull, 0x7d483339d8080ull, 0xfa906673b0101ull, 0x77d899ad88181ull, 0xf520cce760202ull,
     0x7269002138283ull, 0xefb1335b10303ull, 0x6cf96694e8384ull, 0xea4199cec0404ull, 0x6789cd0898485ull,
     0xe4d2004270506ull, 0x621a337c48586ull, 0xdf6266b620607ull, 0x5caa99eff8687ull, 0xd9f2cd29d0708ull,
     0x573b0063a8789ull},
    {0x0ull, 0x73eda753299dull, 0xe7db4ea6533aull, 0x15bc8f5f97cd8ull, 0x1cfb69d4ca675ull, 0x243a4449fd013ull,
     0x2b791ebf2f9b0ull, 0x32b7f9346234eull, 0x39f6d3a994cebull, 0x4135ae1ec7689ull, 0x48748893fa026ull,
     0x4fb363092c9c4ull, 0x56f23d7e5f361ull, 0x5e3117f391cffull, 0x656ff268c469cull, 0x6caeccddf703aull},
};
#define LF_KR_M ((uint64_t)(((unsigned __int128)1 << 98) / (0x73eda753299dull + 1)))

/* r = a − q·r' for q = floor(a_4·M / 2^98) (a_4 the top limb): one IFMA and a table lookup per
 * limb instead of comparisons and carry chains. For a normalised a < 16r', q <= floor(a/r')
 * (so r >= 0), and q = floor(a_4 / (r_4 + 1)), or one less where a_4 is a multiple of
 * r_4 + 1; either way r < r' + 16·2^208 = r' + 2^212 < 2r'. The limbs of r are signed
 * (|r_j| < 2^52 below the top one): "loose-signed". */
V8_INLINE void lf_reduce(fr8v *r, const fr8v *a)
{
    const v8 q = v8_shr(v8_madd52hi(v8_zero(), a->l[4], v8_set1(LF_KR_M)), 46);
V8_UNROLL
    for (int j = 0; j < 5; j++)
        r->l[j] = v8_sub(a->l[j], v8_permx2(v8_load(LF_KR[j]), q, v8_load(LF_KR[j] + 8)));
}

/* a + b into [0, 2r), normalised; a, b < 2r, loose or loose-signed allowed. */
V8_INLINE void lf_add(fr8v *r, const fr8v *a, const fr8v *b)
{
    fr8v_add(r, a, b);
}

/* a − b into [0, 2r), normalised; a, b < 2r, loose or loose-signed allowed. */
V8_INLINE void lf_sub(fr8v *r, const fr8v *a, const fr8v *b)
{
    fr8v_sub(r, a, b);
}

/* a − b + 2r, normalised, for b <= 2r and a + 2r < 2^260 (in (0, 4r) for a, b < 2r); loose or
 * loose-signed limbs allowed. */
V8_INLINE void lf_sub_lazy(fr8v *r, const fr8v *a, const fr8v *b)
{
    m52_sub_lazy(r->l, a->l, b->l, FR8_2R, 5);
}

/* The sum and difference of a Gentleman–Sande butterfly, x <- x + y and d = x − y + k·r (k = 2, 4
 * or 8, a row of LF_KR, so that d > 0), before the product d·w. The kernels reduce the sums in one stage of three
 * (ntt_kern_ifma.h), so that the values grow in between; the stage's kind says by how much:
 *   LF_DIF_LAZY2   x, y < 2r: x + y (< 4r) unnormalised, d = x − y + 2r (< 4r);
 *   LF_DIF_LAZY4   x, y < 4r: x + y (< 8r) unnormalised, d = x − y + 4r (< 8r);
 *   LF_DIF_REDUCE  x, y < 8r: x + y (< 16r) reduced to [0, r + 2^212), loose-signed (lf_reduce),
 *                  d = x − y + 8r (< 16r).
 * Inputs may be normalised, loose, loose-signed or unnormalised sums; d is normalised. An
 * unnormalised sum adds limbs without carries: at most four such limbs after two lazy stages, each
 * in (−2^52, 2^58), so below 2^61 in magnitude, which m52_norm (arithmetic shifts) handles. Any
 * twiddle below 1.5r may multiply d: 16r·1.5r < r·2^260, and the product is below 2r. */
enum { LF_DIF_REDUCE = 0, LF_DIF_LAZY4 = 1, LF_DIF_LAZY2 = 2 };
_Static_assert((8u >> LF_DIF_REDUCE) == 8 && (8u >> LF_DIF_LAZY4) == 4 && (8u >> LF_DIF_LAZY2) == 2,
               "lf_dif_start finds a kind's constant as 8 >> kind");

V8_INLINE void lf_dif_start(fr8v *x, fr8v *d, const fr8v *y, int kind)
{
    const unsigned k = 8u >> kind; /* the inputs' bound in units of r: 8, 4, 2 */
    const uint64_t kr[5] = {LF_KR[0][k], LF_KR[1][k], LF_KR[2][k], LF_KR[3][k], LF_KR[4][k]};
    fr8v s; /* the sum first: with the difference first the in-cache block ran 1.5 % slower */
    if (kind == LF_DIF_REDUCE) {
        m52_add_lazy(s.l, x->l, y->l, 5);
        lf_reduce(&s, &s);
    } else {
V8_UNROLL
        for (int j = 0; j < 5; j++)
            s.l[j] = v8_add(x->l[j], y->l[j]);
    }
    m52_sub_lazy(d->l, x->l, y->l, kr, 5);
    *x = s;
}

/* The end of a Cooley–Tukey butterfly from its product t = y·w: (x, y) <- (x + t, x − t + 2r),
 * both normalised. With reduce, x is first brought below r + 2^212 (lf_reduce): inputs below 8r
 * give t < 1.34r for a twiddle below 1.5r and outputs below 4r. Without, inputs below 4r give
 * outputs below 6r, and inputs below 6r outputs below 8r (t < 1.26r): the kernels reduce in one
 * stage of three, so that values stay below 8r and every product y·w < 8r·1.5r stays valid. */
V8_INLINE void lf_dit_finish(fr8v *x, fr8v *y, const fr8v *t, bool reduce)
{
    fr8v xr;
    if (reduce)
        lf_reduce(&xr, x);
    else
        xr = *x;
    m52_add_lazy(x->l, xr.l, t->l, 5);
    lf_sub_lazy(y, &xr, t);
}

#endif
