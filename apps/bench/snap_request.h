/* A synthetic SnapDeals sector's proof request for the benchmarks (testkit/snap_synthetic.h: partitions that
 * pass every check and describe no real sector), any update-proof size, 32GiB's 16 partitions in about a
 * second. */
#ifndef CUZK_APPS_BENCH_SNAP_REQUEST_H
#define CUZK_APPS_BENCH_SNAP_REQUEST_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/snap.h"

typedef struct {
    cuzk_snap_request_t req;
    cuzk_snap_vanilla_t *parts[CUZK_SNAP_MAX_PARTITIONS];
} bench_snap_request_t;

/* *out for a sector of sector_size bytes (an update proof's size), made on `threads` threads (0: all). 0, or
 * −1 with the reason in msg. Free with bench_snap_request_free (also after a failure). */
int bench_snap_synthetic_request(bench_snap_request_t *out, uint64_t sector_size, int threads, char *msg,
                                 size_t msg_len);
void bench_snap_request_free(bench_snap_request_t *r);

#endif
