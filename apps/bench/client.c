/* cuzk-bench as the daemon's client: single, batch, submit / await / cancel, status, preload, evict,
 * metrics (cuzk.v1 over gRPC), with the original tool's output. Proofs can be checked offline against
 * a parameter directory's .vk (--verify-params DIR), so a benchmark also proves it got valid proofs. */
#include "bench/client.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "cuzk/v1/proving.pb-c.h"
#include "filecoin/vanilla/c1_json.h"
#include "filecoin/porep/porep_keys.h"
#include "filecoin/porep/porep_prove.h"
#include "server/rpc_client.h"

#define METHOD(name) "/cuzk.v1.ProvingEngine/" name

typedef struct {
    const char *addr;
    const char *type, *c1, *verify_params, *request_id, *job, *circuit;
    uint64_t sector_num, miner_id, sector_size, count, concurrency, timeout_ms;
    bool has_sector_num;
    int priority;
} opts_t;

static int bad(const char *fmt, const char *a)
{
    fprintf(stderr, "cuzk-bench: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n");
    return 2;
}

static int parse_priority(const char *s)
{
    static const char *names[] = {"unspecified", "low", "normal", "high", "critical"};
    for (int i = 0; i < 5; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static int parse_opts(opts_t *o, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return bad("%s needs a value", a);
        i++;
        uint64_t *num = NULL;
        if (strcmp(a, "-t") == 0 || strcmp(a, "--type") == 0)
            o->type = v;
        else if (strcmp(a, "--c1") == 0)
            o->c1 = v;
        else if (strcmp(a, "--verify-params") == 0)
            o->verify_params = v;
        else if (strcmp(a, "--request-id") == 0)
            o->request_id = v;
        else if (strcmp(a, "--job") == 0)
            o->job = v;
        else if (strcmp(a, "-c") == 0 && o->circuit)
            o->circuit = v;
        else if (strcmp(a, "--circuit-id") == 0)
            o->circuit = v;
        else if (strcmp(a, "--priority") == 0) {
            if ((o->priority = parse_priority(v)) < 0)
                return bad("--priority: low, normal, high or critical, not %s", v);
        } else if (strcmp(a, "--sector-num") == 0) {
            num = &o->sector_num;
            o->has_sector_num = true;
        } else if (strcmp(a, "--miner-id") == 0)
            num = &o->miner_id;
        else if (strcmp(a, "--sector-size") == 0)
            num = &o->sector_size;
        else if (strcmp(a, "-c") == 0 || strcmp(a, "--count") == 0)
            num = &o->count;
        else if (strcmp(a, "-j") == 0 || strcmp(a, "--concurrency") == 0)
            num = &o->concurrency;
        else if (strcmp(a, "--timeout-ms") == 0)
            num = &o->timeout_ms;
        else
            return bad("unknown option %s", a);
        if (num && cli_parse_u64(v, num) != 0)
            return bad("%s expects a number", a);
    }
    return 0;
}

/* The C1 file, and the sector number of its Curio wrapper when it has one. */
static uint8_t *read_c1(const char *path, size_t *len, uint64_t *wrapped_sector)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
        *len = (size_t)n;
        const char *key = "{\"SectorNum\":";
        if ((size_t)n > strlen(key) && memcmp(buf, key, strlen(key)) == 0)
            *wrapped_sector = strtoull((const char *)buf + strlen(key), NULL, 10);
    } else {
        perror(path);
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    return buf;
}

typedef struct {
    uint8_t *c1;
    size_t c1_len;
    cuzk_fc_c1_t parsed;        /* for --verify-params */
    cuzk_porep_keys_t keys;
    bool verify;
} request_t;

