/* The proving engine behind cuzk-daemon: proof jobs in (PoRep C2, Winning PoSt, one Window PoSt
 * partition, a SnapDeals update), verified Filecoin proofs out. Jobs wait in a priority queue (CRITICAL > HIGH > NORMAL >
 * LOW, FIFO within a level); their partitions flow from synthesis workers to prover workers through a
 * bounded queue, by their job's priority too: a running job's next partitions wait while a more urgent
 * job has work, and a CRITICAL job waits for at most the partition each worker is busy with when it
 * arrives. One memory budget covers the parameters (loaded on demand, kept while in use, evicted when
 * idle and memory is needed), the PoRep circuits' records (the same: see cuzk_engine_synth_mode) and every
 * synthesized partition. Every proof is verified before it is returned.
 *
 * Ownership: cuzk_engine_new's engine is the caller's (cuzk_engine_free). A request's bytes are copied
 * by cuzk_engine_submit and cuzk_engine_prove; a COMPLETED result's proof is malloc'd for the caller
 * (cuzk_job_result_free);
 * cuzk_engine_status_json and cuzk_engine_metrics_text return malloc'd strings the caller frees.
 * cuzk_engine_free accepts NULL.
 * Threading: every function may be called from any thread at any time, except cuzk_engine_free, which
 * must be the last call on the engine (after every other thread's calls have returned).
 * Errors: cuzk_engine_new CUZK_ERR_INVALID_ARG or CUZK_ERR_NO_MEMORY; cuzk_engine_submit and
 * cuzk_engine_prove as stated there; cuzk_engine_preload CUZK_ERR_INVALID_ARG for an unknown circuit id,
 * otherwise the statuses of loading its files (cuzk/porep.h, cuzk/post.h, cuzk/snap.h, cuzk/params.h: CUZK_ERR_IO,
 * _FORMAT, _MISMATCH, the point decoders'), CUZK_ERR_NO_MEMORY, CUZK_ERR_CANCELLED when the engine stops
 * meanwhile; cuzk_engine_evict CUZK_ERR_INVALID_ARG for an unknown circuit id, CUZK_ERR_MISMATCH
 * while the parameters are in use. A job's own failure is its result (FAILED, with the reason), not
 * a status. */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cuzk.v1 enums, with their wire values. */
typedef enum {
    CUZK_KIND_UNSPECIFIED = 0,
    CUZK_KIND_POREP_SEAL_COMMIT = 1,
    CUZK_KIND_SNAP_DEALS_UPDATE = 2,
    CUZK_KIND_WINDOW_POST_PARTITION = 3,
    CUZK_KIND_WINNING_POST = 4,
} cuzk_proof_kind;
#define CUZK_KIND_COUNT 5

typedef enum {
    CUZK_PRIORITY_UNSPECIFIED = 0, /* the kind's default: WinningPoSt CRITICAL, WindowPoSt HIGH, else NORMAL */
    CUZK_PRIORITY_LOW = 1,
    CUZK_PRIORITY_NORMAL = 2,
    CUZK_PRIORITY_HIGH = 3,
    CUZK_PRIORITY_CRITICAL = 4,
} cuzk_priority;

typedef enum {
    CUZK_JOB_UNKNOWN = 0, /* no such job (never submitted, or its result was already delivered) */
    CUZK_JOB_COMPLETED = 1,
    CUZK_JOB_FAILED = 2,
    CUZK_JOB_CANCELLED = 3,
    CUZK_JOB_TIMEOUT = 4, /* the wait ended first; the job goes on */
} cuzk_job_status;

/* How a PoRep job's partitions are synthesized (cuzk/porep.h, "Records"): directly, or witness-only
 * against the circuit's recorded matrices, which are faster per partition but stay in memory (4.68 GB at
 * 32GiB) and cost about one direct synthesis to make. */
typedef enum {
    /* record when the job has 2 partitions or more (or the circuit's record is already resident) and the
     * record fits the memory budget next to the job's parameters and its partitions in flight (one per
     * prover worker plus pipeline_depth, at most its partition count), and can be charged at once; else
     * direct. The default. */
    CUZK_ENGINE_SYNTH_AUTO = 0,
    CUZK_ENGINE_SYNTH_DIRECT = 1, /* always direct: nothing kept between partitions */
    CUZK_ENGINE_SYNTH_RECORD = 2, /* always record (waiting for the memory, as for parameters) */
} cuzk_engine_synth_mode;

/* "auto", "direct", "record"; "unknown" for another value. */
CUZK_API const char *cuzk_engine_synth_mode_name(cuzk_engine_synth_mode m);

