/* Kernel template: Montgomery arithmetic on n limbs of 52 bits, 8 independent lanes per vector,
 * for any odd modulus q with 2q < 2^(52n-1). Included after simd512.h by the real and the emulated
 * build; fp8_ops.h (n = 8) and fr8_ops.h (n = 5) give it the moduli. n is a compile-time constant
 * at every call site, so the loops unroll and the limbs stay in registers. */
#ifndef CUZK_FF_IFMA_MONT52_H
#define CUZK_FF_IFMA_MONT52_H
#include <stdint.h>

#define M52 0xfffffffffffffull
#define MONT52_MAX_LIMBS 8

/* Carry propagation: limbs 0..n-2 end in [0, 2^52), the top limb keeps the rest. Limbs are read
 * as signed 64-bit values, so this also settles the negative limbs a subtraction leaves; the value
 * (and its sign, in the top limb) is unchanged. */
V8_INLINE void m52_norm(v8 *a, int n)
{
    const v8 mask = v8_set1(M52);
V8_UNROLL
    for (int j = 0; j < n - 1; j++) {
        v8 c = v8_sar(a[j], 52);
        a[j] = v8_and(a[j], mask);
        a[j + 1] = v8_add(a[j + 1], c);
    }
}

/* One round of m52_mul: t += ai·b, then t += m·q with m chosen so that t[0] becomes a multiple of 2^52,
 * and t drops that limb, keeping its carry (t has n + 1 limbs). */
V8_INLINE void m52_mul_round(v8 *t, v8 ai, const v8 *b, const uint64_t *q, v8 vqinv, int n)
{
    const v8 zero = v8_zero();
V8_UNROLL
    for (int j = 0; j < n; j++) {
        t[j] = v8_madd52lo(t[j], ai, b[j]);
        t[j + 1] = v8_madd52hi(t[j + 1], ai, b[j]);
    }
    v8 m = v8_madd52lo(zero, t[0], vqinv); /* reads only the low 52 bits of t[0] */
V8_UNROLL
    for (int j = 0; j < n; j++) {
        t[j] = v8_madd52lo_k(t[j], m, &q[j]);
        t[j + 1] = v8_madd52hi_k(t[j + 1], m, &q[j]);
    }
    v8 c = v8_shr(t[0], 52);
V8_UNROLL
    for (int j = 0; j < n; j++)
        t[j] = t[j + 1];
    t[n] = zero;
    t[0] = v8_add(t[0], c);
}

/* r = a·b·2^(-52n) mod q by operand scanning: n rounds of 2n + 1 + 2n IFMA. An accumulator lives
 * at most n + 1 rounds and gains < 4·2^52 per round (< 2^58 for n <= 8), so no carry is needed
 * before the end. Requires normalized limbs and a·b < q·2^(52n); the result is normalized and
 * < a·b/2^(52n) + q < 2q. r may alias a or b. */
M52_KERNEL void m52_mul(v8 *r, const v8 *a, const v8 *b, const uint64_t *q, uint64_t qinv, int n)
{
    const v8 vqinv = v8_set1(qinv);
    v8 t[MONT52_MAX_LIMBS + 1];
V8_UNROLL
    for (int j = 0; j <= n; j++)
        t[j] = v8_zero();
V8_UNROLL
    for (int i = 0; i < n; i++)
        m52_mul_round(t, a[i], b, q, vqinv, n);
V8_UNROLL
    for (int j = 0; j < n; j++)
        r[j] = t[j];
    m52_norm(r, n);
}

/* Two independent products, r = a·b and s = c·d (each as m52_mul: same bounds, same result), their
 * rounds interleaved. One product's rounds hang on a chain (t[0] -> m -> t[0] -> carry) that leaves the
 * IFMA ports idle part of the time; a second chain in the same instruction stream fills them. The two
 * sets of accumulators (2n + 2) fit the 32 registers for n = 8, though the compiler spills a few other
 * operands around them. r and s may alias any input (both are written after the last read). */
M52_KERNEL void m52_mul2(v8 *r, const v8 *a, const v8 *b, v8 *s, const v8 *c, const v8 *d, const uint64_t *q,
                         uint64_t qinv, int n)
{
    const v8 vqinv = v8_set1(qinv);
    v8 t[MONT52_MAX_LIMBS + 1], u[MONT52_MAX_LIMBS + 1];
V8_UNROLL
    for (int j = 0; j <= n; j++)
        t[j] = u[j] = v8_zero();
V8_UNROLL
    for (int i = 0; i < n; i++) {
        m52_mul_round(t, a[i], b, q, vqinv, n);
        m52_mul_round(u, c[i], d, q, vqinv, n);
    }
V8_UNROLL
    for (int j = 0; j < n; j++) {
        r[j] = t[j];
        s[j] = u[j];
    }
    m52_norm(r, n);
    m52_norm(s, n);
}

/* The 2n-limb square of a into z (zeroed by the caller): the cross products once, doubled, then the
 * squares (n² IFMA instead of 2n²). */
V8_INLINE void m52_sqr_wide(v8 *z, const v8 *a, int n)
{
V8_UNROLL
    for (int i = 0; i < n; i++)
V8_UNROLL
        for (int j = i + 1; j < n; j++) {
            z[i + j] = v8_madd52lo(z[i + j], a[i], a[j]);
            z[i + j + 1] = v8_madd52hi(z[i + j + 1], a[i], a[j]);
        }
    /* Each z[k] is a sum of at most n terms < 2^52 here, so doubling cannot overflow. */
V8_UNROLL
    for (int k = 0; k < 2 * n; k++)
        z[k] = v8_add(z[k], z[k]);
V8_UNROLL
    for (int i = 0; i < n; i++) {
        z[2 * i] = v8_madd52lo(z[2 * i], a[i], a[i]);
        z[2 * i + 1] = v8_madd52hi(z[2 * i + 1], a[i], a[i]);
    }
}

