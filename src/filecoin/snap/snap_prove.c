/* SnapDeals proving and verification (cuzk/snap.h): development setup and key checks of the
 * EmptySectorUpdate circuit, a partition turned into the circuit's witness and synthesized by the direct
 * backend, its Groth16 proof, every partition of a sector in turn (EmptySectorUpdateCompound's
 * prove_with_vanilla), and verification of each partition's proof against public inputs recomputed from
 * the request (never from the proofs' own claims). Partition k + 1 is synthesized while partition k is
 * proved when a second direct system fits in memory beside the prover's buffers (about 8 GB a system at
 * 32GiB, 1 GB at 8MiB); otherwise one after the other. The engine pipelines partitions under its own memory
 * budget instead. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/circuit_keys.h"
#include "filecoin/snap/snap_request.h"
#include "util/bigmem.h"
#include "util/overlap.h"
#include "util/parallel.h"
#include "util/timer.h"
#include "util/timing.h"

/* The public cuzk_snap_partition_t: a direct system and the prover's view of it (gw points into cs). */
struct cuzk_snap_partition {
    cuzk_cs_t *cs;
    cuzk_groth16_witness_t gw;
};

static double ms_since(uint64_t t0) { return (double)(cuzk_now_ns() - t0) / 1e6; }

static int opts_threads(const cuzk_snap_prove_opts_t *o) { return o && o->threads > 0 ? o->threads : cuzk_cpu_count(); }

static bool stop_now(const cuzk_snap_prove_opts_t *o) { return o && o->should_stop && o->should_stop(o->stop_arg); }

/* The blank circuit on the record backend (its synthesis is sequential: snap.h). */
static cuzk_status record_blank(cuzk_cs_t *cs, const void *cfg, cuzk_err_t *err)
{
    return cuzk_snap_synthesize(cs, cfg, NULL, 1, err);
}

cuzk_status cuzk_snap_dev_setup(cuzk_groth16_pk_t *pk, const cuzk_snap_config_t *cfg, int threads, cuzk_err_t *err)
{
    return cuzk_groth16_setup_circuit(pk, record_blank, cfg, threads, err);
}

cuzk_status cuzk_snap_check_key(const cuzk_groth16_pk_t *pk, const cuzk_snap_config_t *cfg, cuzk_err_t *err)
{
    cuzk_circuit_info_t info;
    cuzk_status st = cuzk_snap_circuit_info(&info, cfg, false, err);
    return st == CUZK_OK ? cuzk_groth16_check_key_shape(pk, &info, err) : st;
}

static void partition_clear(cuzk_snap_partition_t *p)
{
    cuzk_cs_free(p->cs);
    memset(p, 0, sizeof *p);
}

/* Partition k of the request synthesized into *out (synth_ms added to t); the caller has checked the
 * request. On error *out is empty. */
static cuzk_status synthesize_into(cuzk_snap_partition_t *out, const cuzk_snap_request_t *req, uint32_t k,
                                   const cuzk_snap_prove_opts_t *o, cuzk_snap_timings_t *t, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    if (stop_now(o))
        return cuzk_err_set(err, CUZK_ERR_CANCELLED, "snap: partition %u: cancelled before synthesis", k);
    uint64_t t1 = cuzk_now_ns();
    cuzk_snap_witness_t w;
    cuzk_status st = cuzk_snap_request_witness(&w, req, k, err);
    if (st != CUZK_OK)
        return st;
    st = cuzk_cs_new(&out->cs, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, err);
    if (st == CUZK_OK)
        st = cuzk_cs_omit_c(out->cs, err); /* the prover rebuilds C·z; the proof is verified after */
    if (st == CUZK_OK) {
        cuzk_cs_set_stop(out->cs, o ? o->should_stop : NULL, o ? o->stop_arg : NULL);
        st = cuzk_snap_synthesize(out->cs, &w.cfg, &w, opts_threads(o), err);
    }
    if (st == CUZK_OK)
        st = cuzk_cs_groth16_witness(out->cs, &out->gw, err);
    cuzk_snap_witness_free(&w);
    if (st != CUZK_OK) {
        partition_clear(out);
        return st;
    }
    if (t) {
        t->synth_ms += ms_since(t1);
        t->constraints = out->gw.num_constraints;
    }
    cuzk_timing_report("snap_synth", t1);
    return CUZK_OK;
}

