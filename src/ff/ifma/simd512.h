/* The 8 × 64-bit vector shim the IFMA kernels are written against. With IFMA_REAL defined (a file
 * compiled with -mavx512f -mavx512ifma) each operation is one AVX-512 intrinsic; otherwise it is a
 * lane-by-lane C emulation of the same instruction, so the kernels can be tested on any CPU.
 * The emulation is a test oracle only: it is never selected for speed. */
#ifndef CUZK_FF_IFMA_SIMD512_H
#define CUZK_FF_IFMA_SIMD512_H
#include <stdint.h>

/* V8_INLINE: the small operations; M52_KERNEL: the big ones (mul, sqr); V8_UNROLL: loops over
 * limbs. The real build inlines and unrolls everything so the limbs live in registers; the
 * emulated build keeps one out-of-line copy of each big operation, which keeps its compile time
 * and code size small (its speed does not matter). */
#if defined(IFMA_REAL)
#define V8_INLINE static inline __attribute__((always_inline))
#define M52_KERNEL static inline __attribute__((always_inline))
#define V8_UNROLL _Pragma("GCC unroll 16")
#else
#define V8_INLINE static inline
#define M52_KERNEL static __attribute__((noinline, unused))
#define V8_UNROLL
#endif

#if defined(IFMA_REAL)
#include <immintrin.h>

typedef __m512i v8;     /* 8 lanes of 64 bits */
typedef __mmask8 m8;    /* one bit per lane, bit i = lane i */

V8_INLINE v8 v8_zero(void) { return _mm512_setzero_si512(); }
V8_INLINE v8 v8_set1(uint64_t x) { return _mm512_set1_epi64((long long)x); }
V8_INLINE v8 v8_load(const uint64_t *p) { return _mm512_loadu_si512((const void *)p); }
V8_INLINE void v8_store(uint64_t *p, v8 a) { _mm512_storeu_si512((void *)p, a); }
V8_INLINE v8 v8_add(v8 a, v8 b) { return _mm512_add_epi64(a, b); }
V8_INLINE v8 v8_sub(v8 a, v8 b) { return _mm512_sub_epi64(a, b); }
V8_INLINE v8 v8_and(v8 a, v8 b) { return _mm512_and_si512(a, b); }
V8_INLINE v8 v8_or(v8 a, v8 b) { return _mm512_or_si512(a, b); }
/* Shift counts are compile-time constants at every call site (0 < n < 64). */
V8_INLINE v8 v8_shl(v8 a, unsigned n) { return _mm512_slli_epi64(a, n); }
V8_INLINE v8 v8_shr(v8 a, unsigned n) { return _mm512_srli_epi64(a, n); }
V8_INLINE v8 v8_sar(v8 a, unsigned n) { return _mm512_srai_epi64(a, n); }
/* VPMADD52LUQ: acc + bits 51:0 of (a[51:0] · b[51:0]), per lane, wrapping at 2^64. */
V8_INLINE v8 v8_madd52lo(v8 acc, v8 a, v8 b) { return _mm512_madd52lo_epu64(acc, a, b); }
/* VPMADD52HUQ: acc + bits 103:52 of (a[51:0] · b[51:0]), per lane, wrapping at 2^64. */
V8_INLINE v8 v8_madd52hi(v8 acc, v8 a, v8 b) { return _mm512_madd52hi_epu64(acc, a, b); }
/* v8_madd52lo/hi(acc, a, v8_set1(*k)) with *k read by the instruction itself (embedded broadcast):
 * a constant held in no register, which leaves the registers to the limbs in the big kernels. */
V8_INLINE v8 v8_madd52lo_k(v8 acc, v8 a, const uint64_t *k)
{
    __asm__("vpmadd52luq %2%{1to8%}, %1, %0" : "+v"(acc) : "v"(a), "m"(*k));
    return acc;
}
V8_INLINE v8 v8_madd52hi_k(v8 acc, v8 a, const uint64_t *k)
{
    __asm__("vpmadd52huq %2%{1to8%}, %1, %0" : "+v"(acc) : "v"(a), "m"(*k));
    return acc;
}
/* Lanes whose value, read as a signed 64-bit integer, is negative. */
V8_INLINE m8 v8_neg_mask(v8 a) { return _mm512_cmplt_epi64_mask(a, _mm512_setzero_si512()); }
V8_INLINE m8 v8_eq_mask(v8 a, v8 b) { return _mm512_cmpeq_epi64_mask(a, b); }
/* a < b as unsigned 64-bit integers */
V8_INLINE m8 v8_ltu_mask(v8 a, v8 b) { return _mm512_cmplt_epu64_mask(a, b); }
/* Per lane: k bit set ? b : a. */
V8_INLINE v8 v8_blend(m8 k, v8 a, v8 b) { return _mm512_mask_blend_epi64(k, a, b); }
/* VPERMT2Q: lane i takes (idx[i] & 8 ? b : a)[idx[i] & 7]. */
V8_INLINE v8 v8_permx2(v8 a, v8 idx, v8 b) { return _mm512_permutex2var_epi64(a, idx, b); }
/* The first six 64-bit words at p (an Fp element), the other lanes 0; reads nothing past them. */
V8_INLINE v8 v8_load6(const uint64_t *p) { return _mm512_maskz_loadu_epi64(0x3f, (const void *)p); }
/* Lanes 0..5 of a to p[0..5]; writes nothing else. */
V8_INLINE void v8_store6(uint64_t *p, v8 a) { _mm512_mask_storeu_epi64((void *)p, 0x3f, a); }
/* Lanes 0..3 (lo4) or 4..7 (hi4) of a to p[0..3]; writes nothing else. */
V8_INLINE void v8_store_lo4(uint64_t *p, v8 a) { _mm256_storeu_si256((__m256i *)(void *)p, _mm512_castsi512_si256(a)); }
V8_INLINE void v8_store_hi4(uint64_t *p, v8 a)
{
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_extracti64x4_epi64(a, 1));
}

