/* Internal: x86-64 MULX/ADCX/ADOX Montgomery multiplication for Fp (6 limbs) and Fr (4 limbs),
 * as static inline functions so the dispatcher can inline them behind one predictable branch.
 * The CIOS loop keeps the running sum in registers and renames them instead of shifting: after a
 * reduction step the lowest limb is zero and becomes the next top limb. Both moduli leave the top
 * bit free, so the sum never needs an extra carry word (the "no-carry" CIOS).
 *
 * Multiplication and squaring shorten the chain between reduction steps with a
 * Montgomery-friendly multiple of the modulus: n0·q ≡ −1 (mod 2^64), so adding t·n0·q to the sum T (t its low limb) clears
 * that limb, and (T + t·n0·q) / 2^64 = (T >> 64) + t·Q with the constant Q = (n0·q + 1) / 2^64.
 * Such a step needs no quotient multiplication (imul) and no high half of m·q0: the next low
 * limb is one MULX and one add away. Its quotient t·n0 is not reduced mod 2^64, so the sum grows
 * by up to (n0 / 2^64)·q per step; the last step(s) are ordinary ones, which bring the result
 * below 2q (bounds at each function). The result is the same residue, and after the final
 * subtraction the same canonical value, as the ordinary loop's. */
#ifndef CUZK_FF_MONT_ADX_H
#define CUZK_FF_MONT_ADX_H
#if defined(__x86_64__)
#include <stdint.h>
#include "ff/mont.h"

/* Modulus limbs, n0 = -q^-1 mod 2^64, a zero word, then Q = (n0·q + 1) / 2^64 and an all-ones
 * word (for Fr also the high limb of -r^-1 mod 2^128; tests/ff/test_mont_adx.c checks them with
 * GMP), addressed through one register: memory operands would each need their own base register
 * in unoptimized (sanitizer) builds, and the Fp code already needs 13 registers. */
static const uint64_t FP_ADX_K[15] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                      0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                      0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL,
                                      0x89f3fffcfffcfffdULL, 0,
                                      0x6a4aaa14be07a408ULL, 0x5d4f098d2923b9a3ULL,
                                      0x622385e49d0feeb0ULL, 0x5fb6d192233b3b63ULL,
                                      0x2cffcd0f221a175bULL, 0x0e035b9b1e00bc8eULL,
                                      0xffffffffffffffffULL};
static const uint64_t FR_ADX_K[12] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                      0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL,
                                      0xfffffffeffffffffULL, 0,
                                      0xac43fffd0001a403ULL, 0x16e1f3f5a29edff6ULL,
                                      0x95aeb36cacca82b5ULL, 0x73eda752b5afd5f4ULL,
                                      0xffffffffffffffffULL, 0x53ba5bfffffe5bfdULL};

#define MX_OP(x) "%[" #x "]"

/* First product row b[0]·a: nothing to accumulate yet, so a single add/adc chain. */
#define MX_ROW0_6(T0, T1, T2, T3, T4, T5, T6)                                                    \
    "movq 0(%[b]), %%rdx\n\t"                                                                    \
    "mulxq 0(%[a]), " MX_OP(T0) ", " MX_OP(T1) "\n\t"                                            \
    "mulxq 8(%[a]), %[lo], " MX_OP(T2) "\n\t"                                                    \
    "addq %[lo], " MX_OP(T1) "\n\t"                                                              \
    "mulxq 16(%[a]), %[lo], " MX_OP(T3) "\n\t"                                                   \
    "adcq %[lo], " MX_OP(T2) "\n\t"                                                              \
    "mulxq 24(%[a]), %[lo], " MX_OP(T4) "\n\t"                                                   \
    "adcq %[lo], " MX_OP(T3) "\n\t"                                                              \
    "mulxq 32(%[a]), %[lo], " MX_OP(T5) "\n\t"                                                   \
    "adcq %[lo], " MX_OP(T4) "\n\t"                                                              \
    "mulxq 40(%[a]), %[lo], " MX_OP(T6) "\n\t"                                                   \
    "adcq %[lo], " MX_OP(T5) "\n\t"                                                              \
    "adcq $0, " MX_OP(T6) "\n\t"

/* One multiply-accumulate term: lo into limb X (OF chain), hi into limb Y (CF chain). */
#define MX_MAC(src, X, Y)                                                                        \
    "mulxq " src ", %[lo], %[hi]\n\t"                                                            \
    "adoxq %[lo], " MX_OP(X) "\n\t"                                                              \
    "adcxq %[hi], " MX_OP(Y) "\n\t"

/* Friendly reduction step T1..T7 += T0·Q (see the top of the file); the new top limb T7 takes
 * T0's register, whose value has moved to rdx. The xor clears CF and OF; it also cuts the flag
 * dependency on the previous step, which measured faster than relying on the flags being clear. */
