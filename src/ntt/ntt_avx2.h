/* Four Fr elements at a time in AVX2 registers, for the NTT butterflies (internal to src/ntt).
 * Scalar 4-limb Montgomery multiplication on this class of CPU is bound by its chains of
 * carry-flag instructions; 32×32-bit vector multiplies have no carries to chain. An element is
 * nine 29-bit limbs (261 bits), one limb per 64-bit lane of a vector, four elements per vector
 * (v9). Products of 29-bit limbs are below 2^58, so eighteen of them add up in a 64-bit lane
 * without overflow and carries are propagated only once per multiplication.
 * The Montgomery multiplication divides by exactly 2^256 (eight 29-bit steps and one of 24 bits),
 * so its inputs and results are the same Montgomery-form values as the scalar code's. Values are
 * kept in [0, 2r) as in ntt_arith.h; limbs are normalised (< 2^29) between operations.
 * Every function needs AVX2: callers check the CPU first. */
#ifndef CUZK_NTT_AVX2_H
#define CUZK_NTT_AVX2_H
#if defined(__x86_64__)
#include <immintrin.h>
#include <stdint.h>
#include "ff/fr.h"

#define NTT_AVX2 __attribute__((target("avx2"), always_inline)) static inline

typedef __m256i vec;
typedef struct {
    vec l[9];
} v9;

#define V_MASK29 0x1fffffffULL

/* r, 2^261 − 2r and 2^261 − r in 29-bit limbs; P = 2r + 2^261 with limbs raised so that
 * P_j − b_j >= 0 for every normalised b below 2r (subtraction without borrows). */
static const uint64_t v_r[9] = {0x1, 0x1ffffff8, 0x1f96ffbf, 0x1b4805ff, 0x1d80553b,
                                0xc0404d0, 0x1520cce7, 0xa6533af, 0x73eda7};
static const uint64_t v_c2r[9] = {0x1ffffffe, 0xf, 0xd20080, 0x96ff400, 0x4ff5588,
                                  0x7f7f65e, 0x15be6631, 0xb3598a0, 0x1f1824b1};
static const uint64_t v_c1r[9] = {0x1fffffff, 0x7, 0x690040, 0x4b7fa00, 0x27faac4,
                                  0x13fbfb2f, 0xadf3318, 0x159acc50, 0x1f8c1258};
static const uint64_t v_p2r[9] = {0x20000002, 0x3fffffef, 0x3f2dff7e, 0x36900bfe, 0x3b00aa76,
                                  0x380809a0, 0x2a4199cd, 0x34ca675e, 0x20e7db4d};

NTT_AVX2 vec v_set1(uint64_t x) { return _mm256_set1_epi64x((long long)x); }

/* Transposes four vectors of four 64-bit lanes (in place). */
NTT_AVX2 void v_transpose4(vec *a, vec *b, vec *c, vec *d)
{
    vec t0 = _mm256_unpacklo_epi64(*a, *b), t1 = _mm256_unpackhi_epi64(*a, *b);
    vec t2 = _mm256_unpacklo_epi64(*c, *d), t3 = _mm256_unpackhi_epi64(*c, *d);
    *a = _mm256_permute2x128_si256(t0, t2, 0x20);
    *b = _mm256_permute2x128_si256(t1, t3, 0x20);
    *c = _mm256_permute2x128_si256(t0, t2, 0x31);
    *d = _mm256_permute2x128_si256(t1, t3, 0x31);
}

