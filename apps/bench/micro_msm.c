/* Micro benchmarks of the multi-scalar multiplications: msm-g1, msm-g2 (random 255-bit scalars, or with
 * --scalars porep a PoRep partition's witness mix) and msm-g1-bits (random 0/1 scalars), over 2^log2
 * distinct points. Results are checked after timing:
 * against a run with another window, and against a naive sum (prefix, or all the ones for bits). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cuzk/msm.h"
#include "ec/ec.h"
#include "ff/fp.h"
#include "ff/fp2.h"
#include "msm/digits.h"
#include "msm/xyzz.h"
#include "util/bigmem.h"
#include "util/parallel.h"
#include "util/timer.h"

static uint64_t rng_state = 0x853c49e6748fea9bull;

static uint64_t rng64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, r) by rejection (top limb masked to r's 63 bits). */
static void rand_scalar(cuzk_scalar_t *k)
{
    static const uint64_t r[4] = {0xffffffff00000001u, 0x53bda402fffe5bfeu, 0x3339d80809a1d805u,
                                  0x73eda753299d7d48u};
    for (;;) {
        for (int i = 0; i < 4; i++)
            k->l[i] = rng64();
        k->l[3] &= 0x7fffffffffffffffu;
        for (int i = 3; i >= 0; i--) {
            if (k->l[i] < r[i])
                return;
            if (k->l[i] > r[i])
                break;
        }
    }
}

/* Bases P_i = S + i·Q (S, Q random), built by threads in blocks: XYZZ mixed additions, then one
 * batch inversion of ZZ·ZZZ per block (x = X·ZZZ/(ZZ·ZZZ), y = Y·ZZ/(ZZ·ZZZ)). They get huge pages,
 * as the prover's decoded keys do (src/groth16/params_file.c): the MSM is timed over memory like that. */
