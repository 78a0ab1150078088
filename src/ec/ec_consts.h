/* BLS12-381 curve constants (Montgomery form), defined in the generated ec_consts.c.
 * Each one is derived and checked by gen_consts.py and checked again by tests/ec. */
#ifndef CUZK_EC_CONSTS_H
#define CUZK_EC_CONSTS_H
#include "ec/ec.h"

extern const fp EC_G1_B;        /* b = 4 in y² = x³ + b */
extern const fp EC_G1_BETA;     /* cube root of unity: (βx, y) = −x²·P on G1 */
extern const g1_aff EC_G1_GEN;
extern const fp2 EC_G2_B;       /* b = 4(1 + u) */
extern const fp2 EC_G2_PSI_X;   /* ψ(x, y) = (conj(x)·PSI_X, conj(y)·PSI_Y) = x·P on G2 */
extern const fp2 EC_G2_PSI_Y;
extern const g2_aff EC_G2_GEN;

#endif
