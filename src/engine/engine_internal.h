/* The engine's shared state. One mutex (mu) guards the job list and every job's scheduling fields;
 * the heavy work (parsing, loading, synthesis, proving, verification) runs outside it. A job's life:
 * QUEUED → ACTIVATING (C1 parsed and checked, parameters acquired) → RUNNING (partitions flow
 * synthesis → proving) → DONE (result kept until delivered to an awaiter, or retention ends). */
#ifndef CUZK_ENGINE_INTERNAL_H
#define CUZK_ENGINE_INTERNAL_H
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "cuzk/engine.h"
#include "engine/budget.h"
#include "cuzk/porep.h"
#include "engine/srs_cache.h"

typedef enum { JOB_QUEUED, JOB_ACTIVATING, JOB_RUNNING, JOB_DONE } job_phase_t;
typedef enum { PART_PENDING, PART_SYNTHESIZING, PART_SYNTH_DONE, PART_PROVING, PART_DONE, PART_FAILED } part_state_t;

typedef struct {
    part_state_t state;
    cuzk_porep_partition_t *synth;  /* while SYNTH_DONE / PROVING */
    uint64_t reserved;              /* budget held for it */
    double synth_ms, prove_ms;
    cuzk_groth16_proof_t proof;
} job_part_t;

typedef struct job {
    char id[CUZK_JOB_ID_MAX];
    cuzk_proof_kind kind;
    cuzk_priority priority;
    uint64_t seq;                   /* submission order: FIFO within a priority */
    uint8_t *input;                 /* the vanilla proof bytes, until activation */
    size_t input_len;
    uint64_t sector_size, sector_number, miner_id;
    bool has_sector_and_miner;
    job_phase_t phase;
    bool cancel, failed;
    uint64_t t_submit, t_start, t_done; /* ns */
    /* while active */
    cuzk_porep_c1_t *c1;
    cuzk_srs_entry_t *srs;
    uint32_t n_parts, next_synth, n_proved, in_flight;
    job_part_t *parts;
    /* the result */
    cuzk_job_status status;
    char error[512];
    uint8_t *proof;
    size_t proof_len;
    uint64_t srs_load_ms;
    double synth_ms, prove_ms;
    uint32_t waiters;
    struct job *next;
} job_t;

/* One worker thread and what it is doing (for /status). */
typedef struct {
    struct cuzk_engine *e;
    int index;
    bool prover;
    bool busy;
    char job[CUZK_JOB_ID_MAX];
    uint32_t partition;
    uint64_t busy_since_ns, busy_total_ns;
} worker_t;

#define HIST_BUCKETS 12
typedef struct {
    uint64_t count[HIST_BUCKETS + 1]; /* the last one is +Inf */
    double sum;
    uint64_t n;
} hist_t;
extern const double cuzk_hist_bounds_s[HIST_BUCKETS];

struct cuzk_engine {
    cuzk_engine_config_t cfg;
    char *param_cache;
    pthread_mutex_t mu;
    pthread_cond_t work_cv;    /* synthesis workers: a job queued, a partition slot freed */
    pthread_cond_t prove_cv;   /* prover workers: a partition synthesized */
    pthread_cond_t done_cv;    /* awaiters: a job finished */
    job_t *jobs;               /* every job the engine knows, newest first */
    uint64_t next_seq;
    bool stopping;
    bool draining;             /* cuzk_engine_drain: no new jobs */
    bool paused;               /* cuzk_engine_pause: queued jobs are not started */
    uint32_t synth_waiting;    /* synthesized partitions waiting for a prover */
    uint32_t synth_active, prove_active;
    cuzk_budget_t budget;
    cuzk_srs_cache_t srs;
    pthread_t *threads;
    worker_t *workers;
    int n_threads;
    uint64_t t_start;
    /* counters */
    uint64_t completed[CUZK_KIND_COUNT], failed[CUZK_KIND_COUNT];
    hist_t queue_wait[CUZK_KIND_COUNT], prove_time[CUZK_KIND_COUNT], total_time[CUZK_KIND_COUNT];
    pthread_mutex_t log_mu;
};

/* pipeline.c: thread functions, each given its worker_t */
void *cuzk_engine_synth_worker(void *worker);
void *cuzk_engine_prove_worker(void *worker);
/* Finishes a job (under mu): status, message, counters, waiters woken; frees its working state. */
void cuzk_engine_job_finish(cuzk_engine_t *e, job_t *j, cuzk_job_status st, const char *msg);
/* Under mu: a job that failed or was cancelled finishes once none of its partitions is in flight. */
void cuzk_engine_job_settle(cuzk_engine_t *e, job_t *j);

/* timeline.c: `TIMELINE,<ms since start>,<EVENT>,<job>,<detail>` on the log. */
void cuzk_engine_timeline(cuzk_engine_t *e, const char *event, const char *job, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void cuzk_engine_log(cuzk_engine_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cuzk_hist_add(hist_t *h, double seconds);
#endif
