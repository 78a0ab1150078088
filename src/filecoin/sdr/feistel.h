/* The Feistel permutation behind the SDR expander graph (storage-proofs-core crypto/feistel.rs): a
 * 3-round balanced Feistel network on the smallest even bit width covering [0, n), round function =
 * first 8 bytes (big-endian) of BLAKE2b-512(u64_be(right) ‖ u64_be(key)) masked to the half width, and
 * cycle-walking until the result is below n. */
#ifndef CUZK_FILECOIN_FEISTEL_H
#define CUZK_FILECOIN_FEISTEL_H
#include <stddef.h>
#include <stdint.h>

#define CUZK_FC_FEISTEL_ROUNDS 3

typedef struct {
    uint64_t num_elements;
    uint64_t keys[4];      /* the first CUZK_FC_FEISTEL_ROUNDS are used */
    uint64_t left_mask, right_mask;
    unsigned half_bits;
} cuzk_fc_feistel_t;

/* num_elements in [1, 2^62]. */
void cuzk_fc_feistel_init(cuzk_fc_feistel_t *f, uint64_t num_elements, const uint64_t keys[4]);

/* permute(index) and its inverse, for index < num_elements (larger indexes are returned unchanged:
 * callers check ranges). Pure computation: no allocation, thread-safe. */
uint64_t cuzk_fc_feistel_permute(const cuzk_fc_feistel_t *f, uint64_t index);
uint64_t cuzk_fc_feistel_invert(const cuzk_fc_feistel_t *f, uint64_t index);

/* out[i] = permute(in[i]) for i < n (the expander's hot loop): sixteen indexes at a time through
 * AVX-512 where the dispatch table's choice says so (the ADX and IFMA implementations on a CPU with
 * AVX-512F), else one at a time. out may equal in. No allocation, thread-safe. */
void cuzk_fc_feistel_permute_n(const cuzk_fc_feistel_t *f, const uint64_t *in, uint64_t *out, size_t n);

#endif
