/* Cache blocking and threading of the transform. A DIF of 2^s elements is m radix-2 stages across
 * the whole segment (a "pass", done one column block at a time in a scratch copy that fits the L2
 * cache), followed by 2^m independent DIFs of 2^(s−m) elements; the recursion ends at blocks of
 * 2^NTT_BLOCK_LOG elements transformed in cache. The DIT runs the same steps in reverse order.
 * Threads share the column blocks of the top pass, then the independent segments below it. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "ntt/ntt_internal.h"
#include "util/parallel.h"

#define SCRATCH_N ((size_t)1 << NTT_SCRATCH_LOG)

cuzk_status ntt_plan_init_split(ntt_plan *p, unsigned k, int threads, unsigned block_log,
                                unsigned pass_max)
{
    memset(p, 0, sizeof *p);
    if (block_log < 1 || block_log > NTT_BLOCK_LOG || pass_max < 1)
        return CUZK_ERR_INVALID_ARG;
    p->k = k;
    p->threads = threads < 1 ? 1 : threads;
    unsigned s = k, lv = 0;
    /* Split the stages above the in-cache blocks evenly into as few passes as possible. */
    if (s > block_log) {
        const unsigned above = s - block_log;
        const unsigned passes = (above + pass_max - 1) / pass_max;
        if (passes > NTT_MAX_LEVELS)
            return CUZK_ERR_INVALID_ARG;
        while (s > block_log) {
            unsigned m = (above + passes - 1) / passes;
            if (m > s - block_log)
                m = s - block_log;
            const size_t S = (size_t)1 << (s - m), cols = SCRATCH_N >> m;
            p->s[lv] = s;
            p->m[lv] = m;
            p->cols[lv] = cols < S ? cols : S;
            s -= m;
            lv++;
        }
    }
    p->s[lv] = s;
    p->levels = lv;
    if (lv > 0 && !(p->roots = ntt_roots_get()))
        return CUZK_ERR_NO_MEMORY;
    /* No more threads than work items in either phase (each thread gets its own scratch). */
    size_t items = 1;
    if (lv > 0) {
        const size_t blocks = ((size_t)1 << (p->s[0] - p->m[0])) / p->cols[0];
        const size_t segs = (size_t)1 << p->m[0];
        items = blocks > segs ? blocks : segs;
    }
    if ((size_t)p->threads > items)
        p->threads = (int)items;
    void *buf = NULL;
    if (posix_memalign(&buf, 64, (size_t)p->threads * NTT_SCRATCH_BYTES) != 0)
        return CUZK_ERR_NO_MEMORY;
    p->scratch = buf;
    return CUZK_OK;
}

cuzk_status ntt_plan_init(ntt_plan *p, unsigned k, int threads)
{
    return ntt_plan_init_split(p, k, threads, NTT_BLOCK_LOG, NTT_PASS_MAX);
}

void ntt_plan_free(ntt_plan *p)
{
    free(p->scratch);
    p->scratch = NULL;
}

typedef struct {
    const ntt_kernels *kn;
    const ntt_plan *p;
    fr *a;
    int inv;
    const ntt_fin *fin;
    int phase; /* 0: the top pass, 1: the segments below it */
    size_t items, chunk; /* work items, and how many consecutive ones a thread claims at once */
    atomic_size_t next;
} exec_ctx;

/* A thread of the top pass claims runs of consecutive column blocks, so that it reads the rows
 * of the array in address order (and claims less often). */
#define TOP_PASS_RUN 8

static const ntt_fin fin_none = {NTT_FIN_NONE, {{0}}};

static void dif_seg(const exec_ctx *c, fr *seg, unsigned lv, void *scr)
{
    const ntt_plan *p = c->p;
    if (lv >= p->levels || lv >= NTT_MAX_LEVELS) {
        c->kn->dif_block(seg, p->s[lv], c->inv, c->fin, scr);
        return;
    }
    const unsigned s = p->s[lv], m = p->m[lv];
    const size_t S = (size_t)1 << (s - m), cols = p->cols[lv];
    for (size_t b = 0; b < S; b += cols)
        c->kn->dif_pass(seg, s, m, b, cols, p->roots, c->inv, scr);
    for (size_t j = 0; j < ((size_t)1 << m); j++)
        dif_seg(c, seg + j * S, lv + 1, scr);
}