typedef struct {
    const char *param_cache;      /* directory of the .params / .vk files (Filecoin's v28 names) */
    uint64_t total_budget;        /* bytes: parameters + synthesized partitions + working buffers */
    uint64_t eviction_min_idle_ms;/* parameters idle this long may be evicted under memory pressure */
    int synthesis_workers;        /* partitions synthesized at once (>= 1) */
    int prover_workers;           /* partitions proved at once (>= 1) */
    int prover_threads;           /* threads per proof; 0 = every online CPU */
    int synthesis_threads;        /* threads per PoSt or SnapDeals partition synthesis (PoRep:
                                   * one, and the record's evaluation on these); 0 = every online CPU */
    int pipeline_depth;           /* synthesized partitions that may wait for a prover (>= 1) */
    uint64_t result_retention_ms; /* results nobody awaited are dropped after this long; 0 = 1 hour */
    uint32_t max_queued;          /* jobs waiting to start; a submission beyond them is refused; 0 = 256 */
    uint32_t max_kept_results;    /* finished results nobody collected yet; beyond, the oldest go; 0 = 1000 */
    FILE *log;                    /* TIMELINE lines and messages; NULL = quiet */
    /* PoRep partitions: direct, record, or the engine's choice per job (the default). Records are cached
     * per circuit, charged to total_budget and evicted when idle (eviction_min_idle_ms) and memory is
     * needed, as parameters are; each job's choice is in its TIMELINE (SYNTH_MODE), its /status pipeline
     * and its result. */
    cuzk_engine_synth_mode synthesis_mode;
} cuzk_engine_config_t;

/* Defaults for a machine: budget = 3/4 of physical memory, one synthesis and one prover worker,
 * pipeline depth 1, 256 queued jobs at most, 1000 kept results, parameters under
 * /var/tmp/filecoin-proof-parameters, log to stderr.
 * The budget covers the queue too: the bytes of the requests waiting to start are charged to it, within
 * an eighth of it (the rest stays for parameters and partitions, so that waiting requests never keep a
 * started job from the memory it needs). */
CUZK_API void cuzk_engine_config_defaults(cuzk_engine_config_t *cfg);

typedef struct cuzk_engine cuzk_engine_t;

/* Starts the workers. CUZK_ERR_INVALID_ARG for a nonsensical configuration. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_engine_new(cuzk_engine_t **out, const cuzk_engine_config_t *cfg, cuzk_err_t *err);
/* Stops accepting work, cancels queued jobs, lets running partitions finish their current step and
 * cancels the rest, wakes every waiter (CANCELLED), joins the workers and frees everything. */
CUZK_API void cuzk_engine_free(cuzk_engine_t *e);
/* Like the first half of cuzk_engine_free: no new jobs, queued and running ones cancelled; waiters get
 * their answer. Safe to call more than once. */
CUZK_API void cuzk_engine_shutdown(cuzk_engine_t *e);

/* The first step of a graceful stop: new submissions are refused and queued jobs cancelled, while the
 * jobs already started go on. cuzk_engine_busy tells when they are done. */
CUZK_API void cuzk_engine_drain(cuzk_engine_t *e);
/* Jobs being prepared, synthesized or proved. */
CUZK_API uint32_t cuzk_engine_busy(cuzk_engine_t *e);

/* While paused, queued jobs stay queued (work already started goes on); jobs submitted meanwhile are
 * then started in priority order. For maintenance windows and tests. */
CUZK_API void cuzk_engine_pause(cuzk_engine_t *e, bool paused);

/* One byte string of a request (one sector's or partition's vanilla proof). */
typedef struct {
    const uint8_t *data;
    size_t len;
} cuzk_job_bytes_t;

/* A proof request (cuzk.v1 SubmitProofRequest). Bytes are copied; nothing is kept after the call.
 * PoRep (POREP_SEAL_COMMIT): vanilla_proof is the C1 output; sector_number and miner_id name the sector.
 * PoSt (WINNING_POST, WINDOW_POST_PARTITION): one partition, proved from vanilla_proofs (one bincode
 * FallbackPoStSectorProof per sector, in order: cuzk/post.h), randomness, miner_id and, for Window PoSt,
 * partition_index; registered_proof is the RegisteredPoStProof (Winning 0–4, Window 5–14).
 * SnapDeals (SNAP_DEALS_UPDATE): every partition of the update proof, proved from vanilla_proofs (one
 * bincode PartitionProof per partition, in order: cuzk/snap.h) and the three commitments; registered_proof
 * is the RegisteredUpdateProof (0–4: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB). The proof returned is every
 * partition's 192 bytes in order. */
