/* The PoRep commit-phase-1 output (filecoin-proofs-api SealCommitPhase1Output) as C data: the registered
 * proof, the sector's commitments and randomness, and per partition and challenge the stacked-DRG vanilla
 * proof. Also the checks a prover makes before synthesizing a circuit from it (c1_json.h reads and writes it). */
#ifndef CUZK_FILECOIN_C1_H
#define CUZK_FILECOIN_C1_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/merkle.h"
#include "filecoin/registry/registered_proof.h"

#define CUZK_FC_C1_MAX_LAYERS 11

/* storage-proofs-porep ColumnProof: the labels of one node in every layer (rows, one per layer) and the
 * path of the column's hash (Poseidon of arity `layers`) in tree C. path.leaf is that hash, path.root
 * comm_c. */
typedef struct {
    uint32_t index;
    uint8_t (*rows)[32];
    cuzk_fc_merkle_path_t path;
} cuzk_fc_c1_column_t;

/* LabelingProof / EncodingProof: the 37 parent labels hashed for `node` in layer `layer_index`
 * (1-based; the encoding proof repeats the last layer's). */
typedef struct {
    uint8_t (*parents)[32];
    uint32_t n_parents;
    uint32_t layer_index;
    uint64_t node;
} cuzk_fc_c1_label_t;

/* One challenge's vanilla proof (storage-proofs-porep stacked/vanilla/params.rs Proof). */
typedef struct {
    cuzk_fc_merkle_path_t comm_d;        /* tree D (SHA-256, binary): leaf = data node, root = comm_d */
    cuzk_fc_merkle_path_t comm_r_last;   /* tree R: leaf = replica node, root = comm_r_last */
    cuzk_fc_c1_column_t c_x;             /* the challenged node's column */
    cuzk_fc_c1_column_t drg[CUZK_FC_DRG_DEGREE];
    cuzk_fc_c1_column_t exp[CUZK_FC_EXP_DEGREE];
    uint32_t n_layers;
    cuzk_fc_c1_label_t *labeling;        /* n_layers, layer 1 first */
    cuzk_fc_c1_label_t encoding;
} cuzk_fc_c1_vproof_t;

typedef struct cuzk_fc_c1_arena cuzk_fc_c1_arena_t;

/* The whole C1 output. vproofs holds n_partitions · challenges_per_partition proofs, partition-major.
 * Every pointer inside points into the arena, freed with cuzk_fc_c1_free. */
typedef struct {
    const cuzk_fc_seal_proof_t *proof;
    uint32_t n_partitions;
    uint32_t challenges_per_partition;
    cuzk_fc_c1_vproof_t *vproofs;
    uint8_t comm_r[32], comm_d[32], replica_id[32], seed[32], ticket[32];
    cuzk_fc_c1_arena_t *arena;
} cuzk_fc_c1_t;

/* Zeroed storage of n bytes (8-byte aligned) that lives as long as c1 (freed by cuzk_fc_c1_free); NULL
 * when out of memory. Used by the parser and by sealing to fill the model. */
void *cuzk_fc_c1_alloc(cuzk_fc_c1_t *c1, size_t n);
/* Releases everything and zeroes *c1 (NULL-safe). */
void cuzk_fc_c1_free(cuzk_fc_c1_t *c1);

/* Partition k's challenge i. */
static inline cuzk_fc_c1_vproof_t *cuzk_fc_c1_vproof(const cuzk_fc_c1_t *c1, uint32_t k, uint32_t i)
{
    return &c1->vproofs[(size_t)k * c1->challenges_per_partition + i];
}

/* The name of the VanillaSealProof variant of a registered proof: "StackedDrg<size>V1" (the shape,
 * whatever the API version). */
const char *cuzk_fc_c1_shape_name(const cuzk_fc_seal_proof_t *p);

/* The SDR label of `node` in layer `layer` (1-based) from its 37 parent labels (storage-proofs-porep
 * labeling_proof.rs): trim(sha256(replica_id ‖ u32_be(layer) ‖ u64_be(node) ‖ 20 zero bytes ‖ parents)).
 * One node at a time, for checks and synthetic proofs; sealing labels whole layers its own way. */
void cuzk_fc_c1_label(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                      const uint8_t (*parents)[32]);

/* Structural and cryptographic checks, in this order, each failure naming partition, challenge and field:
 *  - shapes: partitions and challenges per partition of the registered proof, layers, 6 + 8 columns, 37
 *    parents, path shapes (tree D binary over all nodes, trees R and C of the proof's base-sub-top shape);
 *  - every Merkle path hashes to its root; the roots agree (comm_d, one comm_r_last, one comm_c) and
 *    comm_r = Poseidon2(comm_c, comm_r_last);
 *  - the challenge (labeling_proofs[0].node) is the leaf index of comm_d, comm_r_last and c_x, the column
 *    indexes are the graph's parents of it and each column's path opens its index;
 *  - column hashes are the paths' leaves, labels recompute to c_x's rows, the encoding proof gives the
 *    replica node from the data node.
 * CUZK_ERR_FORMAT (shape), CUZK_ERR_MISMATCH (values), CUZK_ERR_NOT_CANONICAL. On every online CPU; the
 * Poseidon nodes of the tree R / C paths and the column hashes are computed first, level by level across
 * all paths in lane batches, each distinct node input once (c1_hashes.h); the error is the first bad
 * challenge's, the same as node-by-node hashing gives. */
cuzk_status cuzk_fc_c1_verify(const cuzk_fc_c1_t *c1, cuzk_err_t *err);

/* Hash every Merkle node and column one at a time, path after path, instead of level by level across all
 * paths in lane batches with each distinct node input hashed once: the slow oracle of the batched check. */
#define CUZK_FC_C1_VERIFY_SCALAR 1u

/* cuzk_fc_c1_verify on `threads` threads (< 1: every online CPU) with flags CUZK_FC_C1_VERIFY_*. The
 * status and message are the same whatever the threads and flags (the first bad challenge's). */
cuzk_status cuzk_fc_c1_verify_opts(const cuzk_fc_c1_t *c1, int threads, unsigned flags, cuzk_err_t *err);

/* The challenges of every proof equal the ones derived from replica_id, seed and comm_r for the registered
 * proof's challenge kind (porep_inputs.h cuzk_fc_porep_challenges). CUZK_ERR_MISMATCH naming the first
 * differing partition and challenge. */
cuzk_status cuzk_fc_c1_check_challenges(const cuzk_fc_c1_t *c1, cuzk_err_t *err);

/* A deep comparison (every byte of every field): 0 when equal. */
int cuzk_fc_c1_compare(const cuzk_fc_c1_t *a, const cuzk_fc_c1_t *b);

#endif
