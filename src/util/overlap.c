/* cuzk_overlap_run (overlap.h): item i + 1 made on a thread of its own, started before item i is used and
 * joined after, so that the two never run longer side by side than one use. */
#include "util/overlap.h"

#include <pthread.h>
#include <stddef.h>

typedef struct {
    const cuzk_overlap_t *o;
    uint32_t i;
    void *item;
    cuzk_status st;
    cuzk_err_t err;
} making_t;

static void make_one(making_t *m)
{
    m->item = NULL;
    m->err.msg[0] = 0;
    m->st = m->o->make(m->o->ctx, m->i, &m->item, &m->err);
    if (m->st != CUZK_OK && m->item) { /* a failed make leaves nothing behind */
        m->o->drop(m->o->ctx, m->item);
        m->item = NULL;
    }
}

static void *make_thread(void *arg)
{
    make_one(arg);
    return NULL;
}

/* Keeps a failure as the run's: its status and message. */
static cuzk_status fail(cuzk_err_t *err, cuzk_status st, const cuzk_err_t *why)
{
    if (err)
        *err = *why;
    return st;
}

cuzk_status cuzk_overlap_run(const cuzk_overlap_t *o, uint32_t n, cuzk_err_t *err)
{
    if (n == 0)
        return CUZK_OK;
    making_t cur = {.o = o, .i = 0};
    make_one(&cur);
    if (cur.st != CUZK_OK)
        return fail(err, cur.st, &cur.err);
    bool overlap = n > 1 && o->overlap && o->overlap(o->ctx, cur.item);
    for (uint32_t i = 0;; i++) {
        making_t next = {.o = o, .i = i + 1, .st = CUZK_OK};
        bool more = i + 1 < n, threaded = false;
        pthread_t th;
        if (more && overlap)
            threaded = pthread_create(&th, NULL, make_thread, &next) == 0;
        cuzk_err_t use_err = {{0}};
        cuzk_status st = o->use(o->ctx, i, cur.item, &use_err);
        o->drop(o->ctx, cur.item);
        if (threaded)
            pthread_join(th, NULL);
        if (st != CUZK_OK) {
            if (next.item)
                o->drop(o->ctx, next.item);
            return fail(err, st, &use_err);
        }
        if (!more)
            return CUZK_OK;
        if (!threaded)
            make_one(&next);
        if (next.st != CUZK_OK)
            return fail(err, next.st, &next.err);
        cur = next;
    }
}
