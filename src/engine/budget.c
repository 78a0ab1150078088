/* Memory budget: a counter under a mutex, a condition variable for waiters, an evictor callback. */
#include "engine/budget.h"

#include <time.h>

#include "engine/clock.h"

void cuzk_budget_init(cuzk_budget_t *b, uint64_t total, uint64_t (*evict)(void *, uint64_t), void *evict_ctx)
{
    pthread_mutex_init(&b->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&b->cv, &ca);
    pthread_condattr_destroy(&ca);
    b->total = total;
    b->used = b->peak = 0;
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

bool cuzk_budget_try_acquire(cuzk_budget_t *b, uint64_t bytes)
{
    pthread_mutex_lock(&b->mu);
    bool ok = fits(b, bytes);
    if (ok)
        take(b, bytes);
    pthread_mutex_unlock(&b->mu);
    return ok;
}

cuzk_status cuzk_budget_acquire(cuzk_budget_t *b, uint64_t bytes, bool (*stop)(void *), void *stop_arg,
                                const char *what, cuzk_err_t *err)
{
    if (bytes > b->total)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s needs %.2f GiB, more than the whole memory budget (%.2f GiB)",
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
