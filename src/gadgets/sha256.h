/* The SHA-256 circuit (bellperson gadgets/sha256.rs): the compression function over UInt32 words
 * with one MultiEq per block, and sha256 of a bit vector whose padding is appended as constant
 * bits. Constant inputs fold: a compression of constants costs no constraint. Bits are in message
 * order (most significant bit of each byte first); the digest comes back the same way. */
#ifndef CUZK_GADGETS_SHA256_H
#define CUZK_GADGETS_SHA256_H
#include <stddef.h>
#include "cuzk/cs.h"
#include "gadgets/boolean.h"
#include "gadgets/uint32.h"

/* The initial hash value H0..H7 as constants. */
/* FIPS 180-4's round constants and initial hash value (also for out-of-gadget SHA-256 circuits). */
extern const uint32_t cuzk_sha256_k[64];
extern const uint32_t cuzk_sha256_iv_words[8];

void cuzk_sha256_iv(cuzk_u32_t iv[8]);
/* One compression of the 512-bit block `input` into state `cur`; out may alias cur. 25,840
 * constraints when every input bit is allocated and cur is the constant IV. */
void cuzk_sha256_compression(cuzk_cs_t *cs, const cuzk_boolean_t input[512], const cuzk_u32_t cur[8],
                             cuzk_u32_t out[8]);
/* One compression of a 512-bit block from the IV, no padding (sha256_block_no_padding); the
 * 256 digest bits, each word most significant bit first. */
void cuzk_sha256_block_no_padding(cuzk_cs_t *cs, const cuzk_boolean_t input[512], cuzk_boolean_t out[256]);
/* SHA-256 of nbits message bits (a multiple of 8; otherwise the system fails): padding
 * 1, zeros, 64-bit length as constants, then one compression per 512 bits. 44,874 constraints
 * for 512 allocated bits. */
void cuzk_sha256(cuzk_cs_t *cs, const cuzk_boolean_t *input, size_t nbits, cuzk_boolean_t out[256]);

#endif
