/* Group tests written once for G1 and G2 (test_g1.c, test_g2.c define the macros of point_impl.h plus
 * EC_RAND_FE and EC_B_CONST), against the references of ref_impl.h. */
#include "ref_impl.h"

#define F(op) EC_F(op)

#ifdef CUZK_SANITIZE
#define N_RAND 6
#define N_REF_MUL 3
#else
#define N_RAND 24
#define N_REF_MUL 10
#endif

/* ---- tests ---------------------------------------------------------------------------------- */

static void test_generator(void)
{
    EC_AFF g, t;
    EC_JAC j;
    EC_FN(generator)(&g);
    CHECK(!EC_FN(aff_is_inf)(&g));
    CHECK(EC_FN(aff_on_curve)(&g));
    CHECK(EC_FN(aff_in_subgroup)(&g));
    t = ref_mul(&g, FR_MODULUS, FR_LIMBS);
    CHECK(EC_FN(aff_is_inf)(&t));
    EC_FN(jac_from_aff)(&j, &g);
    EC_FN(jac_mul_limbs)(&j, &j, FR_MODULUS, FR_LIMBS);
    CHECK(EC_FN(jac_is_inf)(&j));
    /* random multiples of the generator stay in the subgroup: r·(k·G) == O, by both tests */
    for (int it = 0; it < 4; it++) {
        cuzk_scalar_t k;
        test_rand_scalar(&k);
        EC_FN(jac_from_aff)(&j, &g);
        EC_FN(jac_mul)(&j, &j, &k);
        EC_FN(jac_to_aff)(&t, &j);
        CHECK(EC_FN(aff_on_curve)(&t) && slow_in_subgroup(&t) && EC_FN(aff_in_subgroup)(&t));
        EC_AFF u = ref_mul(&t, FR_MODULUS, FR_LIMBS);
        CHECK(EC_FN(aff_is_inf)(&u));
    }
    /* The curve constant itself: y² − x³ of the generator. */
    EC_FE b;
    F(sqr)(&b, &g.y);
    F(sqr)(&t.x, &g.x);
    F(mul)(&t.x, &t.x, &g.x);
    F(sub)(&b, &b, &t.x);
    CHECK(F(eq)(&b, &EC_B_CONST));
}

