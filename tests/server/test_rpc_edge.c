/* The transport's edges, where a shared host or a hostile client meets the daemon: text in and out of
 * protobuf string fields (UTF-8 checked and escaped, NUL refused), the input limit per proof kind, the
 * cap on calls served at once, a unix socket's mode under any umask, a name that resolves to several
 * addresses (all bound or none; the resolver is replaced below so that a test name resolves to
 * 127.0.0.1 and ::1), and the HTTP status endpoint under a crowd of idle connections. The cuzk.v1
 * service's handlers are driven without a network through cuzk_rpc_call_local. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/v1/proving.pb-c.h"
#include "server/http_status.h"
#include "server/rpc_client.h"
#include "server/rpc_message.h"
#include "server/rpc_server.h"
#include "server/service.h"
#include "server/utf8.h"
#include "test_util.h"

/* ---- a name with two addresses: getaddrinfo replaced for this program ---- */

#define DUAL_NAME "dual.cuzk.test"

typedef int (*gai_fn)(const char *, const char *, const struct addrinfo *, struct addrinfo **);

/* "dual.cuzk.test" resolves to 127.0.0.1 then ::1 (each looked up by the real resolver, the two
 * lists chained: freeaddrinfo frees a chain node by node); any other name as usual. */
int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res)
{
    static gai_fn real;
    if (!real)
        real = (gai_fn)dlsym(RTLD_NEXT, "getaddrinfo");
    if (!node || strcmp(node, DUAL_NAME) != 0)
        return real(node, service, hints, res);
    struct addrinfo h = hints ? *hints : (struct addrinfo){0}, *v4 = NULL, *v6 = NULL;
    h.ai_flags |= AI_NUMERICHOST;
    int rc = real("127.0.0.1", service, &h, &v4);
    if (rc != 0)
        return rc;
    if ((rc = real("::1", service, &h, &v6)) != 0) {
        freeaddrinfo(v4);
        return rc;
    }
    struct addrinfo *last = v4;
    while (last->ai_next)
        last = last->ai_next;
    last->ai_next = v6;
    *res = v4;
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- UTF-8 ---- */

static void test_utf8(void)
{
    static const struct {
        const char *s;
        bool valid;
        const char *escaped;
    } cases[] = {
        {"plain ascii", true, "plain ascii"},
        {"d\xc3\xa9j\xc3\xa0 \xe2\x82\xac \xf0\x9f\x94\x91", true, "d\xc3\xa9j\xc3\xa0 \xe2\x82\xac \xf0\x9f\x94\x91"},
        {"\xf4\x8f\xbf\xbf", true, "\xf4\x8f\xbf\xbf"},             /* U+10FFFF, the last code point */
        {"found '\xff'", false, "found '\\xFF'"},                   /* the byte */
        {"\xc0\x80", false, "\\xC0\\x80"},                           /* an overlong NUL */
        {"\xe0\x80\xaf", false, "\\xE0\\x80\\xAF"},                  /* an overlong '/' */
        {"\xed\xa0\x80", false, "\\xED\\xA0\\x80"},                  /* a surrogate */
        {"\xf4\x90\x80\x80", false, "\\xF4\\x90\\x80\\x80"},         /* above U+10FFFF */
        {"cut \xe2\x82", false, "cut \\xE2\\x82"},                   /* a sequence cut short */
        {"\x80 stray", false, "\\x80 stray"},
        {"\xc3\xa9\xff\xc3\xa9", false, "\xc3\xa9\\xFF\xc3\xa9"},     /* valid around invalid */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const uint8_t *s = (const uint8_t *)cases[i].s;
        CHECK_MSG(cuzk_utf8_is_text(s, strlen(cases[i].s), NULL) == cases[i].valid, "case %zu", i);
        char *e = cuzk_utf8_escape(cases[i].s);
        CHECK_MSG(e && strcmp(e, cases[i].escaped) == 0, "case %zu: %s", i, e ? e : "(null)");
        CHECK(e && cuzk_utf8_is_text((const uint8_t *)e, strlen(e), NULL));
        free(e);
    }
    size_t at = 0;
    CHECK(!cuzk_utf8_is_text((const uint8_t *)"abc\0def", 7, &at) && at == 3); /* NUL is not text here */
    /* every escaping of random bytes is valid UTF-8 */
    for (int r = 0; r < 2000; r++) {
        char buf[33];
        test_rand_bytes(buf, 32);
        buf[32] = 0;
        char *e = cuzk_utf8_escape(buf);
        CHECK(e && cuzk_utf8_is_text((const uint8_t *)e, strlen(e), NULL));
        free(e);
    }
}

/* ---- requests checked on the wire ---- */

/* Appends a length-delimited field (field number < 16). */
static size_t put_field(uint8_t *p, unsigned field, const void *data, size_t len)
{
    p[0] = (uint8_t)(field << 3 | 2);
    size_t n = 1;
    for (size_t v = len; ; v >>= 7) {
        p[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
        if (v < 0x80)
            break;
    }
    memcpy(p + n, data, len);
    return n + len;
}

static void test_request_check(void)
{
    const ProtobufCMessageDescriptor *sub = &cuzk__v1__submit_proof_request__descriptor;
    const ProtobufCMessageDescriptor *prove = &cuzk__v1__prove_request__descriptor;
    cuzk_err_t err = {{0}};
    uint8_t a[64], b[80];
    /* request_id "abc\0def": protobuf-c alone would read "abc" */
    size_t n = put_field(a, 1, "abc\0def", 7);
    Cuzk__V1__SubmitProofRequest *cut = cuzk__v1__submit_proof_request__unpack(NULL, n, a);
    CHECK(cut && strcmp(cut->request_id, "abc") == 0);
    cuzk__v1__submit_proof_request__free_unpacked(cut, NULL);
    CHECK(cuzk_rpc_check_request(sub, a, n, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(err.msg, "SubmitProofRequest.request_id: a NUL byte at offset 3"), "%s", err.msg);
    /* the same inside a ProveRequest */
    size_t m = put_field(b, 1, a, n);
    CHECK(cuzk_rpc_check_request(prove, b, m, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(err.msg, "ProveRequest.submit.request_id: a NUL byte"), "%s", err.msg);
    /* not UTF-8 */
    n = put_field(a, 1, "\xff", 1);
    CHECK(cuzk_rpc_check_request(sub, a, n, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(err.msg, "request_id: byte 0 (0xFF) is not UTF-8"), "%s", err.msg);
    n = put_field(a, 1, "job-\xc3\xa9", 6); /* valid: accepted */
    CHECK(cuzk_rpc_check_request(sub, a, n, NULL, &err) == CUZK_OK);
    /* bytes fields may hold anything */
    n = put_field(a, 10, "\xff\0\xfe", 3);
    CHECK(cuzk_rpc_check_request(sub, a, n, NULL, &err) == CUZK_OK);
    /* the other id strings too: AwaitProof, CancelProof job_id, PreloadSRS circuit_id */
    n = put_field(a, 1, "x\0y", 3);
    CHECK(cuzk_rpc_check_request(&cuzk__v1__await_proof_request__descriptor, a, n, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_rpc_check_request(&cuzk__v1__cancel_proof_request__descriptor, a, n, NULL, &err) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_rpc_check_request(&cuzk__v1__preload_srs_request__descriptor, a, n, NULL, &err) ==
          CUZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(err.msg, "PreloadSrsRequest.circuit_id"), "%s", err.msg);
    /* malformed: a length past the end, a group, a zero field number */
    static const uint8_t bad[][3] = {{0x0a, 0x05, 'a'}, {0x0b, 0x00, 0x00}, {0x02, 0x00, 0x00}};
    for (int i = 0; i < 3; i++) {
        CHECK(cuzk_rpc_check_request(sub, bad[i], 3, NULL, &err) == CUZK_ERR_FORMAT);
        CHECK_MSG(strcmp(err.msg, "malformed SubmitProofRequest message") == 0, "%s", err.msg);
    }

    /* the input limit by kind: vanilla_proof + vanilla_proofs against the kind's limit, whatever the
     * order of the fields */
    uint64_t limits[CUZK_RPC_MAX_KINDS] = {0};
    limits[CUZK__V1__PROOF_KIND__WINNING_POST] = 1000;
    static uint8_t blob[600];
    ProtobufCBinaryData two[2] = {{600, blob}, {600, blob}};
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r.proof_kind = CUZK__V1__PROOF_KIND__WINNING_POST;
    r.n_vanilla_proofs = 2;
    r.vanilla_proofs = two;
    uint8_t buf[1400];
    n = cuzk__v1__submit_proof_request__pack(&r, buf);
    CHECK(cuzk_rpc_check_request(sub, buf, n, limits, &err) == CUZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(err.msg, "1200 bytes of proof input for WINNING_POST") && strstr(err.msg, "at most 1000 bytes"),
              "%s", err.msg);
    CHECK(cuzk_rpc_check_request(sub, buf, n, NULL, &err) == CUZK_OK);
    r.n_vanilla_proofs = 1; /* 600: within */
    n = cuzk__v1__submit_proof_request__pack(&r, buf);
    CHECK(cuzk_rpc_check_request(sub, buf, n, limits, &err) == CUZK_OK);
    r.n_vanilla_proofs = 2;
    r.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT; /* no limit of its own here */
    n = cuzk__v1__submit_proof_request__pack(&r, buf);
    CHECK(cuzk_rpc_check_request(sub, buf, n, limits, &err) == CUZK_OK);
    /* the kind written after the bytes, and twice: the last one counts, as protobuf-c reads it */
    buf[n++] = 0x10, buf[n++] = CUZK__V1__PROOF_KIND__WINNING_POST;
    CHECK(cuzk_rpc_check_request(sub, buf, n, limits, &err) == CUZK_ERR_INVALID_ARG);
    /* inside a ProveRequest */
    Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
    r.proof_kind = CUZK__V1__PROOF_KIND__WINNING_POST;
    pr.submit = &r;
    n = cuzk__v1__prove_request__pack(&pr, buf);
    CHECK(cuzk_rpc_check_request(prove, buf, n, limits, &err) == CUZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(err.msg, "ProveRequest.submit: 1200 bytes"), "%s", err.msg);
}

/* ---- responses: text escaped, the message given back as it was ---- */

static void test_pack(void)
{
    char bad[] = "c1 json: expected '{', found '\xff'";
    Cuzk__V1__AwaitProofResponse a = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    a.job_id = "j";
    a.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
    a.error_message = bad;
    Cuzk__V1__ProveResponse p = CUZK__V1__PROVE_RESPONSE__INIT;
    p.result = &a;
    uint8_t *buf = NULL;
    size_t len = 0;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_rpc_pack(&p.base, &buf, &len, &err) == CUZK_OK);
    CHECK(a.error_message == bad); /* put back */
    Cuzk__V1__ProveResponse *back = cuzk__v1__prove_response__unpack(NULL, len, buf);
    CHECK(back && back->result && strcmp(back->result->error_message, "c1 json: expected '{', found '\\xFF'") == 0);
    cuzk__v1__prove_response__free_unpacked(back, NULL);
    /* everything it sends is text: its own check of responses agrees */
    CHECK(cuzk_rpc_check_request(&cuzk__v1__prove_response__descriptor, buf, len, NULL, &err) == CUZK_OK);
    free(buf);

    /* repeated messages with strings */
    Cuzk__V1__QueueStatus q0 = CUZK__V1__QUEUE_STATUS__INIT, q1 = CUZK__V1__QUEUE_STATUS__INIT;
    q0.proof_kind = "ok";
    q1.proof_kind = bad;
    Cuzk__V1__QueueStatus *qs[2] = {&q0, &q1};
    Cuzk__V1__GetStatusResponse st = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    st.n_queues = 2;
    st.queues = qs;
    CHECK(cuzk_rpc_pack(&st.base, &buf, &len, &err) == CUZK_OK);
    CHECK(q1.proof_kind == bad);
    CHECK(cuzk_rpc_check_request(&cuzk__v1__get_status_response__descriptor, buf, len, NULL, &err) == CUZK_OK);
    free(buf);
}

/* ---- the service's handlers, without a network ---- */

static const cuzk_rpc_method_t *method(const char *name)
{
    size_t n;
    const cuzk_rpc_method_t *m = cuzk_service_methods(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(strrchr(m[i].path, '/') + 1, name) == 0)
            return &m[i];
    return NULL;
}

static grpc_status_code local(cuzk_engine_t *e, const char *name, const ProtobufCMessage *req,
                              const cuzk_rpc_server_options_t *o, cuzk_rpc_result_t *res)
{
    uint8_t buf[4096];
    size_t n = protobuf_c_message_get_packed_size(req);
    CHECK(n <= sizeof buf);
    protobuf_c_message_pack(req, buf);
    return cuzk_rpc_call_local(method(name), e, o, buf, n, false, res);
}

static grpc_status_code local_raw(cuzk_engine_t *e, const char *name, const uint8_t *req, size_t n,
                                  cuzk_rpc_result_t *res)
{
    return cuzk_rpc_call_local(method(name), e, NULL, req, n, false, res);
}

static cuzk_engine_t *quiet_engine(bool paused)
{
    cuzk_engine_config_t ec;
    cuzk_engine_config_defaults(&ec);
    ec.param_cache = "/nonexistent-params";
    ec.total_budget = 1ull << 30;
    ec.log = NULL;
    cuzk_engine_t *e = NULL;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_engine_new(&e, &ec, &err) == CUZK_OK, "%s", err.msg);
    if (e && paused)
        cuzk_engine_pause(e, true);
    return e;
}

/* A job whose C1 is one byte 0xff or "a\0b" fails with a message quoting it: the AwaitProof response
 * must still be UTF-8 throughout (the client could not read it); an id with a NUL is refused
 * at every method that takes one; a PoRep input over its kind's limit is refused before the engine. */
static void test_service_text(void)
{
    cuzk_engine_t *e = quiet_engine(false);
    if (!e)
        return;
    static const struct {
        const char *id;
        uint8_t c1[3];
        size_t len;
    } inputs[] = {{"utf8-ff", {0xff}, 1}, {"utf8-nul", {'a', 0, 'b'}, 3}};
    for (size_t i = 0; i < 2; i++) {
        Cuzk__V1__SubmitProofRequest s = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        s.request_id = (char *)inputs[i].id;
        s.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
        s.vanilla_proof = (ProtobufCBinaryData){inputs[i].len, (uint8_t *)inputs[i].c1};
        cuzk_rpc_result_t r;
        CHECK_MSG(local(e, "SubmitProof", &s.base, NULL, &r) == GRPC_STATUS_OK, "%s", r.message);
        cuzk_rpc_result_free(&r);
        Cuzk__V1__AwaitProofRequest a = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
        a.job_id = (char *)inputs[i].id;
        a.timeout_ms = 20000;
        CHECK_MSG(local(e, "AwaitProof", &a.base, NULL, &r) == GRPC_STATUS_OK, "%d %s", r.code, r.message);
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_rpc_check_request(&cuzk__v1__await_proof_response__descriptor, r.data, r.len, NULL, &err) ==
                      CUZK_OK, "%s: %s", inputs[i].id, err.msg);
        Cuzk__V1__AwaitProofResponse *resp = cuzk__v1__await_proof_response__unpack(NULL, r.len, r.data);
        CHECK(resp && resp->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED);
        if (resp)
            printf("%s: FAILED: %s\n", inputs[i].id, resp->error_message);
        cuzk__v1__await_proof_response__free_unpacked(resp, NULL);
        cuzk_rpc_result_free(&r);
    }

    /* a NUL inside an id: refused by every method that takes one, with the reason */
    static const char *const takes_id[] = {"SubmitProof", "AwaitProof", "CancelProof", "PreloadSRS", "EvictSRS"};
    uint8_t req[32];
    size_t n = put_field(req, 1, "abc\0def", 7);
    for (size_t i = 0; i < sizeof takes_id / sizeof takes_id[0]; i++) {
        cuzk_rpc_result_t r;
        CHECK_MSG(local_raw(e, takes_id[i], req, n, &r) == GRPC_STATUS_INVALID_ARGUMENT && strstr(r.message, "NUL"),
                  "%s: %d %s", takes_id[i], r.code, r.message);
        cuzk_rpc_result_free(&r);
    }
    uint8_t prove_req[40];
    size_t pn = put_field(prove_req, 1, req, n);
    cuzk_rpc_result_t r;
    CHECK(local_raw(e, "Prove", prove_req, pn, &r) == GRPC_STATUS_INVALID_ARGUMENT);
    cuzk_rpc_result_free(&r);
    /* "abc" is another id: unknown */
    n = put_field(req, 1, "abc", 3);
    CHECK(local_raw(e, "AwaitProof", req, n, &r) == GRPC_STATUS_NOT_FOUND);
    cuzk_rpc_result_free(&r);

    /* over the PoRep limit of these options: refused before the engine sees it */
    cuzk_rpc_server_options_t o = {0};
    o.max_input_by_kind[CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT] = 1024;
    static uint8_t big[2048];
    Cuzk__V1__SubmitProofRequest s = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    s.request_id = "too-big";
    s.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    s.vanilla_proof = (ProtobufCBinaryData){sizeof big, big};
    CHECK(local(e, "SubmitProof", &s.base, &o, &r) == GRPC_STATUS_INVALID_ARGUMENT);
    CHECK_MSG(strstr(r.message, "2048 bytes of proof input for POREP_SEAL_COMMIT"), "%s", r.message);
    cuzk_rpc_result_free(&r);
    s.vanilla_proof.len = 1000;
    CHECK(local(e, "SubmitProof", &s.base, &o, &r) == GRPC_STATUS_OK);
    cuzk_rpc_result_free(&r);
    cuzk_engine_free(e);
}

/* ---- the cap on calls served at once ---- */

#define M_HOLD "/test.Edge/Hold"
#define M_ECHO "/test.Edge/Echo"

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int held;
    bool release;
} hold = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, false};

static void h_hold(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    (void)ctx;
    pthread_mutex_lock(&hold.mu);
    hold.held++;
    pthread_cond_broadcast(&hold.cv);
    while (!hold.release)
        pthread_cond_wait(&hold.cv, &hold.mu);
    hold.held--;
    pthread_mutex_unlock(&hold.mu);
    cuzk_rpc_reply(call, GRPC_STATUS_OK, NULL, req, len);
}

static void h_echo(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len)
{
    (void)ctx;
    cuzk_rpc_reply(call, GRPC_STATUS_OK, NULL, req, len);
}

static const cuzk_rpc_method_t edge[] = {{M_HOLD, h_hold}, {M_ECHO, h_echo}};

typedef struct {
    cuzk_rpc_client_t *cli;
    grpc_status_code code;
    pthread_t th;
} holder_t;

static void *holder_main(void *arg)
{
    holder_t *h = arg;
    cuzk_rpc_result_t r;
    /* a slot of a call that just finished may not be free yet: try again while refused (at most 10 s) */
    for (int tries = 0; tries < 1000; tries++) {
        h->code = cuzk_rpc_client_call(h->cli, M_HOLD, (const uint8_t *)"h", 1, 30000, NULL, &r);
        cuzk_rpc_result_free(&r);
        if (h->code != GRPC_STATUS_RESOURCE_EXHAUSTED)
            break;
        usleep(10000);
    }
    return NULL;
}

static int threads_now(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    int n = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Threads: %d", &n) == 1)
            break;
    if (f)
        fclose(f);
    return n;
}

static void test_call_cap(void)
{
    enum { CAP = 4 };
    cuzk_rpc_server_options_t o = {0};
    o.max_calls = CAP;
    cuzk_rpc_server_t *s = NULL;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_rpc_server_create_with(&s, "127.0.0.1:0", edge, 2, NULL, &o, &err) == CUZK_OK);
    if (!s || cuzk_rpc_server_start(s, &err) != CUZK_OK)
        return;
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", cuzk_rpc_server_port(s));
    cuzk_rpc_client_t *cli = NULL;
    CHECK(cuzk_rpc_client_create(&cli, addr, &err) == CUZK_OK);
    cuzk_rpc_result_t r;
    CHECK(cuzk_rpc_client_call(cli, M_ECHO, (const uint8_t *)"x", 1, 5000, NULL, &r) == GRPC_STATUS_OK);
    cuzk_rpc_result_free(&r);

    holder_t h[CAP];
    hold.release = false;
    for (int i = 0; i < CAP; i++) {
        h[i].cli = cli;
        pthread_create(&h[i].th, NULL, holder_main, &h[i]);
    }
    double end = now_s() + 10;
    pthread_mutex_lock(&hold.mu);
    while (hold.held < CAP && now_s() < end) {
        pthread_mutex_unlock(&hold.mu);
        usleep(5000);
        pthread_mutex_lock(&hold.mu);
    }
    int held = hold.held;
    pthread_mutex_unlock(&hold.mu);
    CHECK_MSG(held == CAP, "%d calls held", held);

    /* the server is full: each further call is refused at once, and costs no thread */
    int before = threads_now();
    double t0 = now_s();
    int refused = 0;
    for (int i = 0; i < 100; i++) {
        grpc_status_code code = cuzk_rpc_client_call(cli, M_ECHO, (const uint8_t *)"x", 1, 5000, NULL, &r);
        refused += code == GRPC_STATUS_RESOURCE_EXHAUSTED && strstr(r.message, "4 calls in progress");
        if (i == 0)
            printf("a call beyond the cap: %d %s\n", code, r.message);
        cuzk_rpc_result_free(&r);
    }
    double dt = now_s() - t0;
    int after = threads_now();
    CHECK_MSG(refused == 100, "%d of 100 refused", refused);
    CHECK_MSG(after - before <= 2, "threads %d -> %d", before, after);
    printf("100 calls beyond a cap of %d: refused in %.3f s, threads %d -> %d\n", CAP, dt, before, after);

    pthread_mutex_lock(&hold.mu);
    hold.release = true;
    pthread_cond_broadcast(&hold.cv);
    pthread_mutex_unlock(&hold.mu);
    for (int i = 0; i < CAP; i++) {
        pthread_join(h[i].th, NULL);
        CHECK(h[i].code == GRPC_STATUS_OK);
    }
    /* room again (the finished calls' threads may take a moment to leave the count) */
    grpc_status_code code = GRPC_STATUS_RESOURCE_EXHAUSTED;
    for (int tries = 0; tries < 100 && code == GRPC_STATUS_RESOURCE_EXHAUSTED; tries++) {
        code = cuzk_rpc_client_call(cli, M_ECHO, (const uint8_t *)"x", 1, 5000, NULL, &r);
        cuzk_rpc_result_free(&r);
        if (code == GRPC_STATUS_RESOURCE_EXHAUSTED)
            usleep(10000);
    }
    CHECK(code == GRPC_STATUS_OK);
    cuzk_rpc_client_destroy(cli);
    cuzk_rpc_server_destroy(s);
}

