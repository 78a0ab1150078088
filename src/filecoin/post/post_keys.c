/* PoSt keys from a parameter directory: paths by Filecoin's v28 names (Winning and Window PoSt circuits of
 * each size; every Window version of a size shares one circuit), the .vk checked against the circuit's input
 * count, the manifest's digests, the .params decoded and checked against the circuit; and the public
 * handle's calls (cuzk/post.h). */
#include "filecoin/post/post_keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "filecoin/registry/params_names.h"

cuzk_status cuzk_post_params_paths(cuzk_post_params_paths_t *p, const char *dir, uint64_t proof_id, cuzk_err_t *err)
{
    memset(p, 0, sizeof *p);
    cuzk_post_registered_proof_t proof;
    cuzk_status st = cuzk_post_registered_proof(&proof, proof_id, err);
    if (st != CUZK_OK)
        return st;
    cuzk_fc_circuit_t circuit =
        proof.kind == CUZK_POST_WINNING ? CUZK_FC_CIRCUIT_WINNING_POST : CUZK_FC_CIRCUIT_WINDOW_POST;
    st = cuzk_fc_params_stem(p->stem, sizeof p->stem, circuit, proof.sector_size, err);
    if (st != CUZK_OK)
        return st;
    if (strlen(dir) > sizeof p->params - 32 - strlen(p->stem))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%.64s...: directory name too long", dir);
    snprintf(p->params, sizeof p->params, "%s/%s.params", dir, p->stem);
    snprintf(p->vk, sizeof p->vk, "%s/%s.vk", dir, p->stem);
    snprintf(p->dev, sizeof p->dev, "%s/%s.cuzk-dev", dir, p->stem);
    snprintf(p->manifest, sizeof p->manifest, "%s/parameters.json", dir);
    return CUZK_OK;
}

static bool regular_file(const char *path, uint64_t *size)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    if (size)
        *size = (uint64_t)st.st_size;
    return true;
}

static cuzk_status missing(const char *path, cuzk_err_t *err)
{
    return cuzk_err_set(err, CUZK_ERR_IO, "missing parameters: %s (cuzk params generate makes development ones)", path);
}

static cuzk_status read_vk(cuzk_post_keys_t *k, const cuzk_post_registered_proof_t *proof,
                           const cuzk_post_config_t *cfg, cuzk_err_t *err)
{
    if (!regular_file(k->paths.vk, NULL))
        return missing(k->paths.vk, err);
    cuzk_status st = cuzk_params_vk_read(&k->vk, k->paths.vk, err);
    if (st != CUZK_OK)
        return st;
    size_t want = cuzk_post_num_inputs(cfg);
    if (k->vk.ic_len != want)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "%s: %zu public inputs, the %s circuit has %zu", k->paths.vk,
                            k->vk.ic_len ? k->vk.ic_len - 1 : 0, proof->name, want - 1);
    return CUZK_OK;
}

cuzk_status cuzk_post_keys_open(cuzk_post_keys_t *k, const char *dir, uint64_t proof_id, bool with_params, int threads,
                                cuzk_err_t *err)
{
    memset(k, 0, sizeof *k);
    cuzk_post_registered_proof_t proof;
    cuzk_post_config_t cfg;
    cuzk_status st = cuzk_post_registered_proof(&proof, proof_id, err);
    if (st == CUZK_OK)
        st = cuzk_post_config_for_proof(&cfg, proof_id, err);
    if (st == CUZK_OK)
        st = cuzk_post_params_paths(&k->paths, dir, proof_id, err);
    if (st == CUZK_OK && with_params && !regular_file(k->paths.params, &k->params_bytes))
        st = missing(k->paths.params, err);
    if (st == CUZK_OK)
        st = read_vk(k, &proof, &cfg, err);
    if (st == CUZK_OK && regular_file(k->paths.manifest, NULL)) {
        if (with_params)
            st = cuzk_params_manifest_check(k->paths.manifest, k->paths.params, NULL, NULL, err);
        if (st == CUZK_OK)
            st = cuzk_params_manifest_check(k->paths.manifest, k->paths.vk, NULL, NULL, err);
        k->manifest_checked = st == CUZK_OK;
    }
    k->dev = regular_file(k->paths.dev, NULL);
    if (st == CUZK_OK && with_params) {
        /* a digest checked against the manifest vouches for every point; otherwise check them on the curve,
         * as bellperson's production reader does */
        cuzk_params_check check = k->manifest_checked ? CUZK_PARAMS_CHECK_NONE : CUZK_PARAMS_CHECK_CURVE;
        st = cuzk_params_open(&k->params, k->paths.params, check, threads, err);
        if (st == CUZK_OK)
            st = cuzk_post_check_key(cuzk_params_key(k->params), &cfg, err);
        if (st == CUZK_OK)
            st = cuzk_params_get(&k->pk, k->params, err);
        if (st != CUZK_OK && err && !strstr(err->msg, k->paths.params)) {
            /* name the file unless the message already does */
            char msg[sizeof err->msg];
            memcpy(msg, err->msg, sizeof msg);
            cuzk_err_set(err, st, "%s: %s", k->paths.params, msg);
        }
    }
    if (st != CUZK_OK)
        cuzk_post_keys_close(k);
    return st;
}

void cuzk_post_keys_close(cuzk_post_keys_t *k)
{
    cuzk_params_close(k->params);
    cuzk_groth16_vk_free(&k->vk);
    memset(k, 0, sizeof *k);
}

/* ---- the public handle ------------------------------------------------------------------------------ */

cuzk_status cuzk_post_keys_load(cuzk_post_keys_t **out, const char *dir, uint64_t proof_id, bool with_params,
                                int threads, cuzk_err_t *err)
{
    *out = NULL;
    cuzk_post_keys_t *k = calloc(1, sizeof *k);
    if (!k)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "post keys: out of memory");
    cuzk_status st = cuzk_post_keys_open(k, dir, proof_id, with_params, threads, err);
    if (st != CUZK_OK) {
        free(k);
        return st;
    }
    *out = k;
    return CUZK_OK;
}

void cuzk_post_keys_free(cuzk_post_keys_t *keys)
{
    if (!keys)
        return;
    cuzk_post_keys_close(keys);
    free(keys);
}

const cuzk_groth16_vk_t *cuzk_post_keys_vk(const cuzk_post_keys_t *keys) { return &keys->vk; }
const cuzk_groth16_pk_t *cuzk_post_keys_pk(const cuzk_post_keys_t *keys) { return keys->pk; }
const cuzk_post_params_paths_t *cuzk_post_keys_paths(const cuzk_post_keys_t *keys) { return &keys->paths; }
bool cuzk_post_keys_dev(const cuzk_post_keys_t *keys) { return keys->dev; }
