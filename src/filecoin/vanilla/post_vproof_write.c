/* bincode FallbackPoStSectorProof encoder (post_vproof_write.h): one pass that sizes the output and checks
 * every path, one that writes it, in the field order of the serde derives (post_vproof.h lays it out). */
#include "filecoin/vanilla/post_vproof_write.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/vanilla/merkle_bincode.h"

uint32_t cuzk_fc_post_vproof_path_kind(const cuzk_fc_merkle_path_t *p)
{
    return cuzk_fc_bincode_merkle_proof_kind(p);
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
            len += cuzk_fc_bincode_merkle_proof_len(p);
        }
    }
    return len;
}

size_t cuzk_fc_post_vproof_encoded_len(const cuzk_fc_post_vproof_t *v)
{
    return v ? check_and_size(v, NULL) : 0;
}

/* v's bytes into buf, which holds check_and_size(v) of them; the bytes written. */
static size_t write_proof(uint8_t *buf, const cuzk_fc_post_vproof_t *v)
{
    uint8_t *w = cuzk_fc_bincode_put_u64(buf, v->sector_id);
    w = cuzk_fc_bincode_put_bytes(w, v->comm_r, 32);
    w = cuzk_fc_bincode_put_u64(w, v->n_sectors);
    for (size_t s = 0; s < v->n_sectors; s++) {
        const cuzk_fc_post_sector_proof_t *sp = &v->sectors[s];
        w = cuzk_fc_bincode_put_u64(w, sp->n_paths);
        for (size_t i = 0; i < sp->n_paths; i++)
            w = cuzk_fc_bincode_put_merkle_proof(w, &sp->paths[i]);
        w = cuzk_fc_bincode_put_bytes(w, sp->comm_c, 32);
        w = cuzk_fc_bincode_put_bytes(w, sp->comm_r_last, 32);
    }
    return (size_t)(w - buf);
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
