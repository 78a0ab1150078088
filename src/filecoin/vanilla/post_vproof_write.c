/* bincode FallbackPoStSectorProof encoder (post_vproof_write.h): one pass that sizes the output and checks
 * every path, one that writes it, in the field order of the serde derives (post_vproof.h lays it out). */
#include "filecoin/vanilla/post_vproof_write.h"

#include <stdlib.h>
#include <string.h>

uint32_t cuzk_fc_post_vproof_path_kind(const cuzk_fc_merkle_path_t *p)
{
    return p->n_top ? CUZK_FC_POST_PATH_TOP : p->n_sub ? CUZK_FC_POST_PATH_SUB : CUZK_FC_POST_PATH_SINGLE;
}

/* Bytes of one InclusionPath of levels [from, from + n). */
static size_t part_len(const cuzk_fc_merkle_path_t *p, uint32_t from, uint32_t n)
{
    size_t len = 8;
    for (uint32_t i = from; i < from + n; i++)
        len += 8 + (size_t)(p->steps[i].arity - 1u) * 32 + 8;
    return len;
}

static size_t path_len(const cuzk_fc_merkle_path_t *p)
{
    uint32_t kind = cuzk_fc_post_vproof_path_kind(p);
    size_t len = 4 + 64 + part_len(p, 0, p->n_base);
    if (kind != CUZK_FC_POST_PATH_SINGLE)
        len += part_len(p, p->n_base, p->n_sub);
    if (kind == CUZK_FC_POST_PATH_TOP)
        len += part_len(p, p->n_base + p->n_sub, p->n_top);
    return len;
}

/* Every path usable, and the total length; 0 after a message in err. */
static size_t check_and_size(const cuzk_fc_post_vproof_t *v, cuzk_err_t *err)
{
    if (v->n_sectors && !v->sectors) {
        cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post vproof encode: %zu sector proofs without storage", v->n_sectors);
        return 0;
    }
    size_t len = 8 + 32 + 8;
    for (size_t s = 0; s < v->n_sectors; s++) {
        const cuzk_fc_post_sector_proof_t *sp = &v->sectors[s];
        if (sp->n_paths && !sp->paths) {
            cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post vproof encode: sector proof %zu: %zu paths without storage",
                         s, sp->n_paths);
            return 0;
        }
        len += 8 + 64;
        for (size_t i = 0; i < sp->n_paths; i++) {
            const cuzk_fc_merkle_path_t *p = &sp->paths[i];
            cuzk_err_t e;
            if (p->hash != CUZK_FC_MERKLE_POSEIDON) {
                cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                             "post vproof encode: sector proof %zu, path %zu is not a Poseidon path", s, i);
                return 0;
            }
            if (cuzk_fc_merkle_path_check(p, &e) != CUZK_OK) {
                cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post vproof encode: sector proof %zu, path %zu: %s", s, i,
                             e.msg);
                return 0;
            }
            if (!p->siblings && cuzk_fc_merkle_sibling_count(p)) {
                cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post vproof encode: sector proof %zu, path %zu: no siblings",
                             s, i);
                return 0;
            }
            len += path_len(p);
        }
    }
    return len;
}

size_t cuzk_fc_post_vproof_encoded_len(const cuzk_fc_post_vproof_t *v)
{
    return v ? check_and_size(v, NULL) : 0;
}

typedef struct {
    uint8_t *p;
} writer;

static void put_u64(writer *w, uint64_t x)
{
    for (int i = 0; i < 8; i++)
        *w->p++ = (uint8_t)(x >> (8 * i));
}

static void put_u32(writer *w, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        *w->p++ = (uint8_t)(x >> (8 * i));
}

static void put_bytes(writer *w, const uint8_t *b, size_t n)
{
    memcpy(w->p, b, n);
    w->p += n;
}

/* InclusionPath of levels [from, from + n), its siblings starting at *sib (advanced past them). */
static void put_part(writer *w, const cuzk_fc_merkle_path_t *p, uint32_t from, uint32_t n, const uint8_t **sib)
{
    put_u64(w, n);
    for (uint32_t i = from; i < from + n; i++) {
        size_t ns = p->steps[i].arity - 1u;
        put_u64(w, ns);
        put_bytes(w, *sib, ns * 32);
        *sib += ns * 32;
        put_u64(w, p->steps[i].index);
    }
}

static void put_path(writer *w, const cuzk_fc_merkle_path_t *p)
{
    uint32_t kind = cuzk_fc_post_vproof_path_kind(p);
    const uint8_t *sib = p->siblings;
    put_u32(w, kind);
    if (kind == CUZK_FC_POST_PATH_SINGLE) {
        put_bytes(w, p->root, 32);
        put_bytes(w, p->leaf, 32);
        put_part(w, p, 0, p->n_base, &sib);
        return;
    }
    put_part(w, p, 0, p->n_base, &sib);
    put_part(w, p, p->n_base, p->n_sub, &sib);
    if (kind == CUZK_FC_POST_PATH_TOP)
        put_part(w, p, p->n_base + p->n_sub, p->n_top, &sib);
    put_bytes(w, p->root, 32);
    put_bytes(w, p->leaf, 32);
}

/* v's bytes into buf, which holds check_and_size(v) of them; the bytes written. */
static size_t write_proof(uint8_t *buf, const cuzk_fc_post_vproof_t *v)
{
    writer w = {buf};
    put_u64(&w, v->sector_id);
    put_bytes(&w, v->comm_r, 32);
    put_u64(&w, v->n_sectors);
    for (size_t s = 0; s < v->n_sectors; s++) {
        const cuzk_fc_post_sector_proof_t *sp = &v->sectors[s];
        put_u64(&w, sp->n_paths);
        for (size_t i = 0; i < sp->n_paths; i++)
            put_path(&w, &sp->paths[i]);
        put_bytes(&w, sp->comm_c, 32);
        put_bytes(&w, sp->comm_r_last, 32);
    }
    return (size_t)(w.p - buf);
}

cuzk_status cuzk_fc_post_vproof_encode_into(uint8_t *buf, size_t cap, size_t *len, const cuzk_fc_post_vproof_t *v,
                                            cuzk_err_t *err)
{
    if (!v || !len || (!buf && cap))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post vproof encode: NULL argument");
    *len = 0;
    size_t need = check_and_size(v, err);
    if (!need)
        return CUZK_ERR_INVALID_ARG;
    if (cap < need)
        return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "post vproof encode: %zu bytes needed, %zu given", need, cap);
    *len = write_proof(buf, v);
    return CUZK_OK;
}

cuzk_status cuzk_fc_post_vproof_encode(uint8_t **out, size_t *out_len, const cuzk_fc_post_vproof_t *v,
                                       cuzk_err_t *err)
{
    if (!out || !out_len || !v)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post vproof encode: NULL argument");
    *out = NULL;
    *out_len = 0;
    size_t need = check_and_size(v, err);
    if (!need)
        return CUZK_ERR_INVALID_ARG;
    if (!(*out = malloc(need)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "post vproof encode: %zu bytes", need);
    *out_len = write_proof(*out, v);
    return CUZK_OK;
}