#define MX_QROW_6(T0, T1, T2, T3, T4, T5, T6)                                                    \
    "movq " MX_OP(T0) ", %%rdx\n\t"                                                              \
    "xorl %k[lo], %k[lo]\n\t"                                                                    \
    MX_MAC("64(%[k])", T1, T2) MX_MAC("72(%[k])", T2, T3) MX_MAC("80(%[k])", T3, T4)             \
    MX_MAC("88(%[k])", T4, T5) MX_MAC("96(%[k])", T5, T6)                                        \
    "mulxq 104(%[k]), %[lo], " MX_OP(T0) "\n\t"                                                  \
    "adoxq %[lo], " MX_OP(T6) "\n\t"                                                             \
    "adcxq 56(%[k]), " MX_OP(T0) "\n\t"                                                          \
    "adoxq 56(%[k]), " MX_OP(T0) "\n\t"

/* Product row T1..T7 += b[i]·a into an existing top limb T7 (the sum stays below 2^448). */
#define MX_BROW_6(off, T1, T2, T3, T4, T5, T6, T7)                                               \
    "movq " #off "(%[b]), %%rdx\n\t"                                                             \
    "xorl %k[lo], %k[lo]\n\t"                                                                    \
    MX_MAC("0(%[a])", T1, T2) MX_MAC("8(%[a])", T2, T3) MX_MAC("16(%[a])", T3, T4)               \
    MX_MAC("24(%[a])", T4, T5) MX_MAC("32(%[a])", T5, T6) MX_MAC("40(%[a])", T6, T7)             \
    "adoxq 56(%[k]), " MX_OP(T7) "\n\t"

/* Ordinary reduction step T0..T6 += m·q with m = T0·n0, the carry out of T6 zero. The low limb's
 * sum T0 + lo(m·q0) is 0 mod 2^64 with carry (T0 != 0): adding all-ones to T0 sets CF to exactly
 * that without waiting for m, so lo(m·q0) is not needed, and T1 takes lo(m·q1) (ready a cycle
 * earlier) before hi(m·q0). T0 is left as scratch (not zero). */
#define MX_RSTEP_6(T0, T1, T2, T3, T4, T5, T6)                                                   \
    "movq " MX_OP(T0) ", %%rdx\n\t"                                                              \
    "imulq 48(%[k]), %%rdx\n\t"                                                                  \
    "xorl %k[lo], %k[lo]\n\t"                                                                    \
    "adcxq 112(%[k]), " MX_OP(T0) "\n\t"                                                         \
    "mulxq 0(%[k]), %[lo], " MX_OP(T0) "\n\t"                                                    \
    "mulxq 8(%[k]), %[lo], %[hi]\n\t"                                                            \
    "adoxq %[lo], " MX_OP(T1) "\n\t"                                                             \
    "adcxq " MX_OP(T0) ", " MX_OP(T1) "\n\t"                                                     \
    "mulxq 16(%[k]), %[lo], " MX_OP(T0) "\n\t"                                                   \
    "adoxq %[lo], " MX_OP(T2) "\n\t"                                                             \
    "adcxq %[hi], " MX_OP(T2) "\n\t"                                                             \
    "mulxq 24(%[k]), %[lo], %[hi]\n\t"                                                           \
    "adoxq %[lo], " MX_OP(T3) "\n\t"                                                             \
    "adcxq " MX_OP(T0) ", " MX_OP(T3) "\n\t"                                                     \
    "mulxq 32(%[k]), %[lo], " MX_OP(T0) "\n\t"                                                   \
    "adoxq %[lo], " MX_OP(T4) "\n\t"                                                             \
    "adcxq %[hi], " MX_OP(T4) "\n\t"                                                             \
    "mulxq 40(%[k]), %[lo], %[hi]\n\t"                                                           \
    "adoxq %[lo], " MX_OP(T5) "\n\t"                                                             \
    "adcxq " MX_OP(T0) ", " MX_OP(T5) "\n\t"                                                     \
    "adoxq 56(%[k]), " MX_OP(T6) "\n\t"                                                          \
    "adcxq %[hi], " MX_OP(T6) "\n\t"

/* Conditional final subtraction shared by mul and sqr: r = x < p ? x : x − p, for x < 2p. */
static inline void fp_adx_final(fp *r, uint64_t x0, uint64_t x1, uint64_t x2, uint64_t x3, uint64_t x4,
                                uint64_t x5)
{
    uint64_t s0, s1, s2, s3, s4, s5;
    __asm__("movq %[x0], %[s0]\n\t"
            "movq %[x1], %[s1]\n\t"
            "movq %[x2], %[s2]\n\t"
            "movq %[x3], %[s3]\n\t"
            "movq %[x4], %[s4]\n\t"
            "movq %[x5], %[s5]\n\t"
            "subq 0(%[k]), %[s0]\n\t"
            "sbbq 8(%[k]), %[s1]\n\t"
            "sbbq 16(%[k]), %[s2]\n\t"
            "sbbq 24(%[k]), %[s3]\n\t"
            "sbbq 32(%[k]), %[s4]\n\t"
            "sbbq 40(%[k]), %[s5]\n\t"
            "cmovcq %[x0], %[s0]\n\t"
            "cmovcq %[x1], %[s1]\n\t"
            "cmovcq %[x2], %[s2]\n\t"
            "cmovcq %[x3], %[s3]\n\t"
            "cmovcq %[x4], %[s4]\n\t"
            "cmovcq %[x5], %[s5]\n\t"
            : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4),
              [s5] "=&r"(s5)
            : [x0] "r"(x0), [x1] "r"(x1), [x2] "r"(x2), [x3] "r"(x3), [x4] "r"(x4), [x5] "r"(x5),
              [k] "r"(FP_ADX_K)
            : "cc");
    r->l[0] = s0, r->l[1] = s1, r->l[2] = s2, r->l[3] = s3, r->l[4] = s4, r->l[5] = s5;
}

