/* The budgeted cache under the parameter and record caches, on entries of its own keyed by a number:
 * one load for concurrent askers, a failed load that leaves nothing cached or charged (a waiter then
 * loads), a stop that abandons a wait, eviction of idle entries least recently used first (never one in
 * use or loading), eviction by key, the listing and what destroy returns to the budget. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine/budget_cache.h"
#include "engine/clock.h"
#include "test_util.h"

#define SEC 1000000000ull

typedef struct {
    cuzk_budget_cache_entry_t cached;
    int key;
    uint64_t bytes;
} num_entry_t;

/* How the loads go: each charges `bytes`, fails while fail_next > 0, and holds until released. */
static struct {
    cuzk_budget_t *budget;
    uint64_t bytes;
    atomic_int loads_started, fail_next, destroyed;
    atomic_bool hold; /* loads wait while set */
} loads;

static bool num_matches(const cuzk_budget_cache_entry_t *e, const void *key)
{
    return ((const num_entry_t *)e)->key == *(const int *)key;
}

static cuzk_budget_cache_entry_t *num_create(const void *key)
{
    num_entry_t *e = calloc(1, sizeof *e);
    if (e)
        e->key = *(const int *)key;
    return e ? &e->cached : NULL;
}

static cuzk_status num_load(cuzk_budget_cache_entry_t *cached, void *load_arg, cuzk_err_t *err)
{
    (void)load_arg;
    num_entry_t *e = (num_entry_t *)cached;
    atomic_fetch_add(&loads.loads_started, 1);
    while (atomic_load(&loads.hold))
        usleep(1000);
    if (atomic_load(&loads.fail_next) > 0) {
        atomic_fetch_sub(&loads.fail_next, 1);
        return cuzk_err_set(err, CUZK_ERR_IO, "load %d failed", e->key);
    }
    if (!cuzk_budget_try_acquire(loads.budget, loads.bytes))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "no room");
    e->bytes = loads.bytes;
    return CUZK_OK;
}

static uint64_t num_bytes(const cuzk_budget_cache_entry_t *e) { return ((const num_entry_t *)e)->bytes; }

static void num_destroy(cuzk_budget_cache_entry_t *e)
{
    atomic_fetch_add(&loads.destroyed, 1);
    free(e);
}

static void num_describe(const cuzk_budget_cache_entry_t *e, char *out, size_t n)
{
    snprintf(out, n, "num-%d", ((const num_entry_t *)e)->key);
}

static const cuzk_budget_cache_ops_t num_ops = {
    .what = "the number",
    .matches = num_matches,
    .create = num_create,
    .load = num_load,
    .bytes = num_bytes,
    .destroy = num_destroy,
    .describe = num_describe,
};

static uint64_t budget_used(cuzk_budget_t *b)
{
    uint64_t used;
    cuzk_budget_get(b, NULL, &used, NULL);
    return used;
}

typedef struct {
    cuzk_budget_cache_t *c;
    int key;
    bool (*stop)(void *);
    cuzk_status st;
    cuzk_budget_cache_entry_t *got;
    bool loaded_here;
    uint64_t bytes_seen; /* the entry's bytes when acquire returned: a waiter never sees a half-loaded one */
    char msg[256];
} asker_t;

static void *ask(void *arg)
{
    asker_t *a = arg;
    cuzk_err_t err = {{0}};
    a->st = cuzk_budget_cache_acquire(a->c, &a->key, NULL, a->stop, NULL, &a->got, &a->loaded_here, &err);
    a->bytes_seen = a->got ? ((num_entry_t *)a->got)->bytes : 0;
    snprintf(a->msg, sizeof a->msg, "%s", err.msg);
    return NULL;
}

static bool always_stop(void *arg)
{
    (void)arg;
    return true;
}

/* Waits (up to 2 s) until `n` loads have started. */
static bool loads_reach(int n)
{
    for (int i = 0; i < 2000 && atomic_load(&loads.loads_started) < n; i++)
        usleep(1000);
    return atomic_load(&loads.loads_started) >= n;
}

static void reset_loads(cuzk_budget_t *b, uint64_t bytes)
{
    loads.budget = b;
    loads.bytes = bytes;
    atomic_store(&loads.loads_started, 0);
    atomic_store(&loads.fail_next, 0);
    atomic_store(&loads.destroyed, 0);
    atomic_store(&loads.hold, false);
}

