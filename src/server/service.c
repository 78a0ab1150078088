/* The cuzk.v1.ProvingEngine service: each RPC unpacks its protobuf request, calls the engine and packs
 * the reply. A request that does not decode, or that the engine rejects, gets an error status with the
 * reason and the daemon goes on serving. Prove waits on the caller's behalf (the engine cancels the job
 * when nobody is left waiting for it and nobody submitted it with SubmitProof). A result whose reply
 * cannot be sent goes back to the engine, awaitable again. */
#include "server/service.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/v1/proving.pb-c.h"
#include "server/rpc_message.h"

static grpc_status_code grpc_code(cuzk_status st)
{
    switch (st) {
    case CUZK_OK: return GRPC_STATUS_OK;
    case CUZK_ERR_UNSUPPORTED: return GRPC_STATUS_UNIMPLEMENTED;
    case CUZK_ERR_NO_MEMORY: return GRPC_STATUS_RESOURCE_EXHAUSTED;
    case CUZK_ERR_IO: return GRPC_STATUS_FAILED_PRECONDITION;
    case CUZK_ERR_MISMATCH: return GRPC_STATUS_FAILED_PRECONDITION;
    case CUZK_ERR_CANCELLED: return GRPC_STATUS_CANCELLED;
    case CUZK_ERR_SHUTTING_DOWN: return GRPC_STATUS_UNAVAILABLE; /* retryable: a client may go elsewhere */
    default: return GRPC_STATUS_INVALID_ARGUMENT;
    }
}

/* Every text field goes out as valid UTF-8 (rpc_message.h). Returns whether the response went out. */
static bool reply_msg(cuzk_rpc_call_t *call, ProtobufCMessage *m) { return cuzk_rpc_reply_message(call, m); }

static void reply_error(cuzk_rpc_call_t *call, cuzk_status st, const char *msg)
{
    cuzk_rpc_reply(call, grpc_code(st), msg, NULL, 0);
}

/* Checks and decodes the request into var (text fields UTF-8 without NUL, input within its kind's
 * limit: rpc_message.h), or replies INVALID_ARGUMENT with the reason and returns. stem: the
 * generated names' (cuzk__v1__<stem>__descriptor). */
#define UNPACK(name, stem, var, call, req, len)                                                                  \
    Cuzk__V1__##name *var = (Cuzk__V1__##name *)cuzk_rpc_unpack(call, &cuzk__v1__##stem##__descriptor, req, len); \
    if (!var)                                                                                                    \
        return;

/* The engine's view of a SubmitProofRequest: q points into r and into *vp (PoSt's sector proofs,
 * SnapDeals' partition proofs as the engine's byte strings; free(*vp) when done). */
