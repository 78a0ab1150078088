/* libFuzzer target for the gRPC request path: protobuf bytes -> the cuzk.v1 service's handlers (through
 * cuzk_rpc_call_local: the transport's checks, decoding, the engine's submission checks and the reply's
 * encoding, without a network) over a paused engine, so that jobs stay queued and are cancelled after
 * each input. The first byte picks the method, the rest is its request. Checked on every input: the
 * status message is UTF-8 text; a request the transport's own walk refuses (a NUL or bytes that are
 * not UTF-8 in a text field, input over its kind's limit, a malformed message) is INVALID_ARGUMENT;
 * an OK response decodes as the method's response type with every text field UTF-8. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/engine.h"
#include "cuzk/v1/proving.pb-c.h"
#include "fuzz_util.h"
#include "server/rpc_message.h"
#include "server/rpc_server.h"
#include "server/service.h"
#include "server/utf8.h"

static cuzk_engine_t *engine;
static const cuzk_rpc_method_t *methods;
static size_t n_methods;
static cuzk_rpc_server_options_t opts;

/* The method's request or response type, from the service's descriptor. */
static const ProtobufCMessageDescriptor *type_of(const char *path, bool request)
{
    const ProtobufCServiceDescriptor *sd = &cuzk__v1__proving_engine__descriptor;
    const char *name = strrchr(path, '/') + 1;
    for (unsigned i = 0; i < sd->n_methods; i++)
        if (strcmp(sd->methods[i].name, name) == 0)
            return request ? sd->methods[i].input : sd->methods[i].output;
    return NULL;
}

static size_t method_index(const char *name)
{
    for (size_t i = 0; i < n_methods; i++)
        if (strcmp(strrchr(methods[i].path, '/') + 1, name) == 0)
            return i;
    abort();
}

/* A seed: the method's index, then the message. */
static void seed(const char *dir, const char *name, const char *method, const ProtobufCMessage *m, const uint8_t *raw,
                 size_t raw_len)
{
    uint8_t buf[1024];
    buf[0] = (uint8_t)method_index(method);
    size_t n = raw ? raw_len : protobuf_c_message_get_packed_size(m);
    REQUIRE(n + 1 <= sizeof buf);
    if (raw)
        memcpy(buf + 1, raw, raw_len);
    else
        protobuf_c_message_pack(m, buf + 1);
    fz_seed(dir, name, buf, n + 1);
}

