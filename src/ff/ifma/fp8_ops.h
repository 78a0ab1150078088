/* Kernel template: 8-lane Fp (BLS12-381 base field) in radix 2^52, Montgomery factor R' = 2^416,
 * over mont52.h. Included by the real and the emulated build after simd512.h; the representation
 * and its invariants are documented in ifma.h. */
#ifndef CUZK_FF_IFMA_FP8_OPS_H
#define CUZK_FF_IFMA_FP8_OPS_H
#include <stdint.h>
#include "ff/ifma/mont52.h"

typedef struct { v8 l[8]; } fp8v; /* l[j] = limb j (weight 2^(52j)) of the 8 lanes */

/* p, 2p, 4p in radix 2^52; -p^-1 mod 2^52; 2^448 and 2^384 mod p (the factor changes R <-> R'). */
static const uint64_t FP8_P[8] = {0xeffffffffaaabull, 0xfeb153ffffb9full, 0x6b0f6241eabffull,
                                  0x12bf6730d2a0full, 0x764774b84f385ull, 0x1ba7b6434bacdull,
                                  0x1ea397fe69a4bull, 0x000000001a011ull};
static const uint64_t FP8_2P[8] = {0xdffffffff5556ull, 0xfd62a7ffff73full, 0xd61ec483d57ffull,
                                   0x257ece61a541eull, 0xec8ee9709e70aull, 0x374f6c869759aull,
                                   0x3d472ffcd3496ull, 0x0000000034022ull};
static const uint64_t FP8_4P[8] = {0xbfffffffeaaacull, 0xfac54ffffee7full, 0xac3d8907aafffull,
                                   0x4afd9cc34a83dull, 0xd91dd2e13ce14ull, 0x6e9ed90d2eb35ull,
                                   0x7a8e5ff9a692cull, 0x0000000068044ull};
#define FP8_PINV 0x3fffcfffcfffdull
static const uint64_t FP8_2E448[8] = {0x7fde37dba9366ull, 0x4e27525bc342bull, 0x1f5b1e9778489ull,
                                      0xb872b2b91b9dcull, 0xb206f497dfcafull, 0x4137cc89a9b0bull,
                                      0xd9d20d7e39959ull, 0x000000000411cull};
static const uint64_t FP8_2E384[8] = {0x900000002fffdull, 0x0bc40c0002760ull, 0x3c758baebf400ull,
                                      0x57455f4898575ull, 0xd77ce58537052ull, 0x071a97a256ec6ull,
                                      0xec3fa80e4935cull, 0x0000000015f65ull};

V8_INLINE void fp8v_const(fp8v *r, const uint64_t k[8])
{
    for (int j = 0; j < 8; j++)
        r->l[j] = v8_set1(k[j]);
}

V8_INLINE void fp8v_mul(fp8v *r, const fp8v *a, const fp8v *b) { m52_mul(r->l, a->l, b->l, FP8_P, FP8_PINV, 8); }
V8_INLINE void fp8v_sqr(fp8v *r, const fp8v *a) { m52_sqr(r->l, a->l, FP8_P, FP8_PINV, 8); }
/* r = a·b and s = c·d (r = a² and s = c²) at once: see m52_mul2. */
V8_INLINE void fp8v_mul2(fp8v *r, const fp8v *a, const fp8v *b, fp8v *s, const fp8v *c, const fp8v *d)
{
    m52_mul2(r->l, a->l, b->l, s->l, c->l, d->l, FP8_P, FP8_PINV, 8);
}
V8_INLINE void fp8v_sqr2(fp8v *r, const fp8v *a, fp8v *s, const fp8v *c)
{
    m52_sqr2(r->l, a->l, s->l, c->l, FP8_P, FP8_PINV, 8);
}
V8_INLINE void fp8v_add_lazy(fp8v *r, const fp8v *a, const fp8v *b) { m52_add_lazy(r->l, a->l, b->l, 8); }
/* r = a + 4p - b */
V8_INLINE void fp8v_sub_lazy(fp8v *r, const fp8v *a, const fp8v *b) { m52_sub_lazy(r->l, a->l, b->l, FP8_4P, 8); }
/* [0, 2p) -> [0, p) */
V8_INLINE void fp8v_reduce(fp8v *r, const fp8v *a) { m52_csub(r->l, a->l, FP8_P, 8); }
/* a, b < 2p -> [0, 2p) */
V8_INLINE void fp8v_add(fp8v *r, const fp8v *a, const fp8v *b)
{
    m52_add_lazy(r->l, a->l, b->l, 8);
    m52_csub(r->l, r->l, FP8_2P, 8);
}
V8_INLINE void fp8v_sub(fp8v *r, const fp8v *a, const fp8v *b) { m52_sub_mod(r->l, a->l, b->l, FP8_2P, 8); }
V8_INLINE void fp8v_shl(fp8v *r, const fp8v *a, unsigned s) { m52_shl(r->l, a->l, s, 8); }

/* Radix change of 8 values held word-major in registers: w[k] holds 64-bit word k of every lane's
 * value (< 2^384); the limbs hold the same integers in radix 2^52. */
