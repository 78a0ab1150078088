/* SnapDeals encoding and decoding of a committed-capacity sector kept on disk (storage-proofs-update
 * vanilla.rs encode_into / decode_from): new replica node i = old node i + data node i · rho(i >> shift),
 * with the 2^h values of rho computed once; tree D over the padded data and tree R over the new replica
 * with precommit's own builders; comm_r_new = Poseidon2(comm_c, root of the new tree R). Decoding divides
 * by rho again and checks the data against comm_d_new. */
#include "filecoin/seal/snap_encode.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuzk/file.h"
#include "cuzk/snap.h"
#include "filecoin/hash/fr32.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "filecoin/registry/snap_proof.h"
#include "filecoin/seal/seal.h"
#include "filecoin/seal/sector_layout.h"
#include "filecoin/vanilla/snap_challenges.h"
#include "util/bigmem.h"
#include "util/parallel.h"
#include "util/timer.h"
#include "util/timing.h"

#define NODE_GRAIN 4096

/* ---- files ---- */

/* The whole of a file that must hold exactly want bytes, into a new big buffer. CUZK_ERR_IO naming the
 * path, CUZK_ERR_FORMAT (its size and the size expected), CUZK_ERR_NO_MEMORY. */
static cuzk_status read_exact(uint8_t **out, const char *path, uint64_t want, cuzk_err_t *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat sb;
    cuzk_status st = CUZK_OK;
    if (fstat(fileno(f), &sb) != 0)
        st = cuzk_err_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    else if (!S_ISREG(sb.st_mode) || (uint64_t)sb.st_size != want)
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %llu bytes, %llu expected", path,
                          (unsigned long long)sb.st_size, (unsigned long long)want);
    uint8_t *buf = st == CUZK_OK ? cuzk_big_malloc(want) : NULL;
    if (st == CUZK_OK && !buf)
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory for %llu bytes", path, (unsigned long long)want);
    if (st == CUZK_OK && fread(buf, 1, want, f) != want)
        st = cuzk_err_set(err, CUZK_ERR_IO, "%s: read error or short read", path);
    fclose(f);
    if (st != CUZK_OK) {
        free(buf);
        return st;
    }
    *out = buf;
    return CUZK_OK;
}

/* ---- the node-by-node work ---- */

typedef struct {
    const uint8_t *a;     /* encode: the old replica; decode: the new replica */
    const uint8_t *b;     /* encode: the padded data; decode: the old replica */
    uint8_t *out;
    const fr *rho;        /* rho (encode) or its inverse (decode) per high value */
    uint32_t shift;       /* node >> shift = its high value */
    /* the lowest node that failed, as node·4 + kind (UINT64_MAX: none); kind 1: a not canonical, 2: b not
     * canonical, 3: a decoded value that is not an Fr32 node */
    _Atomic uint64_t bad;
} node_job;

static void note_bad(node_job *j, uint64_t i, int kind)
{
    uint64_t v = i << 2 | (uint64_t)kind, cur = atomic_load(&j->bad);
    while (v < cur && !atomic_compare_exchange_weak(&j->bad, &cur, v))
        ;
}

static void encode_range(void *ctx, size_t b, size_t e)
{
    node_job *j = ctx;
    for (size_t i = b; i < e; i++) {
        fr old, d;
        if (!fr_from_bytes_le(&old, j->a + i * 32)) {
            note_bad(j, i, 1);
            return;
        }
        if (!fr_from_bytes_le(&d, j->b + i * 32)) { /* padded data is < 2^254: never */
            note_bad(j, i, 2);
            return;
        }
        fr_mul(&d, &d, &j->rho[i >> j->shift]);
        fr_add(&d, &d, &old);
        fr_to_bytes_le(j->out + i * 32, &d);
    }
}

