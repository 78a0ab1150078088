/* PoSt proving and verification (cuzk/post.h): development setup and key checks of the Fallback PoSt
 * circuit, a partition checked, turned into the circuit's witness and synthesized by the direct backend in
 * parallel chunks, its Groth16 proof, and verification against public inputs recomputed from the request
 * (never from the proof's own claims). */
#include <stdlib.h>
#include <string.h>

#include "groth16/circuit_keys.h"
#include "filecoin/post/post_request.h"
#include "util/parallel.h"
#include "util/timer.h"
#include "util/timing.h"

/* The public cuzk_post_partition_t: a direct system and the prover's view of it (gw points into cs). */
struct cuzk_post_partition {
    cuzk_cs_t *cs;
    cuzk_groth16_witness_t gw;
};

static double ms_since(uint64_t t0) { return (double)(cuzk_now_ns() - t0) / 1e6; }

static int opts_threads(const cuzk_post_prove_opts_t *o) { return o && o->threads > 0 ? o->threads : cuzk_cpu_count(); }

/* The blank circuit on the record backend, synthesized on the setup's threads. */
typedef struct {
    const cuzk_post_config_t *cfg;
    int threads;
} blank_job;

static cuzk_status record_blank(cuzk_cs_t *cs, const void *arg, cuzk_err_t *err)
{
    const blank_job *j = arg;
    return cuzk_post_synthesize(cs, j->cfg, NULL, j->threads, err);
}

cuzk_status cuzk_post_dev_setup(cuzk_groth16_pk_t *pk, const cuzk_post_config_t *cfg, int threads, cuzk_err_t *err)
{
    blank_job j = {cfg, threads};
    return cuzk_groth16_setup_circuit(pk, record_blank, &j, threads, err);
}

cuzk_status cuzk_post_check_key(const cuzk_groth16_pk_t *pk, const cuzk_post_config_t *cfg, cuzk_err_t *err)
{
    cuzk_circuit_info_t info;
    cuzk_status st = cuzk_post_circuit_info(&info, cfg, false, err);
    return st == CUZK_OK ? cuzk_groth16_check_key_shape(pk, &info, err) : st;
}

static void partition_clear(cuzk_post_partition_t *p)
{
    cuzk_cs_free(p->cs);
    memset(p, 0, sizeof *p);
}

static bool stop_now(const cuzk_post_prove_opts_t *o) { return o && o->should_stop && o->should_stop(o->stop_arg); }

/* The request's witness synthesized into *out (synth_ms); the caller has checked the request. On error *out is
 * empty. */
static cuzk_status synthesize_into(cuzk_post_partition_t *out, const cuzk_post_request_t *req,
                                   const cuzk_post_prove_opts_t *o, cuzk_post_timings_t *t, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    uint64_t t1 = cuzk_now_ns();
    cuzk_post_witness_t w;
    cuzk_status st = cuzk_post_request_witness(&w, req, err);
    if (st != CUZK_OK)
        return st;
    st = cuzk_cs_new(&out->cs, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, err);
    if (st == CUZK_OK)
        st = cuzk_cs_omit_c(out->cs, err); /* the prover rebuilds C·z; the proof is verified after */
    if (st == CUZK_OK) {
        cuzk_cs_set_stop(out->cs, o ? o->should_stop : NULL, o ? o->stop_arg : NULL);
        st = cuzk_post_synthesize(out->cs, &w.cfg, &w, opts_threads(o), err);
    }
    if (st == CUZK_OK)
        st = cuzk_cs_groth16_witness(out->cs, &out->gw, err);
    cuzk_post_witness_free(&w);
    if (st != CUZK_OK) {
        partition_clear(out);
        return st;
    }
    t->synth_ms += ms_since(t1);
    t->constraints = out->gw.num_constraints;
    cuzk_timing_report("post_synth", t1);
    return CUZK_OK;
}

/* A key whose input count is not the request's circuit's is refused before any synthesis. */
static cuzk_status key_inputs(const cuzk_groth16_pk_t *pk, const cuzk_post_request_t *req, cuzk_err_t *err)
{
    cuzk_post_plan_t plan;
    cuzk_status st = cuzk_post_request_plan(&plan, req, err);
    if (st != CUZK_OK)
        return st;
    size_t want = cuzk_post_num_inputs(&plan.cfg);
    if (pk->vk.ic_len != want)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "post: a proving key of %zu public inputs, the %s circuit has %zu",
                            pk->vk.ic_len ? pk->vk.ic_len - 1 : 0, plan.proof.name, want - 1);
    return CUZK_OK;
}

