/* Tests of the optimal ate pairing (src/ec/pairing.c): against a textbook reference (affine Miller
 * loop on E(Fp12) with the untwisted G2 point, final exponentiation as one plain power computed with
 * GMP), and for the pairing's defining properties: bilinearity, non-degeneracy, order r,
 * multi-pairing = product, prepared = unprepared, points at infinity. */
#include <gmp.h>
#include <string.h>
#include "ec/ec.h"
#include "ec/pairing.h"
#include "ff/fr.h"
#include "test_util.h"

#define ATE_X 0xd201000000010000ULL

static fp12 fp12_zero(void)
{
    fp12 z;
    memset(&z, 0, sizeof z);
    return z;
}

/* Embeds an Fp element into Fp12. */
static fp12 fp12_of_fp(const fp *a)
{
    fp12 r = fp12_zero();
    r.c0.c0.c0 = *a;
    return r;
}

static fp12 fp12_of_fp2(const fp2 *a)
{
    fp12 r = fp12_zero();
    r.c0.c0 = *a;
    return r;
}

static void fp12_add_(fp12 *r, const fp12 *a, const fp12 *b)
{
    fp6_add(&r->c0, &a->c0, &b->c0);
    fp6_add(&r->c1, &a->c1, &b->c1);
}

static void fp12_sub_(fp12 *r, const fp12 *a, const fp12 *b)
{
    fp6_sub(&r->c0, &a->c0, &b->c0);
    fp6_sub(&r->c1, &a->c1, &b->c1);
}

/* ---- textbook reference ------------------------------------------------------------------- */

/* A point of E(Fp12): y² = x³ + 4. */
typedef struct { fp12 x, y; } e12;

/* The untwist E'(Fp2) → E(Fp12) of the M-type twist: (x, y) ↦ (x / w², y / w³). */
static e12 untwist(const g2_aff *Q)
{
    fp12 w = fp12_zero(), w2, w3, t;
    w.c1.c0 = FP2_ONE;
    fp12_mul(&w2, &w, &w);
    fp12_mul(&w3, &w2, &w);
    e12 r;
    fp12_inv(&w2, &w2);
    fp12_inv(&w3, &w3);
    t = fp12_of_fp2(&Q->x);
    fp12_mul(&r.x, &t, &w2);
    t = fp12_of_fp2(&Q->y);
    fp12_mul(&r.y, &t, &w3);
    return r;
}

/* f ← f · l_{T,S}(P) with l the line through T and S (the tangent when S = T), and T ← T + S.
 * Affine formulas with full Fp12 inversions; vertical lines are left out (the final
 * exponentiation removes them). */
static void ref_step(fp12 *f, e12 *T, const e12 *S, const fp12 *xp, const fp12 *yp)
{
    fp12 lam, num, den, t, x3, y3;
    if (fp12_eq(&T->x, &S->x)) {
        fp12_sqr(&t, &T->x);
        fp12_add_(&num, &t, &t);
        fp12_add_(&num, &num, &t);           /* 3x² */
        fp12_add_(&den, &T->y, &T->y);       /* 2y */
    } else {
        fp12_sub_(&num, &S->y, &T->y);
        fp12_sub_(&den, &S->x, &T->x);
    }
    fp12_inv(&den, &den);
    fp12_mul(&lam, &num, &den);
    /* l(P) = yP − yT − λ(xP − xT) */
    fp12_sub_(&t, xp, &T->x);
    fp12_mul(&t, &t, &lam);
    fp12 l;
    fp12_sub_(&l, yp, &T->y);
    fp12_sub_(&l, &l, &t);
    fp12_mul(f, f, &l);
    /* x3 = λ² − xT − xS, y3 = λ(xT − x3) − yT */
    fp12_sqr(&x3, &lam);
    fp12_sub_(&x3, &x3, &T->x);
    fp12_sub_(&x3, &x3, &S->x);
    fp12_sub_(&t, &T->x, &x3);
    fp12_mul(&y3, &lam, &t);
    fp12_sub_(&y3, &y3, &T->y);
    T->x = x3;
    T->y = y3;
}

/* f_{x,Q}(P) by double-and-add over |x|, inverted (conjugated) because x < 0. */
static void ref_miller(fp12 *out, const g1_aff *P, const g2_aff *Q)
{
    e12 q = untwist(Q), T = q;
    fp12 xp = fp12_of_fp(&P->x), yp = fp12_of_fp(&P->y), f = FP12_ONE;
    for (int i = 62; i >= 0; i--) {
        fp12_sqr(&f, &f);
        e12 t = T;
        ref_step(&f, &T, &t, &xp, &yp);
        if ((ATE_X >> i) & 1)
            ref_step(&f, &T, &q, &xp, &yp);
    }
    fp12_conj(out, &f);
}

