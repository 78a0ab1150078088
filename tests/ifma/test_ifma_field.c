/* 8-lane Fp/Fr kernels (src/ff/ifma) against GMP and the scalar fp/fr: every operation on random,
 * edge (0, 1, q-1, q, 2q-1) and maximal lazy-range inputs, with the limb and range invariants of
 * ifma.h checked on every output; the real AVX-512 build against the emulated one where it runs. */
#include <string.h>
#include "ff/fp.h"
#include "ff/fr.h"
#include "ifma_test.h"

#ifdef CUZK_SANITIZE
#define ITERS 40
#else
#define ITERS 300
#endif

typedef union { ifma_fp8 p; ifma_fr8 r; } lanes;

/* One field as the tests see it: fp8 (8 limbs, R' = 2^416) or fr8 (5 limbs, R' = 2^260). */
typedef struct {
    const char *name;
    int is_fr, limbs, rbits, sbits, words;
    mpz_t q, q2, q4, top;   /* q, 2q, 4q, 2^rbits */
    mpz_t rinv, sfac;       /* 2^-rbits and 2^sbits mod q */
    mpz_t mul_max;          /* the largest a with a·a < q·2^rbits */
} field;

static field FP, FR;
static const ifma_ops *ops; /* the build under test */

static void field_init(field *f, const char *name, int is_fr, const char *hex)
{
    f->name = name;
    f->is_fr = is_fr;
    f->limbs = is_fr ? 5 : 8;
    f->rbits = 52 * f->limbs;
    f->sbits = is_fr ? 256 : 384;
    f->words = is_fr ? 4 : 6;
    mpz_inits(f->q, f->q2, f->q4, f->top, f->rinv, f->sfac, f->mul_max, NULL);
    mpz_set_str(f->q, hex, 16);
    mpz_mul_2exp(f->q2, f->q, 1);
    mpz_mul_2exp(f->q4, f->q, 2);
    mpz_setbit(f->top, (mp_bitcnt_t)f->rbits);
    mpz_invert(f->rinv, f->top, f->q);
    mpz_set_ui(f->sfac, 1);
    mpz_mul_2exp(f->sfac, f->sfac, (mp_bitcnt_t)f->sbits);
    mpz_mod(f->sfac, f->sfac, f->q);
    mpz_mul(f->mul_max, f->q, f->top);
    mpz_sub_ui(f->mul_max, f->mul_max, 1);
    mpz_sqrt(f->mul_max, f->mul_max);
}

static uint64_t (*L(lanes *x, const field *f))[8] { return f->is_fr ? x->r.l : x->p.l; }
/* Whether two lane buffers of field f hold the same limbs. */
static int same(const field *f, lanes *a, lanes *b)
{
    return memcmp(L(a, f), L(b, f), sizeof(uint64_t[8]) * (size_t)f->limbs) == 0;
}

static void call_mul(const field *f, lanes *r, lanes *a, lanes *b)
{
    if (f->is_fr)
        ops->fr8_mul(&r->r, &a->r, &b->r);
    else
        ops->fp8_mul(&r->p, &a->p, &b->p);
}
static void call_sqr(const field *f, lanes *r, lanes *a)
{
    if (f->is_fr)
        ops->fr8_sqr(&r->r, &a->r);
    else
        ops->fp8_sqr(&r->p, &a->p);
}
static void call_add(const field *f, lanes *r, lanes *a, lanes *b)
{
    if (f->is_fr)
        ops->fr8_add(&r->r, &a->r, &b->r);
    else
        ops->fp8_add(&r->p, &a->p, &b->p);
}
static void call_sub(const field *f, lanes *r, lanes *a, lanes *b)
{
    if (f->is_fr)
        ops->fr8_sub(&r->r, &a->r, &b->r);
    else
        ops->fp8_sub(&r->p, &a->p, &b->p);
}
static void call_reduce(const field *f, lanes *r, lanes *a)
{
    if (f->is_fr)
        ops->fr8_reduce(&r->r, &a->r);
    else
        ops->fp8_reduce(&r->p, &a->p);
}

/* A value for lane i: an edge value for the first few iterations, then random below `bound`,
 * sometimes pushed to the top of that range. */
