/* Fallback PoSt vanilla proofs from a sector's files (post_vanilla.h): challenges, paths from tree R's
 * store, the bincode encoding, and the verifier's checks on the encoded bytes (so that a returned proof
 * is one a prover accepts, decoded as it will be decoded). */
#include "filecoin/seal/post_vanilla.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/hash/fr32.h"
#include "filecoin/seal/sector_files.h"
#include "filecoin/seal/tree_r_store.h"
#include "filecoin/vanilla/post_challenges.h"
#include "filecoin/vanilla/post_vproof_write.h"

/* The encoded proof decoded again and verified against pp. */
static cuzk_status check_encoded(const uint8_t *buf, size_t len, const cuzk_fc_post_params_t *pp, cuzk_err_t *err)
{
    cuzk_fc_post_vproof_t v;
    cuzk_err_t e;
    cuzk_status st = cuzk_fc_post_vproof_decode(&v, buf, len, NULL, &e);
    if (st == CUZK_OK)
        st = cuzk_fc_post_vproof_verify(&v, pp, &e);
    cuzk_fc_post_vproof_free(&v);
    if (st != CUZK_OK)
        return cuzk_err_set(err, st, "post vanilla: the proof made does not verify: %s", e.msg);
    return CUZK_OK;
}

cuzk_status cuzk_fc_post_vanilla_from_tree(uint8_t **out, size_t *out_len, const char *dir, const char *replica_path,
                                           uint64_t sector_id, const uint8_t comm_c[32], const uint8_t comm_r_last[32],
                                           const uint8_t comm_r[32], const cuzk_fc_post_params_t *pp, cuzk_err_t *err)
{
    *out = NULL;
    *out_len = 0;
    if (!cuzk_fr32_is_canonical(pp->randomness))
        return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL,
                            "post vanilla: the randomness is not a canonical Fr (filecoin-ffi refuses it too)");
    if (pp->challenge_count == 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post vanilla: no challenges");
    if (pp->sector_size % 32)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post vanilla: sector size %llu",
                            (unsigned long long)pp->sector_size);
    cuzk_fc_tree_r_layout_t l;
    cuzk_fc_tree_r_store_t t;
    cuzk_status st = cuzk_fc_tree_r_layout(&l, pp->sector_size / 32, pp->base_arity, pp->sub_arity, pp->top_arity, err);
    if (st != CUZK_OK)
        return st;
    if ((st = cuzk_fc_tree_r_store_open(&t, &l, dir, replica_path, err)) != CUZK_OK)
        return st;
    cuzk_fc_merkle_path_t *paths = calloc(pp->challenge_count, sizeof *paths);
    uint8_t *sib = malloc(pp->challenge_count * t.siblings * 32);
    if (!paths || !sib) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "post vanilla: out of memory for %u paths", pp->challenge_count);
        goto done;
    }
    if (memcmp(t.root, comm_r_last, 32) != 0) {
        st = cuzk_err_set(err, CUZK_ERR_MISMATCH, "sector %s: the root of the tree-r-last files is not comm_r_last",
                          dir);
        goto done;
    }
    for (uint32_t n = 0; n < pp->challenge_count && st == CUZK_OK; n++) {
        uint64_t ci = cuzk_fc_post_challenge_index(pp->api, pp->sector_index, pp->challenge_count, n);
        uint64_t leaf = cuzk_fc_post_leaf_challenge(pp->randomness, sector_id, ci, pp->sector_size);
        cuzk_err_t e;
        st = cuzk_fc_tree_r_store_path(&t, leaf, &paths[n], sib + (size_t)n * t.siblings * 32, &e);
        if (st != CUZK_OK)
            cuzk_err_set(err, st, "post vanilla: challenge %u (leaf %llu): %s", n, (unsigned long long)leaf, e.msg);
    }
    if (st != CUZK_OK)
        goto done;
    cuzk_fc_post_sector_proof_t sp = {.n_paths = pp->challenge_count, .paths = paths};
    memcpy(sp.comm_c, comm_c, 32);
    memcpy(sp.comm_r_last, comm_r_last, 32);
    cuzk_fc_post_vproof_t v = {.sector_id = sector_id, .n_sectors = 1, .sectors = &sp};
    memcpy(v.comm_r, comm_r, 32);
    if ((st = cuzk_fc_post_vproof_encode(out, out_len, &v, err)) == CUZK_OK &&
        (st = check_encoded(*out, *out_len, pp, err)) != CUZK_OK) {
        free(*out);
        *out = NULL;
        *out_len = 0;
    }
done:
    free(paths);
    free(sib);
    cuzk_fc_tree_r_store_close(&t);
    return st;
}

cuzk_status cuzk_fc_post_vanilla_from_dir(uint8_t **out, size_t *out_len, const char *dir,
                                          const cuzk_fc_post_params_t *pp, cuzk_err_t *err)
{
    *out = NULL;
    *out_len = 0;
    if (!cuzk_fr32_is_canonical(pp->randomness))
        return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL,
                            "post vanilla: the randomness is not a canonical Fr (filecoin-ffi refuses it too)");
    cuzk_fc_sector_meta_t m;
    cuzk_status st = cuzk_fc_sector_meta_read(&m, dir, err);
    if (st != CUZK_OK)
        return st;
    const cuzk_fc_seal_proof_t *p = m.proof;
    if (p->sector_size != pp->sector_size)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "sector %s: a %s sector (%s), the PoSt proves %llu-byte sectors",
                            dir, p->size_name, p->name, (unsigned long long)pp->sector_size);
    if (p->base_arity != pp->base_arity || p->sub_arity != pp->sub_arity || p->top_arity != pp->top_arity)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "sector %s: tree R %u-%u-%u, the PoSt expects %u-%u-%u", dir,
                            p->base_arity, p->sub_arity, p->top_arity, pp->base_arity, pp->sub_arity, pp->top_arity);
    return cuzk_fc_post_vanilla_from_tree(out, out_len, dir, NULL, m.sector_num, m.comm_c, m.comm_r_last, m.comm_r, pp,
                                          err);
}
