/* The engine without proving (fast): the memory budget, parameter eviction on a clock of the test's own
 * (just after boot included), circuit ids, request checks, priority order of queued jobs (seen in the
 * TIMELINE log),
 * cancel, await timeouts (huge ones included), idempotent submission, failures reported with the reason
 * (malformed C1, missing parameters), shutdown waking waiters and refusing new work, status and metrics
 * text. Proofs through the engine are in test_engine_prove_slow. */
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "engine/budget.h"
#include "engine/srs_cache.h"
#include "filecoin/vanilla/c1_json.h"
#include "filecoin/fc_seal_test.h"
#include "test_util.h"
#include "util/timer.h"

static uint64_t evicted_ask;
static uint64_t fake_evict(void *ctx, uint64_t need)
{
    cuzk_budget_t *b = ctx;
    evicted_ask = need;
    cuzk_budget_release(b, 30); /* pretend an idle 30-byte entry was dropped */
    return 30;
}

static bool always_stop(void *arg)
{
    (void)arg;
    return true;
}

static void *acquire_50(void *b)
{
    cuzk_err_t err = {{0}};
    CHECK(cuzk_budget_acquire(b, 50, NULL, NULL, "x", &err) == CUZK_OK);
    return NULL;
}

static void test_budget(void)
{
    cuzk_budget_t b;
    cuzk_err_t err = {{0}};
    cuzk_budget_init(&b, 100, NULL, NULL);
    CHECK(cuzk_budget_acquire(&b, 60, NULL, NULL, "x", &err) == CUZK_OK);
    CHECK(!cuzk_budget_try_acquire(&b, 41));
    CHECK(cuzk_budget_try_acquire(&b, 40));
    CHECK(cuzk_budget_acquire(&b, 101, NULL, NULL, "a partition", &err) == CUZK_ERR_NO_MEMORY);
    CHECK(strstr(err.msg, "a partition") != NULL);
    CHECK(cuzk_budget_acquire(&b, 10, always_stop, NULL, "x", &err) == CUZK_ERR_CANCELLED);
    uint64_t total, used, peak;
    cuzk_budget_release(&b, 50);
    cuzk_budget_get(&b, &total, &used, &peak);
    CHECK(total == 100 && used == 50 && peak == 100);
    cuzk_budget_destroy(&b);

    /* a reservation that does not fit asks the evictor for the shortfall */
    cuzk_budget_init(&b, 100, fake_evict, &b);
    CHECK(cuzk_budget_try_acquire(&b, 90));
    CHECK(cuzk_budget_acquire(&b, 30, NULL, NULL, "x", &err) == CUZK_OK);
    CHECK(evicted_ask == 20);
    cuzk_budget_get(&b, NULL, &used, NULL);
    CHECK(used == 90);
    cuzk_budget_destroy(&b);

    /* a thread waiting for memory is counted (provers stop holding back for it) until it gets it */
    cuzk_budget_init(&b, 100, NULL, NULL);
    CHECK(cuzk_budget_try_acquire(&b, 90) && cuzk_budget_waiting(&b) == 0);
    pthread_t th;
    pthread_create(&th, NULL, acquire_50, &b);
    for (int i = 0; i < 2000 && cuzk_budget_waiting(&b) == 0; i++)
        usleep(1000);
    CHECK(cuzk_budget_waiting(&b) == 1);
    cuzk_budget_release(&b, 90);
    pthread_join(th, NULL);
    CHECK(cuzk_budget_waiting(&b) == 0);
    cuzk_budget_get(&b, NULL, &used, NULL);
    CHECK(used == 50);
    cuzk_budget_destroy(&b);
}

/* The cache tests run on a clock of their own: timestamps are placed relative to a chosen "now" and
 * eviction is asked at that time, so that nothing depends on how long ago the machine booted. */
#define SEC 1000000000ull

static cuzk_srs_entry_t *fake_entry(cuzk_srs_cache_t *c, const char *id, uint64_t bytes, uint32_t refs,
                                    uint64_t last_used_ns)
{
    cuzk_srs_entry_t *e = calloc(1, sizeof *e);
    snprintf(e->circuit.id, sizeof e->circuit.id, "%s", id);
    e->bytes = bytes;
    e->cached.refs = refs;
    e->cached.last_used_ns = last_used_ns;
    e->cached.next = c->cache.entries;
    c->cache.entries = &e->cached;
    CHECK(cuzk_budget_try_acquire(c->cache.budget, bytes));
    return e;
}

