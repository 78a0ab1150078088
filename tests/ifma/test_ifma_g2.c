/* The batch-affine G2 addition kernel (ec_ifma_ops.g2_batch_add) against affine addition over Fp2 done in
 * GMP: every batch length around the 8-lane rows, negated Q, in-place outputs, edge points (dx with
 * one zero half, equal y, x = 0), the x1 == x2 refusal (nothing written), exact scratch size; real
 * build against emulated where it runs. */
#include <stdlib.h>
#include <string.h>
#include "ff/fp.h"
#include "ff/fp2.h"
#include "ifma_test.h"

#ifdef CUZK_SANITIZE
#define NPOINTS 200
#else
#define NPOINTS 800
#endif

static mpz_t P;

/* An Fp2 element in GMP: v[0] + v[1]·u. */
typedef mpz_t z2[2];

static void z2_init(z2 a) { mpz_inits(a[0], a[1], NULL); }
static void z2_clear(z2 a) { mpz_clears(a[0], a[1], NULL); }

static void z2_mod(z2 a)
{
    mpz_mod(a[0], a[0], P);
    mpz_mod(a[1], a[1], P);
}

static void z2_sub(z2 r, z2 a, z2 b)
{
    mpz_sub(r[0], a[0], b[0]);
    mpz_sub(r[1], a[1], b[1]);
    z2_mod(r);
}

/* r may alias a or b. */
static void z2_mul(z2 r, z2 a, z2 b)
{
    mpz_t t0, t1;
    mpz_inits(t0, t1, NULL);
    mpz_mul(t0, a[0], b[0]);
    mpz_submul(t0, a[1], b[1]);
    mpz_mul(t1, a[0], b[1]);
    mpz_addmul(t1, a[1], b[0]);
    mpz_set(r[0], t0);
    mpz_set(r[1], t1);
    z2_mod(r);
    mpz_clears(t0, t1, NULL);
}

/* 1/a = conj(a)/(a0² + a1²); a != 0. */
static void z2_inv(z2 r, z2 a)
{
    mpz_t n;
    mpz_init(n);
    mpz_mul(n, a[0], a[0]);
    mpz_addmul(n, a[1], a[1]);
    mpz_mod(n, n, P);
    CHECK(mpz_invert(n, n, P));
    mpz_mul(r[0], a[0], n);
    mpz_neg(r[1], a[1]);
    mpz_mul(r[1], r[1], n);
    z2_mod(r);
    mpz_clear(n);
}

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

static void z2_get(z2 v, const fp2 *a)
{
    fp_get(v[0], &a->c0);
    fp_get(v[1], &a->c1);
}

static void z2_put(fp2 *a, z2 v)
{
    fp_put(&a->c0, v[0]);
    fp_put(&a->c1, v[1]);
}

/* A point with the given x if x³ + 4(1 + u) is a square (any sign of y): not necessarily in the
 * prime-order subgroup, which the addition formulas do not care about. */
static int point_from_x(cuzk_g2_affine_t *pt, z2 x)
{
    z2_put(&pt->x, x);
    fp2 t, b;
    fp2_sqr(&t, &pt->x);
    fp2_mul(&t, &t, &pt->x);
    fp_from_u64(&b.c0, 4);
    fp_from_u64(&b.c1, 4);
    fp2_add(&t, &t, &b);
    if (!fp2_sqrt(&pt->y, &t))
        return 0;
    if (test_rand64() & 1)
        fp2_neg(&pt->y, &pt->y);
    return 1;
}

/* A random point; keep_c >= 0 fixes that half of x to the value of fix (else both random). */
static void random_point_with(cuzk_g2_affine_t *pt, int keep_c, const mpz_t fix)
{
    z2 x;
    z2_init(x);
    do {
        rand_below(x[0], P);
        rand_below(x[1], P);
        if (keep_c >= 0)
            mpz_set(x[keep_c], fix);
    } while (!point_from_x(pt, x));
    z2_clear(x);
}

static void random_point(cuzk_g2_affine_t *pt) { random_point_with(pt, -1, P); }

