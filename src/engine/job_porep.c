/* PoRep C2 jobs in the engine: the request carries a C1 output (bare or in Curio's wrapper); submission
 * refuses a registered proof that is no seal proof; activation parses and checks the C1 (its seal proof
 * against the request's registered_proof when one is given, the request's sector number against a wrapper's
 * SectorNum always, the replica id recomputed from the miner and sector
 * when the miner is given, every partition's challenges) and acquires the circuit's parameters; each PoRep
 * partition is a partition of the pipeline; the assembled proofs are verified against the C1's public
 * inputs before they are returned. Everything through cuzk/porep.h. */
#include <pthread.h>
#include <string.h>

#include "cuzk/filecoin.h"
#include "engine/engine_internal.h"

/* What a partition's synthesis holds besides the figures below (the C1's witness of the partition, LC
 * buffers, density bitmaps), with room to spare: measured at 8MiB as peak RSS less the figures. */
#define SYNTH_SLACK_BYTES (256ull << 20)

uint64_t cuzk_porep_partition_peak_bytes(uint64_t m, uint64_t vars, uint64_t piece_bytes)
{
    /* The H phase: A·z and B·z grown to the domain, C·z over the domain, the assignment; 32 bytes
     * each. The MSM phase: H over the domain (until its MSM ends) and the assignment's scalars, with
     * one decoded piece of a streamed key. 32GiB: m = 2^27, 130,170,221 variables: 17.05 GB, then
     * 8.5 GB + a 3.2 GB piece of b_g2. */
    uint64_t h_phase = 32 * (3 * m + vars), msm_phase = 32 * (m + vars) + piece_bytes;
    return (h_phase > msm_phase ? h_phase : msm_phase) + SYNTH_SLACK_BYTES;
}

/* The largest piece of a streamed key the prover decodes at once: 2^24 points (its default), G2 (192
 * bytes decoded) for the b_g2 section, G1 (96) for the others. */
static uint64_t stream_piece_bytes(const cuzk_groth16_pk_t *pk)
{
    uint64_t piece = 1ull << 24, g1 = pk->h_len > pk->l_len ? pk->h_len : pk->l_len, g2 = pk->b_g2_len;
    g1 = g1 < piece ? g1 : piece;
    g2 = g2 < piece ? g2 : piece;
    return g1 * sizeof(cuzk_g1_affine_t) > g2 * sizeof(cuzk_g2_affine_t) ? g1 * sizeof(cuzk_g1_affine_t)
                                                                         : g2 * sizeof(cuzk_g2_affine_t);
}

static uint64_t porep_partition_bytes(const job_t *j)
{
    const cuzk_groth16_pk_t *pk = j->srs->pk;
    bool streamed = pk->h == NULL && pk->h_len > 0;
    return cuzk_porep_partition_peak_bytes(pk->h_len + 1, pk->l_len + pk->vk.ic_len,
                                           streamed ? stream_piece_bytes(pk) : 0);
}

/* Circuit shapes by registered proof, counted once (the count backend: seconds for 32GiB). */
static pthread_mutex_t shape_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
    uint64_t proof_id;
    bool known;
    uint64_t m, vars;
} shapes[32];

static cuzk_status porep_shape(uint64_t *m, uint64_t *vars, const cuzk_porep_registered_proof_t *p, cuzk_err_t *err)
{
    size_t slot = p->id % (sizeof shapes / sizeof shapes[0]);
    pthread_mutex_lock(&shape_mu);
    bool known = shapes[slot].known && shapes[slot].proof_id == p->id;
    *m = shapes[slot].m, *vars = shapes[slot].vars;
    pthread_mutex_unlock(&shape_mu);
    if (known)
        return CUZK_OK;
    /* Every challenge adds the same constraints, inputs and aux (the circuit is a loop over them): two
     * counts of one and two challenges give the rest, 18 times faster than counting all 18 of 32GiB. */
    cuzk_porep_config_t cfg;
    cuzk_circuit_info_t one, two;
    cuzk_status st = cuzk_porep_config_for_proof(&cfg, NULL, p->name, err);
    uint64_t challenges = cfg.challenges;
    cfg.challenges = 1;
    if (st == CUZK_OK)
        st = cuzk_porep_circuit_info(&one, &cfg, false, err);
    cfg.challenges = 2;
    if (st == CUZK_OK && challenges > 1)
        st = cuzk_porep_circuit_info(&two, &cfg, false, err);
    if (st != CUZK_OK)
        return st;
    uint64_t rows1 = one.num_constraints + one.num_inputs, vars1 = one.num_inputs + one.num_aux;
    uint64_t rows = rows1, dm = 1;
    *vars = vars1;
    if (challenges > 1) {
        rows += (challenges - 1) * (two.num_constraints + two.num_inputs - rows1);
        *vars += (challenges - 1) * (two.num_inputs + two.num_aux - vars1);
    }
    while (dm < rows)
        dm *= 2;
    *m = dm;
    pthread_mutex_lock(&shape_mu);
    shapes[slot].proof_id = p->id, shapes[slot].m = dm, shapes[slot].vars = *vars, shapes[slot].known = true;
    pthread_mutex_unlock(&shape_mu);
    return CUZK_OK;
}

cuzk_status cuzk_porep_check_budget(cuzk_engine_t *e, const cuzk_job_request_t *r, cuzk_err_t *err)
{
    /* 0, the proto default, says nothing (the C1 names its proof): activation checks the C1's own */
    cuzk_porep_registered_proof_t p;
    if (r->registered_proof == 0 || cuzk_porep_registered_proof(&p, r->registered_proof, NULL) != CUZK_OK)
        return CUZK_OK;
    uint64_t m, vars;
    cuzk_status st = porep_shape(&m, &vars, &p, err);
    if (st != CUZK_OK)
        return st;
    /* the least one partition can take: the key streamed, nothing else resident */
    uint64_t need = cuzk_porep_partition_peak_bytes(m, vars, 0), limit = cuzk_budget_work_limit(&e->budget);
    if (need > limit)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY,
                            "%s needs %.2f GiB for one partition (a domain of 2^%d rows, %llu variables); the memory "
                            "budget (%.2f GiB, an eighth of it kept for queued requests) holds %.2f GiB: it can "
                            "never be proved here",
                            p.name, need / 1073741824.0, __builtin_ctzll(m), (unsigned long long)vars,
                            e->budget.total / 1073741824.0, limit / 1073741824.0);
    return CUZK_OK;
}

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
    cuzk_porep_prove_opts_t po = {.threads = e->cfg.prover_threads, .should_stop = stop, .stop_arg = stop_arg,
                                  .params = cuzk_porep_keys_params(j->srs->porep_keys)};
    /* the pipeline frees the partition right after its proof, whatever the outcome: it may be consumed */
    return cuzk_porep_partition_prove_consume(proof, (cuzk_porep_partition_t *)part, j->srs->pk, &po, err);
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

const job_kind_t cuzk_job_porep = {porep_check_request, porep_prepare, porep_synthesize,     porep_prove,
                                   porep_part_free,     porep_verify,  porep_release, porep_partition_bytes};
