/* The engine's public face: start and stop the workers, submit / await / cancel jobs, parameter
 * preload and eviction. Scheduling and proving live in pipeline.c, what each proof kind does in
 * job_porep.c, job_post.c and job_snap.c; status and metrics in status.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "engine/clock.h"
#include "engine/engine_internal.h"

void cuzk_engine_config_defaults(cuzk_engine_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->param_cache = "/var/tmp/filecoin-proof-parameters";
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t phys = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 16ull << 30;
    cfg->total_budget = phys / 4 * 3;
    cfg->eviction_min_idle_ms = 5 * 60 * 1000;
    cfg->synthesis_workers = 1;
    cfg->prover_workers = 1;
    cfg->pipeline_depth = 1;
    cfg->log = stderr;
}

const char *cuzk_proof_kind_label(cuzk_proof_kind k)
{
    switch (k) {
    case CUZK_KIND_POREP_SEAL_COMMIT: return "porep_c2";
    case CUZK_KIND_SNAP_DEALS_UPDATE: return "snap_update";
    case CUZK_KIND_WINDOW_POST_PARTITION: return "window_post";
    case CUZK_KIND_WINNING_POST: return "winning_post";
    default: return "unspecified";
    }
}

cuzk_status cuzk_engine_new(cuzk_engine_t **out, const cuzk_engine_config_t *cfg, cuzk_err_t *err)
{
    *out = NULL;
    if (!cfg || !cfg->param_cache || cfg->synthesis_workers < 1 || cfg->prover_workers < 1 ||
        cfg->pipeline_depth < 1 || cfg->prover_threads < 0 || cfg->synthesis_threads < 0 || cfg->total_budget == 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "engine: workers and pipeline depth must be at least 1, "
                                                       "thread counts not negative, the budget non-zero");
    cuzk_engine_t *e = calloc(1, sizeof *e);
    if (!e || !(e->param_cache = strdup(cfg->param_cache))) {
        free(e);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "engine: out of memory");
    }
    e->cfg = *cfg;
    e->cfg.param_cache = e->param_cache;
    if (!e->cfg.result_retention_ms)
        e->cfg.result_retention_ms = 3600 * 1000;
    e->t_start = cuzk_engine_now_ns();
    pthread_mutex_init(&e->mu, NULL);
    pthread_mutex_init(&e->log_mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&e->work_cv, &ca);
    pthread_cond_init(&e->prove_cv, &ca);
    pthread_cond_init(&e->done_cv, &ca);
    pthread_condattr_destroy(&ca);
    cuzk_budget_init(&e->budget, cfg->total_budget, cuzk_srs_evict_idle, &e->srs);
    cuzk_srs_cache_init(&e->srs, e->param_cache, &e->budget, cfg->eviction_min_idle_ms, cfg->prover_threads);

    int n = cfg->synthesis_workers + cfg->prover_workers;
    e->threads = calloc((size_t)n, sizeof *e->threads);
    e->workers = calloc((size_t)n, sizeof *e->workers);
    if (!e->threads || !e->workers) {
        cuzk_engine_free(e);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "engine: out of memory");
    }
    for (int i = 0; i < n; i++) {
        worker_t *w = &e->workers[i];
        w->e = e;
        w->prover = i >= cfg->synthesis_workers;
        w->index = w->prover ? i - cfg->synthesis_workers : i;
        if (pthread_create(&e->threads[i], NULL, w->prover ? cuzk_engine_prove_worker : cuzk_engine_synth_worker,
                           w) != 0) {
            cuzk_engine_free(e);
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "engine: cannot start worker threads");
        }
        e->n_threads++;
    }
    cuzk_engine_log(e, "engine: budget %.2f GiB, %d synthesis worker(s), %d prover worker(s) x %d thread(s), "
                       "parameters in %s", cfg->total_budget / 1073741824.0, cfg->synthesis_workers,
                    cfg->prover_workers, cfg->prover_threads, e->param_cache);
    *out = e;
    return CUZK_OK;
}

void cuzk_engine_shutdown(cuzk_engine_t *e)
{
    pthread_mutex_lock(&e->mu);
    if (!e->stopping) {
        __atomic_store_n(&e->stopping, true, __ATOMIC_RELAXED); /* job_stopped reads it unlocked */
        for (job_t *j = e->jobs; j; j = j->next) {
            if (j->phase == JOB_QUEUED)
                cuzk_engine_job_finish(e, j, CUZK_JOB_CANCELLED, "the daemon is shutting down");
            else if (j->phase != JOB_DONE) {
                __atomic_store_n(&j->cancel, true, __ATOMIC_RELAXED);
                snprintf(j->error, sizeof j->error, "the daemon is shutting down");
                cuzk_engine_job_settle(e, j);
            }
        }
    }
    pthread_cond_broadcast(&e->work_cv);
    pthread_cond_broadcast(&e->prove_cv);
    pthread_cond_broadcast(&e->done_cv);
    pthread_mutex_unlock(&e->mu);
}

