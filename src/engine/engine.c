/* The engine's public face: start and stop the workers, submit / await / cancel jobs, parameter
 * preload and eviction. Scheduling and proving live in pipeline.c, what each proof kind does in
 * job_porep.c, job_post.c and job_snap.c; status and metrics in status.c.
 * Job identity: a request_id names one job shared by everyone who submits or awaits it. A submission
 * finds a live job before it copies anything; the queue (max_queued, the budget's queue share) and the
 * finished results nobody collected (max_kept_results, result_retention_ms) are bounded. */
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
    cfg->max_queued = 256;
    cfg->max_kept_results = 1000;
    cfg->log = stderr;
}

const char *cuzk_engine_synth_mode_name(cuzk_engine_synth_mode m)
{
    switch (m) {
    case CUZK_ENGINE_SYNTH_AUTO: return "auto";
    case CUZK_ENGINE_SYNTH_DIRECT: return "direct";
    case CUZK_ENGINE_SYNTH_RECORD: return "record";
    default: return "unknown";
    }
}

uint64_t cuzk_engine_evict_idle(void *engine, uint64_t need)
{
    cuzk_engine_t *e = engine;
    uint64_t now = cuzk_engine_now_ns();
    uint64_t freed = cuzk_record_evict_idle_at(&e->records, need, now);
    if (freed < need)
        freed += cuzk_srs_evict_idle_at(&e->srs, need - freed, now);
    return freed;
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
        cfg->pipeline_depth < 1 || cfg->prover_threads < 0 || cfg->synthesis_threads < 0 || cfg->total_budget == 0 ||
        (unsigned)cfg->synthesis_mode > CUZK_ENGINE_SYNTH_RECORD)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "engine: workers and pipeline depth must be at least 1, "
                                                       "thread counts not negative, the budget non-zero, the "
                                                       "synthesis mode auto, direct or record");
    cuzk_engine_t *e = calloc(1, sizeof *e);
    if (!e || !(e->param_cache = strdup(cfg->param_cache))) {
        free(e);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "engine: out of memory");
    }
    e->cfg = *cfg;
    e->cfg.param_cache = e->param_cache;
    if (!e->cfg.result_retention_ms)
        e->cfg.result_retention_ms = 3600 * 1000;
    if (!e->cfg.max_queued)
        e->cfg.max_queued = 256;
    if (!e->cfg.max_kept_results)
        e->cfg.max_kept_results = 1000;
    e->t_start = cuzk_engine_now_ns();
    pthread_mutex_init(&e->mu, NULL);
    pthread_mutex_init(&e->log_mu, NULL);
    cuzk_engine_cond_init(&e->work_cv);
    cuzk_engine_cond_init(&e->prove_cv);
    cuzk_engine_cond_init(&e->done_cv);
    cuzk_budget_init(&e->budget, cfg->total_budget, cuzk_engine_evict_idle, e);
    cuzk_srs_cache_init(&e->srs, e->param_cache, &e->budget, cfg->eviction_min_idle_ms, cfg->prover_threads);
    cuzk_record_cache_init(&e->records, &e->budget, cfg->eviction_min_idle_ms);

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
                       "PoRep synthesis %s, parameters in %s", cfg->total_budget / 1073741824.0,
                    cfg->synthesis_workers, cfg->prover_workers, cfg->prover_threads,
                    cuzk_engine_synth_mode_name(cfg->synthesis_mode), e->param_cache);
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

/* A job's memory, once it is out of the list (its input charge already returned, or never taken). */
static void job_free(job_t *j)
{
    free(j->input);
    free(j->input_lens);
    free(j->proof);
    free(j);
}

