/* A SnapDeals proof request (cuzk/snap.h): what its registered update proof fixes, the checks a prover makes
 * before synthesis (storage-proofs-update vanilla.rs verify_all_partitions, through
 * vanilla/snap_vproof.h's per-partition check), a partition's public inputs (circuit.rs PublicInputs::new:
 * k_and_h_select = k | h_select << log2(partitions), comm_r_old, comm_d_new, comm_r_new) and its circuit
 * witness. */
#include "filecoin/snap/snap_request.h"

#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "filecoin/registry/snap_proof.h"
#include "filecoin/vanilla/snap_vproof.h"
#include "util/parallel.h"

/* Commitment `what` canonical: CUZK_ERR_NOT_CANONICAL naming it. */
static cuzk_status canonical(fr *out, const uint8_t b[32], const char *what, cuzk_err_t *err)
{
    if (fr_from_bytes_le(out, b))
        return CUZK_OK;
    return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "snap: %s is not a canonical field element", what);
}

cuzk_status cuzk_snap_request_plan(cuzk_snap_plan_t *plan, const cuzk_snap_request_t *req, bool with_vanilla,
                                   cuzk_err_t *err)
{
    memset(plan, 0, sizeof *plan);
    cuzk_status st = cuzk_snap_registered_proof(&plan->proof, req->proof_id, err);
    if (st == CUZK_OK)
        st = cuzk_snap_config_for_proof(&plan->cfg, req->proof_id, err);
    if (st != CUZK_OK)
        return st;
    fr x;
    if ((st = canonical(&x, req->comm_r_old, "comm_r_old", err)) != CUZK_OK ||
        (st = canonical(&x, req->comm_d_new, "comm_d_new", err)) != CUZK_OK ||
        (st = canonical(&x, req->comm_r_new, "comm_r_new", err)) != CUZK_OK)
        return st;
    if (!with_vanilla)
        return CUZK_OK;
    if (req->n_vanilla != plan->cfg.partition_count)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap: %s has %u partitions, %zu vanilla partition proofs given",
                            plan->proof.name, plan->cfg.partition_count, req->n_vanilla);
    if (!req->vanilla)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap: no vanilla partition proofs (NULL)");
    for (size_t k = 0; k < req->n_vanilla; k++)
        if (!req->vanilla[k])
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap: vanilla partition proof %zu is NULL", k);
    return CUZK_OK;
}

/* ---- checks ---------------------------------------------------------------------------------------- */

typedef struct {
    const cuzk_snap_plan_t *plan;
    const cuzk_snap_request_t *req;
    int inner;             /* threads of each partition's challenge checks */
    cuzk_status *st;
    cuzk_err_t *errs;
} check_ctx;

static cuzk_status check_one(const check_ctx *c, uint32_t k, cuzk_err_t *err)
{
    const cuzk_snap_request_t *r = c->req;
    return cuzk_fc_snap_vproof_verify(&r->vanilla[k]->v, &c->plan->cfg, k, r->comm_r_old, r->comm_d_new,
                                      r->comm_r_new, c->inner, err);
}

static void check_range(void *arg, size_t begin, size_t end)
{
    check_ctx *c = arg;
    for (size_t k = begin; k < end; k++)
        c->st[k] = check_one(c, (uint32_t)k, &c->errs[k]);
}

cuzk_status cuzk_snap_check_threads(const cuzk_snap_request_t *req, int threads, cuzk_err_t *err)
{
    if (!req)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap check: NULL request");
    cuzk_snap_plan_t plan;
    cuzk_status st = cuzk_snap_request_plan(&plan, req, true, err);
    if (st != CUZK_OK)
        return st;
    size_t n = req->n_vanilla;
    if (threads <= 0)
        threads = cuzk_cpu_count();
    /* partitions side by side, each with its share of the threads for its challenges: a sector of 16
     * partitions keeps every CPU busy, a single partition takes them all */
    int outer = threads < (int)n ? threads : (int)n;
    check_ctx c = {&plan, req, threads / outer, NULL, NULL};
    if (outer <= 1) {
        for (size_t k = 0; k < n && st == CUZK_OK; k++)
            st = check_one(&c, (uint32_t)k, err);
        return st;
    }
    c.st = malloc(n * sizeof *c.st);
    c.errs = malloc(n * sizeof *c.errs);
    if (!c.st || !c.errs) {
        free(c.st);
        free(c.errs);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap check: out of memory");
    }
    cuzk_parallel_for(outer, n, 1, check_range, &c);
    for (size_t k = 0; k < n && st == CUZK_OK; k++)
        if ((st = c.st[k]) != CUZK_OK && err)
            *err = c.errs[k];
    free(c.st);
    free(c.errs);
    return st;
}

cuzk_status cuzk_snap_check(const cuzk_snap_request_t *req, cuzk_err_t *err)
{
    return cuzk_snap_check_threads(req, 0, err);
}

/* ---- public inputs ---------------------------------------------------------------------------------- */

cuzk_status cuzk_snap_public_inputs(cuzk_scalar_t out[CUZK_SNAP_NUM_INPUTS - 1], const cuzk_snap_request_t *req,
                                    uint32_t k, cuzk_err_t *err)
{
    cuzk_snap_plan_t plan;
    cuzk_status st = cuzk_snap_request_plan(&plan, req, false, err);
    if (st != CUZK_OK)
        return st;
    if (k >= plan.cfg.partition_count)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap: partition %u of %s, which has %u", k, plan.proof.name,
                            plan.cfg.partition_count);
    uint64_t h_select = cuzk_fc_snap_h_select(&plan.cfg);
    if (h_select == 0) /* the registry's production h is always one of hs */
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap: %s: h = %u is not one of the sector size's hs",
                            plan.proof.name, plan.cfg.h);
    fr v[CUZK_SNAP_NUM_INPUTS - 1];
    fr_from_u64(&v[0], (uint64_t)k | h_select << cuzk_fc_snap_partition_bits(&plan.cfg));
    /* canonical: the plan checked them */
    (void)fr_from_bytes_le(&v[1], req->comm_r_old);
    (void)fr_from_bytes_le(&v[2], req->comm_d_new);
    (void)fr_from_bytes_le(&v[3], req->comm_r_new);
    for (int i = 0; i < CUZK_SNAP_NUM_INPUTS - 1; i++)
        fr_to_scalar(&out[i], &v[i]);
    return CUZK_OK;
}

/* ---- witness ---------------------------------------------------------------------------------------- */

cuzk_status cuzk_snap_request_witness(cuzk_snap_witness_t *w, const cuzk_snap_request_t *req, uint32_t k,
                                      cuzk_err_t *err)
{
    memset(w, 0, sizeof *w);
    cuzk_snap_plan_t plan;
    cuzk_status st = cuzk_snap_request_plan(&plan, req, true, err);
    if (st != CUZK_OK)
        return st;
    if (k >= plan.cfg.partition_count)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap: partition %u of %s, which has %u", k, plan.proof.name,
                            plan.cfg.partition_count);
    st = cuzk_snap_witness_init(w, &plan.cfg, err);
    if (st == CUZK_OK)
        st = cuzk_fc_snap_vproof_witness(w, &req->vanilla[k]->v, k, req->comm_r_old, req->comm_d_new,
                                         req->comm_r_new, err);
    if (st != CUZK_OK)
        cuzk_snap_witness_free(w);
    return st;
}
