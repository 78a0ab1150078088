/* Fr arithmetic for NTT butterflies with lazy reduction (internal to src/ntt).
 * Values in flight live in [0, 2r) (2r < 2^256 since r < 2^255) and are fully reduced only at the
 * end of a transform. Twiddles are always fully reduced (< r): a Montgomery product x·w with
 * x < 2r, w < r is below 2r without the final subtraction, which is what these kernels save over
 * the general fr_mul. Montgomery form with R = 2^256, as in ff/fr.h. */
#ifndef CUZK_NTT_ARITH_H
#define CUZK_NTT_ARITH_H
#include <stdint.h>
#include "ff/fr.h"

typedef unsigned __int128 ntt_u128;

#define NTT_R0 0xffffffff00000001ULL
#define NTT_R1 0x53bda402fffe5bfeULL
#define NTT_R2 0x3339d80809a1d805ULL
#define NTT_R3 0x73eda753299d7d48ULL
/* 2r, which still fits 256 bits */
#define NTT_2R0 0xfffffffe00000002ULL
#define NTT_2R1 0xa77b4805fffcb7fdULL
#define NTT_2R2 0x6673b0101343b00aULL
#define NTT_2R3 0xe7db4ea6533afa90ULL
/* −r^−1 mod 2^64 */
#define NTT_INV 0xfffffffeffffffffULL

/* o = x·w·2^−256 mod r, in [0, 2r); requires x < 2r and w < r. CIOS with x scanned limb by
 * limb: the running sum stays below w + r < 2r < 2^256, so four limbs plus one carry word hold
 * every intermediate value. o may alias x or w. */
static inline void ntt_mul_portable(fr *o, const fr *x, const fr *w)
{
    const uint64_t w0 = w->l[0], w1 = w->l[1], w2 = w->l[2], w3 = w->l[3];
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4;
    for (int i = 0; i < 4; i++) {
        const uint64_t xi = x->l[i];
        ntt_u128 c = (ntt_u128)xi * w0 + t0;
        t0 = (uint64_t)c;
        c = (ntt_u128)xi * w1 + t1 + (uint64_t)(c >> 64);
        t1 = (uint64_t)c;
        c = (ntt_u128)xi * w2 + t2 + (uint64_t)(c >> 64);
        t2 = (uint64_t)c;
        c = (ntt_u128)xi * w3 + t3 + (uint64_t)(c >> 64);
        t3 = (uint64_t)c;
        t4 = (uint64_t)(c >> 64);
        const uint64_t m = t0 * NTT_INV;
        c = (ntt_u128)m * NTT_R0 + t0; /* low limb becomes 0 */
        c = (ntt_u128)m * NTT_R1 + t1 + (uint64_t)(c >> 64);
        t0 = (uint64_t)c;
        c = (ntt_u128)m * NTT_R2 + t2 + (uint64_t)(c >> 64);
        t1 = (uint64_t)c;
        c = (ntt_u128)m * NTT_R3 + t3 + (uint64_t)(c >> 64);
        t2 = (uint64_t)c;
        t3 = t4 + (uint64_t)(c >> 64);
    }
    o->l[0] = t0, o->l[1] = t1, o->l[2] = t2, o->l[3] = t3;
}

#if defined(__x86_64__)
#define NTT_HAVE_ADX 1
static const uint64_t ntt_r_const[4] = {NTT_R0, NTT_R1, NTT_R2, NTT_R3};
static const uint64_t ntt_inv_const = NTT_INV;

/* Same contract as ntt_mul_portable, with MULX and the two carry chains of ADCX (CF) and ADOX
 * (OF). The five-limb running sum rotates through registers instead of being shifted: after each
 * reduction step its lowest limb is zero and is reused as the next top limb. Only call when the
 * CPU has ADX and BMI2. */
