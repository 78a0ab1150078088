/* Minimal data-parallel helpers on pthreads. Kernels take an explicit thread count so that
 * benchmarks and tests can pin it; threads <= 1 runs inline on the caller's thread. */
#ifndef CUZK_UTIL_PARALLEL_H
#define CUZK_UTIL_PARALLEL_H
#include <stddef.h>

/* Calls fn(ctx, tid, nthreads) for tid = 0..nthreads-1, each on its own thread (tid 0 on the
 * caller's), and returns when all have finished. */
void cuzk_parallel_run(int nthreads, void (*fn)(void *ctx, int tid, int nthreads), void *ctx);

/* Calls fn(ctx, begin, end) over [0, n) split into chunks of `grain` items, handed out dynamically
 * to nthreads threads. */
void cuzk_parallel_for(int nthreads, size_t n, size_t grain,
                       void (*fn)(void *ctx, size_t begin, size_t end), void *ctx);

/* Number of online CPUs (at least 1). */
int cuzk_cpu_count(void);

#endif
