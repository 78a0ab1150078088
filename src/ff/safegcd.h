/* Internal: modular inversion by Bernstein–Yang divsteps ("safegcd"), 62 divsteps per batch on
 * signed 62-bit limbs, in constant time (Fp and Fr inversion) or variable time. */
#ifndef CUZK_FF_SAFEGCD_H
#define CUZK_FF_SAFEGCD_H
#include <stdint.h>

#define SG_MAX_LIMBS 7

typedef struct {
    int64_t q[SG_MAX_LIMBS]; /* the odd modulus in signed-62 limbs */
    uint64_t q_inv62;        /* q^-1 mod 2^62 */
    int n62;                 /* signed-62 limbs used (room for the modulus and a sign) */
    int n64;                 /* 64-bit limbs of the canonical form */
    int batches;             /* batches of 62 divsteps: enough to reach g = 0 for any input */
} sg_modulus;

extern const sg_modulus SG_FP, SG_FR;

/* out = x^-1 mod q for a canonical x < q (n64 limbs); out = 0 when x = 0. The running time does
 * not depend on x. */
void sg_inverse(uint64_t *out, const uint64_t *x, const sg_modulus *m);

/* The same result in variable time: runs of divsteps that only halve g are taken as one shift, and
 * it stops once g = 0 instead of after the worst-case count. For values that need no protection from
 * timing side channels. */
void sg_inverse_vartime(uint64_t *out, const uint64_t *x, const sg_modulus *m);

#endif