/* Every operation against ref_add, on subgroup points, plain curve points and infinity. */
static void test_group_law(void)
{
    for (int it = 0; it < N_RAND; it++) {
        EC_AFF P, Q, R, inf, t, u;
        EC_JAC jp, jq, jr, a, b, c;
        if (it % 2)
            rand_subgroup_point(&P), rand_subgroup_point(&Q), rand_subgroup_point(&R);
        else
            rand_curve_point(&P), rand_curve_point(&Q), rand_curve_point(&R);
        EC_FN(aff_set_inf)(&inf);
        CHECK(EC_FN(aff_on_curve)(&P) && EC_FN(aff_on_curve)(&Q));
        rand_jac_of(&jp, &P);
        rand_jac_of(&jq, &Q);
        rand_jac_of(&jr, &R);
        CHECK(EC_FN(jac_on_curve)(&jp) && EC_FN(jac_on_curve)(&jq));

        /* add, mixed add and dbl against the reference */
        t = ref_add(&P, &Q);
        EC_FN(jac_add)(&a, &jp, &jq);
        CHECK(jac_eq_aff(&a, &t));
        CHECK(EC_FN(jac_on_curve)(&a));
        EC_FN(jac_add_aff)(&b, &jp, &Q);
        CHECK(EC_FN(jac_eq)(&a, &b));
        t = ref_add(&P, &P);
        EC_FN(jac_dbl)(&a, &jp);
        CHECK(jac_eq_aff(&a, &t));
        EC_FN(jac_add)(&b, &jp, &jp);
        CHECK(EC_FN(jac_eq)(&a, &b));
        rand_jac_of(&c, &P);   /* same point, other Z: add must detect P == Q */
        EC_FN(jac_add)(&b, &jp, &c);
        CHECK(EC_FN(jac_eq)(&a, &b));
        EC_FN(jac_add_aff)(&b, &jp, &P);
        CHECK(EC_FN(jac_eq)(&a, &b));

        /* commutativity, associativity */
        EC_FN(jac_add)(&a, &jp, &jq);
        EC_FN(jac_add)(&b, &jq, &jp);
        CHECK(EC_FN(jac_eq)(&a, &b));
        EC_FN(jac_add)(&a, &a, &jr);
        EC_FN(jac_add)(&b, &jq, &jr);
        EC_FN(jac_add)(&b, &jp, &b);
        CHECK(EC_FN(jac_eq)(&a, &b));
        u = ref_add(&P, &Q);
        u = ref_add(&u, &R);
        CHECK(jac_eq_aff(&b, &u));

        /* identity and inverse */
        EC_JAC jinf;
        rand_jac_of(&jinf, &inf);
        CHECK(EC_FN(jac_is_inf)(&jinf));
        EC_FN(jac_add)(&a, &jp, &jinf);
        CHECK(EC_FN(jac_eq)(&a, &jp));
        EC_FN(jac_add)(&a, &jinf, &jp);
        CHECK(EC_FN(jac_eq)(&a, &jp));
        EC_FN(jac_add_aff)(&a, &jp, &inf);
        CHECK(EC_FN(jac_eq)(&a, &jp));
        EC_FN(jac_add_aff)(&a, &jinf, &P);
        CHECK(jac_eq_aff(&a, &P));
        EC_FN(jac_dbl)(&a, &jinf);
        CHECK(EC_FN(jac_is_inf)(&a));
        EC_FN(jac_add)(&a, &jinf, &jinf);
        CHECK(EC_FN(jac_is_inf)(&a));
        EC_FN(jac_neg)(&a, &jp);
        EC_FN(jac_add)(&a, &a, &jp);
        CHECK(EC_FN(jac_is_inf)(&a));
        EC_FN(aff_neg)(&t, &P);
        CHECK(EC_FN(aff_on_curve)(&t) && !EC_FN(aff_eq)(&t, &P));
        EC_FN(jac_add_aff)(&a, &jp, &t);
        CHECK(EC_FN(jac_is_inf)(&a));
        u = ref_add(&P, &t);
        CHECK(EC_FN(aff_is_inf)(&u));
        EC_FN(aff_neg)(&t, &inf);
        CHECK(EC_FN(aff_is_inf)(&t));

        /* equality is projective and tells different points apart */
        CHECK(EC_FN(jac_eq)(&jp, &c));
        CHECK(!EC_FN(jac_eq)(&jp, &jq));
        CHECK(!EC_FN(jac_eq)(&jp, &jinf) && !EC_FN(jac_eq)(&jinf, &jp));
        CHECK(EC_FN(jac_eq)(&jinf, &jinf));
        EC_FN(jac_neg)(&a, &jp);
        CHECK(!EC_FN(jac_eq)(&a, &jp));

        /* aliasing: r = p and r = q */
        a = jp;
        EC_FN(jac_add)(&a, &a, &jq);
        EC_FN(jac_add)(&b, &jp, &jq);
        CHECK(EC_FN(jac_eq)(&a, &b));
        a = jq;
        EC_FN(jac_add)(&a, &jp, &a);
        CHECK(EC_FN(jac_eq)(&a, &b));
        a = jp;
        EC_FN(jac_add_aff)(&a, &a, &Q);
        CHECK(EC_FN(jac_eq)(&a, &b));
        a = jp;
        EC_FN(jac_dbl)(&a, &a);
        EC_FN(jac_dbl)(&b, &jp);
        CHECK(EC_FN(jac_eq)(&a, &b));

        /* conversions */
        EC_FN(jac_to_aff)(&t, &jp);
        CHECK(EC_FN(aff_eq)(&t, &P));
        EC_FN(jac_to_aff)(&t, &jinf);
        CHECK(EC_FN(aff_is_inf)(&t));
        EC_FN(jac_from_aff)(&a, &inf);
        CHECK(EC_FN(jac_is_inf)(&a));

        /* on_curve rejects a moved point */
        t = P;
        F(add)(&t.y, &t.y, &EC_FE_ONE);
        CHECK(!EC_FN(aff_on_curve)(&t));
        rand_jac_of(&a, &t);
        CHECK(!EC_FN(jac_on_curve)(&a));
    }
}

