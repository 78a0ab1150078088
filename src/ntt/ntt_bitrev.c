/* In-place bit-reversal permutation of 2^k Fr elements, cache-blocked. An index splits into
 * (hi: Q bits, mid, lo: Q bits) and its reversal is (rev lo, rev mid, rev hi): the 2^Q × 2^Q tile
 * at a given mid (rows of 2^Q consecutive elements) swaps, transposed, with the tile at rev mid,
 * so both tiles stay in L1 while their elements are exchanged. */
#include "ntt/ntt_internal.h"
#include "util/parallel.h"

#define Q 4
#define QN (1u << Q)

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

static void tiles(void *arg, size_t begin, size_t end)
{
    const bitrev_ctx *c = arg;
    const unsigned k = c->k, mb = k - 2 * Q;
    fr *a = c->a;
    for (size_t mid = begin; mid < end; mid++) {
        const size_t rmid = ntt_rev((uint32_t)mid, mb);
        if (rmid < mid)
            continue; /* that pair of tiles belongs to rmid */
        /* The partner tile's rows are scattered over the array: ask for the next pair's rows
         * while this one is exchanged. */
        const size_t nmid = mid + 1, nrmid = ntt_rev((uint32_t)nmid, mb);
        if (nmid < end && nrmid >= nmid)
            for (size_t hi = 0; hi < QN; hi++)
                for (size_t l = 0; l < QN; l += 2) {
                    __builtin_prefetch(a + (hi << (k - Q)) + (nmid << Q) + l, 1);
                    __builtin_prefetch(a + (hi << (k - Q)) + (nrmid << Q) + l, 1);
                }
        for (size_t hi = 0; hi < QN; hi++) {
            fr *row = a + (hi << (k - Q)) + (mid << Q);
            const size_t rhi = ntt_rev((uint32_t)hi, Q);
            for (size_t lo = 0; lo < QN; lo++) {
                const size_t i = (hi << (k - Q)) | (mid << Q) | lo;
                const size_t j = ((size_t)ntt_rev((uint32_t)lo, Q) << (k - Q)) | (rmid << Q) | rhi;
                if (rmid != mid || i < j)
                    swap_fr(&row[lo], &a[j]);
            }
        }
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