/* ---- sockets: a unix socket's mode, a name with two addresses ---- */

static void test_unix_mode(void)
{
    char dir[] = "/tmp/cuzk-edge-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[96], addr[128];
    snprintf(path, sizeof path, "%s/cuzk.sock", dir);
    snprintf(addr, sizeof addr, "unix://%s", path);
    mode_t old = umask(0); /* the sloppiest umask: the socket must still be 0660 */
    static const uint32_t modes[] = {0, 0600, 0666};
    for (int i = 0; i < 3; i++) {
        cuzk_rpc_server_options_t o = {0};
        o.socket_mode = modes[i];
        cuzk_rpc_server_t *s = NULL;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_rpc_server_create_with(&s, addr, edge, 2, NULL, &o, &err) == CUZK_OK, "%s", err.msg);
        struct stat sb;
        CHECK(stat(path, &sb) == 0 && S_ISSOCK(sb.st_mode));
        unsigned want = modes[i] ? modes[i] : 0660;
        CHECK_MSG((sb.st_mode & 0777) == want, "mode %o, want %o", sb.st_mode & 0777, want);
        cuzk_rpc_server_destroy(s);
    }
    umask(old);
    cuzk_rpc_server_options_t o = {0};
    o.socket_mode = 01777;
    cuzk_rpc_server_t *s = NULL;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_rpc_server_create_with(&s, addr, edge, 2, NULL, &o, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(rmdir(dir) == 0);
}

