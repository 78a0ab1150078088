/* The partition pipeline: synthesis workers start queued jobs (their kind's prepare: parse and check the
 * input, acquire the parameters) and synthesize partitions; prover workers prove synthesized partitions,
 * and the one that proves a job's last partition verifies the whole proof before the job completes. A
 * synthesized partition holds its memory reservation until proved.
 *
 * Partitions go by their job's priority at both stages (then the older job, then the lower index):
 * - a synthesis worker takes the highest-priority work, a queued job to start or a running job's next
 *   partition, and the synthesized partitions of lower-priority jobs do not count against the pipeline
 *   slots (pipeline_depth) of a higher-priority one: a running job's next partitions wait while a
 *   higher-priority job has work, and partitions already waiting never keep that job from starting;
 * - a prover takes the highest-priority synthesized partition, and while a CRITICAL job is queued, being
 *   started or synthesized, it starts no partition of a lower priority (unless a thread waits for memory,
 *   which proving would free: holding back then could wait forever).
 * A CRITICAL job (Winning PoSt) thus waits for at most the partition each worker is busy with when it
 * arrives, never for one started after it. The price: a prover may idle while that job starts and is
 * synthesized (Winning: well under a second once its parameters are resident). */
#include <stdlib.h>
#include <string.h>

#include "engine/clock.h"
#include "engine/engine_internal.h"

static bool before(const job_t *a, const job_t *b)
{
    return a->priority > b->priority || (a->priority == b->priority && a->seq < b->seq);
}

static job_t *best_queued(cuzk_engine_t *e)
{
    job_t *best = NULL;
    for (job_t *j = e->jobs; j; j = j->next)
        if (j->phase == JOB_QUEUED && (!best || before(j, best)))
            best = j;
    return best;
}

/* The running job whose next partition should be synthesized. */
static job_t *best_runnable(cuzk_engine_t *e)
{
    job_t *best = NULL;
    for (job_t *j = e->jobs; j; j = j->next)
        if (j->phase == JOB_RUNNING && !j->cancel && !j->failed && j->next_synth < j->n_parts &&
            (!best || before(j, best)))
            best = j;
    return best;
}

bool cuzk_engine_job_stopped(void *p)
{
    cuzk_job_stop_t *s = p;
    return __atomic_load_n(&s->e->stopping, __ATOMIC_RELAXED) || __atomic_load_n(&s->j->cancel, __ATOMIC_RELAXED);
}

static double ms_since(uint64_t t0) { return (double)(cuzk_engine_now_ns() - t0) / 1e6; }

static void part_discard(cuzk_engine_t *e, job_t *j, job_part_t *p)
{
    if (p->synth)
        j->ops->part_free(p->synth);
    p->synth = NULL;
    if (p->reserved)
        cuzk_budget_release(&e->budget, p->reserved);
    p->reserved = 0;
}