static void decode_range(void *ctx, size_t b, size_t e)
{
    node_job *j = ctx;
    for (size_t i = b; i < e; i++) {
        fr new, old;
        if (!fr_from_bytes_le(&new, j->a + i * 32)) {
            note_bad(j, i, 1);
            return;
        }
        if (!fr_from_bytes_le(&old, j->b + i * 32)) {
            note_bad(j, i, 2);
            return;
        }
        fr_sub(&new, &new, &old);
        fr_mul(&new, &new, &j->rho[i >> j->shift]);
        fr_to_bytes_le(j->out + i * 32, &new);
        if (j->out[i * 32 + 31] & 0xc0) { /* not data: padded nodes keep their top 2 bits clear */
            note_bad(j, i, 3);
            return;
        }
    }
}

/* Runs fn over the sector's nodes; the lowest failing node, if any, in *bad with its kind. */
static int run_nodes(node_job *j, uint64_t nodes, int threads, void (*fn)(void *, size_t, size_t), uint64_t *bad)
{
    atomic_init(&j->bad, UINT64_MAX);
    cuzk_parallel_for(threads, nodes, NODE_GRAIN, fn, j);
    uint64_t v = atomic_load(&j->bad);
    *bad = v >> 2;
    return v == UINT64_MAX ? 0 : (int)(v & 3);
}

/* phi for (comm_d_new, comm_r_old) and the 2^h values of rho (or their inverses) over cfg's nodes. */
static cuzk_status rho_table(fr **out, const cuzk_snap_config_t *cfg, const uint8_t comm_d_new[32],
                                const uint8_t comm_r_old[32], bool invert, cuzk_err_t *err)
{
    *out = NULL;
    uint8_t phi_b[32];
    fr phi;
    cuzk_status st = cuzk_snap_phi(phi_b, comm_d_new, comm_r_old, err);
    if (st != CUZK_OK)
        return st;
    fr_from_bytes_le(&phi, phi_b);
    size_t n = (size_t)(cfg->nodes >> cuzk_fc_snap_high_shift(cfg));
    fr *t = malloc(n * sizeof *t);
    if (!t)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap: out of memory for %zu rho values", n);
    if ((st = cuzk_fc_snap_rhos(t, &phi, 0, n, invert, err)) != CUZK_OK) {
        free(t);
        return st;
    }
    *out = t;
    return CUZK_OK;
}

/* ---- encoding ---- */

/* The sector key: its description, the CC check, the update proof and shape, its replica and tree R's
 * kept rows read whole (checked against each other once the replica's nodes are known to be Fr). */
typedef struct {
    cuzk_fc_sector_meta_t meta;
    cuzk_snap_registered_proof_t proof;
    cuzk_snap_config_t cfg;
    cuzk_fc_tree_r_layout_t layout;
    uint8_t *replica, *tree_r_kept;
} sector_key;

static cuzk_status read_file_of(uint8_t **out, const char *dir, const char *name, uint64_t want, cuzk_err_t *err)
{
    char *path = cuzk_fc_sector_path(dir, name);
    cuzk_status st = path ? read_exact(out, path, want, err)
                          : cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "sector %s: out of memory", dir);
    free(path);
    return st;
}

