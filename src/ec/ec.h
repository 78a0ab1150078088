/* G1 and G2 of BLS12-381: the internal point API (affine and Jacobian arithmetic, scalar
 * multiplication, curve and subgroup checks). The formulas are written once (point_impl.h) and
 * instantiated for G1 over Fp (g1.c) and G2 over Fp2 (g2.c), so the two halves below match name for name.
 *
 * Conventions: coordinates are Montgomery-form field elements; affine infinity is (0, 0), Jacobian
 * infinity is any point with Z = 0; every function accepts r aliasing any input; nothing allocates.
 * Everything is variable time unless its name ends in _ct. "x" is the BLS parameter
 * x = −0xd201000000010000. */
#ifndef CUZK_EC_EC_H
#define CUZK_EC_EC_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/curve.h"
#include "ff/fp.h"
#include "ff/fp2.h"

typedef cuzk_g1_affine_t g1_aff;
typedef cuzk_g1_jac_t g1_jac;
typedef cuzk_g2_affine_t g2_aff;
typedef cuzk_g2_jac_t g2_jac;

/* |x| for the BLS parameter x = −0xd201000000010000. */
#define EC_BLS_X_ABS 0xd201000000010000ull

/* Longest scalar the _limbs multiplications take (768 bits: enough for cofactor-sized scalars). */
#define EC_MUL_MAX_LIMBS 12

/* ---- G1: y² = x³ + 4 over Fp --------------------------------------------------------------- */

void g1_generator(g1_aff *r);
void g1_aff_set_inf(g1_aff *r);
bool g1_aff_is_inf(const g1_aff *p);
void g1_jac_set_inf(g1_jac *r);
bool g1_jac_is_inf(const g1_jac *p);
void g1_jac_from_aff(g1_jac *r, const g1_aff *p);
void g1_jac_to_aff(g1_aff *r, const g1_jac *p);
/* out[i] = in[i] for i < n with one field inversion; out must not overlap in. */
void g1_jac_batch_to_aff(g1_aff *out, const g1_jac *in, size_t n);
void g1_jac_add(g1_jac *r, const g1_jac *p, const g1_jac *q);       /* any inputs (P == Q, ∞) */
void g1_jac_add_aff(g1_jac *r, const g1_jac *p, const g1_aff *q);   /* mixed; any inputs */
void g1_jac_dbl(g1_jac *r, const g1_jac *p);
void g1_jac_neg(g1_jac *r, const g1_jac *p);
void g1_aff_neg(g1_aff *r, const g1_aff *p);
bool g1_jac_eq(const g1_jac *p, const g1_jac *q);   /* same point (projective equality) */
bool g1_aff_eq(const g1_aff *p, const g1_aff *q);
/* r = k·p, variable time (wNAF). */
void g1_jac_mul(g1_jac *r, const g1_jac *p, const cuzk_scalar_t *k);
/* r = k·p for a k of n little-endian limbs (n <= EC_MUL_MAX_LIMBS), variable time. */
void g1_jac_mul_limbs(g1_jac *r, const g1_jac *p, const uint64_t *k, size_t n);
/* r = k·p for p IN G1 (the result is wrong for other curve points), variable time, about 40% faster
 * than g1_jac_mul: k mod r = k0 + k1·x² with 128-bit halves, and x²·p = −σ(p). */
void g1_jac_mul_endo(g1_jac *r, const g1_jac *p, const cuzk_scalar_t *k);
/* The GLV split behind it: k mod r = d0 + d1·x², d0 and d1 < 2^128 (two little-endian limbs each), so
 * that k·P = d0·P + d1·(βx, −y) for P in G1. */
void g1_glv_split(uint64_t d0[2], uint64_t d1[2], const cuzk_scalar_t *k);
/* r = k·p for secret k (any 256-bit value): the same sequence of field operations and memory accesses
 * for every k and p (fixed 4-bit windows, table scanned in full, complete formulas), so it is as
 * constant-time as the field arithmetic underneath. Roughly twice the cost of g1_jac_mul. */