/* Five friendly steps, then an ordinary one. Bounds, with n0 / 2^64 < 0.539: the running sum
 * stays below 2^64·(Q + p)·(1 + 2^-64) < 2^446, so 7 limbs; the result is
 * (a·b + Σ_{i<5} t_i·n0·p·2^64i + m_5·p·2^320) / 2^384 < (p/2^384 + 0.539 + 1)·p < 1.64·p, so
 * one conditional subtraction reduces it fully. */
static inline __attribute__((always_inline)) void fp_mul_adx_inl(fp *r, const fp *a, const fp *b)
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, d;
    __asm__(MX_ROW0_6(t0, t1, t2, t3, t4, t5, t6)
            MX_QROW_6(t0, t1, t2, t3, t4, t5, t6)
            MX_BROW_6(8, t1, t2, t3, t4, t5, t6, t0)
            MX_QROW_6(t1, t2, t3, t4, t5, t6, t0)
            MX_BROW_6(16, t2, t3, t4, t5, t6, t0, t1)
            MX_QROW_6(t2, t3, t4, t5, t6, t0, t1)
            MX_BROW_6(24, t3, t4, t5, t6, t0, t1, t2)
            MX_QROW_6(t3, t4, t5, t6, t0, t1, t2)
            MX_BROW_6(32, t4, t5, t6, t0, t1, t2, t3)
            MX_QROW_6(t4, t5, t6, t0, t1, t2, t3)
            MX_BROW_6(40, t5, t6, t0, t1, t2, t3, t4)
            MX_RSTEP_6(t5, t6, t0, t1, t2, t3, t4)
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d)
            : [a] "r"(a->l), [b] "r"(b->l), [k] "r"(FP_ADX_K)
            : "cc", "memory");
    (void)d;
    /* The sum is in (t6, t0, t1, t2, t3, t4) and below 2p: subtract p once if it fits. */
    fp_adx_final(r, t6, t0, t1, t2, t3, t4);
}

/* Squaring: the 15 off-diagonal products once, then 2·T + diagonal, then a separate Montgomery
 * reduction of the low half (five friendly steps and an ordinary one) with the high half added at
 * the end: 57 multiplications instead of 72. Bound: with S = a² < p², the reduction gives
 * (S_lo + M·p) / 2^384 < 1 + 0.539·p + p, and S_hi < p / 8, so the sum is below 2p. */
