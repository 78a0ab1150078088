/* Memory budget: a counter under a mutex (and the queued requests' share of it), a condition variable
 * for waiters, an evictor callback. */
#include "engine/budget.h"

#include <time.h>

#include "engine/clock.h"

void cuzk_budget_init(cuzk_budget_t *b, uint64_t total, uint64_t (*evict)(void *, uint64_t), void *evict_ctx)
{
    pthread_mutex_init(&b->mu, NULL);
    cuzk_engine_cond_init(&b->cv);
    b->total = total;
    b->used = b->peak = 0;
    b->queued = 0;
    b->queue_cap = total / 8;
    b->waiting = 0;
    b->evict = evict;
    b->evict_ctx = evict_ctx;
}

void cuzk_budget_destroy(cuzk_budget_t *b)
{
    pthread_cond_destroy(&b->cv);
    pthread_mutex_destroy(&b->mu);
}

static bool fits(const cuzk_budget_t *b, uint64_t bytes) { return b->used <= b->total && bytes <= b->total - b->used; }

static void take(cuzk_budget_t *b, uint64_t bytes)
{
    b->used += bytes;
    if (b->used > b->peak)
        b->peak = b->used;
}

/* Under b->mu: when bytes do not fit, asks the evictor once for the shortfall (the lock is dropped
 * meanwhile, since the evictor releases into the budget). */
static void evict_shortfall(cuzk_budget_t *b, uint64_t bytes)
{
    if (fits(b, bytes) || !b->evict)
        return;
    uint64_t need = bytes - (b->used < b->total ? b->total - b->used : 0);
    pthread_mutex_unlock(&b->mu);
    b->evict(b->evict_ctx, need);
    pthread_mutex_lock(&b->mu);
}

bool cuzk_budget_try_acquire(cuzk_budget_t *b, uint64_t bytes)
{
    pthread_mutex_lock(&b->mu);
    bool ok = fits(b, bytes);
    if (ok)
        take(b, bytes);
    pthread_mutex_unlock(&b->mu);
    return ok;
}

bool cuzk_budget_try_acquire_evicting(cuzk_budget_t *b, uint64_t bytes)
{
    if (bytes > cuzk_budget_work_limit(b))
        return false;
    pthread_mutex_lock(&b->mu);
    evict_shortfall(b, bytes);
    bool ok = fits(b, bytes);
    if (ok)
        take(b, bytes);
    pthread_mutex_unlock(&b->mu);
    return ok;
}

uint64_t cuzk_budget_work_limit(const cuzk_budget_t *b) { return b->total - b->queue_cap; }

cuzk_status cuzk_budget_acquire(cuzk_budget_t *b, uint64_t bytes, bool (*stop)(void *), void *stop_arg,
                                const char *what, cuzk_err_t *err)
{
    /* beyond the work limit it could wait forever: queued requests may hold the rest */
    if (bytes > cuzk_budget_work_limit(b))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY,
                            "%s needs %.2f GiB, more than the memory budget (%.2f GiB) less the eighth kept for "
                            "queued requests",
                            what, bytes / 1073741824.0, b->total / 1073741824.0);
    pthread_mutex_lock(&b->mu);
    bool waits = !fits(b, bytes); /* counted in b->waiting until it has the memory or gives up */
    b->waiting += waits;
    while (!fits(b, bytes)) {
        uint64_t need = bytes - (b->total - b->used);
        pthread_mutex_unlock(&b->mu);
        uint64_t freed = b->evict ? b->evict(b->evict_ctx, need) : 0;
        if (stop && stop(stop_arg)) {
            pthread_mutex_lock(&b->mu);
            b->waiting--;
            pthread_mutex_unlock(&b->mu);
            return cuzk_err_set(err, CUZK_ERR_CANCELLED, "cancelled while waiting for memory");
        }
        pthread_mutex_lock(&b->mu);
        if (freed == 0 && !fits(b, bytes)) {
            struct timespec ts = cuzk_engine_timespec(cuzk_engine_now_ns() + 100000000u); /* retry eviction */
            pthread_cond_timedwait(&b->cv, &b->mu, &ts);
        }
    }
    b->waiting -= waits;
    take(b, bytes);
    pthread_mutex_unlock(&b->mu);
    return CUZK_OK;
}

bool cuzk_budget_queue(cuzk_budget_t *b, uint64_t bytes)
{
    pthread_mutex_lock(&b->mu);
    bool ok = b->queued <= b->queue_cap && bytes <= b->queue_cap - b->queued;
    if (ok)
        evict_shortfall(b, bytes);
    ok = ok && b->queued <= b->queue_cap && bytes <= b->queue_cap - b->queued && fits(b, bytes);
    if (ok) {
        take(b, bytes);
        b->queued += bytes;
    }
    pthread_mutex_unlock(&b->mu);
    return ok;
}

void cuzk_budget_unqueue(cuzk_budget_t *b, uint64_t bytes)
{
    pthread_mutex_lock(&b->mu);
    b->queued = bytes > b->queued ? 0 : b->queued - bytes;
    pthread_mutex_unlock(&b->mu);
    cuzk_budget_release(b, bytes);
}

uint64_t cuzk_budget_queued(cuzk_budget_t *b)
{
    pthread_mutex_lock(&b->mu);
    uint64_t n = b->queued;
    pthread_mutex_unlock(&b->mu);
    return n;
}

void cuzk_budget_release(cuzk_budget_t *b, uint64_t bytes)
{
    pthread_mutex_lock(&b->mu);
    b->used = bytes > b->used ? 0 : b->used - bytes;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

void cuzk_budget_get(cuzk_budget_t *b, uint64_t *total, uint64_t *used, uint64_t *peak)
{
    pthread_mutex_lock(&b->mu);
    if (total)
        *total = b->total;
    if (used)
        *used = b->used;
    if (peak)
        *peak = b->peak;
    pthread_mutex_unlock(&b->mu);
}

uint32_t cuzk_budget_waiting(cuzk_budget_t *b)
{
    pthread_mutex_lock(&b->mu);
    uint32_t n = b->waiting;
    pthread_mutex_unlock(&b->mu);
    return n;
}
