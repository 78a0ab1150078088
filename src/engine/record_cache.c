/* Record cache: a short list of entries under one mutex, as the parameter cache. A record is built outside
 * the lock with its entry marked `building`, so that other jobs of the same circuit wait for it instead of
 * building it twice; the budget is charged outside the lock too (its evictor takes this lock). */
#include "engine/record_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/clock.h"

void cuzk_record_cache_init(cuzk_record_cache_t *c, cuzk_budget_t *budget, uint64_t min_idle_ms)
{
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&c->cv, &ca);
    pthread_condattr_destroy(&ca);
    c->budget = budget;
    c->min_idle_ns = cuzk_ms_to_ns(min_idle_ms);
}

void cuzk_record_cache_destroy(cuzk_record_cache_t *c)
{
    while (c->entries) {
        cuzk_record_entry_t *e = c->entries;
        c->entries = e->next;
        cuzk_budget_release(c->budget, e->bytes);
        cuzk_porep_record_free(e->rec);
        free(e);
    }
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->mu);
}

static cuzk_record_entry_t *find(cuzk_record_cache_t *c, const cuzk_porep_config_t *cfg)
{
    for (cuzk_record_entry_t *e = c->entries; e; e = e->next)
        if (cuzk_porep_config_equal(&e->cfg, cfg))
            return e;
    return NULL;
}

static void unlink_entry(cuzk_record_cache_t *c, cuzk_record_entry_t *e)
{
    for (cuzk_record_entry_t **p = &c->entries; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            return;
        }
}

/* Under c->mu: the entry of cfg once nobody builds it (NULL: none, or stop said so while waiting). */
static cuzk_record_entry_t *find_built(cuzk_record_cache_t *c, const cuzk_porep_config_t *cfg, bool (*stop)(void *),
                                       void *stop_arg, bool *stopped)
{
    cuzk_record_entry_t *e;
    *stopped = false;
    while ((e = find(c, cfg)) && e->building) {
        if (stop && stop(stop_arg)) {
            *stopped = true;
            return NULL;
        }
        struct timespec ts = cuzk_engine_timespec(cuzk_engine_now_ns() + 100000000u);
        pthread_cond_timedwait(&c->cv, &c->mu, &ts);
    }
    return e;
}

cuzk_record_entry_t *cuzk_record_find(cuzk_record_cache_t *c, const cuzk_porep_config_t *cfg, bool (*stop)(void *),
                                      void *stop_arg)
{
    bool stopped;
    pthread_mutex_lock(&c->mu);
    cuzk_record_entry_t *e = find_built(c, cfg, stop, stop_arg, &stopped);
    if (e) {
        e->refs++;
        e->last_used_ns = cuzk_engine_now_ns();
    }
    pthread_mutex_unlock(&c->mu);
    return e;
}

/* Takes a failed build's entry out (its charge already returned) and wakes the threads waiting for it. */
static void drop_failed(cuzk_record_cache_t *c, cuzk_record_entry_t *e)
{
    pthread_mutex_lock(&c->mu);
    unlink_entry(c, e);
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
    free(e);
}