/* The exponent 3·(p¹² − 1)/r as little-endian limbs. */
static uint64_t fe_exp[80];
static size_t fe_exp_limbs;

static void mpz_from_limbs(mpz_t r, const uint64_t *l, size_t n)
{
    mpz_import(r, n, -1, sizeof(uint64_t), 0, 0, l);
}

static void init_exponent(void)
{
    mpz_t p, r, e;
    mpz_inits(p, r, e, NULL);
    mpz_from_limbs(p, FP_MODULUS, FP_LIMBS);
    mpz_from_limbs(r, FR_MODULUS, FR_LIMBS);
    mpz_pow_ui(e, p, 12);
    mpz_sub_ui(e, e, 1);
    CHECK(mpz_divisible_p(e, r));
    mpz_divexact(e, e, r);
    mpz_mul_ui(e, e, 3);
    memset(fe_exp, 0, sizeof fe_exp);
    mpz_export(fe_exp, &fe_exp_limbs, -1, sizeof(uint64_t), 0, 0, e);
    mpz_clears(p, r, e, NULL);
}

static void ref_final_exp(fp12 *out, const fp12 *f) { fp12_pow(out, f, fe_exp, fe_exp_limbs); }

/* ---- random inputs ------------------------------------------------------------------------ */

static void rand_fp(fp *a)
{
    uint8_t b[48];
    do {
        test_rand_bytes(b, sizeof b);
        b[47] &= 0x1f;
    } while (!fp_from_bytes_le(a, b));
}

static void rand_fp12(fp12 *a)
{
    fp *c = (fp *)a;
    for (int i = 0; i < 12; i++)
        rand_fp(&c[i]);
}

static void g1_mul_gen(g1_aff *r, const fr *k)
{
    cuzk_scalar_t s;
    g1_aff g;
    g1_jac j;
    fr_to_scalar(&s, k);
    g1_generator(&g);
    g1_jac_from_aff(&j, &g);
    g1_jac_mul(&j, &j, &s);
    g1_jac_to_aff(r, &j);
}

static void g2_mul_gen(g2_aff *r, const fr *k)
{
    cuzk_scalar_t s;
    g2_aff g;
    g2_jac j;
    fr_to_scalar(&s, k);
    g2_generator(&g);
    g2_jac_from_aff(&j, &g);
    g2_jac_mul(&j, &j, &s);
    g2_jac_to_aff(r, &j);
}

static void rand_g1(g1_aff *r)
{
    fr k;
    test_rand_fr(&k);
    g1_mul_gen(r, &k);
}

static void rand_g2(g2_aff *r)
{
    fr k;
    test_rand_fr(&k);
    g2_mul_gen(r, &k);
}

static void fp12_pow_fr(fp12 *r, const fp12 *a, const fr *k)
{
    cuzk_scalar_t s;
    fr_to_scalar(&s, k);
    fp12_pow(r, a, s.l, 4);
}

/* ---- tests -------------------------------------------------------------------------------- */

static void test_final_exp_reference(void)
{
    for (int i = 0; i < 2; i++) {
        fp12 f, a, b;
        rand_fp12(&f);
        final_exp(&a, &f);
        ref_final_exp(&b, &f);
        CHECK(fp12_eq(&a, &b));
        fp12_pow(&b, &a, FR_MODULUS, FR_LIMBS);
        CHECK(fp12_is_one(&b));
    }
}

static void test_against_reference(void)
{
    g1_aff P, G1;
    g2_aff Q, G2;
    g1_generator(&G1);
    g2_generator(&G2);
    rand_g1(&P);
    rand_g2(&Q);
    const g1_aff *ps[2] = {&G1, &P};
    const g2_aff *qs[2] = {&G2, &Q};
    for (int i = 0; i < 2; i++) {
        fp12 a, b, m;
        pairing(&a, ps[i], qs[i]);
        ref_miller(&m, ps[i], qs[i]);
        ref_final_exp(&b, &m);
        CHECK_MSG(fp12_eq(&a, &b), "pair %d", i);
        /* The Miller loops differ by factors in proper subfields only: equal after exponentiation. */
        miller_loop(&m, ps[i], qs[i], 1);
        ref_final_exp(&b, &m);
        CHECK(fp12_eq(&a, &b));
    }
}