/* Limbs from the 64-bit words of four elements: W[w] holds word w of each element. */
NTT_AVX2 void v_from_words(v9 *o, vec w0, vec w1, vec w2, vec w3)
{
    const vec m = v_set1(V_MASK29);
    o->l[0] = _mm256_and_si256(w0, m);
    o->l[1] = _mm256_and_si256(_mm256_srli_epi64(w0, 29), m);
#define V_SPAN(lo, sl, hi, sh) _mm256_or_si256(_mm256_srli_epi64(lo, sl), _mm256_slli_epi64(hi, sh))
    o->l[2] = _mm256_and_si256(V_SPAN(w0, 58, w1, 6), m);
    o->l[3] = _mm256_and_si256(_mm256_srli_epi64(w1, 23), m);
    o->l[4] = _mm256_and_si256(V_SPAN(w1, 52, w2, 12), m);
    o->l[5] = _mm256_and_si256(_mm256_srli_epi64(w2, 17), m);
    o->l[6] = _mm256_and_si256(V_SPAN(w2, 46, w3, 18), m);
#undef V_SPAN
    o->l[7] = _mm256_and_si256(_mm256_srli_epi64(w3, 11), m);
    o->l[8] = _mm256_srli_epi64(w3, 40);
}

/* Words from normalised limbs of a value below 2^256. */
NTT_AVX2 void v_to_words(const v9 *x, vec *w0, vec *w1, vec *w2, vec *w3)
{
    const vec *l = x->l;
    *w0 = _mm256_or_si256(_mm256_or_si256(l[0], _mm256_slli_epi64(l[1], 29)),
                          _mm256_slli_epi64(l[2], 58));
    *w1 = _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi64(l[2], 6), _mm256_slli_epi64(l[3], 23)),
                          _mm256_slli_epi64(l[4], 52));
    *w2 = _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi64(l[4], 12), _mm256_slli_epi64(l[5], 17)),
                          _mm256_slli_epi64(l[6], 46));
    *w3 = _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi64(l[6], 18), _mm256_slli_epi64(l[7], 11)),
                          _mm256_slli_epi64(l[8], 40));
}

/* Four elements p[0], p[s], p[2s], p[3s] (s in elements) into limbs. */
NTT_AVX2 void v_load(v9 *o, const fr *p, ptrdiff_t s)
{
    vec a = _mm256_loadu_si256((const vec *)p), b = _mm256_loadu_si256((const vec *)(p + s));
    vec c = _mm256_loadu_si256((const vec *)(p + 2 * s));
    vec d = _mm256_loadu_si256((const vec *)(p + 3 * s));
    v_transpose4(&a, &b, &c, &d);
    v_from_words(o, a, b, c, d);
}

/* Normalised limbs of values below 2^256 back to p[0], p[s], p[2s], p[3s]. */
NTT_AVX2 void v_store(fr *p, ptrdiff_t s, const v9 *x)
{
    vec a, b, c, d;
    v_to_words(x, &a, &b, &c, &d);
    v_transpose4(&a, &b, &c, &d);
    _mm256_storeu_si256((vec *)p, a);
    _mm256_storeu_si256((vec *)(p + s), b);
    _mm256_storeu_si256((vec *)(p + 2 * s), c);
    _mm256_storeu_si256((vec *)(p + 3 * s), d);
}

/* The same element in all four lanes. */
NTT_AVX2 void v_broadcast(v9 *o, const fr *p)
{
    v_from_words(o, v_set1(p->l[0]), v_set1(p->l[1]), v_set1(p->l[2]), v_set1(p->l[3]));
}

/* Propagates carries through limbs 0..7 (limb 8 keeps the excess). */
NTT_AVX2 void v_norm(v9 *x)
{
    const vec m = v_set1(V_MASK29);
    _Pragma("GCC unroll 18") for (int j = 0; j < 8; j++) {
        vec c = _mm256_srli_epi64(x->l[j], 29);
        x->l[j] = _mm256_and_si256(x->l[j], m);
        x->l[j + 1] = _mm256_add_epi64(x->l[j + 1], c);
    }
}

/* o = x − k when x >= k, else x, for normalised x < 2^261 and c = 2^261 − k. */
NTT_AVX2 void v_csub(v9 *o, const v9 *x, const uint64_t *c)
{
    v9 d;
    _Pragma("GCC unroll 18") for (int j = 0; j < 9; j++)
        d.l[j] = _mm256_add_epi64(x->l[j], v_set1(c[j]));
    v_norm(&d);
    /* bit 29 of the top limb is the carry out of 2^261: set exactly when x >= k */
    const vec ge = _mm256_sub_epi64(_mm256_setzero_si256(), _mm256_srli_epi64(d.l[8], 29));
    d.l[8] = _mm256_and_si256(d.l[8], v_set1(V_MASK29));
    _Pragma("GCC unroll 18") for (int j = 0; j < 9; j++)
        o->l[j] = _mm256_blendv_epi8(x->l[j], d.l[j], ge);
}