void cuzk_engine_job_finish(cuzk_engine_t *e, job_t *j, cuzk_job_status st, const char *msg)
{
    j->phase = JOB_DONE;
    j->status = st;
    if (msg && msg != j->error)
        snprintf(j->error, sizeof j->error, "%s", msg);
    j->t_done = cuzk_engine_now_ns();
    for (uint32_t k = 0; j->parts && k < j->n_parts; k++)
        part_discard(e, j, &j->parts[k]);
    free(j->parts);
    j->parts = NULL;
    cuzk_srs_release(&e->srs, j->srs);
    j->srs = NULL;
    cuzk_record_release(&e->records, j->record); /* it stays cached, idle */
    j->record = NULL;
    j->ops->release(j);
    cuzk_engine_job_drop_input(e, j);
    j->queue_wait_ms = cuzk_elapsed_ns(j->t_start ? j->t_start : j->t_done, j->t_submit) / 1000000;
    j->total_ms = cuzk_elapsed_ns(j->t_done, j->t_submit) / 1000000;
    if (st == CUZK_JOB_COMPLETED)
        e->completed[j->kind]++;
    else
        e->failed[j->kind]++;
    if (j->t_start) {
        cuzk_hist_add(&e->queue_wait[j->kind], (double)(j->t_start - j->t_submit) / 1e9);
        if (st == CUZK_JOB_COMPLETED)
            cuzk_hist_add(&e->prove_time[j->kind], j->prove_ms / 1e3);
    }
    if (st == CUZK_JOB_COMPLETED)
        cuzk_hist_add(&e->total_time[j->kind], (double)(j->t_done - j->t_submit) / 1e9);
    static const char *names[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
    cuzk_engine_timeline(e, names[st], j->id, "%s", st == CUZK_JOB_COMPLETED ? "" : j->error);
    pthread_cond_broadcast(&e->done_cv);
    pthread_cond_broadcast(&e->work_cv);
    pthread_cond_broadcast(&e->prove_cv); /* a prover holding back for this job may go on */
}

void cuzk_engine_job_settle(cuzk_engine_t *e, job_t *j)
{
    if (j->phase == JOB_RUNNING && (j->failed || j->cancel) && j->in_flight == 0) /* a cancel may say why */
        cuzk_engine_job_finish(e, j, j->failed ? CUZK_JOB_FAILED : CUZK_JOB_CANCELLED,
                               j->failed || j->error[0] ? j->error : "cancelled");
}

cuzk_status cuzk_engine_acquire_srs(cuzk_engine_t *e, job_t *j, const cuzk_srs_circuit_t *circuit, cuzk_err_t *err)
{
    cuzk_job_stop_t stop = {e, j};
    uint64_t t0 = cuzk_engine_now_ns();
    cuzk_status st =
        cuzk_srs_acquire(&e->srs, circuit, &j->srs, &j->srs_load_ms, NULL, cuzk_engine_job_stopped, &stop, err);
    if (st == CUZK_OK)
        cuzk_engine_timeline(e, "SRS_READY", j->id, "%s %.0f ms", j->srs->circuit.id, ms_since(t0));
    return st;
}

/* Under mu, returns under mu. */
static void activate(cuzk_engine_t *e, job_t *j)
{
    j->phase = JOB_ACTIVATING;
    j->t_start = cuzk_engine_now_ns();
    /* logged under mu: the log's order of SUBMIT, START and *_START is the order of the decisions */
    cuzk_engine_timeline(e, "START", j->id, "queued %.0f ms", (double)(j->t_start - j->t_submit) / 1e6);
    pthread_mutex_unlock(&e->mu);
    cuzk_err_t err = {{0}};
    uint32_t n_parts = 0;
    cuzk_status st = j->ops->prepare(e, j, &n_parts, &err);
    job_part_t *parts = st == CUZK_OK ? calloc(n_parts, sizeof *parts) : NULL;
    if (st == CUZK_OK && !parts)
        st = cuzk_err_set(&err, CUZK_ERR_NO_MEMORY, "out of memory");
    pthread_mutex_lock(&e->mu);
    cuzk_engine_job_drop_input(e, j);
    if (st != CUZK_OK || j->cancel) {
        free(parts);
        j->phase = JOB_RUNNING; /* finish() frees what prepare() got */
        cuzk_engine_job_finish(e, j, st != CUZK_OK ? CUZK_JOB_FAILED : CUZK_JOB_CANCELLED,
                               st != CUZK_OK ? err.msg : j->error[0] ? j->error : "cancelled");
        return;
    }
    j->parts = parts;
    j->n_parts = n_parts;
    j->phase = JOB_RUNNING;
    pthread_cond_broadcast(&e->work_cv);
}

/* Bytes a partition holds from synthesis to the end of its proof: a, b, c and the assignment (32-byte
 * elements), the prover's three domain-sized evaluation vectors, and slack for the synthesizer. */
static uint64_t partition_bytes(const cuzk_groth16_pk_t *pk)
{
    uint64_t m = pk->h_len + 1, vars = pk->l_len + pk->vk.ic_len;
    return 32 * (6 * m + vars) + (64ull << 20);
}

/* Under mu, returns under mu: synthesizes the job's next partition. */
static void synthesize_next(cuzk_engine_t *e, job_t *j)
{
    uint32_t k = j->next_synth++;
    job_part_t *part = &j->parts[k];
    part->state = PART_SYNTHESIZING;
    j->in_flight++;
    e->synth_active++;
    cuzk_engine_timeline(e, "SYNTH_START", j->id, "partition %u", k);
    pthread_mutex_unlock(&e->mu);

    cuzk_err_t err = {{0}};
    cuzk_job_stop_t stop = {e, j};
    uint64_t bytes = j->ops->partition_bytes ? j->ops->partition_bytes(j) : partition_bytes(j->srs->pk);
    cuzk_status st = CUZK_OK;
    /* would wait forever: its own parameters (and record) stay resident, and queued requests may hold the
     * rest */
    uint64_t resident = j->srs->bytes + (j->record ? j->record->bytes : 0);
    if (resident + bytes > cuzk_budget_work_limit(&e->budget))
        st = cuzk_err_set(&err, CUZK_ERR_NO_MEMORY,
                          "the memory budget (%.2f GiB, an eighth of it kept for queued requests) holds the "
                          "parameters%s (%.2f GiB) but not a partition besides (%.2f GiB)",
                          e->budget.total / 1073741824.0, j->record ? " and the circuit's record" : "",
                          resident / 1073741824.0, bytes / 1073741824.0);
    if (st == CUZK_OK)
        st = cuzk_budget_acquire(&e->budget, bytes, cuzk_engine_job_stopped, &stop, "a partition", &err);
    bool reserved = st == CUZK_OK;
    double synth_ms = 0; /* part's fields are written under mu: /status reads them */
    void *synth = NULL;
    if (st == CUZK_OK) {
        uint64_t t0 = cuzk_engine_now_ns();
        st = j->ops->synthesize(&synth, e, j, k, cuzk_engine_job_stopped, &stop, &err);
        synth_ms = ms_since(t0);
        cuzk_engine_timeline(e, "SYNTH_END", j->id, "partition %u %.0f ms", k, synth_ms);
    }

    pthread_mutex_lock(&e->mu);
    e->synth_active--;
    part->reserved = reserved ? bytes : 0;
    part->synth = synth;
    part->synth_ms = synth_ms;
    j->synth_ms += synth_ms;
    if (st != CUZK_OK || j->cancel || j->failed) {
        part_discard(e, j, part);
        part->state = PART_FAILED;
        j->in_flight--;
        if (st == CUZK_ERR_CANCELLED)   /* stopped by cuzk_engine_job_stopped: a cancel, not a failure */
            __atomic_store_n(&j->cancel, true, __ATOMIC_RELAXED);
        else if (st != CUZK_OK && !j->cancel && !j->failed) {
            j->failed = true;
            snprintf(j->error, sizeof j->error, "partition %u: %s", k, err.msg);
        }
        cuzk_engine_job_settle(e, j);
        pthread_cond_broadcast(&e->prove_cv); /* stopping provers wait for the last synthesis */
        return;
    }
    part->state = PART_SYNTH_DONE;
    e->synth_waiting++;
    /* every prover: one holding back for this job, or stopping, must see it */
    pthread_cond_broadcast(&e->prove_cv);
}

static void worker_busy(worker_t *w, const job_t *j, uint32_t k)
{
    w->busy = true;
    snprintf(w->job, sizeof w->job, "%s", j->id);
    w->partition = k;
    w->busy_since_ns = cuzk_engine_now_ns();
}

static void worker_idle(worker_t *w)
{
    w->busy = false;
    w->busy_total_ns += cuzk_engine_now_ns() - w->busy_since_ns;
}

/* Under mu: whether a job of priority p may have one more partition synthesized (or be started): fewer
 * than pipeline_depth synthesized partitions of jobs at least as urgent wait for a prover. */
static bool room_for(cuzk_engine_t *e, cuzk_priority p)
{
    uint32_t waiting = 0;
    for (job_t *j = e->jobs; j; j = j->next)
        if (j->phase == JOB_RUNNING && j->priority >= p)
            for (uint32_t k = 0; k < j->next_synth; k++)
                waiting += j->parts[k].state == PART_SYNTH_DONE;
    return waiting < (uint32_t)e->cfg.pipeline_depth;
}

void *cuzk_engine_synth_worker(void *arg)
{
    worker_t *w = arg;
    cuzk_engine_t *e = w->e;
    pthread_mutex_lock(&e->mu);
    while (!e->stopping) {
        /* a job is activated (its input parsed, its parameters acquired) only when a partition of it could
         * be synthesized at once, so that queued jobs stay cheap and keep their priority order */
        job_t *q = e->paused ? NULL : best_queued(e), *r = best_runnable(e);
        job_t *next = q && (!r || before(q, r)) ? q : r;
        if (next && room_for(e, next->priority)) {
            if (next == q)
                activate(e, q);
            else {
                worker_busy(w, r, r->next_synth);
                synthesize_next(e, r);
                worker_idle(w);
            }
        } else
            pthread_cond_wait(&e->work_cv, &e->mu);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* Under mu: the lowest priority a prover may start now. CRITICAL while a CRITICAL job is queued (and
 * startable), being started, or has partitions to synthesize, and nobody waits for memory; otherwise
 * any. */
static cuzk_priority prover_floor(cuzk_engine_t *e)
{
    if (e->stopping)
        return CUZK_PRIORITY_UNSPECIFIED;
    bool hold = false;
    for (job_t *j = e->jobs; j && !hold; j = j->next) {
        if (j->priority != CUZK_PRIORITY_CRITICAL || j->cancel || j->failed)
            continue;
        if ((j->phase == JOB_QUEUED && !e->paused) || j->phase == JOB_ACTIVATING)
            hold = true;
        else if (j->phase == JOB_RUNNING)
            for (uint32_t k = 0; k < j->n_parts && !hold; k++)
                hold = j->parts[k].state == PART_PENDING || j->parts[k].state == PART_SYNTHESIZING;
    }
    return hold && cuzk_budget_waiting(&e->budget) == 0 ? CUZK_PRIORITY_CRITICAL : CUZK_PRIORITY_UNSPECIFIED;
}

/* The synthesized partition to prove next, of priority floor or higher: highest job priority, then
 * oldest job, then lowest index. */
static job_t *best_synthesized(cuzk_engine_t *e, cuzk_priority floor, uint32_t *k_out)
{
    job_t *best = NULL;
    uint32_t best_k = 0;
    for (job_t *j = e->jobs; j; j = j->next) {
        if (j->phase != JOB_RUNNING || j->priority < floor || (best && !before(j, best)))
            continue;
        for (uint32_t k = 0; k < j->next_synth; k++)
            if (j->parts[k].state == PART_SYNTH_DONE) {
                best = j;
                best_k = k;
                break;
            }
    }
    *k_out = best_k;
    return best;
}

/* Lock not held: verifies the assembled proof and encodes it. */
static cuzk_status assemble(job_t *j, cuzk_err_t *err)
{
    cuzk_groth16_proof_t *proofs = malloc(j->n_parts * sizeof *proofs);
    j->proof_len = (size_t)j->n_parts * CUZK_GROTH16_PROOF_BYTES;
    j->proof = malloc(j->proof_len);
    if (!proofs || !j->proof) {
        free(proofs);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    }
    for (uint32_t k = 0; k < j->n_parts; k++)
        proofs[k] = j->parts[k].proof;
    bool valid = false;
    cuzk_status st = j->ops->verify(&valid, j, proofs, err);
    if (st == CUZK_OK && !valid)
        st = cuzk_err_set(err, CUZK_ERR_MISMATCH, "the proof failed verification; not returned");
    if (st == CUZK_OK)
        cuzk_groth16_proofs_write(j->proof, proofs, j->n_parts);
    free(proofs);
    return st;
}

/* Under mu, returns under mu: proves partition k of j. */
static void prove_one(cuzk_engine_t *e, job_t *j, uint32_t k)
{
    job_part_t *part = &j->parts[k];
    part->state = PART_PROVING;
    e->synth_waiting--;
    e->prove_active++;
    pthread_cond_broadcast(&e->work_cv); /* a pipeline slot is free */
    bool skip = j->cancel || j->failed;
    if (!skip)
        cuzk_engine_timeline(e, "PROVE_START", j->id, "partition %u", k);
    pthread_mutex_unlock(&e->mu);

    cuzk_err_t err = {{0}};
    cuzk_status st = CUZK_OK;
    double prove_ms = 0; /* part's fields are written under mu: /status reads them */
    cuzk_groth16_proof_t proof;
    if (!skip) {
        cuzk_job_stop_t stop = {e, j};
        /* a cancel or a hard stop ends the proof at its next phase */
        uint64_t t0 = cuzk_engine_now_ns();
        st = j->ops->prove(&proof, e, j, part->synth, cuzk_engine_job_stopped, &stop, &err);
        prove_ms = ms_since(t0);
        cuzk_engine_timeline(e, "PROVE_END", j->id, "partition %u %.0f ms", k, prove_ms);
    }
    if (part->synth) /* unlocked: the job cannot finish while this partition is in flight */
        j->ops->part_free(part->synth);
    pthread_mutex_lock(&e->mu);
    part->synth = NULL;
    part_discard(e, j, part); /* the reservation */
    part->prove_ms = prove_ms;
    if (!skip && st == CUZK_OK)
        part->proof = proof;
    e->prove_active--;
    j->in_flight--;
    j->prove_ms += prove_ms;
    if (skip || st != CUZK_OK) {
        part->state = PART_FAILED;
        if (st == CUZK_ERR_CANCELLED)   /* stopped by cuzk_engine_job_stopped: a cancel, not a failure */
            __atomic_store_n(&j->cancel, true, __ATOMIC_RELAXED);
        else if (st != CUZK_OK && !j->failed) {
            j->failed = true;
            snprintf(j->error, sizeof j->error, "partition %u: %s", k, err.msg);
        }
        cuzk_engine_job_settle(e, j);
        return;
    }
    part->state = PART_DONE;
    if (++j->n_proved < j->n_parts || j->cancel) {
        cuzk_engine_job_settle(e, j);
        return;
    }
    j->in_flight++; /* the verification keeps the job from settling meanwhile */
    pthread_mutex_unlock(&e->mu);
    uint64_t t0 = cuzk_engine_now_ns();
    st = assemble(j, &err);
    cuzk_engine_timeline(e, "VERIFY", j->id, "%s %.0f ms", st == CUZK_OK ? "valid" : "INVALID", ms_since(t0));
    pthread_mutex_lock(&e->mu);
    j->in_flight--;
    if (st != CUZK_OK) {
        free(j->proof);
        j->proof = NULL;
        j->proof_len = 0;
    }
    cuzk_engine_job_finish(e, j, st == CUZK_OK ? CUZK_JOB_COMPLETED : CUZK_JOB_FAILED, st == CUZK_OK ? "" : err.msg);
}

void *cuzk_engine_prove_worker(void *arg)
{
    worker_t *w = arg;
    cuzk_engine_t *e = w->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        uint32_t k;
        cuzk_priority floor = prover_floor(e);
        job_t *j = best_synthesized(e, floor, &k);
        if (j) {
            worker_busy(w, j, k);
            prove_one(e, j, k);
            worker_idle(w);
        } else if (e->stopping && e->synth_active == 0)
            break;
        else if (floor != CUZK_PRIORITY_UNSPECIFIED) {
            /* holding back: look again soon, in case a thread starts waiting for memory */
            struct timespec ts = cuzk_engine_timespec(cuzk_engine_now_ns() + 50000000u);
            pthread_cond_timedwait(&e->prove_cv, &e->mu, &ts);
        } else
            pthread_cond_wait(&e->prove_cv, &e->mu);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}
