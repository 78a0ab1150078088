/* The batch-affine G1 addition kernel (ec_ifma_ops.g1_batch_add) against affine addition done in GMP:
 * every batch length around the 8-lane rows, negated Q, in-place outputs, edge points, the
 * x1 == x2 refusal (nothing written), exact scratch size; real build against emulated where it runs. */
#include <stdlib.h>
#include <string.h>
#include "ff/fp.h"
#include "ifma_test.h"

#ifdef CUZK_SANITIZE
#define NPOINTS 300
#else
#define NPOINTS 1200
#endif

static mpz_t P;

static void fp_get(mpz_t v, const fp *a)
{
    uint64_t w[FP_LIMBS];
    fp_from_mont(w, a);
    words_get(v, w, FP_LIMBS);
}

static void fp_put(fp *a, const mpz_t v)
{
    uint64_t w[FP_LIMBS];
    words_set(w, FP_LIMBS, v);
    fp_to_mont(a, w);
}

/* A point with the given x if x³ + 4 is a square (any sign of y): not necessarily in the
 * prime-order subgroup, which the addition formulas do not care about. */
static int point_from_x(cuzk_g1_affine_t *pt, const mpz_t x)
{
    fp_put(&pt->x, x);
    fp t, four;
    fp_sqr(&t, &pt->x);
    fp_mul(&t, &t, &pt->x);
    fp_from_u64(&four, 4);
    fp_add(&t, &t, &four);
    if (!fp_sqrt(&pt->y, &t))
        return 0;
    if (test_rand64() & 1)
        fp_neg(&pt->y, &pt->y);
    return 1;
}

static void random_point(cuzk_g1_affine_t *pt)
{
    mpz_t x;
    mpz_init(x);
    do
        rand_below(x, P);
    while (!point_from_x(pt, x));
    mpz_clear(x);
}

static int on_curve(const cuzk_g1_affine_t *pt)
{
    mpz_t x, y, t;
    mpz_inits(x, y, t, NULL);
    fp_get(x, &pt->x);
    fp_get(y, &pt->y);
    mpz_pow_ui(t, x, 3);
    mpz_add_ui(t, t, 4);
    mpz_submul(t, y, y);
    mpz_mod(t, t, P);
    int ok = mpz_sgn(t) == 0;
    mpz_clears(x, y, t, NULL);
    return ok;
}

/* The reference: affine P + (neg ? -Q : Q) for x(P) != x(Q), in GMP. */
static void ref_add(cuzk_g1_affine_t *r, const cuzk_g1_affine_t *p, const cuzk_g1_affine_t *q, int neg)
{
    mpz_t x1, y1, x2, y2, l, t, x3, y3;
    mpz_inits(x1, y1, x2, y2, l, t, x3, y3, NULL);
    fp_get(x1, &p->x), fp_get(y1, &p->y), fp_get(x2, &q->x), fp_get(y2, &q->y);
    if (neg)
        mpz_neg(y2, y2);
    mpz_sub(t, x2, x1);
    mpz_invert(t, t, P);
    mpz_sub(l, y2, y1);
    mpz_mul(l, l, t);
    mpz_mod(l, l, P);
    mpz_mul(x3, l, l);
    mpz_sub(x3, x3, x1);
    mpz_sub(x3, x3, x2);
    mpz_mod(x3, x3, P);
    mpz_sub(y3, x1, x3);
    mpz_mul(y3, y3, l);
    mpz_sub(y3, y3, y1);
    mpz_mod(y3, y3, P);
    fp_put(&r->x, x3);
    fp_put(&r->y, y3);
    mpz_clears(x1, y1, x2, y2, l, t, x3, y3, NULL);
}

static int same_point(const cuzk_g1_affine_t *a, const cuzk_g1_affine_t *b)
{
    return memcmp(a, b, sizeof *a) == 0; /* canonical limbs: equal values are equal bytes */
}

static cuzk_g1_affine_t pts[NPOINTS];

/* Runs one batch of n pairs drawn from pts and checks it. mode: 0 separate outputs, 1 out = p,
 * 2 out = q. The sums are copied to results (for the real-vs-emulated comparison). */
