/* The pairing towers: Fp6 = Fp2[v]/(v³ − (1+u)), Fp12 = Fp6[w]/(w² − v).
 * Same conventions as fp.h (aliasing allowed). */
#ifndef CUZK_FF_FP12_H
#define CUZK_FF_FP12_H
#include "ff/fp2.h"

typedef struct { fp2 c0, c1, c2; } fp6;   /* c0 + c1·v + c2·v² */
typedef struct { fp6 c0, c1; } fp12;      /* c0 + c1·w */

extern const fp6 FP6_ZERO, FP6_ONE;
extern const fp12 FP12_ONE;

void fp6_add(fp6 *r, const fp6 *a, const fp6 *b);
void fp6_sub(fp6 *r, const fp6 *a, const fp6 *b);
void fp6_neg(fp6 *r, const fp6 *a);
void fp6_mul(fp6 *r, const fp6 *a, const fp6 *b);
void fp6_sqr(fp6 *r, const fp6 *a);
void fp6_mul_by_nonresidue(fp6 *r, const fp6 *a);  /* × v */
void fp6_inv(fp6 *r, const fp6 *a);
void fp6_frobenius(fp6 *r, const fp6 *a, unsigned power);  /* a^(p^power) */
bool fp6_is_zero(const fp6 *a);
bool fp6_eq(const fp6 *a, const fp6 *b);

void fp12_mul(fp12 *r, const fp12 *a, const fp12 *b);
void fp12_sqr(fp12 *r, const fp12 *a);
void fp12_inv(fp12 *r, const fp12 *a);
void fp12_conj(fp12 *r, const fp12 *a);              /* a^(p^6); the inverse in the cyclotomic subgroup */
void fp12_frobenius(fp12 *r, const fp12 *a, unsigned power);  /* a^(p^power) */
void fp12_cyclotomic_sqr(fp12 *r, const fp12 *a);   /* squaring for elements of the cyclotomic subgroup */
/* Multiplication by a sparse element with non-zero coefficients only at c0.c0, c0.c1 and c1.c1
 * (the shape of a line function evaluation for the M-type twist). */
void fp12_mul_by_014(fp12 *r, const fp12 *a, const fp2 *c0, const fp2 *c1, const fp2 *c4);
void fp12_pow(fp12 *r, const fp12 *a, const uint64_t *e, size_t e_limbs);
bool fp12_is_one(const fp12 *a);
bool fp12_eq(const fp12 *a, const fp12 *b);
/* Canonical big-endian encoding as blst/zcash order it, 576 bytes: used only by tests against
 * external vectors. The coefficient order is documented in the implementation. */
void fp12_to_bytes(uint8_t out[576], const fp12 *a);

#endif