static void test_generator_properties(void)
{
    g1_aff P;
    g2_aff Q;
    fp12 e, t;
    g1_generator(&P);
    g2_generator(&Q);
    pairing(&e, &P, &Q);
    CHECK(!fp12_is_one(&e));
    fp12_pow(&t, &e, FR_MODULUS, FR_LIMBS);
    CHECK(fp12_is_one(&t));
    /* e(G1, G2) starts with the value every implementation publishes (c0.c0.c0). */
    uint8_t want[48], got[48];
    test_hex_decode("1250ebd871fc0a92a7b2d83168d0d727272d441befa15c503dd8e90ce98db3e7b6d194f60839c508a84305aaca1789b6",
                    want, sizeof want);
    fp_to_bytes_be(got, &e.c0.c0.c0);
    CHECK(memcmp(want, got, 48) == 0);
}

static void test_bilinearity(void)
{
    for (int it = 0; it < 2; it++) {
        fr a, b, ab;
        g1_aff P, aP, abP;
        g2_aff Q, bQ, abQ;
        g1_jac j;
        g2_jac k;
        cuzk_scalar_t s;
        rand_g1(&P);
        rand_g2(&Q);
        test_rand_fr(&a);
        test_rand_fr(&b);
        fr_mul(&ab, &a, &b);
        g1_jac_from_aff(&j, &P);
        fr_to_scalar(&s, &a);
        g1_jac_mul(&j, &j, &s);
        g1_jac_to_aff(&aP, &j);
        g1_jac_from_aff(&j, &P);
        fr_to_scalar(&s, &ab);
        g1_jac_mul(&j, &j, &s);
        g1_jac_to_aff(&abP, &j);
        g2_jac_from_aff(&k, &Q);
        fr_to_scalar(&s, &b);
        g2_jac_mul(&k, &k, &s);
        g2_jac_to_aff(&bQ, &k);
        g2_jac_from_aff(&k, &Q);
        fr_to_scalar(&s, &ab);
        g2_jac_mul(&k, &k, &s);
        g2_jac_to_aff(&abQ, &k);

        fp12 e, e1, e2, e3, e4;
        pairing(&e, &P, &Q);
        pairing(&e1, &aP, &bQ);
        fp12_pow_fr(&e2, &e, &ab);
        pairing(&e3, &abP, &Q);
        pairing(&e4, &P, &abQ);
        CHECK(fp12_eq(&e1, &e2));
        CHECK(fp12_eq(&e1, &e3));
        CHECK(fp12_eq(&e1, &e4));
        /* e(P1 + P2, Q) = e(P1, Q)·e(P2, Q) */
        g1_aff P2, S;
        rand_g1(&P2);
        g1_jac_from_aff(&j, &P);
        g1_jac_add_aff(&j, &j, &P2);
        g1_jac_to_aff(&S, &j);
        pairing(&e1, &S, &Q);
        pairing(&e2, &P2, &Q);
        fp12_mul(&e2, &e2, &e);
        CHECK(fp12_eq(&e1, &e2));
    }
}

static void test_negation_and_infinity(void)
{
    g1_aff P, nP, O1;
    g2_aff Q, nQ, O2;
    fp12 e, f, t;
    rand_g1(&P);
    rand_g2(&Q);
    g1_aff_neg(&nP, &P);
    g2_aff_neg(&nQ, &Q);
    g1_aff_set_inf(&O1);
    g2_aff_set_inf(&O2);
    pairing(&e, &P, &Q);
    pairing(&f, &nP, &Q);
    fp12_mul(&t, &e, &f);
    CHECK(fp12_is_one(&t));
    pairing(&f, &P, &nQ);
    fp12_mul(&t, &e, &f);
    CHECK(fp12_is_one(&t));
    fp12_conj(&t, &e);   /* the inverse in GT */
    CHECK(fp12_eq(&t, &f));
    pairing(&t, &nP, &nQ);
    CHECK(fp12_eq(&t, &e));

    pairing(&t, &O1, &Q);
    CHECK(fp12_is_one(&t));
    pairing(&t, &P, &O2);
    CHECK(fp12_is_one(&t));
    pairing(&t, &O1, &O2);
    CHECK(fp12_is_one(&t));
    multi_pairing(&t, NULL, NULL, 0);
    CHECK(fp12_is_one(&t));
    miller_loop(&t, NULL, NULL, 0);
    CHECK(fp12_is_one(&t));

    g1_aff ps[4] = {P, O1, nP, P};
    g2_aff qs[4] = {Q, Q, Q, O2};
    CHECK(multi_pairing_is_one(ps, qs, 4));
    ps[2] = P;
    CHECK(!multi_pairing_is_one(ps, qs, 4));
    multi_pairing(&t, ps, qs, 4);
    fp12_sqr(&f, &e);
    CHECK(fp12_eq(&t, &f));

    g2_prepared pq[4];
    for (int i = 0; i < 4; i++)
        g2_prepare(&pq[i], &qs[i]);
    miller_loop_prepared(&t, ps, pq, 4);
    final_exp(&t, &t);
    CHECK(fp12_eq(&t, &f));
}

