/* Multipacking (bellperson gadgets/multipack.rs): bits exposed as few public inputs (Fr::CAPACITY =
 * 254 bits per input, least significant first), the matching out-of-circuit packing that a
 * verifier's public inputs come from, and pack_bits (the first 254 bits as one private num). */
#ifndef CUZK_GADGETS_MULTIPACK_H
#define CUZK_GADGETS_MULTIPACK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "gadgets/boolean.h"
#include "gadgets/num.h"

/* Per chunk of up to 254 bits: one new input x and (Σ 2^i·bit_i)·ONE = x. */
void cuzk_multipack_pack_into_inputs(cuzk_cs_t *cs, const cuzk_boolean_t *bits, size_t n);
/* The inputs pack_into_inputs creates for these bit values: ceil(n / 254) elements (Montgomery
 * form) written to out; returns how many. */
size_t cuzk_multipack_compute(const bool *bits, size_t n, cuzk_fr_t *out);
/* Number of elements cuzk_multipack_compute writes for n bits. */
static inline size_t cuzk_multipack_count(size_t n) { return (n + 253) / 254; }
/* The first min(n, 254) bits, least significant first, as one new aux num x with
 * (Σ 2^i·bit_i)·ONE = x. */
cuzk_num_t cuzk_multipack_pack_bits(cuzk_cs_t *cs, const cuzk_boolean_t *bits, size_t n);
/* bytes → bits, 8 per byte: most significant first (bytes_to_bits) or least significant first
 * (bytes_to_bits_le). out has 8·nbytes entries. */
void cuzk_bytes_to_bits(const uint8_t *bytes, size_t nbytes, bool *out);
void cuzk_bytes_to_bits_le(const uint8_t *bytes, size_t nbytes, bool *out);

#endif
