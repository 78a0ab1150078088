/* A cache of shared, budget-charged entries: what the parameter cache (srs_cache.h) and the record cache
 * (record_cache.h) have in common. Entries are found by an opaque key, loaded on first use by one thread
 * while the others wanting the same key wait for it (single flight), shared through a reference count,
 * charged to the memory budget while resident, and evicted when nobody uses them: least recently used
 * first, once idle at least min_idle.
 *
 * Entries are intrusive: a user's entry type begins with a cuzk_budget_cache_entry_t, and the callbacks
 * receive that header (cast it back to the user's type). The cache owns every entry it lists; a user holds
 * a reference between acquire/find and release, during which the entry stays resident and unchanged.
 *
 * Thread safety: every function may be called from any thread, except init and destroy. Callbacks run
 * without the cache's lock (load may take long, and the budget's evictor takes this lock), except
 * `matches`, `bytes` and `describe`, which run under it and must not call into the cache. */
#ifndef CUZK_ENGINE_BUDGET_CACHE_H
#define CUZK_ENGINE_BUDGET_CACHE_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/engine.h"
#include "engine/budget.h"

/* The cache's part of an entry: the first member of the user's entry type. */
typedef struct cuzk_budget_cache_entry {
    struct cuzk_budget_cache_entry *next;
    uint32_t refs;
    bool loading;                      /* one thread loads it, the others wait; not resident yet */
    uint64_t last_used_ns;             /* cuzk_engine_now_ns's clock */
} cuzk_budget_cache_entry_t;

typedef struct {
    const char *what;                  /* what an entry is, for messages: "the parameters" */
    /* Under the lock: whether e holds key. */
    bool (*matches)(const cuzk_budget_cache_entry_t *e, const void *key);
    /* A new zeroed entry holding key, not loaded yet; NULL when out of memory. Runs under the lock. */
    cuzk_budget_cache_entry_t *(*create)(const void *key);
    /* Fills e (marked loading, the lock not held) and charges its bytes to the budget, with acquire's
     * load_arg. On failure it leaves nothing charged; e is then freed with `destroy`. */
    cuzk_status (*load)(cuzk_budget_cache_entry_t *e, void *load_arg, cuzk_err_t *err);
    /* The bytes charged to the budget for a resident e (returned when it goes). */
    uint64_t (*bytes)(const cuzk_budget_cache_entry_t *e);
    /* Frees e and what it holds (a failed load's leftovers included); the charge is the cache's business. */
    void (*destroy)(cuzk_budget_cache_entry_t *e);
    /* The name /status shows for e (a circuit id), at most n bytes with the terminating 0. */
    void (*describe)(const cuzk_budget_cache_entry_t *e, char *out, size_t n);
} cuzk_budget_cache_ops_t;

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;                 /* CLOCK_MONOTONIC: a load finished or failed */
    cuzk_budget_cache_entry_t *entries;
    const cuzk_budget_cache_ops_t *ops;
    cuzk_budget_t *budget;
    uint64_t min_idle_ns;              /* UINT64_MAX: never evicted for being idle */
    uint64_t loads;                    /* successful loads since init */
} cuzk_budget_cache_t;

/* min_idle_ms too large for nanoseconds means never idle enough (not a wrapped short time). */
void cuzk_budget_cache_init(cuzk_budget_cache_t *c, const cuzk_budget_cache_ops_t *ops, cuzk_budget_t *budget,
                            uint64_t min_idle_ms);
/* Frees every entry (none may be in use) and returns their charge to the budget. */
void cuzk_budget_cache_destroy(cuzk_budget_cache_t *c);

/* A reference to key's entry, loaded here (ops->load with load_arg) when it is not resident. An entry
 * another thread is loading is waited for; stop (may be NULL), polled about every 100 ms, abandons that
 * wait with CUZK_ERR_CANCELLED. *loaded_here (may be NULL): the entry was loaded by this call. A failed
 * load returns its error and leaves nothing cached (a thread waiting for it then loads itself). Errors:
 * CUZK_ERR_NO_MEMORY (no entry could be allocated), CUZK_ERR_CANCELLED, those of ops->load. */
cuzk_status cuzk_budget_cache_acquire(cuzk_budget_cache_t *c, const void *key, void *load_arg,
                                      bool (*stop)(void *), void *stop_arg, cuzk_budget_cache_entry_t **out,
                                      bool *loaded_here, cuzk_err_t *err);
/* A reference to key's resident entry, or NULL when there is none (one being loaded is waited for; stop
 * abandons the wait with NULL). */
cuzk_budget_cache_entry_t *cuzk_budget_cache_find(cuzk_budget_cache_t *c, const void *key, bool (*stop)(void *),
                                                  void *stop_arg);
/* Releases a reference (NULL-safe); the entry stays resident, idle from now. */
void cuzk_budget_cache_release(cuzk_budget_cache_t *c, cuzk_budget_cache_entry_t *e);

/* Drops unused resident entries idle at least min_idle as of now_ns, least recently used first, until
 * `need` bytes are freed; returns the bytes freed (their charge returned to the budget). An entry last used
 * at or after now_ns has been idle for no time. */
uint64_t cuzk_budget_cache_evict_idle_at(cuzk_budget_cache_t *c, uint64_t need, uint64_t now_ns);
/* Drops key's entry if nobody uses it: *was_resident false when there was none, *freed its bytes.
 * CUZK_ERR_MISMATCH ("<name> is in use by N job(s)") when it is in use or being loaded. */
cuzk_status cuzk_budget_cache_evict(cuzk_budget_cache_t *c, const void *key, bool *was_resident, uint64_t *freed,
                                    cuzk_err_t *err);
/* Fills up to max resident entries' descriptions; returns how many are resident (possibly more than max). */
size_t cuzk_budget_cache_list(cuzk_budget_cache_t *c, cuzk_engine_srs_info_t *out, size_t max);
#endif
