/* SHA-256 as Filecoin uses it out of circuit (libcrypto underneath, SHA-NI where the CPU has it): digests of
 * concatenations, Fr32-trimmed digests, the binary tree node hash of tree D and comm_d (the root of that
 * tree over the padded sector), including the closed form for an all-zero sector of any size. */
#ifndef CUZK_FILECOIN_SHA256_TREE_H
#define CUZK_FILECOIN_SHA256_TREE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"

/* One piece of a concatenation. */
typedef struct {
    const void *ptr;
    size_t len;
} cuzk_fc_span_t;

/* sha256(parts[0] ‖ … ‖ parts[n−1]). */
void cuzk_fc_sha256(uint8_t out[32], const cuzk_fc_span_t *parts, size_t n);
/* The same with the top 2 bits of byte 31 cleared (a valid Fr32 value). */
void cuzk_fc_sha256_trimmed(uint8_t out[32], const cuzk_fc_span_t *parts, size_t n);
/* Tree D's node hash (Sha256Hasher's Merkle hasher): trim(sha256(left ‖ right)). */
void cuzk_fc_sha256_node(uint8_t out[32], const uint8_t left[32], const uint8_t right[32]);

/* The root of the binary SHA-256 tree over an all-zero padded sector of `sector_size` bytes (a power of
 * two, at least 32): level 0 is a 32-byte zero node, each level up hashes two copies. */
cuzk_status cuzk_fc_zero_comm_d(uint8_t out[32], uint64_t sector_size, cuzk_err_t *err);

/* The root of the binary SHA-256 tree over `len` bytes of padded (Fr32) data, len = 32·2^k, k >= 0.
 * threads: 0 = every online CPU. Works on the caller's buffer plus one half-size scratch
 * allocation; CUZK_ERR_NO_MEMORY if that fails, CUZK_ERR_INVALID_ARG for a bad length. */
cuzk_status cuzk_fc_comm_d(uint8_t out[32], const uint8_t *data, uint64_t len, int threads,
                           cuzk_err_t *err);

#endif