static inline __attribute__((always_inline)) void fp_sqr_adx_inl(fp *r, const fp *a)
{
    uint64_t x0, x1, x2, x3, x4, x5, x6, lo, hi, d;
    uint64_t buf[12];
    __asm__(/* off-diagonal row 0: a0·a1..a0·a5 into T1..T6 = x1..x6 */
            "movq 0(%[a]), %%rdx\n\t"
            "mulxq 8(%[a]), %[x1], %[x2]\n\t"
            "mulxq 16(%[a]), %[lo], %[x3]\n\t"
            "addq %[lo], %[x2]\n\t"
            "mulxq 24(%[a]), %[lo], %[x4]\n\t"
            "adcq %[lo], %[x3]\n\t"
            "mulxq 32(%[a]), %[lo], %[x5]\n\t"
            "adcq %[lo], %[x4]\n\t"
            "mulxq 40(%[a]), %[lo], %[x6]\n\t"
            "adcq %[lo], %[x5]\n\t"
            "adcq $0, %[x6]\n\t"
            "movq %[x1], 8(%[buf])\n\t"
            "movq %[x2], 16(%[buf])\n\t"
            /* row 1: a1·a2..a1·a5 into T3..T7; T7 = x1 */
            "movq 8(%[a]), %%rdx\n\t"
            "xorl %k[lo], %k[lo]\n\t"
            MX_MAC("16(%[a])", x3, x4) MX_MAC("24(%[a])", x4, x5) MX_MAC("32(%[a])", x5, x6)
            "mulxq 40(%[a]), %[lo], %[x1]\n\t"
            "adoxq %[lo], %[x6]\n\t"
            "adcxq 56(%[k]), %[x1]\n\t"
            "adoxq 56(%[k]), %[x1]\n\t"
            "movq %[x3], 24(%[buf])\n\t"
            "movq %[x4], 32(%[buf])\n\t"
            /* row 2: a2·a3..a2·a5 into T5..T8 = x5, x6, x1, x2 */
            "movq 16(%[a]), %%rdx\n\t"
            "xorl %k[lo], %k[lo]\n\t"
            MX_MAC("24(%[a])", x5, x6) MX_MAC("32(%[a])", x6, x1)
            "mulxq 40(%[a]), %[lo], %[x2]\n\t"
            "adoxq %[lo], %[x1]\n\t"
            "adcxq 56(%[k]), %[x2]\n\t"
            "adoxq 56(%[k]), %[x2]\n\t"
            "movq %[x5], 40(%[buf])\n\t"
            "movq %[x6], 48(%[buf])\n\t"
            /* row 3: a3·a4, a3·a5 into T7..T9 = x1, x2, x3 */
            "movq 24(%[a]), %%rdx\n\t"
            "xorl %k[lo], %k[lo]\n\t"
            MX_MAC("32(%[a])", x1, x2)
            "mulxq 40(%[a]), %[lo], %[x3]\n\t"
            "adoxq %[lo], %[x2]\n\t"
            "adcxq 56(%[k]), %[x3]\n\t"
            "adoxq 56(%[k]), %[x3]\n\t"
            "movq %[x1], 56(%[buf])\n\t"
            "movq %[x2], 64(%[buf])\n\t"
            /* row 4: a4·a5 into T9, T10 = x3, x4 */
            "movq 32(%[a]), %%rdx\n\t"
            "mulxq 40(%[a]), %[lo], %[x4]\n\t"
            "addq %[lo], %[x3]\n\t"
            "adcq $0, %[x4]\n\t"
            "movq %[x3], 72(%[buf])\n\t"
            "movq %[x4], 80(%[buf])\n\t"
            /* S = 2T + diagonal: doubling on the CF chain, squares on the OF chain;
             * S0..S5 stay in x0..x5, S6..S11 go back to buf. */
            "xorl %k[lo], %k[lo]\n\t"
            "movq 0(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[x0], %[hi]\n\t"
            "movq 8(%[buf]), %[x1]\n\t"
            "adcxq %[x1], %[x1]\n\t"
            "adoxq %[hi], %[x1]\n\t"
            "movq 8(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[lo], %[hi]\n\t"
            "movq 16(%[buf]), %[x2]\n\t"
            "adcxq %[x2], %[x2]\n\t"
            "adoxq %[lo], %[x2]\n\t"
            "movq 24(%[buf]), %[x3]\n\t"
            "adcxq %[x3], %[x3]\n\t"
            "adoxq %[hi], %[x3]\n\t"
            "movq 16(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[lo], %[hi]\n\t"
            "movq 32(%[buf]), %[x4]\n\t"
            "adcxq %[x4], %[x4]\n\t"
            "adoxq %[lo], %[x4]\n\t"
            "movq 40(%[buf]), %[x5]\n\t"
            "adcxq %[x5], %[x5]\n\t"
            "adoxq %[hi], %[x5]\n\t"
            "movq 24(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[lo], %[hi]\n\t"
            "movq 48(%[buf]), %[x6]\n\t"
            "adcxq %[x6], %[x6]\n\t"
            "adoxq %[lo], %[x6]\n\t"
            "movq %[x6], 48(%[buf])\n\t"
            "movq 56(%[buf]), %[x6]\n\t"
            "adcxq %[x6], %[x6]\n\t"
            "adoxq %[hi], %[x6]\n\t"
            "movq %[x6], 56(%[buf])\n\t"
            "movq 32(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[lo], %[hi]\n\t"
            "movq 64(%[buf]), %[x6]\n\t"
            "adcxq %[x6], %[x6]\n\t"
            "adoxq %[lo], %[x6]\n\t"
            "movq %[x6], 64(%[buf])\n\t"
            "movq 72(%[buf]), %[x6]\n\t"
            "adcxq %[x6], %[x6]\n\t"
            "adoxq %[hi], %[x6]\n\t"
            "movq %[x6], 72(%[buf])\n\t"
            "movq 40(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[lo], %[hi]\n\t"
            "movq 80(%[buf]), %[x6]\n\t"
            "adcxq %[x6], %[x6]\n\t"
            "adoxq %[lo], %[x6]\n\t"
            "movq %[x6], 80(%[buf])\n\t"
            "adcxq 56(%[k]), %[hi]\n\t"
            "adoxq 56(%[k]), %[hi]\n\t"
            "movq %[hi], 88(%[buf])\n\t"
            /* Montgomery reduction of S0..S5, then + S6..S11 */
            "xorl %k[x6], %k[x6]\n\t"
            MX_QROW_6(x0, x1, x2, x3, x4, x5, x6)
            MX_QROW_6(x1, x2, x3, x4, x5, x6, x0)
            MX_QROW_6(x2, x3, x4, x5, x6, x0, x1)
            MX_QROW_6(x3, x4, x5, x6, x0, x1, x2)
            MX_QROW_6(x4, x5, x6, x0, x1, x2, x3)
            MX_RSTEP_6(x5, x6, x0, x1, x2, x3, x4)
            "addq 48(%[buf]), %[x6]\n\t"
            "adcq 56(%[buf]), %[x0]\n\t"
            "adcq 64(%[buf]), %[x1]\n\t"
            "adcq 72(%[buf]), %[x2]\n\t"
            "adcq 80(%[buf]), %[x3]\n\t"
            "adcq 88(%[buf]), %[x4]\n\t"
            : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4),
              [x5] "=&r"(x5), [x6] "=&r"(x6), [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d)
            : [a] "r"(a->l), [buf] "r"(buf), [k] "r"(FP_ADX_K)
            : "cc", "memory");
    (void)d, (void)x5;
    fp_adx_final(r, x6, x0, x1, x2, x3, x4);
}