typedef struct {
    const char *request_id;        /* idempotency key and job id; NULL/"" = a fresh UUID */
    cuzk_proof_kind kind;
    cuzk_priority priority;
    uint64_t sector_size;          /* 0 = take it from the vanilla proof (PoRep) or the registered proof */
    uint64_t registered_proof;     /* required: the kind's registered proof (PoRep: a RegisteredSealProof) */
    const uint8_t *vanilla_proof;  /* PoRep: the C1 JSON, bare or in Curio's wrapper; NULL for PoSt */
    size_t vanilla_proof_len;
    uint64_t sector_number, miner_id;
    bool has_sector_and_miner;     /* PoRep: check the C1's replica_id against them (sector_number is held
                                      to a wrapper's SectorNum in any case) */
    const cuzk_job_bytes_t *vanilla_proofs; /* PoSt: n_vanilla_proofs sector proofs; NULL for PoRep */
    size_t n_vanilla_proofs;
    const uint8_t *randomness;     /* PoSt: randomness_len bytes, which must be 32 */
    size_t randomness_len;
    uint32_t partition_index;      /* Window PoSt: the partition of the deadline; Winning: 0 */
    /* SnapDeals: the sector key's comm_r, the new data's comm_d and the updated sector's comm_r, raw 32-byte
     * little-endian field elements (each length must be 32); NULL otherwise */
    const uint8_t *comm_r_old, *comm_d_new, *comm_r_new;
    size_t comm_r_old_len, comm_d_new_len, comm_r_new_len;
} cuzk_job_request_t;

#define CUZK_JOB_ID_MAX 128

/* Queues a job. The request_id names the job: everyone who submits or awaits that id shares one job
 * and its result. An id whose job is queued, running, or finished COMPLETED and not yet delivered returns
 * that job again (nothing is copied, and the rest of the request is not looked at); an id whose job ended
 * CANCELLED or FAILED starts a new job (waiters of the old one still get its result). A job submitted here
 * is cancelled only by cuzk_engine_cancel (or a shutdown), never because a waiter went away.
 * Bad requests CUZK_ERR_INVALID_ARG naming the
 * field. For PoRep and PoSt what is checked here is what needs no parsing: the kind and priority; PoRep: a
 * C1 is there and no vanilla_proofs or randomness, registered_proof is a seal proof (and, when it is not 0
 * and sector_size is given, of that size); PoSt: registered_proof is a PoSt proof of the job's kind
 * (a seal proof number, a Window number for Winning: refused), sector_size (when not 0) is that proof's,
 * randomness is 32 bytes, the number of vanilla proofs fits the proof (Winning 1, Window 1..sectors per
 * partition) and none is empty, Winning's partition_index is 0. Everything else (the C1 or bincode itself,
 * Merkle paths, challenges, the randomness as a field element, the partition index against the sectors) is
 * checked when the job starts and fails the job (FAILED with the reason). A SnapDeals request is checked
 * whole here, on the calling thread (every CPU; a 32GiB sector's 16 partitions take about a second on
 * two): registered_proof an update proof, sector_size (when not 0) its size, no C1 or randomness, the three
 * commitments 32 bytes, one vanilla proof per partition, each decoded and checked as cuzk_snap_check does
 * (truncated bincode, a path that does not hash, a proof for other commitments: CUZK_ERR_INVALID_ARG naming
 * the partition, challenge and path). A new job that does not fit is refused with CUZK_ERR_NO_MEMORY
 * and the reason: max_queued jobs already wait to start, or its bytes do not fit in the queue's share of
 * the memory budget (after idle parameters are evicted); both pass as queued jobs start, so a client
 * may retry later. Once cuzk_engine_drain or cuzk_engine_shutdown was called CUZK_ERR_SHUTTING_DOWN.
 * queue_position = jobs ahead of it in the queue. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_engine_submit(cuzk_engine_t *e, const cuzk_job_request_t *req, char job_id[CUZK_JOB_ID_MAX],
                               uint32_t *queue_position, cuzk_err_t *err);

typedef struct {
    cuzk_job_status status;
    uint8_t *proof;                /* malloc'd, caller frees (COMPLETED only) */
    size_t proof_len;
    char error[512];               /* FAILED / CANCELLED: why */
    uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, prove_ms, total_ms; /* sums over partitions */
    /* The job's own result (COMPLETED, FAILED or CANCELLED), handed over: the engine forgets it once
     * every waiter has it. false for UNKNOWN, TIMEOUT and an abandoned wait. */
    bool handed_over;
    /* How its partitions were synthesized: DIRECT or RECORD (PoSt and SnapDeals: DIRECT); AUTO when the
     * job ended before the choice was made. */
    cuzk_engine_synth_mode synthesis_mode;
} cuzk_job_result_t;

/* Waits for the job to finish (timeout_ms = 0: no limit; a timeout too long for the clock is no limit,
 * never a wrapped, past deadline). A finished job's result is handed over to every waiter and then
 * forgotten (a later wait: UNKNOWN), unless a delivery fails (cuzk_engine_delivery_failed). TIMEOUT
 * leaves the job running and awaitable. cancel_check, when not NULL, is polled about every 100 ms:
 * returning true abandons the wait (status CANCELLED, handed_over false): the job goes on, unless it
 * was submitted by cuzk_engine_prove only and this was its last waiter. */
