/* Moving Fr elements between memory (four 64-bit words each, fr.h) and the 8-lane radix-2^52 form
 * of ff/ifma (fr8v: five limbs, lane i = one element), for the IFMA NTT kernels. Included by
 * ntt_kern_ifma.h after simd512.h: the real build shuffles in registers, the emulated build
 * goes through memory lane by lane. Values must be below 2^256 (the NTT keeps them below 2r). */
#ifndef CUZK_NTT_KERN_IFMA_LANES_H
#define CUZK_NTT_KERN_IFMA_LANES_H
#include <stddef.h>
#include <stdint.h>
#include "ff/fr.h"
#include "ff/ifma/fr8_ops.h"

/* Limbs from words: w_k holds word k of every lane's value. */
V8_INLINE void lf_from_words(fr8v *r, v8 w0, v8 w1, v8 w2, v8 w3)
{
    const v8 mask = v8_set1(M52);
    r->l[0] = v8_and(w0, mask);
    r->l[1] = v8_and(v8_or(v8_shr(w0, 52), v8_shl(w1, 12)), mask);
    r->l[2] = v8_and(v8_or(v8_shr(w1, 40), v8_shl(w2, 24)), mask);
    r->l[3] = v8_and(v8_or(v8_shr(w2, 28), v8_shl(w3, 36)), mask);
    r->l[4] = v8_shr(w3, 16);
}

/* Words from the normalised limbs of values below 2^256. */
V8_INLINE void lf_to_words(const fr8v *a, v8 *w0, v8 *w1, v8 *w2, v8 *w3)
{
    const v8 *l = a->l;
    *w0 = v8_or(l[0], v8_shl(l[1], 52));
    *w1 = v8_or(v8_shr(l[1], 12), v8_shl(l[2], 40));
    *w2 = v8_or(v8_shr(l[2], 24), v8_shl(l[3], 28));
    *w3 = v8_or(v8_shr(l[3], 36), v8_shl(l[4], 16));
}

#if defined(IFMA_REAL)
/* z_j holds elements 2j and 2j + 1 (four words each) <-> w_k holds word k of elements 0..7.
 * The same two index vectors serve both directions: the permutation is its own inverse up to
 * the 128-bit block shuffles around it. */
V8_INLINE void lf_pairs_to_words(v8 z0, v8 z1, v8 z2, v8 z3, v8 *w0, v8 *w1, v8 *w2, v8 *w3)
{
    const v8 lo = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13);
    const v8 hi = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15);
    /* a0: word 0 then word 1 of elements 0..3; a1: words 2 and 3; b: elements 4..7 */
    const v8 a0 = _mm512_permutex2var_epi64(z0, lo, z1), a1 = _mm512_permutex2var_epi64(z0, hi, z1);
    const v8 b0 = _mm512_permutex2var_epi64(z2, lo, z3), b1 = _mm512_permutex2var_epi64(z2, hi, z3);
    *w0 = _mm512_shuffle_i64x2(a0, b0, 0x44);
    *w1 = _mm512_shuffle_i64x2(a0, b0, 0xee);
    *w2 = _mm512_shuffle_i64x2(a1, b1, 0x44);
    *w3 = _mm512_shuffle_i64x2(a1, b1, 0xee);
}

V8_INLINE void lf_words_to_pairs(v8 w0, v8 w1, v8 w2, v8 w3, v8 *z0, v8 *z1, v8 *z2, v8 *z3)
{
    const v8 lo = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13);
    const v8 hi = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15);
    const v8 a0 = _mm512_shuffle_i64x2(w0, w1, 0x44), b0 = _mm512_shuffle_i64x2(w0, w1, 0xee);
    const v8 a1 = _mm512_shuffle_i64x2(w2, w3, 0x44), b1 = _mm512_shuffle_i64x2(w2, w3, 0xee);
    *z0 = _mm512_permutex2var_epi64(a0, lo, a1);
    *z1 = _mm512_permutex2var_epi64(a0, hi, a1);
    *z2 = _mm512_permutex2var_epi64(b0, lo, b1);
    *z3 = _mm512_permutex2var_epi64(b0, hi, b1);
}

