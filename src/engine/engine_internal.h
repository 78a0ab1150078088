/* The engine's shared state. One mutex (mu) guards the job list and every job's scheduling fields;
 * the heavy work (parsing, loading, synthesis, proving, verification) runs outside it. A job's life:
 * QUEUED → ACTIVATING (its input parsed and checked, parameters acquired) → RUNNING (partitions flow
 * synthesis → proving) → DONE (result kept until handed over to its waiters, or dropped when retention
 * ends or newer results push it out). A job is found by its id (the request_id); one that ended
 * CANCELLED or FAILED is "replaced" when its id is submitted again: no longer found, freed when its
 * waiters have left.
 * What differs between proof kinds (the input, its partitions, how they are synthesized, proved and
 * verified) is a job_kind_t: job_porep.c (a C1, one partition per PoRep partition), job_post.c
 * (Winning / Window PoSt: one partition from the request's vanilla proofs) and job_snap.c (SnapDeals: one
 * partition per vanilla partition proof). */
#ifndef CUZK_ENGINE_INTERNAL_H
#define CUZK_ENGINE_INTERNAL_H
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "cuzk/engine.h"
#include "engine/budget.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/snap.h"
#include "engine/record_cache.h"
#include "engine/srs_cache.h"

typedef enum { JOB_QUEUED, JOB_ACTIVATING, JOB_RUNNING, JOB_DONE } job_phase_t;
typedef enum { PART_PENDING, PART_SYNTHESIZING, PART_SYNTH_DONE, PART_PROVING, PART_DONE, PART_FAILED } part_state_t;

typedef struct {
    part_state_t state;
    void *synth;                    /* the kind's synthesized partition, while SYNTH_DONE / PROVING */
    uint64_t reserved;              /* budget held for it */
    double synth_ms, prove_ms;
    cuzk_groth16_proof_t proof;
} job_part_t;

struct job_kind;

typedef struct job {
    char id[CUZK_JOB_ID_MAX];
    cuzk_proof_kind kind;
    const struct job_kind *ops;
    cuzk_priority priority;
    uint64_t seq;                   /* submission order: FIFO within a priority */
    uint8_t *input;                 /* the vanilla proof bytes, until activation (PoSt: back to back) */
    size_t input_len;
    uint64_t input_charged;         /* bytes of it charged to the budget's queue share */
    size_t *input_lens;             /* PoSt, SnapDeals: each vanilla proof's length (n_inputs of them) */
    size_t n_inputs;
    uint64_t sector_size, sector_number, miner_id; /* PoRep */
    bool has_sector_and_miner;
    uint64_t seal_proof_id;         /* PoRep: the request's registered_proof (0, the proto default: not given) */
    job_phase_t phase;
    bool cancel, failed;
    uint64_t t_submit, t_start, t_done; /* ns */
    /* while active */
    cuzk_porep_c1_t *c1;            /* PoRep */
    cuzk_post_vanilla_t **vanilla;  /* PoSt: n_inputs parsed proofs */
    /* PoSt: the request; its proof id, randomness, miner and partition from submission, its vanilla
     * proofs (over vanilla) while active */
    cuzk_post_request_t post;
    /* SnapDeals: the request; its proof id and commitments from submission, its partition proofs (over
     * snap_vanilla) while active */
    cuzk_snap_vanilla_t **snap_vanilla;
    cuzk_snap_request_t snap;
    cuzk_srs_entry_t *srs;
    cuzk_engine_synth_mode synth_mode; /* PoRep: DIRECT or RECORD once chosen (prepare); others DIRECT */
    cuzk_record_entry_t *record;    /* PoRep in RECORD: the circuit's record, referenced until the job ends */
    uint32_t n_parts, next_synth, n_proved, in_flight;
    job_part_t *parts;
    /* the result */
    cuzk_job_status status;
    char error[512];
    uint8_t *proof;
    size_t proof_len;
    uint64_t srs_load_ms, queue_wait_ms, total_ms;
    double synth_ms, prove_ms;
    uint32_t waiters;
    bool async_submitted;           /* submitted to be awaited later: a waiter's departure never cancels it */
    bool replaced;                  /* ended CANCELLED or FAILED and its id was submitted again */
    bool keep;                      /* a delivery of its result failed: kept when its waiters have left */
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
    cuzk_record_cache_t records;
    pthread_t *threads;
    worker_t *workers;
    int n_threads;
    uint64_t t_start;
    /* counters */
    uint64_t completed[CUZK_KIND_COUNT], failed[CUZK_KIND_COUNT];
    hist_t queue_wait[CUZK_KIND_COUNT], prove_time[CUZK_KIND_COUNT], total_time[CUZK_KIND_COUNT];
    pthread_mutex_t log_mu;
};

