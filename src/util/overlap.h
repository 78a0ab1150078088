/* Items made and used in order, the next one made on a second thread while the current one is used: the
 * shape of proving a sector's partitions (synthesize partition k + 1 while partition k is proved). At most
 * two items live at once: the one being used and the next, made or being made. Whether to overlap at all
 * is decided once the first item exists (its size tells whether a second fits in memory). */
#ifndef CUZK_UTIL_OVERLAP_H
#define CUZK_UTIL_OVERLAP_H
#include <stdbool.h>
#include <stdint.h>
#include "cuzk/status.h"

typedef struct {
    void *ctx;
    /* Makes item i into *item (NULL on error). Runs on the calling thread for item 0 and without overlap,
     * on a second thread otherwise, at the same time as use() of item i − 1. */
    cuzk_status (*make)(void *ctx, uint32_t i, void **item, cuzk_err_t *err);
    /* Uses item i (on the calling thread, in order). */
    cuzk_status (*use)(void *ctx, uint32_t i, void *item, cuzk_err_t *err);
    /* Frees an item (after its use, or unused after a failure); NULL items are not passed. */
    void (*drop)(void *ctx, void *item);
    /* Called once with item 0 before its use: true to make the next items while using the previous one.
     * NULL: never overlap. */
    bool (*overlap)(void *ctx, const void *first);
} cuzk_overlap_t;

/* Makes and uses items 0..n−1 in order. The first failure in item order is returned (a failed use of item
 * i wins over a failed make of item i + 1, which ran beside it) and nothing is made after it; every item
 * made is dropped. When the second thread cannot be started the item is made on the calling thread. */
cuzk_status cuzk_overlap_run(const cuzk_overlap_t *o, uint32_t n, cuzk_err_t *err);

#endif
