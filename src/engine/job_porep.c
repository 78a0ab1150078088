/* PoRep C2 jobs in the engine: the request carries a C1 output (bare or in Curio's wrapper); submission
 * refuses a registered proof that is no seal proof; activation parses and checks the C1 (its seal proof
 * against the request's registered_proof when one is given, the request's sector number against a wrapper's
 * SectorNum always, the replica id recomputed from the miner and sector
 * when the miner is given, every partition's challenges) and acquires the circuit's parameters; each PoRep
 * partition is a partition of the pipeline; the assembled proofs are verified against the C1's public
 * inputs before they are returned. Everything through cuzk/porep.h. */
#include <string.h>

#include "engine/engine_internal.h"

static cuzk_status porep_check_request(const cuzk_job_request_t *r, cuzk_err_t *err)
{
    if (!r->vanilla_proof || r->vanilla_proof_len == 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "vanilla_proof is empty (a PoRep needs the C1 output)");
    if (r->n_vanilla_proofs || r->randomness_len)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%s is a PoSt field; a PoRep sends its C1 in vanilla_proof",
                            r->n_vanilla_proofs ? "vanilla_proofs" : "randomness");
    /* the C1 names its own proof; the request's must at least be one (0, the proto default, is 2KiB V1) */
    cuzk_porep_registered_proof_t p;
    if (cuzk_porep_registered_proof(&p, r->registered_proof, NULL) != CUZK_OK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "registered_proof %llu is not a registered seal proof (0-19: V1 0-4, V1_1 5-9, synthetic "
                            "10-14, non-interactive 15-19)",
                            (unsigned long long)r->registered_proof);
    if (r->registered_proof && r->sector_size && r->sector_size != p.sector_size)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sector_size %llu is not %s's (%llu bytes)",
                            (unsigned long long)r->sector_size, p.name, (unsigned long long)p.sector_size);
    return CUZK_OK;
}

static cuzk_status porep_prepare(cuzk_engine_t *e, job_t *j, uint32_t *n_parts, cuzk_err_t *err)
{
    cuzk_status st = cuzk_porep_c1_parse(&j->c1, j->input, j->input_len, err);
    if (st != CUZK_OK)
        return st;
    cuzk_porep_c1_info_t info;
    cuzk_porep_c1_info(&info, j->c1);
    /* the sector number is held to a wrapper's SectorNum even without a miner id (proto3 has no "unset"
     * for it; a bare C1 names no sector); with the miner, the replica id is recomputed from both */
    cuzk_porep_c1_expect_t expect = {.sector_size = j->sector_size, .has_sector_num = true,
                                     .sector_num = j->sector_number, .has_miner_id = j->has_sector_and_miner,
                                     .miner_id = j->miner_id, .has_proof_id = j->seal_proof_id != 0,
                                     .proof_id = j->seal_proof_id};
    st = cuzk_porep_c1_check(j->c1, &expect, err);
    if (st != CUZK_OK)
        return st;
    st = cuzk_porep_c1_check_challenges(j->c1, err);
    if (st != CUZK_OK)
        return st;
    cuzk_srs_circuit_t circuit;
    cuzk_srs_circuit_porep(&circuit, &info.proof);
    *n_parts = info.partitions;
    return cuzk_engine_acquire_srs(e, j, &circuit, err);
}

static cuzk_status porep_synthesize(void **part, cuzk_engine_t *e, job_t *j, uint32_t k, bool (*stop)(void *),
                                    void *stop_arg, cuzk_err_t *err)
{
    (void)e;
    cuzk_porep_prove_opts_t so = {.should_stop = stop, .stop_arg = stop_arg};
    cuzk_porep_partition_t *p = NULL;
    cuzk_status st = cuzk_porep_partition_synthesize(&p, j->c1, k, &so, err);
    *part = p;
    return st;
}

static cuzk_status porep_prove(cuzk_groth16_proof_t *proof, cuzk_engine_t *e, job_t *j, const void *part,
                               bool (*stop)(void *), void *stop_arg, cuzk_err_t *err)
{
    cuzk_porep_prove_opts_t po = {.threads = e->cfg.prover_threads, .should_stop = stop, .stop_arg = stop_arg};
    return cuzk_porep_partition_prove(proof, part, j->srs->pk, &po, err);
}

static void porep_part_free(void *part) { cuzk_porep_partition_free(part); }

static cuzk_status porep_verify(bool *valid, job_t *j, const cuzk_groth16_proof_t *proofs, cuzk_err_t *err)
{
    return cuzk_porep_verify(valid, j->c1, j->srs->vk, proofs, j->n_parts, err);
}

static void porep_release(job_t *j)
{
    cuzk_porep_c1_free(j->c1);
    j->c1 = NULL;
}

const job_kind_t cuzk_job_porep = {porep_check_request, porep_prepare, porep_synthesize, porep_prove,
                                   porep_part_free,     porep_verify,  porep_release};
