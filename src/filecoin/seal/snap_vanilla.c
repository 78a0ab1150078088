/* SnapDeals partition proofs from an update directory and its sector key (snap_vanilla.h): the three trees
 * opened from their files, each partition's challenges, apex leaves and paths, the bincode written, then
 * decoded again and verified as a prover will (so that a returned proof is one a prover accepts). */
#include "filecoin/seal/snap_vanilla.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/seal.h"
#include "cuzk/snap.h"
#include "filecoin/registry/snap_proof.h"
#include "filecoin/seal/sector_files.h"
#include "filecoin/seal/sector_layout.h"
#include "filecoin/seal/snap_encode.h"
#include "filecoin/seal/tree_r_store.h"
#include "filecoin/vanilla/snap_vproof.h"
#include "filecoin/vanilla/snap_vproof_write.h"

/* Tree D new as filecoin-proofs' DiskStore keeps it: every level, leaves first, the root last. */
typedef struct {
    int fd;
    char *path;
    uint64_t nodes;
    uint32_t levels;
} tree_d_t;

static void tree_d_close(tree_d_t *t)
{
    if (t->fd >= 0)
        close(t->fd);
    free(t->path);
    t->fd = -1;
    t->path = NULL;
}

/* Where level l starts, in nodes: n + n/2 + ... + n/2^(l−1). */
static uint64_t level_start(const tree_d_t *t, uint32_t l)
{
    return 2 * t->nodes - 2 * (t->nodes >> l);
}

static cuzk_status tree_d_read(const tree_d_t *t, uint8_t *out, uint64_t node, size_t count, cuzk_err_t *err)
{
    size_t want = count * 32;
    ssize_t got = pread(t->fd, out, want, (off_t)(node * 32));
    if (got != (ssize_t)want)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: reading node %llu: %s", t->path, (unsigned long long)node,
                            got < 0 ? strerror(errno) : "short read");
    return CUZK_OK;
}

