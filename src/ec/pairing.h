/* The optimal ate pairing on BLS12-381, e: G1 × G2 → GT ⊂ Fp12: Miller loop, final exponentiation,
 * multi-pairings sharing one final exponentiation, and G2 points prepared once for many pairings
 * (the Groth16 verifier's fixed β, γ, δ). Inputs are affine points assumed to be in the prime-order
 * subgroups (decoders check that); (0, 0) is the point at infinity and contributes 1.
 * The value equals blst's, zcash's and @noble/curves' (the cube of the textbook reduced pairing). */
#ifndef CUZK_EC_PAIRING_H
#define CUZK_EC_PAIRING_H
#include <stdbool.h>
#include <stddef.h>
#include "ec/ec.h"
#include "ff/fp12.h"

/* One line per doubling (63) and per set bit of |x| below the top one (5). */
#define PAIRING_LINES 68

/* A G2 point with the Miller loop's line coefficients precomputed (about 19.6 KB). */
typedef struct {
    fp2 ell[PAIRING_LINES][3];
    bool is_inf;
} g2_prepared;

void g2_prepare(g2_prepared *out, const g2_aff *Q);

/* out = Π f_{x,Q_i}(P_i): the product of the Miller loops, NOT yet exponentiated; only
 * final_exp(out) is meaningful (an element of GT). n = 0 gives 1. Pairs with a point at
 * infinity are skipped. The prepared and unprepared forms give the same value. */
void miller_loop(fp12 *out, const g1_aff *Ps, const g2_aff *Qs, size_t n);
void miller_loop_prepared(fp12 *out, const g1_aff *Ps, const g2_prepared *Qs, size_t n);

/* out = f^(3·(p¹² − 1)/r). out may equal f. */
void final_exp(fp12 *out, const fp12 *f);

/* out = e(P, Q). */
void pairing(fp12 *out, const g1_aff *P, const g2_aff *Q);
/* out = Π e(P_i, Q_i), with one shared Miller loop squaring chain and one final exponentiation. */
void multi_pairing(fp12 *out, const g1_aff *Ps, const g2_aff *Qs, size_t n);
/* True when Π e(P_i, Q_i) == 1: the form verification equations take. */
bool multi_pairing_is_one(const g1_aff *Ps, const g2_aff *Qs, size_t n);

#endif