/* o = a + b mod 2r into [0, 2r); a, b < 2r. */
NTT_AVX2 void v_add(v9 *o, const v9 *a, const v9 *b)
{
    v9 s;
    _Pragma("GCC unroll 18") for (int j = 0; j < 9; j++)
        s.l[j] = _mm256_add_epi64(a->l[j], b->l[j]);
    v_norm(&s);
    v_csub(o, &s, v_c2r);
}

/* o = a − b mod 2r into [0, 2r); a, b < 2r. */
NTT_AVX2 void v_sub(v9 *o, const v9 *a, const v9 *b)
{
    v9 s;
    _Pragma("GCC unroll 18") for (int j = 0; j < 9; j++)
        s.l[j] = _mm256_sub_epi64(_mm256_add_epi64(a->l[j], v_set1(v_p2r[j])), b->l[j]);
    v_norm(&s);
    s.l[8] = _mm256_and_si256(s.l[8], v_set1(V_MASK29)); /* drop the 2^261 in P */
    v_csub(o, &s, v_c2r);
}

/* o = x mod r for x < 2r. */
NTT_AVX2 void v_reduce(v9 *o, const v9 *x)
{
    v_csub(o, x, v_c1r);
}

/* o = x·w·2^−256 mod r, in [0, 2r), for x < 2r and w < r (Montgomery product, CIOS over the
 * limbs of x). −r^−1 ≡ −1 mod 2^29 and r ≡ 1 mod 2^29, so the quotient digit is −t_0 and its
 * product with the lowest limb of r is the digit itself. T[i + j] holds limb j of the running
 * sum after i steps; every T is a sum of at most eighteen products below 2^58. */
NTT_AVX2 void v_mul(v9 *o, const v9 *x, const v9 *w)
{
    const vec zero = _mm256_setzero_si256();
    vec T[18];
    _Pragma("GCC unroll 18") for (int j = 0; j < 18; j++)
        T[j] = zero;
    _Pragma("GCC unroll 18") for (int i = 0; i < 9; i++) {
        const vec xi = x->l[i];
        _Pragma("GCC unroll 18") for (int j = 0; j < 9; j++)
            T[i + j] = _mm256_add_epi64(T[i + j], _mm256_mul_epu32(xi, w->l[j]));
        const vec m = _mm256_and_si256(_mm256_sub_epi64(zero, T[i]),
                                       v_set1(i < 8 ? V_MASK29 : 0xffffffULL));
        T[i] = _mm256_add_epi64(T[i], m);
        _Pragma("GCC unroll 18") for (int j = 1; j < 9; j++)
            T[i + j] = _mm256_add_epi64(T[i + j], _mm256_mul_epu32(m, v_set1(v_r[j])));
        if (i < 8)
            T[i + 1] = _mm256_add_epi64(T[i + 1], _mm256_srli_epi64(T[i], 29));
    }
    /* The sum is T[8..17] with limb 0 divisible by 2^24: normalise, then shift right by 24. */
    const vec m29 = v_set1(V_MASK29);
    _Pragma("GCC unroll 18") for (int j = 8; j < 17; j++) {
        T[j + 1] = _mm256_add_epi64(T[j + 1], _mm256_srli_epi64(T[j], 29));
        T[j] = _mm256_and_si256(T[j], m29);
    }
    _Pragma("GCC unroll 18") for (int l = 0; l < 9; l++)
        o->l[l] = _mm256_or_si256(_mm256_srli_epi64(T[8 + l], 24),
                                  _mm256_and_si256(_mm256_slli_epi64(T[9 + l], 5), m29));
}

#endif
#endif
