/* A sealed sector's directory files (sector_files.h): the replica, tree R's kept rows, filecoin-proofs'
 * p_aux and t_aux in bincode (serde derives of storage-proofs-porep PersistentAux / TemporaryAux and
 * merkletree StoreConfig), and sector.json, written here and read back with strict checks. */
#include "filecoin/seal/sector_files.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/hash/fr32.h"
#include "filecoin/hash/poseidon.h"
#include "util/file_read.h"

#define SECTOR_JSON_VERSION 1

/* ---- bincode of the store configs ---- */

typedef struct {
    uint8_t *buf; /* NULL: only count */
    size_t len;
} bin_t;

static void bin_u64(bin_t *b, uint64_t v)
{
    if (b->buf)
        for (int i = 0; i < 8; i++)
            b->buf[b->len + i] = (uint8_t)(v >> (8 * i));
    b->len += 8;
}

static void bin_str(bin_t *b, const char *s)
{
    size_t n = strlen(s);
    bin_u64(b, n);
    if (b->buf)
        memcpy(b->buf + b->len, s, n);
    b->len += n;
}

/* merkletree StoreConfig { path: PathBuf, id: String, size: Option<usize>, rows_to_discard: usize }. */
static void bin_store_config(bin_t *b, const char *path, const char *id, uint64_t size, uint64_t rows_to_discard)
{
    bin_str(b, path);
    bin_str(b, id);
    if (b->buf)
        b->buf[b->len] = 1; /* Some */
    b->len++;
    bin_u64(b, size);
    bin_u64(b, rows_to_discard);
}

/* TemporaryAux { labels: Labels { labels: Vec<StoreConfig>, _h }, tree_d_config, tree_r_last_config,
 * tree_c_config, _g } with the values storage-proofs-porep's transform_and_replicate_layers gives them
 * (PhantomData fields take no bytes). */
static void bin_t_aux(bin_t *b, const cuzk_fc_sealed_t *s, const cuzk_fc_tree_r_layout_t *l, const char *dir)
{
    const cuzk_fc_seal_proof_t *p = s->proof;
    bin_u64(b, p->layers);
    for (uint32_t layer = 1; layer <= p->layers; layer++) {
        char id[32];
        snprintf(id, sizeof id, "layer-%u", layer);
        bin_store_config(b, dir, id, s->nodes, 0);
    }
    bin_store_config(b, dir, "tree-d", cuzk_fc_seal_tree_size(s->nodes, 2), 0);
    bin_store_config(b, dir, "tree-r-last", cuzk_fc_seal_tree_size(l->base_leaves, l->base), l->rows_to_discard);
    bin_store_config(b, dir, "tree-c", cuzk_fc_seal_tree_size(l->base_leaves, l->base), 0);
}

/* ---- sector.json ---- */

void cuzk_fc_hex32(char out[65], const uint8_t b[32])
{
    static const char d[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = d[b[i] >> 4];
        out[2 * i + 1] = d[b[i] & 15];
    }
    out[64] = 0;
}

char *cuzk_fc_sector_json(const cuzk_fc_sector_meta_t *m, size_t *len)
{
    char ticket[65], comm_d[65], comm_r[65];
    cuzk_fc_hex32(ticket, m->ticket);
    cuzk_fc_hex32(comm_d, m->comm_d);
    cuzk_fc_hex32(comm_r, m->comm_r);
    const char *fmt = "{\n"
                      "  \"version\": %d,\n"
                      "  \"registered_proof\": \"%s\",\n"
                      "  \"sector_size\": %llu,\n"
                      "  \"miner_id\": %llu,\n"
                      "  \"sector_num\": %llu,\n"
                      "  \"ticket\": \"%s\",\n"
                      "  \"comm_d\": \"%s\",\n"
                      "  \"comm_r\": \"%s\"\n"
                      "}\n";
    int n = snprintf(NULL, 0, fmt, SECTOR_JSON_VERSION, m->proof->name, (unsigned long long)m->proof->sector_size,
                     (unsigned long long)m->miner_id, (unsigned long long)m->sector_num, ticket, comm_d, comm_r);
    char *out = n > 0 ? malloc((size_t)n + 1) : NULL;
    if (!out)
        return NULL;
    snprintf(out, (size_t)n + 1, fmt, SECTOR_JSON_VERSION, m->proof->name, (unsigned long long)m->proof->sector_size,
             (unsigned long long)m->miner_id, (unsigned long long)m->sector_num, ticket, comm_d, comm_r);
    if (len)
        *len = (size_t)n;
    return out;
}

/* ---- writing ---- */