static void run_batch(const ec_ifma_ops *o, size_t n, int mode, int use_neg, cuzk_g1_affine_t *results)
{
    cuzk_g1_affine_t *P1 = malloc((n + 1) * sizeof *P1), *Q1 = malloc((n + 1) * sizeof *Q1);
    cuzk_g1_affine_t *R = malloc((n + 1) * sizeof *R), *want = malloc((n + 1) * sizeof *want);
    cuzk_g1_affine_t **out = malloc((n + 1) * sizeof *out);
    const cuzk_g1_affine_t **pp = malloc((n + 1) * sizeof *pp), **qq = malloc((n + 1) * sizeof *qq);
    uint8_t *neg = malloc(n + 1);
    for (size_t i = 0; i < n; i++) {
        size_t a = test_rand_below(NPOINTS), b;
        do
            b = test_rand_below(NPOINTS);
        while (memcmp(&pts[a].x, &pts[b].x, sizeof(fp)) == 0);
        P1[i] = pts[a];
        Q1[i] = pts[b];
        neg[i] = (uint8_t)(use_neg ? test_rand_below(2) : 0);
        ref_add(&want[i], &P1[i], &Q1[i], neg[i]);
        pp[i] = &P1[i];
        qq[i] = &Q1[i];
        out[i] = mode == 0 ? &R[i] : mode == 1 ? &P1[i] : &Q1[i];
    }
    memset(&R[n], 0x5a, sizeof R[n]); /* a sentinel past the end */
    memset(R, 0x5a, n * sizeof *R);
    /* Exactly the documented scratch size, deliberately misaligned. */
    size_t bytes = ec_ifma_g1_batch_add_scratch_bytes(n);
    uint8_t *scratch = malloc(bytes + 1);
    bool ok = o->g1_batch_add(out, pp, qq, use_neg ? neg : NULL, n, scratch + 1);
    CHECK_MSG(ok, "%s: batch of %zu refused", o->name, n);
    unsigned long bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (!same_point(out[i], &want[i]) || !on_curve(out[i]))
            bad++;
        results[i] = *out[i];
    }
    CHECK_MSG(bad == 0, "%s: batch of %zu (mode %d, neg %d): %lu wrong sums", o->name, n, mode, use_neg, bad);
    cuzk_g1_affine_t sentinel;
    memset(&sentinel, 0x5a, sizeof sentinel);
    CHECK(same_point(&R[n], &sentinel));
    free(P1), free(Q1), free(R), free(want), free(out), free(pp), free(qq), free(neg), free(scratch);
}

/* Edge points: x = 0 (y = ±2), the largest x that gives a point, equal y with different x
 * (lambda = 0 or y2 = -y1), in full lanes and in the padded last row. */
static void test_edges(const ec_ifma_ops *o)
{
    enum { N = 11 };
    cuzk_g1_affine_t e[4], P1[N], Q1[N], R[N], want[N];
    mpz_t x;
    mpz_init(x);
    mpz_set_ui(x, 0);
    CHECK(point_from_x(&e[0], x)); /* (0, ±2) */
    mpz_sub_ui(x, P, 1);
    while (!point_from_x(&e[1], x))
        mpz_sub_ui(x, x, 1);
    random_point(&e[2]);
    /* e[3]: same y as e[2], another x (a cube root of unity times x). */
    e[3] = e[2];
    {
        mpz_t w, xx;
        mpz_inits(w, xx, NULL);
        /* w = a primitive cube root of unity: 2^((p-1)/3) is one when it is not 1 */
        mpz_sub_ui(w, P, 1);
        mpz_divexact_ui(w, w, 3);
        mpz_set_ui(xx, 2);
        mpz_powm(w, xx, w, P);
        CHECK(mpz_cmp_ui(w, 1) != 0);
        fp_get(xx, &e[2].x);
        mpz_mul(xx, xx, w);
        mpz_mod(xx, xx, P);
        fp_put(&e[3].x, xx);
        mpz_clears(w, xx, NULL);
    }
    for (int i = 0; i < 4; i++)
        CHECK(on_curve(&e[i]));
    const cuzk_g1_affine_t *pp[N], *qq[N];
    cuzk_g1_affine_t *out[N];
    uint8_t neg[N];
    for (int i = 0; i < N; i++) {
        P1[i] = e[i % 4];
        Q1[i] = e[(i + 1 + i / 4) % 4];
        if (memcmp(&P1[i].x, &Q1[i].x, sizeof(fp)) == 0)
            Q1[i] = e[(i + 2) % 4];
        neg[i] = (uint8_t)(i % 3 == 0);
        ref_add(&want[i], &P1[i], &Q1[i], neg[i]);
        pp[i] = &P1[i], qq[i] = &Q1[i], out[i] = &R[i];
    }
    uint8_t *scratch = malloc(ec_ifma_g1_batch_add_scratch_bytes(N));
    CHECK(o->g1_batch_add(out, pp, qq, neg, N, scratch));
    for (int i = 0; i < N; i++)
        CHECK_MSG(same_point(&R[i], &want[i]), "%s: edge pair %d", o->name, i);
    free(scratch);
    mpz_clear(x);
}