static int on_curve(const cuzk_g2_affine_t *pt)
{
    z2 x, y, l, r;
    z2_init(x), z2_init(y), z2_init(l), z2_init(r);
    z2_get(x, &pt->x);
    z2_get(y, &pt->y);
    z2_mul(l, y, y);
    z2_mul(r, x, x);
    z2_mul(r, r, x);
    mpz_add_ui(r[0], r[0], 4);
    mpz_add_ui(r[1], r[1], 4);
    z2_sub(l, l, r);
    int ok = mpz_sgn(l[0]) == 0 && mpz_sgn(l[1]) == 0;
    z2_clear(x), z2_clear(y), z2_clear(l), z2_clear(r);
    return ok;
}

/* The reference: affine P + (neg ? -Q : Q) for x(P) != x(Q), in GMP. */
static void ref_add(cuzk_g2_affine_t *r, const cuzk_g2_affine_t *p, const cuzk_g2_affine_t *q, int neg)
{
    z2 x1, y1, x2, y2, l, t, x3, y3;
    z2_init(x1), z2_init(y1), z2_init(x2), z2_init(y2);
    z2_init(l), z2_init(t), z2_init(x3), z2_init(y3);
    z2_get(x1, &p->x), z2_get(y1, &p->y), z2_get(x2, &q->x), z2_get(y2, &q->y);
    if (neg) {
        mpz_neg(y2[0], y2[0]);
        mpz_neg(y2[1], y2[1]);
        z2_mod(y2);
    }
    z2_sub(t, x2, x1);
    z2_inv(t, t);
    z2_sub(l, y2, y1);
    z2_mul(l, l, t);
    z2_mul(x3, l, l);
    z2_sub(x3, x3, x1);
    z2_sub(x3, x3, x2);
    z2_sub(y3, x1, x3);
    z2_mul(y3, y3, l);
    z2_sub(y3, y3, y1);
    z2_put(&r->x, x3);
    z2_put(&r->y, y3);
    z2_clear(x1), z2_clear(y1), z2_clear(x2), z2_clear(y2);
    z2_clear(l), z2_clear(t), z2_clear(x3), z2_clear(y3);
}

static int same_point(const cuzk_g2_affine_t *a, const cuzk_g2_affine_t *b)
{
    return memcmp(a, b, sizeof *a) == 0; /* canonical limbs: equal values are equal bytes */
}

static int same_x(const cuzk_g2_affine_t *a, const cuzk_g2_affine_t *b)
{
    return memcmp(&a->x, &b->x, sizeof a->x) == 0;
}

static cuzk_g2_affine_t pts[NPOINTS];

/* Runs one batch of n pairs drawn from pts and checks it. mode: 0 separate outputs, 1 out = p,
 * 2 out = q. The sums are copied to results (for the real-vs-emulated comparison). */
static void run_batch(const ec_ifma_ops *o, size_t n, int mode, int use_neg, cuzk_g2_affine_t *results)
{
    cuzk_g2_affine_t *P1 = malloc((n + 1) * sizeof *P1), *Q1 = malloc((n + 1) * sizeof *Q1);
    cuzk_g2_affine_t *R = malloc((n + 1) * sizeof *R), *want = malloc((n + 1) * sizeof *want);
    cuzk_g2_affine_t **out = malloc((n + 1) * sizeof *out);
    const cuzk_g2_affine_t **pp = malloc((n + 1) * sizeof *pp), **qq = malloc((n + 1) * sizeof *qq);
    uint8_t *neg = malloc(n + 1);
    for (size_t i = 0; i < n; i++) {
        size_t a = test_rand_below(NPOINTS), b;
        do
            b = test_rand_below(NPOINTS);
        while (same_x(&pts[a], &pts[b]));
        P1[i] = pts[a];
        Q1[i] = pts[b];
        neg[i] = (uint8_t)(use_neg ? test_rand_below(2) : 0);
        ref_add(&want[i], &P1[i], &Q1[i], neg[i]);
        pp[i] = &P1[i];
        qq[i] = &Q1[i];
        out[i] = mode == 0 ? &R[i] : mode == 1 ? &P1[i] : &Q1[i];
    }
    memset(R, 0x5a, (n + 1) * sizeof *R); /* R[n] is a sentinel past the end */
    /* Exactly the documented scratch size, deliberately misaligned; a guard byte after it. */
    size_t bytes = ec_ifma_g2_batch_add_scratch_bytes(n);
    uint8_t *scratch = malloc(bytes + 9);
    scratch[bytes + 8] = 0xa5;
    bool ok = o->g2_batch_add(out, pp, qq, use_neg ? neg : NULL, n, scratch + 8);
    CHECK_MSG(ok, "%s: batch of %zu refused", o->name, n);
    CHECK(scratch[bytes + 8] == 0xa5);
    unsigned long bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (!same_point(out[i], &want[i]) || !on_curve(out[i]))
            bad++;
        results[i] = *out[i];
    }
    CHECK_MSG(bad == 0, "%s: batch of %zu (mode %d, neg %d): %lu wrong sums", o->name, n, mode, use_neg, bad);
    cuzk_g2_affine_t sentinel;
    memset(&sentinel, 0x5a, sizeof sentinel);
    CHECK(same_point(&R[n], &sentinel));
    free(P1), free(Q1), free(R), free(want), free(out), free(pp), free(qq), free(neg), free(scratch);
}

