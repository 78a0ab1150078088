/* The vanilla side of a PoRep partition's public inputs: the replica id, the challenges of partition k,
 * and the circuit's input vector (storage-proofs-porep stacked/circuit/proof.rs generate_public_inputs):
 *   replica_id, comm_d, comm_r, then per challenge c: c, its 6 DRG parents, its 8 expander parents,
 *   c (the UInt64), c (comm_r_last path), c (comm_c path)
 * (each inclusion path's packed bits are the leaf index). comm_r = Poseidon(comm_c, comm_r_last) is
 * computed by the caller (Poseidon lives elsewhere) and passed in. */
#ifndef CUZK_FILECOIN_POREP_INPUTS_H
#define CUZK_FILECOIN_POREP_INPUTS_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/field.h"
#include "cuzk/status.h"
#include "filecoin/registry/registered_proof.h"

/* What public-input generation needs from a seal proof. Usually filled from the registered proof
 * table; a field can be overridden for test setups (polka-storage uses porep_id 0 with V1_1
 * parent order, for instance). */
typedef struct {
    uint64_t nodes;
    cuzk_fc_api_t api;
    cuzk_fc_challenge_kind_t challenges;
    uint32_t challenges_per_partition;
    uint32_t partitions;
    uint64_t num_synth;          /* synthetic set size (min(nodes, 2^18)); used by the synthetic kind */
    uint8_t porep_id[32];
} cuzk_fc_porep_config_t;

#define CUZK_FC_POREP_INPUTS_PER_CHALLENGE 18
/* MAX_CHALLENGES_PER_PARTITION: the circuits are built for at most this many. */
#define CUZK_FC_MAX_CHALLENGES_PER_PARTITION 18

/* prover_id as filecoin-ffi derives it from a miner (actor) id: the payload of the ID address f0<id>, i.e. the
 * unsigned LEB128 varint of the id, zero-padded to 32 bytes. */
void cuzk_fc_prover_id_from_miner(uint8_t out[32], uint64_t miner_id);

void cuzk_fc_porep_config_from_proof(cuzk_fc_porep_config_t *cfg, const cuzk_fc_seal_proof_t *p);

/* replica_id = trim(sha256(prover_id ‖ u64_be(sector_id) ‖ ticket ‖ comm_d ‖ porep_id))
 * (stacked/vanilla/params.rs generate_replica_id). */
void cuzk_fc_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                        const uint8_t ticket[32], const uint8_t comm_d[32], const uint8_t porep_id[32]);

/* Partition k's challenges (cfg->challenges_per_partition of them) by the config's kind: interactive
 * uses seed, synthetic uses comm_r and seed (the "rand"), non-interactive uses comm_r (seed may be
 * NULL for it). CUZK_ERR_INVALID_ARG when k >= partitions, challenges_per_partition exceeds
 * CUZK_FC_MAX_CHALLENGES_PER_PARTITION or a needed argument is NULL. */
cuzk_status cuzk_fc_porep_challenges(uint64_t *out, const cuzk_fc_porep_config_t *cfg,
                                     const uint8_t replica_id[32], const uint8_t comm_r[32],
                                     const uint8_t seed[32], uint32_t k, cuzk_err_t *err);

/* 3 + 18·challenges_per_partition (ONE excluded). */
size_t cuzk_fc_porep_public_input_count(const cuzk_fc_porep_config_t *cfg);

/* Partition k's public inputs (ONE excluded) as Fr (Montgomery) into out[out_len]; out_len must be at
 * least cuzk_fc_porep_public_input_count(cfg) (CUZK_ERR_BAD_LENGTH otherwise). replica_id, comm_d and
 * comm_r are 32-byte LE representations and must be canonical (CUZK_ERR_NOT_CANONICAL naming which).
 * The graph is rebuilt from cfg (two SHA-256 digests). */
cuzk_status cuzk_fc_porep_public_inputs(cuzk_fr_t *out, size_t out_len, const cuzk_fc_porep_config_t *cfg,
                                        const uint8_t replica_id[32], const uint8_t comm_d[32],
                                        const uint8_t comm_r[32], const uint8_t seed[32], uint32_t k,
                                        cuzk_err_t *err);

#endif