/* Wide product t = a·b (12 limbs) without reduction, for lazily reduced sums of products;
 * a, b < 2^383. Same register rotation as the Montgomery loop; finished limbs go to t (memory
 * only, hence volatile: the register outputs are scratch). */
#define MX_WROW_6(off, T0, T1, T2, T3, T4, T5, T6)                                               \
    "movq " #off "(%[b]), %%rdx\n\t"                                                             \
    "xorl %k[lo], %k[lo]\n\t"                                                                    \
    MX_MAC("0(%[a])", T0, T1) MX_MAC("8(%[a])", T1, T2) MX_MAC("16(%[a])", T2, T3)               \
    MX_MAC("24(%[a])", T3, T4) MX_MAC("32(%[a])", T4, T5)                                        \
    "mulxq 40(%[a]), %[lo], " MX_OP(T6) "\n\t"                                                   \
    "adoxq %[lo], " MX_OP(T5) "\n\t"                                                             \
    "adcxq 56(%[k]), " MX_OP(T6) "\n\t"                                                          \
    "adoxq 56(%[k]), " MX_OP(T6) "\n\t"                                                          \
    "movq " MX_OP(T0) ", " #off "(%[t])\n\t"

static inline __attribute__((always_inline)) void fp_mul_wide_adx_inl(uint64_t t[12], const uint64_t a[6],
                                                                      const uint64_t b[6])
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, d;
    __asm__ volatile(MX_ROW0_6(t0, t1, t2, t3, t4, t5, t6)
            "movq %[t0], 0(%[t])\n\t"
            MX_WROW_6(8, t1, t2, t3, t4, t5, t6, t0)
            MX_WROW_6(16, t2, t3, t4, t5, t6, t0, t1)
            MX_WROW_6(24, t3, t4, t5, t6, t0, t1, t2)
            MX_WROW_6(32, t4, t5, t6, t0, t1, t2, t3)
            MX_WROW_6(40, t5, t6, t0, t1, t2, t3, t4)
            "movq %[t6], 48(%[t])\n\t"
            "movq %[t0], 56(%[t])\n\t"
            "movq %[t1], 64(%[t])\n\t"
            "movq %[t2], 72(%[t])\n\t"
            "movq %[t3], 80(%[t])\n\t"
            "movq %[t4], 88(%[t])\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d)
            : [a] "r"(a), [b] "r"(b), [t] "r"(t), [k] "r"(FP_ADX_K)
            : "cc", "memory");
    (void)d, (void)t5;
}

/* Montgomery reduction r = t·2^-384 mod p for t < p·2^384, fully reduced: the low half is
 * reduced to u <= p, and u + t_hi < 2p. Ordinary steps only: friendly ones could push u past p
 * and the sum past 2p. */
static inline __attribute__((always_inline)) void fp_redc_adx_inl(fp *r, const uint64_t t[12])
{
    uint64_t x0, x1, x2, x3, x4, x5, x6, lo, hi, d;
    __asm__("movq 0(%[t]), %[x0]\n\t"
            "movq 8(%[t]), %[x1]\n\t"
            "movq 16(%[t]), %[x2]\n\t"
            "movq 24(%[t]), %[x3]\n\t"
            "movq 32(%[t]), %[x4]\n\t"
            "movq 40(%[t]), %[x5]\n\t"
            "xorl %k[x6], %k[x6]\n\t"
            MX_RSTEP_6(x0, x1, x2, x3, x4, x5, x6) "xorl %k[x0], %k[x0]\n\t"
            MX_RSTEP_6(x1, x2, x3, x4, x5, x6, x0) "xorl %k[x1], %k[x1]\n\t"
            MX_RSTEP_6(x2, x3, x4, x5, x6, x0, x1) "xorl %k[x2], %k[x2]\n\t"
            MX_RSTEP_6(x3, x4, x5, x6, x0, x1, x2) "xorl %k[x3], %k[x3]\n\t"
            MX_RSTEP_6(x4, x5, x6, x0, x1, x2, x3) "xorl %k[x4], %k[x4]\n\t"
            MX_RSTEP_6(x5, x6, x0, x1, x2, x3, x4)
            "addq 48(%[t]), %[x6]\n\t"
            "adcq 56(%[t]), %[x0]\n\t"
            "adcq 64(%[t]), %[x1]\n\t"
            "adcq 72(%[t]), %[x2]\n\t"
            "adcq 80(%[t]), %[x3]\n\t"
            "adcq 88(%[t]), %[x4]\n\t"
            : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4),
              [x5] "=&r"(x5), [x6] "=&r"(x6), [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d)
            : [t] "r"(t), [k] "r"(FP_ADX_K)
            : "cc", "memory");
    (void)d, (void)x5;
    fp_adx_final(r, x6, x0, x1, x2, x3, x4);
}

