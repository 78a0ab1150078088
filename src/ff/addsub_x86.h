/* Internal: x86-64 modular addition and subtraction for Fp (6 limbs) and Fr (4 limbs) with
 * adc/sbb chains and cmov selection. Written in asm because compilers either lose the carry
 * chain or vectorize the final select through the stack (a store-forwarding stall that tripled the
 * cost). The "memory" clobber stands for the operand reads (fewer registers than memory
 * operands, which matters in unoptimized builds). Both moduli leave the top bit free, so a + b never carries out of the top limb. */
#ifndef CUZK_FF_ADDSUB_X86_H
#define CUZK_FF_ADDSUB_X86_H
#if defined(__x86_64__)
#include <stdint.h>

/* r = a + b mod q: t = a + b; s = t − q; keep t when that borrows. */
static inline void mod_add_6(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *q)
{
    uint64_t t0, t1, t2, t3, t4, t5, s2, s3, s4, s5;
    uint64_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    __asm__("movq 0(%[a]), %[t0]\n\t"
            "movq 8(%[a]), %[t1]\n\t"
            "movq 16(%[a]), %[t2]\n\t"
            "movq 24(%[a]), %[t3]\n\t"
            "movq 32(%[a]), %[t4]\n\t"
            "movq 40(%[a]), %[t5]\n\t"
            "addq 0(%[b]), %[t0]\n\t"
            "adcq 8(%[b]), %[t1]\n\t"
            "adcq 16(%[b]), %[t2]\n\t"
            "adcq 24(%[b]), %[t3]\n\t"
            "adcq 32(%[b]), %[t4]\n\t"
            "adcq 40(%[b]), %[t5]\n\t"
            "movq %[t0], %[a]\n\t"
            "movq %[t1], %[b]\n\t"
            "movq %[t2], %[s2]\n\t"
            "movq %[t3], %[s3]\n\t"
            "movq %[t4], %[s4]\n\t"
            "movq %[t5], %[s5]\n\t"
            "subq 0(%[q]), %[a]\n\t"
            "sbbq 8(%[q]), %[b]\n\t"
            "sbbq 16(%[q]), %[s2]\n\t"
            "sbbq 24(%[q]), %[s3]\n\t"
            "sbbq 32(%[q]), %[s4]\n\t"
            "sbbq 40(%[q]), %[s5]\n\t"
            "cmovcq %[t0], %[a]\n\t"
            "cmovcq %[t1], %[b]\n\t"
            "cmovcq %[t2], %[s2]\n\t"
            "cmovcq %[t3], %[s3]\n\t"
            "cmovcq %[t4], %[s4]\n\t"
            "cmovcq %[t5], %[s5]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4), [s5] "=&r"(s5),
              [a] "+&r"(pa), [b] "+&r"(pb)
            : [q] "r"(q)
            : "cc", "memory");
    r[0] = pa, r[1] = pb, r[2] = s2, r[3] = s3, r[4] = s4, r[5] = s5;
}

/* r = a − b mod q: t = a − b; s = t + q carries out exactly when t borrowed; keep s then. */
static inline void mod_sub_6(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *q)
{
    uint64_t t0, t1, t2, t3, t4, t5, s2, s3, s4, s5;
    uint64_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    __asm__("movq 0(%[a]), %[t0]\n\t"
            "movq 8(%[a]), %[t1]\n\t"
            "movq 16(%[a]), %[t2]\n\t"
            "movq 24(%[a]), %[t3]\n\t"
            "movq 32(%[a]), %[t4]\n\t"
            "movq 40(%[a]), %[t5]\n\t"
            "subq 0(%[b]), %[t0]\n\t"
            "sbbq 8(%[b]), %[t1]\n\t"
            "sbbq 16(%[b]), %[t2]\n\t"
            "sbbq 24(%[b]), %[t3]\n\t"
            "sbbq 32(%[b]), %[t4]\n\t"
            "sbbq 40(%[b]), %[t5]\n\t"
            "movq %[t0], %[a]\n\t"
            "movq %[t1], %[b]\n\t"
            "movq %[t2], %[s2]\n\t"
            "movq %[t3], %[s3]\n\t"
            "movq %[t4], %[s4]\n\t"
            "movq %[t5], %[s5]\n\t"
            "addq 0(%[q]), %[a]\n\t"
            "adcq 8(%[q]), %[b]\n\t"
            "adcq 16(%[q]), %[s2]\n\t"
            "adcq 24(%[q]), %[s3]\n\t"
            "adcq 32(%[q]), %[s4]\n\t"
            "adcq 40(%[q]), %[s5]\n\t"
            "cmovncq %[t0], %[a]\n\t"
            "cmovncq %[t1], %[b]\n\t"
            "cmovncq %[t2], %[s2]\n\t"
            "cmovncq %[t3], %[s3]\n\t"
            "cmovncq %[t4], %[s4]\n\t"
            "cmovncq %[t5], %[s5]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4), [s5] "=&r"(s5),
              [a] "+&r"(pa), [b] "+&r"(pb)
            : [q] "r"(q)
            : "cc", "memory");
    r[0] = pa, r[1] = pb, r[2] = s2, r[3] = s3, r[4] = s4, r[5] = s5;
}