/* Edge points: x = (0, c) and (c, 0), the largest x that gives a point, dx with a zero real or
 * imaginary half, equal y with different x (lambda = 0, or y2 = -y1 under negation), in full lanes
 * and in the padded last row. */
static void test_edges(const ec_ifma_ops *o)
{
    enum { NE = 8, N = 19 };
    cuzk_g2_affine_t e[NE], P1[N], Q1[N], R[N], want[N];
    mpz_t v;
    mpz_init_set_ui(v, 0);
    random_point_with(&e[0], 0, v); /* x = (0, c1) */
    random_point_with(&e[1], 1, v); /* x = (c0, 0) */
    {
        z2 x;
        z2_init(x);
        mpz_sub_ui(x[0], P, 1);
        mpz_sub_ui(x[1], P, 1);
        while (!point_from_x(&e[2], x))
            mpz_sub_ui(x[0], x[0], 1);
        z2_clear(x);
    }
    random_point(&e[3]);
    /* e[4]: same y as e[3], x times a primitive cube root of unity of Fp. */
    e[4] = e[3];
    {
        mpz_t w, t;
        mpz_inits(w, t, NULL);
        mpz_sub_ui(w, P, 1);
        mpz_divexact_ui(w, w, 3);
        mpz_set_ui(t, 2);
        mpz_powm(w, t, w, P);
        CHECK(mpz_cmp_ui(w, 1) != 0);
        z2 x;
        z2_init(x);
        z2_get(x, &e[3].x);
        mpz_mul(x[0], x[0], w);
        mpz_mul(x[1], x[1], w);
        z2_mod(x);
        z2_put(&e[4].x, x);
        z2_clear(x);
        mpz_clears(w, t, NULL);
    }
    /* e[5], e[6]: share the real / imaginary half of x with e[3] (dx = (0, d) and (d, 0)). */
    fp_get(v, &e[3].x.c0);
    random_point_with(&e[5], 0, v);
    fp_get(v, &e[3].x.c1);
    random_point_with(&e[6], 1, v);
    e[7] = e[0];
    fp2_neg(&e[7].y, &e[7].y); /* shares x with e[0]: never paired with it below */
    for (int i = 0; i < NE; i++)
        CHECK(on_curve(&e[i]));
    static const int pairs[N][2] = {{3, 4}, {3, 5}, {3, 6}, {5, 6}, {4, 5}, {0, 1}, {0, 2}, {1, 2},
                                    {7, 1}, {2, 3}, {6, 4}, {5, 3}, {4, 3}, {0, 3}, {7, 3}, {1, 6},
                                    {3, 4}, {6, 3}, {2, 7}};
    const cuzk_g2_affine_t *pp[N], *qq[N];
    cuzk_g2_affine_t *out[N];
    uint8_t neg[N];
    for (int i = 0; i < N; i++) {
        P1[i] = e[pairs[i][0]];
        Q1[i] = e[pairs[i][1]];
        CHECK(!same_x(&P1[i], &Q1[i]));
        neg[i] = (uint8_t)(i % 3 == 0);
        ref_add(&want[i], &P1[i], &Q1[i], neg[i]);
        pp[i] = &P1[i], qq[i] = &Q1[i], out[i] = &R[i];
    }
    uint8_t scratch[sizeof(ifma_fp8) * 5];
    CHECK(ec_ifma_g2_batch_add_scratch_bytes(N) <= sizeof scratch);
    CHECK(o->g2_batch_add(out, pp, qq, neg, N, scratch));
    for (int i = 0; i < N; i++)
        CHECK_MSG(same_point(&R[i], &want[i]), "%s: edge pair %d", o->name, i);
    mpz_clear(v);
}