/* A key whose input count is not the circuit's is refused before any synthesis (a key of another sector
 * size has the same inputs: the prover's length checks name it). */
static cuzk_status key_inputs(const cuzk_groth16_pk_t *pk, const cuzk_snap_plan_t *plan, cuzk_err_t *err)
{
    if (pk->vk.ic_len != CUZK_SNAP_NUM_INPUTS)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "snap: a proving key of %zu public inputs, the %s circuit has %d",
                            pk->vk.ic_len ? pk->vk.ic_len - 1 : 0, plan->proof.name, CUZK_SNAP_NUM_INPUTS - 1);
    return CUZK_OK;
}

cuzk_status cuzk_snap_partition_synthesize(cuzk_snap_partition_t **out, const cuzk_snap_request_t *req, uint32_t k,
                                           const cuzk_snap_prove_opts_t *opts, cuzk_err_t *err)
{
    *out = NULL;
    cuzk_snap_partition_t *p = calloc(1, sizeof *p);
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap: out of memory (partition)");
    cuzk_status st = synthesize_into(p, req, k, opts, NULL, err);
    if (st != CUZK_OK) {
        free(p);
        return st;
    }
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_snap_partition_prove(cuzk_groth16_proof_t *proof, const cuzk_snap_partition_t *part,
                                      const cuzk_groth16_pk_t *pk, const cuzk_snap_prove_opts_t *opts, cuzk_err_t *err)
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

void cuzk_snap_partition_free(cuzk_snap_partition_t *part)
{
    if (!part)
        return;
    partition_clear(part);
    free(part);
}

/* ---- every partition: synthesis of the next beside the proof of the current when memory allows ---- */

typedef struct {
    const cuzk_snap_request_t *req;
    const cuzk_groth16_pk_t *pk;
    cuzk_groth16_proof_t *proofs;
    cuzk_snap_timings_t *t;
    const cuzk_snap_prove_opts_t *user;
    cuzk_snap_prove_opts_t o; /* the caller's, its stop request behind stop_lock */
    pthread_mutex_t stop_lock;
    bool overlapped;
} proving_t;

static bool locked_stop(void *arg)
{
    proving_t *pr = arg;
    pthread_mutex_lock(&pr->stop_lock);
    bool stop = pr->user->should_stop(pr->user->stop_arg);
    pthread_mutex_unlock(&pr->stop_lock);
    return stop;
}

static cuzk_status make_partition(void *ctx, uint32_t k, void **item, cuzk_err_t *err)
{
    proving_t *pr = ctx;
    cuzk_snap_partition_t *p = calloc(1, sizeof *p);
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap: out of memory (partition %u)", k);
    cuzk_status st = synthesize_into(p, pr->req, k, &pr->o, pr->t, err);
    if (st != CUZK_OK) {
        free(p);
        return st;
    }
    *item = p;
    return CUZK_OK;
}

static cuzk_status prove_partition(void *ctx, uint32_t k, void *item, cuzk_err_t *err)
{
    proving_t *pr = ctx;
    uint64_t t0 = cuzk_now_ns();
    cuzk_status st = cuzk_snap_partition_prove(&pr->proofs[k], item, pr->pk, &pr->o, err);
    pr->t->prove_ms += ms_since(t0);
    cuzk_timing_report("snap_prove", t0);
    return st;
}

static void drop_partition(void *ctx, void *item)
{
    (void)ctx;
    cuzk_snap_partition_free(item);
}

/* Whether a second partition's system fits in the memory available now beside the prover's buffers (three
 * arrays of the FFT domain's size), with a tenth to spare. */
static bool second_fits(void *ctx, const void *first)
{
    proving_t *pr = ctx;
    const cuzk_groth16_witness_t *gw = &((const cuzk_snap_partition_t *)first)->gw;
    unsigned long long system = (gw->num_inputs + gw->num_aux) * 32ull + gw->num_constraints * 64ull;
    unsigned long long domain = 1;
    while (domain < gw->num_constraints + gw->num_inputs)
        domain <<= 1;
    pr->overlapped = cuzk_mem_available() / 11 * 10 >= system + 3 * domain * 32;
    return pr->overlapped;
}

cuzk_status cuzk_snap_prove(cuzk_groth16_proof_t *proofs, size_t n_proofs, const cuzk_snap_request_t *req,
                            const cuzk_groth16_pk_t *pk, const cuzk_snap_prove_opts_t *opts,
                            cuzk_snap_timings_t *timings, cuzk_err_t *err)
{
    cuzk_snap_timings_t t = {0};
    cuzk_snap_plan_t plan;
    cuzk_status st = cuzk_snap_request_plan(&plan, req, true, err);
    if (st == CUZK_OK && n_proofs < plan.cfg.partition_count)
        st = cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "snap: room for %zu proofs, %s has %u partitions", n_proofs,
                          plan.proof.name, plan.cfg.partition_count);
    if (st == CUZK_OK)
        st = key_inputs(pk, &plan, err);
    if (st == CUZK_OK && stop_now(opts))
        st = cuzk_err_set(err, CUZK_ERR_CANCELLED, "snap: cancelled before the checks");
    if (st == CUZK_OK && !(opts && opts->checked)) {
        uint64_t t0 = cuzk_now_ns();
        st = cuzk_snap_check_threads(req, opts_threads(opts), err);
        t.check_ms = ms_since(t0);
        cuzk_timing_report("snap_check", t0);
    }
    if (st == CUZK_OK) {
        proving_t pr = {.req = req, .pk = pk, .proofs = proofs, .t = &t, .user = opts};
        pthread_mutex_init(&pr.stop_lock, NULL);
        if (opts)
            pr.o = *opts;
        if (pr.o.should_stop) { /* polled by synthesis and proof at once: one call at a time */
            pr.o.should_stop = locked_stop;
            pr.o.stop_arg = &pr;
        }
        cuzk_overlap_t ov = {.ctx = &pr, .make = make_partition, .use = prove_partition, .drop = drop_partition,
                             .overlap = second_fits};
        st = cuzk_overlap_run(&ov, plan.cfg.partition_count, err);
        t.overlapped = pr.overlapped;
        pthread_mutex_destroy(&pr.stop_lock);
    }
    if (timings)
        *timings = t;
    return st;
}