/* A socket bound and listening on addr (numeric), or -1. */
static int occupy(const char *ip, int port)
{
    struct sockaddr_storage ss = {0};
    socklen_t len;
    if (strchr(ip, ':')) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)port);
        inet_pton(AF_INET6, ip, &a->sin6_addr);
        len = sizeof *a;
    } else {
        struct sockaddr_in *a = (struct sockaddr_in *)&ss;
        a->sin_family = AF_INET;
        a->sin_port = htons((uint16_t)port);
        inet_pton(AF_INET, ip, &a->sin_addr);
        len = sizeof *a;
    }
    int fd = socket(ss.ss_family, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (ss.ss_family == AF_INET6)
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    if (fd < 0 || bind(fd, (struct sockaddr *)&ss, len) != 0 || listen(fd, 4) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

static bool ipv6_loopback(void)
{
    int fd = occupy("::1", 0);
    if (fd >= 0)
        close(fd);
    return fd >= 0;
}

static void test_dual_address(void)
{
    if (!ipv6_loopback()) {
        printf("no IPv6 loopback here: the two-address cases are skipped\n");
        return;
    }
    /* port 0: both addresses, one port, both answer */
    cuzk_rpc_server_t *s = NULL;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_rpc_server_create(&s, DUAL_NAME ":0", edge, 2, NULL, &err) == CUZK_OK, "%s", err.msg);
    if (!s || cuzk_rpc_server_start(s, &err) != CUZK_OK)
        return;
    int port = cuzk_rpc_server_port(s);
    static const char *const via[] = {"127.0.0.1", "[::1]"};
    for (int i = 0; i < 2; i++) {
        char addr[64];
        snprintf(addr, sizeof addr, "%s:%d", via[i], port);
        cuzk_rpc_client_t *cli = NULL;
        CHECK(cuzk_rpc_client_create(&cli, addr, &err) == CUZK_OK);
        cuzk_rpc_result_t r;
        CHECK_MSG(cuzk_rpc_client_call(cli, M_ECHO, (const uint8_t *)"x", 1, 5000, NULL, &r) == GRPC_STATUS_OK,
                  "%s: %d %s", addr, r.code, r.message);
        cuzk_rpc_result_free(&r);
        cuzk_rpc_client_destroy(cli);
    }
    cuzk_rpc_server_destroy(s);

    /* [::1]:port taken by someone else: nothing is served, the message says which address and why */
    int taken = occupy("::1", port);
    CHECK(taken >= 0);
    char addr[64];
    snprintf(addr, sizeof addr, DUAL_NAME ":%d", port);
    s = NULL;
    CHECK(cuzk_rpc_server_create(&s, addr, edge, 2, NULL, &err) == CUZK_ERR_IO && !s);
    printf("gRPC on %s with [::1] taken: %s\n", addr, err.msg);
    CHECK_MSG(strstr(err.msg, "[::1]") && strstr(err.msg, "in use") && strstr(err.msg, "2 addresses"), "%s", err.msg);
    int v4 = occupy("127.0.0.1", port); /* and 127.0.0.1 was let go */
    CHECK_MSG(v4 >= 0, "127.0.0.1:%d is still bound", port);
    if (v4 >= 0)
        close(v4);

    /* the HTTP status endpoint, the same way */
    cuzk_engine_t *e = quiet_engine(true);
    cuzk_http_status_t *h = NULL;
    CHECK(cuzk_http_status_start(&h, addr, e, &err) == CUZK_ERR_IO && !h);
    printf("HTTP on %s with [::1] taken: %s\n", addr, err.msg);
    CHECK_MSG(strstr(err.msg, "[::1]") && strstr(err.msg, "2 addresses"), "%s", err.msg);
    close(taken);
    CHECK_MSG(cuzk_http_status_start(&h, DUAL_NAME ":0", e, &err) == CUZK_OK, "%s", err.msg);
    if (h) {
        int hp = cuzk_http_status_port(h);
        CHECK(hp > 0);
        int fd4 = occupy("127.0.0.1", hp), fd6 = occupy("::1", hp); /* both are ours */
        CHECK(fd4 < 0 && fd6 < 0);
        if (fd4 >= 0)
            close(fd4);
        if (fd6 >= 0)
            close(fd6);
    }
    cuzk_http_status_stop(h);
    cuzk_engine_free(e);
}

/* ---- HTTP: idle connections do not keep a request out ---- */

static int connect_to(int port)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* GET path; the status line's code, 0 when no answer came within timeout_ms. */
static int http_get(int port, const char *path, int timeout_ms)
{
    int fd = connect_to(port);
    if (fd < 0)
        return 0;
    char req[128], resp[256];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.0\r\n\r\n", path);
    int code = 0;
    if (write(fd, req, (size_t)n) == n) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, timeout_ms) == 1) {
            ssize_t got = read(fd, resp, sizeof resp - 1);
            if (got > 12) {
                resp[got] = 0;
                code = atoi(resp + 9);
            }
        }
    }
    close(fd);
    return code;
}