static cuzk_status open_sector_key(sector_key *k, const char *dir, cuzk_err_t *err)
{
    memset(k, 0, sizeof *k);
    cuzk_status st = cuzk_fc_sector_meta_read(&k->meta, dir, err);
    if (st != CUZK_OK)
        return st;
    const cuzk_fc_seal_proof_t *sp = k->meta.proof;
    uint8_t zero[32];
    if ((st = cuzk_fc_zero_comm_d(zero, sp->sector_size, err)) != CUZK_OK)
        return st;
    if (memcmp(zero, k->meta.comm_d, 32) != 0) {
        char hex[65];
        cuzk_fc_hex32(hex, k->meta.comm_d);
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "sector %s: not a committed-capacity sector (comm_d %s is not the zero comm_d of a %s "
                            "sector: it holds data)",
                            dir, hex, sp->size_name);
    }
    if ((st = cuzk_snap_registered_proof_for_seal(&k->proof, sp->id, err)) != CUZK_OK ||
        (st = cuzk_snap_config_for_proof(&k->cfg, k->proof.id, err)) != CUZK_OK ||
        (st = cuzk_fc_tree_r_layout(&k->layout, k->cfg.nodes, k->cfg.base_arity, k->cfg.sub_arity, k->cfg.top_arity,
                                    err)) != CUZK_OK)
        return st;
    if (k->layout.base_trees != 1)
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "sector %s: %s sectors have %u base trees, sealed ones one", dir,
                            sp->size_name, k->layout.base_trees);
    if ((st = read_file_of(&k->replica, dir, CUZK_FC_SECTOR_SEALED, sp->sector_size, err)) == CUZK_OK)
        st = read_file_of(&k->tree_r_kept, dir, CUZK_FC_SECTOR_TREE_R_LAST, k->layout.cached_nodes * 32, err);
    return st;
}

/* Tree R over the sector key's replica (whose nodes are Fr) against its file's kept rows and p_aux's
 * comm_r_last; upper is scratch for the tree's levels above the leaves. */
static cuzk_status check_tree_r(const sector_key *k, uint8_t *upper, const char *dir, int threads, cuzk_err_t *err)
{
    const uint64_t n = k->cfg.nodes, above = cuzk_fc_seal_tree_size(n, 8) - n, kept = k->layout.cached_nodes;
    cuzk_fc_seal_tree_r(upper, k->replica, n, threads);
    if (memcmp(upper + (above - kept) * 32, k->tree_r_kept, kept * 32) != 0)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "sector %s: %s and %s disagree (the replica does not hash to the "
                            "kept rows of tree R)", dir, CUZK_FC_SECTOR_SEALED, CUZK_FC_SECTOR_TREE_R_LAST);
    if (memcmp(upper + (above - 1) * 32, k->meta.comm_r_last, 32) != 0)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "sector %s: tree R's root is not p_aux's comm_r_last", dir);
    return CUZK_OK;
}

/* data (len bytes, the rest zero) Fr32-padded into out (nodes·32 bytes). */
static void pad_data(uint8_t *out, const uint8_t *data, size_t len, uint64_t nodes, int threads)
{
    size_t blocks = len / CUZK_FR32_RAW_BLOCK, rest = len % CUZK_FR32_RAW_BLOCK;
    cuzk_fc_seal_pad(out, data, (uint64_t)blocks * (CUZK_FR32_PADDED_BLOCK / 32), threads);
    uint8_t *p = out + blocks * CUZK_FR32_PADDED_BLOCK;
    if (rest) {
        uint8_t tail[CUZK_FR32_RAW_BLOCK] = {0};
        memcpy(tail, data + blocks * CUZK_FR32_RAW_BLOCK, rest);
        cuzk_fr32_pad_blocks(p, tail, 1);
        p += CUZK_FR32_PADDED_BLOCK;
    }
    memset(p, 0, nodes * 32 - (size_t)(p - out)); /* zero bytes pad to zero nodes */
}