static void pick(mpz_t v, const field *f, const mpz_t bound, int iter, int lane)
{
    int e = iter * 8 + lane;
    switch (e < 64 ? e % 8 : -1) {
    case 0: mpz_set_ui(v, 0); break;
    case 1: mpz_set_ui(v, 1); break;
    case 2: mpz_sub_ui(v, f->q, 1); break;
    case 3: mpz_set(v, f->q); break;
    case 4: mpz_sub_ui(v, f->q2, 1); break;
    case 5: mpz_sub_ui(v, bound, 1); break;
    case 6: mpz_sub_ui(v, bound, 1 + test_rand_below(1000)); break;
    default:
        rand_below(v, bound);
        if (test_rand_below(8) == 0) { /* near the top of the allowed range */
            mpz_t d;
            mpz_init_set_ui(d, test_rand64());
            mpz_sub(v, bound, d);
            mpz_sub_ui(v, v, 1);
            mpz_clear(d);
        }
    }
    if (mpz_cmp(v, bound) >= 0) /* an edge value outside this operation's range */
        mpz_sub_ui(v, bound, 1);
    if (mpz_sgn(v) < 0)
        mpz_set_ui(v, 0);
}

/* Checks lane outputs: normalized, below `bound`, and congruent to `want` (or equal to it). */
static void check_lanes(const field *f, lanes *r, mpz_t want[8], const mpz_t bound, int exact, const char *what)
{
    mpz_t got, d;
    mpz_inits(got, d, NULL);
    CHECK_MSG(lanes_normalized(L(r, f), f->limbs), "%s %s: limb >= 2^52", f->name, what);
    for (int i = 0; i < 8; i++) {
        lane_get(got, L(r, f), f->limbs, i);
        CHECK_MSG(mpz_cmp(got, bound) < 0, "%s %s lane %d: out of range", f->name, what, i);
        mpz_sub(d, got, want[i]);
        if (!exact)
            mpz_mod(d, d, f->q);
        if (mpz_sgn(d) != 0)
            gmp_fprintf(stderr, "%s %s lane %d: got %Zx want %Zx\n", f->name, what, i, got, want[i]);
        CHECK_MSG(mpz_sgn(d) == 0, "%s %s lane %d: wrong value", f->name, what, i);
    }
    mpz_clears(got, d, NULL);
}

/* The paired products against the single ones, bit for bit: fp8_mul2 on (a, b) and (b, a·b), fp8_sqr2
 * on a and b, then with each output aliasing an input. */
static void check_pairs(const lanes *A, const lanes *B)
{
    ifma_fp8 ab, bab, aa, bb, r, s, x, y;
    ops->fp8_mul(&ab, &A->p, &B->p);
    ops->fp8_mul(&bab, &B->p, &ab);
    ops->fp8_mul2(&r, &A->p, &B->p, &s, &B->p, &ab);
    CHECK(memcmp(&r, &ab, sizeof r) == 0 && memcmp(&s, &bab, sizeof s) == 0);
    x = A->p, y = ab;
    ops->fp8_mul2(&x, &x, &B->p, &y, &B->p, &y);
    CHECK(memcmp(&x, &ab, sizeof x) == 0 && memcmp(&y, &bab, sizeof y) == 0);
    ops->fp8_sqr(&aa, &A->p);
    ops->fp8_sqr(&bb, &B->p);
    ops->fp8_sqr2(&r, &A->p, &s, &B->p);
    CHECK(memcmp(&r, &aa, sizeof r) == 0 && memcmp(&s, &bb, sizeof s) == 0);
    x = A->p, y = B->p;
    ops->fp8_sqr2(&y, &x, &x, &y); /* each output the other's input */
    CHECK(memcmp(&y, &aa, sizeof y) == 0 && memcmp(&x, &bb, sizeof x) == 0);
}