V8_INLINE v8 lf_load_two(const fr *p, const fr *q)
{
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)p)),
                              _mm256_loadu_si256((const __m256i *)q), 1);
}

/* The elements p[0], p[s], ..., p[7s] (s in elements; 1 is the contiguous case). */
V8_INLINE void lf_load(fr8v *o, const fr *p, ptrdiff_t s)
{
    v8 z0, z1, z2, z3, w0, w1, w2, w3;
    if (s == 1) {
        z0 = v8_load(p[0].l), z1 = v8_load(p[2].l), z2 = v8_load(p[4].l), z3 = v8_load(p[6].l);
    } else {
        z0 = lf_load_two(p, p + s);
        z1 = lf_load_two(p + 2 * s, p + 3 * s);
        z2 = lf_load_two(p + 4 * s, p + 5 * s);
        z3 = lf_load_two(p + 6 * s, p + 7 * s);
    }
    lf_pairs_to_words(z0, z1, z2, z3, &w0, &w1, &w2, &w3);
    lf_from_words(o, w0, w1, w2, w3);
}

V8_INLINE void lf_store_two(fr *p, fr *q, v8 z)
{
    _mm256_storeu_si256((__m256i *)p, _mm512_castsi512_si256(z));
    _mm256_storeu_si256((__m256i *)q, _mm512_extracti64x4_epi64(z, 1));
}

/* The normalised lanes (< 2^256) of x to p[0], p[s], ..., p[7s]. */
V8_INLINE void lf_store(fr *p, ptrdiff_t s, const fr8v *x)
{
    v8 z0, z1, z2, z3, w0, w1, w2, w3;
    lf_to_words(x, &w0, &w1, &w2, &w3);
    lf_words_to_pairs(w0, w1, w2, w3, &z0, &z1, &z2, &z3);
    if (s == 1) {
        v8_store(p[0].l, z0), v8_store(p[2].l, z1), v8_store(p[4].l, z2), v8_store(p[6].l, z3);
    } else {
        lf_store_two(p, p + s, z0);
        lf_store_two(p + 2 * s, p + 3 * s, z1);
        lf_store_two(p + 4 * s, p + 5 * s, z2);
        lf_store_two(p + 6 * s, p + 7 * s, z3);
    }
}

/* lf_store to eight consecutive elements at a 64-byte aligned p, with non-temporal stores: for
 * results that are not read again before they leave the caches, so that their lines are written
 * without being read first. lf_stream_fence orders them before the data is handed over. */
V8_INLINE void lf_store_stream(fr *p, const fr8v *x)
{
    v8 z0, z1, z2, z3, w0, w1, w2, w3;
    lf_to_words(x, &w0, &w1, &w2, &w3);
    lf_words_to_pairs(w0, w1, w2, w3, &z0, &z1, &z2, &z3);
    _mm512_stream_si512((void *)p[0].l, z0);
    _mm512_stream_si512((void *)p[2].l, z1);
    _mm512_stream_si512((void *)p[4].l, z2);
    _mm512_stream_si512((void *)p[6].l, z3);
}

V8_INLINE void lf_stream_fence(void) { _mm_sfence(); }

