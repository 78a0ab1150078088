/* The Pippenger driver, written once for G1 and G2 (see group_g1.h): tasks are (window, point range)
 * pairs plus slices of the scalars equal to 1; threads take tasks from a shared counter, so a slow
 * core simply takes fewer. Digits come from the scalars, or ready-made (msm_predigits, the GLV path).
 * Needs xyzz.h, bucket_tmpl.h, digits.h, recode.h. No include guard. */

typedef struct {
    const AFF *bases;
    const cuzk_scalar_t *scalars;
    const msm_split *sp;
    const msm_predigits *pre;
    msm_recode_fn *recode; /* the window digits (recode.h): in lanes with the lane kernels, else scalar */
    msm_plan pl;
    size_t n_win_tasks, n_one_tasks, ntasks;
    size_t one_chunk;   /* ones per ones-task */
    size_t one_slots;   /* partial sums per ones-task (sum_points) */
    GP(xyzz) *res;      /* one result per task */
    GP(ws) *ws;         /* one scratch per thread */
    atomic_size_t next;
} GP(job);

/* Partial sums of a ones-task: one inversion per this many additions. */
#define MSM_ONES_MAX_SLOTS 1024

#ifndef MSM_POINT_PREFETCH
#define MSM_POINT_PREFETCH 8
#endif
#ifndef MSM_PRE_BUCKET_PREFETCH
#define MSM_PRE_BUCKET_PREFETCH 16
#endif

/* Window `win` of the others [lo, hi) with digits recoded ahead (j->pre): no scalar is read, and
 * points at infinity already have digit 0. */
static void GP(run_window_pre)(GP(ws) *w, const GP(job) *j, unsigned win, size_t lo, size_t hi)
{
    const msm_predigits *pre = j->pre;
    const uint16_t *dg = pre->digits + (size_t)win * j->sp->n_others;
    const AFF *lo_b = j->bases, *hi_b = pre->bases_hi;
    size_t n_lo = pre->n_lo;
    for (size_t i = lo; i < hi; i++) {
        /* Consecutive points, prefetched all the same (unlike run_window's): at the GLV path's sizes, leaving
         * them to the hardware was 2.5 % slower at 2^16 and the same at 2^17 (docs/PERF.md). */
        if (i + MSM_POINT_PREFETCH < hi) {
            size_t f = i + MSM_POINT_PREFETCH;
            const AFF *fp = f < n_lo ? &lo_b[f] : &hi_b[f - n_lo];
            __builtin_prefetch(fp);
            __builtin_prefetch((const char *)fp + sizeof(AFF) - 1);
        }
        if (i + MSM_PRE_BUCKET_PREFETCH < hi) { /* the bucket's miss overlaps the adds before it */
            uint32_t vf = dg[i + MSM_PRE_BUCKET_PREFETCH];
            const AFF *bf = &w->bk[vf ? (vf >> 1) - 1 : 0];
            __builtin_prefetch(bf);
            __builtin_prefetch((const char *)bf + sizeof(AFF) - 1);
        }
        uint32_t v = dg[i];
        if (v == 0)
            continue;
        const AFF *p = i < n_lo ? &lo_b[i] : &hi_b[i - n_lo];
        GP(ba_add)(w, (v >> 1) - 1, p, v & 1);
        if (w->m == w->cap)
            GP(ba_full)(w);
    }
}

