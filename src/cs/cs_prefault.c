/* The background prefault of a system's value arrays (cuzk_cs_prefault_start): a thread that faults in
 * the pages of the arrays cuzk_cs_reserve sized, a chunk at a time, always in the array furthest behind
 * in proportion to its size, since the synthesis fills them together front to back. Pages the synthesis
 * reached first cost the thread only a page-table walk. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "cs/cs_internal.h"

/* One huge page: the unit in which the kernel backs these mappings (cs_mem.c). */
enum { PREFAULT_CHUNK = 2 << 20, PREFAULT_ARRAYS = 4 };

typedef struct {
    const void *base;
    size_t bytes, done;
} prefault_array;

struct cs_prefault {
    pthread_t thread;
    atomic_bool stop;
    size_t n;
    prefault_array a[PREFAULT_ARRAYS];
};

/* The array least done in proportion to its size, or n when all are done. */
static size_t furthest_behind(const struct cs_prefault *pf)
{
    size_t best = pf->n;
    for (size_t i = 0; i < pf->n; i++) {
        const prefault_array *x = &pf->a[i];
        if (x->done >= x->bytes)
            continue;
        if (best == pf->n || (double)x->done / (double)x->bytes <
                                 (double)pf->a[best].done / (double)pf->a[best].bytes)
            best = i;
    }
    return best;
}

static void *prefault_main(void *arg)
{
    struct cs_prefault *pf = arg;
    size_t i;
    while (!atomic_load_explicit(&pf->stop, memory_order_relaxed) && (i = furthest_behind(pf)) < pf->n) {
        prefault_array *x = &pf->a[i];
        size_t len = x->bytes - x->done < PREFAULT_CHUNK ? x->bytes - x->done : PREFAULT_CHUNK;
        /* false: the array moved (outgrew its reservation) or the kernel cannot populate; leave it */
        x->done = cs_big_populate(x->base, x->done, len) ? x->done + len : x->bytes;
    }
    return NULL;
}

void cuzk_cs_prefault_start(cuzk_cs_t *cs)
{
    if (cs->prefault || cs->whole || cs->status != CUZK_OK)
        return;
    struct cs_prefault *pf = calloc(1, sizeof *pf);
    if (!pf)
        return;
    const struct {
        const cs_vec *v;
        size_t n;
    } arrays[PREFAULT_ARRAYS] = {
        {&cs->aux, cs->want_values ? cs->reserved_aux : 0},
        {&cs->av, cs->backend == CUZK_CS_DIRECT ? cs->reserved_constraints : 0},
        {&cs->bv, cs->backend == CUZK_CS_DIRECT ? cs->reserved_constraints : 0},
        {&cs->cv, cs->backend == CUZK_CS_DIRECT && !cs->omit_c ? cs->reserved_constraints : 0},
    };
    for (size_t k = 0; k < PREFAULT_ARRAYS; k++) {
        const cs_vec *v = arrays[k].v;
        size_t n = arrays[k].n < v->cap ? arrays[k].n : v->cap;
        /* arrays of a few huge pages fault in quickly enough by themselves */
        if (v->p && !v->borrowed && n * sizeof(fr) >= (size_t)4 * PREFAULT_CHUNK)
            pf->a[pf->n++] = (prefault_array){v->p, n * sizeof(fr), 0};
    }
    atomic_init(&pf->stop, false);
    if (pf->n == 0 || pthread_create(&pf->thread, NULL, prefault_main, pf) != 0) {
        free(pf);
        return;
    }
    cs->prefault = pf;
}

void cuzk_cs_prefault_stop(cuzk_cs_t *cs)
{
    struct cs_prefault *pf = cs->prefault;
    if (!pf)
        return;
    atomic_store_explicit(&pf->stop, true, memory_order_relaxed);
    pthread_join(pf->thread, NULL);
    free(pf);
    cs->prefault = NULL;
}