cuzk_status cuzk_record_acquire(cuzk_record_cache_t *c, const cuzk_porep_config_t *cfg, const char *circuit_id,
                                uint64_t estimate, bool wait, bool (*stop)(void *), void *stop_arg,
                                cuzk_record_entry_t **out, bool *built, uint64_t *built_ms, cuzk_err_t *err)
{
    *out = NULL;
    if (built)
        *built = false;
    if (built_ms)
        *built_ms = 0;
    bool stopped;
    pthread_mutex_lock(&c->mu);
    cuzk_record_entry_t *e = find_built(c, cfg, stop, stop_arg, &stopped);
    if (stopped) {
        pthread_mutex_unlock(&c->mu);
        return cuzk_err_set(err, CUZK_ERR_CANCELLED, "cancelled while the circuit's record was being built");
    }
    if (e) {
        e->refs++;
        e->last_used_ns = cuzk_engine_now_ns();
        pthread_mutex_unlock(&c->mu);
        *out = e;
        return CUZK_OK;
    }
    e = calloc(1, sizeof *e);
    if (!e) {
        pthread_mutex_unlock(&c->mu);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    }
    e->cfg = *cfg;
    snprintf(e->circuit_id, sizeof e->circuit_id, "%s", circuit_id);
    e->building = true;
    e->refs = 1;
    e->next = c->entries;
    c->entries = e;
    pthread_mutex_unlock(&c->mu);

    /* charged before building: the record is held from its first matrix row on */
    cuzk_status st = CUZK_OK;
    if (wait)
        st = cuzk_budget_acquire(c->budget, estimate, stop, stop_arg, "the circuit's record", err);
    else if (!cuzk_budget_try_acquire_evicting(c->budget, estimate))
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "the circuit's record (%.2f GiB estimated) does not fit now",
                          estimate / 1073741824.0);
    if (st != CUZK_OK) {
        drop_failed(c, e);
        return st;
    }
    uint64_t t0 = cuzk_engine_now_ns();
    cuzk_porep_prove_opts_t ro = {.should_stop = stop, .stop_arg = stop_arg};
    cuzk_porep_record_t *rec = NULL;
    st = cuzk_porep_record_new(&rec, cfg, &ro, err);
    uint64_t bytes = st == CUZK_OK ? cuzk_porep_record_bytes(rec) : 0;
    /* the estimate is an upper bound; should it ever fall short, the rest must fit now */
    if (st == CUZK_OK && bytes > estimate && !cuzk_budget_try_acquire_evicting(c->budget, bytes - estimate))
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY,
                          "the circuit's record takes %llu bytes, more than its estimate (%llu), and the rest does "
                          "not fit",
                          (unsigned long long)bytes, (unsigned long long)estimate);
    if (st != CUZK_OK) {
        cuzk_porep_record_free(rec);
        cuzk_budget_release(c->budget, estimate);
        drop_failed(c, e);
        return st;
    }
    if (bytes < estimate)
        cuzk_budget_release(c->budget, estimate - bytes);
    pthread_mutex_lock(&c->mu);
    e->rec = rec;
    e->bytes = bytes;
    e->building = false;
    e->last_used_ns = cuzk_engine_now_ns();
    c->builds++;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
    if (built)
        *built = true;
    if (built_ms)
        *built_ms = (cuzk_engine_now_ns() - t0) / 1000000;
    *out = e;
    return CUZK_OK;
}

void cuzk_record_release(cuzk_record_cache_t *c, cuzk_record_entry_t *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&c->mu);
    e->refs--;
    e->last_used_ns = cuzk_engine_now_ns();
    pthread_mutex_unlock(&c->mu);
}

uint64_t cuzk_record_evict_idle_at(cuzk_record_cache_t *c, uint64_t need, uint64_t now_ns)
{
    uint64_t freed = 0;
    cuzk_record_entry_t *victims = NULL;
    pthread_mutex_lock(&c->mu);
    while (freed < need) {
        cuzk_record_entry_t *lru = NULL;
        for (cuzk_record_entry_t *e = c->entries; e; e = e->next)
            if (!e->building && e->refs == 0 && cuzk_elapsed_ns(now_ns, e->last_used_ns) >= c->min_idle_ns &&
                (!lru || e->last_used_ns < lru->last_used_ns))
                lru = e;
        if (!lru)
            break;
        unlink_entry(c, lru);
        freed += lru->bytes;
        lru->next = victims;
        victims = lru;
    }
    pthread_mutex_unlock(&c->mu);
    while (victims) {
        cuzk_record_entry_t *e = victims;
        victims = e->next;
        cuzk_budget_release(c->budget, e->bytes);
        cuzk_porep_record_free(e->rec);
        free(e);
    }
    return freed;
}

size_t cuzk_record_list(cuzk_record_cache_t *c, cuzk_engine_srs_info_t *out, size_t max)
{
    size_t n = 0;
    uint64_t now = cuzk_engine_now_ns();
    pthread_mutex_lock(&c->mu);
    for (cuzk_record_entry_t *e = c->entries; e; e = e->next) {
        if (e->building)
            continue; /* not resident yet */
        if (n < max) {
            snprintf(out[n].circuit_id, sizeof out[n].circuit_id, "%s", e->circuit_id);
            out[n].size_bytes = e->bytes;
            out[n].ref_count = e->refs;
            out[n].idle_ms = e->refs ? 0 : cuzk_elapsed_ns(now, e->last_used_ns) / 1000000;
        }
        n++;
    }
    pthread_mutex_unlock(&c->mu);
    return n;
}
