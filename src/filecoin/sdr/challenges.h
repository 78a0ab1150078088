/* PoRep challenge derivations (storage-proofs-porep stacked/vanilla/challenges.rs): which nodes a PoRep
 * partition opens (interactive, synthetic, non-interactive). All take 32-byte little-endian Fr
 * representations. The PoSt challenges are in filecoin/vanilla/post_challenges.h. */
#ifndef CUZK_FILECOIN_CHALLENGES_H
#define CUZK_FILECOIN_CHALLENGES_H
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/registry/registered_proof.h"

/* A 256-bit little-endian number mapped onto nodes 1 .. nodes−1: (v mod (nodes − 1)) + 1, so node 0
 * is never challenged. nodes >= 2. */
uint64_t cuzk_fc_challenge_reduce(const uint8_t le256[32], uint64_t nodes);

/* Interactive PoRep, partition k: challenge i = reduce(sha256(replica_id ‖ seed ‖ u32_le(cpp·k + i))),
 * i < cpp. nodes in [2, 2^32]; CUZK_ERR_INVALID_ARG otherwise. */
cuzk_status cuzk_fc_challenges_interactive(uint64_t *out, uint32_t cpp, uint64_t nodes,
                                           const uint8_t replica_id[32], const uint8_t seed[32],
                                           uint32_t k, cuzk_err_t *err);

/* Non-interactive PoRep, partition k: reduce(sha256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id
 * ‖ comm_r ‖ u32_le(cpp·k + i))). */
cuzk_status cuzk_fc_challenges_ni(uint64_t *out, uint32_t cpp, uint64_t nodes, const uint8_t replica_id[32],
                                  const uint8_t comm_r[32], uint32_t k, cuzk_err_t *err);

/* Synthetic PoRep. The synthetic challenge set has num_synth members (Filecoin: min(nodes, 2^18),
 * cuzk_fc_synth_default_count); member i = reduce(bytes [32i, 32i + 32) of the ChaCha20 keystream
 * keyed with BLAKE2b-256 keyed by "filecoin.io|PoRep|1|Synthetic|1|Generation" over replica_id ‖ comm_r,
 * nonce "synth-porep\0"). Partition k's challenges are the members picked by 4-byte LE words
 * (mod num_synth) of the stream keyed by "...|Selection" over replica_id ‖ rand, starting at word cpp·k.
 * libcrypto's ChaCha20 and BLAKE2BMAC do the work; CUZK_ERR_UNSUPPORTED when it has neither. */
uint64_t cuzk_fc_synth_default_count(uint64_t nodes);
/* Members first .. first + count − 1 of the synthetic set (first + count <= num_synth). */
cuzk_status cuzk_fc_synth_challenges(uint64_t *out, uint64_t first, uint64_t count, uint64_t num_synth,
                                     uint64_t nodes, const uint8_t replica_id[32],
                                     const uint8_t comm_r[32], cuzk_err_t *err);
/* The member indexes that partition k selects. */
cuzk_status cuzk_fc_synth_indexes(uint64_t *out, uint32_t cpp, uint64_t num_synth,
                                  const uint8_t replica_id[32], const uint8_t rand[32], uint32_t k,
                                  cuzk_err_t *err);
/* Partition k's PoRep challenges: the selected members. */
cuzk_status cuzk_fc_challenges_synthetic(uint64_t *out, uint32_t cpp, uint64_t num_synth, uint64_t nodes,
                                         const uint8_t replica_id[32], const uint8_t comm_r[32],
                                         const uint8_t rand[32], uint32_t k, cuzk_err_t *err);

#endif
