/* Butterfly arithmetic of the IFMA NTT kernels on fr8v (ff/ifma/fr8_ops.h: 5 limbs of 52 bits,
 * Montgomery divisor 2^260), shaped for the butterflies: the product can leave its limbs
 * unnormalised when every consumer normalises anyway. A value is "loose" when its limbs are
 * non-negative and below 2^60 but not necessarily below 2^52; its value obeys the same range as
 * a normalised one. Loose values may enter lf_add, lf_sub, lf_sub_lazy; multiplications, the
 * final reduction and the stores need normalised ones. Included after simd512.h. */
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

/* a + b into [0, 2r), normalised; a, b < 2r, loose allowed. */
V8_INLINE void lf_add(fr8v *r, const fr8v *a, const fr8v *b)
{
    fr8v_add(r, a, b);
}

/* a − b into [0, 2r), normalised; a, b < 2r, loose allowed. */
V8_INLINE void lf_sub(fr8v *r, const fr8v *a, const fr8v *b)
{
    fr8v_sub(r, a, b);
}

/* a − b + 2r in (0, 4r), normalised; a, b < 2r, loose allowed. Only a product with a factor
 * below r may take it (4r·r < r·2^260). */
V8_INLINE void lf_sub_lazy(fr8v *r, const fr8v *a, const fr8v *b)
{
    m52_sub_lazy(r->l, a->l, b->l, FR8_2R, 5);
}

#endif