/* A proof kind's part of a job. The pipeline calls these without mu. */
typedef struct job_kind {
    /* Submission (under no lock): the checks made before a job is queued (CUZK_ERR_INVALID_ARG naming the
     * field; PoRep and PoSt check only what needs no parsing, SnapDeals its whole input). */
    cuzk_status (*check_request)(const cuzk_job_request_t *r, cuzk_err_t *err);
    /* Activation: parses and checks j's input, acquires its parameters (j->srs, j->srs_load_ms) and
     * says how many partitions it has. */
    cuzk_status (*prepare)(cuzk_engine_t *e, job_t *j, uint32_t *n_parts, cuzk_err_t *err);
    cuzk_status (*synthesize)(void **part, cuzk_engine_t *e, job_t *j, uint32_t k, bool (*stop)(void *),
                              void *stop_arg, cuzk_err_t *err);
    cuzk_status (*prove)(cuzk_groth16_proof_t *proof, cuzk_engine_t *e, job_t *j, const void *part,
                         bool (*stop)(void *), void *stop_arg, cuzk_err_t *err);
    void (*part_free)(void *part);
    /* The assembled proofs (j->n_parts) against the job's public inputs. */
    cuzk_status (*verify)(bool *valid, job_t *j, const cuzk_groth16_proof_t *proofs, cuzk_err_t *err);
    /* Frees what prepare parsed (not j->srs). */
    void (*release)(job_t *j);
    /* Optional: the bytes one of j's partitions holds at its peak, from synthesis to the end of its proof
     * (charged before it is synthesized); NULL: the copying prover's figure over j->srs->pk. */
    uint64_t (*partition_bytes)(const job_t *j);
} job_kind_t;

extern const job_kind_t cuzk_job_porep, cuzk_job_post, cuzk_job_snap;

/* job_porep.c: the peak bytes of one partition proved by the consuming prover (cuzk_porep_partition_prove_consume)
 * for a domain of m rows and `vars` variables (ONE, inputs, aux), streaming the key in pieces of piece_bytes
 * at most (0: the key is decoded and charged apart). */
uint64_t cuzk_porep_partition_peak_bytes(uint64_t m, uint64_t vars, uint64_t piece_bytes);
/* job_porep.c: at submission, whether one partition of the request's registered proof fits the budget at all
 * (its circuit counted once per proof and remembered): CUZK_ERR_NO_MEMORY with the figures when not. */
cuzk_status cuzk_porep_check_budget(cuzk_engine_t *e, const cuzk_job_request_t *r, cuzk_err_t *err);
/* job_porep.c: a PoRep circuit's figures from the count backend, extrapolated from one and two challenges
 * (every challenge adds the same constraints, variables and non-zeros): the proof's domain (m rows), its
 * variables, and the circuit's shape (what cuzk_porep_record_estimate takes). Remembered per configuration. */
typedef struct {
    uint64_t m, vars;
    cuzk_circuit_info_t info;
} cuzk_porep_shape_t;
cuzk_status cuzk_porep_shape(cuzk_porep_shape_t *out, const cuzk_porep_config_t *cfg, cuzk_err_t *err);

/* job_porep.c: the choice of a PoRep job's synthesis path from its figures; *why (a sentence for the
 * TIMELINE) says what decided it. AUTO: RECORD when partitions >= 2 or the record is resident, and
 * params + record + min(partitions, slots) · partition fit work_limit; DIRECT otherwise. DIRECT and RECORD
 * configured are kept. */
typedef struct {
    cuzk_engine_synth_mode configured;
    uint32_t partitions;
    bool resident;           /* the circuit's record is cached (record_bytes is then its real size) */
    uint64_t record_bytes;   /* its size, or the estimate */
    uint64_t params_bytes;   /* the job's parameters as charged */
    uint64_t partition_bytes;
    uint32_t slots;          /* partitions a job may hold at once: prover workers + pipeline depth */
    uint64_t work_limit;     /* cuzk_budget_work_limit */
} cuzk_porep_synth_figures_t;
cuzk_engine_synth_mode cuzk_porep_synth_choose(const cuzk_porep_synth_figures_t *f, char *why, size_t why_len);

/* engine.c: the budget's evictor: idle records first (rebuilt in about one synthesis), then idle
 * parameters (reloaded from disk). */
uint64_t cuzk_engine_evict_idle(void *engine, uint64_t need);

/* The kind's operations; NULL for a kind the engine does not know. */
const job_kind_t *cuzk_job_kind(cuzk_proof_kind k);
/* pipeline.c: acquires the parameters of circuit for j and logs SRS_READY (prepare's last step). */
cuzk_status cuzk_engine_acquire_srs(cuzk_engine_t *e, job_t *j, const cuzk_srs_circuit_t *circuit, cuzk_err_t *err);

/* pipeline.c: a job's stop request for the library's should_stop callbacks: the engine stopping or the
 * job cancelled (read without the lock). */
typedef struct {
    cuzk_engine_t *e;
    job_t *j;
} cuzk_job_stop_t;
bool cuzk_engine_job_stopped(void *job_stop);

/* pipeline.c: thread functions, each given its worker_t */
void *cuzk_engine_synth_worker(void *worker);
void *cuzk_engine_prove_worker(void *worker);
/* Finishes a job (under mu): status, message, counters, waiters woken; frees its working state. */
void cuzk_engine_job_finish(cuzk_engine_t *e, job_t *j, cuzk_job_status st, const char *msg);
/* Under mu: frees the job's request bytes and returns their charge to the budget. */
void cuzk_engine_job_drop_input(cuzk_engine_t *e, job_t *j);
/* Under mu: a job that failed or was cancelled finishes once none of its partitions is in flight. */
void cuzk_engine_job_settle(cuzk_engine_t *e, job_t *j);

/* timeline.c: `TIMELINE,<ms since start>,<EVENT>,<job>,<detail>` on the log. */
void cuzk_engine_timeline(cuzk_engine_t *e, const char *event, const char *job, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void cuzk_engine_log(cuzk_engine_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cuzk_hist_add(hist_t *h, double seconds);
#endif
