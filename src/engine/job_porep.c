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
    /* The MSMs over the assignment: A·z and B·z grown to the domain and the assignment. The H phase:
     * A·z, B·z and C·z over the domain (C·z in the assignment's memory, or in its own once that is
     * released). The key's piece buffer stays through both and the h MSM after them (which holds H
     * alone). 32 bytes each. 32GiB: m = 2^27, 130,170,221 variables: 12.76 GB, then 12.88 GB, with a
     * piece of 1.6 GB (2^24 G1 points, or 2^23 of b_g2's G2 points). */
    uint64_t assignment_phase = 32 * (2 * m + vars), h_phase = 32 * 3 * m;
    return (assignment_phase > h_phase ? assignment_phase : h_phase) + piece_bytes + SYNTH_SLACK_BYTES;
}

/* The prover's piece of a streamed key, at its default size (the engine sets no stream_points). */
static uint64_t key_piece_bytes(const cuzk_groth16_pk_t *pk)
{
    return cuzk_groth16_stream_piece_bytes(0, pk->h_len > pk->l_len ? pk->h_len : pk->l_len, pk->b_g2_len);
}

static uint64_t porep_partition_bytes(const job_t *j)
{
    const cuzk_groth16_pk_t *pk = j->srs->pk;
    bool streamed = pk->h == NULL && pk->h_len > 0;
    return cuzk_porep_partition_peak_bytes(pk->h_len + 1, pk->l_len + pk->vk.ic_len,
                                           streamed ? key_piece_bytes(pk) : 0);
}

cuzk_status cuzk_porep_shape(cuzk_porep_shape_t *out, const cuzk_porep_config_t *cfg, cuzk_err_t *err)
{
    /* counted once per configuration (cuzk_porep_circuit_shape keeps them) */
    cuzk_porep_shape_t sh;
    memset(&sh, 0, sizeof sh);
    cuzk_status st = cuzk_porep_circuit_shape(&sh.info, cfg, err);
    if (st != CUZK_OK)
        return st;
    const cuzk_circuit_info_t *i = &sh.info;
    uint64_t rows = i->num_constraints + i->num_inputs, dm = 1;
    while (dm < rows)
        dm *= 2;
    sh.m = dm;
    sh.vars = i->num_inputs + i->num_aux;
    *out = sh;
    return CUZK_OK;
}