static bool listed(cuzk_srs_cache_t *c, const char *id)
{
    cuzk_engine_srs_info_t info[8];
    size_t n = cuzk_srs_list(c, info, 8);
    for (size_t i = 0; i < n && i < 8; i++)
        if (strcmp(info[i].circuit_id, id) == 0)
            return true;
    return false;
}

/* Under memory pressure only unused entries idle long enough go, least recently used first. */
static void test_srs_eviction(void)
{
    const uint64_t now = 3600 * SEC; /* an hour after boot */
    cuzk_budget_t b;
    cuzk_srs_cache_t c;
    cuzk_budget_init(&b, 1000, cuzk_srs_evict_idle, &c);
    cuzk_srs_cache_init(&c, "/nonexistent-params", &b, 60000 /* min idle 1 min */, 1);
    fake_entry(&c, "porep-32g", 300, 1, now - 600 * SEC); /* in use: stays */
    fake_entry(&c, "porep-64g", 200, 0, now - 10 * SEC);  /* idle 10 s only: stays */
    fake_entry(&c, "porep-8m", 100, 0, now - 300 * SEC);  /* idle 5 min */
    fake_entry(&c, "porep-2k", 100, 0, now - 900 * SEC);  /* idle 15 min: the first to go */
    cuzk_engine_srs_info_t info[8];
    CHECK(cuzk_srs_list(&c, info, 8) == 4);
    CHECK(cuzk_srs_evict_idle_at(&c, 50, now) == 100);
    CHECK(cuzk_srs_list(&c, info, 8) == 3 && !listed(&c, "porep-2k"));
    /* 400 bytes wanted: only porep-8m may go */
    CHECK(cuzk_srs_evict_idle_at(&c, 400, now) == 100);
    CHECK(!listed(&c, "porep-8m") && listed(&c, "porep-64g"));
    uint64_t used;
    cuzk_budget_get(&b, NULL, &used, NULL);
    CHECK(used == 500);
    /* a reservation that does not fit evicts through the budget what may go (now: anything unused) */
    c.cache.min_idle_ns = 0;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_budget_acquire(&b, 600, NULL, NULL, "x", &err) == CUZK_OK);
    cuzk_budget_get(&b, NULL, &used, NULL);
    CHECK(used == 900);
    bool was;
    uint64_t freed;
    CHECK(cuzk_srs_evict(&c, "porep-32g", &was, &freed, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "in use"));
    CHECK(cuzk_srs_evict(&c, "porep-64g", &was, &freed, &err) == CUZK_OK && !was && freed == 0);
    c.cache.entries->refs = 0; /* porep-32g released: destroy frees it and its budget */
    cuzk_srs_cache_destroy(&c);
    cuzk_budget_get(&b, NULL, &used, NULL);
    CHECK(used == 600);
    cuzk_budget_destroy(&b);
}

/* Idleness is measured forward from the last use, never as "now minus the idle span": just after boot
 * (the monotonic clock near 0) nothing looks idle for longer than the machine has been up, an entry
 * released after "now" was read counts as just used, and a minimum idle time too large for
 * nanoseconds means never rather than wrapping to a short one. */
