/* Sparse Merkle trees: band trees (band_tree.c) of one band whose leaf is the default leaf. */
#include "testkit/sparse_tree.h"

cuzk_status cuzk_fc_sparse_tree_build(cuzk_fc_sparse_tree_t *t, cuzk_fc_merkle_hash_t hash, unsigned base,
                                      unsigned sub, unsigned top, uint64_t leaves, const uint8_t default_leaf[32],
                                      const uint64_t *index, const uint8_t (*value)[32], size_t n, int threads,
                                      cuzk_err_t *err)
{
    return cuzk_fc_band_tree_build(t, hash, base, sub, top, leaves, 1, (const uint8_t(*)[32])default_leaf, index,
                                   value, n, threads, err);
}
