/* The sector directory that `cuzk seal` keeps for a later PoSt, laid out as filecoin-ffi lays out a sector's
 * cache (storage-proofs-core cache_key.rs names, merkletree's StoreConfig::data_path file names and
 * LevelCacheStore contents), with the replica beside it: the names of its files and the shape of tree R's
 * files, which keep only the rows above the ones filecoin-proofs discards (docs/FORMATS.md). */
#ifndef CUZK_FILECOIN_SECTOR_LAYOUT_H
#define CUZK_FILECOIN_SECTOR_LAYOUT_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"

#define CUZK_FC_SECTOR_SEALED "sealed"      /* the replica: sector_size bytes (filecoin-ffi keeps it elsewhere) */
#define CUZK_FC_SECTOR_P_AUX "p_aux"        /* CacheKey::PAux: bincode PersistentAux (comm_c, comm_r_last) */
#define CUZK_FC_SECTOR_T_AUX "t_aux"        /* CacheKey::TAux: bincode TemporaryAux (store configs) */
#define CUZK_FC_SECTOR_JSON "sector.json"   /* ours: the sector's public description */
/* tree R's kept rows when there is one base tree (cuzk_fc_tree_r_file_name) */
#define CUZK_FC_SECTOR_TREE_R_LAST "sc-02-data-tree-r-last.dat"
#define CUZK_FC_SECTOR_P_AUX_LEN 64

/* "dir/name", malloc'd; NULL when out of memory. */
char *cuzk_fc_sector_path(const char *dir, const char *name);

/* Tree R as filecoin-proofs stores it: base_trees base trees of base_leaves leaves each (one per
 * sc-02-data-tree-r-last[-i].dat file), joined by a sub level (sub arity) and a top level (top arity).
 * Each file holds its base tree's rows above the first rows_to_discard ones (LevelCacheStore): levels
 * rows_to_discard + 1 .. base_height, each level's nodes in order, the root last; the leaves are the
 * replica's nodes base_leaves·i .. base_leaves·(i + 1) − 1 and the discarded rows are recomputed from
 * them. */
typedef struct {
    uint64_t nodes;            /* leaves of the whole tree: sector_size / 32 */
    unsigned base, sub, top;   /* arities; sub / top 0 = no such level */
    uint32_t base_trees;       /* max(sub, 1) · max(top, 1) */
    uint64_t base_leaves;      /* nodes / base_trees, a power of base */
    uint32_t base_height;      /* levels above the leaves in a base tree */
    uint32_t rows_to_discard;  /* storage-proofs-core util.rs default_rows_to_discard(base_leaves, base) */
    uint64_t cached_nodes;     /* nodes in one tree-r-last file */
} cuzk_fc_tree_r_layout_t;

/* The layout of a tree of `nodes` leaves and shape base-sub-top (base 2, 4, 8 or 16; sub, top 0 or one of
 * those). CUZK_ERR_INVALID_ARG when the nodes do not fill such a tree or the base tree is a single leaf. */
cuzk_status cuzk_fc_tree_r_layout(cuzk_fc_tree_r_layout_t *out, uint64_t nodes, unsigned base, unsigned sub,
                                  unsigned top, cuzk_err_t *err);

/* "sc-02-data-tree-r-last.dat" for a single base tree, "sc-02-data-tree-r-last-<i>.dat" for base tree i
 * of several (storage-proofs-core split_config_and_replica). out has room for cap bytes (64 suffice). */
void cuzk_fc_tree_r_file_name(char *out, size_t cap, const cuzk_fc_tree_r_layout_t *l, uint32_t i);

/* Where level lv of a base tree starts in a tree-r-last file (in nodes; only for
 * rows_to_discard < lv <= base_height). */
uint64_t cuzk_fc_tree_r_cached_offset(const cuzk_fc_tree_r_layout_t *l, uint32_t lv);

#endif
