/* The gRPC transport: a toy echo/sleep method table served by rpc_server and called through rpc_client
 * (round trips, 40 MB messages, concurrency, deadlines, cancellation, Unix sockets, shutdown), the
 * generated cuzk.v1 messages checked against hand-written protobuf encodings, and the cuzk.v1 service's
 * status codes over an engine that drains and stops. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/v1/proving.pb-c.h"
#include "cuzk/engine.h"
#include "server/rpc_client.h"
#include "server/rpc_server.h"
#include "server/service.h"
#include "test_util.h"

#define M_ECHO "/test.Toy/Echo"
#define M_SLEEP "/test.Toy/Sleep"
#define M_FAIL "/test.Toy/Fail"
#define M_NOREPLY "/test.Toy/NoReply"

/* What the handlers saw, for the checks on the server's side. */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int entered; /* Sleep handlers started */
    int gone;    /* Sleep handlers that saw the client go */
} seen = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void h_echo(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    (void)ctx;
    cuzk_rpc_reply(call, GRPC_STATUS_OK, NULL, req, len);
}

/* Request: 8 bytes little-endian, milliseconds to sleep; sleeps watching the client. */
static void h_sleep(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    (void)ctx;
    uint64_t ms = 0;
    if (len == 8)
        memcpy(&ms, req, 8);
    pthread_mutex_lock(&seen.mu);
    seen.entered++;
    pthread_cond_broadcast(&seen.cv);
    pthread_mutex_unlock(&seen.mu);
    if (cuzk_rpc_wait_client_gone(call, ms)) {
        CHECK(cuzk_rpc_client_gone(call));
        CHECK(!cuzk_rpc_reply(call, GRPC_STATUS_OK, NULL, req, len)); /* nobody to take it */
        pthread_mutex_lock(&seen.mu);
        seen.gone++;
        pthread_cond_broadcast(&seen.cv);
        pthread_mutex_unlock(&seen.mu);
        return;
    }
    CHECK(!cuzk_rpc_client_gone(call));
    cuzk_rpc_reply(call, GRPC_STATUS_OK, NULL, req, len);
}

/* Request: one byte, the status code to fail with. */
static void h_fail(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    (void)ctx;
    CHECK(strcmp(cuzk_rpc_call_method(call), M_FAIL) == 0);
    CHECK(strlen(cuzk_rpc_call_peer(call)) > 0);
    CHECK(cuzk_rpc_reply(call, len ? (grpc_status_code)req[0] : GRPC_STATUS_UNKNOWN, "failed on purpose", NULL, 0));
    CHECK(!cuzk_rpc_reply(call, GRPC_STATUS_OK, NULL, NULL, 0)); /* a second reply is refused */
}

static void h_noreply(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    (void)ctx, (void)call, (void)req, (void)len;
}

static const cuzk_rpc_method_t toy[] = {
    {M_ECHO, h_echo}, {M_SLEEP, h_sleep}, {M_FAIL, h_fail}, {M_NOREPLY, h_noreply}};

/* Waits up to timeout_s for *counter to reach want; returns whether it did. */
static bool wait_seen(const int *counter, int want, double timeout_s)
{
    double end = now_s() + timeout_s;
    pthread_mutex_lock(&seen.mu);
    while (*counter < want && now_s() < end) {
        pthread_mutex_unlock(&seen.mu);
        usleep(5000);
        pthread_mutex_lock(&seen.mu);
    }
    bool ok = *counter >= want;
    pthread_mutex_unlock(&seen.mu);
    return ok;
}

static void seen_reset(void)
{
    pthread_mutex_lock(&seen.mu);
    seen.entered = seen.gone = 0;
    pthread_mutex_unlock(&seen.mu);
}

/* ---- calls on threads ---- */

typedef struct {
    cuzk_rpc_client_t *cli;
    const char *method;
    uint8_t req[8];
    size_t len;
    uint64_t timeout_ms;
    cuzk_rpc_cancel_t *cancel;
    cuzk_rpc_result_t res;
    double seconds;
    pthread_t th;
} job_t;

static void *job_main(void *arg)
{
    job_t *j = arg;
    double t0 = now_s();
    cuzk_rpc_client_call(j->cli, j->method, j->req, j->len, j->timeout_ms, j->cancel, &j->res);
    j->seconds = now_s() - t0;
    return NULL;
}

static void job_start(job_t *j, cuzk_rpc_client_t *cli, const char *method, uint64_t sleep_ms)
{
    memset(j, 0, sizeof *j);
    j->cli = cli;
    j->method = method;
    memcpy(j->req, &sleep_ms, 8);
    j->len = 8;
    pthread_create(&j->th, NULL, job_main, j);
}