static cuzk_status tree_d_open(tree_d_t *t, const char *dir, uint64_t nodes, const uint8_t comm_d_new[32],
                               cuzk_err_t *err)
{
    t->fd = -1;
    t->nodes = nodes;
    t->levels = cuzk_fc_snap_log2(nodes);
    if (!(t->path = cuzk_fc_sector_path(dir, CUZK_FC_SNAP_TREE_D)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap vanilla: out of memory");
    struct stat sb;
    if ((t->fd = open(t->path, O_RDONLY | O_CLOEXEC)) < 0 || fstat(t->fd, &sb) != 0)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: %s", t->path, strerror(errno));
    uint64_t want = (2 * nodes - 1) * 32;
    if (!S_ISREG(sb.st_mode) || (uint64_t)sb.st_size != want)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %llu bytes, tree D of %llu leaves has %llu", t->path,
                            (unsigned long long)sb.st_size, (unsigned long long)nodes, (unsigned long long)want);
    uint8_t root[32];
    cuzk_status st = tree_d_read(t, root, 2 * nodes - 2, 1, err);
    if (st == CUZK_OK && memcmp(root, comm_d_new, 32) != 0)
        st = cuzk_err_set(err, CUZK_ERR_MISMATCH, "%s: its root is not the update's comm_d_new", t->path);
    return st;
}

/* The binary path of node c, its siblings into sib (levels·32 bytes). */
static cuzk_status tree_d_path(const tree_d_t *t, uint64_t c, const uint8_t root[32], cuzk_fc_merkle_path_t *p,
                               uint8_t *sib, cuzk_err_t *err)
{
    memset(p, 0, sizeof *p);
    p->hash = CUZK_FC_MERKLE_SHA256;
    p->n_base = t->levels;
    p->siblings = sib;
    memcpy(p->root, root, 32);
    cuzk_status st = tree_d_read(t, p->leaf, c, 1, err);
    for (uint32_t l = 0; l < t->levels && st == CUZK_OK; l++) {
        p->steps[l].arity = 2;
        p->steps[l].index = (uint8_t)((c >> l) & 1);
        st = tree_d_read(t, sib + (size_t)l * 32, level_start(t, l) + ((c >> l) ^ 1), 1, err);
    }
    return st;
}

typedef struct {
    cuzk_snap_config_t cfg;
    cuzk_seal_snap_info_t info;
    cuzk_fc_tree_r_store_t r_old, r_new;
    tree_d_t d;
} update_t;

/* Partition k's bincode into *out. */
static cuzk_status partition(uint8_t **out, size_t *out_len, const update_t *u, uint32_t k, cuzk_err_t *err)
{
    const cuzk_snap_config_t *cfg = &u->cfg;
    uint32_t nc = cfg->challenge_count, na = cfg->apex_leaf_count;
    uint32_t apex_h = u->d.levels - cuzk_fc_snap_partition_bits(cfg) - cuzk_fc_snap_log2(na);
    size_t sr = u->r_old.siblings, sd = u->d.levels, per = 2 * sr + sd;
    uint64_t *chal = malloc(nc * sizeof *chal);
    uint8_t *apex = malloc((size_t)na * 32), *sib = malloc((size_t)nc * per * 32);
    cuzk_fc_snap_challenge_proof_t *cp = calloc(nc, sizeof *cp);
    cuzk_status st;
    if (!chal || !apex || !sib || !cp) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap vanilla: out of memory (partition %u)", k);
        goto done;
    }
    if ((st = cuzk_snap_challenges(chal, cfg, u->info.comm_r_new, k, err)) != CUZK_OK ||
        (st = tree_d_read(&u->d, apex, level_start(&u->d, apex_h) + (uint64_t)k * na, na, err)) != CUZK_OK)
        goto done;
    for (uint32_t i = 0; i < nc && st == CUZK_OK; i++) {
        uint8_t *s = sib + (size_t)i * per * 32;
        cuzk_err_t e;
        const char *which = "tree R old";
        if ((st = cuzk_fc_tree_r_store_path(&u->r_old, chal[i], &cp[i].r_old, s, &e)) == CUZK_OK) {
            which = "tree D new";
            if ((st = tree_d_path(&u->d, chal[i], u->info.comm_d_new, &cp[i].d_new, s + sr * 32, &e)) == CUZK_OK) {
                which = "tree R new";
                st = cuzk_fc_tree_r_store_path(&u->r_new, chal[i], &cp[i].r_new, s + (sr + sd) * 32, &e);
            }
        }
        if (st != CUZK_OK)
            cuzk_err_set(err, st, "snap vanilla: partition %u, challenge %u (node %llu), %s: %s", k, i,
                         (unsigned long long)chal[i], which, e.msg);
    }
    if (st != CUZK_OK)
        goto done;
    cuzk_fc_snap_vproof_t v = {.n_apex = na, .apex = apex, .n_challenges = nc, .challenges = cp};
    memcpy(v.comm_c, u->info.comm_c, 32);
    st = cuzk_fc_snap_vproof_encode(out, out_len, &v, err);
done:
    free(chal);
    free(apex);
    free(sib);
    free(cp);
    return st;
}

/* The encoded partition decoded again and verified against the update's commitments. */
static cuzk_status check_encoded(const uint8_t *buf, size_t len, const update_t *u, uint32_t k, int threads,
                                 cuzk_err_t *err)
{
    cuzk_fc_snap_vproof_t v;
    cuzk_err_t e;
    cuzk_status st = cuzk_fc_snap_vproof_decode(&v, buf, len, NULL, &e);
    if (st == CUZK_OK)
        st = cuzk_fc_snap_vproof_verify(&v, &u->cfg, k, u->info.comm_r_old, u->info.comm_d_new, u->info.comm_r_new,
                                        threads, &e);
    cuzk_fc_snap_vproof_free(&v);
    if (st != CUZK_OK)
        return cuzk_err_set(err, st, "snap vanilla: the proof made does not verify: %s", e.msg);
    return CUZK_OK;
}

