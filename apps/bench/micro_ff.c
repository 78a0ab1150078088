/* Micro benchmarks of the field arithmetic: fp-mul and fr-mul, a dependent chain of Montgomery
 * multiplications through the dispatched fp_mul / fr_mul (so --impl selects the code measured),
 * checked afterwards against the same chain computed by the portable implementation; fp-inv, the
 * constant-time and the variable-time inversion over the same elements, checked against each other. */
#include <stdio.h>
#include <stdlib.h>
#include "bench.h"
#include "ff/fp.h"
#include "ff/fr.h"
#include "ff/mont.h"

#define CHAIN 1000000

typedef struct {
    fp x, y;
} fp_ctx;

typedef struct {
    fr x, y;
} fr_ctx;

static void fp_chain(void *p)
{
    fp_ctx *c = p;
    fp x = c->x;
    for (int i = 0; i < CHAIN; i++)
        fp_mul(&x, &x, &c->y);
    c->x = x;
}

static void fr_chain(void *p)
{
    fr_ctx *c = p;
    fr x = c->x;
    for (int i = 0; i < CHAIN; i++)
        fr_mul(&x, &x, &c->y);
    c->x = x;
}

int micro_fp_mul(const micro_args *a)
{
    fp_ctx c;
    fp_from_u64(&c.x, 0x1234567890abcdefULL);
    fp_from_u64(&c.y, 0xfedcba0987654321ULL);
    fp_sqr(&c.y, &c.y); /* a full-width multiplier */
    fp_sqr(&c.y, &c.y);
    fp x0 = c.x;
    bench_stats st = bench_time(a->iters, fp_chain, &c);
    fp ref = x0;
    for (long i = 0; i < (long)a->iters * CHAIN; i++)
        fp_mul_portable(&ref, &ref, &c.y);
    bench_print("fp-mul", a, st, CHAIN, NULL);
    if (!fp_eq(&ref, &c.x)) {
        fprintf(stderr, "fp-mul: chain result differs from the portable implementation\n");
        return MICRO_WRONG;
    }
    return MICRO_OK;
}

int micro_fr_mul(const micro_args *a)
{
    fr_ctx c;
    fr_from_u64(&c.x, 0x1234567890abcdefULL);
    fr_from_u64(&c.y, 0xfedcba0987654321ULL);
    fr_sqr(&c.y, &c.y);
    fr_sqr(&c.y, &c.y);
    fr x0 = c.x;
    bench_stats st = bench_time(a->iters, fr_chain, &c);
    fr ref = x0;
    for (long i = 0; i < (long)a->iters * CHAIN; i++)
        fr_mul_portable(&ref, &ref, &c.y);
    bench_print("fr-mul", a, st, CHAIN, NULL);
    if (!fr_eq(&ref, &c.x)) {
        fprintf(stderr, "fr-mul: chain result differs from the portable implementation\n");
        return MICRO_WRONG;
    }
    return MICRO_OK;
}

#define INV_COUNT 10000

typedef struct {
    fp *in, *out;
    void (*inv)(fp *, const fp *);
} inv_ctx;

static void inv_all(void *p)
{
    inv_ctx *c = p;
    for (int i = 0; i < INV_COUNT; i++)
        c->inv(&c->out[i], &c->in[i]);
}

int micro_fp_inv(const micro_args *a)
{
    fp *in = malloc(sizeof *in * INV_COUNT), *ct = malloc(sizeof *ct * INV_COUNT),
       *vt = malloc(sizeof *vt * INV_COUNT);
    if (!in || !ct || !vt) {
        fprintf(stderr, "fp-inv: out of memory\n");
        free(in), free(ct), free(vt);
        return MICRO_ERROR;
    }
    fp x;
    fp_from_u64(&x, 0x243f6a8885a308d3ULL);
    for (int i = 0; i < INV_COUNT; i++) { /* x^(2^i): full-width, unstructured values */
        fp_sqr(&x, &x);
        in[i] = x;
    }
    inv_ctx c = {in, ct, fp_inv};
    bench_stats st = bench_time(a->iters, inv_all, &c);
    bench_print("fp-inv constant-time", a, st, INV_COUNT, NULL);
    c = (inv_ctx){in, vt, fp_inv_vartime};
    st = bench_time(a->iters, inv_all, &c);
    bench_print("fp-inv variable-time", a, st, INV_COUNT, NULL);
    int bad = 0;
    for (int i = 0; i < INV_COUNT; i++) {
        fp one;
        fp_mul(&one, &ct[i], &in[i]);
        bad += !fp_eq(&ct[i], &vt[i]) || !fp_eq(&one, &FP_ONE);
    }
    if (bad)
        fprintf(stderr, "fp-inv: %d inverses wrong or differing between the two\n", bad);
    free(in), free(ct), free(vt);
    return bad ? MICRO_WRONG : MICRO_OK;
}
