/* A Merkle tree of Filecoin's shapes (tree D: binary SHA-256; trees R / C: Poseidon base-sub-top) over any
 * number of leaves of which only a few differ from one default value: each level is its default node except
 * above the touched leaves, so a 2^31-leaf tree costs what its few thousand touched paths cost. Used to make
 * synthetic C1 outputs, PoSt and SnapDeals vanilla proofs of sectors too large to seal here. It is the band
 * tree (band_tree.h) of one band: the same builder, the same paths. */
#ifndef CUZK_FILECOIN_SPARSE_TREE_H
#define CUZK_FILECOIN_SPARSE_TREE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/merkle.h"
#include "testkit/band_tree.h"

/* levels = n_base + n_sub + n_top; level 0 holds the leaves, level `levels` the root. arity[i] is the
 * arity hashed from level i to level i + 1. nodes[i] (count[i] of them, sorted by index, distinct) are
 * level i's non-default nodes; band_dflt[i][0] is the node of a subtree whose leaves are all the default. */
typedef cuzk_fc_band_tree_t cuzk_fc_sparse_tree_t;

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
static inline size_t cuzk_fc_sparse_tree_sibling_count(const cuzk_fc_sparse_tree_t *t)
{
    return cuzk_fc_band_tree_sibling_count(t);
}

/* The node at (level, index): the touched one or the level's default. */
static inline void cuzk_fc_sparse_tree_node(uint8_t out[32], const cuzk_fc_sparse_tree_t *t, uint32_t level,
                                            uint64_t index)
{
    cuzk_fc_band_tree_node(out, t, level, index);
}

/* The inclusion path of leaf `index` (merkle.h): steps, leaf, root and siblings, written to `siblings`
 * (cuzk_fc_sparse_tree_sibling_count(t)·32 bytes, the caller's, which p then borrows).
 * CUZK_ERR_INVALID_ARG when index >= leaves. */
static inline cuzk_status cuzk_fc_sparse_tree_open(const cuzk_fc_sparse_tree_t *t, uint64_t index,
                                                   cuzk_fc_merkle_path_t *p, uint8_t *siblings, cuzk_err_t *err)
{
    return cuzk_fc_band_tree_open(t, index, p, siblings, err);
}

/* Releases the levels and zeroes *t (NULL-safe). */
static inline void cuzk_fc_sparse_tree_free(cuzk_fc_sparse_tree_t *t)
{
    cuzk_fc_band_tree_free(t);
}

#endif