/* Round i of the separate reduction of a wide square: z[i] becomes a multiple of 2^52, its carry goes
 * into z[i + 1]. */
V8_INLINE void m52_reduce_round(v8 *z, int i, const uint64_t *q, v8 vqinv, int n)
{
    v8 m = v8_madd52lo(v8_zero(), z[i], vqinv);
V8_UNROLL
    for (int j = 0; j < n; j++) {
        z[i + j] = v8_madd52lo_k(z[i + j], m, &q[j]);
        z[i + j + 1] = v8_madd52hi_k(z[i + j + 1], m, &q[j]);
    }
    z[i + 1] = v8_add(z[i + 1], v8_shr(z[i], 52));
}

/* r = a²·2^(-52n) mod q: m52_sqr_wide, then a separate n-round reduction. Bounds and result as
 * m52_mul(a, a). */
M52_KERNEL void m52_sqr(v8 *r, const v8 *a, const uint64_t *q, uint64_t qinv, int n)
{
    const v8 vqinv = v8_set1(qinv);
    v8 z[2 * MONT52_MAX_LIMBS];
V8_UNROLL
    for (int k = 0; k < 2 * n; k++)
        z[k] = v8_zero();
    m52_sqr_wide(z, a, n);
V8_UNROLL
    for (int i = 0; i < n; i++)
        m52_reduce_round(z, i, q, vqinv, n);
V8_UNROLL
    for (int j = 0; j < n; j++)
        r[j] = z[n + j];
    m52_norm(r, n);
}

/* Two independent squares, r = a² and s = c², their reduction rounds interleaved as m52_mul2's (each as
 * m52_sqr). */
M52_KERNEL void m52_sqr2(v8 *r, const v8 *a, v8 *s, const v8 *c, const uint64_t *q, uint64_t qinv, int n)
{
    const v8 vqinv = v8_set1(qinv);
    v8 z[2 * MONT52_MAX_LIMBS], w[2 * MONT52_MAX_LIMBS];
V8_UNROLL
    for (int k = 0; k < 2 * n; k++)
        z[k] = w[k] = v8_zero();
    m52_sqr_wide(z, a, n);
    m52_sqr_wide(w, c, n);
V8_UNROLL
    for (int i = 0; i < n; i++) {
        m52_reduce_round(z, i, q, vqinv, n);
        m52_reduce_round(w, i, q, vqinv, n);
    }
V8_UNROLL
    for (int j = 0; j < n; j++) {
        r[j] = z[n + j];
        s[j] = w[n + j];
    }
    m52_norm(r, n);
    m52_norm(s, n);
}

/* r = a + b, exact: requires a + b < 2^(52n). */
V8_INLINE void m52_add_lazy(v8 *r, const v8 *a, const v8 *b, int n)
{
V8_UNROLL
    for (int j = 0; j < n; j++)
        r[j] = v8_add(a[j], b[j]);
    m52_norm(r, n);
}

/* r = a + k - b, exact, for a constant k: requires b <= k and a + k < 2^(52n). */
V8_INLINE void m52_sub_lazy(v8 *r, const v8 *a, const v8 *b, const uint64_t *k, int n)
{
V8_UNROLL
    for (int j = 0; j < n; j++)
        r[j] = v8_sub(v8_add(a[j], v8_set1(k[j])), b[j]);
    m52_norm(r, n);
}

/* r = a >= k ? a - k : a, lane by lane, for a constant k (normalized limbs). */
V8_INLINE void m52_csub(v8 *r, const v8 *a, const uint64_t *k, int n)
{
    v8 d[MONT52_MAX_LIMBS];
V8_UNROLL
    for (int j = 0; j < n; j++)
        d[j] = v8_sub(a[j], v8_set1(k[j]));
    m52_norm(d, n);
    m8 neg = v8_neg_mask(d[n - 1]);
V8_UNROLL
    for (int j = 0; j < n; j++)
        r[j] = v8_blend(neg, d[j], a[j]);
}

/* r = a - b, plus the constant k where that is negative: for a, b in [0, k], r is in [0, k]
 * (and in [0, k) when a < k). */
V8_INLINE void m52_sub_mod(v8 *r, const v8 *a, const v8 *b, const uint64_t *k, int n)
{
    v8 d[MONT52_MAX_LIMBS], e[MONT52_MAX_LIMBS];
V8_UNROLL
    for (int j = 0; j < n; j++)
        d[j] = v8_sub(a[j], b[j]);
    m52_norm(d, n);
V8_UNROLL
    for (int j = 0; j < n; j++)
        e[j] = v8_add(d[j], v8_set1(k[j]));
    m52_norm(e, n);
    m8 neg = v8_neg_mask(d[n - 1]);
V8_UNROLL
    for (int j = 0; j < n; j++)
        r[j] = v8_blend(neg, d[j], e[j]);
}

/* r = a·2^s as an integer (0 < s < 52): requires a·2^s < 2^(52n). Multiplies the Montgomery
 * factor by 2^s without a multiplication, since mul accepts inputs far above q. r may alias a. */
V8_INLINE void m52_shl(v8 *r, const v8 *a, unsigned s, int n)
{
    const v8 mask = v8_set1(M52);
V8_UNROLL
    for (int j = n - 1; j > 0; j--)
        r[j] = v8_and(v8_or(v8_shl(a[j], s), v8_shr(a[j - 1], 52 - s)), mask);
    r[0] = v8_and(v8_shl(a[0], s), mask);
}

#endif