static void job_free(job_t *j)
{
    free(j->input);
    free(j->input_lens);
    free(j->proof);
    free(j);
}

void cuzk_engine_free(cuzk_engine_t *e)
{
    if (!e)
        return;
    cuzk_engine_shutdown(e);
    for (int i = 0; i < e->n_threads; i++)
        pthread_join(e->threads[i], NULL);
    pthread_mutex_lock(&e->mu);
    for (;;) { /* awaiters hold job pointers: let them leave */
        bool busy = false;
        for (job_t *j = e->jobs; j; j = j->next)
            busy = busy || j->waiters > 0;
        if (!busy)
            break;
        pthread_cond_broadcast(&e->done_cv);
        pthread_cond_wait(&e->done_cv, &e->mu);
    }
    while (e->jobs) {
        job_t *j = e->jobs;
        e->jobs = j->next;
        if (j->phase != JOB_DONE)
            cuzk_engine_job_finish(e, j, CUZK_JOB_CANCELLED, "the daemon is shutting down");
        job_free(j);
    }
    pthread_mutex_unlock(&e->mu);
    cuzk_srs_cache_destroy(&e->srs);
    cuzk_budget_destroy(&e->budget);
    pthread_cond_destroy(&e->work_cv);
    pthread_cond_destroy(&e->prove_cv);
    pthread_cond_destroy(&e->done_cv);
    pthread_mutex_destroy(&e->mu);
    pthread_mutex_destroy(&e->log_mu);
    free(e->threads);
    free(e->workers);
    free(e->param_cache);
    free(e);
}

void cuzk_engine_drain(cuzk_engine_t *e)
{
    pthread_mutex_lock(&e->mu);
    e->draining = true;
    for (job_t *j = e->jobs; j; j = j->next)
        if (j->phase == JOB_QUEUED)
            cuzk_engine_job_finish(e, j, CUZK_JOB_CANCELLED, "the daemon is shutting down");
    pthread_mutex_unlock(&e->mu);
}

uint32_t cuzk_engine_busy(cuzk_engine_t *e)
{
    uint32_t n = 0;
    pthread_mutex_lock(&e->mu);
    for (job_t *j = e->jobs; j; j = j->next)
        n += j->phase == JOB_ACTIVATING || j->phase == JOB_RUNNING;
    pthread_mutex_unlock(&e->mu);
    return n;
}

void cuzk_engine_pause(cuzk_engine_t *e, bool paused)
{
    pthread_mutex_lock(&e->mu);
    e->paused = paused;
    pthread_cond_broadcast(&e->work_cv);
    pthread_mutex_unlock(&e->mu);
}

static job_t *find_job(cuzk_engine_t *e, const char *id)
{
    for (job_t *j = e->jobs; j; j = j->next)
        if (strcmp(j->id, id) == 0)
            return j;
    return NULL;
}

static void unlink_job(cuzk_engine_t *e, job_t *j)
{
    for (job_t **p = &e->jobs; *p; p = &(*p)->next)
        if (*p == j) {
            *p = j->next;
            return;
        }
}

/* Finished results nobody came for are dropped after the retention time. Under mu. */
static void purge_expired(cuzk_engine_t *e)
{
    uint64_t now = cuzk_engine_now_ns(), keep = cuzk_ms_to_ns(e->cfg.result_retention_ms);
    for (job_t **p = &e->jobs; *p;) {
        job_t *j = *p;
        if (j->phase == JOB_DONE && j->waiters == 0 && cuzk_elapsed_ns(now, j->t_done) > keep) {
            *p = j->next;
            job_free(j);
        } else
            p = &j->next;
    }
}