cuzk_status cuzk_post_partition_synthesize(cuzk_post_partition_t **out, const cuzk_post_request_t *req,
                                           const cuzk_post_prove_opts_t *opts, cuzk_err_t *err)
{
    *out = NULL;
    cuzk_post_partition_t *p = calloc(1, sizeof *p);
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "post: out of memory (partition)");
    cuzk_post_timings_t t = {0};
    cuzk_status st = synthesize_into(p, req, opts, &t, err);
    if (st != CUZK_OK) {
        free(p);
        return st;
    }
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_post_partition_prove(cuzk_groth16_proof_t *proof, const cuzk_post_partition_t *part,
                                      const cuzk_groth16_pk_t *pk, const cuzk_post_prove_opts_t *opts, cuzk_err_t *err)
{
    cuzk_groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.h_mode = CUZK_GROTH16_H_COSET; /* the H mode of Filecoin's keys */
    po.threads = opts && opts->threads > 0 ? opts->threads : 0;
    if (opts) {
        po.should_stop = opts->should_stop;
        po.stop_arg = opts->stop_arg;
    }
    return cuzk_groth16_prove(proof, pk, &part->gw, 1, &po, err);
}

void cuzk_post_partition_free(cuzk_post_partition_t *part)
{
    if (!part)
        return;
    partition_clear(part);
    free(part);
}

cuzk_status cuzk_post_prove(cuzk_groth16_proof_t *proof, const cuzk_post_request_t *req, const cuzk_groth16_pk_t *pk,
                            const cuzk_post_prove_opts_t *opts, cuzk_post_timings_t *timings, cuzk_err_t *err)
{
    cuzk_post_timings_t t = {0};
    cuzk_post_partition_t part;
    memset(&part, 0, sizeof part);
    cuzk_status st = key_inputs(pk, req, err);
    if (st == CUZK_OK && stop_now(opts))
        st = cuzk_err_set(err, CUZK_ERR_CANCELLED, "post: cancelled before the checks");
    if (st == CUZK_OK && !(opts && opts->checked)) {
        uint64_t t0 = cuzk_now_ns();
        st = cuzk_post_check_threads(req, opts_threads(opts), err);
        t.check_ms = ms_since(t0);
        cuzk_timing_report("post_check", t0);
    }
    if (st == CUZK_OK)
        st = synthesize_into(&part, req, opts, &t, err);
    if (st == CUZK_OK) {
        uint64_t t0 = cuzk_now_ns();
        st = cuzk_post_partition_prove(proof, &part, pk, opts, err);
        t.prove_ms = ms_since(t0);
        cuzk_timing_report("post_prove", t0);
    }
    partition_clear(&part);
    if (timings)
        *timings = t;
    return st;
}

cuzk_status cuzk_post_verify(bool *valid, const cuzk_post_request_t *req, const cuzk_groth16_vk_t *vk,
                             const cuzk_groth16_proof_t *proof, cuzk_err_t *err)
{
    *valid = false;
    cuzk_post_plan_t plan;
    cuzk_status st = cuzk_post_request_plan(&plan, req, err);
    if (st != CUZK_OK)
        return st;
    size_t n = cuzk_post_inputs_count(&plan.shape);
    if (vk->ic_len != n + 1)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "post verify: a verifying key of %zu public inputs, %s has %zu",
                            vk->ic_len ? vk->ic_len - 1 : 0, plan.proof.name, n);
    cuzk_scalar_t *in = malloc(n * sizeof *in);
    if (!in)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "post verify: out of memory");
    st = cuzk_post_public_inputs(in, n, &n, req, err);
    cuzk_groth16_pvk_t *pvk = NULL;
    if (st == CUZK_OK && (st = cuzk_groth16_pvk_new(&pvk, vk)) != CUZK_OK)
        cuzk_err_set(err, st, "post verify: cannot prepare the verifying key");
    bool ok = false;
    if (st == CUZK_OK)
        st = cuzk_groth16_verify(&ok, pvk, proof, in, n, err);
    cuzk_groth16_pvk_free(pvk);
    free(in);
    *valid = st == CUZK_OK && ok;
    return st;
}