CUZK_API void cuzk_engine_await(cuzk_engine_t *e, const char *job_id, uint64_t timeout_ms, cuzk_job_result_t *out,
                                bool (*cancel_check)(void *), void *cancel_arg);

/* Submits and waits in one call, for a caller that wants the result itself (cuzk.v1 Prove): the
 * submission is cuzk_engine_submit's (same checks, statuses and job identity) and the wait
 * cuzk_engine_await's with no timeout, the caller counted as a waiter from the moment the job is found
 * or queued. request_done (may be NULL) is called with arg exactly once, as soon as req is no longer
 * needed (copied, found, or refused), so that the caller can free the request's bytes before the wait;
 * it may run under the engine's lock, so it must not call the engine.
 * A job submitted this way only is cancelled when its last waiter goes away (cancel_check true for
 * every one of them): nobody is left to want it. Submitted also by cuzk_engine_submit (before or
 * after), it is kept. On CUZK_OK *out holds the result as cuzk_engine_await gives it. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3, 4)
cuzk_status cuzk_engine_prove(cuzk_engine_t *e, const cuzk_job_request_t *req, char job_id[CUZK_JOB_ID_MAX],
                              cuzk_job_result_t *out, bool (*cancel_check)(void *), void (*request_done)(void *),
                              void *arg, cuzk_err_t *err);

/* A result handed over (res->handed_over) did not reach its client: the reply could not be sent. The
 * result stays awaitable under job_id, as if it had not been handed over (kept like any uncollected
 * result: max_kept_results, result_retention_ms). Nothing happens when res was not handed over, or when
 * a newer job now runs under job_id. res stays the caller's (the engine copies what it keeps). */
CUZK_API void cuzk_engine_delivery_failed(cuzk_engine_t *e, const char *job_id, const cuzk_job_result_t *res);
CUZK_API void cuzk_job_result_free(cuzk_job_result_t *r);

/* Cancels a queued or running job. *found false for an unknown or finished job; *was_running true when
 * it had started (a partition being proved stops at its prover's next phase: before H or between
 * MSMs; one being synthesized at its next challenge). */
CUZK_API void cuzk_engine_cancel(cuzk_engine_t *e, const char *job_id, bool *found, bool *was_running);

/* Parameter residency by circuit id: "porep-2k", "porep-8m", "porep-512m", "porep-32g", "porep-64g";
 * "winning-2k" ... "winning-64g" (Winning PoSt); "wpost-2k" ... "wpost-64g" (Window PoSt: V1 and V1_1 share
 * the circuit and its files); "snap-2k" ... "snap-64g" (SnapDeals). Preload loads (and charges the budget), evict drops an entry nobody uses. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3, 4)
cuzk_status cuzk_engine_preload(cuzk_engine_t *e, const char *circuit_id, bool *already_loaded,
                                uint64_t *load_ms, cuzk_err_t *err);
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3, 4)
cuzk_status cuzk_engine_evict(cuzk_engine_t *e, const char *circuit_id, bool *was_loaded, uint64_t *freed_bytes,
                              cuzk_err_t *err);

/* A snapshot for GetStatus. */
typedef struct {
    char circuit_id[32];
    uint64_t size_bytes;
    uint32_t ref_count;
    uint64_t idle_ms;
} cuzk_engine_srs_info_t;

typedef struct {
    uint64_t uptime_s;
    uint64_t completed, failed;
    uint64_t completed_by_kind[CUZK_KIND_COUNT], failed_by_kind[CUZK_KIND_COUNT];
    uint32_t pending_by_kind[CUZK_KIND_COUNT], running_by_kind[CUZK_KIND_COUNT];
    uint64_t budget_total, budget_used;
    uint64_t budget_queued;        /* the queued requests' bytes, part of budget_used */
    uint32_t results_kept;         /* finished results nobody has collected yet */
    size_t n_srs;
    cuzk_engine_srs_info_t srs[16];
    size_t n_records;                  /* resident PoRep records (circuit_id: the circuit they were built for) */
    cuzk_engine_srs_info_t records[8];
} cuzk_engine_status_t;
CUZK_API void cuzk_engine_status(cuzk_engine_t *e, cuzk_engine_status_t *out);

/* The HTTP /status document (JSON, malloc'd) and the Prometheus text (malloc'd). */
CUZK_API char *cuzk_engine_status_json(cuzk_engine_t *e);
CUZK_API char *cuzk_engine_metrics_text(cuzk_engine_t *e);

/* "porep_c2", "snap_update", "window_post", "winning_post" (metric labels), "unspecified". */
CUZK_API const char *cuzk_proof_kind_label(cuzk_proof_kind k);

#ifdef __cplusplus
}
#endif
#endif
