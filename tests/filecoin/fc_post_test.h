/* Oracles of the PoSt vanilla proof tests, written from storage-proofs-post's formulas with libcrypto's
 * SHA-256 (test_sha256_parts), independent of the library's challenge code. Test-only, static. */
#ifndef CUZK_TESTS_FC_POST_TEST_H
#define CUZK_TESTS_FC_POST_TEST_H
#include <stdint.h>
#include "filecoin/vanilla/merkle.h"
#include "test_util.h"

/* The leaf challenge n of a sector opens (generate_fallback_sector_challenges, generate_leaf_challenge):
 * LE_u64(sha256(randomness ‖ u64_le(sector_id) ‖ u64_le(index))[0..8]) mod leaves, with index = n under
 * API V1_2 (v1_2 true), sector_index·challenges + n under V1_0 / V1_1. */
static inline uint64_t fc_test_post_leaf(const uint8_t randomness[32], uint64_t sector_id, uint64_t sector_index,
                                         uint32_t challenges, uint32_t n, int v1_2, uint64_t leaves)
{
    uint64_t index = v1_2 ? n : sector_index * challenges + n;
    uint8_t id[8], ci[8], h[32];
    for (int i = 0; i < 8; i++) {
        id[i] = (uint8_t)(sector_id >> (8 * i));
        ci[i] = (uint8_t)(index >> (8 * i));
    }
    const uint8_t *parts[3] = {randomness, id, ci};
    const size_t lens[3] = {32, 8, 8};
    test_sha256_parts(h, parts, lens, 3);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | h[i];
    return v % leaves;
}

/* The leaf a path opens, read off its levels' indices (the root's level the most significant digit). */
static inline uint64_t fc_test_path_leaf(const cuzk_fc_merkle_path_t *p)
{
    uint64_t leaf = 0;
    for (uint32_t l = p->n_base + p->n_sub + p->n_top; l-- > 0;)
        leaf = leaf * p->steps[l].arity + p->steps[l].index;
    return leaf;
}

#endif