#define GEN_BLOCK 1024
#define DEFINE_GEN(G, FE)                                                                     \
    typedef struct {                                                                          \
        G##_aff *out;                                                                         \
        size_t n;                                                                             \
        G##_jac s;                                                                            \
        G##_aff q;                                                                            \
    } G##_gen_ctx;                                                                            \
    static void G##_gen_block(void *p, size_t begin, size_t end)                              \
    {                                                                                         \
        G##_gen_ctx *c = p;                                                                   \
        for (size_t b = begin; b < end; b++) {                                                \
            size_t lo = b * GEN_BLOCK, hi = lo + GEN_BLOCK < c->n ? lo + GEN_BLOCK : c->n;    \
            cuzk_scalar_t k = {{lo, 0, 0, 0}};                                                \
            G##_jac qj, start;                                                                \
            G##_jac_from_aff(&qj, &c->q);                                                     \
            G##_jac_mul(&start, &qj, &k);                                                     \
            G##_jac_add(&start, &start, &c->s);                                               \
            msm_##G##_xyzz *xs = malloc(sizeof *xs * GEN_BLOCK);                              \
            FE *d = malloc(sizeof *d * GEN_BLOCK);                                            \
            msm_##G##_xyzz_from_jac(&xs[0], &start);                                          \
            for (size_t i = 1; i < hi - lo; i++)                                              \
                msm_##G##_xyzz_madd(&xs[i], &xs[i - 1], &c->q, false);                        \
            for (size_t i = 0; i < hi - lo; i++)                                              \
                FE##_mul(&d[i], &xs[i].zz, &xs[i].zzz);                                       \
            FE##_batch_inv(d, d, hi - lo);                                                    \
            for (size_t i = 0; i < hi - lo; i++) {                                            \
                FE t;                                                                         \
                FE##_mul(&t, &d[i], &xs[i].zzz);                                              \
                FE##_mul(&c->out[lo + i].x, &xs[i].x, &t);                                    \
                FE##_mul(&t, &d[i], &xs[i].zz);                                               \
                FE##_mul(&c->out[lo + i].y, &xs[i].y, &t);                                    \
            }                                                                                 \
            free(xs);                                                                         \
            free(d);                                                                          \
        }                                                                                     \
    }                                                                                         \
    static G##_aff *G##_gen_bases(size_t n, int threads)                                      \
    {                                                                                         \
        G##_gen_ctx c = {.out = cuzk_big_malloc(sizeof(G##_aff) * n), .n = n};                \
        if (!c.out)                                                                           \
            return NULL;                                                                      \
        G##_aff g;                                                                            \
        G##_jac gj, qj;                                                                       \
        G##_generator(&g);                                                                    \
        G##_jac_from_aff(&gj, &g);                                                            \
        cuzk_scalar_t k;                                                                      \
        rand_scalar(&k);                                                                      \
        G##_jac_mul(&c.s, &gj, &k);                                                           \
        rand_scalar(&k);                                                                      \
        G##_jac_mul(&qj, &gj, &k);                                                            \
        G##_jac_to_aff(&c.q, &qj);                                                            \
        cuzk_parallel_for(threads, (n + GEN_BLOCK - 1) / GEN_BLOCK, 1, G##_gen_block, &c);    \
        return c.out;                                                                         \
    }
DEFINE_GEN(g1, fp)
DEFINE_GEN(g2, fp2)

typedef struct {
    int group;
    const void *bases;
    const cuzk_scalar_t *k;
    size_t n;
    cuzk_msm_opts opts;
    cuzk_g1_jac_t r1;
    cuzk_g2_jac_t r2;
    cuzk_status st;
} msm_ctx;

static void run_msm(void *p)
{
    msm_ctx *c = p;
    if (c->group == 1)
        c->st = cuzk_msm_g1(&c->r1, c->bases, c->k, c->n, &c->opts);
    else
        c->st = cuzk_msm_g2(&c->r2, c->bases, c->k, c->n, &c->opts);
}

/* PoRep's witness mix (--scalars porep), per million: the aux values a 32GiB partition's a (G1) and b (G2)
 * MSMs see, measured with `cuzk-bench synth-only --c1 <synthetic 32GiB C1> --partition 0 --scalar-mix`
 * (docs/PERF.md); the l MSM's (all aux: 1.31 % other) is close to the a MSM's. */
#define POREP_A_ZERO_PPM 515200 /* a: 51.52 % zero, 47.49 % one, 0.99 % other */
#define POREP_A_ONE_PPM 474900
#define POREP_B_ZERO_PPM 482600 /* b: 48.26 % zero, 48.03 % one, 3.71 % other */
#define POREP_B_ONE_PPM 480300
typedef struct {
    uint32_t zero, one; /* the rest are random 255-bit values */
} scalar_mix;
static const scalar_mix POREP_MIX_G1 = {POREP_A_ZERO_PPM, POREP_A_ONE_PPM};
static const scalar_mix POREP_MIX_G2 = {POREP_B_ZERO_PPM, POREP_B_ONE_PPM};

static void mix_scalar(cuzk_scalar_t *k, const scalar_mix *m)
{
    uint32_t u = (uint32_t)(rng64() % 1000000u);
    memset(k, 0, sizeof *k);
    if (u < m->zero)
        return;
    if (u < m->zero + m->one) {
        k->l[0] = 1;
        return;
    }
    rand_scalar(k);
}

static int bench_msm(const micro_args *a, int group, bool bits, const char *name)
{
    unsigned lg = a->log2_set ? a->log2 : 16;
    size_t n = (size_t)1 << lg;
    uint64_t t0 = cuzk_now_ns();
    void *bases = group == 1 ? (void *)g1_gen_bases(n, a->threads) : (void *)g2_gen_bases(n, a->threads);
    cuzk_scalar_t *k = malloc(sizeof *k * n);
    if (!bases || !k) {
        fprintf(stderr, "%s: out of memory\n", name);
        free(bases);
        free(k);
        return MICRO_ERROR;
    }
    for (size_t i = 0; i < n; i++) {
        if (bits) {
            memset(&k[i], 0, sizeof k[i]);
            k[i].l[0] = rng64() & 1;
        } else if (a->porep_mix) {
            mix_scalar(&k[i], group == 1 ? &POREP_MIX_G1 : &POREP_MIX_G2);
        } else {
            rand_scalar(&k[i]);
        }
    }
    double gen_s = (double)(cuzk_now_ns() - t0) * 1e-9;
    unsigned window = group == 1 ? cuzk_msm_g1_window(n, a->threads) : cuzk_msm_g2_window(n, a->threads);
    const scalar_mix *mix = group == 1 ? &POREP_MIX_G1 : &POREP_MIX_G2;
    printf("%s: n=2^%u, inputs generated in %.2fs, auto window %u%s%s", name, lg, gen_s, window,
           a->window ? " (overridden by --window)" : "", bits ? " (unused: all scalars are 0/1)" : "");
    if (a->porep_mix && !bits)
        printf(", PoRep scalar mix: zero %.2f%%, one %.2f%%, other %.2f%%", mix->zero / 1e4, mix->one / 1e4,
               (1e6 - mix->zero - mix->one) / 1e4);
    printf("\n");
    if (a->window)
        window = a->window;

    msm_ctx c = {.group = group, .bases = bases, .k = k, .n = n, .opts = {.threads = a->threads, .window = a->window}};
    bench_stats st = bench_time(a->iters, run_msm, &c);
    bench_print(name, a, st, (double)n, "points");
    int fail = c.st != CUZK_OK;
    cuzk_g1_jac_t r1 = c.r1;
    cuzk_g2_jac_t r2 = c.r2;

    /* Check 1: the same MSM with another digit and bucket layout: a window narrow enough to split the
     * scalars into more windows (msm_windows), or 2 after window 1. */
    t0 = cuzk_now_ns();
    msm_ctx d = c;
    unsigned other = window > 1 ? window - 1 : 2;
    while (other > 1 && msm_windows(other) == msm_windows(window))
        other--;
    d.opts.window = other;
    run_msm(&d);
    fail |= d.st != CUZK_OK;
    fail |= group == 1 ? !g1_jac_eq(&r1, &d.r1) : !g2_jac_eq(&r2, &d.r2);

    /* Check 2: a naive sum on a prefix (all of it for 0/1 scalars: then it is just additions). */
    size_t m = bits ? n : (n < 512 ? n : 512);
    msm_ctx e = c;
    e.n = m;
    e.opts.threads = 1;
    run_msm(&e);
    fail |= e.st != CUZK_OK;
    if (group == 1) {
        const g1_aff *b = bases;
        g1_jac acc, t, pj;
        g1_jac_set_inf(&acc);
        for (size_t i = 0; i < m; i++) {
            if (bits) {
                if (k[i].l[0])
                    g1_jac_add_aff(&acc, &acc, &b[i]);
                continue;
            }
            g1_jac_from_aff(&pj, &b[i]);
            g1_jac_mul(&t, &pj, &k[i]);
            g1_jac_add(&acc, &acc, &t);
        }
        fail |= !g1_jac_eq(&acc, &e.r1);
    } else {
        const g2_aff *b = bases;
        g2_jac acc, t, pj;
        g2_jac_set_inf(&acc);
        for (size_t i = 0; i < m; i++) {
            g2_jac_from_aff(&pj, &b[i]);
            g2_jac_mul(&t, &pj, &k[i]);
            g2_jac_add(&acc, &acc, &t);
        }
        fail |= !g2_jac_eq(&acc, &e.r2);
    }
    printf("%s: check %s (window %u run + naive sum of %zu points, %.2fs)\n", name,
           fail ? "FAILED" : "ok", d.opts.window, m, (double)(cuzk_now_ns() - t0) * 1e-9);
    free(bases);
    free(k);
    return fail ? MICRO_WRONG : MICRO_OK;
}

int micro_msm_g1(const micro_args *a) { return bench_msm(a, 1, false, "msm-g1"); }
int micro_msm_g2(const micro_args *a) { return bench_msm(a, 2, false, "msm-g2"); }
int micro_msm_g1_bits(const micro_args *a) { return bench_msm(a, 1, true, "msm-g1-bits"); }