#define MX_ROW0_4(T0, T1, T2, T3, T4)                                                            \
    "movq 0(%[b]), %%rdx\n\t"                                                                    \
    "mulxq 0(%[a]), " MX_OP(T0) ", " MX_OP(T1) "\n\t"                                            \
    "mulxq 8(%[a]), %[lo], " MX_OP(T2) "\n\t"                                                    \
    "addq %[lo], " MX_OP(T1) "\n\t"                                                              \
    "mulxq 16(%[a]), %[lo], " MX_OP(T3) "\n\t"                                                   \
    "adcq %[lo], " MX_OP(T2) "\n\t"                                                              \
    "mulxq 24(%[a]), %[lo], " MX_OP(T4) "\n\t"                                                   \
    "adcq %[lo], " MX_OP(T3) "\n\t"                                                              \
    "adcq $0, " MX_OP(T4) "\n\t"

/* Product row T1..T5 += b[i]·a with a fresh top limb T5. In the Fr loop each row comes before
 * the reduction step of the limb below it, so that step's add into T1 is the last one. */
#define MX_ROW_4(off, T1, T2, T3, T4, T5)                                                        \
    "movq " #off "(%[b]), %%rdx\n\t"                                                             \
    "xorl %k[lo], %k[lo]\n\t"                                                                    \
    MX_MAC("0(%[a])", T1, T2) MX_MAC("8(%[a])", T2, T3) MX_MAC("16(%[a])", T3, T4)               \
    "mulxq 24(%[a]), %[lo], " MX_OP(T5) "\n\t"                                                   \
    "adoxq %[lo], " MX_OP(T4) "\n\t"                                                             \
    "adcxq 40(%[k]), " MX_OP(T5) "\n\t"                                                          \
    "adoxq 40(%[k]), " MX_OP(T5) "\n\t"

/* Friendly reduction step T1..T5 += T0·Q (see the top of the file), T5 existing. */
#define MX_QROW_4(T0, T1, T2, T3, T4, T5)                                                        \
    "movq " MX_OP(T0) ", %%rdx\n\t"                                                              \
    "xorl %k[lo], %k[lo]\n\t"                                                                    \
    MX_MAC("48(%[k])", T1, T2) MX_MAC("56(%[k])", T2, T3) MX_MAC("64(%[k])", T3, T4)             \
    MX_MAC("72(%[k])", T4, T5)                                                                   \
    "adoxq 40(%[k]), " MX_OP(T5) "\n\t"

/* Ordinary reduction step T0..T4 += m·q, m = T0·n0 (squaring); T0 becomes zero and closes the
 * OF chain into T4. */
#define MX_RED_4(T0, T1, T2, T3, T4)                                                             \
    "movq " MX_OP(T0) ", %%rdx\n\t"                                                              \
    "imulq 32(%[k]), %%rdx\n\t"                                                                  \
    "xorl %k[lo], %k[lo]\n\t"                                                                    \
    MX_MAC("0(%[k])", T0, T1) MX_MAC("8(%[k])", T1, T2) MX_MAC("16(%[k])", T2, T3)               \
    MX_MAC("24(%[k])", T3, T4)                                                                   \
    "adoxq " MX_OP(T0) ", " MX_OP(T4) "\n\t"

/* The last two digits as one ordinary 128-bit step: with N0 = -r^-1 mod 2^128,
 * m2 = lo(T0·n0) and m3 = hi(T0·n0) + lo(T0·N0hi) + lo(T1·n0) (mod 2^64) come from the limbs
 * before the step, so m3 does not wait for m2·r. Then T0..T5 += m2·r, T1..T5 += m3·r. The low
 * limb of each pass sums to 0 mod 2^64 with carry (its limb != 0), i.e. (m != 0): adding
 * all-ones to a copy of m sets CF to exactly that, and the pass starts one limb up with lo(m·r1)
 * (ready a cycle before hi(m·r0)). T0 holds m3, S is a scratch register. Result in T2..T5. */