static cuzk_rpc_server_t *start_server(const char *addr)
{
    cuzk_err_t err = {{0}};
    cuzk_rpc_server_t *s = NULL;
    cuzk_status st = cuzk_rpc_server_create(&s, addr, toy, sizeof toy / sizeof toy[0], NULL, &err);
    CHECK_MSG(st == CUZK_OK, "%s: %s", addr, err.msg);
    if (st != CUZK_OK)
        return NULL;
    CHECK(cuzk_rpc_server_start(s, &err) == CUZK_OK);
    return s;
}

static cuzk_rpc_client_t *connect_to(const char *addr)
{
    cuzk_err_t err = {{0}};
    cuzk_rpc_client_t *c = NULL;
    CHECK_MSG(cuzk_rpc_client_create(&c, addr, &err) == CUZK_OK, "%s: %s", addr, err.msg);
    return c;
}

/* ---- the tests ---- */

static void test_echo_and_errors(cuzk_rpc_client_t *cli)
{
    cuzk_rpc_result_t r;
    const uint8_t msg[] = "hello, prover";
    CHECK(cuzk_rpc_client_call(cli, M_ECHO, msg, sizeof msg, 5000, NULL, &r) == GRPC_STATUS_OK);
    CHECK(r.len == sizeof msg && r.data && memcmp(r.data, msg, sizeof msg) == 0);
    cuzk_rpc_result_free(&r);

    CHECK(cuzk_rpc_client_call(cli, M_ECHO, NULL, 0, 5000, NULL, &r) == GRPC_STATUS_OK); /* empty message */
    CHECK(r.len == 0 && r.message);
    cuzk_rpc_result_free(&r);

    CHECK(cuzk_rpc_client_call(cli, "/test.Toy/Nope", msg, 3, 5000, NULL, &r) == GRPC_STATUS_UNIMPLEMENTED);
    CHECK_MSG(strstr(r.message, "/test.Toy/Nope") != NULL, "message: %s", r.message);
    cuzk_rpc_result_free(&r);

    uint8_t code = GRPC_STATUS_FAILED_PRECONDITION;
    CHECK(cuzk_rpc_client_call(cli, M_FAIL, &code, 1, 5000, NULL, &r) == GRPC_STATUS_FAILED_PRECONDITION);
    CHECK(r.code == GRPC_STATUS_FAILED_PRECONDITION);
    CHECK_MSG(strcmp(r.message, "failed on purpose") == 0, "message: %s", r.message);
    CHECK(r.len == 0);
    cuzk_rpc_result_free(&r);

    CHECK(cuzk_rpc_client_call(cli, M_NOREPLY, msg, 3, 5000, NULL, &r) == GRPC_STATUS_INTERNAL);
    cuzk_rpc_result_free(&r);

    CHECK(cuzk_rpc_client_call(cli, "no-slash", msg, 3, 5000, NULL, &r) == GRPC_STATUS_INVALID_ARGUMENT);
    cuzk_rpc_result_free(&r);
}

static void test_big_message(cuzk_rpc_client_t *cli)
{
    size_t n = 40u << 20;
    uint8_t *big = malloc(n);
    test_rand_bytes(big, n);
    cuzk_rpc_result_t r;
    double t0 = now_s();
    CHECK(cuzk_rpc_client_call(cli, M_ECHO, big, n, 60000, NULL, &r) == GRPC_STATUS_OK);
    double dt = now_s() - t0;
    CHECK(r.len == n && r.data && memcmp(r.data, big, n) == 0);
    printf("40 MiB echo round trip: %.3f s\n", dt);
    cuzk_rpc_result_free(&r);
    free(big);
}

static void test_concurrency(cuzk_rpc_client_t *cli)
{
    job_t jobs[16];
    double t0 = now_s();
    for (int i = 0; i < 16; i++)
        job_start(&jobs[i], cli, i % 2 ? M_SLEEP : M_ECHO, 1000);
    for (int i = 0; i < 16; i++)
        pthread_join(jobs[i].th, NULL);
    double total = now_s() - t0;
    for (int i = 0; i < 16; i++) {
        CHECK_MSG(jobs[i].res.code == GRPC_STATUS_OK, "call %d: %d %s", i, jobs[i].res.code, jobs[i].res.message);
        CHECK(jobs[i].res.len == 8 && memcmp(jobs[i].res.data, jobs[i].req, 8) == 0);
        if (i % 2)
            CHECK(jobs[i].seconds >= 0.99);
        else
            CHECK_MSG(jobs[i].seconds < 0.9, "echo %d waited %.3f s behind the sleepers", i, jobs[i].seconds);
        cuzk_rpc_result_free(&jobs[i].res);
    }
    printf("16 concurrent calls, 8 sleeping 1 s: %.3f s\n", total);
    CHECK_MSG(total < 2.5, "%.3f s: calls ran one after the other", total);
}