static inline void mod_add_4(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *q)
{
    uint64_t t0, t1, t2, t3, s2, s3;
    uint64_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    __asm__("movq 0(%[a]), %[t0]\n\t"
            "movq 8(%[a]), %[t1]\n\t"
            "movq 16(%[a]), %[t2]\n\t"
            "movq 24(%[a]), %[t3]\n\t"
            "addq 0(%[b]), %[t0]\n\t"
            "adcq 8(%[b]), %[t1]\n\t"
            "adcq 16(%[b]), %[t2]\n\t"
            "adcq 24(%[b]), %[t3]\n\t"
            "movq %[t0], %[a]\n\t"
            "movq %[t1], %[b]\n\t"
            "movq %[t2], %[s2]\n\t"
            "movq %[t3], %[s3]\n\t"
            "subq 0(%[q]), %[a]\n\t"
            "sbbq 8(%[q]), %[b]\n\t"
            "sbbq 16(%[q]), %[s2]\n\t"
            "sbbq 24(%[q]), %[s3]\n\t"
            "cmovcq %[t0], %[a]\n\t"
            "cmovcq %[t1], %[b]\n\t"
            "cmovcq %[t2], %[s2]\n\t"
            "cmovcq %[t3], %[s3]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [s2] "=&r"(s2),
              [s3] "=&r"(s3), [a] "+&r"(pa), [b] "+&r"(pb)
            : [q] "r"(q)
            : "cc", "memory");
    r[0] = pa, r[1] = pb, r[2] = s2, r[3] = s3;
}

static inline void mod_sub_4(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *q)
{
    uint64_t t0, t1, t2, t3, s2, s3;
    uint64_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    __asm__("movq 0(%[a]), %[t0]\n\t"
            "movq 8(%[a]), %[t1]\n\t"
            "movq 16(%[a]), %[t2]\n\t"
            "movq 24(%[a]), %[t3]\n\t"
            "subq 0(%[b]), %[t0]\n\t"
            "sbbq 8(%[b]), %[t1]\n\t"
            "sbbq 16(%[b]), %[t2]\n\t"
            "sbbq 24(%[b]), %[t3]\n\t"
            "movq %[t0], %[a]\n\t"
            "movq %[t1], %[b]\n\t"
            "movq %[t2], %[s2]\n\t"
            "movq %[t3], %[s3]\n\t"
            "addq 0(%[q]), %[a]\n\t"
            "adcq 8(%[q]), %[b]\n\t"
            "adcq 16(%[q]), %[s2]\n\t"
            "adcq 24(%[q]), %[s3]\n\t"
            "cmovncq %[t0], %[a]\n\t"
            "cmovncq %[t1], %[b]\n\t"
            "cmovncq %[t2], %[s2]\n\t"
            "cmovncq %[t3], %[s3]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [s2] "=&r"(s2),
              [s3] "=&r"(s3), [a] "+&r"(pa), [b] "+&r"(pb)
            : [q] "r"(q)
            : "cc", "memory");
    r[0] = pa, r[1] = pb, r[2] = s2, r[3] = s3;
}

#endif
#endif