static void test_mul(void)
{
    EC_AFF P, t;
    EC_JAC jp, a, b, c;
    cuzk_scalar_t k, k2;
    /* against the naive reference */
    for (int it = 0; it < N_REF_MUL; it++) {
        if (it % 2)
            rand_subgroup_point(&P);
        else
            rand_curve_point(&P);
        rand_jac_of(&jp, &P);
        test_rand_scalar(&k);
        if (it == 1)
            k = (cuzk_scalar_t){{FR_MODULUS[0] - 1, FR_MODULUS[1], FR_MODULUS[2], FR_MODULUS[3]}};
        if (it == 2)
            k = (cuzk_scalar_t){{~0ull, ~0ull, ~0ull, ~0ull}};   /* wNAF's final carry */
        t = ref_mul(&P, k.l, 4);
        EC_FN(jac_mul)(&a, &jp, &k);
        CHECK(jac_eq_aff(&a, &t));
        EC_FN(jac_mul_ct)(&b, &jp, &k);
        CHECK(EC_FN(jac_eq)(&a, &b));
    }
    /* small scalars, where wNAF windows and the ct table edges are exercised */
    rand_subgroup_point(&P);
    rand_jac_of(&jp, &P);
    EC_FN(jac_set_inf)(&c);
    for (uint64_t s = 0; s < 70; s++) {
        k = (cuzk_scalar_t){{s, 0, 0, 0}};
        EC_FN(jac_mul)(&a, &jp, &k);
        CHECK_MSG(EC_FN(jac_eq)(&a, &c), "k = %llu", (unsigned long long)s);
        EC_FN(jac_mul_ct)(&b, &jp, &k);
        CHECK_MSG(EC_FN(jac_eq)(&b, &c), "ct k = %llu", (unsigned long long)s);
        EC_FN(jac_add)(&c, &c, &jp);
    }
    /* infinity times anything, aliasing, and linearity (a + b)·P = a·P + b·P on random scalars */
    EC_FN(jac_set_inf)(&a);
    test_rand_scalar(&k);
    EC_FN(jac_mul)(&b, &a, &k);
    CHECK(EC_FN(jac_is_inf)(&b));
    EC_FN(jac_mul_ct)(&b, &a, &k);
    CHECK(EC_FN(jac_is_inf)(&b));
    for (int it = 0; it < N_RAND; it++) {
        rand_subgroup_point(&P);
        rand_jac_of(&jp, &P);
        test_rand_scalar(&k);
        test_rand_scalar(&k2);
        mpz_t x, y, r;
        mpz_inits(x, y, r, NULL);
        limbs_to_mpz(x, k.l, 4);
        limbs_to_mpz(y, k2.l, 4);
        mpz_set_r(r);
        mpz_add(x, x, y);
        mpz_mod(x, x, r);
        cuzk_scalar_t ks;
        mpz_to_limbs(ks.l, 4, x);
        mpz_clears(x, y, r, NULL);
        EC_FN(jac_mul)(&a, &jp, &k);
        EC_FN(jac_mul)(&b, &jp, &k2);
        EC_FN(jac_add)(&a, &a, &b);
        b = jp;
        EC_FN(jac_mul)(&b, &b, &ks);
        CHECK(EC_FN(jac_eq)(&a, &b));
        b = jp;
        EC_FN(jac_mul_ct)(&b, &b, &ks);
        CHECK(EC_FN(jac_eq)(&a, &b));
    }
    /* mul_by_x against the generic multiplication by |x|, then negated */
    for (int it = 0; it < 4; it++) {
        if (it % 2)
            rand_subgroup_point(&P);
        else
            rand_curve_point(&P);
        rand_jac_of(&jp, &P);
        uint64_t absx = 0xd201000000010000ull;
        EC_FN(jac_mul_by_x)(&a, &jp);
        EC_FN(jac_mul_limbs)(&b, &jp, &absx, 1);
        EC_FN(jac_neg)(&b, &b);
        CHECK(EC_FN(jac_eq)(&a, &b));
    }
}

/* The endomorphism-accelerated multiplication (subgroup points only) against the generic one, on random
 * scalars and on the edges of the decomposition: 0, 1, r − 1, r, r + 1, 2^256 − 1, |x|^i ± 1. */
static void test_mul_endo(void)
{
    EC_AFF P;
    EC_JAC jp, a, b;
    cuzk_scalar_t k;
    mpz_t v, r, x;
    mpz_inits(v, r, x, NULL);
    mpz_set_r(r);
    mpz_set_ui(x, 0xd2010000ul);
    mpz_mul_2exp(x, x, 32);
    mpz_add_ui(x, x, 0x00010000ul);
    for (int it = 0; it < N_RAND + 24; it++) {
        rand_subgroup_point(&P);
        rand_jac_of(&jp, &P);
        test_rand_scalar(&k);
        int e = it - N_RAND;
        if (e >= 0) {
            switch (e % 8) {
            case 0: mpz_set_ui(v, (unsigned long)(e / 8)); break;          /* 0, 1, 2 */
            case 1: mpz_sub_ui(v, r, 1 + (unsigned long)(e / 8)); break;    /* r − 1, … */
            case 2: mpz_add_ui(v, r, (unsigned long)(e / 8)); break;        /* r, r + 1, … */
            case 3: mpz_set_ui(v, 1); mpz_mul_2exp(v, v, 256); mpz_sub_ui(v, v, 1 + (unsigned long)(e / 8)); break;
            default:                                                        /* |x|^i ± 1 */
                mpz_pow_ui(v, x, (unsigned long)(e % 8 - 3));
                if (e / 8 == 1)
                    mpz_add_ui(v, v, 1);
                else if (e / 8 == 2)
                    mpz_sub_ui(v, v, 1);
                break;
            }
            mpz_to_limbs(k.l, 4, v);
        }
        EC_FN(jac_mul)(&a, &jp, &k);
        b = jp;
        EC_FN(jac_mul_endo)(&b, &b, &k);
        CHECK_MSG(EC_FN(jac_eq)(&a, &b), "endo case %d", it);
    }
    mpz_clears(v, r, x, NULL);
    EC_FN(jac_set_inf)(&jp);
    test_rand_scalar(&k);
    EC_FN(jac_mul_endo)(&a, &jp, &k);
    CHECK(EC_FN(jac_is_inf)(&a));
}