/* update.json, the sector key's description and the three trees, checked against each other. */
static cuzk_status open_update(update_t *u, const char *update_dir, const char *key_dir, cuzk_err_t *err)
{
    cuzk_status st = cuzk_fc_snap_update_read(&u->info, update_dir, err);
    if (st != CUZK_OK)
        return st;
    if (!key_dir)
        key_dir = u->info.sector_key_dir;
    if ((st = cuzk_snap_config_for_proof(&u->cfg, u->info.update_proof_id, err)) != CUZK_OK)
        return st;
    u->cfg.h = u->info.h;
    if ((st = cuzk_snap_config_check(&u->cfg, err)) != CUZK_OK)
        return st;
    cuzk_fc_sector_meta_t m;
    if ((st = cuzk_fc_sector_meta_read(&m, key_dir, err)) != CUZK_OK)
        return st;
    if (m.proof->sector_size != u->info.sector_size)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "sector key %s: a %s sector, the update is of %llu-byte sectors",
                            key_dir, m.proof->size_name, (unsigned long long)u->info.sector_size);
    if (memcmp(m.comm_r, u->info.comm_r_old, 32) != 0 || memcmp(m.comm_c, u->info.comm_c, 32) != 0)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "sector key %s is not the one %s was encoded into (its comm_r is not comm_r_old or its "
                            "comm_c not the update's)",
                            key_dir, update_dir);
    cuzk_fc_tree_r_layout_t l;
    if ((st = cuzk_fc_tree_r_layout(&l, u->cfg.nodes, u->cfg.base_arity, u->cfg.sub_arity, u->cfg.top_arity,
                                    err)) != CUZK_OK)
        return st;
    if ((st = cuzk_fc_tree_r_store_open(&u->r_old, &l, key_dir, NULL, err)) != CUZK_OK)
        return st;
    if (memcmp(u->r_old.root, m.comm_r_last, 32) != 0)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "sector key %s: the root of its tree-r-last files is not "
                                                    "p_aux's comm_r_last", key_dir);
    char *replica = cuzk_fc_sector_path(update_dir, CUZK_FC_SNAP_UPDATE);
    if (!replica)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap vanilla: out of memory");
    st = cuzk_fc_tree_r_store_open(&u->r_new, &l, update_dir, replica, err);
    free(replica);
    if (st != CUZK_OK)
        return st;
    if (memcmp(u->r_new.root, u->info.root_r_new, 32) != 0)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "update %s: the root of its tree-r-last files is not p_aux's",
                            update_dir);
    return tree_d_open(&u->d, update_dir, u->cfg.nodes, u->info.comm_d_new, err);
}

cuzk_status cuzk_fc_snap_vanilla_from_dir(uint8_t **out, size_t *out_len, const char *update_dir, const char *key_dir,
                                          int threads, cuzk_err_t *err)
{
    *out = NULL;
    *out_len = 0;
    update_t *u = calloc(1, sizeof *u);
    if (!u)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap vanilla: out of memory");
    u->d.fd = -1;
    uint8_t *parts[CUZK_SNAP_MAX_PARTITIONS] = {0};
    size_t lens[CUZK_SNAP_MAX_PARTITIONS] = {0};
    cuzk_status st = open_update(u, update_dir, key_dir, err);
    uint32_t n = u->cfg.partition_count;
    for (uint32_t k = 0; k < n && st == CUZK_OK; k++)
        if ((st = partition(&parts[k], &lens[k], u, k, err)) == CUZK_OK)
            st = check_encoded(parts[k], lens[k], u, k, threads, err);
    if (st == CUZK_OK)
        st = cuzk_fc_snap_vproof_list_join(out, out_len, (const uint8_t *const *)parts, lens, n, err);
    for (uint32_t k = 0; k < CUZK_SNAP_MAX_PARTITIONS; k++)
        free(parts[k]);
    cuzk_fc_tree_r_store_close(&u->r_old);
    cuzk_fc_tree_r_store_close(&u->r_new);
    tree_d_close(&u->d);
    free(u);
    return st;
}

cuzk_status cuzk_seal_snap_vanilla(uint8_t **out, size_t *out_len, const char *update_dir, const char *sector_key_dir,
                                   int threads, cuzk_err_t *err)
{
    *out = NULL;
    *out_len = 0;
    if (threads < 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap vanilla: %d threads", threads);
    return cuzk_fc_snap_vanilla_from_dir(out, out_len, update_dir, sector_key_dir, threads, err);
}
