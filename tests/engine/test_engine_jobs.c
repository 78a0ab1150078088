/* The engine's job identity and its bounds, without proving (fast; jobs are held in the queue by
 * pausing the engine, or fail at once on a C1 that does not parse): a job shared by everyone waiting on
 * its id and cancelled only by a cancel or, for a job that only Prove submitted, when its last waiter
 * goes away; an id whose job ended CANCELLED or FAILED starting a new job, a COMPLETED one returned
 * again; a result whose delivery failed awaitable again; the queue cap, queued bytes charged to the
 * memory budget's queue share (and nothing copied or charged for a known id), the bound on kept
 * results. Every await has a timeout (a Prove ends through its cancel check): a broken rule fails a
 * check instead of hanging. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "test_util.h"

typedef struct {
    char *buf;
    size_t len;
    FILE *f;
} memlog_t;

static cuzk_engine_t *start(memlog_t *log, uint64_t budget, uint32_t max_queued, uint32_t max_kept)
{
    cuzk_engine_config_t cfg;
    cuzk_engine_config_defaults(&cfg);
    cfg.param_cache = "/nonexistent-params";
    cfg.total_budget = budget;
    cfg.max_queued = max_queued;
    cfg.max_kept_results = max_kept;
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

/* Times the log has a line containing needle. */
static int log_count(memlog_t *log, const char *needle)
{
    fflush(log->f);
    int n = 0;
    for (const char *p = log->buf; p && (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* A PoRep request with a C1 that does not parse (accepted at submission; FAILED when started). */
static cuzk_job_request_t porep(const char *id, const uint8_t *c1, size_t len)
{
    return (cuzk_job_request_t){.request_id = id, .kind = CUZK_KIND_POREP_SEAL_COMMIT, .vanilla_proof = c1,
                                .vanilla_proof_len = len};
}

static cuzk_status submit(cuzk_engine_t *e, const char *id, uint32_t *pos, cuzk_err_t *err)
{
    cuzk_job_request_t r = porep(id, (const uint8_t *)"{\"bad\":1}", 9);
    char out[CUZK_JOB_ID_MAX];
    uint32_t p = 0;
    cuzk_status st = cuzk_engine_submit(e, &r, out, &p, err);
    if (pos)
        *pos = p;
    return st;
}

static uint32_t pending(cuzk_engine_t *e)
{
    cuzk_engine_status_t s;
    cuzk_engine_status(e, &s);
    return s.pending_by_kind[CUZK_KIND_POREP_SEAL_COMMIT];
}

static uint64_t finished(cuzk_engine_t *e)
{
    cuzk_engine_status_t s;
    cuzk_engine_status(e, &s);
    return s.completed + s.failed;
}

static void wait_finished(cuzk_engine_t *e, uint64_t n)
{
    for (int i = 0; i < 5000 && finished(e) < n; i++)
        usleep(1000);
    CHECK_MSG(finished(e) >= n, "%llu of %llu jobs finished", (unsigned long long)finished(e), (unsigned long long)n);
}

/* A waiter on its own thread: Prove (submit + wait) or await, until its client "goes away" (gone). */
typedef struct {
    cuzk_engine_t *e;
    const char *id;
    bool prove;
    volatile bool gone;
    volatile bool request_freed;
    volatile int polls; /* cancel checks so far: the first one means it is counted as a waiter */
    cuzk_status st;
    cuzk_job_result_t res;
} waiter_t;

static bool client_gone(void *p)
{
    waiter_t *w = p;
    w->polls++;
    return w->gone;
}
static void request_done(void *p) { ((waiter_t *)p)->request_freed = true; }

static void *waiter_main(void *p)
{
    waiter_t *w = p;
    if (w->prove) {
        cuzk_job_request_t r = porep(w->id, (const uint8_t *)"{\"bad\":1}", 9);
        char id[CUZK_JOB_ID_MAX];
        cuzk_err_t err = {{0}};
        w->st = cuzk_engine_prove(w->e, &r, id, &w->res, client_gone, request_done, w, &err);
    } else
        cuzk_engine_await(w->e, w->id, 10000, &w->res, client_gone, w);
    return NULL;
}

/* Waits until w waits (its cancel check has been polled). */
static void settle(waiter_t *w)
{
    for (int i = 0; i < 10000 && w->polls == 0; i++)
        usleep(1000);
    CHECK_MSG(w->polls > 0, "%s: not waiting", w->id);
}

/* Issue: A submits "shared1", B Proves the same id and goes away: A's job must go on. And the
 * converse: a job only Prove submitted is cancelled once its last waiter (Prove or await) is gone. */
static void test_shared_job(void)
{
    memlog_t log;
    cuzk_engine_t *e = start(&log, 1ull << 30, 0, 0);
    cuzk_engine_pause(e, true);
    cuzk_err_t err = {{0}};
    CHECK(submit(e, "shared1", NULL, &err) == CUZK_OK);
    waiter_t b = {.e = e, .id = "shared1", .prove = true};
    pthread_t th;
    pthread_create(&th, NULL, waiter_main, &b);
    settle(&b);
    CHECK(b.request_freed); /* the request is not held while waiting */
    b.gone = true;
    pthread_join(th, NULL);
    CHECK(b.st == CUZK_OK && b.res.status == CUZK_JOB_CANCELLED && !b.res.handed_over);
    CHECK_MSG(pending(e) == 1 && log_count(&log, ",CANCEL,shared1") == 0, "A's job was cancelled by B's departure");
    cuzk_job_result_t res;
    cuzk_engine_await(e, "shared1", 1, &res, NULL, NULL);
    CHECK(res.status == CUZK_JOB_TIMEOUT);

    /* Prove first, SubmitProof of the same id after: submitted to be awaited, it is kept too */
    waiter_t p = {.e = e, .id = "prove-then-submit", .prove = true};
    pthread_create(&th, NULL, waiter_main, &p);
    settle(&p);
    CHECK(submit(e, "prove-then-submit", NULL, &err) == CUZK_OK && pending(e) == 2);
    p.gone = true;
    pthread_join(th, NULL);
    CHECK(pending(e) == 2 && log_count(&log, ",CANCEL,prove-then-submit") == 0);

    /* Prove only: cancelled when the last of its waiters (the Prove, then an await) has gone */
    waiter_t solo = {.e = e, .id = "solo", .prove = true}, other = {.e = e, .id = "solo"};
    pthread_t th2;
    pthread_create(&th, NULL, waiter_main, &solo);
    settle(&solo);
    pthread_create(&th2, NULL, waiter_main, &other);
    settle(&other);
    solo.gone = true;
    pthread_join(th, NULL);
    CHECK_MSG(pending(e) == 3 && log_count(&log, ",CANCEL,solo") == 0, "cancelled while someone still waited");
    other.gone = true;
    pthread_join(th2, NULL);
    CHECK(pending(e) == 2 && log_count(&log, ",CANCEL,solo,queued (nobody waits)") == 1);
    cuzk_engine_await(e, "solo", 1000, &res, NULL, NULL); /* its end is kept for whoever asks */
    CHECK(res.status == CUZK_JOB_CANCELLED && res.handed_over && strstr(res.error, "went away"));

    /* two waiters of one job both get its result */
    waiter_t w1 = {.e = e, .id = "shared1"}, w2 = {.e = e, .id = "shared1"};
    pthread_create(&th, NULL, waiter_main, &w1);
    pthread_create(&th2, NULL, waiter_main, &w2);
    settle(&w1);
    settle(&w2);
    bool found, running;
    cuzk_engine_cancel(e, "shared1", &found, &running);
    CHECK(found && !running);
    pthread_join(th, NULL);
    pthread_join(th2, NULL);
    CHECK(w1.res.status == CUZK_JOB_CANCELLED && w1.res.handed_over && w2.res.status == CUZK_JOB_CANCELLED &&
          w2.res.handed_over);
    cuzk_engine_await(e, "shared1", 5000, &res, NULL, NULL);
    CHECK(res.status == CUZK_JOB_UNKNOWN); /* handed over to both, then forgotten */
    cuzk_engine_cancel(e, "prove-then-submit", &found, &running);
    stop(e, &log);
}

/* Issue: Submit X, cancel X, submit X started nothing and X's await said CANCELLED at once. An id whose
 * job ended CANCELLED or FAILED starts a new job; a COMPLETED one not yet collected is returned again. */
static void test_resubmit(void)
{
    memlog_t log;
    cuzk_engine_t *e = start(&log, 1ull << 30, 0, 0);
    cuzk_engine_pause(e, true);
    cuzk_err_t err = {{0}};
    uint32_t pos = 99;
    CHECK(submit(e, "x", NULL, &err) == CUZK_OK && submit(e, "y", NULL, &err) == CUZK_OK);
    bool found, running;
    cuzk_engine_cancel(e, "x", &found, &running);
    CHECK(found && pending(e) == 1);
    CHECK(submit(e, "x", &pos, &err) == CUZK_OK);
    CHECK_MSG(pending(e) == 2 && pos == 1 && log_count(&log, ",SUBMIT,x,") == 2, "pending %u, position %u",
              pending(e), pos);
    cuzk_job_result_t res;
    cuzk_engine_await(e, "x", 1, &res, NULL, NULL);
    CHECK_MSG(res.status == CUZK_JOB_TIMEOUT, "the second x: status %d (%s)", (int)res.status, res.error);

    /* FAILED: the same (the C1 does not parse), then again */
    cuzk_engine_pause(e, false);
    wait_finished(e, 3); /* the first x (cancelled), y and the second x (failed) */
    CHECK(submit(e, "x", NULL, &err) == CUZK_OK && log_count(&log, ",SUBMIT,x,") == 3);
    wait_finished(e, 4);
    cuzk_engine_await(e, "x", 5000, &res, NULL, NULL);
    CHECK(res.status == CUZK_JOB_FAILED && strstr(res.error, "c1 json"));

    /* COMPLETED and not yet collected: the same job (its result), nothing queued */
    cuzk_job_result_t done = {.status = CUZK_JOB_COMPLETED, .handed_over = true, .total_ms = 7};
    uint8_t proof[192] = {1, 2, 3};
    done.proof = proof;
    done.proof_len = sizeof proof;
    cuzk_engine_delivery_failed(e, "done1", &done);
    cuzk_engine_pause(e, true);
    CHECK(submit(e, "done1", &pos, &err) == CUZK_OK && pos == 0 && pending(e) == 0);
    CHECK(log_count(&log, ",SUBMIT,done1,") == 0);
    cuzk_engine_await(e, "done1", 1000, &res, NULL, NULL);
    CHECK(res.status == CUZK_JOB_COMPLETED && res.proof_len == 192 && res.proof && res.proof[2] == 3 &&
          res.total_ms == 7);
    cuzk_job_result_free(&res);
    stop(e, &log);
}

/* A result whose reply could not be sent stays awaitable; nothing else is revived. */
static void test_delivery_failed(void)
{
    memlog_t log;
    cuzk_engine_t *e = start(&log, 1ull << 30, 0, 0);
    cuzk_err_t err = {{0}};
    CHECK(submit(e, "f", NULL, &err) == CUZK_OK);
    cuzk_job_result_t res, again;
    cuzk_engine_await(e, "f", 5000, &res, NULL, NULL);
    CHECK(res.status == CUZK_JOB_FAILED && res.handed_over);
    cuzk_engine_await(e, "f", 5000, &again, NULL, NULL);
    CHECK(again.status == CUZK_JOB_UNKNOWN); /* handed over once */
    cuzk_engine_delivery_failed(e, "f", &res);
    cuzk_engine_await(e, "f", 5000, &again, NULL, NULL);
    CHECK_MSG(again.status == CUZK_JOB_FAILED && again.handed_over && strcmp(again.error, res.error) == 0 &&
                  again.total_ms == res.total_ms,
              "after a failed delivery: status %d (%s)", (int)again.status, again.error);
    /* that delivery failed too: kept again; then a delivery that works forgets it */
    cuzk_engine_delivery_failed(e, "f", &again);
    cuzk_engine_delivery_failed(e, "f", &again); /* twice: still one result */
    cuzk_engine_await(e, "f", 5000, &again, NULL, NULL);
    CHECK(again.status == CUZK_JOB_FAILED);
    cuzk_engine_await(e, "f", 5000, &again, NULL, NULL);
    CHECK(again.status == CUZK_JOB_UNKNOWN);

    /* nothing handed over (a timeout, an abandoned wait, an unknown id): nothing kept */
    cuzk_engine_pause(e, true);
    CHECK(submit(e, "q", NULL, &err) == CUZK_OK);
    cuzk_engine_await(e, "q", 1, &again, NULL, NULL);
    CHECK(again.status == CUZK_JOB_TIMEOUT && !again.handed_over);
    bool found, running;
    cuzk_engine_cancel(e, "q", &found, &running);
    cuzk_engine_delivery_failed(e, "q", &again); /* q's CANCELLED result is kept as it is */
    cuzk_engine_await(e, "q", 5000, &again, NULL, NULL);
    CHECK(again.status == CUZK_JOB_CANCELLED);
    cuzk_engine_await(e, "q", 5000, &again, NULL, NULL);
    CHECK(again.status == CUZK_JOB_UNKNOWN);
    cuzk_engine_delivery_failed(e, "never", &again);
    cuzk_engine_await(e, "never", 5000, &again, NULL, NULL);
    CHECK(again.status == CUZK_JOB_UNKNOWN);

    /* a newer job under the id: the old result is not brought back over it */
    CHECK(submit(e, "f", NULL, &err) == CUZK_OK);
    cuzk_engine_delivery_failed(e, "f", &res);
    cuzk_engine_await(e, "f", 1, &again, NULL, NULL);
    CHECK(again.status == CUZK_JOB_TIMEOUT);
    CHECK(log_count(&log, ",UNDELIVERED,f,") == 2); /* brought back twice */
    stop(e, &log);
}

/* The queue cap, the queued bytes in the budget, and a known id that needs neither. */
static void test_queue_bounds(void)
{
    memlog_t log;
    cuzk_engine_t *e = start(&log, 8ull << 20, 2, 0); /* an eighth, 1 MiB, for queued requests */
    cuzk_engine_pause(e, true);
    cuzk_err_t err = {{0}};
    CHECK(submit(e, "q1", NULL, &err) == CUZK_OK && submit(e, "q2", NULL, &err) == CUZK_OK);
    CHECK(submit(e, "q3", NULL, &err) == CUZK_ERR_NO_MEMORY && strstr(err.msg, "queue is full"));
    CHECK(submit(e, "q1", NULL, &err) == CUZK_OK); /* known: not a new job */
    bool found, running;
    cuzk_engine_cancel(e, "q1", &found, &running);
    CHECK(submit(e, "q3", NULL, &err) == CUZK_OK);
    cuzk_engine_cancel(e, "q2", &found, &running);
    cuzk_engine_cancel(e, "q3", &found, &running);

    /* bytes: 600 KiB fits in the 1 MiB share, twice does not; charged until the job starts or ends */
    size_t big = 600 << 10;
    uint8_t *c1 = calloc(3 * big, 1);
    char id[CUZK_JOB_ID_MAX];
    cuzk_job_request_t r = porep("big1", c1, big);
    CHECK(cuzk_engine_submit(e, &r, id, NULL, &err) == CUZK_OK);
    cuzk_engine_status_t s;
    cuzk_engine_status(e, &s);
    CHECK_MSG(s.budget_used == big && s.budget_queued == big, "budget used %llu, queued %llu",
              (unsigned long long)s.budget_used, (unsigned long long)s.budget_queued);
    r.request_id = "big2";
    CHECK(cuzk_engine_submit(e, &r, id, NULL, &err) == CUZK_ERR_NO_MEMORY && strstr(err.msg, "queued requests"));
    /* the same id again, with more than the whole share: the known job, nothing copied or charged */
    r = porep("big1", c1, 3 * big);
    CHECK(cuzk_engine_submit(e, &r, id, NULL, &err) == CUZK_OK);
    cuzk_engine_status(e, &s);
    CHECK(s.budget_used == big && pending(e) == 1);
    cuzk_engine_cancel(e, "big1", &found, &running);
    cuzk_engine_status(e, &s);
    CHECK(s.budget_used == 0);
    r = porep("big2", c1, big);
    CHECK(cuzk_engine_submit(e, &r, id, NULL, &err) == CUZK_OK);
    cuzk_engine_pause(e, false); /* it starts (and fails): its charge goes back */
    wait_finished(e, 5); /* four cancelled, then big2 */
    cuzk_engine_status(e, &s);
    CHECK_MSG(s.budget_used == 0, "budget used %llu after the start", (unsigned long long)s.budget_used);
    free(c1);
    stop(e, &log);
}

/* Results nobody collects: the oldest go beyond max_kept_results (checked at each submission). */
static void test_kept_results(void)
{
    memlog_t log;
    cuzk_engine_t *e = start(&log, 1ull << 30, 0, 2);
    cuzk_err_t err = {{0}};
    const char *ids[] = {"k1", "k2", "k3"};
    for (int i = 0; i < 3; i++) {
        CHECK(submit(e, ids[i], NULL, &err) == CUZK_OK);
        wait_finished(e, (uint64_t)i + 1); /* one after the other: k1 is the oldest result */
    }
    cuzk_engine_status_t s;
    cuzk_engine_status(e, &s);
    CHECK(s.results_kept == 3); /* dropped at the next submission */
    cuzk_engine_pause(e, true);
    CHECK(submit(e, "k4", NULL, &err) == CUZK_OK);
    cuzk_engine_status(e, &s);
    CHECK_MSG(s.results_kept == 2, "%u results kept", s.results_kept);
    cuzk_job_result_t res;
    cuzk_engine_await(e, "k1", 5000, &res, NULL, NULL);
    CHECK_MSG(res.status == CUZK_JOB_UNKNOWN, "k1: status %d", (int)res.status);
    CHECK(log_count(&log, ",DROPPED,k1,") == 1);
    for (int i = 1; i < 3; i++) {
        cuzk_engine_await(e, ids[i], 5000, &res, NULL, NULL);
        CHECK_MSG(res.status == CUZK_JOB_FAILED, "%s: status %d", ids[i], (int)res.status);
    }
    stop(e, &log);
}

int main(void)
{
    test_init("test_engine_jobs");
    test_shared_job();
    test_resubmit();
    test_delivery_failed();
    test_queue_bounds();
    test_kept_results();
    return test_finish();
}