#else /* portable emulation */

typedef struct { uint64_t e[8]; } v8;
typedef uint8_t m8;

#define V8_MAP(expr)              \
    v8 r_;                        \
    for (int i = 0; i < 8; i++)   \
        r_.e[i] = (expr);         \
    return r_

V8_INLINE v8 v8_zero(void) { V8_MAP(0); }
V8_INLINE v8 v8_set1(uint64_t x) { V8_MAP(x); }
V8_INLINE v8 v8_load(const uint64_t *p) { V8_MAP(p[i]); }
V8_INLINE void v8_store(uint64_t *p, v8 a)
{
    for (int i = 0; i < 8; i++)
        p[i] = a.e[i];
}
V8_INLINE v8 v8_add(v8 a, v8 b) { V8_MAP(a.e[i] + b.e[i]); }
V8_INLINE v8 v8_sub(v8 a, v8 b) { V8_MAP(a.e[i] - b.e[i]); }
V8_INLINE v8 v8_and(v8 a, v8 b) { V8_MAP(a.e[i] & b.e[i]); }
V8_INLINE v8 v8_or(v8 a, v8 b) { V8_MAP(a.e[i] | b.e[i]); }
V8_INLINE v8 v8_shl(v8 a, unsigned n) { V8_MAP(a.e[i] << n); }
V8_INLINE v8 v8_shr(v8 a, unsigned n) { V8_MAP(a.e[i] >> n); }
/* Arithmetic shift written without relying on the implementation-defined >> of negative values. */
V8_INLINE v8 v8_sar(v8 a, unsigned n)
{
    V8_MAP((a.e[i] >> n) | (((0 - (a.e[i] >> 63)) << (63 - n)) << 1));
}
#define V8_LO52(x) ((x) & 0xfffffffffffffull)
V8_INLINE v8 v8_madd52lo(v8 acc, v8 a, v8 b)
{
    V8_MAP(acc.e[i] + V8_LO52((uint64_t)((unsigned __int128)V8_LO52(a.e[i]) * V8_LO52(b.e[i]))));
}
V8_INLINE v8 v8_madd52hi(v8 acc, v8 a, v8 b)
{
    V8_MAP(acc.e[i] + (uint64_t)(((unsigned __int128)V8_LO52(a.e[i]) * V8_LO52(b.e[i])) >> 52));
}
#undef V8_LO52
V8_INLINE v8 v8_madd52lo_k(v8 acc, v8 a, const uint64_t *k) { return v8_madd52lo(acc, a, v8_set1(*k)); }
V8_INLINE v8 v8_madd52hi_k(v8 acc, v8 a, const uint64_t *k) { return v8_madd52hi(acc, a, v8_set1(*k)); }
V8_INLINE m8 v8_neg_mask(v8 a)
{
    m8 k = 0;
    for (int i = 0; i < 8; i++)
        k |= (m8)((a.e[i] >> 63) << i);
    return k;
}
V8_INLINE m8 v8_eq_mask(v8 a, v8 b)
{
    m8 k = 0;
    for (int i = 0; i < 8; i++)
        k |= (m8)((a.e[i] == b.e[i]) << i);
    return k;
}
V8_INLINE m8 v8_ltu_mask(v8 a, v8 b)
{
    m8 k = 0;
    for (int i = 0; i < 8; i++)
        k |= (m8)((a.e[i] < b.e[i]) << i);
    return k;
}
V8_INLINE v8 v8_blend(m8 k, v8 a, v8 b) { V8_MAP(((k >> i) & 1) ? b.e[i] : a.e[i]); }
V8_INLINE v8 v8_permx2(v8 a, v8 idx, v8 b) { V8_MAP((idx.e[i] & 8) ? b.e[idx.e[i] & 7] : a.e[idx.e[i] & 7]); }
V8_INLINE v8 v8_load6(const uint64_t *p) { V8_MAP(i < 6 ? p[i] : 0); }
V8_INLINE void v8_store6(uint64_t *p, v8 a)
{
    for (int i = 0; i < 6; i++)
        p[i] = a.e[i];
}
V8_INLINE void v8_store_lo4(uint64_t *p, v8 a)
{
    for (int i = 0; i < 4; i++)
        p[i] = a.e[i];
}
V8_INLINE void v8_store_hi4(uint64_t *p, v8 a)
{
    for (int i = 0; i < 4; i++)
        p[i] = a.e[4 + i];
}
#undef V8_MAP

#endif
#endif