static void test_mul_sqr(const field *f)
{
    mpz_t a[8], b[8], w[8], bmax;
    mpz_init(bmax);
    for (int i = 0; i < 8; i++)
        mpz_inits(a[i], b[i], w[i], NULL);
    lanes A, B, R;
    for (int it = 0; it < ITERS; it++) {
        /* Two shapes of the precondition a·b < q·2^rbits: both up to mul_max, or b < q and a
         * anything that fits the limbs (the shape fp_mul_n/fr_mul_n use). */
        int lopsided = it % 2;
        for (int i = 0; i < 8; i++) {
            mpz_add_ui(bmax, f->mul_max, 1);
            pick(a[i], f, lopsided ? f->top : bmax, it, i);
            pick(b[i], f, lopsided ? f->q : bmax, it, (i + 5) % 8);
            lane_set(L(&A, f), f->limbs, i, a[i]);
            lane_set(L(&B, f), f->limbs, i, b[i]);
            mpz_mul(w[i], a[i], b[i]);
            mpz_mul(w[i], w[i], f->rinv);
        }
        call_mul(f, &R, &A, &B);
        check_lanes(f, &R, w, f->q2, 0, "mul");
        call_mul(f, &A, &A, &B); /* aliasing */
        CHECK(same(f, &A, &R));
        for (int i = 0; i < 8; i++) {
            mpz_mul(w[i], b[i], b[i]);
            mpz_mul(w[i], w[i], f->rinv);
        }
        if (!lopsided) {
            call_sqr(f, &R, &B);
            check_lanes(f, &R, w, f->q2, 0, "sqr");
            call_mul(f, &A, &B, &B);
            CHECK(same(f, &A, &R)); /* sqr and mul agree bit for bit */
        }
        if (!f->is_fr)
            check_pairs(&A, &B);
    }
    for (int i = 0; i < 8; i++)
        mpz_clears(a[i], b[i], w[i], NULL);
    mpz_clear(bmax);
}

static void test_add_sub_reduce(const field *f)
{
    mpz_t a[8], b[8], w[8];
    for (int i = 0; i < 8; i++)
        mpz_inits(a[i], b[i], w[i], NULL);
    lanes A, B, R;
    for (int it = 0; it < ITERS; it++) {
        for (int i = 0; i < 8; i++) {
            pick(a[i], f, f->q2, it, i);
            pick(b[i], f, f->q2, it, (i + 1) % 8);
            lane_set(L(&A, f), f->limbs, i, a[i]);
            lane_set(L(&B, f), f->limbs, i, b[i]);
        }
        for (int i = 0; i < 8; i++)
            mpz_add(w[i], a[i], b[i]);
        call_add(f, &R, &A, &B);
        check_lanes(f, &R, w, f->q2, 0, "add");
        for (int i = 0; i < 8; i++)
            mpz_sub(w[i], a[i], b[i]);
        call_sub(f, &R, &A, &B);
        check_lanes(f, &R, w, f->q2, 0, "sub");
        for (int i = 0; i < 8; i++)
            mpz_mod(w[i], a[i], f->q);
        call_reduce(f, &R, &A);
        check_lanes(f, &R, w, f->q, 1, "reduce");

        if (f->is_fr)
            continue;
        /* Lazy forms (Fp): exact results, up to the top of their ranges. */
        mpz_t lim;
        mpz_init(lim);
        for (int i = 0; i < 8; i++) {
            pick(a[i], f, f->top, it, i);
            mpz_sub(lim, f->top, a[i]);
            pick(b[i], f, lim, it, (i + 2) % 8); /* a + b < 2^416 */
            lane_set(A.p.l, 8, i, a[i]);
            lane_set(B.p.l, 8, i, b[i]);
            mpz_add(w[i], a[i], b[i]);
        }
        ops->fp8_add_lazy(&R.p, &A.p, &B.p);
        check_lanes(f, &R, w, f->top, 1, "add_lazy");
        for (int i = 0; i < 8; i++) {
            mpz_sub(lim, f->top, f->q4);
            pick(a[i], f, lim, it, i); /* a + 4p < 2^416 */
            mpz_add_ui(lim, f->q4, 1);
            pick(b[i], f, lim, it, (i + 3) % 8); /* b <= 4p */
            lane_set(A.p.l, 8, i, a[i]);
            lane_set(B.p.l, 8, i, b[i]);
            mpz_add(w[i], a[i], f->q4);
            mpz_sub(w[i], w[i], b[i]);
        }
        ops->fp8_sub_lazy(&R.p, &A.p, &B.p);
        check_lanes(f, &R, w, f->top, 1, "sub_lazy");
        mpz_clear(lim);
    }
    for (int i = 0; i < 8; i++)
        mpz_clears(a[i], b[i], w[i], NULL);
}

/* Scalar elements (fp/fr: Montgomery with 2^sbits, canonical words) for the conversion tests. */
typedef union { fp p[8]; fr r[8]; } scalars;
static uint64_t *S(scalars *s, const field *f, int i) { return f->is_fr ? s->r[i].l : s->p[i].l; }

