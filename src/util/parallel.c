/* pthread-based parallel run / parallel for. Threads are created per call: every caller is a kernel
 * that runs for milliseconds, so the ~50 us of thread start-up is noise and no pool state is needed. */
#include "util/parallel.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct {
    void (*fn)(void *, int, int);
    void *ctx;
    int tid, n;
} run_arg;

static void *run_thread(void *p)
{
    run_arg *a = p;
    a->fn(a->ctx, a->tid, a->n);
    return NULL;
}

void cuzk_parallel_run(int nthreads, void (*fn)(void *ctx, int tid, int nthreads), void *ctx)
{
    if (nthreads <= 1) {
        fn(ctx, 0, 1);
        return;
    }
    pthread_t *th = malloc(sizeof(pthread_t) * (size_t)nthreads);
    run_arg *args = malloc(sizeof(run_arg) * (size_t)nthreads);
    int started = 1;
    if (th && args) {
        for (int t = 1; t < nthreads; t++) {
            args[t] = (run_arg){fn, ctx, t, nthreads};
            if (pthread_create(&th[t], NULL, run_thread, &args[t]) != 0)
                break;
            started++;
        }
    }
    /* If thread creation failed part-way, the caller's thread does the missing shares itself. */
    fn(ctx, 0, nthreads);
    for (int t = started; t < nthreads; t++)
        fn(ctx, t, nthreads);
    for (int t = 1; t < started; t++)
        pthread_join(th[t], NULL);
    free(th);
    free(args);
}

typedef struct {
    void (*fn)(void *, size_t, size_t);
    void *ctx;
    size_t n, grain;
    atomic_size_t next;
} for_ctx;

static void for_worker(void *p, int tid, int nthreads)
{
    (void)tid, (void)nthreads;
    for_ctx *c = p;
    for (;;) {
        size_t b = atomic_fetch_add(&c->next, c->grain);
        if (b >= c->n)
            return;
        size_t e = b + c->grain < c->n ? b + c->grain : c->n;
        c->fn(c->ctx, b, e);
    }
}

void cuzk_parallel_for(int nthreads, size_t n, size_t grain,
                       void (*fn)(void *ctx, size_t begin, size_t end), void *ctx)
{
    if (n == 0)
        return;
    if (grain == 0)
        grain = 1;
    if (nthreads <= 1 || n <= grain) {
        fn(ctx, 0, n);
        return;
    }
    size_t chunks = (n + grain - 1) / grain;
    if ((size_t)nthreads > chunks)
        nthreads = (int)chunks;
    for_ctx c = {fn, ctx, n, grain, 0};
    cuzk_parallel_run(nthreads, for_worker, &c);
}

int cuzk_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}