void cuzk_fc_sector_files_free(cuzk_fc_sector_file_t f[CUZK_FC_SECTOR_FILES])
{
    for (int i = 0; i < CUZK_FC_SECTOR_FILES; i++) {
        free(f[i].data);
        f[i] = (cuzk_fc_sector_file_t){0};
    }
}

cuzk_status cuzk_fc_sector_files(cuzk_fc_sector_file_t out[CUZK_FC_SECTOR_FILES], const cuzk_fc_sealed_t *s,
                                 uint64_t miner_id, const char *cache_dir, int threads, cuzk_err_t *err)
{
    memset(out, 0, CUZK_FC_SECTOR_FILES * sizeof *out);
    const cuzk_fc_seal_proof_t *p = s->proof;
    cuzk_fc_tree_r_layout_t l;
    cuzk_status st = cuzk_fc_tree_r_layout(&l, s->nodes, p->base_arity, p->sub_arity, p->top_arity, err);
    if (st != CUZK_OK)
        return st;
    if (l.base_trees != 1)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sector files: %s has %u base trees, sealed sectors have one",
                            p->name, l.base_trees);
    static const char *const names[CUZK_FC_SECTOR_FILES] = {CUZK_FC_SECTOR_SEALED, CUZK_FC_SECTOR_TREE_R_LAST,
                                                            CUZK_FC_SECTOR_P_AUX, CUZK_FC_SECTOR_T_AUX,
                                                            CUZK_FC_SECTOR_JSON};
    for (int i = 0; i < CUZK_FC_SECTOR_FILES; i++)
        out[i].name = names[i];

    out[0].len = s->nodes * 32;
    out[1].len = l.cached_nodes * 32;
    out[2].len = CUZK_FC_SECTOR_P_AUX_LEN;
    bin_t tb = {0};
    bin_t_aux(&tb, s, &l, cache_dir);
    out[3].len = tb.len;
    for (int i = 0; i < 4; i++)
        if (!(out[i].data = malloc(out[i].len))) {
            st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "sector files: %zu bytes for %s", out[i].len, out[i].name);
            goto fail;
        }
    cuzk_fc_seal_replica(out[0].data, s, threads);
    /* precommit keeps tree R's levels above the leaves, level 1 first and the root last: the kept rows are
     * its tail. */
    uint64_t above = cuzk_fc_seal_tree_size(s->nodes, l.base) - s->nodes;
    memcpy(out[1].data, s->tree_r + (above - l.cached_nodes) * 32, out[1].len);
    memcpy(out[2].data, s->comm_c, 32); /* PersistentAux { comm_c, comm_r_last } */
    memcpy(out[2].data + 32, s->comm_r_last, 32);
    tb = (bin_t){.buf = out[3].data};
    bin_t_aux(&tb, s, &l, cache_dir);

    cuzk_fc_sector_meta_t m = {.proof = p, .miner_id = miner_id, .sector_num = s->sector_id};
    memcpy(m.ticket, s->ticket, 32);
    memcpy(m.comm_d, s->comm_d, 32);
    memcpy(m.comm_r, s->comm_r, 32);
    if (!(out[4].data = (uint8_t *)cuzk_fc_sector_json(&m, &out[4].len))) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "sector files: sector.json");
        goto fail;
    }
    return CUZK_OK;
fail:
    cuzk_fc_sector_files_free(out);
    return st;
}

/* ---- reading ---- */

static int unhex32(uint8_t out[32], const char *s)
{
    if (strlen(s) != 64)
        return 0;
    for (int i = 0; i < 64; i++) {
        char c = s[i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (v < 0)
            return 0;
        out[i / 2] = (uint8_t)(i % 2 ? out[i / 2] | v : v << 4);
    }
    return 1;
}

cuzk_status cuzk_fc_json_u64(uint64_t *out, json_t *obj, const char *key, const char *path, cuzk_err_t *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: no \"%s\"", path, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: \"%s\" is not a non-negative integer", path, key);
    *out = (uint64_t)json_integer_value(v);
    return CUZK_OK;
}

cuzk_status cuzk_fc_json_hex32(uint8_t out[32], json_t *obj, const char *key, const char *path, cuzk_err_t *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: no \"%s\"", path, key);
    if (!json_is_string(v) || !unhex32(out, json_string_value(v)))
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: \"%s\" is not 64 hex digits", path, key);
    return CUZK_OK;
}

