/* UInt64 (storage-proofs-core gadgets/uint64.rs): 64 Booleans, least significant first, with the
 * value when every bit has one; a PoRep challenge is one, exposed with pack_into_input. */
#ifndef CUZK_GADGETS_UINT64_H
#define CUZK_GADGETS_UINT64_H
#include <stdbool.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "gadgets/boolean.h"

typedef struct {
    cuzk_boolean_t bits[64]; /* least significant first */
    bool has_value;
    uint64_t value;
} cuzk_u64_t;

void cuzk_u64_constant(cuzk_u64_t *r, uint64_t value);
/* 64 AllocatedBits, least significant first; value NULL: unknown. */
void cuzk_u64_alloc(cuzk_u64_t *r, cuzk_cs_t *cs, const uint64_t *value);
/* multipack::pack_into_inputs of the 64 bits: one new input, one constraint. */
void cuzk_u64_pack_into_input(cuzk_cs_t *cs, const cuzk_u64_t *x);
void cuzk_u64_to_bits_be(const cuzk_u64_t *x, cuzk_boolean_t out[64]);
void cuzk_u64_from_bits_be(cuzk_u64_t *r, const cuzk_boolean_t bits[64]);
void cuzk_u64_to_bits_le(const cuzk_u64_t *x, cuzk_boolean_t out[64]);
void cuzk_u64_from_bits(cuzk_u64_t *r, const cuzk_boolean_t bits[64]);

#endif