static void call_from(const field *f, lanes *r, scalars *s)
{
    if (f->is_fr)
        ops->fr8_from_fr(&r->r, s->r);
    else
        ops->fp8_from_fp(&r->p, s->p);
}
static void call_to(const field *f, scalars *s, lanes *a)
{
    if (f->is_fr)
        ops->fr8_to_fr(s->r, &a->r);
    else
        ops->fp8_to_fp(s->p, &a->p);
}

static void test_conversions(const field *f)
{
    mpz_t v[8], w[8], t;
    mpz_init(t);
    for (int i = 0; i < 8; i++)
        mpz_inits(v[i], w[i], NULL);
    scalars s, s2;
    lanes A;
    for (int it = 0; it < ITERS; it++) {
        /* from: stored x (factor 2^sbits) -> V with V·2^-rbits = x·2^-sbits, V < 2q; back: x. */
        for (int i = 0; i < 8; i++) {
            pick(v[i], f, f->q, it, i);
            words_set(S(&s, f, i), f->words, v[i]);
            mpz_invert(t, f->sfac, f->q);
            mpz_mul(w[i], v[i], t);
            mpz_mul_2exp(w[i], w[i], (mp_bitcnt_t)f->rbits);
        }
        call_from(f, &A, &s);
        check_lanes(f, &A, w, f->q2, 0, "from_scalar");
        call_to(f, &s2, &A);
        CHECK_MSG(memcmp(S(&s, f, 0), S(&s2, f, 0), sizeof(uint64_t) * 8 * (size_t)f->words) == 0,
                  "%s: to(from(x)) != x", f->name);

        /* to: any normalized V -> canonical V·2^-rbits·2^sbits. */
        for (int i = 0; i < 8; i++) {
            pick(v[i], f, f->top, it, i);
            lane_set(L(&A, f), f->limbs, i, v[i]);
            mpz_mul(w[i], v[i], f->rinv);
            mpz_mul(w[i], w[i], f->sfac);
            mpz_mod(w[i], w[i], f->q);
        }
        call_to(f, &s, &A);
        for (int i = 0; i < 8; i++) {
            words_get(t, S(&s, f, i), f->words);
            CHECK_MSG(mpz_cmp(t, w[i]) == 0, "%s to_scalar lane %d", f->name, i);
        }
    }
    for (int i = 0; i < 8; i++)
        mpz_clears(v[i], w[i], NULL);
    mpz_clear(t);
}

static void rand_fp(fp *x, const field *f)
{
    mpz_t v;
    mpz_init(v);
    rand_below(v, f->q);
    words_set(x->l, 6, v);
    mpz_clear(v);
}
static void rand_fr(fr *x, const field *f)
{
    mpz_t v;
    mpz_init(v);
    rand_below(v, f->q);
    words_set(x->l, 4, v);
    mpz_clear(v);
}

/* The 8-lane ops agree with the scalar fp/fr ops through the conversions, and the batch products
 * with fp_mul/fr_mul, for every tail length and in place. */
