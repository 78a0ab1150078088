/* PoSt vanilla proofs as the public API hands them around (cuzk/post.h): an opaque handle over one decoded
 * bincode FallbackPoStSectorProof (vanilla/post_vproof.h), read from a buffer or a file. The shape is
 * checked against a registered proof later, by cuzk_post_check. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/post/post_request.h"
#include "util/file_read.h"

/* The largest vanilla proof a file may hold: one 64GiB Winning sector's 66 paths are about 150 KiB. A
 * larger file is not a vanilla proof (a sector or a cache file given by mistake) and is not read. */
#define VANILLA_MAX_BYTES (16u << 20)

cuzk_status cuzk_post_vanilla_parse(cuzk_post_vanilla_t **out, const void *buf, size_t len, cuzk_err_t *err)
{
    *out = NULL;
    cuzk_post_vanilla_t *v = calloc(1, sizeof *v);
    if (!v)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "post vanilla: out of memory");
    cuzk_status st = cuzk_fc_post_vproof_decode(&v->v, buf, len, NULL, err);
    if (st != CUZK_OK) {
        free(v);
        return st;
    }
    *out = v;
    return CUZK_OK;
}

cuzk_status cuzk_post_vanilla_load(cuzk_post_vanilla_t **out, const char *path, cuzk_err_t *err)
{
    *out = NULL;
    uint8_t *buf;
    size_t len;
    cuzk_status st = cuzk_read_small_file(&buf, &len, path, VANILLA_MAX_BYTES, "any vanilla proof", err);
    if (st != CUZK_OK)
        return st;
    st = cuzk_post_vanilla_parse(out, buf, len, err);
    if (st != CUZK_OK && err) {
        char msg[sizeof err->msg];
        memcpy(msg, err->msg, sizeof msg);
        cuzk_err_set(err, st, "%s: %s", path, msg);
    }
    free(buf);
    return st;
}

void cuzk_post_vanilla_free(cuzk_post_vanilla_t *v)
{
    if (!v)
        return;
    cuzk_fc_post_vproof_free(&v->v);
    free(v);
}

void cuzk_post_vanilla_info(cuzk_post_vanilla_info_t *out, const cuzk_post_vanilla_t *v)
{
    memset(out, 0, sizeof *out);
    out->sector_id = v->v.sector_id;
    memcpy(out->comm_r, v->v.comm_r, 32);
    out->n_sector_proofs = v->v.n_sectors > UINT32_MAX ? UINT32_MAX : (uint32_t)v->v.n_sectors;
    if (v->v.n_sectors) {
        const cuzk_fc_post_sector_proof_t *sp = &v->v.sectors[0];
        out->n_paths = sp->n_paths > UINT32_MAX ? UINT32_MAX : (uint32_t)sp->n_paths;
        if (sp->n_paths)
            out->path_levels = cuzk_fc_merkle_levels(&sp->paths[0]);
    }
}
