/* The public PoRep calls (cuzk/porep.h): opaque handles around the C1 model, the keys and a synthesized
 * partition, each call a thin layer over porep_prove.h, porep_keys.h and the vanilla C1 code. */
#include "cuzk/porep.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/porep/porep_circuit_c1.h"
#include "filecoin/porep/porep_keys.h"
#include "filecoin/porep/porep_prove.h"
#include "filecoin/registry/registered_proof.h"
#include "filecoin/vanilla/c1.h"
#include "filecoin/vanilla/c1_json.h"

/* A parsed and checked C1 with what its wrapper said and its circuit's configuration. */
struct cuzk_porep_c1 {
    cuzk_fc_c1_t c1;
    cuzk_fc_c1_wrapper_info_t wrapper;
    cuzk_porep_config_t cfg;
};

/* ---- registered proofs -------------------------------------------------------------------------- */

static void proof_info(cuzk_porep_registered_proof_t *out, const cuzk_fc_seal_proof_t *p)
{
    out->id = p->id;
    out->name = p->name;
    out->size_name = p->size_name;
    out->sector_size = p->sector_size;
    out->api = p->api == CUZK_FC_API_V1_0   ? CUZK_POREP_API_V1_0
               : p->api == CUZK_FC_API_V1_1 ? CUZK_POREP_API_V1_1
                                            : CUZK_POREP_API_V1_2;
    out->challenges = p->challenges == CUZK_FC_CHALLENGES_INTERACTIVE ? CUZK_POREP_CHALLENGES_INTERACTIVE
                      : p->challenges == CUZK_FC_CHALLENGES_SYNTHETIC ? CUZK_POREP_CHALLENGES_SYNTHETIC
                                                                      : CUZK_POREP_CHALLENGES_NON_INTERACTIVE;
    out->partitions = p->partitions;
    out->challenges_per_partition = p->challenges_per_partition;
}

cuzk_status cuzk_porep_registered_proof(cuzk_porep_registered_proof_t *out, uint64_t id, cuzk_err_t *err)
{
    const cuzk_fc_seal_proof_t *p;
    cuzk_status st = cuzk_fc_seal_proof_by_id(&p, id, err);
    if (st == CUZK_OK)
        proof_info(out, p);
    return st;
}

cuzk_status cuzk_porep_registered_proof_parse(cuzk_porep_registered_proof_t *out, const char *name, cuzk_err_t *err)
{
    const cuzk_fc_seal_proof_t *p;
    cuzk_status st = cuzk_fc_seal_proof_parse(&p, name, err);
    if (st == CUZK_OK)
        proof_info(out, p);
    return st;
}

/* ---- C1 outputs ---------------------------------------------------------------------------------- */

_Static_assert(CUZK_POREP_C1_MAX_BYTES == CUZK_FC_C1_MAX_BYTES, "the public C1 file bound is the loader's");

/* Takes a freshly parsed model into a new handle (the model is freed on error). */
static cuzk_status c1_handle(cuzk_porep_c1_t **out, cuzk_fc_c1_t *model, const cuzk_fc_c1_wrapper_info_t *info,
                             cuzk_err_t *err)
{
    cuzk_porep_c1_t *c = calloc(1, sizeof *c);
    cuzk_status st = c ? cuzk_porep_c1_config(&c->cfg, model, err)
                       : cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1: out of memory");
    if (st != CUZK_OK) {
        free(c);
        cuzk_fc_c1_free(model);
        return st;
    }
    c->c1 = *model;
    c->wrapper = *info;
    *out = c;
    return CUZK_OK;
}

cuzk_status cuzk_porep_c1_parse(cuzk_porep_c1_t **out, const void *buf, size_t len, cuzk_err_t *err)
{
    *out = NULL;
    cuzk_fc_c1_t model;
    cuzk_fc_c1_wrapper_info_t info;
    cuzk_status st = cuzk_fc_c1_parse_any(&model, &info, buf, len, 0, err);
    return st == CUZK_OK ? c1_handle(out, &model, &info, err) : st;
}

cuzk_status cuzk_porep_c1_load(cuzk_porep_c1_t **out, const char *path, cuzk_err_t *err)
{
    *out = NULL;
    cuzk_fc_c1_t model;
    cuzk_fc_c1_wrapper_info_t info;
    cuzk_status st = cuzk_fc_c1_load(&model, &info, path, 0, err);
    return st == CUZK_OK ? c1_handle(out, &model, &info, err) : st;
}

void cuzk_porep_c1_free(cuzk_porep_c1_t *c1)
{
    if (!c1)
        return;
    cuzk_fc_c1_free(&c1->c1);
    free(c1);
}

