/* The cuzk.v1.ProvingEngine service: each RPC unpacks its protobuf request, calls the engine and packs
 * the reply. A request that does not decode, or that the engine rejects, gets an error status with the
 * reason and the daemon goes on serving. Prove waits on the caller's behalf and abandons the job when
 * the caller goes away. */
#include "server/service.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/v1/proving.pb-c.h"

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

static void reply_msg(cuzk_rpc_call_t *call, const ProtobufCMessage *m)
{
    size_t len = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        cuzk_rpc_reply(call, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory for the reply", NULL, 0);
        return;
    }
    protobuf_c_message_pack(m, buf);
    cuzk_rpc_reply(call, GRPC_STATUS_OK, NULL, buf, len);
    free(buf);
}

static void reply_error(cuzk_rpc_call_t *call, cuzk_status st, const char *msg)
{
    cuzk_rpc_reply(call, grpc_code(st), msg, NULL, 0);
}

/* Decodes the request into var, or replies INVALID_ARGUMENT naming the message and returns. */
#define UNPACK(name, fn, var, call, req, len)                                                      \
    Cuzk__V1__##name *var = fn(NULL, len, req);                                                    \
    if (!var) {                                                                                    \
        cuzk_rpc_reply(call, GRPC_STATUS_INVALID_ARGUMENT, "malformed " #name " message", NULL, 0); \
        return;                                                                                    \
    }

static cuzk_status submit(cuzk_engine_t *e, const Cuzk__V1__SubmitProofRequest *r, char job_id[CUZK_JOB_ID_MAX],
                          uint32_t *pos, cuzk_err_t *err)
{
    /* PoSt's sector proofs, SnapDeals' partition proofs: the engine's byte strings over the message's
     * (copied by the engine) */
    cuzk_job_bytes_t *vp = NULL;
    if (r->n_vanilla_proofs && !(vp = calloc(r->n_vanilla_proofs, sizeof *vp)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory for %zu vanilla proofs", r->n_vanilla_proofs);
    for (size_t i = 0; i < r->n_vanilla_proofs; i++)
        vp[i] = (cuzk_job_bytes_t){r->vanilla_proofs[i].data, r->vanilla_proofs[i].len};
    bool porep = r->proof_kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    cuzk_job_request_t q = {
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
        .vanilla_proofs = vp,
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
    cuzk_status st = cuzk_engine_submit(e, &q, job_id, pos, err);
    free(vp);
    return st;
}

static void submit_proof(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    UNPACK(SubmitProofRequest, cuzk__v1__submit_proof_request__unpack, r, call, req, len);
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
    UNPACK(AwaitProofRequest, cuzk__v1__await_proof_request__unpack, r, call, req, len);
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
    reply_msg(call, &resp.base);
    cuzk_job_result_free(&res);
}

static void prove(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    UNPACK(ProveRequest, cuzk__v1__prove_request__unpack, r, call, req, len);
    char id[CUZK_JOB_ID_MAX];
    cuzk_err_t err = {{0}};
    cuzk_status st = r->submit ? submit(ctx, r->submit, id, NULL, &err)
                               : cuzk_err_set(&err, CUZK_ERR_INVALID_ARG, "ProveRequest without submit");
    cuzk__v1__prove_request__free_unpacked(r, NULL);
    if (st != CUZK_OK) {
        reply_error(call, st, err.msg);
        return;
    }
    cuzk_job_result_t res;
    cuzk_engine_await(ctx, id, 0, &res, call_gone, call);
    if (cuzk_rpc_client_gone(call)) {
        cuzk_engine_abandon(ctx, id);
        cuzk_job_result_free(&res);
        cuzk_rpc_reply(call, GRPC_STATUS_CANCELLED, "the client went away", NULL, 0);
        return;
    }
    Cuzk__V1__AwaitProofResponse result = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    fill_await(&result, id, &res);
    Cuzk__V1__ProveResponse resp = CUZK__V1__PROVE_RESPONSE__INIT;
    resp.result = &result;
    reply_msg(call, &resp.base);
    cuzk_job_result_free(&res);
}

static void cancel_proof(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    UNPACK(CancelProofRequest, cuzk__v1__cancel_proof_request__unpack, r, call, req, len);
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
    UNPACK(GetStatusRequest, cuzk__v1__get_status_request__unpack, r, call, req, len);
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
    UNPACK(GetMetricsRequest, cuzk__v1__get_metrics_request__unpack, r, call, req, len);
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
    UNPACK(PreloadSrsRequest, cuzk__v1__preload_srs_request__unpack, r, call, req, len);
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
    UNPACK(EvictSrsRequest, cuzk__v1__evict_srs_request__unpack, r, call, req, len);
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