static cuzk_status parse_json(cuzk_fc_sector_meta_t *m, const char *text, size_t len, const char *path,
                              cuzk_err_t *err)
{
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: line %d: %s", path, je.line, je.text);
    cuzk_status st = CUZK_OK;
    uint64_t version = 0, size = 0;
    json_t *name = json_object_get(root, "registered_proof");
    cuzk_err_t e;
    if (!json_is_object(root))
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: not a JSON object", path);
    if (st == CUZK_OK && (st = cuzk_fc_json_u64(&version, root, "version", path, err)) == CUZK_OK &&
        version != SECTOR_JSON_VERSION)
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: version %llu, this reader knows %d", path,
                          (unsigned long long)version, SECTOR_JSON_VERSION);
    if (st == CUZK_OK && !json_is_string(name))
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: \"registered_proof\" missing or not a string", path);
    if (st == CUZK_OK && cuzk_fc_seal_proof_parse(&m->proof, json_string_value(name), &e) != CUZK_OK)
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: \"registered_proof\": %s", path, e.msg);
    if (st == CUZK_OK && (st = cuzk_fc_json_u64(&size, root, "sector_size", path, err)) == CUZK_OK &&
        size != m->proof->sector_size)
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: \"sector_size\" %llu, %s sectors have %llu bytes", path,
                          (unsigned long long)size, m->proof->name, (unsigned long long)m->proof->sector_size);
    if (st == CUZK_OK && (st = cuzk_fc_json_u64(&m->miner_id, root, "miner_id", path, err)) == CUZK_OK &&
        (st = cuzk_fc_json_u64(&m->sector_num, root, "sector_num", path, err)) == CUZK_OK &&
        (st = cuzk_fc_json_hex32(m->ticket, root, "ticket", path, err)) == CUZK_OK &&
        (st = cuzk_fc_json_hex32(m->comm_d, root, "comm_d", path, err)) == CUZK_OK)
        st = cuzk_fc_json_hex32(m->comm_r, root, "comm_r", path, err);
    json_decref(root);
    return st;
}

cuzk_status cuzk_fc_p_aux_read(uint8_t comm_c[32], uint8_t second[32], const char *dir, const uint8_t comm_r[32],
                              const char *what, const char *second_name, const char *comm_r_name, cuzk_err_t *err)
{
    char *aux_path = cuzk_fc_sector_path(dir, CUZK_FC_SECTOR_P_AUX);
    if (!aux_path)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s %s: out of memory", what, dir);
    uint8_t *buf = NULL;
    size_t len = 0;
    cuzk_status st = cuzk_read_small_file(&buf, &len, aux_path, CUZK_FC_SECTOR_P_AUX_LEN, "p_aux", err);
    if (st == CUZK_OK && len != CUZK_FC_SECTOR_P_AUX_LEN)
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %zu bytes, %d expected (comm_c, %s)", aux_path, len,
                          CUZK_FC_SECTOR_P_AUX_LEN, second_name);
    if (st == CUZK_OK) {
        uint8_t h[32];
        if (!cuzk_fr32_is_canonical(buf) || !cuzk_fr32_is_canonical(buf + 32))
            st = cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "%s: %s is not a canonical Fr", aux_path,
                              cuzk_fr32_is_canonical(buf) ? second_name : "comm_c");
        else if ((st = cuzk_poseidon_node(h, 2, buf, err)) == CUZK_OK && memcmp(h, comm_r, 32) != 0)
            st = cuzk_err_set(err, CUZK_ERR_MISMATCH, "%s %s: Poseidon(comm_c, %s) of p_aux is not %s", what, dir,
                              second_name, comm_r_name);
    }
    if (st == CUZK_OK) {
        memcpy(comm_c, buf, 32);
        memcpy(second, buf + 32, 32);
    }
    free(buf);
    free(aux_path);
    return st;
}

cuzk_status cuzk_fc_sector_meta_read(cuzk_fc_sector_meta_t *out, const char *dir, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    char *json_path = cuzk_fc_sector_path(dir, CUZK_FC_SECTOR_JSON);
    if (!json_path)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "sector %s: out of memory", dir);
    uint8_t *buf = NULL;
    size_t len = 0;
    cuzk_status st = cuzk_read_small_file(&buf, &len, json_path, 1 << 16, "any sector.json", err);
    if (st == CUZK_OK)
        st = parse_json(out, (const char *)buf, len, json_path, err);
    free(json_path);
    free(buf);
    if (st == CUZK_OK)
        st = cuzk_fc_p_aux_read(out->comm_c, out->comm_r_last, dir, out->comm_r, "sector", "comm_r_last",
                                "sector.json's comm_r", err);
    if (st != CUZK_OK)
        memset(out, 0, sizeof *out);
    return st;
}
