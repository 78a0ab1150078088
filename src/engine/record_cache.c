/* Record cache: a budgeted cache (budget_cache.h) of recorded circuits. A record is charged at its estimate
 * before it is built (it is held from its first matrix row on), then at its real size. */
#include "engine/record_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/clock.h"

static bool entry_matches(const cuzk_budget_cache_entry_t *e, const void *key)
{
    return cuzk_porep_config_equal(&((const cuzk_record_entry_t *)e)->cfg, key);
}

static cuzk_budget_cache_entry_t *entry_create(const void *key)
{
    cuzk_record_entry_t *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->cfg = *(const cuzk_porep_config_t *)key;
    return &e->cached;
}

static uint64_t entry_bytes(const cuzk_budget_cache_entry_t *e) { return ((const cuzk_record_entry_t *)e)->bytes; }

static void entry_destroy(cuzk_budget_cache_entry_t *cached)
{
    cuzk_record_entry_t *e = (cuzk_record_entry_t *)cached;
    cuzk_porep_record_free(e->rec);
    free(e);
}

static void entry_describe(const cuzk_budget_cache_entry_t *e, char *out, size_t n)
{
    snprintf(out, n, "%s", ((const cuzk_record_entry_t *)e)->circuit_id);
}

/* What one acquire hands its build: the label, the estimate and how to charge it, and where the time goes. */
typedef struct {
    cuzk_budget_t *budget;
    const char *circuit_id;
    uint64_t estimate;
    bool wait;
    bool (*stop)(void *);
    void *stop_arg;
    uint64_t built_ms;
} record_build_t;

static cuzk_status entry_build(cuzk_budget_cache_entry_t *cached, void *build_arg, cuzk_err_t *err)
{
    cuzk_record_entry_t *e = (cuzk_record_entry_t *)cached;
    record_build_t *b = build_arg;
    snprintf(e->circuit_id, sizeof e->circuit_id, "%s", b->circuit_id);
    /* charged before building: the record is held from its first matrix row on */
    cuzk_status st = CUZK_OK;
    if (b->wait)
        st = cuzk_budget_acquire(b->budget, b->estimate, b->stop, b->stop_arg, "the circuit's record", err);
    else if (!cuzk_budget_try_acquire_evicting(b->budget, b->estimate))
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "the circuit's record (%.2f GiB estimated) does not fit now",
                          b->estimate / 1073741824.0);
    if (st != CUZK_OK)
        return st;
    uint64_t t0 = cuzk_engine_now_ns();
    cuzk_porep_prove_opts_t ro = {.should_stop = b->stop, .stop_arg = b->stop_arg};
    st = cuzk_porep_record_new(&e->rec, &e->cfg, &ro, err);
    uint64_t bytes = st == CUZK_OK ? cuzk_porep_record_bytes(e->rec) : 0;
    /* the estimate is an upper bound; should it ever fall short, the rest must fit now */
    if (st == CUZK_OK && bytes > b->estimate && !cuzk_budget_try_acquire_evicting(b->budget, bytes - b->estimate))
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY,
                          "the circuit's record takes %llu bytes, more than its estimate (%llu), and the rest does "
                          "not fit",
                          (unsigned long long)bytes, (unsigned long long)b->estimate);
    if (st != CUZK_OK) { /* the cache frees the entry (and the record, if one was made) */
        cuzk_budget_release(b->budget, b->estimate);
        return st;
    }
    if (bytes < b->estimate)
        cuzk_budget_release(b->budget, b->estimate - bytes);
    e->bytes = bytes;
    b->built_ms = (cuzk_engine_now_ns() - t0) / 1000000;
    return CUZK_OK;
}

static const cuzk_budget_cache_ops_t record_ops = {
    .what = "the circuit's record",
    .matches = entry_matches,
    .create = entry_create,
    .load = entry_build,
    .bytes = entry_bytes,
    .destroy = entry_destroy,
    .describe = entry_describe,
};

void cuzk_record_cache_init(cuzk_record_cache_t *c, cuzk_budget_t *budget, uint64_t min_idle_ms)
{
    cuzk_budget_cache_init(&c->cache, &record_ops, budget, min_idle_ms);
}

void cuzk_record_cache_destroy(cuzk_record_cache_t *c) { cuzk_budget_cache_destroy(&c->cache); }

cuzk_record_entry_t *cuzk_record_find(cuzk_record_cache_t *c, const cuzk_porep_config_t *cfg, bool (*stop)(void *),
                                      void *stop_arg)
{
    return (cuzk_record_entry_t *)cuzk_budget_cache_find(&c->cache, cfg, stop, stop_arg);
}

cuzk_status cuzk_record_acquire(cuzk_record_cache_t *c, const cuzk_porep_config_t *cfg, const char *circuit_id,
                                uint64_t estimate, bool wait, bool (*stop)(void *), void *stop_arg,
                                cuzk_record_entry_t **out, bool *built, uint64_t *built_ms, cuzk_err_t *err)
{
    record_build_t b = {.budget = c->cache.budget, .circuit_id = circuit_id, .estimate = estimate, .wait = wait,
                        .stop = stop, .stop_arg = stop_arg};
    cuzk_budget_cache_entry_t *e = NULL;
    bool built_here = false;
    cuzk_status st = cuzk_budget_cache_acquire(&c->cache, cfg, &b, stop, stop_arg, &e, &built_here, err);
    *out = (cuzk_record_entry_t *)e;
    if (built)
        *built = built_here;
    if (built_ms)
        *built_ms = built_here ? b.built_ms : 0;
    return st;
}

void cuzk_record_release(cuzk_record_cache_t *c, cuzk_record_entry_t *e)
{
    cuzk_budget_cache_release(&c->cache, e ? &e->cached : NULL);
}

uint64_t cuzk_record_evict_idle_at(cuzk_record_cache_t *c, uint64_t need, uint64_t now_ns)
{
    return cuzk_budget_cache_evict_idle_at(&c->cache, need, now_ns);
}

size_t cuzk_record_list(cuzk_record_cache_t *c, cuzk_engine_srs_info_t *out, size_t max)
{
    return cuzk_budget_cache_list(&c->cache, out, max);
}