void g1_jac_mul_ct(g1_jac *r, const g1_jac *p, const cuzk_scalar_t *k);
void g1_jac_mul_by_x(g1_jac *r, const g1_jac *p);   /* r = x·p, x the BLS parameter */
bool g1_aff_on_curve(const g1_aff *p);    /* infinity counts as on the curve */
/* Index of the first of p[0..n) that is not on the curve (infinity counts as on it), n when none;
 * coordinates must be canonical. Eight points at a time with AVX-512 IFMA. */
size_t g1_aff_first_off_curve(const g1_aff *p, size_t n);
/* c[i] = the Montgomery form of the raw canonical value c[i] holds (what fp.h's elements are), in place;
 * eight at a time with AVX-512 IFMA. For coordinates decoded from files. */
void fp_to_mont_many(fp *c, size_t n);
bool g1_jac_on_curve(const g1_jac *p);
/* Membership in the order-r subgroup for a point already known to be on the curve: σ(P) == −x²·P
 * with σ(x, y) = (βx, y) (Scott, "A note on group membership tests", 2021). */
bool g1_aff_in_subgroup(const g1_aff *p);
/* r = (1 − x)·p: maps any curve point into G1 (the effective cofactor of RFC 9380). */
void g1_clear_cofactor(g1_jac *r, const g1_jac *p);
/* The curve point with this x and the y whose sign (fp_is_lexicographically_largest) is `largest`;
 * false (r untouched) when x³ + 4 is not a square. No subgroup check. */
bool g1_aff_from_x(g1_aff *r, const fp *x, bool largest);

/* ---- G2: y² = x³ + 4(1 + u) over Fp2 ------------------------------------------------------- */

void g2_generator(g2_aff *r);
void g2_aff_set_inf(g2_aff *r);
bool g2_aff_is_inf(const g2_aff *p);
void g2_jac_set_inf(g2_jac *r);
bool g2_jac_is_inf(const g2_jac *p);
void g2_jac_from_aff(g2_jac *r, const g2_aff *p);
void g2_jac_to_aff(g2_aff *r, const g2_jac *p);
void g2_jac_batch_to_aff(g2_aff *out, const g2_jac *in, size_t n);
void g2_jac_add(g2_jac *r, const g2_jac *p, const g2_jac *q);
void g2_jac_add_aff(g2_jac *r, const g2_jac *p, const g2_aff *q);
void g2_jac_dbl(g2_jac *r, const g2_jac *p);
void g2_jac_neg(g2_jac *r, const g2_jac *p);
void g2_aff_neg(g2_aff *r, const g2_aff *p);
bool g2_jac_eq(const g2_jac *p, const g2_jac *q);
bool g2_aff_eq(const g2_aff *p, const g2_aff *q);
void g2_jac_mul(g2_jac *r, const g2_jac *p, const cuzk_scalar_t *k);
void g2_jac_mul_limbs(g2_jac *r, const g2_jac *p, const uint64_t *k, size_t n);
/* r = k·p for p IN G2 only, variable time: k mod r = Σ k_i·|x|^i with 64-bit k_i, |x|^i·p = (−ψ)^i(p). */
void g2_jac_mul_endo(g2_jac *r, const g2_jac *p, const cuzk_scalar_t *k);
void g2_jac_mul_ct(g2_jac *r, const g2_jac *p, const cuzk_scalar_t *k);
void g2_jac_mul_by_x(g2_jac *r, const g2_jac *p);
bool g2_aff_on_curve(const g2_aff *p);
size_t g2_aff_first_off_curve(const g2_aff *p, size_t n); /* as g1_aff_first_off_curve */
bool g2_jac_on_curve(const g2_jac *p);
/* ψ(P) == x·P, ψ the untwist-Frobenius-twist endomorphism (Scott 2021); p must be on the curve. */
bool g2_aff_in_subgroup(const g2_aff *p);
/* ψ(p) on Jacobian coordinates (the p-power Frobenius seen through the twist). */
void g2_jac_psi(g2_jac *r, const g2_jac *p);
/* r = h_eff·p (RFC 9380 G2 effective cofactor) via x²−x−1, (x−1)ψ and ψ²(2p): maps E2 into G2. */
void g2_clear_cofactor(g2_jac *r, const g2_jac *p);
bool g2_aff_from_x(g2_aff *r, const fp2 *x, bool largest);

#endif
