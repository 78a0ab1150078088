/* A Merkle tree of Filecoin's shapes over any number of leaves that are constant over `bands` equal, aligned
 * runs ("bands") except a few touched leaves: each level keeps one default node per band and its touched
 * nodes, so a tree costs what its bands and its touched paths cost (one band: the sparse tree of
 * sparse_tree.h, which is this tree). SnapDeals' new replica over a uniform old replica and uniform data is
 * such a tree: node i = old + data · rho(i >> shift) takes one value per run of 2^shift nodes (2^h runs),
 * so a 32GiB tree R new costs what its 1024 bands and its few touched paths cost. Levels whose nodes lie
 * in one band keep a default per band; above them every node is kept (there are fewer than bands). */
#ifndef CUZK_TESTKIT_BAND_TREE_H
#define CUZK_TESTKIT_BAND_TREE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/merkle.h"

/* A node that is not its band's default: its index within the level and its 32-byte value. */
typedef struct {
    uint64_t index;
    uint8_t hash[32];
} cuzk_fc_sparse_node_t;

typedef struct {
    cuzk_fc_merkle_hash_t hash;
    uint32_t n_base, n_sub, n_top, levels;
    uint64_t leaves, bands, band_leaves;             /* band b: leaves [b·band_leaves, (b + 1)·band_leaves) */
    uint8_t arity[CUZK_FC_MERKLE_MAX_LEVELS];        /* hashed from level i to level i + 1 */
    uint64_t span[CUZK_FC_MERKLE_MAX_LEVELS + 1];    /* leaves under one node of level i */
    uint8_t (*band_dflt[CUZK_FC_MERKLE_MAX_LEVELS + 1])[32]; /* bands defaults; NULL where span > band_leaves */
    cuzk_fc_sparse_node_t *nodes[CUZK_FC_MERKLE_MAX_LEVELS + 1]; /* touched nodes (every node above the bands),
                                                                   sorted by index */
    size_t count[CUZK_FC_MERKLE_MAX_LEVELS + 1];
    uint8_t root[32];
} cuzk_fc_band_tree_t;

/* Builds the tree of shape base-sub-top (sub / top 0 = no such level; tree D is SHA-256 2-0-0) over
 * `leaves` leaves: leaf i is band_leaf[i / (leaves / bands)] except the n given (index[i], value[i]) (an
 * index may repeat with the same value). bands: a power of two dividing leaves (1: a sparse tree).
 * threads: 0 = every online CPU. CUZK_ERR_INVALID_ARG (a shape that does not give `leaves` leaves, an
 * arity the hash does not have, bands, an index >= leaves), CUZK_ERR_MISMATCH (an index given two values),
 * CUZK_ERR_NOT_CANONICAL (a Poseidon leaf >= r), CUZK_ERR_NO_MEMORY. On error *t is empty. */
cuzk_status cuzk_fc_band_tree_build(cuzk_fc_band_tree_t *t, cuzk_fc_merkle_hash_t hash, unsigned base, unsigned sub,
                                    unsigned top, uint64_t leaves, uint64_t bands, const uint8_t (*band_leaf)[32],
                                    const uint64_t *index, const uint8_t (*value)[32], size_t n, int threads,
                                    cuzk_err_t *err);

/* Σ (arity − 1) over the levels: the 32-byte siblings one path holds. */
size_t cuzk_fc_band_tree_sibling_count(const cuzk_fc_band_tree_t *t);

/* The node at (level, index < leaves / span[level]). */
void cuzk_fc_band_tree_node(uint8_t out[32], const cuzk_fc_band_tree_t *t, uint32_t level, uint64_t index);

/* The inclusion path of leaf `index` (merkle.h), its siblings written to `siblings`
 * (cuzk_fc_band_tree_sibling_count(t)·32 bytes, the caller's, which p then borrows).
 * CUZK_ERR_INVALID_ARG when index >= leaves. */
cuzk_status cuzk_fc_band_tree_open(const cuzk_fc_band_tree_t *t, uint64_t index, cuzk_fc_merkle_path_t *p,
                                   uint8_t *siblings, cuzk_err_t *err);

/* Releases the levels and zeroes *t (NULL-safe). */
void cuzk_fc_band_tree_free(cuzk_fc_band_tree_t *t);

#endif
