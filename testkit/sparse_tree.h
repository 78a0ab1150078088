/* A Merkle tree of Filecoin's shapes (tree D: binary SHA-256; trees R / C: Poseidon base-sub-top) over any
 * number of leaves of which only a few differ from one default value: each level is its default node except
 * above the touched leaves, so a 2^31-leaf tree costs what its few thousand touched paths cost. Used to make
 * synthetic C1 outputs of sectors too large to seal here (c1_synthetic.h). */
#ifndef CUZK_FILECOIN_SPARSE_TREE_H
#define CUZK_FILECOIN_SPARSE_TREE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/merkle.h"

/* A node that is not its level's default: its index within the level and its 32-byte value. */
typedef struct {
    uint64_t index;
    uint8_t hash[32];
} cuzk_fc_sparse_node_t;

/* levels = n_base + n_sub + n_top; level 0 holds the leaves, level `levels` the root. arity[i] is the
 * arity hashed from level i to level i + 1. nodes[i] (count[i] of them, sorted by index, distinct) are
 * level i's non-default nodes; dflt[i] is the node of a subtree whose leaves are all the default. */
typedef struct {
    cuzk_fc_merkle_hash_t hash;
    uint32_t n_base, n_sub, n_top, levels;
    uint64_t leaves;
    uint8_t arity[CUZK_FC_MERKLE_MAX_LEVELS];
    uint8_t dflt[CUZK_FC_MERKLE_MAX_LEVELS + 1][32];
    cuzk_fc_sparse_node_t *nodes[CUZK_FC_MERKLE_MAX_LEVELS + 1];
    size_t count[CUZK_FC_MERKLE_MAX_LEVELS + 1];
    uint8_t root[32];
} cuzk_fc_sparse_tree_t;

/* Builds the tree of shape base-sub-top (sub / top 0 = no such level, as merkle.h's
 * cuzk_fc_merkle_path_check_shape; tree D is SHA-256 2-0-0) over `leaves` leaves, all default_leaf except
 * the n given (index[i], value[i]). An index may repeat with the same value. threads: 0 = every online
 * CPU. CUZK_ERR_INVALID_ARG for a shape that does not give `leaves` leaves, an arity the hash does not
 * have or an index >= leaves; CUZK_ERR_MISMATCH for an index given two values; CUZK_ERR_NOT_CANONICAL for
 * a Poseidon leaf >= r; CUZK_ERR_NO_MEMORY. On error *t is empty (cuzk_fc_sparse_tree_free is safe). */
cuzk_status cuzk_fc_sparse_tree_build(cuzk_fc_sparse_tree_t *t, cuzk_fc_merkle_hash_t hash, unsigned base,
                                      unsigned sub, unsigned top, uint64_t leaves, const uint8_t default_leaf[32],
                                      const uint64_t *index, const uint8_t (*value)[32], size_t n, int threads,
                                      cuzk_err_t *err);

/* Σ (arity − 1) over the levels: the 32-byte siblings one path holds. */
size_t cuzk_fc_sparse_tree_sibling_count(const cuzk_fc_sparse_tree_t *t);

/* The node at (level, index): the touched one or the level's default. */
void cuzk_fc_sparse_tree_node(uint8_t out[32], const cuzk_fc_sparse_tree_t *t, uint32_t level, uint64_t index);

/* The inclusion path of leaf `index` (merkle.h): steps, leaf, root and siblings, written to `siblings`
 * (cuzk_fc_sparse_tree_sibling_count(t)·32 bytes, the caller's, which p then borrows).
 * CUZK_ERR_INVALID_ARG when index >= leaves. */
cuzk_status cuzk_fc_sparse_tree_open(const cuzk_fc_sparse_tree_t *t, uint64_t index, cuzk_fc_merkle_path_t *p,
                                     uint8_t *siblings, cuzk_err_t *err);

/* Releases the levels and zeroes *t (NULL-safe). */
void cuzk_fc_sparse_tree_free(cuzk_fc_sparse_tree_t *t);

#endif
