/* bincode PartitionProof encoder (snap_vproof_write.h): one pass that sizes the output and checks every
 * path, one that writes it, in the field order of the serde derives (snap_vproof.h lays it out). */
#include "filecoin/vanilla/snap_vproof_write.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/vanilla/merkle_bincode.h"

static const cuzk_fc_merkle_path_t *path_of(const cuzk_fc_snap_challenge_proof_t *c, int which)
{
    return which == 0 ? &c->r_old : which == 1 ? &c->d_new : &c->r_new;
}

/* Every path usable, and the total length; 0 after a message in err. */
static size_t check_and_size(const cuzk_fc_snap_vproof_t *v, cuzk_err_t *err)
{
    if ((v->n_apex && !v->apex) || (v->n_challenges && !v->challenges)) {
        cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap vproof encode: apex leaves or challenges without storage");
        return 0;
    }
    size_t len = 32 + 8 + v->n_apex * 32 + 8;
    for (size_t i = 0; i < v->n_challenges; i++)
        for (int w = 0; w < 3; w++) {
            const cuzk_fc_merkle_path_t *p = path_of(&v->challenges[i], w);
            cuzk_fc_merkle_hash_t want = w == 1 ? CUZK_FC_MERKLE_SHA256 : CUZK_FC_MERKLE_POSEIDON;
            cuzk_err_t e;
            if (p->hash != want) {
                cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap vproof encode: challenge %zu, %s path is not a %s path",
                             i, cuzk_fc_snap_path_name(w), want == CUZK_FC_MERKLE_SHA256 ? "SHA-256" : "Poseidon");
                return 0;
            }
            if (cuzk_fc_merkle_path_check(p, &e) != CUZK_OK) {
                cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap vproof encode: challenge %zu, %s path: %s", i,
                             cuzk_fc_snap_path_name(w), e.msg);
                return 0;
            }
            len += cuzk_fc_bincode_merkle_proof_len(p);
        }
    return len;
}

size_t cuzk_fc_snap_vproof_encoded_len(const cuzk_fc_snap_vproof_t *v)
{
    return v ? check_and_size(v, NULL) : 0;
}

/* v's bytes into buf, which holds check_and_size(v) of them; the bytes written. */
static size_t write_proof(uint8_t *buf, const cuzk_fc_snap_vproof_t *v)
{
    uint8_t *w = cuzk_fc_bincode_put_bytes(buf, v->comm_c, 32);
    w = cuzk_fc_bincode_put_u64(w, v->n_apex);
    w = cuzk_fc_bincode_put_bytes(w, v->apex, v->n_apex * 32);
    w = cuzk_fc_bincode_put_u64(w, v->n_challenges);
    for (size_t i = 0; i < v->n_challenges; i++)
        for (int p = 0; p < 3; p++)
            w = cuzk_fc_bincode_put_merkle_proof(w, path_of(&v->challenges[i], p));
    return (size_t)(w - buf);
}

cuzk_status cuzk_fc_snap_vproof_encode_into(uint8_t *buf, size_t cap, size_t *len, const cuzk_fc_snap_vproof_t *v,
                                            cuzk_err_t *err)
{
    if (!v || !len || (!buf && cap))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap vproof encode: NULL argument");
    *len = 0;
    size_t need = check_and_size(v, err);
    if (!need)
        return CUZK_ERR_INVALID_ARG;
    if (cap < need)
        return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "snap vproof encode: %zu bytes needed, %zu given", need, cap);
    *len = write_proof(buf, v);
    return CUZK_OK;
}

cuzk_status cuzk_fc_snap_vproof_encode(uint8_t **out, size_t *out_len, const cuzk_fc_snap_vproof_t *v,
                                       cuzk_err_t *err)
{
    if (!out || !out_len || !v)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap vproof encode: NULL argument");
    *out = NULL;
    *out_len = 0;
    size_t need = check_and_size(v, err);
    if (!need)
        return CUZK_ERR_INVALID_ARG;
    if (!(*out = malloc(need)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap vproof encode: %zu bytes", need);
    *out_len = write_proof(*out, v);
    return CUZK_OK;
}

cuzk_status cuzk_fc_snap_vproof_list_join(uint8_t **out, size_t *out_len, const uint8_t *const *parts,
                                          const size_t *lens, size_t n, cuzk_err_t *err)
{
    if (!out || !out_len || (n && (!parts || !lens)))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap vproof list: NULL argument");
    *out = NULL;
    *out_len = 0;
    size_t total = 8;
    for (size_t i = 0; i < n; i++) {
        if (!parts[i] && lens[i])
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap vproof list: partition proof %zu has no bytes", i);
        if (lens[i] > SIZE_MAX - total)
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap vproof list: too large");
        total += lens[i];
    }
    uint8_t *buf = malloc(total);
    if (!buf)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap vproof list: %zu bytes", total);
    uint8_t *w = cuzk_fc_bincode_put_u64(buf, n);
    for (size_t i = 0; i < n; i++)
        w = cuzk_fc_bincode_put_bytes(w, parts[i], lens[i]);
    *out = buf;
    *out_len = total;
    return CUZK_OK;
}
