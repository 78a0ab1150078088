/* Budgeted cache: a short list of entries under one mutex. Loading happens outside the lock with the entry
 * marked `loading`, so that other users of the same key wait for it instead of loading twice; the budget is
 * charged and released outside the lock too (the budget's evictor takes this lock). */
#include "engine/budget_cache.h"

#include <string.h>

#include "engine/clock.h"

void cuzk_budget_cache_init(cuzk_budget_cache_t *c, const cuzk_budget_cache_ops_t *ops, cuzk_budget_t *budget,
                            uint64_t min_idle_ms)
{
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    cuzk_engine_cond_init(&c->cv);
    c->ops = ops;
    c->budget = budget;
    c->min_idle_ns = cuzk_ms_to_ns(min_idle_ms);
}

/* Returns a resident entry's charge and frees it. */
static void drop(cuzk_budget_cache_t *c, cuzk_budget_cache_entry_t *e)
{
    cuzk_budget_release(c->budget, c->ops->bytes(e));
    c->ops->destroy(e);
}

void cuzk_budget_cache_destroy(cuzk_budget_cache_t *c)
{
    while (c->entries) {
        cuzk_budget_cache_entry_t *e = c->entries;
        c->entries = e->next;
        drop(c, e);
    }
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->mu);
}

static cuzk_budget_cache_entry_t *find(cuzk_budget_cache_t *c, const void *key)
{
    for (cuzk_budget_cache_entry_t *e = c->entries; e; e = e->next)
        if (c->ops->matches(e, key))
            return e;
    return NULL;
}

static void unlink_entry(cuzk_budget_cache_t *c, cuzk_budget_cache_entry_t *e)
{
    for (cuzk_budget_cache_entry_t **p = &c->entries; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            return;
        }
}

/* Under c->mu: key's entry once nobody loads it (NULL: none, or stop said so while waiting). */
static cuzk_budget_cache_entry_t *find_loaded(cuzk_budget_cache_t *c, const void *key, bool (*stop)(void *),
                                              void *stop_arg, bool *stopped)
{
    cuzk_budget_cache_entry_t *e;
    *stopped = false;
    while ((e = find(c, key)) && e->loading) {
        if (stop && stop(stop_arg)) {
            *stopped = true;
            return NULL;
        }
        struct timespec ts = cuzk_engine_timespec(cuzk_engine_now_ns() + 100000000u);
        pthread_cond_timedwait(&c->cv, &c->mu, &ts);
    }
    return e;
}

/* Under c->mu: one more reference to e. */
static void take(cuzk_budget_cache_entry_t *e)
{
    e->refs++;
    e->last_used_ns = cuzk_engine_now_ns();
}

cuzk_status cuzk_budget_cache_acquire(cuzk_budget_cache_t *c, const void *key, void *load_arg,
                                      bool (*stop)(void *), void *stop_arg, cuzk_budget_cache_entry_t **out,
                                      bool *loaded_here, cuzk_err_t *err)
{
    *out = NULL;
    if (loaded_here)
        *loaded_here = false;
    bool stopped;
    pthread_mutex_lock(&c->mu);
    cuzk_budget_cache_entry_t *e = find_loaded(c, key, stop, stop_arg, &stopped);
    if (stopped) {
        pthread_mutex_unlock(&c->mu);
        return cuzk_err_set(err, CUZK_ERR_CANCELLED, "cancelled while waiting for %s, which another job loads",
                            c->ops->what);
    }
    if (e) {
        take(e);
        pthread_mutex_unlock(&c->mu);
        *out = e;
        return CUZK_OK;
    }
    e = c->ops->create(key);
    if (!e) {
        pthread_mutex_unlock(&c->mu);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    }
    e->loading = true;
    e->refs = 1;
    e->next = c->entries;
    c->entries = e;
    pthread_mutex_unlock(&c->mu);

    cuzk_status st = c->ops->load(e, load_arg, err);

    pthread_mutex_lock(&c->mu);
    e->loading = false;
    e->last_used_ns = cuzk_engine_now_ns();
    if (st == CUZK_OK)
        c->loads++;
    else
        unlink_entry(c, e); /* its load charged nothing that stays */
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
    if (st != CUZK_OK) {
        c->ops->destroy(e);
        return st;
    }
    if (loaded_here)
        *loaded_here = true;
    *out = e;
    return CUZK_OK;
}