static void test_srs_idle_at_boot(void)
{
    cuzk_budget_t b;
    cuzk_srs_cache_t c;
    cuzk_budget_init(&b, 1000, NULL, NULL);
    cuzk_srs_cache_init(&c, "/nonexistent-params", &b, 15 * 60000 /* min idle 15 min */, 1);
    fake_entry(&c, "porep-2k", 100, 0, 0);            /* loaded at boot */
    fake_entry(&c, "porep-8m", 100, 0, 30 * SEC);     /* released after "now" was read */
    const uint64_t boot = 2 * SEC;                    /* two seconds after boot */
    CHECK_MSG(cuzk_srs_evict_idle_at(&c, 1000, boot) == 0, "an entry idle 2 s was evicted (min 15 min)");
    CHECK(cuzk_srs_evict_idle_at(&c, 1000, 60 * SEC) == 0);
    /* the listing runs on the real clock: an entry last used after its "now" shows 0 ms idle, not
     * ~584 years */
    c.cache.entries->last_used_ns = cuzk_now_ns() + 3600 * SEC;
    cuzk_engine_srs_info_t info[8];
    CHECK(cuzk_srs_list(&c, info, 8) == 2);
    for (int i = 0; i < 2; i++)
        if (strcmp(info[i].circuit_id, "porep-8m") == 0)
            CHECK_MSG(info[i].idle_ms == 0, "idle %llu ms", (unsigned long long)info[i].idle_ms);
    CHECK(cuzk_srs_evict_idle_at(&c, 1000, 60 * SEC) == 0);
    /* fifteen minutes after its last use the entry loaded at boot may go; the other stays */
    CHECK(cuzk_srs_evict_idle_at(&c, 1000, 15 * 60 * SEC) == 100);
    CHECK(listed(&c, "porep-8m") && !listed(&c, "porep-2k"));
    cuzk_srs_cache_destroy(&c);

    /* 2^58 ms is 2^64 * 15625 ns: a wrapping multiplication makes it 0 and everything idle at once */
    cuzk_srs_cache_init(&c, "/nonexistent-params", &b, 1ull << 58, 1);
    CHECK(c.cache.min_idle_ns == UINT64_MAX);
    fake_entry(&c, "porep-2k", 100, 0, 0);
    CHECK(cuzk_srs_evict_idle_at(&c, 1000, 3600 * SEC) == 0);
    CHECK(cuzk_srs_evict_idle_at(&c, 1000, UINT64_MAX - 1) == 0);
    cuzk_srs_cache_destroy(&c);
    cuzk_srs_cache_init(&c, "/nonexistent-params", &b, UINT64_MAX, 1);
    CHECK(c.cache.min_idle_ns == UINT64_MAX);
    cuzk_srs_cache_destroy(&c);
    cuzk_budget_destroy(&b);
}

/* The log of an engine, kept in memory. */
typedef struct {
    char *buf;
    size_t len;
    FILE *f;
} memlog_t;

static cuzk_engine_t *start(memlog_t *log, const char *dir)
{
    cuzk_engine_config_t cfg;
    cuzk_engine_config_defaults(&cfg);
    cfg.param_cache = dir;
    cfg.total_budget = 1ull << 30;
    log->f = open_memstream(&log->buf, &log->len);
    cfg.log = log->f;
    cuzk_engine_t *e = NULL;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_engine_new(&e, &cfg, &err) == CUZK_OK, "%s", err.msg);
    return e;
}

static void stop(cuzk_engine_t *e, memlog_t *log)
{
    cuzk_engine_free(e);
    fclose(log->f);
    free(log->buf);
}

static cuzk_status submit(cuzk_engine_t *e, const char *id, cuzk_priority prio, const char *c1, size_t len,
                          char out[CUZK_JOB_ID_MAX], uint32_t *pos, cuzk_err_t *err)
{
    cuzk_job_request_t r = {.request_id = id, .kind = CUZK_KIND_POREP_SEAL_COMMIT, .priority = prio,
                            .vanilla_proof = (const uint8_t *)c1, .vanilla_proof_len = len};
    return cuzk_engine_submit(e, &r, out, pos, err);
}

