/* PoRep keys from a parameter directory: paths by Filecoin's names, and the keys opened by
 * cuzk_fc_keys_open with the PoRep circuit's input count and key check. */
#include "filecoin/porep/porep_keys.h"

#include <string.h>
#include <sys/stat.h>

#include "cuzk/params.h"

#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/porep/porep_prove.h"
#include "util/bigmem.h"

cuzk_status cuzk_porep_params_paths(cuzk_porep_params_paths_t *p, const char *dir, uint64_t proof_id,
                                    cuzk_err_t *err)
{
    memset(p, 0, sizeof *p);
    const cuzk_fc_seal_proof_t *proof;
    cuzk_status st = cuzk_fc_seal_proof_by_id(&proof, proof_id, err);
    if (st != CUZK_OK)
        return st;
    char stem[sizeof p->stem];
    if (cuzk_fc_porep_params_stem(stem, sizeof stem, proof) != CUZK_OK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "no parameter file name for %s", proof->name);
    return cuzk_fc_params_paths(p, dir, stem, err);
}

cuzk_status cuzk_porep_keys_should_stream(bool *stream, uint64_t *params_bytes, const char *dir, uint64_t proof_id,
                                          cuzk_err_t *err)
{
    *stream = false;
    *params_bytes = 0;
    cuzk_porep_params_paths_t paths;
    cuzk_status st = cuzk_porep_params_paths(&paths, dir, proof_id, err);
    struct stat sb;
    if (st != CUZK_OK || stat(paths.params, &sb) != 0 || !S_ISREG(sb.st_mode))
        return st;
    *params_bytes = (uint64_t)sb.st_size;
    *stream = *params_bytes > cuzk_mem_available() / 2;
    return CUZK_OK;
}

/* The .params' lengths against the circuit of the registered proof arg. */
static cuzk_status check_key(const cuzk_groth16_pk_t *pk, const void *arg, cuzk_err_t *err)
{
    const cuzk_fc_seal_proof_t *proof = arg;
    cuzk_porep_config_t cfg;
    cuzk_status st = cuzk_porep_config_for_proof(&cfg, NULL, proof->name, err);
    return st == CUZK_OK ? cuzk_porep_check_key(pk, &cfg, err) : st;
}

cuzk_status cuzk_porep_keys_open(cuzk_porep_keys_t *k, const char *dir, const cuzk_fc_seal_proof_t *proof,
                                 bool with_params, int threads, cuzk_err_t *err)
{
    cuzk_porep_params_paths_t paths;
    cuzk_status st = cuzk_porep_params_paths(&paths, dir, proof->id, err);
    if (st != CUZK_OK) {
        memset(k, 0, sizeof *k);
        return st;
    }
    cuzk_fc_porep_config_t pc;
    cuzk_fc_porep_config_from_proof(&pc, proof);
    const cuzk_fc_key_circuit_t circuit = {
        .name = proof->name, .num_inputs = cuzk_fc_porep_public_input_count(&pc), .check_key = check_key, .arg = proof};
    return cuzk_fc_keys_open(k, &paths, &circuit, with_params, threads, err);
}

cuzk_status cuzk_porep_keys_open_streamed(cuzk_porep_keys_t *k, const char *dir, const cuzk_fc_seal_proof_t *proof,
                                          int threads, cuzk_err_t *err)
{
    /* the verifying key, the manifest's word on it and the development marker as always; the .params
     * then opened here without cuzk_params_get's decoding */
    cuzk_status st = cuzk_porep_keys_open(k, dir, proof, false, threads, err);
    if (st != CUZK_OK)
        return st;
    struct stat sb;
    if (stat(k->paths.params, &sb) != 0 || !S_ISREG(sb.st_mode))
        st = cuzk_err_set(err, CUZK_ERR_IO, "missing parameters: %s (cuzk params generate makes development ones)",
                          k->paths.params);
    bool vouched = false;
    if (st == CUZK_OK && stat(k->paths.manifest, &sb) == 0 && S_ISREG(sb.st_mode)) {
        st = cuzk_params_manifest_check(k->paths.manifest, k->paths.params, NULL, NULL, err);
        vouched = st == CUZK_OK;
    }
    if (st == CUZK_OK)
        st = cuzk_params_open(&k->params, k->paths.params, vouched ? CUZK_PARAMS_CHECK_NONE : CUZK_PARAMS_CHECK_CURVE,
                              threads, err);
    if (st == CUZK_OK)
        st = check_key(cuzk_params_key(k->params), proof, err);
    if (st == CUZK_OK) {
        k->pk = cuzk_params_key(k->params);
    } else {
        if (err && !strstr(err->msg, k->paths.params)) {
            char msg[sizeof err->msg];
            memcpy(msg, err->msg, sizeof msg);
            cuzk_err_set(err, st, "%s: %s", k->paths.params, msg);
        }
        cuzk_fc_keys_close(k);
    }
    return st;
}

void cuzk_porep_keys_close(cuzk_porep_keys_t *k) { cuzk_fc_keys_close(k); }