static void test_against_scalar(void)
{
    enum { N = 67 };
    static fp a[N], b[N], r[N], want[N];
    static fr c[N], d[N], s[N], wantr[N];
    for (int i = 0; i < N; i++) {
        rand_fp(&a[i], &FP);
        rand_fp(&b[i], &FP);
        rand_fr(&c[i], &FR);
        rand_fr(&d[i], &FR);
    }
    a[0] = FP_ZERO, b[1] = FP_ONE, c[2] = FR_ZERO, d[3] = FR_ONE;
    for (int j = 0; j < 6; j++)
        a[4].l[j] = FP_MODULUS[j], b[5].l[j] = FP_MODULUS[j];
    a[4].l[0]--, b[5].l[0]--; /* p - 1 */
    for (int j = 0; j < 4; j++)
        c[6].l[j] = FR_MODULUS[j];
    c[6].l[0]--;

    ifma_fp8 x, y, z;
    ifma_fr8 xr, yr, zr;
    fp out[8];
    fr outr[8];
    for (int base = 0; base + 8 <= N; base += 8) {
        ops->fp8_from_fp(&x, a + base);
        ops->fp8_from_fp(&y, b + base);
        ops->fp8_mul(&z, &x, &y);
        ops->fp8_to_fp(out, &z);
        for (int i = 0; i < 8; i++) {
            fp_mul(&want[i], &a[base + i], &b[base + i]);
            CHECK_MSG(fp_eq(&out[i], &want[i]), "fp8_mul vs fp_mul, element %d", base + i);
        }
        ops->fp8_sqr(&z, &x);
        ops->fp8_to_fp(out, &z);
        for (int i = 0; i < 8; i++) {
            fp_sqr(&want[i], &a[base + i]);
            CHECK_MSG(fp_eq(&out[i], &want[i]), "fp8_sqr vs fp_sqr, element %d", base + i);
        }
        ops->fp8_add(&z, &x, &y);
        ops->fp8_to_fp(out, &z);
        for (int i = 0; i < 8; i++) {
            fp_add(&want[i], &a[base + i], &b[base + i]);
            CHECK_MSG(fp_eq(&out[i], &want[i]), "fp8_add vs fp_add, element %d", base + i);
        }
        ops->fp8_sub(&z, &x, &y);
        ops->fp8_to_fp(out, &z);
        for (int i = 0; i < 8; i++) {
            fp_sub(&want[i], &a[base + i], &b[base + i]);
            CHECK_MSG(fp_eq(&out[i], &want[i]), "fp8_sub vs fp_sub, element %d", base + i);
        }
        ops->fr8_from_fr(&xr, c + base);
        ops->fr8_from_fr(&yr, d + base);
        ops->fr8_mul(&zr, &xr, &yr);
        ops->fr8_to_fr(outr, &zr);
        for (int i = 0; i < 8; i++) {
            fr_mul(&wantr[i], &c[base + i], &d[base + i]);
            CHECK_MSG(fr_eq(&outr[i], &wantr[i]), "fr8_mul vs fr_mul, element %d", base + i);
        }
        ops->fr8_sub(&zr, &xr, &yr);
        ops->fr8_to_fr(outr, &zr);
        for (int i = 0; i < 8; i++) {
            fr_sub(&wantr[i], &c[base + i], &d[base + i]);
            CHECK_MSG(fr_eq(&outr[i], &wantr[i]), "fr8_sub vs fr_sub, element %d", base + i);
        }
    }

    static const size_t lens[] = {0, 1, 5, 8, 9, 23, N};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t n = lens[li];
        memset(r, 0xa5, sizeof r);
        ops->fp_mul_n(r, a, b, n);
        for (size_t i = 0; i < N; i++) {
            if (i < n) {
                fp_mul(&want[i], &a[i], &b[i]);
                CHECK_MSG(fp_eq(&r[i], &want[i]), "fp_mul_n n=%zu element %zu", n, i);
            } else {
                CHECK_MSG(r[i].l[0] == 0xa5a5a5a5a5a5a5a5ull, "fp_mul_n n=%zu wrote past n", n);
            }
        }
        memset(s, 0xa5, sizeof s);
        ops->fr_mul_n(s, c, d, n);
        for (size_t i = 0; i < N; i++) {
            if (i < n) {
                fr_mul(&wantr[i], &c[i], &d[i]);
                CHECK_MSG(fr_eq(&s[i], &wantr[i]), "fr_mul_n n=%zu element %zu", n, i);
            } else {
                CHECK_MSG(s[i].l[0] == 0xa5a5a5a5a5a5a5a5ull, "fr_mul_n n=%zu wrote past n", n);
            }
        }
    }
    /* In place. */
    memcpy(r, a, sizeof r);
    ops->fp_mul_n(r, r, b, N);
    memcpy(s, d, sizeof s);
    ops->fr_mul_n(s, c, s, N);
    for (int i = 0; i < N; i++) {
        fp_mul(&want[i], &a[i], &b[i]);
        fr_mul(&wantr[i], &c[i], &d[i]);
        CHECK(fp_eq(&r[i], &want[i]));
        CHECK(fr_eq(&s[i], &wantr[i]));
    }
}