V8_INLINE void fp8v_from_regs(fp8v *r, const v8 w[6])
{
    const v8 mask = v8_set1(M52);
    r->l[0] = v8_and(w[0], mask);
    r->l[1] = v8_and(v8_or(v8_shr(w[0], 52), v8_shl(w[1], 12)), mask);
    r->l[2] = v8_and(v8_or(v8_shr(w[1], 40), v8_shl(w[2], 24)), mask);
    r->l[3] = v8_and(v8_or(v8_shr(w[2], 28), v8_shl(w[3], 36)), mask);
    r->l[4] = v8_and(v8_or(v8_shr(w[3], 16), v8_shl(w[4], 48)), mask);
    r->l[5] = v8_and(v8_shr(w[4], 4), mask);
    r->l[6] = v8_and(v8_or(v8_shr(w[4], 56), v8_shl(w[5], 8)), mask);
    r->l[7] = v8_shr(w[5], 44);
}

/* The inverse of fp8v_from_regs, for normalized a < 2^384. */
V8_INLINE void fp8v_to_regs(v8 w[6], const fp8v *a)
{
    const v8 *l = a->l;
    w[0] = v8_or(l[0], v8_shl(l[1], 52));
    w[1] = v8_or(v8_shr(l[1], 12), v8_shl(l[2], 40));
    w[2] = v8_or(v8_shr(l[2], 24), v8_shl(l[3], 28));
    w[3] = v8_or(v8_shr(l[3], 36), v8_shl(l[4], 16));
    w[4] = v8_or(v8_or(v8_shr(l[4], 48), v8_shl(l[5], 4)), v8_shl(l[6], 56));
    w[5] = v8_or(v8_shr(l[6], 8), v8_shl(l[7], 44));
}

/* Transposition + radix change: w[k][i] is 64-bit word k of lane i's value (< 2^384). */
V8_INLINE void fp8v_from_words(fp8v *r, const uint64_t w[6][8])
{
    v8 v[6];
    for (int k = 0; k < 6; k++)
        v[k] = v8_load(w[k]);
    fp8v_from_regs(r, v);
}

/* The inverse of fp8v_from_words, for normalized a < 2^384. */
V8_INLINE void fp8v_to_words(uint64_t w[6][8], const fp8v *a)
{
    v8 v[6];
    fp8v_to_regs(v, a);
    for (int k = 0; k < 6; k++)
        v8_store(w[k], v[k]);
}

/* In-register transposition of an 8 × 8 matrix of 64-bit words (r[i] = row i becomes column i):
 * at block sizes 4, 2, 1, the off-diagonal blocks of every 2h × 2h block swap; 24 two-source
 * permutes, instead of 64 scalar loads and stores through memory. */
static const uint64_t FP8_TR_IDX[3][2][8] = {
    {{0, 1, 2, 3, 8, 9, 10, 11}, {4, 5, 6, 7, 12, 13, 14, 15}},
    {{0, 1, 8, 9, 4, 5, 12, 13}, {2, 3, 10, 11, 6, 7, 14, 15}},
    {{0, 8, 2, 10, 4, 12, 6, 14}, {1, 9, 3, 11, 5, 13, 7, 15}}};

/* Stages first..2 of the transposition below over r[0..rows): at block size h = 4 >> st, the
 * off-diagonal h × h blocks of every 2h × 2h block swap. */
V8_INLINE void v8_transpose_stages(v8 *r, int rows, int first)
{
V8_UNROLL
    for (int st = first; st < 3; st++) {
        int h = 4 >> st;
        v8 lo = v8_load(FP8_TR_IDX[st][0]), hi = v8_load(FP8_TR_IDX[st][1]);
V8_UNROLL
        for (int i = 0; i < rows; i++) {
            if (i & h)
                continue;
            v8 a = r[i], b = r[i + h];
            r[i] = v8_permx2(a, lo, b);
            r[i + h] = v8_permx2(a, hi, b);
        }
    }
}

V8_INLINE void v8_transpose8(v8 r[8]) { v8_transpose_stages(r, 8, 0); }

/* The two 4 × 4 blocks of a 4 × 8 matrix transposed in place (the last two stages of v8_transpose8):
 * r[i] becomes column i in its low half and column i + 4 in its high half; 8 permutes. */
V8_INLINE void v8_transpose4x2(v8 r[4]) { v8_transpose_stages(r, 4, 1); }

/* Lane i = the Fp element (6 words, canonical or any value < 2^384) at src[i]. */
V8_INLINE void fp8v_gather(fp8v *r, const uint64_t *const src[8])
{
    v8 v[8];
V8_UNROLL
    for (int i = 0; i < 8; i++)
        v[i] = v8_load6(src[i]);
    v8_transpose8(v);
    fp8v_from_regs(r, v);
}

/* The first `lanes` lanes of a (normalized, < 2^384) to the 6 words at dst[i]. */
V8_INLINE void fp8v_scatter(uint64_t *const dst[8], int lanes, const fp8v *a)
{
    v8 v[8];
    fp8v_to_regs(v, a);
    v[6] = v8_zero();
    v[7] = v8_zero();
    v8_transpose8(v);
    for (int i = 0; i < lanes; i++)
        v8_store6(dst[i], v[i]);
}

/* Memory <-> registers for the limb-major layout of ifma_fp8. */
V8_INLINE void fp8v_load(fp8v *r, const uint64_t l[8][8])
{
    for (int j = 0; j < 8; j++)
        r->l[j] = v8_load(l[j]);
}

V8_INLINE void fp8v_store(uint64_t l[8][8], const fp8v *a)
{
    for (int j = 0; j < 8; j++)
        v8_store(l[j], a->l[j]);
}

#endif
