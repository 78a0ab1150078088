/* Kernel template: 8-lane Fr (BLS12-381 scalar field) in radix 2^52, 5 limbs, Montgomery factor
 * R' = 2^260, over mont52.h. Included by the real and the emulated build after simd512.h; the
 * representation and its invariants are documented in ifma.h. */
#ifndef CUZK_FF_IFMA_FR8_OPS_H
#define CUZK_FF_IFMA_FR8_OPS_H
#include <stdint.h>
#include "ff/ifma/mont52.h"

typedef struct { v8 l[5]; } fr8v;

/* r, 2r in radix 2^52; -r^-1 mod 2^52; 2^264 and 2^256 mod r (the factor changes R <-> R'). */
static const uint64_t FR8_R[5] = {0xfffff00000001ull, 0x02fffe5bfefffull, 0x9a1d80553bda4ull,
                                  0x7d483339d8080ull, 0x073eda753299dull};
static const uint64_t FR8_2R[5] = {0xffffe00000002ull, 0x05fffcb7fdfffull, 0x343b00aa77b48ull,
                                   0xfa906673b0101ull, 0x0e7db4ea6533aull};
#define FR8_RINV 0xffffeffffffffull
static const uint64_t FR8_2E264[5] = {0x00234fffffdcbull, 0x61039ef635000ull, 0xdce3c3e2e7505ull,
                                      0x7fa6f1563642bull, 0x0247db575276aull};
static const uint64_t FR8_2E256[5] = {0x00001fffffffeull, 0xfa00034802000ull, 0xcbc4ff55884b7ull,
                                      0x056f998c4fefeull, 0x01824b159acc5ull};

V8_INLINE void fr8v_const(fr8v *r, const uint64_t k[5])
{
    for (int j = 0; j < 5; j++)
        r->l[j] = v8_set1(k[j]);
}

V8_INLINE void fr8v_mul(fr8v *r, const fr8v *a, const fr8v *b) { m52_mul(r->l, a->l, b->l, FR8_R, FR8_RINV, 5); }
V8_INLINE void fr8v_sqr(fr8v *r, const fr8v *a) { m52_sqr(r->l, a->l, FR8_R, FR8_RINV, 5); }
/* [0, 2r) -> [0, r) */
V8_INLINE void fr8v_reduce(fr8v *r, const fr8v *a) { m52_csub(r->l, a->l, FR8_R, 5); }
/* a, b < 2r -> [0, 2r) */
V8_INLINE void fr8v_add(fr8v *r, const fr8v *a, const fr8v *b)
{
    m52_add_lazy(r->l, a->l, b->l, 5);
    m52_csub(r->l, r->l, FR8_2R, 5);
}
V8_INLINE void fr8v_sub(fr8v *r, const fr8v *a, const fr8v *b) { m52_sub_mod(r->l, a->l, b->l, FR8_2R, 5); }
V8_INLINE void fr8v_shl(fr8v *r, const fr8v *a, unsigned s) { m52_shl(r->l, a->l, s, 5); }

/* Transposition + radix change: w[k][i] is 64-bit word k of lane i's value (< 2^256). */
V8_INLINE void fr8v_from_words(fr8v *r, const uint64_t w[4][8])
{
    const v8 mask = v8_set1(M52);
    v8 w0 = v8_load(w[0]), w1 = v8_load(w[1]), w2 = v8_load(w[2]), w3 = v8_load(w[3]);
    r->l[0] = v8_and(w0, mask);
    r->l[1] = v8_and(v8_or(v8_shr(w0, 52), v8_shl(w1, 12)), mask);
    r->l[2] = v8_and(v8_or(v8_shr(w1, 40), v8_shl(w2, 24)), mask);
    r->l[3] = v8_and(v8_or(v8_shr(w2, 28), v8_shl(w3, 36)), mask);
    r->l[4] = v8_shr(w3, 16);
}

/* The inverse of fr8v_from_words, for normalized a < 2^256. */
V8_INLINE void fr8v_to_words(uint64_t w[4][8], const fr8v *a)
{
    const v8 *l = a->l;
    v8_store(w[0], v8_or(l[0], v8_shl(l[1], 52)));
    v8_store(w[1], v8_or(v8_shr(l[1], 12), v8_shl(l[2], 40)));
    v8_store(w[2], v8_or(v8_shr(l[2], 24), v8_shl(l[3], 28)));
    v8_store(w[3], v8_or(v8_shr(l[3], 36), v8_shl(l[4], 16)));
}

V8_INLINE void fr8v_load(fr8v *r, const uint64_t l[5][8])
{
    for (int j = 0; j < 5; j++)
        r->l[j] = v8_load(l[j]);
}

V8_INLINE void fr8v_store(uint64_t l[5][8], const fr8v *a)
{
    for (int j = 0; j < 5; j++)
        v8_store(l[j], a->l[j]);
}

#endif