static int load_request(request_t *r, opts_t *o)
{
    memset(r, 0, sizeof *r);
    if (o->type && strcmp(o->type, "porep") != 0 && strcmp(o->type, "porep-c2") != 0 &&
        strcmp(o->type, "seal-commit") != 0) {
        fprintf(stderr, "cuzk-bench: --type %s: only PoRep (porep, porep-c2, seal-commit) is supported yet\n",
                o->type);
        return 2;
    }
    if (!o->c1)
        return bad("%s", "--c1 FILE is required");
    uint64_t wrapped = 0;
    if (!(r->c1 = read_c1(o->c1, &r->c1_len, &wrapped)))
        return 2;
    if (!o->has_sector_num)
        o->sector_num = wrapped ? wrapped : 1;
    if (o->verify_params) {
        cuzk_err_t err = {{0}};
        cuzk_fc_c1_wrapper_info_t info;
        if (cuzk_fc_c1_parse_any(&r->parsed, &info, (const char *)r->c1, r->c1_len, 0, &err) != CUZK_OK ||
            cuzk_porep_keys_open(&r->keys, o->verify_params, r->parsed.proof, false, 0, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk-bench: --verify-params: %s\n", err.msg);
            return 2;
        }
        r->verify = true;
    }
    return 0;
}

static void free_request(request_t *r)
{
    free(r->c1);
    cuzk_fc_c1_free(&r->parsed);
    cuzk_porep_keys_close(&r->keys);
}

static void fill_submit(Cuzk__V1__SubmitProofRequest *s, const opts_t *o, const request_t *r, const char *id)
{
    cuzk__v1__submit_proof_request__init(s);
    s->request_id = (char *)(id ? id : "");
    s->proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    s->sector_size = o->sector_size;
    s->priority = (Cuzk__V1__Priority)o->priority;
    s->vanilla_proof.data = r->c1;
    s->vanilla_proof.len = r->c1_len;
    s->sector_number = o->sector_num;
    s->miner_id = o->miner_id;
}

/* One call: packs m, calls, and unpacks the reply with unpack (NULL on any failure, printed). */
static void *call(cuzk_rpc_client_t *c, const char *method, const ProtobufCMessage *m,
                  void *(*unpack)(ProtobufCAllocator *, size_t, const uint8_t *), uint64_t timeout_ms,
                  grpc_status_code *code_out)
{
    size_t len = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        return NULL;
    protobuf_c_message_pack(m, buf);
    cuzk_rpc_result_t res;
    grpc_status_code code = cuzk_rpc_client_call(c, method, buf, len, timeout_ms, NULL, &res);
    free(buf);
    if (code_out)
        *code_out = code;
    void *out = NULL;
    if (code != GRPC_STATUS_OK)
        fprintf(stderr, "cuzk-bench: %s: %s (gRPC status %d)\n", method + 23, res.message, (int)code);
    else if (!(out = unpack(NULL, res.len, res.data)))
        fprintf(stderr, "cuzk-bench: %s: malformed reply\n", method + 23);
    cuzk_rpc_result_free(&res);
    return out;
}

#define UNPACK_FN(fn) ((void *(*)(ProtobufCAllocator *, size_t, const uint8_t *))(fn))

static const char *status_name(int s)
{
    static const char *names[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
    return s >= 0 && s <= 4 ? names[s] : "?";
}

/* Checks a returned proof against the C1 with the parameter directory's .vk. */
static bool proof_valid(const request_t *r, const uint8_t *proof, size_t len)
{
    size_t n = r->parsed.n_partitions, got = 0;
    cuzk_groth16_proof_t *p = calloc(n ? n : 1, sizeof *p);
    cuzk_err_t err = {{0}};
    bool valid = false;
    if (p && cuzk_groth16_proofs_read(p, n, &got, proof, len, &err) == CUZK_OK)
        cuzk_porep_verify(&valid, &r->parsed, &r->keys.vk, p, got, &err);
    free(p);
    return valid;
}

typedef struct {
    Cuzk__V1__ProveResponse *resp;
    double wall_s;
    bool valid;
} outcome_t;

static void prove_once(cuzk_rpc_client_t *c, const opts_t *o, const request_t *r, const char *id, outcome_t *out)
{
    Cuzk__V1__SubmitProofRequest s;
    fill_submit(&s, o, r, id);
    Cuzk__V1__ProveRequest req = CUZK__V1__PROVE_REQUEST__INIT;
    req.submit = &s;
    double t0 = cli_now();
    out->resp = call(c, METHOD("Prove"), &req.base, UNPACK_FN(cuzk__v1__prove_response__unpack), 0, NULL);
    out->wall_s = cli_now() - t0;
    Cuzk__V1__AwaitProofResponse *a = out->resp ? out->resp->result : NULL;
    out->valid = a && a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED &&
                 (!r->verify || proof_valid(r, a->proof.data, a->proof.len));
}

static void print_result(const Cuzk__V1__AwaitProofResponse *a, double wall_s, const request_t *r, bool valid)
{
    printf("=== Proof Result ===\nstatus: %s\njob_id: %s\n", status_name(a->status), a->job_id);
    printf("timings: total=%" PRIu64 " ms (queue=%" PRIu64 ", srs=%" PRIu64 ", synth=%" PRIu64 ", gpu=%" PRIu64
           " ms)\n", a->total_ms, a->queue_wait_ms, a->srs_load_ms, a->synthesis_ms, a->gpu_compute_ms);
    printf("wall time: %.2fs\n", wall_s);
    if (a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
        size_t show = a->proof.len <= 256 ? a->proof.len : 128;
        printf("proof: %zu bytes (hex: ", a->proof.len);
        for (size_t i = 0; i < show; i++)
            printf("%02x", a->proof.data[i]);
        printf("%s)\n", show < a->proof.len ? "..." : "");
        if (r->verify)
            printf("offline verification: %s\n", valid ? "valid" : "INVALID");
    } else
        printf("error: %s\n", a->error_message);
}

static int cmd_single(cuzk_rpc_client_t *c, opts_t *o)
{
    request_t r;
    int rc = load_request(&r, o);
    if (rc)
        return rc;
    outcome_t out = {0};
    prove_once(c, o, &r, o->request_id, &out);
    if (out.resp && out.resp->result)
        print_result(out.resp->result, out.wall_s, &r, out.valid);
    rc = out.valid ? 0 : 1;
    if (out.resp)
        cuzk__v1__prove_response__free_unpacked(out.resp, NULL);
    free_request(&r);
    return rc;
}

typedef struct {
    cuzk_rpc_client_t *c;
    const opts_t *o;
    const request_t *r;
    pthread_mutex_t mu;
    uint64_t next, done;
    outcome_t *outcomes;
} batch_t;

static void *batch_worker(void *p)
{
    batch_t *b = p;
    for (;;) {
        pthread_mutex_lock(&b->mu);
        uint64_t i = b->next < b->o->count ? b->next++ : UINT64_MAX;
        pthread_mutex_unlock(&b->mu);
        if (i == UINT64_MAX)
            return NULL;
        outcome_t *out = &b->outcomes[i];
        prove_once(b->c, b->o, b->r, NULL, out);
        Cuzk__V1__AwaitProofResponse *a = out->resp ? out->resp->result : NULL;
        pthread_mutex_lock(&b->mu);
        b->done++;
        printf("[%" PRIu64 "/%" PRIu64 "] %s — %.1fs (prove=%" PRIu64 " ms, queue=%" PRIu64 " ms)%s\n", b->done,
               b->o->count, a ? status_name(a->status) : "ERROR", out->wall_s, a ? a->gpu_compute_ms : 0,
               a ? a->queue_wait_ms : 0, a && !out->valid && a->status == 1 ? " INVALID PROOF" : "");
        fflush(stdout);
        pthread_mutex_unlock(&b->mu);
    }
}

static void stats(const double *v, size_t n, double *avg, double *lo, double *hi)
{
    *avg = 0;
    *lo = n ? v[0] : 0;
    *hi = *lo;
    for (size_t i = 0; i < n; i++) {
        *avg += v[i] / (double)n;
        *lo = v[i] < *lo ? v[i] : *lo;
        *hi = v[i] > *hi ? v[i] : *hi;
    }
}

static int cmd_batch(cuzk_rpc_client_t *c, opts_t *o)
{
    if (!o->count)
        o->count = 3;
    if (!o->concurrency)
        o->concurrency = 1;
    if (o->concurrency > 256)
        return bad("%s", "-j: at most 256");
    request_t r;
    int rc = load_request(&r, o);
    if (rc)
        return rc;
    batch_t b = {.c = c, .o = o, .r = &r, .outcomes = calloc(o->count, sizeof(outcome_t))};
    pthread_t *th = calloc(o->concurrency, sizeof *th);
    double *wall = calloc(o->count, sizeof *wall), *prove = calloc(o->count, sizeof *prove);
    if (!b.outcomes || !th || !wall || !prove) {
        free_request(&r);
        return bad("%s", "out of memory");
    }
    pthread_mutex_init(&b.mu, NULL);
    printf("=== Batch Benchmark ===\ntype: porep-c2, count: %" PRIu64 ", concurrency: %" PRIu64 "\n", o->count,
           o->concurrency);
    double t0 = cli_now();
    uint64_t started = 0;
    for (; started < o->concurrency && pthread_create(&th[started], NULL, batch_worker, &b) == 0; started++)
        ;
    for (uint64_t i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    if (!started)
        batch_worker(&b);
    double total = cli_now() - t0;
    size_t ok = 0;
    for (uint64_t i = 0; i < o->count; i++) {
        outcome_t *out = &b.outcomes[i];
        if (out->valid) {
            wall[ok] = out->wall_s;
            prove[ok] = (double)out->resp->result->gpu_compute_ms / 1e3;
            ok++;
        }
        if (out->resp)
            cuzk__v1__prove_response__free_unpacked(out->resp, NULL);
    }
    double wa, wl, wh, pa, pl, ph;
    stats(wall, ok, &wa, &wl, &wh);
    stats(prove, ok, &pa, &pl, &ph);
    printf("=== Batch Summary ===\ntotal time: %.1fs\ncompleted: %zu, failed: %zu\n", total, ok,
           (size_t)o->count - ok);
    printf("wall time: avg=%.1fs min=%.1fs max=%.1fs\n", wa, wl, wh);
    printf("prove time: avg=%.1fs min=%.1fs max=%.1fs\n", pa, pl, ph);
    printf("throughput: %.2f proofs/min (%.2f s/proof)\n", ok ? (double)ok * 60 / total : 0,
           ok ? total / (double)ok : 0);
    rc = ok == o->count ? 0 : 1;
    pthread_mutex_destroy(&b.mu);
    free(b.outcomes);
    free(th);
    free(wall);
    free(prove);
    free_request(&r);
    return rc;
}

static int cmd_submit(cuzk_rpc_client_t *c, opts_t *o)
{
    request_t r;
    int rc = load_request(&r, o);
    if (rc)
        return rc;
    Cuzk__V1__SubmitProofRequest s;
    fill_submit(&s, o, &r, o->request_id);
    Cuzk__V1__SubmitProofResponse *resp =
        call(c, METHOD("SubmitProof"), &s.base, UNPACK_FN(cuzk__v1__submit_proof_response__unpack), 0, NULL);
    if (resp)
        printf("job_id: %s\nqueue_position: %u\n", resp->job_id, resp->queue_position);
    rc = resp ? 0 : 1;
    if (resp)
        cuzk__v1__submit_proof_response__free_unpacked(resp, NULL);
    free_request(&r);
    return rc;
}

static int cmd_await(cuzk_rpc_client_t *c, opts_t *o)
{
    if (!o->job)
        return bad("%s", "--job ID is required");
    Cuzk__V1__AwaitProofRequest req = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    req.job_id = (char *)o->job;
    req.timeout_ms = o->timeout_ms;
    double t0 = cli_now();
    Cuzk__V1__AwaitProofResponse *a =
        call(c, METHOD("AwaitProof"), &req.base, UNPACK_FN(cuzk__v1__await_proof_response__unpack), 0, NULL);
    if (!a)
        return 1;
    request_t none = {0};
    print_result(a, cli_now() - t0, &none, false);
    int rc = a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED ? 0 : 1;
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);
    return rc;
}

static int cmd_cancel(cuzk_rpc_client_t *c, opts_t *o)
{
    if (!o->job)
        return bad("%s", "--job ID is required");
    Cuzk__V1__CancelProofRequest req = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    req.job_id = (char *)o->job;
    Cuzk__V1__CancelProofResponse *resp =
        call(c, METHOD("CancelProof"), &req.base, UNPACK_FN(cuzk__v1__cancel_proof_response__unpack), 0, NULL);
    if (!resp)
        return 1;
    printf("%s cancelled (%s)\n", o->job, resp->was_running ? "was running" : "was queued");
    cuzk__v1__cancel_proof_response__free_unpacked(resp, NULL);
    return 0;
}

static int cmd_status(cuzk_rpc_client_t *c)
{
    Cuzk__V1__GetStatusRequest req = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *s =
        call(c, METHOD("GetStatus"), &req.base, UNPACK_FN(cuzk__v1__get_status_response__unpack), 0, NULL);
    if (!s)
        return 1;
    printf("uptime: %" PRIu64 " s\nproofs completed: %" PRIu64 ", failed: %" PRIu64 "\n", s->uptime_seconds,
           s->total_proofs_completed, s->total_proofs_failed);
    printf("pinned memory: %" PRIu64 " / %" PRIu64 " bytes\n", s->pinned_memory_bytes, s->pinned_memory_limit_bytes);
    for (size_t i = 0; i < s->n_gpus; i++)
        printf("  [%u] %s — %" PRIu64 " MiB free / %" PRIu64 " MiB total VRAM — %s\n", s->gpus[i]->ordinal,
               s->gpus[i]->name, s->gpus[i]->vram_free_bytes >> 20, s->gpus[i]->vram_total_bytes >> 20,
               s->gpus[i]->current_job_id[0] ? "proving" : "idle");
    printf("GPUs: %zu (CPU proving)\nloaded SRS:\n", s->n_gpus);
    for (size_t i = 0; i < s->n_loaded_srs; i++)
        printf("  %s: %.1f MiB, %u in use\n", s->loaded_srs[i]->circuit_id, s->loaded_srs[i]->size_bytes / 1048576.0,
               s->loaded_srs[i]->ref_count);
    printf("queues:\n");
    for (size_t i = 0; i < s->n_queues; i++)
        printf("  %s: %u pending, %u in progress\n", s->queues[i]->proof_kind, s->queues[i]->pending,
               s->queues[i]->in_progress);
    cuzk__v1__get_status_response__free_unpacked(s, NULL);
    return 0;
}

static int cmd_srs(cuzk_rpc_client_t *c, opts_t *o, bool preload)
{
    if (!o->circuit)
        return bad("%s", "-c/--circuit-id ID is required (e.g. porep-32g)");
    if (preload) {
        Cuzk__V1__PreloadSrsRequest req = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
        req.circuit_id = (char *)o->circuit;
        Cuzk__V1__PreloadSrsResponse *r =
            call(c, METHOD("PreloadSRS"), &req.base, UNPACK_FN(cuzk__v1__preload_srs_response__unpack), 0, NULL);
        if (!r)
            return 1;
        if (r->already_loaded)
            printf("%s already loaded\n", o->circuit);
        else
            printf("%s loaded in %" PRIu64 " ms\n", o->circuit, r->load_time_ms);
        cuzk__v1__preload_srs_response__free_unpacked(r, NULL);
        return 0;
    }
    Cuzk__V1__EvictSrsRequest req = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    req.circuit_id = (char *)o->circuit;
    Cuzk__V1__EvictSrsResponse *r =
        call(c, METHOD("EvictSRS"), &req.base, UNPACK_FN(cuzk__v1__evict_srs_response__unpack), 0, NULL);
    if (!r)
        return 1;
    if (r->was_loaded)
        printf("%s evicted, %" PRIu64 " bytes freed\n", o->circuit, r->freed_bytes);
    else
        printf("%s was not loaded\n", o->circuit);
    cuzk__v1__evict_srs_response__free_unpacked(r, NULL);
    return 0;
}

static int cmd_metrics(cuzk_rpc_client_t *c)
{
    Cuzk__V1__GetMetricsRequest req = CUZK__V1__GET_METRICS_REQUEST__INIT;
    Cuzk__V1__GetMetricsResponse *m =
        call(c, METHOD("GetMetrics"), &req.base, UNPACK_FN(cuzk__v1__get_metrics_response__unpack), 0, NULL);
    if (!m)
        return 1;
    fputs(m->prometheus_text, stdout);
    cuzk__v1__get_metrics_response__free_unpacked(m, NULL);
    return 0;
}

bool bench_client_command(const char *cmd)
{
    static const char *cmds[] = {"single", "batch", "submit", "await", "cancel", "status", "preload", "evict",
                                 "metrics"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(cmd, cmds[i]) == 0)
            return true;
    return false;
}

int bench_client(const char *addr, const char *cmd, int argc, char **argv)
{
    opts_t o = {.addr = addr, .miner_id = 1000};
    if (strcmp(cmd, "preload") == 0 || strcmp(cmd, "evict") == 0)
        o.circuit = ""; /* -c means --circuit-id here, --count in batch */
    int rc = parse_opts(&o, argc, argv);
    if (rc)
        return rc;
    if (o.circuit && !o.circuit[0])
        o.circuit = NULL;
    cuzk_rpc_client_t *c = NULL;
    cuzk_err_t err = {{0}};
    if (cuzk_rpc_client_create(&c, addr, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: %s: %s\n", addr, err.msg);
        return 2;
    }
    if (strcmp(cmd, "single") == 0)
        rc = cmd_single(c, &o);
    else if (strcmp(cmd, "batch") == 0)
        rc = cmd_batch(c, &o);
    else if (strcmp(cmd, "submit") == 0)
        rc = cmd_submit(c, &o);
    else if (strcmp(cmd, "await") == 0)
        rc = cmd_await(c, &o);
    else if (strcmp(cmd, "cancel") == 0)
        rc = cmd_cancel(c, &o);
    else if (strcmp(cmd, "status") == 0)
        rc = cmd_status(c);
    else if (strcmp(cmd, "preload") == 0 || strcmp(cmd, "evict") == 0)
        rc = cmd_srs(c, &o, strcmp(cmd, "preload") == 0);
    else
        rc = cmd_metrics(c);
    cuzk_rpc_client_destroy(c);
    return rc;
}

void bench_client_usage(FILE *f)
{
    fprintf(f, "client commands (the daemon at -a/--addr, default http://127.0.0.1:9820, or unix:///path):\n"
               "  single  --c1 FILE [-t porep] [--sector-num N] [--miner-id N] [--priority P] [--request-id ID]\n"
               "          [--verify-params DIR]      one proof (Prove), checked offline with DIR's .vk\n"
               "  batch   --c1 FILE [-c COUNT] [-j CONCURRENCY] [...as single]   throughput\n"
               "  submit  --c1 FILE [...as single]   queue a job, print its id\n"
               "  await   --job ID [--timeout-ms N]  wait for a job's result\n"
               "  cancel  --job ID\n"
               "  status | metrics\n"
               "  preload -c CIRCUIT_ID | evict -c CIRCUIT_ID   (porep-2k, porep-8m, porep-512m, porep-32g, porep-64g)\n"
               "  gen-vanilla porep [--sector-size 2KiB] [--miner-id 1000] [--sector-num 1] [-o FILE]\n"
               "          seal a sector with random data and write its C1 output in Curio's wrapper\n");
}