void cuzk_porep_c1_info(cuzk_porep_c1_info_t *out, const cuzk_porep_c1_t *c1)
{
    memset(out, 0, sizeof *out);
    proof_info(&out->proof, c1->c1.proof);
    out->circuit = c1->cfg;
    out->partitions = c1->c1.n_partitions;
    memcpy(out->comm_d, c1->c1.comm_d, 32);
    memcpy(out->comm_r, c1->c1.comm_r, 32);
    memcpy(out->replica_id, c1->c1.replica_id, 32);
    memcpy(out->ticket, c1->c1.ticket, 32);
    memcpy(out->seed, c1->c1.seed, 32);
    out->wrapped = c1->wrapper.wrapped != 0;
    out->sector_num = c1->wrapper.wrapped ? c1->wrapper.sector_num : 0;
}

cuzk_status cuzk_porep_c1_check(const cuzk_porep_c1_t *c1, const cuzk_porep_c1_expect_t *expect, cuzk_err_t *err)
{
    const cuzk_fc_seal_proof_t *p = c1->c1.proof;
    if (expect->has_proof_id && expect->proof_id != p->id) {
        const cuzk_fc_seal_proof_t *q = NULL;
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "registered proof %llu (%s), but the C1 output is a %s proof (%u)",
                            (unsigned long long)expect->proof_id,
                            cuzk_fc_seal_proof_by_id(&q, expect->proof_id, NULL) == CUZK_OK ? q->name : "unknown",
                            p->name, p->id);
    }
    return cuzk_porep_c1_check_sector(&c1->c1, expect->sector_size, &c1->wrapper,
                                      expect->has_sector_num ? &expect->sector_num : NULL,
                                      expect->has_miner_id ? &expect->miner_id : NULL, err);
}

cuzk_status cuzk_porep_c1_check_challenges(const cuzk_porep_c1_t *c1, cuzk_err_t *err)
{
    return cuzk_fc_c1_check_challenges(&c1->c1, err);
}

cuzk_status cuzk_porep_public_inputs(cuzk_scalar_t *out, size_t out_len, size_t *n_out, const cuzk_porep_c1_t *c1,
                                     uint32_t k, cuzk_err_t *err)
{
    return cuzk_porep_c1_public_inputs(out, out_len, n_out, &c1->c1, k, err);
}

cuzk_status cuzk_porep_c1_witness(cuzk_porep_witness_t *w, const cuzk_porep_c1_t *c1, uint32_t k, cuzk_err_t *err)
{
    return cuzk_porep_witness_from_c1(w, &c1->c1, k, err);
}

cuzk_status cuzk_porep_c1_wrap(char **out, size_t *out_len, const char *c1_json, size_t c1_len, uint64_t sector_num,
                               uint64_t sector_size, cuzk_err_t *err)
{
    return cuzk_fc_c1_wrapper_write(out, out_len, c1_json, c1_len, sector_num, sector_size, err);
}

/* ---- keys ----------------------------------------------------------------------------------------- */

/* The keys of a registered proof: the .params decoded (whole), opened for streaming, or left out. */
typedef enum { KEYS_VK_ONLY, KEYS_WHOLE, KEYS_STREAMED } keys_mode;

static cuzk_status keys_load(cuzk_porep_keys_t **out, const char *dir, uint64_t proof_id, keys_mode mode,
                             int threads, cuzk_err_t *err)
{
    *out = NULL;
    const cuzk_fc_seal_proof_t *p;
    cuzk_status st = cuzk_fc_seal_proof_by_id(&p, proof_id, err);
    if (st != CUZK_OK)
        return st;
    cuzk_porep_keys_t *k = calloc(1, sizeof *k);
    if (!k)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "porep keys: out of memory");
    st = mode == KEYS_STREAMED ? cuzk_porep_keys_open_streamed(k, dir, p, threads, err)
                               : cuzk_porep_keys_open(k, dir, p, mode == KEYS_WHOLE, threads, err);
    if (st != CUZK_OK) {
        free(k);
        return st;
    }
    *out = k;
    return CUZK_OK;
}

cuzk_status cuzk_porep_keys_load(cuzk_porep_keys_t **out, const char *dir, uint64_t proof_id, bool with_params,
                                 int threads, cuzk_err_t *err)
{
    return keys_load(out, dir, proof_id, with_params ? KEYS_WHOLE : KEYS_VK_ONLY, threads, err);
}

cuzk_status cuzk_porep_keys_load_streamed(cuzk_porep_keys_t **out, const char *dir, uint64_t proof_id, int threads,
                                          cuzk_err_t *err)
{
    return keys_load(out, dir, proof_id, KEYS_STREAMED, threads, err);
}

void cuzk_porep_keys_free(cuzk_porep_keys_t *keys)
{
    if (!keys)
        return;
    cuzk_porep_keys_close(keys);
    free(keys);
}

const cuzk_groth16_vk_t *cuzk_porep_keys_vk(const cuzk_porep_keys_t *keys) { return &keys->vk; }
const cuzk_groth16_pk_t *cuzk_porep_keys_pk(const cuzk_porep_keys_t *keys) { return keys->pk; }
const cuzk_porep_params_paths_t *cuzk_porep_keys_paths(const cuzk_porep_keys_t *keys) { return &keys->paths; }
bool cuzk_porep_keys_dev(const cuzk_porep_keys_t *keys) { return keys->dev; }
cuzk_params_t *cuzk_porep_keys_params(const cuzk_porep_keys_t *keys) { return keys->params; }