static void test_deadline_and_cancel(cuzk_rpc_client_t *cli)
{
    seen_reset();
    uint64_t ms = 20000;
    cuzk_rpc_result_t r;
    double t0 = now_s();
    CHECK(cuzk_rpc_client_call(cli, M_SLEEP, (const uint8_t *)&ms, 8, 200, NULL, &r) ==
          GRPC_STATUS_DEADLINE_EXCEEDED);
    double dt = now_s() - t0;
    CHECK_MSG(dt >= 0.19 && dt < 2.0, "deadline after %.3f s", dt);
    cuzk_rpc_result_free(&r);
    CHECK_MSG(wait_seen(&seen.gone, 1, 5.0), "the handler did not see the deadline");

    seen_reset();
    job_t j;
    memset(&j, 0, sizeof j);
    j.cancel = cuzk_rpc_cancel_create();
    j.cli = cli, j.method = M_SLEEP, j.len = 8;
    memcpy(j.req, &ms, 8);
    pthread_create(&j.th, NULL, job_main, &j);
    CHECK(wait_seen(&seen.entered, 1, 5.0));
    usleep(50000);
    cuzk_rpc_cancel_fire(j.cancel);
    pthread_join(j.th, NULL);
    CHECK_MSG(j.res.code == GRPC_STATUS_CANCELLED, "code %d", j.res.code);
    CHECK(j.seconds < 5.0);
    cuzk_rpc_result_free(&j.res);
    CHECK_MSG(wait_seen(&seen.gone, 1, 5.0), "the handler did not see the cancellation");

    /* a token already fired cancels the next call at once */
    CHECK(cuzk_rpc_client_call(cli, M_SLEEP, (const uint8_t *)&ms, 8, 0, j.cancel, &r) == GRPC_STATUS_CANCELLED);
    cuzk_rpc_result_free(&r);
    cuzk_rpc_cancel_destroy(j.cancel);
}

static void test_tcp(void)
{
    cuzk_rpc_server_t *s = start_server("127.0.0.1:0");
    if (!s)
        return;
    int port = cuzk_rpc_server_port(s);
    CHECK(port > 0);
    char addr[64];
    snprintf(addr, sizeof addr, "http://127.0.0.1:%d", port);
    cuzk_rpc_client_t *cli = connect_to(addr);
    if (cli) {
        test_echo_and_errors(cli);
        test_big_message(cli);
        test_concurrency(cli);
        test_deadline_and_cancel(cli);
    }

    /* the same port again: a clear error, no crash */
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    cuzk_rpc_server_t *s2 = NULL;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_rpc_server_create(&s2, addr, toy, 1, NULL, &err) == CUZK_ERR_IO && s2 == NULL);
    printf("second server on %s: %s\n", addr, err.msg);
    CHECK_MSG(strstr(err.msg, "in use") != NULL, "%s", err.msg);

    cuzk_rpc_server_destroy(s);
    if (cli) { /* nobody listens any more */
        cuzk_rpc_result_t r;
        CHECK(cuzk_rpc_client_call(cli, M_ECHO, NULL, 0, 5000, NULL, &r) == GRPC_STATUS_UNAVAILABLE);
        cuzk_rpc_result_free(&r);
    }
    cuzk_rpc_client_destroy(cli);
}