cuzk_status cuzk_fc_snap_encode_files(cuzk_fc_sector_file_t out[CUZK_FC_SNAP_FILES], cuzk_seal_snap_info_t *info,
                                      const char *sector_dir, const char *key_dir, const uint8_t *data, size_t len,
                                      int threads, cuzk_err_t *err)
{
    memset(out, 0, CUZK_FC_SNAP_FILES * sizeof *out);
    memset(info, 0, sizeof *info);
    if (threads <= 0)
        threads = cuzk_cpu_count();
    if (strlen(key_dir) >= sizeof info->sector_key_dir)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sector %.64s...: path too long", key_dir);
    uint64_t t0 = cuzk_now_ns();
    sector_key k;
    cuzk_status st = open_sector_key(&k, sector_dir, err);
    const uint64_t n = k.cfg.nodes, size = n * 32;
    if (st == CUZK_OK && len > size / 128 * 127)
        st = cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap encode: %zu bytes of data, a %s sector holds at most %llu",
                          len, k.proof.size_name, (unsigned long long)(size / 128 * 127));
    cuzk_timing_report("snap_sector_key", t0);
    fr *rho = NULL;
    uint8_t *upper_r = NULL;
    static const char *const names[CUZK_FC_SNAP_FILES] = {CUZK_FC_SNAP_UPDATE, CUZK_FC_SECTOR_TREE_R_LAST,
                                                          CUZK_FC_SNAP_TREE_D, CUZK_FC_SECTOR_P_AUX, CUZK_FC_SNAP_JSON};
    if (st == CUZK_OK) {
        for (int i = 0; i < CUZK_FC_SNAP_FILES; i++)
            out[i].name = names[i];
        out[0].len = size;
        out[1].len = k.layout.cached_nodes * 32;
        out[2].len = (2 * n - 1) * 32;
        out[3].len = CUZK_FC_SECTOR_P_AUX_LEN;
        size_t upper_len = (cuzk_fc_seal_tree_size(n, 8) - n) * 32;
        for (int i = 0; i < 4; i++)
            out[i].data = cuzk_big_malloc(out[i].len);
        upper_r = cuzk_big_malloc(upper_len);
        if (!out[0].data || !out[1].data || !out[2].data || !out[3].data || !upper_r)
            st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap encode: out of memory for a %s sector",
                              k.proof.size_name);
    }
    uint8_t comm_d_new[32], root[32];
    if (st == CUZK_OK) {
        /* tree D's file: the padded data (its leaves), then its levels above them */
        t0 = cuzk_now_ns();
        uint8_t *tree_d = out[2].data;
        pad_data(tree_d, data, len, n, threads);
        cuzk_fc_seal_tree_d(tree_d + size, tree_d, n, threads);
        memcpy(comm_d_new, tree_d + (2 * n - 2) * 32, 32);
        cuzk_timing_report("snap_tree_d", t0);
        t0 = cuzk_now_ns();
        st = rho_table(&rho, &k.cfg, comm_d_new, k.meta.comm_r, false, err);
    }
    if (st == CUZK_OK) {
        node_job j = {.a = k.replica, .b = out[2].data, .out = out[0].data, .rho = rho,
                      .shift = cuzk_fc_snap_high_shift(&k.cfg)};
        uint64_t bad;
        if (run_nodes(&j, n, threads, encode_range, &bad))
            st = cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "%s/%s: node %llu is not a canonical Fr", sector_dir,
                              CUZK_FC_SECTOR_SEALED, (unsigned long long)bad);
        cuzk_timing_report("snap_encode", t0);
    }
    if (st == CUZK_OK) {
        t0 = cuzk_now_ns();
        st = check_tree_r(&k, upper_r, sector_dir, threads, err);
        cuzk_timing_report("snap_tree_r_old", t0);
    }
    if (st == CUZK_OK) {
        t0 = cuzk_now_ns();
        cuzk_fc_seal_tree_r(upper_r, out[0].data, n, threads);
        size_t upper_nodes = cuzk_fc_seal_tree_size(n, 8) - n;
        memcpy(root, upper_r + (upper_nodes - 1) * 32, 32);
        /* tree-r-last keeps the tail of the levels above the leaves, the root last */
        memcpy(out[1].data, upper_r + (upper_nodes - k.layout.cached_nodes) * 32, out[1].len);
        memcpy(out[3].data, k.meta.comm_c, 32); /* p_aux: comm_c ‖ the new tree R's root */
        memcpy(out[3].data + 32, root, 32);
        st = cuzk_poseidon_node(info->comm_r_new, 2, out[3].data, err);
        cuzk_timing_report("snap_tree_r", t0);
    }
    if (st == CUZK_OK) {
        info->update_proof_id = k.proof.id;
        info->sector_size = size;
        info->h = k.cfg.h;
        memcpy(info->sector_key_dir, key_dir, strlen(key_dir) + 1);
        memcpy(info->comm_r_old, k.meta.comm_r, 32);
        memcpy(info->comm_d_new, comm_d_new, 32);
        memcpy(info->comm_c, k.meta.comm_c, 32);
        memcpy(info->root_r_new, root, 32);
        if (!(out[4].data = (uint8_t *)cuzk_fc_snap_update_json(info, &out[4].len)))
            st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap encode: update.json");
    }
    free(rho);
    free(upper_r);
    free(k.replica);
    free(k.tree_r_kept);
    if (st != CUZK_OK) {
        cuzk_fc_sector_files_free(out);
        memset(info, 0, sizeof *info);
    }
    return st;
}