/* Four askers of one key while its load is held: one load, one entry, four references. */
static void test_single_flight(void)
{
    cuzk_budget_t b;
    cuzk_budget_cache_t c;
    cuzk_budget_init(&b, 1000, NULL, NULL);
    cuzk_budget_cache_init(&c, &num_ops, &b, 0);
    reset_loads(&b, 100);
    atomic_store(&loads.hold, true);
    asker_t a[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        a[i] = (asker_t){.c = &c, .key = 7};
        pthread_create(&th[i], NULL, ask, &a[i]);
    }
    CHECK(loads_reach(1));
    usleep(50000); /* the other three are waiting by now, or still to ask: either way they find the entry */
    cuzk_engine_srs_info_t info[2];
    CHECK_MSG(cuzk_budget_cache_list(&c, info, 2) == 0, "an entry being loaded is listed");
    atomic_store(&loads.hold, false);
    int loaded_here = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CHECK(a[i].st == CUZK_OK && a[i].got == a[0].got && a[i].bytes_seen == 100);
        loaded_here += a[i].loaded_here;
    }
    CHECK_MSG(atomic_load(&loads.loads_started) == 1 && loaded_here == 1 && c.loads == 1, "%d loads, %d here",
              atomic_load(&loads.loads_started), loaded_here);
    CHECK(a[0].got && a[0].got->refs == 4 && budget_used(&b) == 100);
    CHECK(cuzk_budget_cache_list(&c, info, 2) == 1 && strcmp(info[0].circuit_id, "num-7") == 0 &&
          info[0].ref_count == 4 && info[0].size_bytes == 100 && info[0].idle_ms == 0);
    /* found while resident, not another key */
    int other = 8;
    CHECK(cuzk_budget_cache_find(&c, &a[0].key, NULL, NULL) == a[0].got && a[0].got->refs == 5);
    CHECK(cuzk_budget_cache_find(&c, &other, NULL, NULL) == NULL);
    for (int i = 0; i < 5; i++)
        cuzk_budget_cache_release(&c, a[0].got);
    cuzk_budget_cache_release(&c, NULL);
    CHECK(a[0].got->refs == 0);
    cuzk_budget_cache_destroy(&c);
    CHECK(budget_used(&b) == 0 && atomic_load(&loads.destroyed) == 1);
    cuzk_budget_destroy(&b);
}

/* A failed load leaves nothing cached or charged; the asker waiting for it loads itself. A stop abandons
 * a wait at once, with the message naming what was waited for. */
static void test_failed_load_and_stop(void)
{
    cuzk_budget_t b;
    cuzk_budget_cache_t c;
    cuzk_budget_init(&b, 1000, NULL, NULL);
    cuzk_budget_cache_init(&c, &num_ops, &b, 0);
    reset_loads(&b, 100);
    atomic_store(&loads.fail_next, 1);
    atomic_store(&loads.hold, true);
    asker_t first = {.c = &c, .key = 3}, second = {.c = &c, .key = 3}, stopped = {.c = &c, .key = 3,
                                                                                     .stop = always_stop};
    pthread_t t1, t2;
    pthread_create(&t1, NULL, ask, &first);
    CHECK(loads_reach(1));
    ask(&stopped); /* the entry is loading: a stopped asker gives up without loading */
    CHECK_MSG(stopped.st == CUZK_ERR_CANCELLED && !stopped.got && strstr(stopped.msg, "the number"), "%d %s",
              stopped.st, stopped.msg);
    pthread_create(&t2, NULL, ask, &second);
    usleep(50000);
    atomic_store(&loads.hold, false);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    CHECK_MSG(first.st == CUZK_ERR_IO && !first.got && strstr(first.msg, "load 3 failed"), "%d %s", first.st,
              first.msg);
    CHECK_MSG(second.st == CUZK_OK && second.got && second.loaded_here, "%d %s", second.st, second.msg);
    CHECK(atomic_load(&loads.loads_started) == 2 && c.loads == 1 && atomic_load(&loads.destroyed) == 1);
    CHECK(budget_used(&b) == 100 && c.entries == second.got && !c.entries->next);
    cuzk_budget_cache_release(&c, second.got);

    /* a load failing alone: no entry, no charge */
    int key = 4;
    atomic_store(&loads.fail_next, 1);
    cuzk_budget_cache_entry_t *e = NULL;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_budget_cache_acquire(&c, &key, NULL, NULL, NULL, &e, NULL, &err) == CUZK_ERR_IO && !e);
    CHECK(budget_used(&b) == 100 && c.entries == second.got && !c.entries->next);
    cuzk_budget_cache_destroy(&c);
    CHECK(budget_used(&b) == 0);
    cuzk_budget_destroy(&b);
}