static inline void ntt_mul_adx(fr *o, const fr *x, const fr *w)
{
    uint64_t a0, a1, a2, a3, a4, lo, hi;
    /* Row i: sum += x_i·w (the lows go on the OF chain into limb j, the highs on the CF chain
     * into limb j+1); then m = sum_0·inv and sum = (sum + m·r) >> 64. A zero register (the limb
     * just cleared by the reduction) closes both chains into the top limb. */
#define NTT_ROW(XI, S0, S1, S2, S3, S4)                                                        \
    "movq " XI ", %%rdx\n\t"                                                                   \
    "xorl %k[lo], %k[lo]\n\t"                                                                  \
    "mulxq %[w0], %[lo], %[hi]\n\t"                                                            \
    "adoxq %[lo], %[" S0 "]\n\t"                                                               \
    "adcxq %[hi], %[" S1 "]\n\t"                                                               \
    "mulxq %[w1], %[lo], %[hi]\n\t"                                                            \
    "adoxq %[lo], %[" S1 "]\n\t"                                                               \
    "adcxq %[hi], %[" S2 "]\n\t"                                                               \
    "mulxq %[w2], %[lo], %[hi]\n\t"                                                            \
    "adoxq %[lo], %[" S2 "]\n\t"                                                               \
    "adcxq %[hi], %[" S3 "]\n\t"                                                               \
    "mulxq %[w3], %[lo], %[" S4 "]\n\t"                                                        \
    "adoxq %[lo], %[" S3 "]\n\t"                                                               \
    "movl $0, %k[lo]\n\t"                                                                      \
    "adcxq %[lo], %[" S4 "]\n\t"                                                               \
    "adoxq %[lo], %[" S4 "]\n\t"                                                               \
    "movq %[" S0 "], %%rdx\n\t"                                                                \
    "imulq %[inv], %%rdx\n\t"                                                                  \
    "xorl %k[lo], %k[lo]\n\t"                                                                  \
    "mulxq %[r0], %[lo], %[hi]\n\t"                                                            \
    "adoxq %[lo], %[" S0 "]\n\t"                                                               \
    "adcxq %[hi], %[" S1 "]\n\t"                                                               \
    "mulxq %[r1], %[lo], %[hi]\n\t"                                                            \
    "adoxq %[lo], %[" S1 "]\n\t"                                                               \
    "adcxq %[hi], %[" S2 "]\n\t"                                                               \
    "mulxq %[r2], %[lo], %[hi]\n\t"                                                            \
    "adoxq %[lo], %[" S2 "]\n\t"                                                               \
    "adcxq %[hi], %[" S3 "]\n\t"                                                               \
    "mulxq %[r3], %[lo], %[hi]\n\t"                                                            \
    "adoxq %[lo], %[" S3 "]\n\t"                                                               \
    "adcxq %[hi], %[" S4 "]\n\t"                                                               \
    "adoxq %[" S0 "], %[" S4 "]\n\t"
    /* The first row starts from a zero sum. */
    __asm__("xorl %k[a0], %k[a0]\n\t"
            "xorl %k[a1], %k[a1]\n\t"
            "xorl %k[a2], %k[a2]\n\t"
            "xorl %k[a3], %k[a3]\n\t"
            NTT_ROW("0(%[x])", "a0", "a1", "a2", "a3", "a4")
            NTT_ROW("8(%[x])", "a1", "a2", "a3", "a4", "a0")
            NTT_ROW("16(%[x])", "a2", "a3", "a4", "a0", "a1")
            NTT_ROW("24(%[x])", "a3", "a4", "a0", "a1", "a2")
            : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [a4] "=&r"(a4),
              [lo] "=&r"(lo), [hi] "=&r"(hi)
            : [x] "r"(x->l), [xm] "m"(*(const uint64_t(*)[4])x->l), [w0] "rm"(w->l[0]),
              [w1] "rm"(w->l[1]), [w2] "rm"(w->l[2]), [w3] "rm"(w->l[3]),
              [inv] "m"(ntt_inv_const), [r0] "m"(ntt_r_const[0]), [r1] "m"(ntt_r_const[1]),
              [r2] "m"(ntt_r_const[2]), [r3] "m"(ntt_r_const[3])
            : "rdx", "cc");
#undef NTT_ROW
    o->l[0] = a4, o->l[1] = a0, o->l[2] = a1, o->l[3] = a2;
}
#endif