/* True when dir holds a sealed sector's description (its p_aux and tree R file are not to be replaced). */
static bool is_sector_dir(const char *dir)
{
    char *p = cuzk_fc_sector_path(dir, CUZK_FC_SECTOR_JSON);
    struct stat sb;
    bool yes = p && stat(p, &sb) == 0;
    free(p);
    return yes;
}

cuzk_status cuzk_seal_snap_encode(const char *sector_dir, const uint8_t *data, size_t data_len, const char *out_dir,
                                  int threads, cuzk_seal_snap_info_t *info, cuzk_err_t *err)
{
    cuzk_seal_snap_info_t local;
    if (!info)
        info = &local;
    memset(info, 0, sizeof *info);
    if (threads < 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap encode: %d threads", threads);
    if (!data && data_len)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap encode: no data buffer for %zu bytes", data_len);
    if (is_sector_dir(out_dir))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "snap encode: %s is a sealed sector's directory; the update goes into a directory of "
                            "its own",
                            out_dir);
    char *key_dir = cuzk_fc_sector_abs_dir(sector_dir);
    if (!key_dir)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap encode: out of memory");
    cuzk_fc_sector_file_t f[CUZK_FC_SNAP_FILES];
    cuzk_status st = cuzk_fc_snap_encode_files(f, info, sector_dir, key_dir, data, data_len, threads, err);
    free(key_dir);
    if (st == CUZK_OK)
        st = cuzk_fc_sector_make_dirs(out_dir, err);
    char *paths[CUZK_FC_SNAP_FILES] = {0};
    const void *bufs[CUZK_FC_SNAP_FILES];
    size_t lens[CUZK_FC_SNAP_FILES];
    for (int i = 0; i < CUZK_FC_SNAP_FILES && st == CUZK_OK; i++) {
        if (!(paths[i] = cuzk_fc_sector_path(out_dir, f[i].name)))
            st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", out_dir);
        bufs[i] = f[i].data;
        lens[i] = f[i].len;
    }
    if (st == CUZK_OK) {
        uint64_t t0 = cuzk_now_ns();
        st = cuzk_atomic_write_files(CUZK_FC_SNAP_FILES, (const char *const *)paths, bufs, lens, err);
        cuzk_timing_report("snap_write", t0);
    }
    for (int i = 0; i < CUZK_FC_SNAP_FILES; i++)
        free(paths[i]);
    cuzk_fc_sector_files_free(f);
    if (st != CUZK_OK)
        memset(info, 0, sizeof *info);
    return st;
}

/* ---- decoding ---- */

