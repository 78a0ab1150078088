/* Fp2 = Fp[u]/(u² + 1). Same conventions as fp.h. */
#ifndef CUZK_FF_FP2_H
#define CUZK_FF_FP2_H
#include "ff/fp.h"

typedef cuzk_fp2_t fp2;

extern const fp2 FP2_ZERO;
extern const fp2 FP2_ONE;

void fp2_add(fp2 *r, const fp2 *a, const fp2 *b);
void fp2_sub(fp2 *r, const fp2 *a, const fp2 *b);
void fp2_dbl(fp2 *r, const fp2 *a);
void fp2_neg(fp2 *r, const fp2 *a);
void fp2_conj(fp2 *r, const fp2 *a);
void fp2_mul(fp2 *r, const fp2 *a, const fp2 *b);
void fp2_sqr(fp2 *r, const fp2 *a);
void fp2_mul_fp(fp2 *r, const fp2 *a, const fp *b);
void fp2_mul_by_nonresidue(fp2 *r, const fp2 *a);  /* × (1 + u), the Fp6 non-residue */
void fp2_inv(fp2 *r, const fp2 *a);                 /* inv(0) = 0 */
void fp2_batch_inv(fp2 *out, const fp2 *in, size_t n);
void fp2_pow(fp2 *r, const fp2 *a, const uint64_t *e, size_t e_limbs);  /* e canonical, LE limbs */
void fp2_frobenius(fp2 *r, const fp2 *a);           /* a^p = conjugate */
bool fp2_sqrt(fp2 *r, const fp2 *a);                /* false when a is not a square */
int fp2_legendre(const fp2 *a);
bool fp2_is_zero(const fp2 *a);
bool fp2_eq(const fp2 *a, const fp2 *b);
/* zcash sign of an Fp2 coordinate: c1 if non-zero decides, else c0. */
bool fp2_is_lexicographically_largest(const fp2 *a);

#endif