/* n random pairs with some points at infinity: multi-pairing, the prepared form and the split
 * miller_loop + final_exp all equal the product of single pairings. */
static void test_multi(size_t n)
{
    g1_aff ps[24] = {0}; /* initialised: n may be 0 */
    g2_aff qs[24] = {0};
    static g2_prepared pq[24];
    fp12 prod = FP12_ONE, e, t;
    for (size_t i = 0; i < n; i++) {
        rand_g1(&ps[i]);
        rand_g2(&qs[i]);
        if (n > 3 && i == 1)
            g1_aff_set_inf(&ps[i]);
        if (n > 3 && i == 2)
            g2_aff_set_inf(&qs[i]);
        pairing(&e, &ps[i], &qs[i]);
        fp12_mul(&prod, &prod, &e);
        g2_prepare(&pq[i], &qs[i]);
    }
    multi_pairing(&t, ps, qs, n);
    CHECK_MSG(fp12_eq(&t, &prod), "n=%zu", n);
    miller_loop_prepared(&t, ps, pq, n);
    if (n <= 16) {
        /* Same lines, same field: the raw Miller values agree exactly, not only after exponentiation. */
        fp12 raw;
        miller_loop(&raw, ps, qs, n);
        CHECK_MSG(fp12_eq(&t, &raw), "raw prepared n=%zu", n);
    }
    final_exp(&t, &t);
    CHECK_MSG(fp12_eq(&t, &prod), "prepared n=%zu", n);
    /* Miller loops of two halves multiply into the Miller loop of the whole. */
    fp12 m1, m2;
    miller_loop(&m1, ps, qs, n / 2);
    miller_loop(&m2, ps + n / 2, qs + n / 2, n - n / 2);
    fp12_mul(&m1, &m1, &m2);
    final_exp(&t, &m1);
    CHECK_MSG(fp12_eq(&t, &prod), "split n=%zu", n);
}

/* A Groth16-shaped check: e(A, B) = e(α, β)·e(C, δ) with everything derived from known scalars. */
static void test_verifier_shape(void)
{
    fr a, b, al, be, c, d, t;
    test_rand_fr(&al);
    test_rand_fr(&be);
    test_rand_fr(&c);
    test_rand_fr(&d);
    test_rand_fr(&a);
    /* a·b = α·β + c·δ  →  b = (αβ + cδ)/a */
    fr_mul(&t, &al, &be);
    fr_mul(&b, &c, &d);
    fr_add(&t, &t, &b);
    fr_inv(&b, &a);
    fr_mul(&b, &b, &t);
    g1_aff ps[3];
    g2_aff qs[3];
    g1_mul_gen(&ps[0], &a);
    g2_mul_gen(&qs[0], &b);
    g1_mul_gen(&ps[1], &al);
    g1_aff_neg(&ps[1], &ps[1]);
    g2_mul_gen(&qs[1], &be);
    g1_mul_gen(&ps[2], &c);
    g1_aff_neg(&ps[2], &ps[2]);
    g2_mul_gen(&qs[2], &d);
    CHECK(multi_pairing_is_one(ps, qs, 3));
    g2_prepared pq[3];
    fp12 f;
    for (int i = 0; i < 3; i++)
        g2_prepare(&pq[i], &qs[i]);
    miller_loop_prepared(&f, ps, pq, 3);
    final_exp(&f, &f);
    CHECK(fp12_is_one(&f));
    ps[2].x.l[0] ^= 1;   /* a tampered point (off the curve, but the check must not pass) */
    CHECK(!multi_pairing_is_one(ps, qs, 3));
}

int main(void)
{
    test_init("test_pairing");
    init_exponent();
    test_final_exp_reference();
    test_against_reference();
    test_generator_properties();
    test_bilinearity();
    test_negation_and_infinity();
    static const size_t sizes[] = {0, 1, 2, 3, 4, 7, 19};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        test_multi(sizes[i]);
    test_verifier_shape();
    return test_finish();
}