/* Carry-propagating limb helpers. On x86-64 the intrinsics become adc/sbb chains; the
 * unsigned __int128 form is portable but GCC spills it to the stack. */
#if defined(__x86_64__)
#include <x86intrin.h>
static inline uint64_t ntt_addc(uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
    unsigned long long o;
    c = _addcarry_u64((unsigned char)c, a, b, &o);
    *out = o;
    return c;
}
static inline uint64_t ntt_subb(uint64_t a, uint64_t b, uint64_t br, uint64_t *out)
{
    unsigned long long o;
    br = _subborrow_u64((unsigned char)br, a, b, &o);
    *out = o;
    return br;
}
#else
static inline uint64_t ntt_addc(uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
    ntt_u128 s = (ntt_u128)a + b + c;
    *out = (uint64_t)s;
    return (uint64_t)(s >> 64);
}
static inline uint64_t ntt_subb(uint64_t a, uint64_t b, uint64_t br, uint64_t *out)
{
    ntt_u128 d = (ntt_u128)a - b - br;
    *out = (uint64_t)d;
    return (uint64_t)(d >> 64) & 1;
}
#endif

/* o = x + y reduced into [0, 2r); x, y < 2r. The sum may carry out of 256 bits. */
static inline void ntt_add(fr *o, const fr *x, const fr *y)
{
    uint64_t s0, s1, s2, s3, d0, d1, d2, d3, c, b;
    c = ntt_addc(x->l[0], y->l[0], 0, &s0);
    c = ntt_addc(x->l[1], y->l[1], c, &s1);
    c = ntt_addc(x->l[2], y->l[2], c, &s2);
    c = ntt_addc(x->l[3], y->l[3], c, &s3);
    b = ntt_subb(s0, NTT_2R0, 0, &d0);
    b = ntt_subb(s1, NTT_2R1, b, &d1);
    b = ntt_subb(s2, NTT_2R2, b, &d2);
    b = ntt_subb(s3, NTT_2R3, b, &d3);
    /* keep the sum only when it neither carried nor reached 2r */
    const uint64_t keep = 0 - (b & (c ^ 1));
    o->l[0] = (s0 & keep) | (d0 & ~keep);
    o->l[1] = (s1 & keep) | (d1 & ~keep);
    o->l[2] = (s2 & keep) | (d2 & ~keep);
    o->l[3] = (s3 & keep) | (d3 & ~keep);
}

/* o = x − y mapped into [0, 2r); x, y < 2r. */
static inline void ntt_sub(fr *o, const fr *x, const fr *y)
{
    uint64_t d0, d1, d2, d3, b, c;
    b = ntt_subb(x->l[0], y->l[0], 0, &d0);
    b = ntt_subb(x->l[1], y->l[1], b, &d1);
    b = ntt_subb(x->l[2], y->l[2], b, &d2);
    b = ntt_subb(x->l[3], y->l[3], b, &d3);
    const uint64_t m = 0 - b;
    c = ntt_addc(d0, NTT_2R0 & m, 0, &d0);
    c = ntt_addc(d1, NTT_2R1 & m, c, &d1);
    c = ntt_addc(d2, NTT_2R2 & m, c, &d2);
    ntt_addc(d3, NTT_2R3 & m, c, &d3);
    o->l[0] = d0, o->l[1] = d1, o->l[2] = d2, o->l[3] = d3;
}

/* o = x mod r for x < 2r: the final normalisation. */
static inline void ntt_reduce(fr *o, const fr *x)
{
    uint64_t d0, d1, d2, d3, b;
    b = ntt_subb(x->l[0], NTT_R0, 0, &d0);
    b = ntt_subb(x->l[1], NTT_R1, b, &d1);
    b = ntt_subb(x->l[2], NTT_R2, b, &d2);
    b = ntt_subb(x->l[3], NTT_R3, b, &d3);
    const uint64_t keep = 0 - b;
    o->l[0] = (x->l[0] & keep) | (d0 & ~keep);
    o->l[1] = (x->l[1] & keep) | (d1 & ~keep);
    o->l[2] = (x->l[2] & keep) | (d2 & ~keep);
    o->l[3] = (x->l[3] & keep) | (d3 & ~keep);
}

#endif
