/* Fallback PoSt challenge derivations (storage-proofs-post src/fallback/vanilla.rs and utils.rs): which
 * sectors of a set a Winning PoSt challenges and which leaf of a sector each PoSt challenge opens. They
 * take the chain's randomness as 32 bytes, as filecoin-ffi passes it. */
#ifndef CUZK_FILECOIN_POST_CHALLENGES_H
#define CUZK_FILECOIN_POST_CHALLENGES_H
#include <stdint.h>
#include "filecoin/registry/registered_proof.h"

/* Fallback PoSt. The index fed to the leaf hash: sector_index·challenge_count + n for API V1_0/V1_1,
 * n for V1_2 (utils.rs get_challenge_index). */
uint64_t cuzk_fc_post_challenge_index(cuzk_fc_api_t api, uint64_t sector_index, uint64_t challenge_count,
                                      uint64_t n);
/* Leaf = LE_u64(sha256(randomness ‖ u64_le(sector_id) ‖ u64_le(challenge_index))[0..8]) mod
 * (sector_size / 32) (0 when sector_size < 32). */
uint64_t cuzk_fc_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id,
                                     uint64_t challenge_index, uint64_t sector_size);
/* Sector selection (generate_sector_challenge): LE_u64(sha256(prover_id ‖ randomness ‖ u64_le(n))[0..8]) mod
 * sector_set_len (0 when sector_set_len is 0). */
uint64_t cuzk_fc_post_sector_challenge(const uint8_t randomness[32], const uint8_t prover_id[32], uint64_t n,
                                       uint64_t sector_set_len);

#endif
