/* Window size, point splitting and bucket mode for one MSM, from a cost model in field
 * multiplications whose constants were fitted to measurements (see the figures in docs/PERF.md).
 * Tasks are (window, point range) pairs taken dynamically by the threads. */
#include "msm/digits.h"
#include "msm/msm_internal.h"
#include "util/parallel.h"

/* Costs in field multiplications (of the group's field), measured on G1 at 2^16..2^20 points
 * (single thread, CPU time): a batch-affine add is 6 multiplications plus ~3.5 for the additions,
 * subtractions, digit recoding and memory traffic around them. */
#define COST_ADD_AFFINE 9.5   /* batch-affine bucket add, without the shared inversion */
#define COST_ADD_XYZZ 13.0    /* XYZZ mixed add into a bucket */
#define COST_INV 135.0        /* one field inversion */
#define COST_REDUCE 28.0      /* per bucket: madd into the running sum + add into the total */
#define COST_TASK 3000.0      /* per task: digit plan, final flush, scheduling */

#define AUTO_MAX_WINDOW 20

/* G1 buckets of more than this many bytes per thread (window 19 and up: 2^18 points of 96 bytes) no
 * longer stay in the last-level cache, and each add pays for its bucket's miss. Fitted to G1 2^24 on 2
 * threads (Zen 5): window 20, 13 windows, measured 5 % slower than window 17, 15 windows (9.9–10.1 s
 * against 9.4–9.6 s), that is 2 multiplications more per add. With the windows split evenly (digits.h) this
 * makes 14 windows (3 of 19 bits, 11 of 18) the choice at 2^24 on 2 threads, measured on the Xeon VM
 * against 15 of 17 at 0.947, 0.994 and 0.922 of their time (0.930 at 2^26), and 10 % faster than 13 (of 19
 * and 20 bits). G2 has not been measured: no penalty there. */
#define BUCKETS_CACHED_BYTES ((size_t)16 << 20)
#define COST_ADD_UNCACHED 2.0

/* Batch capacity: the batch's points, buckets and prefix products should stay in L2 (G2 elements
 * are twice as large; 1024 was 10% slower than 256 for G2). G1: 2048 rather than 1024 halves the
 * share of the kernel's one inversion per call, 5 % of its time on the Xeon, where that measured
 * 3.5 % faster at 2^20, 3 % at 2^22 and 2.5 % at 2^24 (docs/PERF.md); on the Zen 5 VM it had measured
 * the same at 2^24 and slower at 2^20. */
#define BATCH_MAX_G1 2048
#define BATCH_MAX_G2 256

static void fill_batch(msm_plan *p, int group)
{
    size_t k = (size_t)1 << (p->c - 1);
    /* Conflicts (bucket already in the batch) grow like batch/(2k): keep the batch <= k/4, and
     * <= k/8 from 4096 buckets on, where the batch's working set starts to cost more than its
     * inversion saves (G1 2^16 through GLV, c = 13, 1 thread: 146 ms with 1024, 139 with 512). */
    size_t b = k >= 4096 ? k / 8 : k / 4;
    size_t bmax = group == MSM_G2 ? BATCH_MAX_G2 : BATCH_MAX_G1;
    if (b > bmax)
        b = bmax;
    if (b < 16)
        b = 16;
    p->batch = b;
    p->queue = b / 2 > 32 ? b / 2 : 32;
    /* With few buckets the batch is small and its inversion is shared by too few adds. */
    p->affine = COST_ADD_AFFINE + COST_INV / (double)b < COST_ADD_XYZZ;
}

/* One task: its share of the points added into 2^(width−1) buckets, then their reduction. */
static double task_cost(const msm_plan *p, int group, size_t n, unsigned width)
{
    size_t k = (size_t)1 << (width - 1);
    double add = p->affine ? COST_ADD_AFFINE + COST_INV / (double)p->batch : COST_ADD_XYZZ;
    if (group == MSM_G1 && k * sizeof(cuzk_g1_affine_t) > BUCKETS_CACHED_BYTES)
        add += COST_ADD_UNCACHED;
    return (double)n / p->parts * add + (double)k * COST_REDUCE + COST_TASK;
}

/* The windows' combination is left out: one doubling per bit of the scalar, the same for every split. */
static double plan_cost(const msm_plan *p, int group, size_t n, int threads)
{
    /* The threads take the tasks in order, the wide windows' first: each round of `threads` tasks
     * lasts as long as its first. */
    double wide_task = task_cost(p, group, n, p->c + 1), task = task_cost(p, group, n, p->c);
    size_t tasks = (size_t)p->nwin * p->parts, wide_tasks = (size_t)p->wide * p->parts;
    double cost = 0;
    for (size_t t = 0; t < tasks; t += (size_t)threads)
        cost += t < wide_tasks ? wide_task : task;
    return cost;
}

msm_plan msm_make_plan(int group, size_t n, int threads, unsigned window, unsigned bits)
{
    if (threads < 1)
        threads = 1;
    msm_plan best = {0};
    double best_cost = 0;
    unsigned c_lo = 1, c_hi = AUTO_MAX_WINDOW;
    if (window) {
        c_lo = c_hi = window;
    }
    /* Each widest window w gives ⌈bits/w⌉ windows, split evenly (digits.h). */
    for (unsigned w = c_lo, last_nwin = 0; w <= c_hi; w++) {
        unsigned nwin = msm_windows_bits(w, bits);
        if (nwin == last_nwin)
            continue; /* the same split as a narrower w */
        last_nwin = nwin;
        for (unsigned parts = 1; parts <= 8; parts++) {
            if (parts > 1 && n / parts < 256)
                break;
            msm_plan p = {.c = bits / nwin, .nwin = nwin, .wide = bits % nwin, .parts = parts};
            fill_batch(&p, group);
            double cost = plan_cost(&p, group, n, threads);
            if (!best.c || cost < best_cost)
                best = p, best_cost = cost;
        }
    }
    return best;
}

unsigned cuzk_msm_g1_window(size_t n, int threads)
{
    msm_plan p = msm_make_plan(MSM_G1, n, threads > 0 ? threads : cuzk_cpu_count(), 0, MSM_BITS_FULL);
    return msm_plan_widest(&p);
}

unsigned cuzk_msm_g2_window(size_t n, int threads)
{
    msm_plan p = msm_make_plan(MSM_G2, n, threads > 0 ? threads : cuzk_cpu_count(), 0, MSM_BITS_FULL);
    return msm_plan_widest(&p);
}
