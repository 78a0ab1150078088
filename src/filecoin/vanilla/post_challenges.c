/* Fallback PoSt challenge derivations (post_challenges.h). */
#include "filecoin/vanilla/post_challenges.h"
#include "filecoin/hash/sha256_tree.h"

static void put_u64_le(uint8_t out[8], uint64_t v)
{
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_u64_le(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

uint64_t cuzk_fc_post_challenge_index(cuzk_fc_api_t api, uint64_t sector_index, uint64_t challenge_count,
                                      uint64_t n)
{
    return api == CUZK_FC_API_V1_2 ? n : sector_index * challenge_count + n;
}

uint64_t cuzk_fc_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id,
                                     uint64_t challenge_index, uint64_t sector_size)
{
    uint8_t sid[8], ci[8], h[32];
    put_u64_le(sid, sector_id);
    put_u64_le(ci, challenge_index);
    cuzk_fc_span_t parts[3] = {{randomness, 32}, {sid, 8}, {ci, 8}};
    cuzk_fc_sha256(h, parts, 3);
    uint64_t leaves = sector_size / 32;
    return leaves ? get_u64_le(h) % leaves : 0;
}

uint64_t cuzk_fc_post_sector_challenge(const uint8_t randomness[32], const uint8_t prover_id[32], uint64_t n,
                                       uint64_t sector_set_len)
{
    uint8_t nb[8], h[32];
    put_u64_le(nb, n);
    cuzk_fc_span_t parts[3] = {{prover_id, 32}, {randomness, 32}, {nb, 8}};
    cuzk_fc_sha256(h, parts, 3);
    return sector_set_len ? get_u64_le(h) % sector_set_len : 0;
}
