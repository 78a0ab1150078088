/* Sealing a small sector in memory, as rust-fil-proofs' seal_pre_commit + seal_commit_phase1 do: Fr32 padding,
 * tree D and comm_d, the replica id, SDR labels of every layer, tree C over the column hashes, the encoded
 * replica and tree R (comm_r_last), comm_r; then the vanilla proofs of the seed's challenges as a C1 model. */
#ifndef CUZK_FILECOIN_SEAL_H
#define CUZK_FILECOIN_SEAL_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/c1.h"
#include "filecoin/registry/registered_proof.h"

/* Everything precommit computes, kept in memory. Trees hold their levels above the leaves, level 1 first
 * (level i+1 right after level i), the root last; the leaves are the data (tree D), the column hashes of
 * the labels (tree C) and the replica nodes (tree R), recomputed where needed. Every node is a 32-byte
 * little-endian Fr representation. */
typedef struct {
    const cuzk_fc_seal_proof_t *proof;
    uint64_t nodes;
    uint64_t sector_id;
    uint8_t prover_id[32], ticket[32];
    uint8_t *data;      /* padded sector, nodes·32 bytes */
    uint8_t *labels;    /* layer l (1-based) at (l − 1)·nodes·32 */
    uint8_t *tree_d;    /* binary SHA-256 tree over data: nodes − 1 nodes above the leaves */
    uint8_t *tree_c;    /* tree of the proof's shape over the column hashes, above the leaves */
    uint8_t *tree_r;    /* the same over the replica (data + last layer's label) */
    uint8_t comm_d[32], comm_c[32], comm_r_last[32], comm_r[32], replica_id[32];
} cuzk_fc_sealed_t;

/* Precommit. raw holds the sector's unpadded bytes (sector_size·127/128 of them) or is NULL for an all-zero
 * sector. Only base-only tree shapes (8-0-0: 2KiB, 8MiB, 512MiB) are supported (CUZK_ERR_UNSUPPORTED for the
 * others). threads: 0 = every online CPU; one of them labels, the others compute parents and trees beside
 * it. Memory: (32·(layers + 2) + 56 + 64/7) bytes per node while it runs (the parent cache, 56 bytes a node,
 * is freed at the end): 3.2 GB at 512MiB. CUZK_ERR_NO_MEMORY; on error *out is empty. */
cuzk_status cuzk_fc_seal_precommit(cuzk_fc_sealed_t *out, const cuzk_fc_seal_proof_t *proof,
                                   const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                                   const uint8_t *raw, int threads, cuzk_err_t *err);

/* Commit phase 1: the registered proof's challenges for the seed (porep_inputs.h: interactive, synthetic or
 * non-interactive by the proof), and for each the vanilla proof, into a C1 model. */
cuzk_status cuzk_fc_seal_commit1(cuzk_fc_c1_t *out, const cuzk_fc_sealed_t *s, const uint8_t seed[32],
                                 cuzk_err_t *err);

void cuzk_fc_sealed_free(cuzk_fc_sealed_t *s);

/* The replica as filecoin-proofs writes the sealed file: node i = data_i + label_i of the last layer mod r,
 * 32-byte little-endian, into out (s->nodes·32 bytes). threads: 0 = every online CPU. Never fails. */
void cuzk_fc_seal_replica(uint8_t *out, const cuzk_fc_sealed_t *s, int threads);

/* The pieces of precommit that SnapDeals' encoding reuses. threads: 0 = every online CPU.
 * Fr32 padding of a whole sector: raw's nodes·32·127/128 bytes into out (nodes·32 bytes). */
void cuzk_fc_seal_pad(uint8_t *out, const uint8_t *raw, uint64_t nodes, int threads);
/* Tree D's levels above its leaves (binary SHA-256, each node trimmed) into upper ((nodes − 1)·32 bytes),
 * level 1 first, the root last. nodes: a power of two, at least 2. */
void cuzk_fc_seal_tree_d(uint8_t *upper, const uint8_t *data, uint64_t nodes, int threads);
/* An arity-8 Poseidon tree's levels above its leaves (canonical Fr nodes) into upper
 * ((cuzk_fc_seal_tree_size(nodes, 8) − nodes)·32 bytes), level 1 first, the root last. nodes: a power of
 * 8, at least 8. */
void cuzk_fc_seal_tree_r(uint8_t *upper, const uint8_t *leaves, uint64_t nodes, int threads);

/* Offset (in nodes) of level `level` of a tree with `nodes` leaves and the given arity, the number of
 * levels above the leaves, and every node of the tree, leaves included (merkletree get_merkle_tree_len). */
uint64_t cuzk_fc_seal_tree_level_offset(uint64_t nodes, unsigned arity, unsigned level);
unsigned cuzk_fc_seal_tree_height(uint64_t nodes, unsigned arity);
uint64_t cuzk_fc_seal_tree_size(uint64_t nodes, unsigned arity);

#endif