#define MX_DSTEP_4(T0, T1, T2, T3, T4, T5, S)                                                    \
    "movq " MX_OP(T0) ", %%rdx\n\t"                                                              \
    "mulxq 32(%[k]), %[lo], %[hi]\n\t"                                                           \
    "imulq 88(%[k]), " MX_OP(T0) "\n\t"                                                          \
    "movq " MX_OP(T1) ", %%rdx\n\t"                                                              \
    "imulq 32(%[k]), %%rdx\n\t"                                                                  \
    "addq %%rdx, " MX_OP(T0) "\n\t"                                                              \
    "addq %[hi], " MX_OP(T0) "\n\t"                                                              \
    "movq %[lo], %%rdx\n\t"                                                                      \
    "xorl %k[hi], %k[hi]\n\t"                                                                    \
    "adcxq 80(%[k]), %[lo]\n\t"                                                                  \
    "mulxq 0(%[k]), %[lo], " MX_OP(S) "\n\t"                                                     \
    "mulxq 8(%[k]), %[lo], %[hi]\n\t"                                                            \
    "adoxq %[lo], " MX_OP(T1) "\n\t"                                                             \
    "adcxq " MX_OP(S) ", " MX_OP(T1) "\n\t"                                                      \
    "mulxq 16(%[k]), %[lo], " MX_OP(S) "\n\t"                                                    \
    "adoxq %[lo], " MX_OP(T2) "\n\t"                                                             \
    "adcxq %[hi], " MX_OP(T2) "\n\t"                                                             \
    "mulxq 24(%[k]), %[lo], %[hi]\n\t"                                                           \
    "adoxq %[lo], " MX_OP(T3) "\n\t"                                                             \
    "adcxq " MX_OP(S) ", " MX_OP(T3) "\n\t"                                                      \
    "adoxq 40(%[k]), " MX_OP(T4) "\n\t"                                                          \
    "adcxq %[hi], " MX_OP(T4) "\n\t"                                                             \
    "adoxq 40(%[k]), " MX_OP(T5) "\n\t"                                                          \
    "adcxq 40(%[k]), " MX_OP(T5) "\n\t"                                                          \
    "movq " MX_OP(T0) ", %%rdx\n\t"                                                              \
    "xorl %k[lo], %k[lo]\n\t"                                                                    \
    "adcxq 80(%[k]), " MX_OP(T0) "\n\t"                                                          \
    "mulxq 0(%[k]), %[lo], " MX_OP(T0) "\n\t"                                                    \
    "mulxq 8(%[k]), %[lo], %[hi]\n\t"                                                            \
    "adoxq %[lo], " MX_OP(T2) "\n\t"                                                             \
    "adcxq " MX_OP(T0) ", " MX_OP(T2) "\n\t"                                                     \
    "mulxq 16(%[k]), %[lo], " MX_OP(T0) "\n\t"                                                   \
    "adoxq %[lo], " MX_OP(T3) "\n\t"                                                             \
    "adcxq %[hi], " MX_OP(T3) "\n\t"                                                             \
    "mulxq 24(%[k]), %[lo], %[hi]\n\t"                                                           \
    "adoxq %[lo], " MX_OP(T4) "\n\t"                                                             \
    "adcxq " MX_OP(T0) ", " MX_OP(T4) "\n\t"                                                     \
    "adoxq 40(%[k]), " MX_OP(T5) "\n\t"                                                          \
    "adcxq %[hi], " MX_OP(T5) "\n\t"

/* r = x < r ? x : x − r for x < 2r. */
static inline void fr_adx_final(fr *r, uint64_t x0, uint64_t x1, uint64_t x2, uint64_t x3)
{
    uint64_t s0, s1, s2, s3;
    __asm__("movq %[x0], %[s0]\n\t"
            "movq %[x1], %[s1]\n\t"
            "movq %[x2], %[s2]\n\t"
            "movq %[x3], %[s3]\n\t"
            "subq 0(%[k]), %[s0]\n\t"
            "sbbq 8(%[k]), %[s1]\n\t"
            "sbbq 16(%[k]), %[s2]\n\t"
            "sbbq 24(%[k]), %[s3]\n\t"
            "cmovcq %[x0], %[s0]\n\t"
            "cmovcq %[x1], %[s1]\n\t"
            "cmovcq %[x2], %[s2]\n\t"
            "cmovcq %[x3], %[s3]\n\t"
            : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
            : [x0] "r"(x0), [x1] "r"(x1), [x2] "r"(x2), [x3] "r"(x3), [k] "r"(FR_ADX_K)
            : "cc");
    r->l[0] = s0, r->l[1] = s1, r->l[2] = s2, r->l[3] = s3;
}

/* Two friendly steps, then the last two digits as one ordinary step: with n0 ≈ 2^64 a third
 * friendly step would let the result reach 2.45·r. Bounds: the running sum stays below 2^320
 * (5 limbs, 6 with the next row); the result is
 * (a·b + Σ_{i<2} t_i·n0·r·2^64i + (m_2 + m_3·2^64)·r·2^128) / 2^256 < (r/2^256 + 2^-64 + 1)·r
 * < 1.46·r: one conditional subtraction. The b pointer is a copy, free after the last row. */
static inline __attribute__((always_inline)) void fr_mul_adx_inl(fr *r, const fr *a, const fr *b)
{
    uint64_t t0, t1, t2, t3, t4, t5, lo, hi, d;
    uint64_t pb = (uintptr_t)b->l;
    __asm__(MX_ROW0_4(t0, t1, t2, t3, t4)
            MX_ROW_4(8, t1, t2, t3, t4, t5)
            MX_QROW_4(t0, t1, t2, t3, t4, t5)
            MX_ROW_4(16, t2, t3, t4, t5, t0)
            MX_QROW_4(t1, t2, t3, t4, t5, t0)
            MX_ROW_4(24, t3, t4, t5, t0, t1)
            MX_DSTEP_4(t2, t3, t4, t5, t0, t1, b)
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d), [b] "+&r"(pb)
            : [a] "r"(a->l), [k] "r"(FR_ADX_K)
            : "cc", "memory");
    (void)d, (void)t2, (void)t3, (void)pb;
    /* The sum is in (t4, t5, t0, t1) and below 2r. */
    fr_adx_final(r, t4, t5, t0, t1);
}