/* ---- proving ---------------------------------------------------------------------------------------- */

cuzk_status cuzk_porep_prove(cuzk_groth16_proof_t *proofs, size_t max_proofs, const cuzk_porep_c1_t *c1,
                             const cuzk_groth16_pk_t *pk, const cuzk_porep_prove_opts_t *opts,
                             cuzk_porep_timings_t *timings, cuzk_err_t *err)
{
    if (max_proofs < c1->c1.n_partitions)
        return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "porep prove: room for %zu proofs, %s has %u partitions",
                            max_proofs, c1->c1.proof->name, c1->c1.n_partitions);
    return cuzk_porep_prove_c1(proofs, &c1->c1, pk, opts, timings, err);
}

cuzk_status cuzk_porep_verify(bool *valid, const cuzk_porep_c1_t *c1, const cuzk_groth16_vk_t *vk,
                              const cuzk_groth16_proof_t *proofs, size_t n, cuzk_err_t *err)
{
    return cuzk_porep_verify_c1(valid, &c1->c1, vk, proofs, n, err);
}

cuzk_status cuzk_porep_partition_synthesize(cuzk_porep_partition_t **out, const cuzk_porep_c1_t *c1, uint32_t k,
                                            const cuzk_porep_prove_opts_t *opts, cuzk_err_t *err)
{
    *out = NULL;
    cuzk_porep_partition_t *p = calloc(1, sizeof *p);
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "porep: out of memory (partition %u)", k);
    cuzk_status st = cuzk_porep_synthesize_partition(p, &c1->c1, &c1->cfg, k, opts ? opts->should_stop : NULL,
                                                     opts ? opts->stop_arg : NULL, err);
    if (st != CUZK_OK) {
        free(p);
        return st;
    }
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_porep_partition_synthesize_record(cuzk_porep_partition_t **out, const cuzk_porep_c1_t *c1,
                                                   uint32_t k, const cuzk_porep_record_t *rec,
                                                   const cuzk_porep_prove_opts_t *opts, cuzk_err_t *err)
{
    *out = NULL;
    if (k >= c1->c1.n_partitions)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep: partition %u of %u", k, c1->c1.n_partitions);
    cuzk_status st = cuzk_porep_record_check_config(rec, &c1->cfg, err);
    if (st != CUZK_OK)
        return st;
    cuzk_porep_partition_t *p = calloc(1, sizeof *p);
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "porep: out of memory (partition %u)", k);
    st = cuzk_porep_synthesize_partition_record(p, &c1->c1, &c1->cfg, k, &rec->rec, opts ? opts->threads : 0,
                                                opts ? opts->should_stop : NULL, opts ? opts->stop_arg : NULL, err);
    if (st != CUZK_OK) {
        free(p);
        return st;
    }
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_porep_partition_prove(cuzk_groth16_proof_t *proof, const cuzk_porep_partition_t *part,
                                       const cuzk_groth16_pk_t *pk, const cuzk_porep_prove_opts_t *opts,
                                       cuzk_err_t *err)
{
    cuzk_groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.h_mode = CUZK_GROTH16_H_COSET; /* the H mode of Filecoin's keys, as cuzk_porep_prove's */
    if (opts) {
        po.threads = opts->threads;
        po.should_stop = opts->should_stop;
        po.stop_arg = opts->stop_arg;
        po.params = opts->params;
    }
    return cuzk_groth16_prove(proof, pk, &part->gw, 1, &po, err);
}

cuzk_status cuzk_porep_partition_prove_consume(cuzk_groth16_proof_t *proof, cuzk_porep_partition_t *part,
                                               const cuzk_groth16_pk_t *pk, const cuzk_porep_prove_opts_t *opts,
                                               cuzk_err_t *err)
{
    cuzk_groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.h_mode = CUZK_GROTH16_H_COSET;
    if (opts) {
        po.threads = opts->threads;
        po.should_stop = opts->should_stop;
        po.stop_arg = opts->stop_arg;
        po.params = opts->params;
    }
    return cuzk_porep_partition_prove_in_place(proof, part, pk, &po, err);
}

void cuzk_porep_partition_free(cuzk_porep_partition_t *part)
{
    if (!part)
        return;
    cuzk_porep_partition_clear(part);
    free(part);
}

cuzk_status cuzk_porep_prove_partition(cuzk_groth16_proof_t *proof, const cuzk_porep_c1_t *c1, uint32_t k,
                                       const cuzk_groth16_pk_t *pk, const cuzk_porep_prove_opts_t *opts,
                                       cuzk_err_t *err)
{
    cuzk_porep_partition_t *part = NULL;
    cuzk_status st = cuzk_porep_partition_synthesize(&part, c1, k, opts, err);
    if (st == CUZK_OK) /* the partition is ours alone: prove it in its own memory */
        st = cuzk_porep_partition_prove_consume(proof, part, pk, opts, err);
    cuzk_porep_partition_free(part);
    return st;
}
