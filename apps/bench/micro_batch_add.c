/* Micro benchmark `g1-batch-add`: the 8-lane batch-affine G1 addition that the MSM's buckets flush
 * through (g1_batch_add_skip of ec_ifma.h), alone. Each call adds 1,024 bases into 1,024 distinct
 * buckets in place, as a flush does; the buckets are drawn from 2^log2 of them (default 2^10: all in
 * cache; 2^16 spreads them over 6 MiB, a 2^24 MSM's window), and their lines are prefetched just
 * before the call, as the MSM's recoding loop does. A sample is 64 calls; the figure is per addition.
 * The sums of one more call are checked against the scalar point code afterwards. Where the dispatch
 * uses no lane kernel (no IFMA, or another --impl / CUZK_IMPL), it says so and times nothing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "ec/ec.h"
#include "ec/ifma/ec_ifma.h"

enum { BA_PAIRS = 1024, BA_CALLS = 64 };

typedef struct {
    const ec_ifma_ops *ops;
    g1_aff *buckets;        /* n of them */
    const g1_aff *bases;    /* BA_PAIRS */
    const uint32_t *order;  /* a permutation of the buckets: call j takes the next BA_PAIRS of it */
    size_t n, next;
    const g1_aff **p, **q;
    g1_aff **out;
    uint8_t *neg, *skipped;
    void *scratch;
    size_t skips;
} ba_ctx;

/* The pairs of the next call: distinct buckets (consecutive entries of the permutation), prefetched. */
static void ba_next_pairs(ba_ctx *c)
{
    for (size_t i = 0; i < BA_PAIRS; i++) {
        g1_aff *b = &c->buckets[c->order[(c->next + i) % c->n]];
        __builtin_prefetch(b);
        __builtin_prefetch((const char *)b + sizeof *b - 1);
        c->p[i] = c->out[i] = b;
        c->q[i] = &c->bases[i];
    }
    c->next = (c->next + BA_PAIRS) % c->n;
}

static void ba_run(void *p)
{
    ba_ctx *c = p;
    for (int j = 0; j < BA_CALLS; j++) {
        ba_next_pairs(c);
        c->skips += c->ops->g1_batch_add_skip(c->out, c->p, c->q, c->neg, BA_PAIRS, c->scratch, c->skipped);
    }
}

/* One more call, each sum checked against g1_jac_add; skipped pairs must be left as they were. */
static int ba_check(ba_ctx *c)
{
    ba_next_pairs(c);
    g1_aff *before = malloc(BA_PAIRS * sizeof *before);
    if (!before) {
        fprintf(stderr, "g1-batch-add: out of memory\n");
        return MICRO_ERROR;
    }
    for (size_t i = 0; i < BA_PAIRS; i++)
        before[i] = *c->p[i];
    c->ops->g1_batch_add_skip(c->out, c->p, c->q, c->neg, BA_PAIRS, c->scratch, c->skipped);
    int bad = 0;
    for (size_t i = 0; i < BA_PAIRS; i++) {
        g1_aff want = before[i];
        if (!c->skipped[i]) {
            g1_aff q = *c->q[i];
            if (c->neg[i])
                g1_aff_neg(&q, &q);
            g1_jac a, b;
            g1_jac_from_aff(&a, &before[i]);
            g1_jac_from_aff(&b, &q);
            g1_jac_add(&a, &a, &b);
            g1_jac_to_aff(&want, &a);
        }
        bad += !g1_aff_eq(c->out[i], &want);
    }
    free(before);
    if (bad)
        fprintf(stderr, "g1-batch-add: %d of %d sums wrong\n", bad, BA_PAIRS);
    return bad ? MICRO_WRONG : MICRO_OK;
}

int micro_g1_batch_add(const micro_args *a)
{
    unsigned lg = a->log2_set ? a->log2 : 10;
    if (lg < 10 || lg > 24)
        return micro_bad_arg("g1-batch-add: --log2 must be 10..24 (buckets; a call takes 2^10 distinct ones)");
    ba_ctx c = {.ops = ec_lanes(), .n = (size_t)1 << lg};
    if (!c.ops) { /* the dispatch's choice (CPU, --impl, CUZK_IMPL): nothing to time, nothing wrong */
        printf("g1-batch-add: no lane kernel in use (impl=%s; it needs AVX-512 IFMA): not timed\n",
               cuzk_impl_name(a->impl));
        return MICRO_OK;
    }
    g1_aff *bases = malloc(BA_PAIRS * sizeof *bases);
    g1_jac *jac = malloc(c.n * sizeof *jac);
    uint32_t *order = malloc(c.n * sizeof *order);
    c.buckets = aligned_alloc(64, c.n * sizeof *c.buckets);
    c.p = malloc(BA_PAIRS * sizeof *c.p);
    c.q = malloc(BA_PAIRS * sizeof *c.q);
    c.out = malloc(BA_PAIRS * sizeof *c.out);
    c.neg = malloc(BA_PAIRS);
    c.skipped = malloc(BA_PAIRS);
    c.scratch = malloc(ec_ifma_g1_batch_add_scratch_bytes(BA_PAIRS));
    int fail = MICRO_ERROR;
    if (!bases || !jac || !order || !c.buckets || !c.p || !c.q || !c.out || !c.neg || !c.skipped || !c.scratch) {
        fprintf(stderr, "g1-batch-add: out of memory\n");
        goto done;
    }
    /* Buckets (2^(i+2) - 1)·G, bases that last multiple doubled again and again: distinct x throughout. */
    g1_aff g;
    g1_jac G, acc;
    g1_generator(&g);
    g1_jac_from_aff(&G, &g);
    acc = G;
    for (size_t i = 0; i < c.n; i++) {
        g1_jac_dbl(&acc, &acc);
        g1_jac_add(&acc, &acc, &G);
        jac[i] = acc;
    }
    g1_jac_batch_to_aff(c.buckets, jac, c.n);
    for (size_t i = 0; i < BA_PAIRS; i++) {
        g1_jac_add(&acc, &acc, &acc);
        jac[i] = acc;
    }
    g1_jac_batch_to_aff(bases, jac, BA_PAIRS);
    c.bases = bases;
    /* A fixed shuffle, so that consecutive calls touch buckets all over the array. */
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < c.n; i++)
        order[i] = (uint32_t)i;
    for (size_t i = c.n; i-- > 1;) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        size_t j = (size_t)(s >> 33) % (i + 1);
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    c.order = order;
    for (size_t i = 0; i < BA_PAIRS; i++)
        c.neg[i] = (uint8_t)((i * 7 >> 2) & 1);

    bench_stats st = bench_time(a->iters, ba_run, &c);
    char what[64];
    snprintf(what, sizeof what, "g1-batch-add buckets=2^%u", lg);
    bench_print(what, a, st, (double)BA_CALLS * BA_PAIRS, NULL);
    if (c.skips)
        fprintf(stderr, "g1-batch-add: %zu pairs with equal x left out during timing\n", c.skips);
    fail = ba_check(&c);
done:
    free(bases), free(jac), free(order), free(c.buckets), free(c.p), free(c.q), free(c.out), free(c.neg);
    free(c.skipped), free(c.scratch);
    return fail;
}