static void new_uuid(char out[CUZK_JOB_ID_MAX])
{
    uint8_t b[16];
    if (getrandom(b, sizeof b, 0) != sizeof b) { /* never in practice; still unique within the process */
        uint64_t t = cuzk_engine_now_ns();
        memcpy(b, &t, 8);
        memset(b + 8, 0, 8);
    }
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40); /* version 4 */
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    snprintf(out, CUZK_JOB_ID_MAX, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
             b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

const job_kind_t *cuzk_job_kind(cuzk_proof_kind k)
{
    switch (k) {
    case CUZK_KIND_POREP_SEAL_COMMIT: return &cuzk_job_porep;
    case CUZK_KIND_WINDOW_POST_PARTITION:
    case CUZK_KIND_WINNING_POST: return &cuzk_job_post;
    case CUZK_KIND_SNAP_DEALS_UPDATE: return &cuzk_job_snap;
    default: return NULL;
    }
}

static cuzk_status check_request(const cuzk_job_request_t *r, cuzk_err_t *err)
{
    if (r->request_id) {
        size_t n = strlen(r->request_id);
        if (n >= CUZK_JOB_ID_MAX)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "request_id longer than %d bytes", CUZK_JOB_ID_MAX - 1);
        for (size_t i = 0; i < n; i++) /* ids go into logs and CSV lines */
            if (r->request_id[i] <= ' ' || r->request_id[i] > '~' || r->request_id[i] == ',')
                return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                                    "request_id: only printable ASCII without spaces or commas");
    }
    const job_kind_t *ops = cuzk_job_kind(r->kind);
    if (!ops)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "unknown proof kind %d", (int)r->kind);
    if ((int)r->priority < CUZK_PRIORITY_UNSPECIFIED || r->priority > CUZK_PRIORITY_CRITICAL)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "unknown priority %d", (int)r->priority);
    return ops->check_request(r, err);
}

/* The request's input into j (PoRep: the C1; PoSt and SnapDeals: the vanilla proofs back to back and the
 * rest of the request in j->post or j->snap). */
static bool copy_input(job_t *j, const cuzk_job_request_t *r)
{
    if (r->kind == CUZK_KIND_POREP_SEAL_COMMIT) {
        j->input_len = r->vanilla_proof_len;
        if (!(j->input = malloc(j->input_len)))
            return false;
        memcpy(j->input, r->vanilla_proof, j->input_len);
        return true;
    }
    size_t total = 0;
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) {
        if (r->vanilla_proofs[i].len > SIZE_MAX - total)
            return false;
        total += r->vanilla_proofs[i].len;
    }
    j->input = malloc(total);
    j->input_lens = malloc(r->n_vanilla_proofs * sizeof *j->input_lens);
    if (!j->input || !j->input_lens)
        return false;
    j->input_len = total;
    j->n_inputs = r->n_vanilla_proofs;
    size_t off = 0;
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) {
        memcpy(j->input + off, r->vanilla_proofs[i].data, r->vanilla_proofs[i].len);
        off += r->vanilla_proofs[i].len;
        j->input_lens[i] = r->vanilla_proofs[i].len;
    }
    if (r->kind == CUZK_KIND_SNAP_DEALS_UPDATE) { /* lengths checked: 32 bytes each */
        j->snap.proof_id = r->registered_proof;
        memcpy(j->snap.comm_r_old, r->comm_r_old, 32);
        memcpy(j->snap.comm_d_new, r->comm_d_new, 32);
        memcpy(j->snap.comm_r_new, r->comm_r_new, 32);
        return true;
    }
    j->post.proof_id = r->registered_proof;
    memcpy(j->post.randomness, r->randomness, sizeof j->post.randomness);
    j->post.miner_id = r->miner_id;
    j->post.partition_index = r->partition_index;
    return true;
}

static cuzk_priority default_priority(cuzk_proof_kind k)
{
    return k == CUZK_KIND_WINNING_POST ? CUZK_PRIORITY_CRITICAL
           : k == CUZK_KIND_WINDOW_POST_PARTITION ? CUZK_PRIORITY_HIGH : CUZK_PRIORITY_NORMAL;
}

static uint32_t queue_position(cuzk_engine_t *e, const job_t *j)
{
    uint32_t n = 0;
    for (job_t *o = e->jobs; o; o = o->next)
        if (o != j && o->phase == JOB_QUEUED &&
            (o->priority > j->priority || (o->priority == j->priority && o->seq < j->seq)))
            n++;
    return n;
}

