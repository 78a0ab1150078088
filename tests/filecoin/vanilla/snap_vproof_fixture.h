/* A small updated sector built whole in the test, independent of the library's SnapDeals code: a random old
 * replica and random Fr32 data, tree D (binary SHA-256) and trees R old / new (Poseidon, the size's shape)
 * hashed level by level from the node hashes, rho and phi by the textbook Poseidon permutation with the
 * domain tag 2^40, the challenges by storage-proofs-update challenges.rs' formula, and each partition's
 * bincode PartitionProof written field by field from the serde layout (vanilla.rs, merkle/proof.rs). */
#ifndef CUZK_TESTS_SNAP_VPROOF_FIXTURE_H
#define CUZK_TESTS_SNAP_VPROOF_FIXTURE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/snap.h"

typedef struct {
    uint32_t levels;
    uint8_t arity[64];
    uint8_t *lv[65]; /* level i's nodes, 32 bytes each; lv[levels] the root */
} snap_fx_tree;

typedef struct {
    cuzk_snap_config_t cfg;
    uint8_t *old, *data, *nw;          /* nodes × 32 bytes */
    snap_fx_tree d, r_old, r_new;
    uint8_t comm_c[32], comm_r_old[32], comm_d_new[32], comm_r_new[32], phi[32];
} snap_fx;

/* The sector for cfg; data_delta != 0: tree R new encodes data + data_delta (a broken encoding, trees
 * and commitments consistent). */
void snap_fx_build(snap_fx *f, const cuzk_snap_config_t *cfg, uint64_t data_delta);
/* The same over given nodes: the old replica, the padded data (nodes × 32 bytes each) and comm_c. */
void snap_fx_build_from(snap_fx *f, const cuzk_snap_config_t *cfg, const uint8_t *old, const uint8_t *data,
                        const uint8_t comm_c[32], uint64_t data_delta);
void snap_fx_free(snap_fx *f);

/* rho(node) as 32 bytes (textbook Poseidon2, tag 2^40, over phi and node >> (log2 nodes − h)). */
void snap_fx_rho(uint8_t out[32], const snap_fx *f, uint64_t node);

/* challenges.rs: partition k's cfg.challenge_count challenges for comm_r_new. */
void snap_fx_challenges(uint64_t *out, const snap_fx *f, uint32_t k);

/* Partition k's PartitionProof bytes (malloc'd, *len bytes) opening the nodes chal[0..n) (NULL: the
 * partition's challenges), with cfg.apex_leaf_count apex leaves of partition apex_k. */
uint8_t *snap_fx_partition(const snap_fx *f, uint32_t k, const uint64_t *chal, size_t n, uint32_t apex_k,
                           size_t *len);

/* Offsets inside snap_fx_partition's bytes for challenge i (0 <= i < n) of a proof of n challenges and
 * apex leaves: where its tree-R-old / tree-D / tree-R-new MerkleProof starts (which = 0, 1, 2), and where
 * apex leaf j is. */
size_t snap_fx_path_offset(const snap_fx *f, size_t i, int which);
size_t snap_fx_apex_offset(size_t j);
/* The byte offset of a path's level-l siblings within its MerkleProof (from its start). */
size_t snap_fx_sibling_offset(const snap_fx *f, int which, uint32_t level);

#endif
