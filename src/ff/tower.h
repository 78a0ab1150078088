/* Internal: Frobenius coefficient tables of the Fp6 / Fp12 towers (tower_consts.c) and the
 * sparse Fp6 products the Fp12 line multiplication is built from. */
#ifndef CUZK_FF_TOWER_H
#define CUZK_FF_TOWER_H
#include "ff/fp12.h"

extern const fp2 FROB6_C1[6];
extern const fp2 FROB6_C2[6];
extern const fp2 FROB12_W[12];

/* r = a · (b0 + b1·v) */
void fp6_mul_by_01(fp6 *r, const fp6 *a, const fp2 *b0, const fp2 *b1);
/* r = a · (b1·v) */
void fp6_mul_by_1(fp6 *r, const fp6 *a, const fp2 *b1);

#endif