cuzk_budget_cache_entry_t *cuzk_budget_cache_find(cuzk_budget_cache_t *c, const void *key, bool (*stop)(void *),
                                                  void *stop_arg)
{
    bool stopped;
    pthread_mutex_lock(&c->mu);
    cuzk_budget_cache_entry_t *e = find_loaded(c, key, stop, stop_arg, &stopped);
    if (e)
        take(e);
    pthread_mutex_unlock(&c->mu);
    return e;
}

void cuzk_budget_cache_release(cuzk_budget_cache_t *c, cuzk_budget_cache_entry_t *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&c->mu);
    e->refs--;
    e->last_used_ns = cuzk_engine_now_ns();
    pthread_mutex_unlock(&c->mu);
}

uint64_t cuzk_budget_cache_evict_idle_at(cuzk_budget_cache_t *c, uint64_t need, uint64_t now_ns)
{
    uint64_t freed = 0;
    cuzk_budget_cache_entry_t *victims = NULL;
    pthread_mutex_lock(&c->mu);
    while (freed < need) {
        cuzk_budget_cache_entry_t *lru = NULL;
        /* an entry released after now_ns was read counts as just used, not as idle for ~584 years */
        for (cuzk_budget_cache_entry_t *e = c->entries; e; e = e->next)
            if (!e->loading && e->refs == 0 && cuzk_elapsed_ns(now_ns, e->last_used_ns) >= c->min_idle_ns &&
                (!lru || e->last_used_ns < lru->last_used_ns))
                lru = e;
        if (!lru)
            break;
        unlink_entry(c, lru);
        freed += c->ops->bytes(lru);
        lru->next = victims;
        victims = lru;
    }
    pthread_mutex_unlock(&c->mu);
    while (victims) {
        cuzk_budget_cache_entry_t *e = victims;
        victims = e->next;
        drop(c, e);
    }
    return freed;
}

cuzk_status cuzk_budget_cache_evict(cuzk_budget_cache_t *c, const void *key, bool *was_resident, uint64_t *freed,
                                    cuzk_err_t *err)
{
    *was_resident = false;
    *freed = 0;
    pthread_mutex_lock(&c->mu);
    cuzk_budget_cache_entry_t *e = find(c, key);
    if (e && (e->loading || e->refs > 0)) {
        char name[64];
        c->ops->describe(e, name, sizeof name);
        uint32_t refs = e->refs;
        pthread_mutex_unlock(&c->mu);
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "%s is in use by %u job(s)", name, refs);
    }
    if (e) {
        unlink_entry(c, e);
        *was_resident = true;
        *freed = c->ops->bytes(e);
    }
    pthread_mutex_unlock(&c->mu);
    if (e)
        drop(c, e);
    return CUZK_OK;
}

size_t cuzk_budget_cache_list(cuzk_budget_cache_t *c, cuzk_engine_srs_info_t *out, size_t max)
{
    size_t n = 0;
    uint64_t now = cuzk_engine_now_ns();
    pthread_mutex_lock(&c->mu);
    for (cuzk_budget_cache_entry_t *e = c->entries; e; e = e->next) {
        if (e->loading)
            continue; /* not resident yet */
        if (n < max) {
            c->ops->describe(e, out[n].circuit_id, sizeof out[n].circuit_id);
            out[n].size_bytes = c->ops->bytes(e);
            out[n].ref_count = e->refs;
            out[n].idle_ms = e->refs ? 0 : cuzk_elapsed_ns(now, e->last_used_ns) / 1000000;
        }
        n++;
    }
    pthread_mutex_unlock(&c->mu);
    return n;
}