cuzk_status cuzk_seal_snap_decode(uint8_t **data, size_t *data_len, const char *update_dir, int threads,
                                  cuzk_seal_snap_info_t *info, cuzk_err_t *err)
{
    *data = NULL;
    *data_len = 0;
    cuzk_seal_snap_info_t local;
    if (!info)
        info = &local;
    if (threads < 0) {
        memset(info, 0, sizeof *info);
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap decode: %d threads", threads);
    }
    if (threads == 0)
        threads = cuzk_cpu_count();
    cuzk_status st = cuzk_fc_snap_update_read(info, update_dir, err);
    if (st != CUZK_OK)
        return st;
    const char *key = info->sector_key_dir;
    cuzk_fc_sector_meta_t m;
    cuzk_snap_registered_proof_t up;
    cuzk_snap_config_t cfg;
    if ((st = cuzk_fc_sector_meta_read(&m, key, err)) != CUZK_OK ||
        (st = cuzk_snap_registered_proof_for_seal(&up, m.proof->id, err)) != CUZK_OK ||
        (st = cuzk_snap_config_for_proof(&cfg, up.id, err)) != CUZK_OK)
        goto done;
    if (up.id != info->update_proof_id || memcmp(m.comm_r, info->comm_r_old, 32) != 0 ||
        memcmp(m.comm_c, info->comm_c, 32) != 0) {
        st = cuzk_err_set(err, CUZK_ERR_MISMATCH, "update %s and its sector key %s disagree (%s)", update_dir, key,
                          up.id != info->update_proof_id        ? "sector size"
                          : memcmp(m.comm_r, info->comm_r_old, 32) ? "comm_r_old is not the sector's comm_r"
                                                                 : "comm_c");
        goto done;
    }
    cfg.h = info->h;
    const uint64_t n = cfg.nodes, size = n * 32;
    uint8_t *new_r = NULL, *old_r = NULL, *padded = NULL;
    fr *rho_inv = NULL;
    char *new_path = cuzk_fc_sector_path(update_dir, CUZK_FC_SNAP_UPDATE);
    char *old_path = cuzk_fc_sector_path(key, CUZK_FC_SECTOR_SEALED);
    if (!new_path || !old_path)
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap decode: out of memory");
    if (st == CUZK_OK && (st = read_exact(&new_r, new_path, size, err)) == CUZK_OK &&
        (st = read_exact(&old_r, old_path, size, err)) == CUZK_OK &&
        (st = rho_table(&rho_inv, &cfg, info->comm_d_new, info->comm_r_old, true, err)) == CUZK_OK &&
        !(padded = cuzk_big_malloc(size)))
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap decode: out of memory for a %s sector", up.size_name);
    if (st == CUZK_OK) {
        node_job j = {.a = new_r, .b = old_r, .out = padded, .rho = rho_inv, .shift = cuzk_fc_snap_high_shift(&cfg)};
        uint64_t bad;
        int kind = run_nodes(&j, n, threads, decode_range, &bad);
        if (kind == 1 || kind == 2)
            st = cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "%s: node %llu is not a canonical Fr",
                              kind == 1 ? new_path : old_path, (unsigned long long)bad);
        else if (kind == 3)
            st = cuzk_err_set(err, CUZK_ERR_MISMATCH,
                              "%s: node %llu does not decode to Fr32 data: the replicas or commitments disagree",
                              new_path, (unsigned long long)bad);
    }
    uint8_t root[32];
    if (st == CUZK_OK && (st = cuzk_fc_comm_d(root, padded, size, threads, err)) == CUZK_OK &&
        memcmp(root, info->comm_d_new, 32) != 0)
        st = cuzk_err_set(err, CUZK_ERR_MISMATCH, "update %s: the decoded data's tree D root is not comm_d_new",
                          update_dir);
    if (st == CUZK_OK) {
        size_t raw = (size_t)(size / 128 * 127);
        if (!(*data = malloc(raw ? raw : 1)))
            st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap decode: out of memory for %zu bytes", raw);
        else {
            cuzk_fr32_unpad_blocks(*data, padded, (size_t)(size / 128));
            *data_len = raw;
        }
    }
    free(new_path);
    free(old_path);
    free(new_r);
    free(old_r);
    free(padded);
    free(rho_inv);
done:
    if (st != CUZK_OK)
        memset(info, 0, sizeof *info);
    return st;
}
