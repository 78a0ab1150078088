/* SnapDeals vanilla partition proofs as the public API hands them around (cuzk/snap.h): an opaque handle
 * over one decoded bincode PartitionProof (snap_vproof.h), read from a buffer, or a whole sector's from a
 * file of bincode Vec<PartitionProof>. Shapes are checked against a registered proof later. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/vanilla/snap_vproof.h"
#include "util/file_read.h"

/* The largest file of partition proofs read: a 64GiB sector's 16 partitions are about 10 MiB. A larger file
 * is not one (a replica or a tree file given by mistake) and is not read. */
#define VANILLA_FILE_MAX_BYTES (64u << 20)

cuzk_status cuzk_snap_vanilla_parse(cuzk_snap_vanilla_t **out, const void *buf, size_t len, cuzk_err_t *err)
{
    *out = NULL;
    cuzk_snap_vanilla_t *v = calloc(1, sizeof *v);
    if (!v)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap vanilla: out of memory");
    cuzk_status st = cuzk_fc_snap_vproof_decode(&v->v, buf, len, NULL, err);
    if (st != CUZK_OK) {
        free(v);
        return st;
    }
    *out = v;
    return CUZK_OK;
}

void cuzk_snap_vanilla_free(cuzk_snap_vanilla_t *v)
{
    if (!v)
        return;
    cuzk_fc_snap_vproof_free(&v->v);
    free(v);
}

cuzk_status cuzk_snap_vanilla_load_all(cuzk_snap_vanilla_t **out, size_t max, size_t *n, const char *path,
                                       cuzk_err_t *err)
{
    *n = 0;
    for (size_t i = 0; i < max; i++)
        out[i] = NULL;
    uint8_t *buf = NULL;
    size_t len = 0;
    cuzk_status st =
        cuzk_read_small_file(&buf, &len, path, VANILLA_FILE_MAX_BYTES, "any sector's partition proofs", err);
    if (st != CUZK_OK)
        return st;
    cuzk_fc_snap_vproof_t *parts = max ? calloc(max, sizeof *parts) : NULL;
    size_t got = 0;
    if (max && !parts)
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    else
        st = cuzk_fc_snap_vproof_list_decode(parts, max, &got, buf, len, err);
    free(buf);
    if (st != CUZK_OK && err) {
        char msg[sizeof err->msg];
        memcpy(msg, err->msg, sizeof msg);
        cuzk_err_set(err, st, "%s: %s", path, msg);
    }
    for (size_t i = 0; i < got && st == CUZK_OK; i++) {
        if (!(out[i] = malloc(sizeof *out[i])))
            st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
        else
            out[i]->v = parts[i], memset(&parts[i], 0, sizeof parts[i]);
    }
    for (size_t i = 0; i < got; i++)
        cuzk_fc_snap_vproof_free(&parts[i]); /* those not moved into a handle */
    free(parts);
    if (st != CUZK_OK) {
        for (size_t i = 0; i < max; i++) {
            cuzk_snap_vanilla_free(out[i]);
            out[i] = NULL;
        }
        return st;
    }
    *n = got;
    return CUZK_OK;
}

void cuzk_snap_vanilla_info(cuzk_snap_vanilla_info_t *out, const cuzk_snap_vanilla_t *v)
{
    memset(out, 0, sizeof *out);
    const cuzk_fc_snap_vproof_t *p = &v->v;
    memcpy(out->comm_c, p->comm_c, 32);
    out->n_apex_leaves = p->n_apex > UINT32_MAX ? UINT32_MAX : (uint32_t)p->n_apex;
    out->n_challenges = p->n_challenges > UINT32_MAX ? UINT32_MAX : (uint32_t)p->n_challenges;
    if (p->n_challenges) {
        const cuzk_fc_snap_challenge_proof_t *c = &p->challenges[0];
        memcpy(out->root_r_old, c->r_old.root, 32);
        memcpy(out->root_r_new, c->r_new.root, 32);
        memcpy(out->comm_d_new, c->d_new.root, 32);
        out->tree_r_levels = cuzk_fc_merkle_levels(&c->r_old);
        out->tree_d_levels = cuzk_fc_merkle_levels(&c->d_new);
    }
}
