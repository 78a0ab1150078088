/* Bit-vector helpers of storage-proofs-core (util.rs, gadgets/xor.rs): bytes allocated as bits in
 * either bit order, the per-byte bit reversal that turns a little-endian field element's bits into
 * SHA-256 message order, and the xor of data bits with a 256-bit key. */
#ifndef CUZK_GADGETS_BITS_H
#define CUZK_GADGETS_BITS_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "gadgets/boolean.h"

/* nbits AllocatedBits of bytes (NULL: unknown; else ceil(nbits/8) bytes), each byte least
 * significant bit first (bytes_into_boolean_vec) or most significant first
 * (bytes_into_boolean_vec_be). */
void cuzk_bits_alloc_bytes_le(cuzk_cs_t *cs, const uint8_t *bytes, size_t nbits, cuzk_boolean_t *out);
void cuzk_bits_alloc_bytes_be(cuzk_cs_t *cs, const uint8_t *bytes, size_t nbits, cuzk_boolean_t *out);
/* reverse_bit_numbering: pads with constant false to a multiple of 8, then reverses the bits of
 * every byte. out has room for the padded length, which is returned; out may be in. */
size_t cuzk_bits_reverse_numbering(const cuzk_boolean_t *in, size_t n, cuzk_boolean_t *out);
/* out[i] = input[i] ⊕ key[i mod 256] (Boolean::xor), i < n; out may be input. */
void cuzk_bits_xor_key(cuzk_cs_t *cs, const cuzk_boolean_t key[256], const cuzk_boolean_t *input, size_t n,
                       cuzk_boolean_t *out);

#endif