cuzk_status cuzk_engine_submit(cuzk_engine_t *e, const cuzk_job_request_t *req, char job_id[CUZK_JOB_ID_MAX],
                               uint32_t *queue_position_out, cuzk_err_t *err)
{
    job_id[0] = 0;
    cuzk_status st = check_request(req, err);
    if (st != CUZK_OK)
        return st;
    job_t *j = calloc(1, sizeof *j);
    if (!j || !copy_input(j, req)) {
        if (j)
            job_free(j);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory for the request");
    }
    if (req->request_id && req->request_id[0])
        snprintf(j->id, sizeof j->id, "%s", req->request_id);
    else
        new_uuid(j->id);
    j->kind = req->kind;
    j->ops = cuzk_job_kind(req->kind);
    j->priority = req->priority ? req->priority : default_priority(req->kind);
    j->sector_size = req->sector_size;
    j->sector_number = req->sector_number;
    j->miner_id = req->miner_id;
    j->has_sector_and_miner = req->has_sector_and_miner;
    j->t_submit = cuzk_engine_now_ns();

    pthread_mutex_lock(&e->mu);
    if (e->stopping || e->draining) {
        pthread_mutex_unlock(&e->mu);
        job_free(j);
        return cuzk_err_set(err, CUZK_ERR_SHUTTING_DOWN, "the daemon is shutting down");
    }
    purge_expired(e);
    job_t *known = find_job(e, j->id);
    if (known) { /* the idempotency key: the same request is the same job */
        job_free(j);
        j = known;
    } else {
        j->seq = e->next_seq++;
        j->phase = JOB_QUEUED;
        j->next = e->jobs;
        e->jobs = j;
        cuzk_engine_timeline(e, "SUBMIT", j->id, "%s priority %d %zu bytes", cuzk_proof_kind_label(j->kind),
                             (int)j->priority, j->input_len);
        pthread_cond_broadcast(&e->work_cv);
    }
    snprintf(job_id, CUZK_JOB_ID_MAX, "%s", j->id);
    if (queue_position_out)
        *queue_position_out = j->phase == JOB_QUEUED ? queue_position(e, j) : 0;
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

static void copy_result(cuzk_job_result_t *out, const job_t *j)
{
    out->status = j->status;
    snprintf(out->error, sizeof out->error, "%s", j->status == CUZK_JOB_COMPLETED ? "" : j->error);
    if (j->status == CUZK_JOB_COMPLETED && j->proof_len && (out->proof = malloc(j->proof_len))) {
        memcpy(out->proof, j->proof, j->proof_len);
        out->proof_len = j->proof_len;
    } else if (j->status == CUZK_JOB_COMPLETED) {
        out->status = CUZK_JOB_FAILED;
        snprintf(out->error, sizeof out->error, "out of memory for the result");
    }
    out->queue_wait_ms = j->t_start ? (j->t_start - j->t_submit) / 1000000 : (j->t_done - j->t_submit) / 1000000;
    out->srs_load_ms = j->srs_load_ms;
    out->synthesis_ms = (uint64_t)(j->synth_ms + 0.5);
    out->prove_ms = (uint64_t)(j->prove_ms + 0.5);
    out->total_ms = (j->t_done - j->t_submit) / 1000000;
}

void cuzk_engine_await(cuzk_engine_t *e, const char *job_id, uint64_t timeout_ms, cuzk_job_result_t *out,
                       bool (*cancel_check)(void *), void *cancel_arg)
{
    memset(out, 0, sizeof *out);
    /* a timeout too large for the clock means no limit in practice, never a wrapped, past deadline */
    uint64_t deadline = timeout_ms ? cuzk_after_ns(cuzk_engine_now_ns(), cuzk_ms_to_ns(timeout_ms)) : 0;
    pthread_mutex_lock(&e->mu);
    job_t *j = find_job(e, job_id);
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        out->status = CUZK_JOB_UNKNOWN;
        snprintf(out->error, sizeof out->error, "no such job: %s", job_id);
        return;
    }
    j->waiters++;
    while (j->phase != JOB_DONE) {
        uint64_t now = cuzk_engine_now_ns(), wake = now + 100000000ull; /* poll the caller's cancel check */
        if (deadline && now >= deadline) {
            out->status = CUZK_JOB_TIMEOUT;
            snprintf(out->error, sizeof out->error, "no result within %llu ms", (unsigned long long)timeout_ms);
            break;
        }
        if (cancel_check && cancel_check(cancel_arg)) {
            out->status = CUZK_JOB_CANCELLED;
            snprintf(out->error, sizeof out->error, "the wait was abandoned");
            break;
        }
        if (deadline && deadline < wake)
            wake = deadline;
        struct timespec ts = cuzk_engine_timespec(wake);
        pthread_cond_timedwait(&e->done_cv, &e->mu, &ts);
    }
    if (j->phase == JOB_DONE)
        copy_result(out, j);
    j->waiters--;
    if (j->phase == JOB_DONE && j->waiters == 0 && out->status != CUZK_JOB_TIMEOUT) {
        unlink_job(e, j); /* delivered: a result is handed out once */
        job_free(j);
    }
    pthread_cond_broadcast(&e->done_cv);
    pthread_mutex_unlock(&e->mu);
}