void cuzk_engine_job_drop_input(cuzk_engine_t *e, job_t *j)
{
    free(j->input);
    j->input = NULL;
    if (j->input_charged)
        cuzk_budget_unqueue(&e->budget, j->input_charged);
    j->input_charged = 0;
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
    cuzk_record_cache_destroy(&e->records);
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

/* The job an id names now (a replaced one no longer). Under mu. */
static job_t *find_job(cuzk_engine_t *e, const char *id)
{
    for (job_t *j = e->jobs; j; j = j->next)
        if (!j->replaced && strcmp(j->id, id) == 0)
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

/* A finished result nobody waits for: what max_kept_results and the retention time bound. */
static bool kept_result(const job_t *j) { return j->phase == JOB_DONE && j->waiters == 0 && !j->replaced; }

/* Under mu: drops replaced jobs nobody waits for any more, results kept past the retention time, then
 * the oldest kept results beyond max_kept_results. */
static void purge_results(cuzk_engine_t *e)
{
    uint64_t now = cuzk_engine_now_ns(), keep = cuzk_ms_to_ns(e->cfg.result_retention_ms);
    uint32_t kept = 0;
    for (job_t **p = &e->jobs; *p;) {
        job_t *j = *p;
        bool expired = kept_result(j) && cuzk_elapsed_ns(now, j->t_done) > keep;
        if ((j->replaced && j->waiters == 0) || expired) {
            *p = j->next;
            job_free(j);
        } else {
            kept += kept_result(j);
            p = &j->next;
        }
    }
    while (kept > e->cfg.max_kept_results) {
        job_t *oldest = NULL;
        for (job_t *j = e->jobs; j; j = j->next)
            if (kept_result(j) && (!oldest || j->t_done < oldest->t_done))
                oldest = j;
        cuzk_engine_timeline(e, "DROPPED", oldest->id, "result not collected; %u newer kept",
                             e->cfg.max_kept_results);
        unlink_job(e, oldest);
        job_free(oldest);
        kept--;
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

static cuzk_status check_request_id(const char *id, cuzk_err_t *err)
{
    if (!id)
        return CUZK_OK;
    size_t n = strlen(id);
    if (n >= CUZK_JOB_ID_MAX)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "request_id longer than %d bytes", CUZK_JOB_ID_MAX - 1);
    for (size_t i = 0; i < n; i++) /* ids go into logs and CSV lines */
        if (id[i] <= ' ' || id[i] > '~' || id[i] == ',')
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "request_id: only printable ASCII without spaces or commas");
    return CUZK_OK;
}

static cuzk_status check_request(const cuzk_job_request_t *r, cuzk_err_t *err)
{
    const job_kind_t *ops = cuzk_job_kind(r->kind);
    if (!ops)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "unknown proof kind %d", (int)r->kind);
    if ((int)r->priority < CUZK_PRIORITY_UNSPECIFIED || r->priority > CUZK_PRIORITY_CRITICAL)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "unknown priority %d", (int)r->priority);
    return ops->check_request(r, err);
}

/* The bytes a request's input takes once copied (what the queue is charged); false on overflow. */
static bool request_bytes(const cuzk_job_request_t *r, uint64_t *bytes)
{
    if (r->kind == CUZK_KIND_POREP_SEAL_COMMIT) {
        *bytes = r->vanilla_proof_len;
        return true;
    }
    size_t total = 0;
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) {
        if (r->vanilla_proofs[i].len > SIZE_MAX - total)
            return false;
        total += r->vanilla_proofs[i].len;
    }
    *bytes = total;
    return true;
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

static uint32_t queued_jobs(cuzk_engine_t *e)
{
    uint32_t n = 0;
    for (job_t *j = e->jobs; j; j = j->next)
        n += j->phase == JOB_QUEUED;
    return n;
}

/* Under mu: the live job id names (a COMPLETED result not yet handed over, or a job queued or running),
 * claimed for a later await unless sync; NULL when a new job is to be made. A job that ended CANCELLED
 * or FAILED is not live: its id starts a new job. (The original daemon, curio extern/cuzk/cuzk-core/
 * src/engine.rs Engine::submit, queues every submission, a repeated id too, and keeps every result for
 * good; here an id is one job, and a finished proof is not proved again.) */
static job_t *find_live_locked(cuzk_engine_t *e, const char *id, bool sync)
{
    if (e->stopping || e->draining)
        return NULL;
    purge_results(e);
    job_t *j = id ? find_job(e, id) : NULL;
    if (!j || (j->phase == JOB_DONE && (j->status == CUZK_JOB_CANCELLED || j->status == CUZK_JOB_FAILED)))
        return NULL;
    if (!sync)
        j->async_submitted = true;
    return j;
}

/* Under mu: whether a new job may be queued now. */
static cuzk_status room_locked(cuzk_engine_t *e, cuzk_err_t *err)
{
    if (e->stopping || e->draining)
        return cuzk_err_set(err, CUZK_ERR_SHUTTING_DOWN, "the daemon is shutting down");
    uint32_t queued = queued_jobs(e);
    if (queued >= e->cfg.max_queued)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "the queue is full: %u jobs wait to start; retry later", queued);
    return CUZK_OK;
}