/* A pair with x1 == x2 anywhere in the batch makes the kernel refuse and write nothing. */
static void test_refusal(const ec_ifma_ops *o)
{
    enum { N = 21 };
    cuzk_g2_affine_t P1[N], Q1[N], R[N], R0[N];
    const cuzk_g2_affine_t *pp[N], *qq[N];
    cuzk_g2_affine_t *out[N];
    static const size_t where[] = {0, 7, 8, 20};
    uint8_t scratch[sizeof(ifma_fp8) * 5];
    CHECK(ec_ifma_g2_batch_add_scratch_bytes(N) <= sizeof scratch);
    for (size_t w = 0; w < sizeof where / sizeof where[0]; w++) {
        for (int i = 0; i < N; i++) {
            P1[i] = pts[test_rand_below(NPOINTS)];
            do
                Q1[i] = pts[test_rand_below(NPOINTS)];
            while (same_x(&P1[i], &Q1[i]));
            pp[i] = &P1[i], qq[i] = &Q1[i], out[i] = &R[i];
        }
        Q1[where[w]] = P1[where[w]];
        if (w % 2) /* P + (-P) too */
            fp2_neg(&Q1[where[w]].y, &Q1[where[w]].y);
        memset(R, 0x77, sizeof R);
        memcpy(R0, R, sizeof R);
        CHECK_MSG(!o->g2_batch_add(out, pp, qq, NULL, N, scratch), "%s: x1 == x2 at %zu accepted",
                  o->name, where[w]);
        CHECK(memcmp(R, R0, sizeof R) == 0);
    }
}

static void test_scratch_size(void)
{
    /* (2·rows − 1) rows of 8 lanes × 8 limbs: the prefix products and the norms. */
    static const size_t n[] = {0, 1, 8, 9, 16, 17, 256};
    static const size_t want[] = {0, 512, 512, 1536, 1536, 2560, 63 * 512};
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
        CHECK_MSG(ec_ifma_g2_batch_add_scratch_bytes(n[i]) == want[i], "scratch for %zu", n[i]);
}

int main(void)
{
    test_init("test_ifma_g2");
    mpz_init_set_str(P, P_HEX, 16);
    for (int i = 0; i < NPOINTS; i++) {
        random_point(&pts[i]);
        CHECK(on_curve(&pts[i]));
    }
    /* Repeated inputs: some pairs share a point. */
    pts[1] = pts[0];
    test_scratch_size();

    static const size_t lens[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 64, 203, 601};
    enum { MAXN = 601 };
    static cuzk_g2_affine_t res[2][MAXN];
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
            test_init("test_ifma_g2 (replay)");
            run_batch(impls[k], MAXN, 0, 1, res[k]);
        }
        CHECK_MSG(memcmp(res[0], res[1], sizeof res[0]) == 0, "real and emulated batch sums differ");
        /* The IFMA implementation's point kernels (the dispatch table's entry) are the real build. */
        cuzk_init_options_t saved = cuzk_dispatch()->asked;
        CHECK(cuzk_dispatch_use(CUZK_IMPL_IFMA) == CUZK_OK);
        const ec_ifma_ops *in_use = ec_lanes();
        CHECK(in_use == ec_ifma_ops_real());
        enum { M = 37 };
        cuzk_g2_affine_t a[M], b[M], r[M], *out[M];
        const cuzk_g2_affine_t *pa[M], *pb[M];
        uint8_t scratch[sizeof(ifma_fp8) * 9];
        CHECK(ec_ifma_g2_batch_add_scratch_bytes(M) <= sizeof scratch);
        for (int i = 0; i < M; i++) {
            a[i] = pts[2 + i];
            b[i] = pts[NPOINTS - 1 - i];
            pa[i] = &a[i], pb[i] = &b[i], out[i] = &r[i];
        }
        CHECK(in_use && in_use->g2_batch_add(out, pa, pb, NULL, M, scratch));
        for (int i = 0; i < M; i++) {
            cuzk_g2_affine_t w;
            ref_add(&w, &a[i], &b[i], 0);
            CHECK_MSG(same_point(&r[i], &w), "g2_batch_add in use, pair %d", i);
        }
        CHECK(cuzk_dispatch_reinit(&saved, NULL) == CUZK_OK);
    }
    return test_finish();
}