/* The real build must equal the emulated one bit for bit, including the lazy-range outputs. */
static void test_real_vs_emulated(const ifma_ops *real)
{
    const ifma_ops *emu = &ifma_ops_emulated;
    ifma_fp8 a, b, r1, r2;
    ifma_fr8 c, d, s1, s2;
    for (int it = 0; it < ITERS; it++) {
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < 8; i++) {
                a.l[j][i] = test_rand64() >> 12;
                b.l[j][i] = test_rand64() >> 12;
            }
        a.l[7][0] = b.l[7][0] = 0; /* keep a·b < p·2^416 in some lanes, saturate others */
        for (int i = 0; i < 8; i++) /* below 2^17·p: mul's documented range */
            a.l[7][i] &= 0x3ffffffffull >> (it % 2), b.l[7][i] &= 0x3ffffffffull;
        emu->fp8_mul(&r1, &a, &b), real->fp8_mul(&r2, &a, &b);
        CHECK(memcmp(&r1, &r2, sizeof r1) == 0);
        emu->fp8_sqr(&r1, &a), real->fp8_sqr(&r2, &a);
        CHECK(memcmp(&r1, &r2, sizeof r1) == 0);
        ifma_fp8 q1, q2;
        emu->fp8_mul2(&r1, &a, &b, &q1, &b, &b), real->fp8_mul2(&r2, &a, &b, &q2, &b, &b);
        CHECK(memcmp(&r1, &r2, sizeof r1) == 0 && memcmp(&q1, &q2, sizeof q1) == 0);
        emu->fp8_sqr2(&r1, &a, &q1, &b), real->fp8_sqr2(&r2, &a, &q2, &b);
        CHECK(memcmp(&r1, &r2, sizeof r1) == 0 && memcmp(&q1, &q2, sizeof q1) == 0);
        emu->fp8_add_lazy(&r1, &a, &b), real->fp8_add_lazy(&r2, &a, &b);
        CHECK(memcmp(&r1, &r2, sizeof r1) == 0);
        emu->fp8_reduce(&r1, &a), real->fp8_reduce(&r2, &a);
        CHECK(memcmp(&r1, &r2, sizeof r1) == 0);
        emu->fp8_add(&r1, &a, &b), real->fp8_add(&r2, &a, &b);
        CHECK(memcmp(&r1, &r2, sizeof r1) == 0);
        emu->fp8_sub(&r1, &a, &b), real->fp8_sub(&r2, &a, &b);
        CHECK(memcmp(&r1, &r2, sizeof r1) == 0);
        emu->fp8_sub_lazy(&r1, &a, &b), real->fp8_sub_lazy(&r2, &a, &b);
        CHECK(memcmp(&r1, &r2, sizeof r1) == 0);
        fp o1[8], o2[8];
        emu->fp8_to_fp(o1, &a), real->fp8_to_fp(o2, &a);
        CHECK(memcmp(o1, o2, sizeof o1) == 0);
        emu->fp8_from_fp(&r1, o1), real->fp8_from_fp(&r2, o1);
        CHECK(memcmp(&r1, &r2, sizeof r1) == 0);

        for (int j = 0; j < 5; j++)
            for (int i = 0; i < 8; i++) {
                c.l[j][i] = j < 4 ? a.l[j][i] : a.l[j][i] & 0x1ffffffffffull; /* < 4r-ish */
                d.l[j][i] = j < 4 ? b.l[j][i] : b.l[j][i] & 0x1ffffffffffull;
            }
        emu->fr8_mul(&s1, &c, &d), real->fr8_mul(&s2, &c, &d);
        CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
        emu->fr8_sqr(&s1, &c), real->fr8_sqr(&s2, &c);
        CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
        emu->fr8_add(&s1, &c, &d), real->fr8_add(&s2, &c, &d);
        CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
        emu->fr8_sub(&s1, &c, &d), real->fr8_sub(&s2, &c, &d);
        CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
        emu->fr8_reduce(&s1, &c), real->fr8_reduce(&s2, &c);
        CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
    }
}

int main(void)
{
    test_init("test_ifma_field");
    field_init(&FP, "fp8", 0, P_HEX);
    field_init(&FR, "fr8", 1, R_HEX);
    /* The test's moduli are the library's. */
    mpz_t t;
    mpz_init(t);
    words_get(t, FP_MODULUS, 6);
    CHECK(mpz_cmp(t, FP.q) == 0);
    words_get(t, FR_MODULUS, 4);
    CHECK(mpz_cmp(t, FR.q) == 0);
    mpz_clear(t);

    const ifma_ops *impls[2];
    int n = ifma_test_impls(impls);
    for (int k = 0; k < n; k++) {
        ops = impls[k];
        printf("build: %s\n", ops->name);
        for (int fi = 0; fi < 2; fi++) {
            const field *f = fi ? &FR : &FP;
            test_mul_sqr(f);
            test_add_sub_reduce(f);
            test_conversions(f);
        }
        test_against_scalar();
    }
    if (n == 2)
        test_real_vs_emulated(impls[1]);
    return test_finish();
}