/* A new job for the (checked) request, its input copied and charged to the queue's share of the budget. */
static cuzk_status new_job(cuzk_engine_t *e, const cuzk_job_request_t *req, job_t **out, cuzk_err_t *err)
{
    *out = NULL;
    uint64_t bytes = 0;
    if (!request_bytes(req, &bytes))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "vanilla_proofs: lengths overflow");
    if (!cuzk_budget_queue(&e->budget, bytes))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY,
                            "no room for the request's %.1f MiB: queued requests hold %.1f of the %.1f MiB the "
                            "memory budget keeps for them; retry later",
                            bytes / 1048576.0, cuzk_budget_queued(&e->budget) / 1048576.0,
                            e->budget.queue_cap / 1048576.0);
    job_t *j = calloc(1, sizeof *j);
    if (!j || !copy_input(j, req)) {
        cuzk_budget_unqueue(&e->budget, bytes);
        if (j)
            job_free(j);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory for the request");
    }
    j->input_charged = bytes;
    if (req->request_id && req->request_id[0])
        snprintf(j->id, sizeof j->id, "%s", req->request_id);
    else
        new_uuid(j->id);
    j->kind = req->kind;
    /* PoRep chooses when it starts (AUTO until then); the other kinds always synthesize directly */
    j->synth_mode = req->kind == CUZK_KIND_POREP_SEAL_COMMIT ? CUZK_ENGINE_SYNTH_AUTO : CUZK_ENGINE_SYNTH_DIRECT;
    j->ops = cuzk_job_kind(req->kind);
    j->priority = req->priority ? req->priority : default_priority(req->kind);
    j->sector_size = req->sector_size;
    j->sector_number = req->sector_number;
    j->miner_id = req->miner_id;
    j->has_sector_and_miner = req->has_sector_and_miner;
    j->seal_proof_id = req->registered_proof;
    *out = j;
    return CUZK_OK;
}

/* Finds or queues the job of req. CUZK_OK: returns with mu held and *out the job. Otherwise mu is not
 * held. sync: the submitter waits for the result itself (cuzk_engine_prove). request_done (may be NULL)
 * is called once req is no longer needed: after the copy, or under mu when the job was known. The order
 * of the steps: the id (a known job needs no copy of anything, nor any check), the request's checks (a
 * bad request gets its own status, whatever the engine's state), room in the queue, the copy. */
static cuzk_status submit_locked(cuzk_engine_t *e, const cuzk_job_request_t *req, bool sync, job_t **out,
                                 void (*request_done)(void *), void *arg, cuzk_err_t *err)
{
    *out = NULL;
    const char *id = req->request_id && req->request_id[0] ? req->request_id : NULL;
    job_t *j = NULL;
    cuzk_status st = check_request_id(req->request_id, err);
    if (st == CUZK_OK) {
        pthread_mutex_lock(&e->mu);
        if ((j = find_live_locked(e, id, sync))) {
            if (request_done)
                request_done(arg);
            *out = j;
            return CUZK_OK;
        }
        pthread_mutex_unlock(&e->mu);
        st = check_request(req, err);
        /* a partition larger than the budget would never start: refused now, not left queued */
        if (st == CUZK_OK && req->kind == CUZK_KIND_POREP_SEAL_COMMIT)
            st = cuzk_porep_check_budget(e, req, err);
    }
    if (st == CUZK_OK) {
        pthread_mutex_lock(&e->mu);
        st = room_locked(e, err);
        pthread_mutex_unlock(&e->mu);
    }
    if (st == CUZK_OK)
        st = new_job(e, req, &j, err);
    if (request_done)
        request_done(arg);
    if (st != CUZK_OK)
        return st;
    if (id) /* req is the caller's no more */
        id = j->id;
    pthread_mutex_lock(&e->mu);
    /* again: the same id may have been submitted meanwhile, the queue filled, a drain begun */
    job_t *known = find_live_locked(e, id, sync);
    st = known ? CUZK_OK : room_locked(e, err);
    if (st != CUZK_OK || known) {
        cuzk_engine_job_drop_input(e, j);
        job_free(j);
        if (st != CUZK_OK) {
            pthread_mutex_unlock(&e->mu);
            return st;
        }
        *out = known;
        return CUZK_OK;
    }
    job_t *old = id ? find_job(e, id) : NULL;
    if (old) /* it ended CANCELLED or FAILED: its waiters keep its result, the id is the new job's */
        old->replaced = true;
    j->async_submitted = !sync;
    j->t_submit = cuzk_engine_now_ns();
    j->seq = e->next_seq++;
    j->phase = JOB_QUEUED;
    j->next = e->jobs;
    e->jobs = j;
    cuzk_engine_timeline(e, "SUBMIT", j->id, "%s priority %d %zu bytes%s", cuzk_proof_kind_label(j->kind),
                         (int)j->priority, j->input_len, old ? " (the last job of this id ended)" : "");
    pthread_cond_broadcast(&e->work_cv);
    *out = j;
    return CUZK_OK;
}

