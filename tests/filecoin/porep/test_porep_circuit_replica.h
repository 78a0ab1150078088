/* A whole small sealed sector for the PoRep circuit tests, built out of circuit with the project's
 * vanilla primitives (SDR graph, OpenSSL SHA-256 labels, Poseidon trees, SHA-256 tree D): random data
 * and replica_id, every layer's labels, the encoding, trees D, C and R, the commitments, interactive
 * challenges from a seed, and a partition witness and public inputs from them. */
#ifndef CUZK_TEST_POREP_CIRCUIT_REPLICA_H
#define CUZK_TEST_POREP_CIRCUIT_REPLICA_H
#include <stdint.h>
#include "cuzk/filecoin.h"
#include "ff/fr.h"

typedef struct {
    cuzk_porep_config_t cfg;
    uint8_t porep_id[32];
    uint8_t seed[32];
    fr replica_id;
    fr *data;    /* nodes */
    fr *labels;  /* layers × nodes, layer 1 first */
    fr *replica; /* nodes: data + last label */
    /* every level of each tree, leaves first: tree_x[l] has leaves / Π arities below l entries */
    fr *tree_d[64], *tree_c[64], *tree_r[64];
    unsigned d_levels, rc_levels;
    fr comm_d, comm_c, comm_r_last, comm_r;
} tpr_replica_t;

/* Builds the sector (API V1_1 graph of porep_id, XorShift stream from `seed16` for data and
 * replica_id, the challenge seed from the test PRNG). False on failure (a CHECK says why). */
bool tpr_build(tpr_replica_t *r, const cuzk_porep_config_t *cfg, const uint8_t porep_id[32],
               const uint8_t seed16[16]);
void tpr_free(tpr_replica_t *r);

/* Partition 0's interactive challenges (cfg.challenges of them). */
bool tpr_challenges(const tpr_replica_t *r, uint64_t *out);
/* Fills w (initialized for r->cfg) with every value of the vanilla proofs of these challenges. */
void tpr_fill_witness(cuzk_porep_witness_t *w, const tpr_replica_t *r, const uint64_t *challenges);
/* porep_inputs.h's public inputs for partition 0 (ONE excluded), n = 3 + 18·challenges. */
bool tpr_public_inputs(const tpr_replica_t *r, fr *out, size_t n);

#endif
