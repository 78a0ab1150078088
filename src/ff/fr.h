/* Fr: the BLS12-381 scalar field, r = 0x73eda753...00000001 (255 bits), Montgomery form with
 * R = 2^256. Same conventions as fp.h. cuzk_scalar_t is the canonical (non-Montgomery) form. */
#ifndef CUZK_FF_FR_H
#define CUZK_FF_FR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/field.h"

typedef cuzk_fr_t fr;

#define FR_LIMBS 4
#define FR_BYTES 32

extern const fr FR_ZERO;
extern const fr FR_ONE;                     /* Montgomery form of 1 */
extern const uint64_t FR_MODULUS[FR_LIMBS];  /* r, canonical limbs */
/* r - 1 = 2^32 · t (t odd); FR_ROOT_OF_UNITY_2_32 = 7^t is a primitive 2^32-th root of unity
 * (7 generates Fr^*), Montgomery form. */
#define FR_TWO_ADICITY 32
extern const fr FR_ROOT_OF_UNITY_2_32;

void fr_add(fr *r, const fr *a, const fr *b);
void fr_sub(fr *r, const fr *a, const fr *b);
void fr_dbl(fr *r, const fr *a);
void fr_neg(fr *r, const fr *a);
void fr_mul(fr *r, const fr *a, const fr *b);   /* dispatched: portable / adx */
/* r[i] = a[i]·b[i] for i < n (r may alias a or b): eight at a time in AVX-512 IFMA lanes when the
 * dispatch table's ff entry takes the IFMA variant, else fr_mul one by one. For long element-wise passes. */
void fr_mul_many(fr *r, const fr *a, const fr *b, size_t n);
void fr_sqr(fr *r, const fr *a);                 /* dispatched: portable / adx */
void fr_inv(fr *r, const fr *a);                 /* inv(0) = 0 */
void fr_batch_inv(fr *out, const fr *in, size_t n);
void fr_pow(fr *r, const fr *a, const uint64_t *e, size_t e_limbs);
bool fr_sqrt(fr *r, const fr *a);
int fr_legendre(const fr *a);
bool fr_is_zero(const fr *a);
bool fr_eq(const fr *a, const fr *b);
void fr_from_u64(fr *r, uint64_t v);
void fr_to_mont(fr *r, const uint64_t a[FR_LIMBS]);
void fr_from_mont(uint64_t r[FR_LIMBS], const fr *a);
/* Montgomery element <-> canonical scalar (the form MSM takes). */
void fr_to_scalar(cuzk_scalar_t *s, const fr *a);
void fr_from_scalar(fr *r, const cuzk_scalar_t *s);  /* requires s < r */
bool fr_from_bytes_le(fr *r, const uint8_t in[FR_BYTES]);  /* false when >= r */
bool fr_from_bytes_be(fr *r, const uint8_t in[FR_BYTES]);
void fr_to_bytes_le(uint8_t out[FR_BYTES], const fr *a);
void fr_to_bytes_be(uint8_t out[FR_BYTES], const fr *a);

#endif