cuzk_status cuzk_engine_submit(cuzk_engine_t *e, const cuzk_job_request_t *req, char job_id[CUZK_JOB_ID_MAX],
                               uint32_t *queue_position_out, cuzk_err_t *err)
{
    job_id[0] = 0;
    job_t *j;
    cuzk_status st = submit_locked(e, req, false, &j, NULL, NULL, err);
    if (st != CUZK_OK)
        return st;
    snprintf(job_id, CUZK_JOB_ID_MAX, "%s", j->id);
    if (queue_position_out)
        *queue_position_out = j->phase == JOB_QUEUED ? queue_position(e, j) : 0;
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

static void copy_result(cuzk_job_result_t *out, const job_t *j)
{
    out->status = j->status;
    out->handed_over = true;
    snprintf(out->error, sizeof out->error, "%s", j->status == CUZK_JOB_COMPLETED ? "" : j->error);
    if (j->status == CUZK_JOB_COMPLETED && j->proof_len && (out->proof = malloc(j->proof_len))) {
        memcpy(out->proof, j->proof, j->proof_len);
        out->proof_len = j->proof_len;
    } else if (j->status == CUZK_JOB_COMPLETED) { /* the job's result stays: this waiter did not get it */
        out->status = CUZK_JOB_FAILED;
        out->handed_over = false;
        snprintf(out->error, sizeof out->error, "out of memory for the result");
    }
    out->queue_wait_ms = j->queue_wait_ms;
    out->srs_load_ms = j->srs_load_ms;
    out->synthesis_ms = (uint64_t)(j->synth_ms + 0.5);
    out->prove_ms = (uint64_t)(j->prove_ms + 0.5);
    out->total_ms = j->total_ms;
    out->synthesis_mode = j->synth_mode;
}

/* Under mu: ends a queued or running job as CANCELLED (why: its message); false if it had finished. */
static bool cancel_job_locked(cuzk_engine_t *e, job_t *j, const char *why, bool *was_running)
{
    *was_running = false;
    if (j->phase == JOB_DONE)
        return false;
    if (j->phase == JOB_QUEUED)
        cuzk_engine_job_finish(e, j, CUZK_JOB_CANCELLED, why);
    else {
        *was_running = true;
        __atomic_store_n(&j->cancel, true, __ATOMIC_RELAXED);
        snprintf(j->error, sizeof j->error, "%s", why);
        cuzk_engine_job_settle(e, j);
    }
    return true;
}

/* Under mu, with j counted in j->waiters by the caller; returns without mu. Waits until j finishes, the
 * deadline passes (0: none) or cancel_check says the waiter went away, then leaves: the last waiter of
 * a job submitted only by cuzk_engine_prove cancels it on going away; the last one to take a finished
 * result frees it (unless a delivery failed meanwhile). */
static void wait_locked(cuzk_engine_t *e, job_t *j, uint64_t deadline, uint64_t timeout_ms, cuzk_job_result_t *out,
                        bool (*cancel_check)(void *), void *cancel_arg)
{
    bool gone = false;
    while (j->phase != JOB_DONE) {
        uint64_t now = cuzk_engine_now_ns(), wake = now + 100000000ull; /* poll the caller's cancel check */
        if (deadline && now >= deadline) {
            out->status = CUZK_JOB_TIMEOUT;
            snprintf(out->error, sizeof out->error, "no result within %llu ms", (unsigned long long)timeout_ms);
            break;
        }
        if (cancel_check && cancel_check(cancel_arg)) {
            gone = true;
            out->status = CUZK_JOB_CANCELLED;
            snprintf(out->error, sizeof out->error, "the wait was abandoned");
            break;
        }
        if (deadline && deadline < wake)
            wake = deadline;
        struct timespec ts = cuzk_engine_timespec(wake);
        pthread_cond_timedwait(&e->done_cv, &e->mu, &ts);
    }
    if (j->phase == JOB_DONE) {
        copy_result(out, j);
        if (out->handed_over)
            j->keep = false; /* taken again: this waiter's delivery decides */
    }
    j->waiters--;
    bool running;
    if (gone && j->waiters == 0 && !j->async_submitted &&
        cancel_job_locked(e, j, "cancelled: every client waiting for it went away", &running))
        cuzk_engine_timeline(e, "CANCEL", j->id, "%s (nobody waits)", running ? "running" : "queued");
    if (j->phase == JOB_DONE && j->waiters == 0 && out->handed_over && !j->keep) {
        unlink_job(e, j); /* handed over: a result goes out once */
        job_free(j);
    }
    pthread_cond_broadcast(&e->done_cv);
    pthread_mutex_unlock(&e->mu);
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
        snprintf(out->error, sizeof out->error, "no such job: %.*s", CUZK_JOB_ID_MAX, job_id);
        return;
    }
    j->waiters++;
    wait_locked(e, j, deadline, timeout_ms, out, cancel_check, cancel_arg);
}

