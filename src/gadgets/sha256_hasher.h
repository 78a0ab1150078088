/* The SHA-256 Merkle hasher's circuits (filecoin-hashers sha256.rs, Sha256Function): SHA-256 of
 * bits in message order, the digest's bits reversed byte by byte and its first 254 packed into one
 * num (the digest read as a little-endian integer with the top two bits cleared, as the
 * out-of-circuit hasher's trim). Field elements enter as their 32 little-endian bytes. */
#ifndef CUZK_GADGETS_SHA256_HASHER_H
#define CUZK_GADGETS_SHA256_HASHER_H
#include <stddef.h>
#include "cuzk/cs.h"
#include "gadgets/boolean.h"
#include "gadgets/num.h"

/* hash_circuit: sha256(bits), then pack_bits of the first 254 little-endian bits (1 constraint). */
cuzk_num_t cuzk_sha256_hash_bits(cuzk_cs_t *cs, const cuzk_boolean_t *bits, size_t nbits);
/* hash_leaf_bits_circuit: left and right each padded to whole bytes with constant false and
 * reversed byte by byte, concatenated, hashed. 45,387 constraints with the 512 bit allocations of
 * two 256-bit leaves. */
cuzk_num_t cuzk_sha256_hash_leaf_bits(cuzk_cs_t *cs, const cuzk_boolean_t *left, size_t nleft,
                                      const cuzk_boolean_t *right, size_t nright);
/* hash2_circuit and hash_multi_leaf_circuit: each num to_bits_le (256 constraints), padded to 256
 * bits, reversed byte by byte, concatenated, hashed. */
cuzk_num_t cuzk_sha256_hash2(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b);
cuzk_num_t cuzk_sha256_hash_multi_leaf(cuzk_cs_t *cs, const cuzk_num_t *leaves, size_t n);

#endif
