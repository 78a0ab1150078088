/* The cuzk.v1 service over a real engine, its handlers called in-process (cuzk_rpc_call_local) with
 * a client that is there or gone from the start (fast, no parameters): a result whose reply did not
 * reach its client stays awaitable, for AwaitProof and for Prove (whose retry then gets it at once),
 * and a Prove whose client is gone cancels the job only it submitted. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/v1/proving.pb-c.h"
#include "server/rpc_client.h"
#include "server/rpc_server.h"
#include "server/service.h"
#include "test_util.h"

static grpc_status_code call(cuzk_engine_t *e, const char *method, const ProtobufCMessage *req, bool gone,
                             cuzk_rpc_result_t *res)
{
    size_t n_methods, len = protobuf_c_message_get_packed_size(req);
    const cuzk_rpc_method_t *methods = cuzk_service_methods(&n_methods), *m = NULL;
    char path[96];
    snprintf(path, sizeof path, "/cuzk.v1.ProvingEngine/%s", method);
    for (size_t i = 0; i < n_methods; i++)
        if (strcmp(methods[i].path, path) == 0)
            m = &methods[i];
    uint8_t *buf = malloc(len ? len : 1);
    protobuf_c_message_pack(req, buf);
    grpc_status_code code = cuzk_rpc_call_local(m, e, NULL, buf, len, gone, res);
    free(buf);
    return code;
}

/* AwaitProof(id) by a client that stays: the status of the result, or -1 for a gRPC error. */
static int await_status(cuzk_engine_t *e, const char *id, size_t *proof_len)
{
    Cuzk__V1__AwaitProofRequest req = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    req.job_id = (char *)id;
    req.timeout_ms = 5000;
    cuzk_rpc_result_t res;
    int st = -1;
    if (call(e, "AwaitProof", &req.base, false, &res) == GRPC_STATUS_OK) {
        Cuzk__V1__AwaitProofResponse *r = cuzk__v1__await_proof_response__unpack(NULL, res.len, res.data);
        if (r) {
            st = (int)r->status;
            if (proof_len)
                *proof_len = r->proof.len;
            cuzk__v1__await_proof_response__free_unpacked(r, NULL);
        }
    }
    cuzk_rpc_result_free(&res);
    return st;
}

static Cuzk__V1__SubmitProofRequest bad_c1(const char *id)
{
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r.request_id = (char *)id;
    r.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    r.vanilla_proof.data = (uint8_t *)"{\"bad\":1}"; /* fails when it starts: the C1 does not parse */
    r.vanilla_proof.len = 9;
    return r;
}

int main(void)
{
    test_init("test_service");
    cuzk_engine_config_t cfg;
    cuzk_engine_config_defaults(&cfg);
    cfg.param_cache = "/nonexistent-params";
    cfg.total_budget = 1ull << 30;
    cfg.log = NULL;
    cuzk_engine_t *e = NULL;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_engine_new(&e, &cfg, &err) == CUZK_OK, "%s", err.msg);
    cuzk_rpc_result_t res;

    /* AwaitProof whose client is gone when the (FAILED) result comes: not lost */
    Cuzk__V1__SubmitProofRequest sub = bad_c1("f");
    CHECK(call(e, "SubmitProof", &sub.base, false, &res) == GRPC_STATUS_OK);
    cuzk_rpc_result_free(&res);
    cuzk_engine_status_t s;
    for (int i = 0; i < 5000; i++, usleep(1000)) {
        cuzk_engine_status(e, &s);
        if (s.failed == 1)
            break;
    }
    Cuzk__V1__AwaitProofRequest aw = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    aw.job_id = "f";
    call(e, "AwaitProof", &aw.base, true, &res);
    cuzk_rpc_result_free(&res);
    int st = await_status(e, "f", NULL);
    CHECK_MSG(st == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED, "after an undelivered reply: %d", st);
    CHECK(await_status(e, "f", NULL) == -1); /* delivered: NOT_FOUND */

    /* Prove whose client is gone from the start: the job only it submitted is cancelled */
    cuzk_engine_pause(e, true);
    Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
    sub = bad_c1("p");
    pr.submit = &sub;
    CHECK(call(e, "Prove", &pr.base, true, &res) == GRPC_STATUS_CANCELLED);
    cuzk_rpc_result_free(&res);
    cuzk_engine_status(e, &s);
    CHECK(s.pending_by_kind[CUZK_KIND_POREP_SEAL_COMMIT] == 0);
    CHECK(await_status(e, "p", NULL) == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED);
    /* ... and one submitted with SubmitProof is not */
    sub = bad_c1("kept"); /* pr.submit */
    CHECK(call(e, "SubmitProof", &sub.base, false, &res) == GRPC_STATUS_OK);
    cuzk_rpc_result_free(&res);
    CHECK(call(e, "Prove", &pr.base, true, &res) == GRPC_STATUS_CANCELLED);
    cuzk_rpc_result_free(&res);
    cuzk_engine_status(e, &s);
    CHECK_MSG(s.pending_by_kind[CUZK_KIND_POREP_SEAL_COMMIT] == 1, "%u queued",
              s.pending_by_kind[CUZK_KIND_POREP_SEAL_COMMIT]);
    bool found, running;
    cuzk_engine_cancel(e, "kept", &found, &running);
    CHECK(found);

    /* Prove of a COMPLETED result whose reply does not go out: the retry gets it */
    uint8_t proof[192] = {7};
    cuzk_job_result_t done = {.status = CUZK_JOB_COMPLETED, .proof = proof, .proof_len = 192, .handed_over = true};
    cuzk_engine_delivery_failed(e, "done", &done);
    sub = bad_c1("done");
    call(e, "Prove", &pr.base, true, &res);
    cuzk_rpc_result_free(&res);
    size_t plen = 0;
    st = await_status(e, "done", &plen);
    CHECK_MSG(st == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED && plen == 192,
              "after Prove's undelivered reply: %d", st);
    cuzk_engine_status(e, &s);
    CHECK(s.pending_by_kind[CUZK_KIND_POREP_SEAL_COMMIT] == 0); /* a result, not a new job */

    cuzk_engine_free(e);
    return test_finish();
}