void cuzk_job_result_free(cuzk_job_result_t *r)
{
    free(r->proof);
    r->proof = NULL;
    r->proof_len = 0;
}

/* Under mu. */
static void cancel_locked(cuzk_engine_t *e, const char *job_id, bool only_unwatched, bool *found, bool *was_running)
{
    *found = *was_running = false;
    job_t *j = find_job(e, job_id);
    if (j && j->phase != JOB_DONE && (!only_unwatched || j->waiters == 0)) {
        *found = true;
        if (j->phase == JOB_QUEUED)
            cuzk_engine_job_finish(e, j, CUZK_JOB_CANCELLED, "cancelled");
        else {
            *was_running = true;
            __atomic_store_n(&j->cancel, true, __ATOMIC_RELAXED);
            snprintf(j->error, sizeof j->error, "cancelled");
            cuzk_engine_job_settle(e, j);
        }
        cuzk_engine_timeline(e, "CANCEL", job_id, "%s", *was_running ? "running" : "queued");
    }
}

void cuzk_engine_cancel(cuzk_engine_t *e, const char *job_id, bool *found, bool *was_running)
{
    pthread_mutex_lock(&e->mu);
    cancel_locked(e, job_id, false, found, was_running);
    pthread_mutex_unlock(&e->mu);
}

void cuzk_engine_abandon(cuzk_engine_t *e, const char *job_id)
{
    bool found, running;
    pthread_mutex_lock(&e->mu);
    cancel_locked(e, job_id, true, &found, &running);
    job_t *j = find_job(e, job_id);
    if (j && j->phase == JOB_DONE && j->waiters == 0) { /* nobody will collect it */
        unlink_job(e, j);
        job_free(j);
    }
    pthread_mutex_unlock(&e->mu);
}

cuzk_status cuzk_engine_preload(cuzk_engine_t *e, const char *circuit_id, bool *already_loaded, uint64_t *load_ms,
                                cuzk_err_t *err)
{
    *already_loaded = false;
    *load_ms = 0;
    cuzk_srs_circuit_t circuit;
    if (!cuzk_srs_circuit_by_id(circuit_id, &circuit))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "unknown circuit id '%s' (porep-, winning-, wpost- or snap- with 2k, 8m, 512m, 32g or "
                            "64g)",
                            circuit_id);
    cuzk_srs_entry_t *entry = NULL;
    uint64_t loaded = 0;
    cuzk_status st = cuzk_srs_acquire(&e->srs, &circuit, &entry, &loaded, already_loaded, NULL, NULL, err);
    if (st != CUZK_OK)
        return st;
    *load_ms = loaded;
    cuzk_engine_timeline(e, "PRELOAD", circuit_id, "%s %llu ms", *already_loaded ? "resident" : "loaded",
                         (unsigned long long)loaded);
    cuzk_srs_release(&e->srs, entry);
    return CUZK_OK;
}

cuzk_status cuzk_engine_evict(cuzk_engine_t *e, const char *circuit_id, bool *was_loaded, uint64_t *freed_bytes,
                              cuzk_err_t *err)
{
    *was_loaded = false;
    *freed_bytes = 0;
    if (!cuzk_srs_circuit_by_id(circuit_id, NULL))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "unknown circuit id '%s'", circuit_id);
    cuzk_status st = cuzk_srs_evict(&e->srs, circuit_id, was_loaded, freed_bytes, err);
    if (st == CUZK_OK && *was_loaded)
        cuzk_engine_timeline(e, "EVICT", circuit_id, "%llu bytes", (unsigned long long)*freed_bytes);
    return st;
}