static void test_http_crowd(void)
{
    cuzk_engine_t *e = quiet_engine(true);
    cuzk_http_status_options_t o = {8, 60000}; /* eight places; silence alone would take a minute */
    cuzk_http_status_t *h = NULL;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_http_status_start_with(&h, "127.0.0.1:0", e, &o, &err) == CUZK_OK, "%s", err.msg);
    if (!h) {
        cuzk_engine_free(e);
        return;
    }
    int port = cuzk_http_status_port(h);
    CHECK(http_get(port, "/status", 5000) == 200);
    enum { CROWD = 200 };
    int fds[CROWD], open_n = 0;
    for (int i = 0; i < CROWD; i++)
        if ((fds[i] = connect_to(port)) >= 0)
            open_n++;
    CHECK(open_n == CROWD);
    double t0 = now_s();
    int code = http_get(port, "/status", 5000);
    double dt = now_s() - t0;
    CHECK_MSG(code == 200 && dt < 2.0, "GET /status behind %d idle connections: %d after %.3f s", CROWD, code, dt);
    printf("GET /status behind %d idle connections (8 places): HTTP %d in %.3f s\n", CROWD, code, dt);
    /* the oldest of the crowd were closed to make room */
    int closed = 0;
    for (int i = 0; i < 8; i++) {
        char c;
        struct pollfd p = {.fd = fds[i], .events = POLLIN};
        closed += poll(&p, 1, 1000) == 1 && read(fds[i], &c, 1) == 0;
    }
    CHECK_MSG(closed == 8, "%d of the 8 oldest closed", closed);
    for (int i = 0; i < CROWD; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    cuzk_http_status_stop(h);

    /* a short idle timeout closes a silent connection by itself */
    o = (cuzk_http_status_options_t){8, 200};
    CHECK(cuzk_http_status_start_with(&h, "127.0.0.1:0", e, &o, &err) == CUZK_OK);
    if (h) {
        int fd = connect_to(cuzk_http_status_port(h));
        char c;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        t0 = now_s();
        CHECK(poll(&p, 1, 5000) == 1 && read(fd, &c, 1) == 0);
        dt = now_s() - t0;
        CHECK_MSG(dt >= 0.15 && dt < 2.0, "closed after %.3f s", dt);
        close(fd);
        cuzk_http_status_stop(h);
    }
    cuzk_engine_free(e);
}

int main(void)
{
    test_init("test_rpc_edge");
    test_utf8();
    test_request_check();
    test_pack();
    test_service_text();
    test_call_cap();
    test_unix_mode();
    test_dual_address();
    test_http_crowd();
    return test_finish();
}
