/* The engine's cache of recorded PoRep circuits (cuzk/porep.h "Records"), one per circuit configuration:
 * built once on first use, even when several jobs want it at once (one builds, the others wait), shared by
 * every job of that circuit (a reference count), charged to the memory budget at its size, and evicted
 * when nobody uses it — under memory pressure once idle long enough, as the parameter cache does. */
#ifndef CUZK_ENGINE_RECORD_CACHE_H
#define CUZK_ENGINE_RECORD_CACHE_H
#include <stdbool.h>
#include <stdint.h>
#include "cuzk/engine.h"
#include "cuzk/porep.h"
#include "engine/budget.h"
#include "engine/budget_cache.h"

typedef struct cuzk_record_entry {
    cuzk_budget_cache_entry_t cached;  /* first: the cache's part (references, building, last use) */
    cuzk_porep_config_t cfg;           /* the key */
    char circuit_id[32];               /* for /status: the circuit id of the job that built it */
    cuzk_porep_record_t *rec;          /* NULL while building */
    uint64_t bytes;                    /* its size, charged to the budget (0 while building: the estimate is) */
} cuzk_record_entry_t;

typedef struct {
    cuzk_budget_cache_t cache;         /* of cuzk_record_entry_t, keyed by configuration; cache.loads: records
                                        * built since start (tests count them) */
} cuzk_record_cache_t;

void cuzk_record_cache_init(cuzk_record_cache_t *c, cuzk_budget_t *budget, uint64_t min_idle_ms);
/* Frees every entry (none may be in use) and returns their charge. */
void cuzk_record_cache_destroy(cuzk_record_cache_t *c);

/* A reference to cfg's resident record, or NULL when there is none (one being built is waited for: stop,
 * polled about every 100 ms, abandons the wait with NULL). Release with cuzk_record_release. */
cuzk_record_entry_t *cuzk_record_find(cuzk_record_cache_t *c, const cuzk_porep_config_t *cfg, bool (*stop)(void *),
                                      void *stop_arg);

/* A reference to cfg's record, built here if it is not resident (circuit_id labels it). Before building,
 * `estimate` bytes (cuzk_porep_record_estimate) are charged: with wait, as cuzk_budget_acquire does
 * (evicting idle entries, then waiting for releases); without, only if they fit now once idle entries are
 * evicted, else CUZK_ERR_NO_MEMORY at once. After building the charge becomes the record's real size.
 * *built (may be NULL): it was built here (false when it was resident or another thread built it), and
 * *built_ms (may be NULL) the time that took.
 * Errors: CUZK_ERR_NO_MEMORY, CUZK_ERR_CANCELLED (stop said so while waiting or building), those of
 * cuzk_porep_record_new. A failed build leaves nothing cached or charged (a waiting thread then builds). */
cuzk_status cuzk_record_acquire(cuzk_record_cache_t *c, const cuzk_porep_config_t *cfg, const char *circuit_id,
                                uint64_t estimate, bool wait, bool (*stop)(void *), void *stop_arg,
                                cuzk_record_entry_t **out, bool *built, uint64_t *built_ms, cuzk_err_t *err);
/* Releases a reference (NULL-safe). */
void cuzk_record_release(cuzk_record_cache_t *c, cuzk_record_entry_t *e);

/* Drops unused entries idle at least min_idle as of now_ns (cuzk_engine_now_ns's clock), least recently
 * used first, until `need` bytes are freed; returns the bytes freed (their charge is returned). */
uint64_t cuzk_record_evict_idle_at(cuzk_record_cache_t *c, uint64_t need, uint64_t now_ns);
/* Fills up to max entries' descriptions (resident ones); returns how many are resident. */
size_t cuzk_record_list(cuzk_record_cache_t *c, cuzk_engine_srs_info_t *out, size_t max);
#endif