/* A pair with x1 == x2 anywhere in the batch makes the kernel refuse and write nothing. */
static void test_refusal(const ec_ifma_ops *o)
{
    enum { N = 21 };
    cuzk_g1_affine_t P1[N], Q1[N], R[N], R0[N];
    const cuzk_g1_affine_t *pp[N], *qq[N];
    cuzk_g1_affine_t *out[N];
    static const size_t where[] = {0, 7, 8, 20};
    uint8_t *scratch = malloc(ec_ifma_g1_batch_add_scratch_bytes(N));
    for (size_t w = 0; w < sizeof where / sizeof where[0]; w++) {
        for (int i = 0; i < N; i++) {
            P1[i] = pts[test_rand_below(NPOINTS)];
            do
                Q1[i] = pts[test_rand_below(NPOINTS)];
            while (memcmp(&P1[i].x, &Q1[i].x, sizeof(fp)) == 0);
            pp[i] = &P1[i], qq[i] = &Q1[i], out[i] = &R[i];
        }
        Q1[where[w]] = P1[where[w]];
        if (w % 2) /* P + (-P) too */
            fp_neg(&Q1[where[w]].y, &Q1[where[w]].y);
        memset(R, 0x77, sizeof R);
        memcpy(R0, R, sizeof R);
        CHECK_MSG(!o->g1_batch_add(out, pp, qq, NULL, N, scratch), "%s: x1 == x2 at %zu accepted",
                  o->name, where[w]);
        CHECK(memcmp(R, R0, sizeof R) == 0);
    }
    free(scratch);
}

int main(void)
{
    test_init("test_ifma_g1");
    mpz_init_set_str(P, P_HEX, 16);
    for (int i = 0; i < NPOINTS; i++) {
        random_point(&pts[i]);
        CHECK(on_curve(&pts[i]));
    }
    /* Repeated inputs: some pairs share a point. */
    pts[1] = pts[0];

    static const size_t lens[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 33, 40, 64, 203, 1001};
    enum { MAXN = 1001 };
    static cuzk_g1_affine_t res[2][MAXN];
    const ec_ifma_ops *impls[2];
    int nimpl = ec_ifma_test_impls(impls);
    for (int k = 0; k < nimpl; k++) {
        printf("build: %s\n", impls[k]->name);
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
            for (int mode = 0; mode < 3; mode++)
                run_batch(impls[k], lens[li], mode, (int)(li + (size_t)mode) % 2, res[k]);
        test_edges(impls[k]);
        test_refusal(impls[k]);
    }
    if (nimpl == 2) {
        /* Same inputs through both builds: the PRNG is re-seeded with one value before each. */
        uint64_t seed = test_rand64();
        for (int k = 0; k < 2; k++) {
            char buf[32];
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)seed);
            setenv("CUZK_TEST_SEED", buf, 1);
            test_init("test_ifma_g1 (replay)");
            run_batch(impls[k], MAXN, 0, 1, res[k]);
        }
        CHECK_MSG(memcmp(res[0], res[1], sizeof res[0]) == 0, "real and emulated batch sums differ");
    }
    return test_finish();
}