static void write_seeds(const char *dir)
{
    static uint8_t three[] = {1, 2, 3}, c32[32], proof_bytes[64];
    memset(c32, 1, sizeof c32);
    ProtobufCBinaryData one = {3, three}, many[4] = {{3, three}, {3, three}, {64, proof_bytes}, {3, three}};
    Cuzk__V1__SubmitProofRequest porep = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    porep.request_id = "seed-porep";
    porep.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    porep.vanilla_proof = (ProtobufCBinaryData){2, (uint8_t *)"{}"};
    porep.sector_number = 3;
    porep.miner_id = 1000;
    seed(dir, "submit-porep", "SubmitProof", &porep.base, NULL, 0);
    Cuzk__V1__SubmitProofRequest post = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    post.proof_kind = CUZK__V1__PROOF_KIND__WINNING_POST;
    post.n_vanilla_proofs = 1;
    post.vanilla_proofs = &one;
    post.randomness = (ProtobufCBinaryData){32, c32};
    seed(dir, "submit-winning", "SubmitProof", &post.base, NULL, 0);
    post.proof_kind = CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
    post.registered_proof = 10;
    post.n_vanilla_proofs = 4;
    post.vanilla_proofs = many;
    seed(dir, "submit-window", "SubmitProof", &post.base, NULL, 0);
    Cuzk__V1__SubmitProofRequest snap = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    snap.proof_kind = CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE;
    snap.n_vanilla_proofs = 1;
    snap.vanilla_proofs = &one;
    snap.comm_r_old = snap.comm_d_new = snap.comm_r_new = (ProtobufCBinaryData){32, c32};
    seed(dir, "submit-snap", "SubmitProof", &snap.base, NULL, 0);
    Cuzk__V1__ProveRequest prove = CUZK__V1__PROVE_REQUEST__INIT;
    prove.submit = &porep;
    seed(dir, "prove-porep", "Prove", &prove.base, NULL, 0);
    Cuzk__V1__AwaitProofRequest await = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    await.job_id = "seed-porep";
    await.timeout_ms = 1;
    seed(dir, "await", "AwaitProof", &await.base, NULL, 0);
    Cuzk__V1__CancelProofRequest cancel = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    cancel.job_id = "seed-porep";
    seed(dir, "cancel", "CancelProof", &cancel.base, NULL, 0);
    Cuzk__V1__GetStatusRequest status = CUZK__V1__GET_STATUS_REQUEST__INIT;
    seed(dir, "status", "GetStatus", &status.base, NULL, 0);
    Cuzk__V1__GetMetricsRequest metrics = CUZK__V1__GET_METRICS_REQUEST__INIT;
    seed(dir, "metrics", "GetMetrics", &metrics.base, NULL, 0);
    Cuzk__V1__PreloadSrsRequest preload = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    preload.circuit_id = "porep-2k";
    seed(dir, "preload", "PreloadSRS", &preload.base, NULL, 0);
    Cuzk__V1__EvictSrsRequest evict = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    evict.circuit_id = "porep-2k";
    seed(dir, "evict", "EvictSRS", &evict.base, NULL, 0);
    /* text the transport refuses: an id with a NUL, one that is not UTF-8 */
    static const uint8_t nul_id[] = {0x0a, 0x07, 'a', 'b', 'c', 0, 'd', 'e', 'f', 0x10, 0x01, 0x52, 0x02, '{', '}'};
    static const uint8_t ff_id[] = {0x0a, 0x02, 'x', 0xff, 0x10, 0x01, 0x52, 0x02, '{', '}'};
    seed(dir, "submit-nul-id", "SubmitProof", NULL, nul_id, sizeof nul_id);
    seed(dir, "submit-ff-id", "SubmitProof", NULL, ff_id, sizeof ff_id);
    seed(dir, "preload-ff", "PreloadSRS", NULL, ff_id, 4);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    methods = cuzk_service_methods(&n_methods);
    const char *dir = getenv("CUZK_FUZZ_SEEDS");
    if (dir && *dir) {
        write_seeds(dir);
        exit(0);
    }
    cuzk_engine_config_t ec;
    cuzk_engine_config_defaults(&ec);
    ec.param_cache = "/nonexistent-params";
    ec.total_budget = 1ull << 30;
    ec.log = NULL;
    cuzk_err_t err = {{0}};
    REQUIRE(cuzk_engine_new(&engine, &ec, &err) == CUZK_OK);
    cuzk_engine_pause(engine, true);
    /* limits small enough for the fuzzer's inputs to cross them */
    opts.max_input_by_kind[CUZK_KIND_POREP_SEAL_COMMIT] = 4096;
    opts.max_input_by_kind[CUZK_KIND_SNAP_DEALS_UPDATE] = 2048;
    opts.max_input_by_kind[CUZK_KIND_WINDOW_POST_PARTITION] = 2048;
    opts.max_input_by_kind[CUZK_KIND_WINNING_POST] = 512;
    return 0;
}

/* Cancels and collects the job a SubmitProof queued, so that inputs do not pile up. */
static void forget_job(const cuzk_rpc_result_t *r)
{
    Cuzk__V1__SubmitProofResponse *s = cuzk__v1__submit_proof_response__unpack(NULL, r->len, r->data);
    REQUIRE(s != NULL);
    bool found, running;
    cuzk_engine_cancel(engine, s->job_id, &found, &running);
    cuzk_job_result_t res;
    cuzk_engine_await(engine, s->job_id, 1, &res, NULL, NULL);
    cuzk_job_result_free(&res);
    cuzk__v1__submit_proof_response__free_unpacked(s, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const cuzk_rpc_method_t *m = &methods[data[0] % n_methods];
    const uint8_t *req = data + 1;
    size_t len = size - 1;
    /* the client is gone from the start: AwaitProof and Prove return instead of waiting */
    cuzk_rpc_result_t r;
    grpc_status_code code = cuzk_rpc_call_local(m, engine, &opts, req, len, true, &r);
    REQUIRE(r.message && cuzk_utf8_is_text((const uint8_t *)r.message, strlen(r.message), NULL));
    cuzk_err_t err = {{0}};
    if (cuzk_rpc_check_request(type_of(m->path, true), req, len, opts.max_input_by_kind, &err) != CUZK_OK)
        REQUIRE(code == GRPC_STATUS_INVALID_ARGUMENT);
    if (code == GRPC_STATUS_OK) {
        const ProtobufCMessageDescriptor *out = type_of(m->path, false);
        REQUIRE(cuzk_rpc_check_request(out, r.data, r.len, NULL, &err) == CUZK_OK);
        ProtobufCMessage *back = protobuf_c_message_unpack(out, NULL, r.len, r.data);
        REQUIRE(back != NULL);
        protobuf_c_message_free_unpacked(back, NULL);
        if (out == &cuzk__v1__submit_proof_response__descriptor)
            forget_job(&r);
    }
    cuzk_rpc_result_free(&r);
    return 0;
}
