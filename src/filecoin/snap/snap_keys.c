/* SnapDeals keys from a parameter directory (cuzk/snap.h): paths by Filecoin's v28 names (the
 * empty-sector-update circuit of each registered update proof's sector size) and the keys opened by
 * cuzk_fc_keys_open (registry/params_names.h) with the circuit's input count and key check: the rules of
 * the PoRep and PoSt keys, so that one directory serves all three. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/snap.h"
#include "filecoin/registry/params_names.h"

/* The public cuzk_snap_keys_t. */
struct cuzk_snap_keys {
    cuzk_fc_keys_t k;
};

cuzk_status cuzk_snap_params_paths(cuzk_snap_params_paths_t *p, const char *dir, uint64_t proof_id, cuzk_err_t *err)
{
    cuzk_snap_registered_proof_t proof;
    char stem[sizeof p->stem];
    cuzk_status st = cuzk_snap_registered_proof(&proof, proof_id, err);
    if (st == CUZK_OK)
        st = cuzk_fc_params_stem(stem, sizeof stem, CUZK_FC_CIRCUIT_SNAP, proof.sector_size, err);
    if (st != CUZK_OK) {
        memset(p, 0, sizeof *p);
        return st;
    }
    return cuzk_fc_params_paths(p, dir, stem, err);
}

/* The .params' lengths against the circuit arg (a cuzk_snap_config_t). */
static cuzk_status check_key(const cuzk_groth16_pk_t *pk, const void *arg, cuzk_err_t *err)
{
    return cuzk_snap_check_key(pk, arg, err);
}

cuzk_status cuzk_snap_keys_load(cuzk_snap_keys_t **out, const char *dir, uint64_t proof_id, bool with_params,
                                int threads, cuzk_err_t *err)
{
    *out = NULL;
    cuzk_snap_registered_proof_t proof;
    cuzk_snap_config_t cfg;
    cuzk_snap_params_paths_t paths;
    cuzk_status st = cuzk_snap_registered_proof(&proof, proof_id, err);
    if (st == CUZK_OK)
        st = cuzk_snap_config_for_proof(&cfg, proof_id, err);
    if (st == CUZK_OK)
        st = cuzk_snap_params_paths(&paths, dir, proof_id, err);
    if (st != CUZK_OK)
        return st;
    cuzk_snap_keys_t *k = calloc(1, sizeof *k);
    if (!k)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap keys: out of memory");
    const cuzk_fc_key_circuit_t circuit = {
        .name = proof.name, .num_inputs = CUZK_SNAP_NUM_INPUTS - 1, .check_key = check_key, .arg = &cfg};
    st = cuzk_fc_keys_open(&k->k, &paths, &circuit, with_params, threads, err);
    if (st != CUZK_OK) {
        free(k);
        return st;
    }
    *out = k;
    return CUZK_OK;
}

void cuzk_snap_keys_free(cuzk_snap_keys_t *keys)
{
    if (!keys)
        return;
    cuzk_fc_keys_close(&keys->k);
    free(keys);
}

const cuzk_groth16_vk_t *cuzk_snap_keys_vk(const cuzk_snap_keys_t *keys) { return &keys->k.vk; }
const cuzk_groth16_pk_t *cuzk_snap_keys_pk(const cuzk_snap_keys_t *keys) { return keys->k.pk; }
const cuzk_snap_params_paths_t *cuzk_snap_keys_paths(const cuzk_snap_keys_t *keys) { return &keys->k.paths; }
bool cuzk_snap_keys_dev(const cuzk_snap_keys_t *keys) { return keys->k.dev; }