static cuzk_status porep_shape(uint64_t *m, uint64_t *vars, const cuzk_porep_registered_proof_t *p, cuzk_err_t *err)
{
    cuzk_porep_config_t cfg;
    cuzk_porep_shape_t sh;
    cuzk_status st = cuzk_porep_config_for_proof(&cfg, NULL, p->name, err);
    if (st == CUZK_OK)
        st = cuzk_porep_shape(&sh, &cfg, err);
    if (st == CUZK_OK)
        *m = sh.m, *vars = sh.vars;
    return st;
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
    /* the least one partition can take: the key streamed (its sections below m and vars points, as a
     * partition will count them once the key is open), nothing else resident */
    uint64_t piece = cuzk_groth16_stream_piece_bytes(0, m > vars ? m : vars, vars);
    uint64_t need = cuzk_porep_partition_peak_bytes(m, vars, piece), limit = cuzk_budget_work_limit(&e->budget);
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

cuzk_engine_synth_mode cuzk_porep_synth_choose(const cuzk_porep_synth_figures_t *f, char *why, size_t why_len)
{
    const double gib = 1073741824.0;
    if (f->configured == CUZK_ENGINE_SYNTH_DIRECT || f->configured == CUZK_ENGINE_SYNTH_RECORD) {
        snprintf(why, why_len, "configured");
        return f->configured;
    }
    if (f->partitions < 2 && !f->resident) {
        snprintf(why, why_len, "one partition: recording would cost what it saves");
        return CUZK_ENGINE_SYNTH_DIRECT;
    }
    uint64_t slots = f->slots < f->partitions ? f->slots : f->partitions;
    /* each term is far below 2^64 (a budget is a machine's memory); the sum is compared without overflow */
    uint64_t need = f->params_bytes, parts = slots * f->partition_bytes;
    bool fits = need <= f->work_limit && f->record_bytes <= f->work_limit - need &&
                parts <= f->work_limit - need - f->record_bytes;
    snprintf(why, why_len, "%s %.2f GiB %s %.2f GiB of parameters and %llu partition(s) of %.2f GiB in %.2f GiB",
             f->resident ? "record" : "estimated record", f->record_bytes / gib,
             fits ? "fits beside" : "does not fit beside", f->params_bytes / gib, (unsigned long long)slots,
             f->partition_bytes / gib, f->work_limit / gib);
    return fits ? CUZK_ENGINE_SYNTH_RECORD : CUZK_ENGINE_SYNTH_DIRECT;
}

/* Decides j's synthesis path (after its parameters are acquired) and, for RECORD, takes a reference to the
 * circuit's record, building it when it is not resident; the choice goes to the TIMELINE (SYNTH_MODE). In
 * AUTO a record that cannot be charged at once means DIRECT; configured RECORD waits for its memory, and
 * fails the job only when the record, the parameters and one partition can never fit together. */
static cuzk_status choose_synthesis(cuzk_engine_t *e, job_t *j, const cuzk_porep_c1_info_t *info,
                                    const char *circuit_id, cuzk_err_t *err)
{
    cuzk_engine_synth_mode configured = e->cfg.synthesis_mode;
    if (configured == CUZK_ENGINE_SYNTH_DIRECT) {
        pthread_mutex_lock(&e->mu);
        j->synth_mode = CUZK_ENGINE_SYNTH_DIRECT;
        pthread_mutex_unlock(&e->mu);
        cuzk_engine_timeline(e, "SYNTH_MODE", j->id, "direct (configured)");
        return CUZK_OK;
    }
    cuzk_job_stop_t stop = {e, j};
    cuzk_porep_synth_figures_t f = {.configured = configured, .partitions = info->partitions,
                                    .params_bytes = j->srs->bytes, .partition_bytes = porep_partition_bytes(j),
                                    .slots = (uint32_t)(e->cfg.prover_workers + e->cfg.pipeline_depth),
                                    .work_limit = cuzk_budget_work_limit(&e->budget)};
    cuzk_record_entry_t *rec = cuzk_record_find(&e->records, &info->circuit, cuzk_engine_job_stopped, &stop);
    if (rec) {
        f.resident = true;
        f.record_bytes = rec->bytes;
    } else {
        cuzk_porep_shape_t sh;
        cuzk_status st = cuzk_porep_shape(&sh, &info->circuit, err);
        if (st != CUZK_OK)
            return st;
        f.record_bytes = cuzk_porep_record_estimate(&sh.info);
    }
    char why[256];
    cuzk_engine_synth_mode mode = cuzk_porep_synth_choose(&f, why, sizeof why);
    if (mode == CUZK_ENGINE_SYNTH_RECORD && configured == CUZK_ENGINE_SYNTH_RECORD && !f.resident &&
        (f.params_bytes + f.record_bytes + f.partition_bytes > f.work_limit)) {
        cuzk_record_release(&e->records, rec);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY,
                            "synthesis_mode record: the record (%.2f GiB estimated), the parameters (%.2f GiB) and "
                            "one partition (%.2f GiB) do not fit the memory budget (%.2f GiB less its queue share)",
                            f.record_bytes / 1073741824.0, f.params_bytes / 1073741824.0,
                            f.partition_bytes / 1073741824.0, e->budget.total / 1073741824.0);
    }
    uint64_t built_ms = 0;
    bool built = false;
    if (mode == CUZK_ENGINE_SYNTH_RECORD && !rec) {
        cuzk_err_t rerr = {{0}};
        bool wait = configured == CUZK_ENGINE_SYNTH_RECORD;
        cuzk_status st = cuzk_record_acquire(&e->records, &info->circuit, circuit_id, f.record_bytes, wait,
                                             cuzk_engine_job_stopped, &stop, &rec, &built, &built_ms, &rerr);
        if (st != CUZK_OK && (configured == CUZK_ENGINE_SYNTH_RECORD || st == CUZK_ERR_CANCELLED))
            return cuzk_err_set(err, st, "%s", rerr.msg);
        if (st != CUZK_OK) { /* auto: the memory is not there now, or the circuit cannot be recorded */
            mode = CUZK_ENGINE_SYNTH_DIRECT;
            snprintf(why, sizeof why, "%s", rerr.msg);
        }
    } else if (mode != CUZK_ENGINE_SYNTH_RECORD) {
        cuzk_record_release(&e->records, rec);
        rec = NULL;
    }
    pthread_mutex_lock(&e->mu); /* /status reads them */
    j->synth_mode = mode;
    j->record = rec;
    pthread_mutex_unlock(&e->mu);
    if (rec)
        cuzk_engine_timeline(e, "SYNTH_MODE", j->id, "record (%s; %s %.1f MiB%s; %llu ms)", why,
                             built ? "built" : "resident", rec->bytes / 1048576.0,
                             configured == CUZK_ENGINE_SYNTH_AUTO ? ", auto" : "", (unsigned long long)built_ms);
    else
        cuzk_engine_timeline(e, "SYNTH_MODE", j->id, "direct (%s)", why);
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
    st = cuzk_engine_acquire_srs(e, j, &circuit, err);
    return st == CUZK_OK ? choose_synthesis(e, j, &info, circuit.id, err) : st;
}

static cuzk_status porep_synthesize(void **part, cuzk_engine_t *e, job_t *j, uint32_t k, bool (*stop)(void *),
                                    void *stop_arg, cuzk_err_t *err)
{
    cuzk_porep_prove_opts_t so = {.threads = e->cfg.synthesis_threads, .should_stop = stop, .stop_arg = stop_arg};
    cuzk_porep_partition_t *p = NULL;
    cuzk_status st = j->record ? cuzk_porep_partition_synthesize_record(&p, j->c1, k, j->record->rec, &so, err)
                               : cuzk_porep_partition_synthesize(&p, j->c1, k, &so, err);
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