cuzk_status cuzk_snap_verify(bool *valid, const cuzk_snap_request_t *req, const cuzk_groth16_vk_t *vk,
                             const cuzk_groth16_proof_t *proofs, size_t n_proofs, cuzk_err_t *err)
{
    *valid = false;
    cuzk_snap_plan_t plan;
    cuzk_status st = cuzk_snap_request_plan(&plan, req, false, err);
    if (st != CUZK_OK)
        return st;
    if (vk->ic_len != CUZK_SNAP_NUM_INPUTS)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "snap verify: a verifying key of %zu public inputs, %s has %d",
                            vk->ic_len ? vk->ic_len - 1 : 0, plan.proof.name, CUZK_SNAP_NUM_INPUTS - 1);
    if (n_proofs != plan.cfg.partition_count)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "snap verify: %zu proofs, %s has %u partitions", n_proofs,
                            plan.proof.name, plan.cfg.partition_count);
    cuzk_groth16_pvk_t *pvk = NULL;
    if ((st = cuzk_groth16_pvk_new(&pvk, vk)) != CUZK_OK)
        return cuzk_err_set(err, st, "snap verify: cannot prepare the verifying key");
    bool all = true;
    for (uint32_t k = 0; k < n_proofs && st == CUZK_OK && all; k++) {
        cuzk_scalar_t in[CUZK_SNAP_NUM_INPUTS - 1];
        bool ok = false;
        st = cuzk_snap_public_inputs(in, req, k, err);
        if (st == CUZK_OK)
            st = cuzk_groth16_verify(&ok, pvk, &proofs[k], in, CUZK_SNAP_NUM_INPUTS - 1, err);
        all = all && ok;
    }
    cuzk_groth16_pvk_free(pvk);
    *valid = st == CUZK_OK && all;
    return st;
}