/* The endomorphism tests against the slow r·P == O test, both ways. */
static void test_subgroup(void)
{
    int outside = 0;
    for (int it = 0; it < N_RAND; it++) {
        EC_AFF P, Q;
        rand_curve_point(&P);
        bool slow = slow_in_subgroup(&P);
        CHECK(EC_FN(aff_in_subgroup)(&P) == slow);
        outside += !slow;
        rand_subgroup_point(&Q);
        CHECK(slow_in_subgroup(&Q));
        CHECK(EC_FN(aff_in_subgroup)(&Q));
        /* subgroup + non-subgroup is outside */
        if (!slow) {
            EC_JAC j;
            EC_AFF s;
            EC_FN(jac_from_aff)(&j, &Q);
            EC_FN(jac_add_aff)(&j, &j, &P);
            EC_FN(jac_to_aff)(&s, &j);
            CHECK(!EC_FN(aff_in_subgroup)(&s) && !slow_in_subgroup(&s));
        }
    }
    CHECK(outside > 0);   /* random curve points are outside with overwhelming probability */
    EC_AFF inf;
    EC_FN(aff_set_inf)(&inf);
    CHECK(EC_FN(aff_in_subgroup)(&inf));
}

static void test_batch_to_aff(void)
{
    enum { N = 37 };
    EC_JAC in[N];
    EC_AFF pts[N], out[N], one;
    for (int i = 0; i < N; i++) {
        if (i % 7 == 3)
            EC_FN(aff_set_inf)(&pts[i]);
        else
            rand_curve_point(&pts[i]);
        rand_jac_of(&in[i], &pts[i]);
        if (i == 5)
            EC_FN(jac_from_aff)(&in[i], &pts[i]);   /* Z = 1 */
    }
    for (size_t n = 0; n <= N; n += (n < 3 ? 1 : 17)) {
        for (int i = 0; i < N; i++)
            rand_curve_point(&out[i]);   /* garbage that must be overwritten */
        EC_FN(jac_batch_to_aff)(out, in, n);
        for (size_t i = 0; i < n; i++) {
            EC_FN(jac_to_aff)(&one, &in[i]);
            CHECK(EC_FN(aff_eq)(&out[i], &one));
            CHECK(EC_FN(aff_eq)(&out[i], &pts[i]));
        }
    }
    /* all infinity */
    for (int i = 0; i < 4; i++)
        EC_FN(jac_set_inf)(&in[i]);
    EC_FN(jac_batch_to_aff)(out, in, 4);
    for (int i = 0; i < 4; i++)
        CHECK(EC_FN(aff_is_inf)(&out[i]));
}

/* clear_cofactor against the plain multiplication by the effective cofactor. */
static void test_clear_cofactor(const uint64_t *heff, size_t n)
{
    for (int it = 0; it < 4; it++) {
        EC_AFF P, t;
        EC_JAC jp, a, b;
        rand_curve_point(&P);
        rand_jac_of(&jp, &P);
        EC_FN(clear_cofactor)(&a, &jp);
        EC_FN(jac_mul_limbs)(&b, &jp, heff, n);
        CHECK(EC_FN(jac_eq)(&a, &b));
        CHECK(!EC_FN(jac_is_inf)(&a));
        EC_FN(jac_to_aff)(&t, &a);
        CHECK(slow_in_subgroup(&t) && EC_FN(aff_in_subgroup)(&t));
    }
}

static void run_group_tests(void)
{
    test_generator();
    test_group_law();
    test_mul();
    test_mul_endo();
    test_subgroup();
    test_batch_to_aff();
}

#undef F
