/* Fp: the BLS12-381 base field, p = 0x1a0111ea...aaab (381 bits), Montgomery form with R = 2^384.
 * All functions accept aliased arguments (r may equal a or b). Variable-time unless stated. */
#ifndef CUZK_FF_FP_H
#define CUZK_FF_FP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/field.h"

typedef cuzk_fp_t fp;

#define FP_LIMBS 6
#define FP_BYTES 48

extern const fp FP_ZERO;
extern const fp FP_ONE;                    /* Montgomery form of 1 (R mod p) */
extern const uint64_t FP_MODULUS[FP_LIMBS]; /* p, canonical limbs */

void fp_add(fp *r, const fp *a, const fp *b);
void fp_sub(fp *r, const fp *a, const fp *b);
void fp_dbl(fp *r, const fp *a);
void fp_neg(fp *r, const fp *a);
void fp_half(fp *r, const fp *a);                /* a / 2 */
void fp_mul(fp *r, const fp *a, const fp *b);   /* dispatched: portable / adx */
void fp_sqr(fp *r, const fp *a);                 /* dispatched: portable / adx */
void fp_inv(fp *r, const fp *a);                 /* inverse; inv(0) = 0 */
/* The same in variable time, for values that need no protection from timing side channels. The MSM's
 * batch additions use it (8-lane and scalar): their bucket sums depend on the witness, which in Filecoin's
 * proofs is the prover's own sector data and Merkle paths, not a secret to hide from timing; so do the
 * development setup's fixed-base tables (8-lane), whose toxic values whoever runs it knows anyway. */
void fp_inv_vartime(fp *r, const fp *a);
/* out[i] = in[i]^-1 for i < n with one inversion (Montgomery's trick); zero maps to zero.
 * out may equal in. The _vartime one inverts with fp_inv_vartime. */
void fp_batch_inv(fp *out, const fp *in, size_t n);
void fp_batch_inv_vartime(fp *out, const fp *in, size_t n);
void fp_pow(fp *r, const fp *a, const uint64_t *e, size_t e_limbs);  /* e canonical, LE limbs */
bool fp_sqrt(fp *r, const fp *a);   /* false (r untouched) when a is not a square */
int fp_legendre(const fp *a);       /* 0, 1 or -1 */
bool fp_is_zero(const fp *a);
bool fp_eq(const fp *a, const fp *b);
void fp_from_u64(fp *r, uint64_t v);
/* Conversions between canonical limbs and Montgomery form. fp_to_mont requires a < p. */
void fp_to_mont(fp *r, const uint64_t a[FP_LIMBS]);
void fp_from_mont(uint64_t r[FP_LIMBS], const fp *a);
/* True when the canonical value is > (p-1)/2 (the zcash "sign" of a coordinate). */
bool fp_is_lexicographically_largest(const fp *a);
/* Byte encodings of the canonical value. The readers return false when the value is >= p. */
bool fp_from_bytes_be(fp *r, const uint8_t in[FP_BYTES]);
bool fp_from_bytes_le(fp *r, const uint8_t in[FP_BYTES]);
void fp_to_bytes_be(uint8_t out[FP_BYTES], const fp *a);
void fp_to_bytes_le(uint8_t out[FP_BYTES], const fp *a);

#endif
