/* The engine's memory budget: one number of bytes that parameters, synthesized partitions and proving
 * buffers are charged against, and the bytes of the requests waiting in the queue. A reservation that
 * does not fit first asks the evictor (idle parameters) to make room, then waits for releases; one
 * larger than the budget less the queue's share fails at once. Queued requests take at most an eighth
 * of the budget and never wait (a submission that does not fit is refused): a started job waiting for
 * memory cannot be kept waiting by requests that only that job's progress would let start. */
#ifndef CUZK_ENGINE_BUDGET_H
#define CUZK_ENGINE_BUDGET_H
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "cuzk/status.h"

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t total, used, peak;        /* used: everything charged, queued requests included */
    uint64_t queued, queue_cap;        /* the queued requests' part of used, and its limit (total / 8) */
    uint32_t waiting;                  /* threads waiting in cuzk_budget_acquire */
    /* Frees up to `need` bytes of evictable memory (called without the budget's lock, may release
     * into the budget itself); returns the bytes it freed. */
    uint64_t (*evict)(void *ctx, uint64_t need);
    void *evict_ctx;
} cuzk_budget_t;

void cuzk_budget_init(cuzk_budget_t *b, uint64_t total, uint64_t (*evict)(void *, uint64_t), void *evict_ctx);
void cuzk_budget_destroy(cuzk_budget_t *b);

/* Reserves bytes, waiting while they do not fit. stop (polled about every 100 ms, may be NULL) abandons
 * the wait: CUZK_ERR_CANCELLED. More than cuzk_budget_work_limit: CUZK_ERR_NO_MEMORY with the
 * figures. */
cuzk_status cuzk_budget_acquire(cuzk_budget_t *b, uint64_t bytes, bool (*stop)(void *), void *stop_arg,
                                const char *what, cuzk_err_t *err);
/* Reserves without waiting or evicting: false when it does not fit now. */
bool cuzk_budget_try_acquire(cuzk_budget_t *b, uint64_t bytes);
/* Reserves without waiting, after asking the evictor for the shortfall: false when it does not fit even
 * then (for memory that is worth having only when it is there, as an optional record). */
bool cuzk_budget_try_acquire_evicting(cuzk_budget_t *b, uint64_t bytes);
void cuzk_budget_release(cuzk_budget_t *b, uint64_t bytes);
/* The most that parameters and partitions may hold: the budget less the queue's share. */
uint64_t cuzk_budget_work_limit(const cuzk_budget_t *b);
/* Charges a queued request's bytes, evicting idle parameters if that makes them fit; never waits.
 * false (nothing charged) when they would pass the queue's share or the budget. */
bool cuzk_budget_queue(cuzk_budget_t *b, uint64_t bytes);
/* Releases what cuzk_budget_queue charged (the request started, or was dropped). */
void cuzk_budget_unqueue(cuzk_budget_t *b, uint64_t bytes);
void cuzk_budget_get(cuzk_budget_t *b, uint64_t *total, uint64_t *used, uint64_t *peak);
/* The bytes of queued requests charged now. */
uint64_t cuzk_budget_queued(cuzk_budget_t *b);
/* Threads waiting for memory now (a prover holding back for a CRITICAL job must not while somebody
 * waits for what proving would release). */
uint32_t cuzk_budget_waiting(cuzk_budget_t *b);
#endif
