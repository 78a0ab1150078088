/* In-place bit-reversal permutation of 2^k Fr elements, cache-blocked. An index splits into
 * (hi: Q bits, mid, lo: Q bits) and its reversal is (rev lo, rev mid, rev hi): the 2^Q × 2^Q tile
 * at a given mid (rows of 2^Q consecutive elements) swaps, transposed, with the tile at rev mid.
 * Both tiles are copied whole into a small buffer (2 × 8 KiB on the worker's stack; 32×32 tiles
 * measured no faster) and written back transposed, so that memory only sees full rows read and
 * written once; the rows of the next pair are prefetched meanwhile
 * (they are scattered over the array, far beyond what the hardware prefetcher follows). */
#include <string.h>
#include "ntt/ntt_internal.h"
#include "util/parallel.h"

#define Q 4
#define QN ((size_t)1 << Q)

static inline void swap_fr(fr *x, fr *y)
{
    fr t = *x;
    *x = *y;
    *y = t;
}

typedef struct {
    fr *a;
    unsigned k;
} bitrev_ctx;

/* The rows of the tile at mid into buf (row hi at buf[hi·QN]). */
static void tile_load(fr *buf, const fr *a, unsigned k, size_t mid)
{
    for (size_t hi = 0; hi < QN; hi++)
        memcpy(buf + hi * QN, a + (hi << (k - Q)) + (mid << Q), QN * sizeof(fr));
}

/* The tile at mid from the partner tile src (as loaded by tile_load): element (hi, lo) of the
 * destination is element (rev lo, rev hi) of the source. */
static void tile_store_transposed(fr *a, unsigned k, size_t mid, const fr *src)
{
    for (size_t hi = 0; hi < QN; hi++) {
        fr *row = a + (hi << (k - Q)) + (mid << Q);
        const size_t rhi = ntt_rev((uint32_t)hi, Q);
        for (size_t lo = 0; lo < QN; lo++)
            row[lo] = src[((size_t)ntt_rev((uint32_t)lo, Q) << Q) + rhi];
    }
}

static void tile_prefetch(const fr *a, unsigned k, size_t mid)
{
    for (size_t hi = 0; hi < QN; hi++)
        for (size_t l = 0; l < QN; l += 2)
            __builtin_prefetch(a + (hi << (k - Q)) + (mid << Q) + l, 1);
}

static void tiles(void *arg, size_t begin, size_t end)
{
    const bitrev_ctx *c = arg;
    const unsigned k = c->k, mb = k - 2 * Q;
    fr *a = c->a;
    fr buf[2][QN * QN] __attribute__((aligned(64)));
    /* The first pair this range owns, then always the next one ahead: pairs belong to the
     * smaller of mid and rev mid. */
    size_t mid = begin;
    while (mid < end && ntt_rev((uint32_t)mid, mb) < mid)
        mid++;
    while (mid < end) {
        const size_t rmid = ntt_rev((uint32_t)mid, mb);
        size_t next = mid + 1;
        while (next < end && ntt_rev((uint32_t)next, mb) < next)
            next++;
        if (next < end) {
            tile_prefetch(a, k, next);
            const size_t rnext = ntt_rev((uint32_t)next, mb);
            if (rnext != next)
                tile_prefetch(a, k, rnext);
        }
        tile_load(buf[0], a, k, mid);
        if (rmid != mid) {
            tile_load(buf[1], a, k, rmid);
            tile_store_transposed(a, k, mid, buf[1]);
            tile_store_transposed(a, k, rmid, buf[0]);
        } else {
            tile_store_transposed(a, k, mid, buf[0]);
        }
        mid = next;
    }
}

void ntt_bitrev(fr *a, unsigned k, int threads)
{
    if (k < 2 * Q + 2) {
        const size_t n = (size_t)1 << k;
        for (size_t i = 0; i < n; i++) {
            const size_t j = ntt_rev((uint32_t)i, k);
            if (i < j)
                swap_fr(&a[i], &a[j]);
        }
        return;
    }
    bitrev_ctx c = {a, k};
    cuzk_parallel_for(threads, (size_t)1 << (k - 2 * Q), 64, tiles, &c);
}
