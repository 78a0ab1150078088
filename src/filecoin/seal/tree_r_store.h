/* Tree R read from a sector's files (sector_layout.h): the replica and the tree-r-last file of every base
 * tree. Inclusion paths are opened as filecoin-proofs opens them from its LevelCacheStore: the rows the
 * files keep are read, the discarded ones recomputed from the replica's nodes under the challenged
 * subtree, and checked against the first kept row, so that a replica and tree files that disagree are
 * reported rather than turned into a path that does not verify. */
#ifndef CUZK_FILECOIN_TREE_R_STORE_H
#define CUZK_FILECOIN_TREE_R_STORE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/seal/sector_layout.h"
#include "filecoin/vanilla/merkle.h"

typedef struct {
    cuzk_fc_tree_r_layout_t layout;
    int replica_fd;
    int *tree_fd;           /* layout.base_trees of them */
    char *replica_path;
    char **tree_path;       /* for messages */
    uint8_t (*roots)[32];   /* each base tree's root (its file's last node) */
    uint8_t (*sub_roots)[32]; /* the sub level's nodes (top arity of them) when there is a top level */
    uint8_t root[32];       /* comm_r_last */
    size_t siblings;        /* 32-byte siblings of one path */
} cuzk_fc_tree_r_store_t;

/* Opens the tree of layout l: the replica at replica_path (NULL: dir/sealed) and dir's tree-r-last
 * files, each of exactly the size the layout gives, and computes the root from the base trees' roots.
 * CUZK_ERR_IO (a missing or unreadable file: its path), CUZK_ERR_FORMAT (a file of the wrong size: its
 * path, size and the size expected), CUZK_ERR_NOT_CANONICAL (a base root that is not an Fr),
 * CUZK_ERR_NO_MEMORY. On error everything is closed and *t is zeroed (close is safe). */
cuzk_status cuzk_fc_tree_r_store_open(cuzk_fc_tree_r_store_t *t, const cuzk_fc_tree_r_layout_t *l, const char *dir,
                                      const char *replica_path, cuzk_err_t *err);

/* The inclusion path of leaf `leaf` (< layout.nodes) into p, with its siblings written to siblings
 * (t->siblings·32 bytes, the caller's, which p borrows); p->root is t->root. CUZK_ERR_INVALID_ARG (leaf
 * out of range), CUZK_ERR_IO (a read that failed or came short), CUZK_ERR_NOT_CANONICAL (a replica node
 * that is not an Fr, naming it), CUZK_ERR_MISMATCH (the replica's nodes do not hash to the tree file's
 * kept node: naming both files and the node). */
cuzk_status cuzk_fc_tree_r_store_path(const cuzk_fc_tree_r_store_t *t, uint64_t leaf, cuzk_fc_merkle_path_t *p,
                                      uint8_t *siblings, cuzk_err_t *err);

/* Closes the files, frees and zeroes *t (NULL-safe, twice-safe). */
void cuzk_fc_tree_r_store_close(cuzk_fc_tree_r_store_t *t);

#endif