static cuzk_status engine_request(cuzk_job_request_t *q, cuzk_job_bytes_t **vp, const Cuzk__V1__SubmitProofRequest *r,
                                  cuzk_err_t *err)
{
    *vp = NULL;
    if (r->n_vanilla_proofs && !(*vp = calloc(r->n_vanilla_proofs, sizeof **vp)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory for %zu vanilla proofs", r->n_vanilla_proofs);
    for (size_t i = 0; i < r->n_vanilla_proofs; i++)
        (*vp)[i] = (cuzk_job_bytes_t){r->vanilla_proofs[i].data, r->vanilla_proofs[i].len};
    bool porep = r->proof_kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    *q = (cuzk_job_request_t){
        .request_id = r->request_id,
        .kind = (cuzk_proof_kind)r->proof_kind,
        .priority = (cuzk_priority)r->priority,
        .sector_size = r->sector_size,
        .registered_proof = r->registered_proof,
        .vanilla_proof = r->vanilla_proof.data,
        .vanilla_proof_len = r->vanilla_proof.len,
        .sector_number = r->sector_number,
        .miner_id = r->miner_id,
        /* Curio always sends both for a PoRep; a request without a miner id cannot name its sector */
        .has_sector_and_miner = porep && r->miner_id != 0,
        .vanilla_proofs = *vp,
        .n_vanilla_proofs = r->n_vanilla_proofs,
        .randomness = r->randomness.data,
        .randomness_len = r->randomness.len,
        .partition_index = r->partition_index,
        /* SnapDeals: raw 32-byte commitments (absent fields: length 0, refused for SnapDeals) */
        .comm_r_old = r->comm_r_old.data,
        .comm_d_new = r->comm_d_new.data,
        .comm_r_new = r->comm_r_new.data,
        .comm_r_old_len = r->comm_r_old.len,
        .comm_d_new_len = r->comm_d_new.len,
        .comm_r_new_len = r->comm_r_new.len,
    };
    return CUZK_OK;
}

static cuzk_status submit(cuzk_engine_t *e, const Cuzk__V1__SubmitProofRequest *r, char job_id[CUZK_JOB_ID_MAX],
                          uint32_t *pos, cuzk_err_t *err)
{
    cuzk_job_request_t q;
    cuzk_job_bytes_t *vp;
    cuzk_status st = engine_request(&q, &vp, r, err);
    if (st == CUZK_OK)
        st = cuzk_engine_submit(e, &q, job_id, pos, err);
    free(vp);
    return st;
}

static void submit_proof(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    UNPACK(SubmitProofRequest, submit_proof_request, r, call, req, len);
    char id[CUZK_JOB_ID_MAX];
    uint32_t pos = 0;
    cuzk_err_t err = {{0}};
    cuzk_status st = submit(ctx, r, id, &pos, &err);
    cuzk__v1__submit_proof_request__free_unpacked(r, NULL);
    if (st != CUZK_OK) {
        reply_error(call, st, err.msg);
        return;
    }
    Cuzk__V1__SubmitProofResponse resp = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
    resp.job_id = id;
    resp.queue_position = pos;
    reply_msg(call, &resp.base);
}

static bool call_gone(void *call) { return cuzk_rpc_client_gone(call); }

/* Fills an AwaitProofResponse from a result (the strings and proof point into res). */
static void fill_await(Cuzk__V1__AwaitProofResponse *out, char *job_id, cuzk_job_result_t *res)
{
    out->job_id = job_id;
    out->status = (Cuzk__V1__AwaitProofResponse__Status)res->status;
    out->proof.data = res->proof;
    out->proof.len = res->proof_len;
    out->error_message = res->error;
    out->queue_wait_ms = res->queue_wait_ms;
    out->srs_load_ms = res->srs_load_ms;
    out->synthesis_ms = res->synthesis_ms;
    out->gpu_compute_ms = res->prove_ms; /* the proving time, on the CPU here */
    out->total_ms = res->total_ms;
}

static void await_proof(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    UNPACK(AwaitProofRequest, await_proof_request, r, call, req, len);
    char id[CUZK_JOB_ID_MAX];
    snprintf(id, sizeof id, "%s", r->job_id);
    uint64_t timeout = r->timeout_ms;
    cuzk__v1__await_proof_request__free_unpacked(r, NULL);
    cuzk_job_result_t res;
    cuzk_engine_await(ctx, id, timeout, &res, call_gone, call);
    if (res.status == CUZK_JOB_UNKNOWN) {
        cuzk_rpc_reply(call, GRPC_STATUS_NOT_FOUND, res.error, NULL, 0);
        return;
    }
    Cuzk__V1__AwaitProofResponse resp = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    fill_await(&resp, id, &res);
    if (!reply_msg(call, &resp.base))
        cuzk_engine_delivery_failed(ctx, id, &res);
    cuzk_job_result_free(&res);
}

/* A Prove call while it waits: its request is freed once the engine has copied it. */
typedef struct {
    cuzk_rpc_call_t *call;
    Cuzk__V1__ProveRequest *req;
    cuzk_job_bytes_t *vp;
} prove_call_t;

static bool prove_gone(void *p) { return cuzk_rpc_client_gone(((prove_call_t *)p)->call); }

static void prove_request_done(void *p)
{
    prove_call_t *pc = p;
    cuzk__v1__prove_request__free_unpacked(pc->req, NULL);
    pc->req = NULL;
    free(pc->vp);
    pc->vp = NULL;
}

static void prove(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    UNPACK(ProveRequest, prove_request, r, call, req, len);
    prove_call_t pc = {call, r, NULL};
    char id[CUZK_JOB_ID_MAX];
    cuzk_err_t err = {{0}};
    cuzk_job_request_t q;
    cuzk_job_result_t res;
    cuzk_status st = r->submit ? engine_request(&q, &pc.vp, r->submit, &err)
                               : cuzk_err_set(&err, CUZK_ERR_INVALID_ARG, "ProveRequest without submit");
    if (st != CUZK_OK) {
        prove_request_done(&pc);
        reply_error(call, st, err.msg);
        return;
    }
    st = cuzk_engine_prove(ctx, &q, id, &res, prove_gone, prove_request_done, &pc, &err);
    if (st != CUZK_OK) {
        reply_error(call, st, err.msg);
        return;
    }
    if (!res.handed_over) { /* the client went away before the result */
        cuzk_rpc_reply(call, GRPC_STATUS_CANCELLED, "the client went away", NULL, 0);
        return;
    }
    Cuzk__V1__AwaitProofResponse result = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    fill_await(&result, id, &res);
    Cuzk__V1__ProveResponse resp = CUZK__V1__PROVE_RESPONSE__INIT;
    resp.result = &result;
    if (!reply_msg(call, &resp.base)) /* a retry of the same request_id gets it at once */
        cuzk_engine_delivery_failed(ctx, id, &res);
    cuzk_job_result_free(&res);
}

static void cancel_proof(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    UNPACK(CancelProofRequest, cancel_proof_request, r, call, req, len);
    bool found, running;
    cuzk_engine_cancel(ctx, r->job_id, &found, &running);
    char msg[CUZK_JOB_ID_MAX + 64];
    snprintf(msg, sizeof msg, "no queued or running job %.*s", CUZK_JOB_ID_MAX - 1, r->job_id);
    cuzk__v1__cancel_proof_request__free_unpacked(r, NULL);
    if (!found) {
        cuzk_rpc_reply(call, GRPC_STATUS_NOT_FOUND, msg, NULL, 0);
        return;
    }
    Cuzk__V1__CancelProofResponse resp = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
    resp.was_running = running;
    reply_msg(call, &resp.base);
}

static void get_status(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    UNPACK(GetStatusRequest, get_status_request, r, call, req, len);
    cuzk__v1__get_status_request__free_unpacked(r, NULL);
    cuzk_engine_status_t s;
    cuzk_engine_status(ctx, &s);
    Cuzk__V1__SRSStatus srs[sizeof s.srs / sizeof s.srs[0]];
    Cuzk__V1__SRSStatus *srs_p[sizeof s.srs / sizeof s.srs[0]];
    for (size_t i = 0; i < s.n_srs; i++) {
        Cuzk__V1__SRSStatus x = CUZK__V1__SRSSTATUS__INIT;
        x.circuit_id = s.srs[i].circuit_id;
        x.tier = CUZK__V1__SRSSTATUS__TIER__HOT;
        x.size_bytes = s.srs[i].size_bytes;
        x.ref_count = s.srs[i].ref_count;
        srs[i] = x;
        srs_p[i] = &srs[i];
    }
    Cuzk__V1__QueueStatus queues[CUZK_KIND_COUNT - 1], *queues_p[CUZK_KIND_COUNT - 1];
    for (int k = 1; k < CUZK_KIND_COUNT; k++) {
        Cuzk__V1__QueueStatus q = CUZK__V1__QUEUE_STATUS__INIT;
        q.proof_kind = (char *)cuzk_proof_kind_label((cuzk_proof_kind)k);
        q.pending = s.pending_by_kind[k];
        q.in_progress = s.running_by_kind[k];
        queues[k - 1] = q;
        queues_p[k - 1] = &queues[k - 1];
    }
    Cuzk__V1__GetStatusResponse resp = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    resp.n_loaded_srs = s.n_srs;
    resp.loaded_srs = srs_p;
    resp.n_queues = CUZK_KIND_COUNT - 1;
    resp.queues = queues_p;
    resp.total_proofs_completed = s.completed;
    resp.total_proofs_failed = s.failed;
    resp.uptime_seconds = s.uptime_s;
    reply_msg(call, &resp.base);
}

static void get_metrics(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    UNPACK(GetMetricsRequest, get_metrics_request, r, call, req, len);
    cuzk__v1__get_metrics_request__free_unpacked(r, NULL);
    char *text = cuzk_engine_metrics_text(ctx);
    if (!text) {
        cuzk_rpc_reply(call, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory for the metrics", NULL, 0);
        return;
    }
    Cuzk__V1__GetMetricsResponse resp = CUZK__V1__GET_METRICS_RESPONSE__INIT;
    resp.prometheus_text = text;
    reply_msg(call, &resp.base);
    free(text);
}

static void preload_srs(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    UNPACK(PreloadSrsRequest, preload_srs_request, r, call, req, len);
    bool already = false;
    uint64_t ms = 0;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_engine_preload(ctx, r->circuit_id, &already, &ms, &err);
    cuzk__v1__preload_srs_request__free_unpacked(r, NULL);
    if (st != CUZK_OK) {
        reply_error(call, st, err.msg);
        return;
    }
    Cuzk__V1__PreloadSrsResponse resp = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
    resp.already_loaded = already;
    resp.load_time_ms = ms;
    reply_msg(call, &resp.base);
}

static void evict_srs(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    UNPACK(EvictSrsRequest, evict_srs_request, r, call, req, len);
    bool was = false;
    uint64_t freed = 0;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_engine_evict(ctx, r->circuit_id, &was, &freed, &err);
    cuzk__v1__evict_srs_request__free_unpacked(r, NULL);
    if (st != CUZK_OK) {
        reply_error(call, st, err.msg);
        return;
    }
    Cuzk__V1__EvictSrsResponse resp = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
    resp.was_loaded = was;
    resp.freed_bytes = freed;
    reply_msg(call, &resp.base);
}

static const cuzk_rpc_method_t methods[] = {
    {"/cuzk.v1.ProvingEngine/SubmitProof", submit_proof}, {"/cuzk.v1.ProvingEngine/AwaitProof", await_proof},
    {"/cuzk.v1.ProvingEngine/Prove", prove},              {"/cuzk.v1.ProvingEngine/CancelProof", cancel_proof},
    {"/cuzk.v1.ProvingEngine/GetStatus", get_status},     {"/cuzk.v1.ProvingEngine/GetMetrics", get_metrics},
    {"/cuzk.v1.ProvingEngine/PreloadSRS", preload_srs},   {"/cuzk.v1.ProvingEngine/EvictSRS", evict_srs},
};

const cuzk_rpc_method_t *cuzk_service_methods(size_t *n)
{
    *n = sizeof methods / sizeof methods[0];
    return methods;
}