static num_entry_t *resident(cuzk_budget_cache_t *c, int key, uint64_t bytes, uint64_t last_used_ns)
{
    cuzk_budget_cache_entry_t *e = NULL;
    cuzk_err_t err = {{0}};
    loads.bytes = bytes;
    CHECK_MSG(cuzk_budget_cache_acquire(c, &key, NULL, NULL, NULL, &e, NULL, &err) == CUZK_OK, "%s", err.msg);
    cuzk_budget_cache_release(c, e);
    if (e)
        e->last_used_ns = last_used_ns;
    return (num_entry_t *)e;
}

/* Eviction: least recently used first among unused entries idle at least min_idle; by key, refused while
 * in use. */
static void test_eviction(void)
{
    const uint64_t now = 3600 * SEC;
    cuzk_budget_t b;
    cuzk_budget_cache_t c;
    cuzk_budget_init(&b, 1000, NULL, NULL);
    cuzk_budget_cache_init(&c, &num_ops, &b, 60000 /* 1 min */);
    reset_loads(&b, 0);
    num_entry_t *busy = resident(&c, 1, 300, 0);
    resident(&c, 2, 200, now - 10 * SEC); /* idle 10 s: stays */
    resident(&c, 3, 100, now - 300 * SEC);
    resident(&c, 4, 50, now - 900 * SEC); /* the least recently used */
    resident(&c, 5, 70, now + 30 * SEC);  /* released after "now": just used */
    int k1 = 1;
    CHECK(cuzk_budget_cache_find(&c, &k1, NULL, NULL) == &busy->cached);
    busy->cached.last_used_ns = now - 600 * SEC; /* in use, the least recently used: stays */
    CHECK(budget_used(&b) == 720);
    CHECK(cuzk_budget_cache_evict_idle_at(&c, 1, now) == 50);
    CHECK(cuzk_budget_cache_evict_idle_at(&c, 1000, now) == 100); /* only 3 may go */
    CHECK(cuzk_budget_cache_evict_idle_at(&c, 1000, now) == 0);
    CHECK(budget_used(&b) == 570);
    cuzk_engine_srs_info_t info[8];
    CHECK(cuzk_budget_cache_list(&c, info, 8) == 3 && cuzk_budget_cache_list(&c, info, 1) == 3);
    bool was;
    uint64_t freed;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_budget_cache_evict(&c, &k1, &was, &freed, &err) == CUZK_ERR_MISMATCH &&
                  strstr(err.msg, "num-1 is in use by 1 job(s)"),
              "%s", err.msg);
    int k2 = 2, k9 = 9;
    CHECK(cuzk_budget_cache_evict(&c, &k2, &was, &freed, &err) == CUZK_OK && was && freed == 200);
    CHECK(cuzk_budget_cache_evict(&c, &k9, &was, &freed, &err) == CUZK_OK && !was && freed == 0);
    CHECK(budget_used(&b) == 370);
    /* a minimum idle time too large for nanoseconds is never, not a wrapped short time */
    cuzk_budget_cache_release(&c, &busy->cached);
    CHECK(cuzk_budget_cache_evict_idle_at(&c, 1000, UINT64_MAX) == 370);
    cuzk_budget_cache_destroy(&c);
    cuzk_budget_cache_init(&c, &num_ops, &b, 1ull << 58);
    CHECK(c.min_idle_ns == UINT64_MAX);
    resident(&c, 1, 10, 0);
    CHECK(cuzk_budget_cache_evict_idle_at(&c, 1000, UINT64_MAX - 1) == 0);
    cuzk_budget_cache_destroy(&c);
    CHECK(budget_used(&b) == 0);
    cuzk_budget_destroy(&b);
}

int main(void)
{
    test_init("engine_budget_cache");
    test_single_flight();
    test_failed_load_and_stop();
    test_eviction();
    return test_finish();
}