static void test_requests(void)
{
    memlog_t log;
    cuzk_engine_t *e = start(&log, "/nonexistent-params");
    char id[CUZK_JOB_ID_MAX];
    cuzk_err_t err = {{0}};
    cuzk_job_request_t r = {.kind = CUZK_KIND_SNAP_DEALS_UPDATE, .vanilla_proof = (const uint8_t *)"x",
                            .vanilla_proof_len = 1};
    CHECK(cuzk_engine_submit(e, &r, id, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(strstr(err.msg, "vanilla_proof is the PoRep C1") != NULL);
    r.kind = (cuzk_proof_kind)9;
    CHECK(cuzk_engine_submit(e, &r, id, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(submit(e, "a,b", CUZK_PRIORITY_NORMAL, "{}", 2, id, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(submit(e, "ok", CUZK_PRIORITY_NORMAL, "", 0, id, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(submit(e, "ok", (cuzk_priority)7, "{}", 2, id, NULL, &err) == CUZK_ERR_INVALID_ARG);

    /* malformed C1: the job fails with the parser's message; an empty request_id gets a UUID */
    CHECK(submit(e, NULL, CUZK_PRIORITY_NORMAL, "{\"bad\":1}", 9, id, NULL, &err) == CUZK_OK);
    CHECK(strlen(id) == 36 && id[14] == '4');
    cuzk_job_result_t res;
    cuzk_engine_await(e, id, 0, &res, NULL, NULL);
    CHECK(res.status == CUZK_JOB_FAILED && strstr(res.error, "c1 json") != NULL);
    CHECK(res.proof == NULL);
    /* delivered once: the job is forgotten */
    cuzk_engine_await(e, id, 0, &res, NULL, NULL);
    CHECK(res.status == CUZK_JOB_UNKNOWN);
    cuzk_engine_await(e, "never-submitted", 0, &res, NULL, NULL);
    CHECK(res.status == CUZK_JOB_UNKNOWN);
    bool found, running;
    cuzk_engine_cancel(e, "never-submitted", &found, &running);
    CHECK(!found && !running);

    cuzk_engine_status_t st;
    cuzk_engine_status(e, &st);
    CHECK(st.failed == 1 && st.failed_by_kind[CUZK_KIND_POREP_SEAL_COMMIT] == 1 && st.completed == 0);
    stop(e, &log);
}

typedef struct {
    cuzk_engine_t *e;
    const char *id;
    cuzk_job_result_t res;
} waiter_t;

static void *wait_thread(void *p)
{
    waiter_t *w = p;
    cuzk_engine_await(w->e, w->id, 0, &w->res, NULL, NULL);
    return NULL;
}

/* Queued jobs start in priority order, FIFO within a level; each fails on the missing parameters. */
static void test_order(const char *c1, size_t len)
{
    memlog_t log;
    cuzk_engine_t *e = start(&log, "/nonexistent-params");
    cuzk_engine_pause(e, true);
    static const struct { const char *id; cuzk_priority p; } jobs[] = {
        {"low", CUZK_PRIORITY_LOW},    {"normal-1", CUZK_PRIORITY_NORMAL}, {"critical", CUZK_PRIORITY_CRITICAL},
        {"normal-2", CUZK_PRIORITY_UNSPECIFIED}, {"high", CUZK_PRIORITY_HIGH}};
    static const uint32_t positions[] = {0, 0, 0, 2, 1};
    char id[CUZK_JOB_ID_MAX];
    cuzk_err_t err = {{0}};
    for (size_t i = 0; i < 5; i++) {
        uint32_t pos = 99;
        CHECK(submit(e, jobs[i].id, jobs[i].p, c1, len, id, &pos, &err) == CUZK_OK);
        CHECK_MSG(pos == positions[i], "%s: queue position %u", jobs[i].id, pos);
    }
    /* the same request_id is the same job */
    uint32_t pos;
    CHECK(submit(e, "normal-1", CUZK_PRIORITY_NORMAL, c1, len, id, &pos, &err) == CUZK_OK);
    CHECK(strcmp(id, "normal-1") == 0 && pos == 2);

    /* a wait with a timeout on a queued job: TIMEOUT, and the job stays */
    cuzk_job_result_t res;
    uint64_t t0 = cuzk_now_ns();
    cuzk_engine_await(e, "low", 150, &res, NULL, NULL);
    uint64_t waited = (cuzk_now_ns() - t0) / 1000000;
    CHECK_MSG(res.status == CUZK_JOB_TIMEOUT && waited >= 140 && waited < 2000, "waited %llu ms",
              (unsigned long long)waited);
    cuzk_engine_status_t st;
    cuzk_engine_status(e, &st);
    CHECK(st.pending_by_kind[CUZK_KIND_POREP_SEAL_COMMIT] == 5);

    /* cancel a queued job */
    bool found, running;
    cuzk_engine_cancel(e, "normal-2", &found, &running);
    CHECK(found && !running);
    cuzk_engine_await(e, "normal-2", 0, &res, NULL, NULL);
    CHECK(res.status == CUZK_JOB_CANCELLED);

    waiter_t w[4] = {{e, "low", {0}}, {e, "normal-1", {0}}, {e, "critical", {0}}, {e, "high", {0}}};
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, wait_thread, &w[i]);
    cuzk_engine_pause(e, false);
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CHECK_MSG(w[i].res.status == CUZK_JOB_FAILED && strstr(w[i].res.error, "missing parameters"), "%s: %s",
                  w[i].id, w[i].res.error);
    }
    fflush(log.f);
    const char *order[] = {"critical", "high", "normal-1", "low"};
    const char *at = log.buf;
    for (int i = 0; i < 4; i++) {
        char needle[64];
        snprintf(needle, sizeof needle, ",START,%s,", order[i]);
        const char *hit = strstr(at, needle);
        CHECK_MSG(hit != NULL, "%s started out of order", order[i]);
        if (hit)
            at = hit;
    }
    char *json = cuzk_engine_status_json(e);
    json_error_t jerr;
    json_t *doc = json ? json_loads(json, 0, &jerr) : NULL;
    CHECK(doc && json_integer_value(json_object_get(json_object_get(doc, "counters"), "total_failed")) == 5);
    CHECK(doc && json_is_array(json_object_get(doc, "pipelines")) && json_is_object(json_object_get(doc, "memory")));
    json_decref(doc);
    free(json);
    char *metrics = cuzk_engine_metrics_text(e);
    CHECK(metrics && strstr(metrics, "cuzk_proofs_failed{proof_kind=\"porep_c2\"} 5\n"));
    CHECK(metrics && strstr(metrics, "cuzk_queue_wait_seconds_bucket{proof_kind=\"porep_c2\",le=\"+Inf\"} 4\n"));
    free(metrics);
    stop(e, &log);
}

/* Shutdown cancels queued work and answers every waiter. */
static void test_shutdown(const char *c1, size_t len)
{
    memlog_t log;
    cuzk_engine_t *e = start(&log, "/nonexistent-params");
    cuzk_engine_pause(e, true);
    char id[CUZK_JOB_ID_MAX];
    cuzk_err_t err = {{0}};
    CHECK(submit(e, "queued", CUZK_PRIORITY_NORMAL, c1, len, id, NULL, &err) == CUZK_OK);
    waiter_t w = {e, "queued", {0}};
    pthread_t th;
    pthread_create(&th, NULL, wait_thread, &w);
    usleep(50000);
    cuzk_engine_shutdown(e);
    pthread_join(th, NULL);
    CHECK(w.res.status == CUZK_JOB_CANCELLED && strstr(w.res.error, "shutting down"));
    CHECK(submit(e, "late", CUZK_PRIORITY_NORMAL, c1, len, id, NULL, &err) == CUZK_ERR_SHUTTING_DOWN);
    stop(e, &log);
}

/* A submission after drain or shutdown is refused with its own status (the service answers
 * UNAVAILABLE, a client may retry elsewhere), not the "not supported" of an unknown proof kind. */
static void test_refused_when_stopping(void)
{
    memlog_t log;
    cuzk_engine_t *e = start(&log, "/nonexistent-params");
    cuzk_engine_pause(e, true);
    char id[CUZK_JOB_ID_MAX];
    cuzk_err_t err = {{0}};
    CHECK(submit(e, "queued", CUZK_PRIORITY_NORMAL, "{}", 2, id, NULL, &err) == CUZK_OK);
    cuzk_engine_drain(e);
    memset(&err, 0, sizeof err);
    cuzk_status st = submit(e, "after-drain", CUZK_PRIORITY_NORMAL, "{}", 2, id, NULL, &err);
    CHECK_MSG(st == CUZK_ERR_SHUTTING_DOWN && strstr(err.msg, "shutting down") && id[0] == 0, "status %d (%s): %s",
              st, cuzk_status_str(st), err.msg);
    /* a request the engine would refuse anyway keeps its own status */
    cuzk_job_request_t r = {.kind = CUZK_KIND_SNAP_DEALS_UPDATE, .vanilla_proof = (const uint8_t *)"x",
                            .vanilla_proof_len = 1};
    CHECK(cuzk_engine_submit(e, &r, id, NULL, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "PoRep C1"));
    cuzk_job_result_t res;
    cuzk_engine_await(e, "queued", 0, &res, NULL, NULL);
    CHECK(res.status == CUZK_JOB_CANCELLED && strstr(res.error, "shutting down"));
    cuzk_engine_shutdown(e);
    CHECK(submit(e, "after-shutdown", CUZK_PRIORITY_NORMAL, "{}", 2, id, NULL, &err) == CUZK_ERR_SHUTTING_DOWN);
    CHECK(strcmp(cuzk_status_str(CUZK_ERR_SHUTTING_DOWN), "unknown status") != 0);
    stop(e, &log);
}

static int polls;
static bool stop_on_second_poll(void *arg)
{
    (void)arg;
    return ++polls >= 2;
}

/* AwaitProof's timeout_ms comes from the wire: one too large for nanoseconds (2^63, 2^64-1, or
 * large enough that now + timeout passes 2^64) means a very long wait, never a wrapped deadline that
 * has already passed. The wait here ends through the cancel check, after one ~100 ms poll. */
static void test_await_timeouts(void)
{
    memlog_t log;
    cuzk_engine_t *e = start(&log, "/nonexistent-params");
    cuzk_engine_pause(e, true); /* the job stays queued */
    char id[CUZK_JOB_ID_MAX];
    cuzk_err_t err = {{0}};
    CHECK(submit(e, "waiting", CUZK_PRIORITY_NORMAL, "{}", 2, id, NULL, &err) == CUZK_OK);
    /* 18446744073710: the first whose nanoseconds pass 2^64 (the case) */
    static const uint64_t timeouts[] = {1ull << 63, UINT64_MAX, UINT64_MAX / 1000000, 18446744073710ull, 1ull << 58, 0};
    for (size_t i = 0; i < sizeof timeouts / sizeof timeouts[0]; i++) {
        cuzk_job_result_t res;
        polls = 0;
        uint64_t t0 = cuzk_now_ns();
        cuzk_engine_await(e, "waiting", timeouts[i], &res, stop_on_second_poll, NULL);
        uint64_t waited = (cuzk_now_ns() - t0) / 1000000;
        CHECK_MSG(res.status == CUZK_JOB_CANCELLED && polls == 2,
                  "timeout_ms %llu: status %d after %llu ms, %d polls (%s)", (unsigned long long)timeouts[i],
                  (int)res.status, (unsigned long long)waited, polls, res.error);
    }
    /* a small timeout still times out, and the job stays awaitable */
    cuzk_job_result_t res;
    cuzk_engine_await(e, "waiting", 1, &res, NULL, NULL);
    CHECK(res.status == CUZK_JOB_TIMEOUT);
    bool found, running;
    cuzk_engine_cancel(e, "waiting", &found, &running);
    CHECK(found && !running);
    stop(e, &log);
}

static void test_srs_requests(void)
{
    memlog_t log;
    cuzk_engine_t *e = start(&log, "/nonexistent-params");
    cuzk_err_t err = {{0}};
    bool already, was;
    uint64_t ms, freed;
    CHECK(cuzk_engine_preload(e, "porep-3g", &already, &ms, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_engine_preload(e, "porep-2k", &already, &ms, &err) == CUZK_ERR_IO);
    CHECK(strstr(err.msg, "missing parameters") && strstr(err.msg, "/nonexistent-params/v28-stacked"));
    CHECK(cuzk_engine_evict(e, "porep-32g", &was, &freed, &err) == CUZK_OK && !was && freed == 0);
    CHECK(cuzk_engine_evict(e, "wpost-32g", &was, &freed, &err) == CUZK_OK && !was && freed == 0);
    CHECK(cuzk_engine_evict(e, "wpost-3g", &was, &freed, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_engine_preload(e, "winning-2k", &already, &ms, &err) == CUZK_ERR_IO);
    CHECK_MSG(strstr(err.msg, "/nonexistent-params/v28-proof-of-spacetime-fallback"), "%s", err.msg);
    CHECK(cuzk_engine_preload(e, "winning-3g", &already, &ms, &err) == CUZK_ERR_INVALID_ARG);
    stop(e, &log);
}

/* Circuit ids and the registered proof each is loaded for, from rust-filecoin-proofs-api's
 * src/registry.rs numbering: RegisteredSealProof StackedDrg<size>V1_1 = 5..9, RegisteredPoStProof
 * StackedDrgWinning<size>V1 = 0..4, StackedDrgWindow<size>V1 = 5..9 and V1_1 = 10..14 (preload takes
 * V1_1; the two share the circuit and its files), RegisteredUpdateProof StackedDrg<size>V1 = 0..4. */
static void test_circuit_ids(void)
{
    static const char *sizes[] = {"2k", "8m", "512m", "32g", "64g"};
    for (uint32_t i = 0; i < 5; i++) {
        static const struct {
            const char *prefix;
            bool post;
            uint32_t first;
        } kinds[] = {{"porep", false, 5}, {"winning", true, 0}, {"wpost", true, 10}};
        for (int k = 0; k < 3; k++) {
            char id[32];
            snprintf(id, sizeof id, "%s-%s", kinds[k].prefix, sizes[i]);
            cuzk_srs_circuit_t c;
            CHECK_MSG(cuzk_srs_circuit_by_id(id, &c) && strcmp(c.id, id) == 0 && c.post == kinds[k].post &&
                          c.proof_id == kinds[k].first + i,
                      "%s: proof %u post %d", id, c.proof_id, c.post);
        }
        /* every registered PoSt proof names the circuit of its kind and size */
        cuzk_post_registered_proof_t p;
        cuzk_srs_circuit_t c;
        char want[32];
        CHECK(cuzk_post_registered_proof(&p, 5 + i, NULL) == CUZK_OK);
        cuzk_srs_circuit_post(&c, &p);
        snprintf(want, sizeof want, "wpost-%s", sizes[i]);
        CHECK_MSG(strcmp(c.id, want) == 0 && c.proof_id == 5 + i, "%s: %s", p.name, c.id);
        CHECK(cuzk_post_registered_proof(&p, i, NULL) == CUZK_OK);
        cuzk_srs_circuit_post(&c, &p);
        snprintf(want, sizeof want, "winning-%s", sizes[i]);
        CHECK_MSG(strcmp(c.id, want) == 0 && c.proof_id == i, "%s: %s", p.name, c.id);
        /* SnapDeals: snap-<size>, the update proof of the size */
        snprintf(want, sizeof want, "snap-%s", sizes[i]);
        CHECK_MSG(cuzk_srs_circuit_by_id(want, &c) && c.snap && !c.post && c.proof_id == i, "%s: proof %u", want,
                  c.proof_id);
        cuzk_snap_registered_proof_t u;
        CHECK(cuzk_snap_registered_proof(&u, i, NULL) == CUZK_OK);
        cuzk_srs_circuit_snap(&c, &u);
        CHECK_MSG(strcmp(c.id, want) == 0 && c.snap && c.proof_id == i, "%s: %s", u.name, c.id);
    }
    static const char *bad[] = {"",         "wpost",      "wpost-",  "wpost-1t", "winning-32G",
                                "post-32g", "porep-32g-x", "snap-4k", "snap",     "snap-32g-ni"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(!cuzk_srs_circuit_by_id(bad[i], NULL), "'%s' accepted", bad[i]);
}

int main(void)
{
    test_init("test_engine");
    test_budget();
    test_srs_eviction();
    test_srs_idle_at_boot();
    test_requests();
    test_refused_when_stopping();
    test_await_timeouts();
    test_srs_requests();
    test_circuit_ids();
    cuzk_fc_sealed_t s;
    cuzk_fc_c1_t c1;
    char *json = NULL;
    size_t len = 0;
    cuzk_err_t err = {{0}};
    if (fc_test_seal_2kib(&s, &c1, NULL)) {
        CHECK(cuzk_fc_c1_json_write(&json, &len, &c1, &err) == CUZK_OK);
        if (json) {
            test_order(json, len);
            test_shutdown(json, len);
        }
        cuzk_fc_c1_free(&c1);
        cuzk_fc_sealed_free(&s);
    }
    free(json);
    return test_finish();
}
