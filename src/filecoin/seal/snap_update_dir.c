/* The update directory's description (snap_encode.h): update.json written with jansson (the sector key's
 * path escaped as JSON needs) and read back with strict checks, with p_aux (comm_c ‖ root of the new tree
 * R) checked against comm_r_new. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/snap.h"
#include "filecoin/hash/fr32.h"
#include "filecoin/seal/sector_layout.h"
#include "filecoin/seal/snap_encode.h"
#include "util/file_read.h"

#define UPDATE_JSON_MAX (1 << 16)

char *cuzk_fc_snap_update_json(const cuzk_seal_snap_info_t *m, size_t *len)
{
    char old[65], d[65], r[65];
    cuzk_fc_hex32(old, m->comm_r_old);
    cuzk_fc_hex32(d, m->comm_d_new);
    cuzk_fc_hex32(r, m->comm_r_new);
    json_t *o = json_pack("{sI sI sI ss ss ss ss}", "update_proof", (json_int_t)m->update_proof_id, "sector_size",
                          (json_int_t)m->sector_size, "h", (json_int_t)m->h, "sector_key_dir", m->sector_key_dir,
                          "comm_r_old", old, "comm_d_new", d, "comm_r_new", r);
    char *text = o ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    if (!text)
        return NULL;
    /* a trailing newline, as sector.json has; json_dumps' buffer is malloc'd by jansson's default allocator */
    size_t n = strlen(text);
    char *out = realloc(text, n + 2);
    if (!out) {
        free(text);
        return NULL;
    }
    out[n] = '\n';
    out[n + 1] = 0;
    if (len)
        *len = n + 1;
    return out;
}

static cuzk_status canonical(const uint8_t v[32], const char *path, const char *key, cuzk_err_t *err)
{
    if (cuzk_fr32_is_canonical(v))
        return CUZK_OK;
    return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "%s: \"%s\" is not a canonical field element (>= r)", path, key);
}

static cuzk_status parse_json(cuzk_seal_snap_info_t *m, const char *text, size_t len, const char *path,
                              cuzk_err_t *err)
{
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: line %d: %s", path, je.line, je.text);
    cuzk_status st = CUZK_OK;
    uint64_t h = 0;
    cuzk_err_t e = {{0}};
    cuzk_snap_registered_proof_t p;
    cuzk_snap_config_t cfg;
    if (!json_is_object(root))
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: not a JSON object", path);
    if (st == CUZK_OK && (st = cuzk_fc_json_u64(&m->update_proof_id, root, "update_proof", path, err)) == CUZK_OK &&
        cuzk_snap_registered_proof(&p, m->update_proof_id, &e) != CUZK_OK)
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: \"update_proof\": %s", path, e.msg);
    if (st == CUZK_OK && (st = cuzk_fc_json_u64(&m->sector_size, root, "sector_size", path, err)) == CUZK_OK &&
        m->sector_size != p.sector_size)
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: \"sector_size\" %llu, %s updates %llu-byte sectors", path,
                          (unsigned long long)m->sector_size, p.name, (unsigned long long)p.sector_size);
    if (st == CUZK_OK && (st = cuzk_fc_json_u64(&h, root, "h", path, err)) == CUZK_OK) {
        if (cuzk_snap_config_for_proof(&cfg, m->update_proof_id, &e) != CUZK_OK)
            st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s", path, e.msg);
        cfg.h = h > 64 ? 0 : (uint32_t)h;
        if (st == CUZK_OK && cuzk_snap_config_check(&cfg, &e) != CUZK_OK)
            st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: \"h\" %llu: %s", path, (unsigned long long)h, e.msg);
        m->h = cfg.h;
    }
    json_t *dir = json_object_get(root, "sector_key_dir");
    if (st == CUZK_OK && (!json_is_string(dir) || !json_string_length(dir) ||
                          json_string_length(dir) >= sizeof m->sector_key_dir ||
                          strlen(json_string_value(dir)) != json_string_length(dir)))
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: \"sector_key_dir\" missing, empty or not a path", path);
    if (st == CUZK_OK)
        memcpy(m->sector_key_dir, json_string_value(dir), json_string_length(dir) + 1);
    if (st == CUZK_OK && (st = cuzk_fc_json_hex32(m->comm_r_old, root, "comm_r_old", path, err)) == CUZK_OK &&
        (st = cuzk_fc_json_hex32(m->comm_d_new, root, "comm_d_new", path, err)) == CUZK_OK &&
        (st = cuzk_fc_json_hex32(m->comm_r_new, root, "comm_r_new", path, err)) == CUZK_OK &&
        (st = canonical(m->comm_r_old, path, "comm_r_old", err)) == CUZK_OK &&
        (st = canonical(m->comm_d_new, path, "comm_d_new", err)) == CUZK_OK)
        st = canonical(m->comm_r_new, path, "comm_r_new", err);
    json_decref(root);
    return st;
}

cuzk_status cuzk_fc_snap_update_read(cuzk_seal_snap_info_t *out, const char *dir, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    char *json_path = cuzk_fc_sector_path(dir, CUZK_FC_SNAP_JSON);
    if (!json_path)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", dir);
    uint8_t *buf = NULL;
    size_t len = 0;
    cuzk_status st = cuzk_read_small_file(&buf, &len, json_path, UPDATE_JSON_MAX, "any update.json", err);
    if (st == CUZK_OK)
        st = parse_json(out, (const char *)buf, len, json_path, err);
    free(buf);
    free(json_path);
    if (st == CUZK_OK)
        st = cuzk_fc_p_aux_read(out->comm_c, out->root_r_new, dir, out->comm_r_new, "update", "root of tree R new",
                                "update.json's comm_r_new", err);
    if (st != CUZK_OK)
        memset(out, 0, sizeof *out);
    return st;
}

cuzk_status cuzk_seal_snap_info(cuzk_seal_snap_info_t *out, const char *update_dir, cuzk_err_t *err)
{
    return cuzk_fc_snap_update_read(out, update_dir, err);
}