static void test_bad_addresses(void)
{
    cuzk_rpc_server_t *s = NULL;
    cuzk_rpc_client_t *c = NULL;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_rpc_server_create(&s, "unix://relative/sock", toy, 1, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_rpc_server_create(&s, "no-port", toy, 1, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_rpc_server_create(&s, "", toy, 1, NULL, &err) == CUZK_ERR_INVALID_ARG);
    const cuzk_rpc_method_t bad[] = {{"NoSlash", h_echo}};
    CHECK(cuzk_rpc_server_create(&s, "127.0.0.1:0", bad, 1, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_rpc_server_create(&s, "192.0.2.1:0", toy, 1, NULL, &err) == CUZK_ERR_IO); /* not our address */
    printf("listen on 192.0.2.1:0: %s\n", err.msg);
    CHECK(s == NULL);
    CHECK(cuzk_rpc_client_create(&c, "https://127.0.0.1:1", &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_rpc_client_create(&c, "unix:rel", &err) == CUZK_ERR_INVALID_ARG);
    CHECK(c == NULL);

    /* created, never started, destroyed: the listener must go too */
    CHECK(cuzk_rpc_server_create(&s, "127.0.0.1:0", toy, 1, NULL, &err) == CUZK_OK);
    cuzk_rpc_server_destroy(s);
}

static void make_stale_socket(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    CHECK(strlen(path) < sizeof sa.sun_path);
    memcpy(sa.sun_path, path, strlen(path) % sizeof sa.sun_path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    CHECK(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0);
    close(fd); /* the file stays, nobody accepts: stale */
}

static void test_unix(void)
{
    char dir[] = "/tmp/cuzk-rpc-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char sub[96], path[128], addr[160];
    snprintf(sub, sizeof sub, "%s/run", dir);
    snprintf(path, sizeof path, "%s/curio/cuzk.sock", sub); /* two missing directories */
    snprintf(addr, sizeof addr, "unix://%s", path);

    cuzk_rpc_server_t *s = start_server(addr);
    cuzk_rpc_client_t *cli = connect_to(addr);
    struct stat sb;
    if (s && cli) {
        CHECK(cuzk_rpc_server_port(s) == 0);
        CHECK(stat(path, &sb) == 0 && S_ISSOCK(sb.st_mode));
        cuzk_rpc_result_t r;
        CHECK(cuzk_rpc_client_call(cli, M_ECHO, (const uint8_t *)"uds", 3, 5000, NULL, &r) == GRPC_STATUS_OK);
        CHECK(r.len == 3 && memcmp(r.data, "uds", 3) == 0);
        cuzk_rpc_result_free(&r);

        cuzk_rpc_server_t *s2 = NULL;
        cuzk_err_t err = {{0}};
        CHECK(cuzk_rpc_server_create(&s2, addr, toy, 1, NULL, &err) == CUZK_ERR_IO); /* live: in use */
        printf("second server on %s: %s\n", addr, err.msg);
        CHECK(strstr(err.msg, "in use") != NULL);
    }
    cuzk_rpc_client_destroy(cli);
    cuzk_rpc_server_destroy(s);
    CHECK(stat(path, &sb) != 0 && errno == ENOENT); /* destroy removed the socket */

    make_stale_socket(path);
    CHECK(stat(path, &sb) == 0 && S_ISSOCK(sb.st_mode));
    s = start_server(addr);
    cli = connect_to(addr);
    if (s && cli) {
        cuzk_rpc_result_t r;
        CHECK(cuzk_rpc_client_call(cli, M_ECHO, (const uint8_t *)"again", 5, 5000, NULL, &r) == GRPC_STATUS_OK);
        cuzk_rpc_result_free(&r);
    }
    cuzk_rpc_client_destroy(cli);
    cuzk_rpc_server_destroy(s);

    /* a regular file where the socket should be is not ours to delete */
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f)
        fclose(f);
    cuzk_err_t err = {{0}};
    s = NULL;
    CHECK(cuzk_rpc_server_create(&s, addr, toy, 1, NULL, &err) == CUZK_ERR_IO);
    CHECK(stat(path, &sb) == 0 && S_ISREG(sb.st_mode));
    unlink(path);
    snprintf(path, sizeof path, "%s/curio", sub);
    rmdir(path);
    rmdir(sub);
    CHECK(rmdir(dir) == 0);
}

/* Shutdown with 4 calls in flight: a long grace lets them finish, a short one cancels them. */
static void test_shutdown(uint64_t sleep_ms, uint64_t grace_ms, bool expect_ok)
{
    seen_reset();
    cuzk_rpc_server_t *s = start_server("127.0.0.1:0");
    if (!s)
        return;
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", cuzk_rpc_server_port(s));
    cuzk_rpc_client_t *cli = connect_to(addr);
    job_t jobs[4];
    for (int i = 0; i < 4; i++)
        job_start(&jobs[i], cli, M_SLEEP, sleep_ms);
    CHECK(wait_seen(&seen.entered, 4, 10.0));
    double t0 = now_s();
    cuzk_rpc_server_shutdown(s, grace_ms);
    double dt = now_s() - t0;
    for (int i = 0; i < 4; i++) {
        pthread_join(jobs[i].th, NULL);
        grpc_status_code code = jobs[i].res.code;
        if (expect_ok)
            CHECK_MSG(code == GRPC_STATUS_OK, "call %d: %d %s", i, code, jobs[i].res.message);
        else
            CHECK_MSG(code == GRPC_STATUS_CANCELLED || code == GRPC_STATUS_UNAVAILABLE, "call %d: %d %s", i,
                      code, jobs[i].res.message);
        cuzk_rpc_result_free(&jobs[i].res);
    }
    printf("shutdown (calls of %llu ms, grace %llu ms): %.3f s\n", (unsigned long long)sleep_ms,
           (unsigned long long)grace_ms, dt);
    if (!expect_ok) {
        CHECK(seen.gone == 4);
        CHECK_MSG(dt < 3.0, "shutdown took %.3f s", dt);
    }
    cuzk_rpc_server_shutdown(s, 0); /* idempotent */
    cuzk_rpc_server_destroy(s);
    cuzk_rpc_client_destroy(cli);
}

/* ---- the cuzk.v1 service over an engine ---- */

#define M_SUBMIT "/cuzk.v1.ProvingEngine/SubmitProof"
#define M_AWAIT "/cuzk.v1.ProvingEngine/AwaitProof"
#define M_PROVE "/cuzk.v1.ProvingEngine/Prove"

static grpc_status_code call_submit(cuzk_rpc_client_t *cli, const char *method, const char *id,
                                    Cuzk__V1__ProofKind kind, cuzk_rpc_result_t *r)
{
    static uint8_t vanilla[] = "{}";
    Cuzk__V1__SubmitProofRequest sub = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    sub.request_id = (char *)id;
    sub.proof_kind = kind;
    sub.vanilla_proof = (ProtobufCBinaryData){2, vanilla};
    Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
    pr.submit = &sub;
    const ProtobufCMessage *m = strcmp(method, M_PROVE) == 0 ? &pr.base : &sub.base;
    uint8_t buf[256];
    size_t n = protobuf_c_message_get_packed_size(m);
    CHECK(n <= sizeof buf);
    protobuf_c_message_pack(m, buf);
    return cuzk_rpc_client_call(cli, method, buf, n, 10000, NULL, r);
}

/* A PoSt SubmitProof of one made-up vanilla proof (the checks at submission do not parse it). */
static grpc_status_code call_submit_post(cuzk_rpc_client_t *cli, Cuzk__V1__ProofKind kind, uint64_t proof,
                                         size_t randomness_len, cuzk_rpc_result_t *r)
{
    static uint8_t vanilla[] = {1, 2, 3}, rnd[33];
    ProtobufCBinaryData v = {sizeof vanilla, vanilla};
    Cuzk__V1__SubmitProofRequest sub = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    sub.proof_kind = kind;
    sub.registered_proof = proof;
    sub.n_vanilla_proofs = 1;
    sub.vanilla_proofs = &v;
    sub.randomness = (ProtobufCBinaryData){randomness_len, rnd};
    sub.miner_id = 1000;
    uint8_t buf[256];
    size_t n = cuzk__v1__submit_proof_request__pack(&sub, buf);
    return cuzk_rpc_client_call(cli, M_SUBMIT, buf, n, 10000, NULL, r);
}

/* A SnapDeals SubmitProof of n made-up partition proofs (3 bytes each: not bincode) and commitments of the
 * given lengths (the byte values are their field number, 30 to 32). */
static grpc_status_code call_submit_snap(cuzk_rpc_client_t *cli, uint64_t proof, size_t n, size_t r_old_len,
                                         size_t d_new_len, size_t r_new_len, cuzk_rpc_result_t *r)
{
    static uint8_t vanilla[] = {1, 2, 3}, r_old[33], d_new[33], r_new[33];
    memset(r_old, 30, sizeof r_old);
    memset(d_new, 32, sizeof d_new);
    memset(r_new, 31, sizeof r_new);
    ProtobufCBinaryData v[4] = {{3, vanilla}, {3, vanilla}, {3, vanilla}, {3, vanilla}};
    Cuzk__V1__SubmitProofRequest sub = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    sub.proof_kind = CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE;
    sub.registered_proof = proof;
    sub.n_vanilla_proofs = n;
    sub.vanilla_proofs = v;
    sub.comm_r_old = (ProtobufCBinaryData){r_old_len, r_old};
    sub.comm_d_new = (ProtobufCBinaryData){d_new_len, d_new};
    sub.comm_r_new = (ProtobufCBinaryData){r_new_len, r_new};
    uint8_t buf[512];
    size_t len = cuzk__v1__submit_proof_request__pack(&sub, buf);
    return cuzk_rpc_client_call(cli, M_SUBMIT, buf, len, 10000, NULL, r);
}

static grpc_status_code call_await(cuzk_rpc_client_t *cli, const char *id, uint64_t timeout_ms,
                                   uint64_t deadline_ms, cuzk_rpc_result_t *r)
{
    Cuzk__V1__AwaitProofRequest a = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    a.job_id = (char *)id;
    a.timeout_ms = timeout_ms;
    uint8_t buf[256];
    size_t n = cuzk__v1__await_proof_request__pack(&a, buf);
    return cuzk_rpc_client_call(cli, M_AWAIT, buf, n, deadline_ms, NULL, r);
}

/* The service's answers that depend on the engine's state: a PoSt request bad at submission (randomness
 * length, registered proof of the wrong kind) INVALID_ARGUMENT, a SnapDeals one too (each commitment's
 * length, the partition count, a C1 where partition proofs belong, bincode that does not decode), a
 * submission while the engine drains or after it stopped is UNAVAILABLE (retry elsewhere); an
 * AwaitProof timeout_ms too large for nanoseconds waits (until the client's own deadline) instead of
 * answering TIMEOUT at once. */
static void test_service(void)
{
    cuzk_engine_config_t ec;
    cuzk_engine_config_defaults(&ec);
    ec.param_cache = "/nonexistent-params";
    ec.total_budget = 1ull << 30;
    ec.log = NULL;
    cuzk_engine_t *e = NULL;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_engine_new(&e, &ec, &err) == CUZK_OK, "%s", err.msg);
    if (!e)
        return;
    cuzk_engine_pause(e, true); /* jobs stay queued */
    size_t n_methods;
    const cuzk_rpc_method_t *methods = cuzk_service_methods(&n_methods);
    cuzk_rpc_server_t *s = NULL;
    CHECK(cuzk_rpc_server_create(&s, "127.0.0.1:0", methods, n_methods, e, &err) == CUZK_OK);
    CHECK(s && cuzk_rpc_server_start(s, &err) == CUZK_OK);
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", s ? cuzk_rpc_server_port(s) : 0);
    cuzk_rpc_client_t *cli = s ? connect_to(addr) : NULL;
    if (cli) {
        cuzk_rpc_result_t r;
        grpc_status_code code = call_submit(cli, M_SUBMIT, "s", CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE, &r);
        CHECK_MSG(code == GRPC_STATUS_INVALID_ARGUMENT && strstr(r.message, "vanilla_proof is the PoRep C1"), "%d %s",
                  code, r.message);
        cuzk_rpc_result_free(&r);
        /* SnapDeals (RegisteredUpdateProof 0: 2KiB, 1 partition; 1: 8MiB, 4): the three fields mapped apart */
        static const struct {
            uint64_t proof;
            size_t n, r_old, d_new, r_new;
            const char *needle;
        } bad_snap[] = {
            {0, 1, 31, 32, 32, "comm_r_old is 31 bytes"},  {0, 1, 32, 0, 32, "comm_d_new is 0 bytes"},
            {0, 1, 32, 32, 33, "comm_r_new is 33 bytes"},  {0, 2, 32, 32, 32, "2 vanilla_proofs"},
            {1, 1, 32, 32, 32, "takes 4"},                 {5, 1, 32, 32, 32, "not a registered update proof"},
            {0, 1, 32, 32, 32, "vanilla_proofs[0]: "},     {1, 4, 32, 32, 32, "vanilla_proofs[0]: "},
        };
        for (size_t i = 0; i < sizeof bad_snap / sizeof bad_snap[0]; i++) {
            code = call_submit_snap(cli, bad_snap[i].proof, bad_snap[i].n, bad_snap[i].r_old, bad_snap[i].d_new,
                                    bad_snap[i].r_new, &r);
            CHECK_MSG(code == GRPC_STATUS_INVALID_ARGUMENT && strstr(r.message, bad_snap[i].needle), "snap case %zu: %d %s",
                      i, code, r.message);
            cuzk_rpc_result_free(&r);
        }
        /* PoSt requests the daemon can tell are bad at submission: INVALID_ARGUMENT naming the field
         * (RegisteredPoStProof numbers: Winning 2KiB 0, Window 2KiB V1_1 10) */
        static const struct {
            Cuzk__V1__ProofKind kind;
            uint64_t proof;
            size_t rnd_len;
            const char *needle;
        } bad_post[] = {
            {CUZK__V1__PROOF_KIND__WINNING_POST, 0, 31, "randomness is 31 bytes"},
            {CUZK__V1__PROOF_KIND__WINNING_POST, 0, 33, "randomness is 33 bytes"},
            {CUZK__V1__PROOF_KIND__WINNING_POST, 10, 32, "is a Window PoSt proof"},
            {CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION, 3, 32, "is a Winning PoSt proof"},
            {CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION, 18, 32, "not a registered PoSt proof"},
        };
        for (size_t i = 0; i < sizeof bad_post / sizeof bad_post[0]; i++) {
            code = call_submit_post(cli, bad_post[i].kind, bad_post[i].proof, bad_post[i].rnd_len, &r);
            CHECK_MSG(code == GRPC_STATUS_INVALID_ARGUMENT && strstr(r.message, bad_post[i].needle), "case %zu: %d %s",
                      i, code, r.message);
            cuzk_rpc_result_free(&r);
        }
        /* a well-formed one is queued (its bincode is read when it starts) */
        code = call_submit_post(cli, CUZK__V1__PROOF_KIND__WINNING_POST, 0, 32, &r);
        CHECK_MSG(code == GRPC_STATUS_OK, "%d %s", code, r.message);
        cuzk_rpc_result_free(&r);
        CHECK(call_submit(cli, M_SUBMIT, "queued", CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT, &r) == GRPC_STATUS_OK);
        cuzk_rpc_result_free(&r);

        /* 18446744073710 ms is the first whose nanoseconds do not fit in 64 bits */
        static const uint64_t huge[] = {18446744073710ull, 1ull << 63, UINT64_MAX};
        for (int i = 0; i < 3; i++) {
            double t0 = now_s();
            code = call_await(cli, "queued", huge[i], 300, &r);
            double dt = now_s() - t0;
            CHECK_MSG(code == GRPC_STATUS_DEADLINE_EXCEEDED && dt >= 0.25, "timeout_ms %llu: %d %s after %.3f s",
                      (unsigned long long)huge[i], code, r.message, dt);
            cuzk_rpc_result_free(&r);
        }
        CHECK(call_await(cli, "queued", 1, 10000, &r) == GRPC_STATUS_OK);
        Cuzk__V1__AwaitProofResponse *a = cuzk__v1__await_proof_response__unpack(NULL, r.len, r.data);
        CHECK(a && a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT);
        cuzk__v1__await_proof_response__free_unpacked(a, NULL);
        cuzk_rpc_result_free(&r);

        cuzk_engine_drain(e);
        const char *stopping[] = {M_SUBMIT, M_PROVE};
        for (int i = 0; i < 2; i++) {
            code = call_submit(cli, stopping[i], "late", CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT, &r);
            CHECK_MSG(code == GRPC_STATUS_UNAVAILABLE && strstr(r.message, "shutting down"), "%s while draining: %d %s",
                      stopping[i], code, r.message);
            cuzk_rpc_result_free(&r);
        }
        cuzk_engine_shutdown(e);
        code = call_submit(cli, M_SUBMIT, "later", CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT, &r);
        CHECK_MSG(code == GRPC_STATUS_UNAVAILABLE, "after shutdown: %d %s", code, r.message);
        cuzk_rpc_result_free(&r);
    }
    cuzk_rpc_server_destroy(s); /* the handlers return before the engine goes */
    cuzk_rpc_client_destroy(cli);
    cuzk_engine_free(e);
}

/* ---- generated messages against hand-written encodings ---- */

static void test_proto(void)
{
    uint8_t vp[] = {1, 2, 3}, v0[] = {4}, v1[] = {5, 6}, rnd[] = {7, 8}, ro[] = {9}, rn[] = {10}, dn[] = {11};
    ProtobufCBinaryData many[2] = {{1, v0}, {2, v1}};
    Cuzk__V1__SubmitProofRequest sub = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    sub.request_id = "ab";
    sub.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    sub.sector_size = 2048;
    sub.registered_proof = 8;
    sub.priority = CUZK__V1__PRIORITY__HIGH;
    sub.vanilla_proof = (ProtobufCBinaryData){3, vp};
    sub.n_vanilla_proofs = 2;
    sub.vanilla_proofs = many;
    sub.sector_number = 300;
    sub.miner_id = 1000;
    sub.randomness = (ProtobufCBinaryData){2, rnd};
    sub.partition_index = 2;
    sub.comm_r_old = (ProtobufCBinaryData){1, ro};
    sub.comm_r_new = (ProtobufCBinaryData){1, rn};
    sub.comm_d_new = (ProtobufCBinaryData){1, dn};
    /* tag = field << 3 | wire type (0 varint, 2 length-delimited), itself a varint */
    static const uint8_t want[] = {
        0x0a, 0x02, 'a', 'b',             /* 1 request_id */
        0x10, 0x01,                       /* 2 proof_kind */
        0x18, 0x80, 0x10,                 /* 3 sector_size 2048 */
        0x20, 0x08,                       /* 4 registered_proof */
        0x28, 0x03,                       /* 5 priority HIGH */
        0x52, 0x03, 1, 2, 3,              /* 10 vanilla_proof */
        0x5a, 0x01, 4, 0x5a, 0x02, 5, 6,  /* 11 vanilla_proofs, twice */
        0xa0, 0x01, 0xac, 0x02,           /* 20 sector_number 300 */
        0xa8, 0x01, 0xe8, 0x07,           /* 21 miner_id 1000 */
        0xb2, 0x01, 0x02, 7, 8,           /* 22 randomness */
        0xb8, 0x01, 0x02,                 /* 23 partition_index */
        0xf2, 0x01, 0x01, 9,              /* 30 comm_r_old */
        0xfa, 0x01, 0x01, 10,             /* 31 comm_r_new */
        0x82, 0x02, 0x01, 11,             /* 32 comm_d_new */
    };
    uint8_t buf[128];
    size_t n = cuzk__v1__submit_proof_request__get_packed_size(&sub);
    CHECK(n == sizeof want);
    if (n <= sizeof buf) {
        CHECK(cuzk__v1__submit_proof_request__pack(&sub, buf) == n);
        CHECK(n == sizeof want && memcmp(buf, want, n) == 0);
    }

    /* ProveRequest{submit=1} wraps it as a length-delimited field */
    Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
    pr.submit = &sub;
    uint8_t buf2[160];
    CHECK(cuzk__v1__prove_request__get_packed_size(&pr) == sizeof want + 2);
    cuzk__v1__prove_request__pack(&pr, buf2);
    CHECK(buf2[0] == 0x0a && buf2[1] == sizeof want && memcmp(buf2 + 2, want, sizeof want) == 0);

    /* ProveResponse{result=AwaitProofResponse{job_id "j", COMPLETED, proof aa bb, queue_wait_ms 7,
     * total_ms 5}}, written by hand, decoded by the generated code */
    static const uint8_t resp[] = {0x0a, 0x0d, 0x0a, 0x01, 'j', 0x10, 0x01, 0x1a, 0x02,
                                   0xaa, 0xbb, 0x50, 0x07, 0x70, 0x05};
    Cuzk__V1__ProveResponse *pv = cuzk__v1__prove_response__unpack(NULL, sizeof resp, resp);
    CHECK(pv && pv->result);
    if (pv && pv->result) {
        Cuzk__V1__AwaitProofResponse *a = pv->result;
        CHECK(strcmp(a->job_id, "j") == 0);
        CHECK(a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED);
        CHECK(a->proof.len == 2 && a->proof.data[0] == 0xaa && a->proof.data[1] == 0xbb);
        CHECK(a->queue_wait_ms == 7 && a->total_ms == 5 && a->synthesis_ms == 0);
    }
    cuzk__v1__prove_response__free_unpacked(pv, NULL);

    /* GetStatusResponse{loaded_srs=[SRSStatus{"p", COLD, size 3, ref 1}], uptime_seconds 9,
     * pinned_memory_limit_bytes 4} */
    static const uint8_t st[] = {0x12, 0x09, 0x0a, 0x01, 'p', 0x10, 0x02, 0x18, 0x03,
                                 0x20, 0x01, 0x30, 0x09, 0x40, 0x04};
    Cuzk__V1__GetStatusResponse *gs = cuzk__v1__get_status_response__unpack(NULL, sizeof st, st);
    CHECK(gs && gs->n_loaded_srs == 1 && gs->n_gpus == 0);
    if (gs && gs->n_loaded_srs == 1) {
        CHECK(strcmp(gs->loaded_srs[0]->circuit_id, "p") == 0);
        CHECK(gs->loaded_srs[0]->tier == CUZK__V1__SRSSTATUS__TIER__COLD);
        CHECK(gs->loaded_srs[0]->size_bytes == 3 && gs->loaded_srs[0]->ref_count == 1);
        CHECK(gs->uptime_seconds == 9 && gs->pinned_memory_limit_bytes == 4);
    }
    cuzk__v1__get_status_response__free_unpacked(gs, NULL);

    /* a truncated message is refused, not read past its end */
    CHECK(cuzk__v1__prove_response__unpack(NULL, sizeof resp - 1, resp) == NULL);
}

int main(void)
{
    test_init("test_rpc");
    test_proto();
    test_bad_addresses();
    test_tcp();
    test_unix();
    test_shutdown(300, 10000, true);
    test_shutdown(60000, 200, false);
    test_service();
    return test_finish();
}