static void dit_seg(const exec_ctx *c, fr *seg, unsigned lv, void *scr, const ntt_fin *fin)
{
    const ntt_plan *p = c->p;
    if (lv >= p->levels || lv >= NTT_MAX_LEVELS) {
        c->kn->dit_block(seg, p->s[lv], c->inv, fin, scr);
        return;
    }
    const unsigned s = p->s[lv], m = p->m[lv];
    const size_t S = (size_t)1 << (s - m), cols = p->cols[lv];
    for (size_t j = 0; j < ((size_t)1 << m); j++)
        dit_seg(c, seg + j * S, lv + 1, scr, &fin_none);
    for (size_t b = 0; b < S; b += cols)
        c->kn->dit_pass(seg, s, m, b, cols, p->roots, c->inv, scr, fin);
}

/* Phase 0 items are the column blocks of the top pass, phase 1 items the segments below it. */
static void dif_worker(void *arg, int tid, int nthreads)
{
    (void)nthreads;
    exec_ctx *c = arg;
    const ntt_plan *p = c->p;
    void *scr = p->scratch + (size_t)tid * NTT_SCRATCH_BYTES;
    const unsigned s = p->s[0], m = p->m[0];
    const size_t S = (size_t)1 << (s - m), cols = p->cols[0];
    for (;;) {
        const size_t i0 = atomic_fetch_add(&c->next, c->chunk);
        if (i0 >= c->items)
            return;
        const size_t i1 = i0 + c->chunk < c->items ? i0 + c->chunk : c->items;
        for (size_t i = i0; i < i1; i++)
            if (c->phase == 0)
                c->kn->dif_pass(c->a, s, m, i * cols, cols, p->roots, c->inv, scr);
            else
                dif_seg(c, c->a + i * S, 1, scr);
    }
}

static void dit_worker(void *arg, int tid, int nthreads)
{
    (void)nthreads;
    exec_ctx *c = arg;
    const ntt_plan *p = c->p;
    void *scr = p->scratch + (size_t)tid * NTT_SCRATCH_BYTES;
    const unsigned s = p->s[0], m = p->m[0];
    const size_t S = (size_t)1 << (s - m), cols = p->cols[0];
    for (;;) {
        const size_t i0 = atomic_fetch_add(&c->next, c->chunk);
        if (i0 >= c->items)
            return;
        const size_t i1 = i0 + c->chunk < c->items ? i0 + c->chunk : c->items;
        for (size_t i = i0; i < i1; i++)
            if (c->phase == 0)
                c->kn->dit_pass(c->a, s, m, i * cols, cols, p->roots, c->inv, scr, c->fin);
            else
                dit_seg(c, c->a + i * S, 1, scr, &fin_none);
    }
}

static void run_phase(exec_ctx *c, int phase, void (*worker)(void *, int, int))
{
    const ntt_plan *p = c->p;
    const unsigned s = p->s[0], m = p->m[0];
    c->phase = phase;
    c->items = phase == 0 ? ((size_t)1 << (s - m)) / p->cols[0] : (size_t)1 << m;
    int t = p->threads;
    /* runs only where every thread still gets many of them */
    c->chunk = phase == 0 && c->items >= (size_t)TOP_PASS_RUN * 16 * (size_t)t ? TOP_PASS_RUN : 1;
    atomic_store(&c->next, 0);
    if ((size_t)t > c->items)
        t = (int)c->items;
    cuzk_parallel_run(t, worker, c);
}

void ntt_dif(const ntt_kernels *kn, const ntt_plan *p, fr *a, int inv, const ntt_fin *fin)
{
    if (p->levels == 0) {
        kn->dif_block(a, p->k, inv, fin, p->scratch);
        return;
    }
    exec_ctx c = {.kn = kn, .p = p, .a = a, .inv = inv, .fin = fin};
    run_phase(&c, 0, dif_worker);
    run_phase(&c, 1, dif_worker);
}

void ntt_dit(const ntt_kernels *kn, const ntt_plan *p, fr *a, int inv, const ntt_fin *fin)
{
    if (p->levels == 0) {
        kn->dit_block(a, p->k, inv, fin, p->scratch);
        return;
    }
    exec_ctx c = {.kn = kn, .p = p, .a = a, .inv = inv, .fin = fin};
    run_phase(&c, 1, dit_worker);
    run_phase(&c, 0, dit_worker);
}
