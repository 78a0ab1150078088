/* cuzk_overlap_run: items made and used in order; with overlap, item i + 1 is being made while item i is
 * used (each use waits to see the next make start), never more than two items alive; without, strictly one
 * after the other; every item made is dropped; the first failure in item order is returned (a use's over
 * the make beside it) and nothing is made after it; the overlap decision sees item 0. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "test_util.h"
#include "util/overlap.h"

typedef struct {
    bool overlap;            /* what the decision answers */
    int n;                   /* items of the run */
    int fail_make, fail_use; /* this item's make / use fails (−1: none) */
    atomic_int live, max_live, made, dropped, used;
    atomic_int make_started; /* highest item whose make has started, −1 at first */
    int order[64], n_order;  /* uses in order */
    bool saw_overlap;        /* every use but the last saw the next make start while it ran */
    int decided_on;          /* the item the decision saw */
} ctx_t;

static cuzk_status make(void *c_, uint32_t i, void **item, cuzk_err_t *err)
{
    ctx_t *c = c_;
    atomic_store(&c->make_started, (int)i);
    int *p = malloc(sizeof *p);
    *p = (int)i;
    *item = p;
    int live = atomic_fetch_add(&c->live, 1) + 1;
    int m = atomic_load(&c->max_live);
    while (live > m && !atomic_compare_exchange_weak(&c->max_live, &m, live))
        ;
    atomic_fetch_add(&c->made, 1);
    if ((int)i == c->fail_make)
        return cuzk_err_set(err, CUZK_ERR_IO, "make %u failed", i); /* the item is dropped by the run */
    return CUZK_OK;
}

static cuzk_status use(void *c_, uint32_t i, void *item, cuzk_err_t *err)
{
    ctx_t *c = c_;
    CHECK(*(int *)item == (int)i);
    c->order[c->n_order++] = (int)i;
    atomic_fetch_add(&c->used, 1);
    if (c->overlap && (int)i + 1 < c->n) { /* the next make should start while this use runs (up to 2 s) */
        bool seen = false;
        for (int k = 0; k < 2000 && !seen; k++) {
            seen = atomic_load(&c->make_started) >= (int)i + 1;
            if (!seen)
                nanosleep(&(struct timespec){0, 1000000}, NULL);
        }
        c->saw_overlap = c->saw_overlap && seen;
    } else if (!c->overlap) {
        CHECK(atomic_load(&c->make_started) == (int)i); /* nothing made ahead */
    }
    if ((int)i == c->fail_use)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "use %u failed", i);
    return CUZK_OK;
}

static void drop(void *c_, void *item)
{
    ctx_t *c = c_;
    free(item);
    atomic_fetch_sub(&c->live, 1);
    atomic_fetch_add(&c->dropped, 1);
}

static bool decide(void *c_, const void *first)
{
    ctx_t *c = c_;
    c->decided_on = *(const int *)first;
    return c->overlap;
}

static cuzk_status run(ctx_t *c, uint32_t n, bool overlap, int fail_make, int fail_use, cuzk_err_t *err)
{
    memset(c, 0, sizeof *c);
    c->overlap = overlap, c->fail_make = fail_make, c->fail_use = fail_use, c->n = (int)n;
    atomic_init(&c->make_started, -1);
    c->saw_overlap = true;
    c->decided_on = -1;
    cuzk_overlap_t o = {.ctx = c, .make = make, .use = use, .drop = drop, .overlap = decide};
    cuzk_status st = cuzk_overlap_run(&o, n, err);
    CHECK_MSG(atomic_load(&c->live) == 0 && atomic_load(&c->made) == atomic_load(&c->dropped),
              "%d made, %d dropped", atomic_load(&c->made), atomic_load(&c->dropped));
    for (int k = 0; k < c->n_order; k++)
        CHECK(c->order[k] == k);
    return st;
}

int main(void)
{
    test_init("test_overlap");
    ctx_t c;
    cuzk_err_t err = {{0}};
    for (int ov = 0; ov < 2; ov++) {
        CHECK(run(&c, 0, ov, -1, -1, &err) == CUZK_OK && c.made == 0);
        CHECK(run(&c, 1, ov, -1, -1, &err) == CUZK_OK && c.made == 1 && c.used == 1 && c.decided_on == -1);
        CHECK(run(&c, 6, ov, -1, -1, &err) == CUZK_OK && c.made == 6 && c.used == 6 && c.decided_on == 0);
        CHECK(c.max_live == (ov ? 2 : 1));
        if (ov)
            CHECK(c.saw_overlap);
        /* a use fails: its error, nothing made after the next (made beside it, dropped) */
        CHECK(run(&c, 6, ov, -1, 2, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "use 2") && c.used == 3 &&
              c.made == (ov ? 4 : 3));
        /* a make fails: its error after the use beside it */
        CHECK(run(&c, 6, ov, 3, -1, &err) == CUZK_ERR_IO && strstr(err.msg, "make 3") && c.used == 3 && c.made == 4);
        /* both: the use, earlier in item order, wins */
        CHECK(run(&c, 6, ov, 3, 2, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "use 2"));
        /* the first make fails: nothing used */
        CHECK(run(&c, 6, ov, 0, -1, &err) == CUZK_ERR_IO && c.used == 0 && c.made == 1);
    }
    /* no decision callback: never overlapped */
    memset(&c, 0, sizeof c);
    atomic_init(&c.make_started, -1);
    c.fail_make = c.fail_use = -1;
    c.n = 4;
    cuzk_overlap_t o = {.ctx = &c, .make = make, .use = use, .drop = drop};
    CHECK(cuzk_overlap_run(&o, 4, &err) == CUZK_OK && c.max_live == 1 && c.used == 4);
    return test_finish();
}
