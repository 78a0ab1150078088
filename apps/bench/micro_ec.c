/* Micro benchmarks of the curve arithmetic: `g1-add` times the mixed addition (Jacobian + affine) the
 * MSM buckets use, and, for context, full addition, doubling, G2 mixed addition, scalar multiplication
 * (generic, constant-time and endomorphism-based) and the subgroup test. Every result is checked against a scalar multiplication after timing. */
#include <stdio.h>
#include <stdlib.h>
#include "bench.h"
#include "ec/ec.h"
#include "ff/fr.h"

typedef struct {
    size_t n, reps;
    const g1_aff *pts;      /* pts[i] = (i + 1)·G */
    const g1_jac *jpts;
    const g2_aff *pts2;
    g1_jac acc;
    g2_jac acc2;
    bool ok;
} ctx_t;

static void run_madd(void *p)
{
    ctx_t *c = p;
    g1_jac acc;
    g1_jac_from_aff(&acc, &c->pts[0]);
    for (size_t r = 0; r < c->reps; r++)
        for (size_t i = 0; i < c->n; i++)
            g1_jac_add_aff(&acc, &acc, &c->pts[i]);
    c->acc = acc;
}

static void run_add(void *p)
{
    ctx_t *c = p;
    g1_jac acc = c->jpts[0];
    for (size_t r = 0; r < c->reps; r++)
        for (size_t i = 0; i < c->n; i++)
            g1_jac_add(&acc, &acc, &c->jpts[i]);
    c->acc = acc;
}

static void run_dbl(void *p)
{
    ctx_t *c = p;
    g1_jac acc = c->jpts[0];
    for (size_t r = 0; r < c->reps * c->n; r++)
        g1_jac_dbl(&acc, &acc);
    c->acc = acc;
}

static void run_madd2(void *p)
{
    ctx_t *c = p;
    g2_jac acc;
    g2_jac_from_aff(&acc, &c->pts2[0]);
    for (size_t r = 0; r < c->reps; r++)
        for (size_t i = 0; i < c->n; i++)
            g2_jac_add_aff(&acc, &acc, &c->pts2[i]);
    c->acc2 = acc;
}

/* 64 multiplications by a fixed 255-bit scalar, chained. */
static const cuzk_scalar_t mul_k = {{0x0123456789abcdefull, 0xfedcba9876543210ull,
                                     0x0f1e2d3c4b5a6978ull, 0x3a5a5a5a5a5a5a5aull}};
static void run_mul(void *p)
{
    ctx_t *c = p;
    g1_jac acc = c->jpts[0];
    for (int i = 0; i < 64; i++)
        g1_jac_mul(&acc, &acc, &mul_k);
    c->acc = acc;
}

static void run_mul_ct(void *p)
{
    ctx_t *c = p;
    g1_jac acc = c->jpts[0];
    for (int i = 0; i < 64; i++)
        g1_jac_mul_ct(&acc, &acc, &mul_k);
    c->acc = acc;
}

static void run_mul_endo(void *p)
{
    ctx_t *c = p;
    g1_jac acc = c->jpts[0];
    for (int i = 0; i < 64; i++)
        g1_jac_mul_endo(&acc, &acc, &mul_k);
    c->acc = acc;
}

static void run_mul2_endo(void *p)
{
    ctx_t *c = p;
    g2_jac acc;
    g2_jac_from_aff(&acc, &c->pts2[0]);
    for (int i = 0; i < 16; i++)
        g2_jac_mul_endo(&acc, &acc, &mul_k);
    c->acc2 = acc;
}

static void run_subgroup(void *p)
{
    ctx_t *c = p;
    bool ok = true;
    for (size_t i = 0; i < 256; i++)
        ok &= g1_aff_in_subgroup(&c->pts[i % c->n]);
    c->ok = ok;
}

/* acc == k·base for a 64-bit k */
static bool check1(const g1_jac *acc, const g1_jac *base, uint64_t k)
{
    g1_jac e;
    g1_jac_mul_limbs(&e, base, &k, 1);
    return g1_jac_eq(acc, &e);
}