cuzk_status cuzk_engine_prove(cuzk_engine_t *e, const cuzk_job_request_t *req, char job_id[CUZK_JOB_ID_MAX],
                              cuzk_job_result_t *out, bool (*cancel_check)(void *), void (*request_done)(void *),
                              void *arg, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    job_id[0] = 0;
    job_t *j;
    cuzk_status st = submit_locked(e, req, true, &j, request_done, arg, err);
    if (st != CUZK_OK)
        return st;
    snprintf(job_id, CUZK_JOB_ID_MAX, "%s", j->id);
    j->waiters++; /* under the same lock as the submission: no departure can cancel it in between */
    wait_locked(e, j, 0, 0, out, cancel_check, arg);
    return CUZK_OK;
}

void cuzk_engine_delivery_failed(cuzk_engine_t *e, const char *job_id, const cuzk_job_result_t *res)
{
    bool final =
        res->status == CUZK_JOB_COMPLETED || res->status == CUZK_JOB_FAILED || res->status == CUZK_JOB_CANCELLED;
    if (!res->handed_over || !final || !job_id || check_request_id(job_id, NULL) != CUZK_OK || !job_id[0])
        return;
    pthread_mutex_lock(&e->mu);
    job_t *j = find_job(e, job_id);
    if (j) { /* still there (other waiters hold it), or a newer job has the id */
        if (j->phase == JOB_DONE)
            j->keep = true;
        pthread_mutex_unlock(&e->mu);
        return;
    }
    j = calloc(1, sizeof *j);
    uint8_t *proof = res->proof_len ? malloc(res->proof_len) : NULL;
    if (!j || (res->proof_len && !proof)) {
        pthread_mutex_unlock(&e->mu);
        free(j);
        free(proof);
        return;
    }
    snprintf(j->id, sizeof j->id, "%s", job_id);
    if (proof)
        memcpy(proof, res->proof, res->proof_len);
    j->proof = proof;
    j->proof_len = res->proof_len;
    j->status = res->status;
    snprintf(j->error, sizeof j->error, "%s", res->error);
    j->queue_wait_ms = res->queue_wait_ms;
    j->srs_load_ms = res->srs_load_ms;
    j->synth_ms = (double)res->synthesis_ms;
    j->prove_ms = (double)res->prove_ms;
    j->total_ms = res->total_ms;
    j->synth_mode = res->synthesis_mode;
    j->phase = JOB_DONE;
    j->t_done = cuzk_engine_now_ns();
    j->seq = e->next_seq++;
    j->next = e->jobs;
    e->jobs = j;
    cuzk_engine_timeline(e, "UNDELIVERED", j->id, "kept for another await");
    purge_results(e);
    pthread_cond_broadcast(&e->done_cv);
    pthread_mutex_unlock(&e->mu);
}

void cuzk_job_result_free(cuzk_job_result_t *r)
{
    free(r->proof);
    r->proof = NULL;
    r->proof_len = 0;
}

void cuzk_engine_cancel(cuzk_engine_t *e, const char *job_id, bool *found, bool *was_running)
{
    *found = *was_running = false;
    pthread_mutex_lock(&e->mu);
    job_t *j = find_job(e, job_id);
    if (j && cancel_job_locked(e, j, "cancelled", was_running)) {
        *found = true;
        cuzk_engine_timeline(e, "CANCEL", job_id, "%s", *was_running ? "running" : "queued");
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
