/* The SnapDeals circuit's witness (cuzk/snap.h cuzk_snap_witness_t): one allocation holding the apex leaves,
 * the challenges and every challenge's three sibling arrays, so that a witness is made and dropped at once. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/snap.h"

static size_t round16(size_t n) { return (n + 15) / 16 * 16; }

cuzk_status cuzk_snap_witness_init(cuzk_snap_witness_t *w, const cuzk_snap_config_t *cfg, cuzk_err_t *err)
{
    memset(w, 0, sizeof *w);
    cuzk_status st = cuzk_snap_config_check(cfg, err);
    if (st != CUZK_OK)
        return st;
    size_t nc = cfg->challenge_count, r_sib = cuzk_snap_tree_r_siblings(cfg), d_lev = cuzk_snap_tree_d_levels(cfg);
    size_t apex_b = round16(cfg->apex_leaf_count * sizeof(cuzk_fr_t));
    size_t chal_b = round16(nc * sizeof(cuzk_snap_challenge_witness_t));
    size_t per = (2 * r_sib + d_lev) * sizeof(cuzk_fr_t);
    size_t total = apex_b + chal_b + nc * per;
    unsigned char *p = calloc(1, total);
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap witness: out of memory (%zu bytes for %zu challenges)",
                            total, nc);
    w->storage_ = p;
    w->cfg = *cfg;
    w->apex_leaves = (cuzk_fr_t *)p;
    w->challenges = (cuzk_snap_challenge_witness_t *)(p + apex_b);
    cuzk_fr_t *arr = (cuzk_fr_t *)(p + apex_b + chal_b);
    for (size_t i = 0; i < nc; i++) {
        w->challenges[i].siblings_r_old = arr;
        w->challenges[i].siblings_d_new = arr + r_sib;
        w->challenges[i].siblings_r_new = arr + r_sib + d_lev;
        arr += 2 * r_sib + d_lev;
    }
    return CUZK_OK;
}

void cuzk_snap_witness_free(cuzk_snap_witness_t *w)
{
    if (!w)
        return;
    free(w->storage_);
    memset(w, 0, sizeof *w);
}