/* Adds the digits of window `win` for the others [lo, hi) into fresh buckets, reduces them. */
static void GP(run_window)(GP(ws) *w, const GP(job) *j, unsigned win, size_t lo, size_t hi,
                           GP(xyzz) *out)
{
    enum { BLK = 64 };
    size_t k = (size_t)1 << (msm_window_width(j->pl.c, j->pl.wide, win) - 1);
    GP(ws_reset)(w, k, j->pl.affine, j->pl.batch);
    if (j->pre) {
        GP(run_window_pre)(w, j, win, lo, hi);
        GP(ba_finish)(w);
        GP(bucket_reduce_any)(w, k, out);
        return;
    }
    msm_window mw;
    msm_window_init(&mw, j->pl.c, j->pl.wide, win);
    /* Points at infinity are dropped here, unless ba_add's path takes them: the kernel finds them itself
     * (x = 0 in its lanes) and the XYZZ spill adds them as infinity; then no point is read before its
     * batch (in profiles this test's loads were a sixth of the loop). */
    bool test_zero = true;
#ifdef GROUP_KERNEL_SKIP
    test_zero = w->kern == NULL;
#endif
    const uint32_t *sidx = j->sp->sidx, *bidx = j->sp->bidx;
    uint32_t eb[BLK], en[BLK], codes[BLK];
    const AFF *ep[BLK];
    for (size_t i = lo; i < hi;) {
        /* Recode a block first and prefetch its buckets, so that their cache misses overlap. */
        size_t m = hi - i < BLK ? hi - i : BLK, e = 0;
        /* The next block's scalars into L2: consecutive as they are, the hardware prefetcher left the
         * recoding waiting on them (Xeon, 2^24: about a third of the loop's samples after their loads). */
        if (!sidx && i + 2 * BLK <= hi)
            for (size_t b = 0; b < BLK * sizeof(cuzk_scalar_t); b += 64)
                __builtin_prefetch((const char *)&j->scalars[i + BLK] + b, 0, 2);
        j->recode(codes, j->scalars, sidx, i, m, &mw);
        for (size_t x = 0; x < m; x++, i++) {
            /* Points read through an index (scalars 0 and 1 left out) are scattered: fetched here, ahead of the
             * zero test or the kernel's gathers. Consecutive points are left to the hardware prefetcher:
             * fetching them here too was slower at 2^24 (docs/PERF.md). */
            if (bidx && i + MSM_POINT_PREFETCH < hi) {
                const AFF *f = &j->bases[bidx[i + MSM_POINT_PREFETCH]];
                __builtin_prefetch(f);
                __builtin_prefetch((const char *)f + sizeof(AFF) - 1);
            }
            uint32_t v = codes[x];
            if (v == 0)
                continue;
            const AFF *p = &j->bases[bidx ? bidx[i] : i];
            if (test_zero && GP(aff_is_zero_bytes)(p))
                continue;
            eb[e] = (v >> 1) - 1;
            en[e] = v & 1;
            ep[e] = p;
            if (j->pl.affine) { /* into L2 only: the kernel's row prefetch brings them into L1 */
                __builtin_prefetch(&w->bk[eb[e]], 0, 2);
                __builtin_prefetch((const char *)&w->bk[eb[e]] + sizeof(AFF) - 1, 0, 2);
            } else {
                __builtin_prefetch(&w->sp[eb[e]]);
            }
            e++;
        }
        for (size_t x = 0; x < e; x++) {
            GP(ba_add)(w, eb[x], ep[x], en[x]);
            if (w->m == w->cap)
                GP(ba_full)(w);
        }
    }
    GP(ba_finish)(w);
    GP(bucket_reduce_any)(w, k, out);
}

static void GP(worker)(void *ctx, int tid, int nthreads)
{
    (void)nthreads;
    GP(job) *j = ctx;
    GP(ws) *w = &j->ws[tid];
    for (;;) {
        size_t t = atomic_fetch_add(&j->next, 1);
        if (t >= j->ntasks)
            return;
        if (t < j->n_win_tasks) {
            unsigned win = (unsigned)(t / j->pl.parts), part = (unsigned)(t % j->pl.parts);
            size_t n = j->sp->n_others;
            size_t lo = n * part / j->pl.parts, hi = n * (part + 1) / j->pl.parts;
            GP(run_window)(w, j, win, lo, hi, &j->res[t]);
        } else {
            size_t o = t - j->n_win_tasks;
            size_t lo = o * j->one_chunk, hi = lo + j->one_chunk;
            if (hi > j->sp->n_ones)
                hi = j->sp->n_ones;
            GP(sum_points)(w, &j->res[t], j->bases, j->sp->ones + lo, hi - lo, j->one_slots);
        }
    }
}