/* 8×8 transposition of 64-bit lanes: r_i[j] <-> r_j[i]. */
V8_INLINE void lf_transpose_v8(v8 *r0, v8 *r1, v8 *r2, v8 *r3, v8 *r4, v8 *r5, v8 *r6, v8 *r7)
{
    const v8 t0 = _mm512_unpacklo_epi64(*r0, *r1), t1 = _mm512_unpackhi_epi64(*r0, *r1);
    const v8 t2 = _mm512_unpacklo_epi64(*r2, *r3), t3 = _mm512_unpackhi_epi64(*r2, *r3);
    const v8 t4 = _mm512_unpacklo_epi64(*r4, *r5), t5 = _mm512_unpackhi_epi64(*r4, *r5);
    const v8 t6 = _mm512_unpacklo_epi64(*r6, *r7), t7 = _mm512_unpackhi_epi64(*r6, *r7);
    /* t0 holds (r0[j], r1[j]) for even j in 128-bit block j/2; a 4×4 transposition of the
     * blocks of (t0, t2, t4, t6) gives the even rows, of (t1, t3, t5, t7) the odd ones. */
    const v8 u0 = _mm512_shuffle_i64x2(t0, t2, 0x44), u1 = _mm512_shuffle_i64x2(t0, t2, 0xee);
    const v8 u2 = _mm512_shuffle_i64x2(t4, t6, 0x44), u3 = _mm512_shuffle_i64x2(t4, t6, 0xee);
    const v8 v0 = _mm512_shuffle_i64x2(t1, t3, 0x44), v1 = _mm512_shuffle_i64x2(t1, t3, 0xee);
    const v8 v2 = _mm512_shuffle_i64x2(t5, t7, 0x44), v3 = _mm512_shuffle_i64x2(t5, t7, 0xee);
    *r0 = _mm512_shuffle_i64x2(u0, u2, 0x88);
    *r2 = _mm512_shuffle_i64x2(u0, u2, 0xdd);
    *r4 = _mm512_shuffle_i64x2(u1, u3, 0x88);
    *r6 = _mm512_shuffle_i64x2(u1, u3, 0xdd);
    *r1 = _mm512_shuffle_i64x2(v0, v2, 0x88);
    *r3 = _mm512_shuffle_i64x2(v0, v2, 0xdd);
    *r5 = _mm512_shuffle_i64x2(v1, v3, 0x88);
    *r7 = _mm512_shuffle_i64x2(v1, v3, 0xdd);
}

#else /* emulated: the same movements, word by word */

V8_INLINE void lf_load(fr8v *o, const fr *p, ptrdiff_t s)
{
    uint64_t w[4][8];
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 4; k++)
            w[k][i] = p[i * s].l[k];
    lf_from_words(o, v8_load(w[0]), v8_load(w[1]), v8_load(w[2]), v8_load(w[3]));
}

V8_INLINE void lf_store(fr *p, ptrdiff_t s, const fr8v *x)
{
    uint64_t w[4][8];
    v8 w0, w1, w2, w3;
    lf_to_words(x, &w0, &w1, &w2, &w3);
    v8_store(w[0], w0), v8_store(w[1], w1), v8_store(w[2], w2), v8_store(w[3], w3);
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 4; k++)
            p[i * s].l[k] = w[k][i];
}

V8_INLINE void lf_store_stream(fr *p, const fr8v *x) { lf_store(p, 1, x); }

V8_INLINE void lf_stream_fence(void) {}

V8_INLINE void lf_transpose_v8(v8 *r0, v8 *r1, v8 *r2, v8 *r3, v8 *r4, v8 *r5, v8 *r6, v8 *r7)
{
    v8 *r[8] = {r0, r1, r2, r3, r4, r5, r6, r7};
    for (int i = 0; i < 8; i++)
        for (int j = i + 1; j < 8; j++) {
            const uint64_t t = r[i]->e[j];
            r[i]->e[j] = r[j]->e[i];
            r[j]->e[i] = t;
        }
}
#endif

/* The same element in all eight lanes. */
V8_INLINE void lf_broadcast(fr8v *o, const fr *w)
{
    lf_from_words(o, v8_set1(w->l[0]), v8_set1(w->l[1]), v8_set1(w->l[2]), v8_set1(w->l[3]));
}

/* Eight vectors e[0..7] of eight lanes, limb by limb: lane q of e[u] <-> lane u of e[q]. */
V8_INLINE void lf_transpose8(fr8v *e)
{
V8_UNROLL
    for (int j = 0; j < 5; j++)
        lf_transpose_v8(&e[0].l[j], &e[1].l[j], &e[2].l[j], &e[3].l[j], &e[4].l[j], &e[5].l[j],
                        &e[6].l[j], &e[7].l[j]);
}

#endif
