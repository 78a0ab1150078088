/* Tree R's on-disk shape (sector_layout.h): the base trees, the rows filecoin-proofs discards and where
 * each kept level lies in a tree-r-last file. */
#include "filecoin/seal/sector_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/seal/seal.h"

char *cuzk_fc_sector_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static int arity_ok(unsigned a)
{
    return a == 2 || a == 4 || a == 8 || a == 16;
}

/* storage-proofs-core util.rs default_rows_to_discard with the default setting (2) for arities above 4;
 * row_count counts the leaves' row too (merkletree get_merkle_tree_row_count). */
static uint32_t default_rows_to_discard(uint32_t row_count, unsigned arity)
{
    if (row_count <= 2)
        return 0;
    if (row_count == 3)
        return 1;
    uint32_t max = row_count - 2, cap = arity == 2 ? 7 : arity == 4 ? 5 : 2;
    return max < cap ? max : cap;
}

cuzk_status cuzk_fc_tree_r_layout(cuzk_fc_tree_r_layout_t *out, uint64_t nodes, unsigned base, unsigned sub,
                                  unsigned top, cuzk_err_t *err)
{
    *out = (cuzk_fc_tree_r_layout_t){0};
    if (!arity_ok(base) || (sub && !arity_ok(sub)) || (top && !arity_ok(top)) || (top && !sub))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "tree R: shape %u-%u-%u", base, sub, top);
    uint32_t trees = (sub ? sub : 1) * (top ? top : 1);
    if (nodes == 0 || nodes % trees)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "tree R: %llu leaves do not fill a %u-%u-%u tree",
                            (unsigned long long)nodes, base, sub, top);
    uint64_t leaves = nodes / trees, w = leaves;
    uint32_t h = 0;
    while (w > 1 && w % base == 0) {
        w /= base;
        h++;
    }
    if (w != 1 || h == 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "tree R: %llu leaves do not fill a %u-%u-%u tree",
                            (unsigned long long)nodes, base, sub, top);
    out->nodes = nodes;
    out->base = base;
    out->sub = sub;
    out->top = top;
    out->base_trees = trees;
    out->base_leaves = leaves;
    out->base_height = h;
    out->rows_to_discard = default_rows_to_discard(h + 1, base);
    /* merkletree get_merkle_tree_cache_size: the whole tree less the leaves and the discarded rows. */
    out->cached_nodes = cuzk_fc_seal_tree_size(leaves, base) -
                        cuzk_fc_seal_tree_level_offset(leaves, base, out->rows_to_discard + 1);
    return CUZK_OK;
}

void cuzk_fc_tree_r_file_name(char *out, size_t cap, const cuzk_fc_tree_r_layout_t *l, uint32_t i)
{
    if (l->base_trees == 1)
        snprintf(out, cap, "%s", CUZK_FC_SECTOR_TREE_R_LAST);
    else
        snprintf(out, cap, "sc-02-data-tree-r-last-%u.dat", i);
}

uint64_t cuzk_fc_tree_r_cached_offset(const cuzk_fc_tree_r_layout_t *l, uint32_t lv)
{
    return cuzk_fc_seal_tree_level_offset(l->base_leaves, l->base, lv) -
           cuzk_fc_seal_tree_level_offset(l->base_leaves, l->base, l->rows_to_discard + 1);
}