/* Friendly reduction step T1..T5 += T0·Q with a fresh top limb T5 in T0's register (squaring). */
#define MX_QROWF_4(T0, T1, T2, T3, T4)                                                           \
    "movq " MX_OP(T0) ", %%rdx\n\t"                                                              \
    "xorl %k[lo], %k[lo]\n\t"                                                                    \
    MX_MAC("48(%[k])", T1, T2) MX_MAC("56(%[k])", T2, T3) MX_MAC("64(%[k])", T3, T4)             \
    "mulxq 72(%[k]), %[lo], " MX_OP(T0) "\n\t"                                                   \
    "adoxq %[lo], " MX_OP(T4) "\n\t"                                                             \
    "adcxq 40(%[k]), " MX_OP(T0) "\n\t"                                                          \
    "adoxq 40(%[k]), " MX_OP(T0) "\n\t"

/* Fr squaring, as for Fp: 6 off-diagonal products, 2·T + diagonal, then the reduction of the low
 * half (two friendly steps, two ordinary ones) with the high half added at the end (26
 * multiplications instead of 32). Everything stays in registers; the pointer a is dead after the
 * diagonal and becomes the zero top limb. Bound: (S_lo + M·r) / 2^256 < 1 + 2^-64·r + r and
 * S_hi < r / 2, so the sum is below 2r. */
static inline __attribute__((always_inline)) void fr_sqr_adx_inl(fr *r, const fr *a)
{
    uint64_t x0, x1, x2, x3, x4, x5, x6, x7, lo, hi, d;
    uint64_t pa = (uintptr_t)a->l;
    __asm__(/* off-diagonal: T1..T6 in x1..x6 */
            "movq 0(%[a]), %%rdx\n\t"
            "mulxq 8(%[a]), %[x1], %[x2]\n\t"
            "mulxq 16(%[a]), %[lo], %[x3]\n\t"
            "addq %[lo], %[x2]\n\t"
            "mulxq 24(%[a]), %[lo], %[x4]\n\t"
            "adcq %[lo], %[x3]\n\t"
            "adcq $0, %[x4]\n\t"
            "movq 8(%[a]), %%rdx\n\t"
            "xorl %k[lo], %k[lo]\n\t"
            MX_MAC("16(%[a])", x3, x4)
            "mulxq 24(%[a]), %[lo], %[x5]\n\t"
            "adoxq %[lo], %[x4]\n\t"
            "adcxq 40(%[k]), %[x5]\n\t"
            "adoxq 40(%[k]), %[x5]\n\t"
            "movq 16(%[a]), %%rdx\n\t"
            "mulxq 24(%[a]), %[lo], %[x6]\n\t"
            "addq %[lo], %[x5]\n\t"
            "adcq $0, %[x6]\n\t"
            /* S = 2T + diagonal in x0..x7 */
            "xorl %k[lo], %k[lo]\n\t"
            "movq 0(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[x0], %[hi]\n\t"
            "adcxq %[x1], %[x1]\n\t"
            "adoxq %[hi], %[x1]\n\t"
            "movq 8(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[lo], %[hi]\n\t"
            "adcxq %[x2], %[x2]\n\t"
            "adoxq %[lo], %[x2]\n\t"
            "adcxq %[x3], %[x3]\n\t"
            "adoxq %[hi], %[x3]\n\t"
            "movq 16(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[lo], %[hi]\n\t"
            "adcxq %[x4], %[x4]\n\t"
            "adoxq %[lo], %[x4]\n\t"
            "adcxq %[x5], %[x5]\n\t"
            "adoxq %[hi], %[x5]\n\t"
            "movq 24(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[lo], %[x7]\n\t"
            "adcxq %[x6], %[x6]\n\t"
            "adoxq %[lo], %[x6]\n\t"
            "adcxq 40(%[k]), %[x7]\n\t"
            "adoxq 40(%[k]), %[x7]\n\t"
            /* reduce S0..S3 (top limb: the former pointer, zeroed), then + S4..S7 */
            "xorl %k[a], %k[a]\n\t"
            MX_QROWF_4(x0, x1, x2, x3, a)
            MX_QROWF_4(x1, x2, x3, a, x0)
            MX_RED_4(x2, x3, a, x0, x1)
            MX_RED_4(x3, a, x0, x1, x2)
            "addq %[x4], %[a]\n\t"
            "adcq %[x5], %[x0]\n\t"
            "adcq %[x6], %[x1]\n\t"
            "adcq %[x7], %[x2]\n\t"
            : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4),
              [x5] "=&r"(x5), [x6] "=&r"(x6), [x7] "=&r"(x7), [lo] "=&r"(lo), [hi] "=&r"(hi),
              [d] "=&d"(d), [a] "+&r"(pa)
            : [k] "r"(FR_ADX_K)
            : "cc", "memory");
    (void)d, (void)x3;
    fr_adx_final(r, pa, x0, x1, x2);
}

#endif
#endif