int micro_g1_add(const micro_args *a)
{
    size_t n = (size_t)1 << (a->log2_set ? a->log2 : 10);
    size_t ops = (size_t)1 << 18;
    size_t reps = ops > n ? ops / n : 1;
    g1_aff *pts = malloc(n * sizeof *pts);
    g1_jac *jpts = malloc(n * sizeof *jpts);
    g2_aff *pts2 = malloc(n * sizeof *pts2);
    g2_jac *jpts2 = malloc(n * sizeof *jpts2);
    if (!pts || !jpts || !pts2 || !jpts2) {
        fprintf(stderr, "g1-add: out of memory\n");
        return MICRO_ERROR;
    }
    g1_aff g;
    g2_aff g2;
    g1_jac G;
    g2_jac G2;
    g1_generator(&g);
    g2_generator(&g2);
    g1_jac_from_aff(&G, &g);
    g2_jac_from_aff(&G2, &g2);
    jpts[0] = G;
    jpts2[0] = G2;
    for (size_t i = 1; i < n; i++) {
        g1_jac_add(&jpts[i], &jpts[i - 1], &G);
        g2_jac_add(&jpts2[i], &jpts2[i - 1], &G2);
    }
    g1_jac_batch_to_aff(pts, jpts, n);
    g2_jac_batch_to_aff(pts2, jpts2, n);

    ctx_t c = {.n = n, .reps = reps, .pts = pts, .jpts = jpts, .pts2 = pts2};
    int fail = 0;
    /* Σ_i (i+1)·G over n points, reps times, on top of the starting G */
    uint64_t total = 1 + (uint64_t)reps * (uint64_t)(n * (n + 1) / 2);
    bench_stats st;

    st = bench_time(a->iters, run_madd, &c);
    bench_print("g1-add", a, st, (double)(reps * n), NULL);
    fail |= !check1(&c.acc, &G, total);

    st = bench_time(a->iters, run_add, &c);
    bench_print("g1-add-full", a, st, (double)(reps * n), NULL);
    fail |= !check1(&c.acc, &G, total);

    st = bench_time(a->iters, run_dbl, &c);
    bench_print("g1-dbl", a, st, (double)(reps * n), NULL);
    {
        /* 2^(reps·n)·G, with the power of two reduced mod r in Fr */
        fr two, k;
        cuzk_scalar_t ks;
        uint64_t m = (uint64_t)(reps * n);
        fr_from_u64(&two, 2);
        fr_pow(&k, &two, &m, 1);
        fr_to_scalar(&ks, &k);
        g1_jac e;
        g1_jac_mul(&e, &G, &ks);
        fail |= !g1_jac_eq(&c.acc, &e);
    }

    st = bench_time(a->iters, run_madd2, &c);
    bench_print("g2-add", a, st, (double)(reps * n), NULL);
    {
        g2_jac e;
        g2_jac_mul_limbs(&e, &G2, &total, 1);
        fail |= !g2_jac_eq(&c.acc2, &e);
    }

    st = bench_time(a->iters, run_mul, &c);
    bench_print("g1-mul", a, st, 64, NULL);
    {
        /* mul_k^64 mod r by repeated multiplication in Fr */
        fr k, t;
        cuzk_scalar_t ks;
        fr_from_scalar(&k, &mul_k);
        t = k;
        for (int i = 1; i < 64; i++)
            fr_mul(&t, &t, &k);
        fr_to_scalar(&ks, &t);
        g1_jac e;
        g1_jac_mul_limbs(&e, &G, ks.l, 4);
        fail |= !g1_jac_eq(&c.acc, &e);
    }
    g1_jac mul_ref = c.acc;

    st = bench_time(a->iters, run_mul_ct, &c);
    bench_print("g1-mul-ct", a, st, 64, NULL);
    fail |= !g1_jac_eq(&c.acc, &mul_ref);

    st = bench_time(a->iters, run_mul_endo, &c);
    bench_print("g1-mul-endo", a, st, 64, NULL);
    fail |= !g1_jac_eq(&c.acc, &mul_ref);

    st = bench_time(a->iters, run_mul2_endo, &c);
    bench_print("g2-mul-endo", a, st, 16, NULL);
    {
        g2_jac e = G2;
        for (int i = 0; i < 16; i++)
            g2_jac_mul(&e, &e, &mul_k);
        fail |= !g2_jac_eq(&c.acc2, &e);
    }

    st = bench_time(a->iters, run_subgroup, &c);
    bench_print("g1-in-subgroup", a, st, 256, NULL);
    fail |= !c.ok;

    free(pts);
    free(jpts);
    free(pts2);
    free(jpts2);
    return fail ? MICRO_WRONG : MICRO_OK;
}
