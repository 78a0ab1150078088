/* Micro benchmark of the pairing: `pairing` times one e(P, Q), then for context a Miller loop, a final
 * exponentiation and a multi-pairing of 4 (plain and with prepared G2 points), the verifier's shape.
 * Bilinearity e(a·P, b·Q) == e(ab·P, Q) is checked after timing. */
#include <stdio.h>
#include "bench.h"
#include "ec/ec.h"
#include "ec/pairing.h"

#define N_MULTI 4
#define PER_SAMPLE 20

typedef struct {
    g1_aff p[N_MULTI];
    g2_aff q[N_MULTI];
    g2_prepared prep[N_MULTI];
    fp12 f, out;
} ctx_t;

static void run_pairing(void *p)
{
    ctx_t *c = p;
    for (int i = 0; i < PER_SAMPLE; i++)
        pairing(&c->out, &c->p[0], &c->q[0]);
}

static void run_miller(void *p)
{
    ctx_t *c = p;
    for (int i = 0; i < PER_SAMPLE; i++)
        miller_loop(&c->f, c->p, c->q, 1);
}

static void run_final_exp(void *p)
{
    ctx_t *c = p;
    for (int i = 0; i < PER_SAMPLE; i++)
        final_exp(&c->out, &c->f);
}

static void run_multi(void *p)
{
    ctx_t *c = p;
    for (int i = 0; i < PER_SAMPLE; i++)
        multi_pairing(&c->out, c->p, c->q, N_MULTI);
}

static void run_multi_prepared(void *p)
{
    ctx_t *c = p;
    for (int i = 0; i < PER_SAMPLE; i++) {
        miller_loop_prepared(&c->f, c->p, c->prep, N_MULTI);
        final_exp(&c->out, &c->f);
    }
}

static void g1_times(g1_aff *r, uint64_t k)
{
    g1_aff g;
    g1_jac j;
    cuzk_scalar_t s = {{k}};
    g1_generator(&g);
    g1_jac_from_aff(&j, &g);
    g1_jac_mul(&j, &j, &s);
    g1_jac_to_aff(r, &j);
}

static void g2_times(g2_aff *r, uint64_t k)
{
    g2_aff g;
    g2_jac j;
    cuzk_scalar_t s = {{k}};
    g2_generator(&g);
    g2_jac_from_aff(&j, &g);
    g2_jac_mul(&j, &j, &s);
    g2_jac_to_aff(r, &j);
}

int micro_pairing(const micro_args *a)
{
    static ctx_t c;
    for (int i = 0; i < N_MULTI; i++) {
        g1_times(&c.p[i], 1000003u * (uint64_t)(i + 2));
        g2_times(&c.q[i], 7919u * (uint64_t)(i + 3));
        g2_prepare(&c.prep[i], &c.q[i]);
    }
    miller_loop(&c.f, c.p, c.q, 1);

    bench_print("pairing", a, bench_time(a->iters, run_pairing, &c), PER_SAMPLE, NULL);
    fp12 single = c.out;
    bench_print("pairing-miller-loop", a, bench_time(a->iters, run_miller, &c), PER_SAMPLE, NULL);
    bench_print("pairing-final-exp", a, bench_time(a->iters, run_final_exp, &c), PER_SAMPLE, NULL);
    bench_print("multi-pairing-4", a, bench_time(a->iters, run_multi, &c), PER_SAMPLE, NULL);
    fp12 multi = c.out;
    bench_print("multi-pairing-4-prepared", a, bench_time(a->iters, run_multi_prepared, &c),
                PER_SAMPLE, NULL);

    /* Checks: e(a·P, b·Q) with a = 2000006, b = 23757 against e(ab·P, G2); the prepared multi-pairing
     * equals the plain one. */
    g1_aff abp;
    g2_aff g2;
    fp12 want;
    g1_times(&abp, 2000006ull * 23757ull);
    g2_generator(&g2);
    pairing(&want, &abp, &g2);
    bool ok = fp12_eq(&single, &want) && fp12_eq(&multi, &c.out) && !fp12_is_one(&single);
    printf("pairing: check %s (bilinearity, prepared == plain multi-pairing)\n", ok ? "ok" : "FAILED");
    return ok ? MICRO_OK : MICRO_WRONG;
}