cuzk_status GP(run)(JAC *out, const AFF *bases, const cuzk_scalar_t *scalars,
                    const msm_split *sp, int threads, unsigned window, unsigned bits,
                    const msm_predigits *pre)
{
    GP(job) j;
    memset(&j, 0, sizeof j);
    j.bases = bases;
    j.scalars = scalars;
    j.sp = sp;
    j.pre = pre;
    j.recode = GP(batch_kernel)() ? msm_recode_real() : NULL; /* the lanes go with the lane kernels */
    if (!j.recode)
        j.recode = msm_recode_scalar;
    if (threads < 1)
        threads = 1;
    size_t kmax = 16;
    if (sp->n_others > 0) {
        j.pl = pre ? pre->plan : msm_make_plan(GROUP_ID, sp->n_others, threads, window, bits);
        j.n_win_tasks = (size_t)j.pl.nwin * j.pl.parts;
        kmax = (size_t)1 << (msm_plan_widest(&j.pl) - 1);
    } else {
        j.pl = msm_make_plan(GROUP_ID, 1, threads, 1, bits);
    }
    if (sp->n_ones > 0) {
        size_t tasks = sp->n_ones / 8192;
        if (tasks > (size_t)threads * 2)
            tasks = (size_t)threads * 2;
        if (tasks < 1)
            tasks = 1;
        j.one_chunk = (sp->n_ones + tasks - 1) / tasks;
        j.n_one_tasks = (sp->n_ones + j.one_chunk - 1) / j.one_chunk;
        /* Enough partial sums that each takes ~16 points (the pairwise tree then costs ~1/16). */
        size_t slots = j.one_chunk / 16;
        if (slots > MSM_ONES_MAX_SLOTS)
            slots = MSM_ONES_MAX_SLOTS;
        if (slots < 16)
            slots = 16;
        j.one_slots = slots;
        if (kmax < slots)
            kmax = slots;
    }
    j.ntasks = j.n_win_tasks + j.n_one_tasks;
    if ((size_t)threads > j.ntasks)
        threads = j.ntasks ? (int)j.ntasks : 1;

    cuzk_status st = CUZK_OK;
    j.res = calloc(j.ntasks ? j.ntasks : 1, sizeof *j.res);
    j.ws = calloc((size_t)threads, sizeof *j.ws);
    if (!j.res || !j.ws) {
        st = CUZK_ERR_NO_MEMORY;
        goto done;
    }
    for (int t = 0; t < threads; t++)
        if (!GP(ws_init)(&j.ws[t], kmax, j.pl.batch > j.one_slots ? j.pl.batch : j.one_slots,
                         j.pl.queue, GP(batch_kernel)())) {
            st = CUZK_ERR_NO_MEMORY;
            goto done;
        }
    atomic_init(&j.next, 0);
    cuzk_parallel_run(threads, GP(worker), &j);

    /* Horner over the windows, top first: acc = 2^width·acc + window sum. */
    GP(xyzz) acc;
    GP(xyzz_set_inf)(&acc);
    for (unsigned win = j.pl.nwin; win-- > 0 && j.n_win_tasks;) {
        for (unsigned d = 0; d < msm_window_width(j.pl.c, j.pl.wide, win); d++)
            GP(xyzz_dbl)(&acc, &acc);
        for (unsigned p = 0; p < j.pl.parts; p++)
            GP(xyzz_add)(&acc, &acc, &j.res[(size_t)win * j.pl.parts + p]);
    }
    for (size_t o = 0; o < j.n_one_tasks; o++)
        GP(xyzz_add)(&acc, &acc, &j.res[j.n_win_tasks + o]);
    GP(xyzz_to_jac)(out, &acc);

done:
    if (j.ws)
        for (int t = 0; t < threads; t++)
            GP(ws_free)(&j.ws[t]);
    free(j.ws);
    free(j.res);
    return st;
}
