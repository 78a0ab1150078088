/* Micro benchmarks of the field arithmetic: fp-mul and fr-mul, a dependent chain of Montgomery
 * multiplications through the dispatched fp_mul / fr_mul (so --impl selects the code measured),
 * checked afterwards against the same chain computed by the portable implementation. */
#include <stdio.h>
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
        return 1;
    }
    return 0;
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
        return 1;
    }
    return 0;
}
