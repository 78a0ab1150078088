/* Butterfly arithmetic of the IFMA NTT kernels on fr8v (ff/ifma/fr8_ops.h: 5 limbs of 52 bits,
 * Montgomery divisor 2^260), shaped for the butterflies: the product can leave its limbs
 * unnormalised when every consumer normalises anyway. A value is "loose" when its limbs are
 * non-negative and below 2^60 but not necessarily below 2^52; its value obeys the same range as
 * a normalised one. A value is "loose-signed" (lf_reduce's results) when its limbs below the top
 * one are in (−2^52, 2^52) and its value is still non-negative and in range. Loose and
 * loose-signed values may enter lf_add, lf_sub, lf_sub_lazy, lf_add_red and m52_norm;
 * multiplications, m52_csub, the final reduction and the stores need normalised ones. Included
 * after simd512.h. */
#ifndef CUZK_NTT_KERN_IFMA_ARITH_H
#define CUZK_NTT_KERN_IFMA_ARITH_H
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

/* Limb j of k·r (k < 8), normalised, and M = floor(2^98 / (r_4 + 1)) for r_4 = r >> 208: the
 * quotient estimate of lf_reduce. */
static const uint64_t LF_KR[5][8] = {
    {0x0ull, 0xfffff00000001ull, 0xffffe00000002ull, 0xffffd00000003ull, 0xffffc00000004ull,
     0xffffb00000005ull, 0xffffa00000006ull, 0xffff900000007ull},
    {0x0ull, 0x2fffe5bfefffull, 0x5fffcb7fdfffull, 0x8fffb13fcfffull, 0xbfff96ffbfffull,
     0xefff7cbfafffull, 0x11fff627f9fffull, 0x14fff483f8fffull},
    {0x0ull, 0x9a1d80553bda4ull, 0x343b00aa77b48ull, 0xce5880ffb38ecull, 0x68760154ef690ull,
     0x29381aa2b434ull, 0x9cb101ff671d8ull, 0x36ce8254a2f7cull},
    {0x0ull, 0x7d483339d8080ull, 0xfa906673b0101ull, 0x77d899ad88181ull, 0xf520cce760202ull,
     0x7269002138283ull, 0xefb1335b10303ull, 0x6cf96694e8384ull},
    {0x0ull, 0x73eda753299dull, 0xe7db4ea6533aull, 0x15bc8f5f97cd8ull, 0x1cfb69d4ca675ull,
     0x243a4449fd013ull, 0x2b791ebf2f9b0ull, 0x32b7f9346234eull},
};
#define LF_KR_M ((uint64_t)(((unsigned __int128)1 << 98) / (0x73eda753299dull + 1)))

/* r = a − q·r' for q = floor(a_4·M / 2^98) (a_4 the top limb): one IFMA and a table lookup per
 * limb instead of comparisons and carry chains. For a normalised a < 8r', q <= floor(a/r')
 * (so r >= 0), and q = floor(a_4 / (r_4 + 1)), or one less where a_4 is a multiple of
 * r_4 + 1; either way r < r' + 8·2^208 < r' + 2^211 < 2r'. The limbs of r are signed
 * (|r_j| < 2^52 below the top one): "loose-signed". */
V8_INLINE void lf_reduce(fr8v *r, const fr8v *a)
{
    const v8 q = v8_shr(v8_madd52hi(v8_zero(), a->l[4], v8_set1(LF_KR_M)), 46);
V8_UNROLL
    for (int j = 0; j < 5; j++) {
        const v8 kr = v8_load(LF_KR[j]);
        r->l[j] = v8_sub(a->l[j], v8_permx2(kr, q, kr));
    }
}

/* a + b into [0, 2r), loose-signed (lf_reduce); a, b < 2r, loose or loose-signed allowed. */
V8_INLINE void lf_add_red(fr8v *r, const fr8v *a, const fr8v *b)
{
    m52_add_lazy(r->l, a->l, b->l, 5);
    lf_reduce(r, r);
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

/* a − b + 2r in (0, 4r), normalised; a, b < 2r, loose or loose-signed allowed. Only a product
 * with a factor below r may take it (4r·r < r·2^260). */
V8_INLINE void lf_sub_lazy(fr8v *r, const fr8v *a, const fr8v *b)
{
    m52_sub_lazy(r->l, a->l, b->l, FR8_2R, 5);
}

#endif
