/* PoRep keys from a parameter directory: paths by Filecoin's names, the .vk checked against the
 * circuit's input count, the manifest's digests, the .params decoded and checked against the circuit. */
#include "filecoin/porep/porep_keys.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "filecoin/registry/params_names.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/porep/porep_prove.h"

cuzk_status cuzk_porep_params_paths(cuzk_porep_params_paths_t *p, const char *dir, uint64_t proof_id,
                                    cuzk_err_t *err)
{
    memset(p, 0, sizeof *p);
    const cuzk_fc_seal_proof_t *proof;
    cuzk_status st = cuzk_fc_seal_proof_by_id(&proof, proof_id, err);
    if (st != CUZK_OK)
        return st;
    if (cuzk_fc_porep_params_stem(p->stem, sizeof p->stem, proof) != CUZK_OK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "no parameter file name for %s", proof->name);
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
    return cuzk_err_set(err, CUZK_ERR_IO, "missing parameters: %s (cuzk params generate makes development ones)",
                        path);
}

static cuzk_status read_vk(cuzk_porep_keys_t *k, const cuzk_fc_seal_proof_t *proof, cuzk_err_t *err)
{
    if (!regular_file(k->paths.vk, NULL))
        return missing(k->paths.vk, err);
    cuzk_status st = cuzk_params_vk_read(&k->vk, k->paths.vk, err);
    if (st != CUZK_OK)
        return st;
    cuzk_fc_porep_config_t pc;
    cuzk_fc_porep_config_from_proof(&pc, proof);
    size_t want = cuzk_fc_porep_public_input_count(&pc);
    if (k->vk.ic_len != want + 1)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "%s: %zu public inputs, the %s circuit has %zu", k->paths.vk,
                            k->vk.ic_len ? k->vk.ic_len - 1 : 0, proof->name, want);
    return CUZK_OK;
}

cuzk_status cuzk_porep_keys_open(cuzk_porep_keys_t *k, const char *dir, const cuzk_fc_seal_proof_t *proof,
                                 bool with_params, int threads, cuzk_err_t *err)
{
    memset(k, 0, sizeof *k);
    cuzk_status st = cuzk_porep_params_paths(&k->paths, dir, proof->id, err);
    if (st == CUZK_OK && with_params && !regular_file(k->paths.params, &k->params_bytes))
        st = missing(k->paths.params, err);
    if (st == CUZK_OK)
        st = read_vk(k, proof, err);
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
        cuzk_porep_config_t cfg;
        cuzk_params_check check = k->manifest_checked ? CUZK_PARAMS_CHECK_NONE : CUZK_PARAMS_CHECK_CURVE;
        st = cuzk_params_open(&k->params, k->paths.params, check, threads, err);
        if (st == CUZK_OK)
            st = cuzk_porep_config_for_proof(&cfg, NULL, proof->name, err);
        if (st == CUZK_OK)
            st = cuzk_porep_check_key(cuzk_params_key(k->params), &cfg, err);
        if (st == CUZK_OK)
            st = cuzk_params_get(&k->pk, k->params, err);
        if (st != CUZK_OK) {
            /* name the file unless the message already does */
            cuzk_err_t inner = err ? *err : (cuzk_err_t){{0}};
            if (err && !strstr(inner.msg, k->paths.params))
                cuzk_err_set(err, st, "%s: %s", k->paths.params, inner.msg);
        }
    }
    if (st != CUZK_OK)
        cuzk_porep_keys_close(k);
    return st;
}

void cuzk_porep_keys_close(cuzk_porep_keys_t *k)
{
    cuzk_params_close(k->params);
    cuzk_groth16_vk_free(&k->vk);
    memset(k, 0, sizeof *k);
}
