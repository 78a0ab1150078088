/* Fp2 against GMP (mul, sqr, inverse, square root, Legendre, sign), and the Fp6/Fp12 towers by their
 * algebraic laws: ring axioms, inverses, Frobenius maps against exponentiation by p^k and their
 * coefficients against powers of ξ = 1 + u, cyclotomic squaring, sparse line multiplication, and
 * the pairing values from @noble/curves (order r, bilinearity, byte order). */
#include <stdlib.h>
#include <string.h>
#include "ff/ff_impl.h"
#include "ff/fp12.h"
#include "ff/fr.h"
#include "ff/tower.h"
#include "ff_gmp.h"

#ifdef CUZK_SANITIZE
#define N_RAND 40
#else
#define N_RAND 300
#endif

static mpz_t p, R, Rinv, rr;

static void fp_val(mpz_t z, const fp *a)
{
    uint64_t c[FP_LIMBS];
    fp_from_mont(c, a);
    mpz_from_limbs(z, c, FP_LIMBS);
}

static void fp_of(fp *a, const mpz_t z)
{
    uint64_t c[FP_LIMBS];
    mpz_t t;
    mpz_init(t);
    mpz_mod(t, z, p);
    mpz_to_limbs(c, t, FP_LIMBS);
    fp_to_mont(a, c);
    mpz_clear(t);
}

static void fp_rand(fp *a)
{
    mpz_t z;
    mpz_init(z);
    mpz_rand_below(z, p, FP_LIMBS);
    fp_of(a, z);
    mpz_clear(z);
}

static void fp2_rand(fp2 *a) { fp_rand(&a->c0), fp_rand(&a->c1); }
static void fp6_rand(fp6 *a) { fp2_rand(&a->c0), fp2_rand(&a->c1), fp2_rand(&a->c2); }
static void fp12_rand(fp12 *a) { fp6_rand(&a->c0), fp6_rand(&a->c1); }

/* e as little-endian limbs (at most cap), returns the limb count. */
static size_t mpz_limbs(uint64_t *out, size_t cap, const mpz_t e)
{
    size_t n = (mpz_sizeinbase(e, 2) + 63) / 64;
    if (n > cap)
        abort();
    memset(out, 0, cap * 8);
    mpz_export(out, NULL, -1, 8, 0, 0, e);
    return n ? n : 1;
}

static void check_fp2(void)
{
    mpz_t a0, a1, b0, b1, e0, e1, t, h;
    mpz_inits(a0, a1, b0, b1, e0, e1, t, h, NULL);
    unsigned long bad_mul = 0, bad_sqr = 0, bad_inv = 0, bad_misc = 0, bad_sqrt = 0, bad_leg = 0,
                  bad_sign = 0;
    mpz_sub_ui(h, p, 1), mpz_fdiv_q_2exp(h, h, 1);
    for (int i = 0; i < N_RAND; i++) {
        fp2 a, b, r, s;
        fp2_rand(&a), fp2_rand(&b);
        if (i == 0)
            a = FP2_ZERO;
        if (i == 1)
            a.c1 = FP_ZERO;
        if (i == 2)
            a.c0 = FP_ZERO;
        fp_val(a0, &a.c0), fp_val(a1, &a.c1), fp_val(b0, &b.c0), fp_val(b1, &b.c1);
        /* (a0 + a1 u)(b0 + b1 u) = (a0 b0 − a1 b1) + (a0 b1 + a1 b0) u */
        mpz_mul(e0, a0, b0), mpz_submul(e0, a1, b1), mpz_mod(e0, e0, p);
        mpz_mul(e1, a0, b1), mpz_addmul(e1, a1, b0), mpz_mod(e1, e1, p);
        fp2_mul(&r, &a, &b);
        fp_val(t, &r.c0), bad_mul += mpz_cmp(t, e0) != 0;
        fp_val(t, &r.c1), bad_mul += mpz_cmp(t, e1) != 0;
        s = a, fp2_mul(&s, &s, &b), bad_mul += !fp2_eq(&s, &r);
        s = b, fp2_mul(&s, &a, &s), bad_mul += !fp2_eq(&s, &r);
        fp2_mul(&r, &a, &a), fp2_sqr(&s, &a), bad_sqr += !fp2_eq(&r, &s);
        s = a, fp2_sqr(&s, &s), bad_sqr += !fp2_eq(&r, &s);
        /* inverse */
        fp2_inv(&r, &a);
        if (fp2_is_zero(&a)) {
            bad_inv += !fp2_is_zero(&r);
        } else {
            fp2_mul(&s, &r, &a), bad_inv += !fp2_eq(&s, &FP2_ONE);
        }
        /* small helpers against full multiplications */
        fp2 xi = {FP_ONE, FP_ONE}, bf = {b.c0, FP_ZERO};
        fp2_mul(&r, &a, &xi), fp2_mul_by_nonresidue(&s, &a), bad_misc += !fp2_eq(&r, &s);
        fp2_mul(&r, &a, &bf), fp2_mul_fp(&s, &a, &b.c0), bad_misc += !fp2_eq(&r, &s);
        fp2_add(&r, &a, &a), fp2_dbl(&s, &a), bad_misc += !fp2_eq(&r, &s);
        fp2_neg(&r, &a), fp2_add(&r, &r, &a), bad_misc += !fp2_is_zero(&r);
        fp2_sub(&r, &a, &b), fp2_add(&r, &r, &b), bad_misc += !fp2_eq(&r, &a);
        fp2_conj(&r, &a), fp2_frobenius(&s, &a), bad_misc += !fp2_eq(&r, &s);
        /* Legendre through the norm, computed with GMP */
        mpz_mul(t, a0, a0), mpz_addmul(t, a1, a1), mpz_mod(t, t, p);
        int leg = mpz_legendre(t, p);
        bad_leg += fp2_legendre(&a) != leg;
        /* square roots: of a² always, of a exactly when it is a square */
        fp2_sqr(&s, &a);
        if (!fp2_sqrt(&r, &s))
            bad_sqrt++;
        else
            fp2_sqr(&r, &r), bad_sqrt += !fp2_eq(&r, &s);
        r = b;
        bool ok = fp2_sqrt(&r, &a);
        if (ok != (leg >= 0))
            bad_sqrt++;
        else if (ok)
            fp2_sqr(&r, &r), bad_sqrt += !fp2_eq(&r, &a);
        else
            bad_sqrt += !fp2_eq(&r, &b); /* untouched on failure */
        /* zcash sign: c1 decides unless zero */
        bool big = mpz_sgn(a1) ? mpz_cmp(a1, h) > 0 : mpz_cmp(a0, h) > 0;
        bad_sign += fp2_is_lexicographically_largest(&a) != big;
    }
    /* roots of Fp-rational values: squares and non-squares of Fp, and u-multiples */
    for (int i = 0; i < 50; i++) {
        fp2 a = FP2_ZERO, r;
        fp_rand(&a.c0);
        if (i & 1)
            fp_neg(&a.c0, &a.c0);
        if (i & 2)
            a.c1 = a.c0, a.c0 = FP_ZERO;
        bool ok = fp2_sqrt(&r, &a);
        int leg = fp2_legendre(&a);
        bad_sqrt += ok != (leg >= 0);
        if (ok)
            fp2_sqr(&r, &r), bad_sqrt += !fp2_eq(&r, &a);
        /* every element of Fp is a square in Fp2 */
        if (!(i & 2))
            bad_sqrt += !ok;
    }
    CHECK_MSG(bad_mul == 0, "fp2 mul: %lu", bad_mul);
    CHECK_MSG(bad_sqr == 0, "fp2 sqr: %lu", bad_sqr);
    CHECK_MSG(bad_inv == 0, "fp2 inv: %lu", bad_inv);
    CHECK_MSG(bad_misc == 0, "fp2 add/sub/neg/dbl/conj/mul_fp/nonresidue: %lu", bad_misc);
    CHECK_MSG(bad_leg == 0, "fp2 legendre: %lu", bad_leg);
    CHECK_MSG(bad_sqrt == 0, "fp2 sqrt: %lu", bad_sqrt);
    CHECK_MSG(bad_sign == 0, "fp2 lexicographic sign: %lu", bad_sign);
    /* batch inversion with zeros, separate and in place */
    fp2 in[40], out[40], al[40], r;
    for (int i = 0; i < 40; i++) {
        fp2_rand(&in[i]);
        if (i % 5 == 0)
            in[i] = FP2_ZERO;
    }
    fp2_batch_inv(out, in, 40);
    memcpy(al, in, sizeof in);
    fp2_batch_inv(al, al, 40);
    unsigned long bad = 0;
    for (int i = 0; i < 40; i++) {
        fp2_inv(&r, &in[i]);
        bad += !fp2_eq(&r, &out[i]) || !fp2_eq(&r, &al[i]);
    }
    CHECK_MSG(bad == 0, "fp2 batch_inv: %lu", bad);
    /* pow against GMP exponent p (the Frobenius) and a small exponent against repeated products */
    fp2 a, s, t2;
    fp2_rand(&a);
    uint64_t e[8];
    size_t n = mpz_limbs(e, 8, p);
    fp2_pow(&s, &a, e, n);
    fp2_conj(&t2, &a);
    CHECK(fp2_eq(&s, &t2));
    uint64_t small = 13;
    fp2_pow(&s, &a, &small, 1);
    t2 = FP2_ONE;
    for (int i = 0; i < 13; i++)
        fp2_mul(&t2, &t2, &a);
    CHECK(fp2_eq(&s, &t2));
    mpz_clears(a0, a1, b0, b1, e0, e1, t, h, NULL);
}

/* Frobenius coefficient tables against powers of ξ computed here from their definitions. */
static void check_frobenius_consts(void)
{
    const fp2 xi = {FP_ONE, FP_ONE};
    mpz_t pk, e;
    mpz_inits(pk, e, NULL);
    uint64_t l[80];
    for (unsigned k = 0; k < 12; k++) {
        fp2 g;
        mpz_pow_ui(pk, p, k), mpz_sub_ui(pk, pk, 1);
        CHECK(mpz_divisible_ui_p(pk, 6));
        mpz_divexact_ui(e, pk, 6);
        fp2_pow(&g, &xi, l, mpz_limbs(l, 80, e));
        CHECK_MSG(fp2_eq(&g, &FROB12_W[k]), "FROB12_W[%u]", k);
        if (k >= 6)
            continue;
        mpz_divexact_ui(e, pk, 3);
        fp2_pow(&g, &xi, l, mpz_limbs(l, 80, e));
        CHECK_MSG(fp2_eq(&g, &FROB6_C1[k]), "FROB6_C1[%u]", k);
        mpz_mul_2exp(e, e, 1);
        fp2_pow(&g, &xi, l, mpz_limbs(l, 80, e));
        CHECK_MSG(fp2_eq(&g, &FROB6_C2[k]), "FROB6_C2[%u]", k);
    }
    mpz_clears(pk, e, NULL);
}

static void fp6_v(fp6 *v)
{
    *v = FP6_ZERO;
    v->c1 = FP2_ONE;
}

static void check_fp6(void)
{
    unsigned long bad = 0, bad_inv = 0;
    for (int i = 0; i < N_RAND / 3; i++) {
        fp6 a, b, c, x, y, z, v;
        fp6_rand(&a), fp6_rand(&b), fp6_rand(&c);
        fp6_mul(&x, &a, &b), fp6_mul(&x, &x, &c);
        fp6_mul(&y, &b, &c), fp6_mul(&y, &a, &y);
        bad += !fp6_eq(&x, &y); /* associativity */
        fp6_mul(&x, &a, &b), fp6_mul(&y, &b, &a);
        bad += !fp6_eq(&x, &y); /* commutativity */
        fp6_add(&x, &b, &c), fp6_mul(&x, &a, &x);
        fp6_mul(&y, &a, &b), fp6_mul(&z, &a, &c), fp6_add(&y, &y, &z);
        bad += !fp6_eq(&x, &y); /* distributivity */
        fp6_mul(&x, &a, &a), fp6_sqr(&y, &a);
        bad += !fp6_eq(&x, &y);
        y = a, fp6_sqr(&y, &y), bad += !fp6_eq(&x, &y);
        fp6_v(&v), fp6_mul(&x, &a, &v), fp6_mul_by_nonresidue(&y, &a);
        bad += !fp6_eq(&x, &y);
        fp6_sub(&x, &a, &b), fp6_add(&x, &x, &b), bad += !fp6_eq(&x, &a);
        fp6_neg(&x, &a), fp6_add(&x, &x, &a), bad += !fp6_is_zero(&x);
        /* sparse products */
        fp6 s = FP6_ZERO;
        s.c0 = b.c0, s.c1 = b.c1;
        fp6_mul(&x, &a, &s), fp6_mul_by_01(&y, &a, &b.c0, &b.c1), bad += !fp6_eq(&x, &y);
        s = FP6_ZERO, s.c1 = b.c1;
        fp6_mul(&x, &a, &s), fp6_mul_by_1(&y, &a, &b.c1), bad += !fp6_eq(&x, &y);
        fp6_inv(&x, &a), fp6_mul(&y, &x, &a), bad_inv += !fp6_eq(&y, &FP6_ONE);
        /* Frobenius is a ring homomorphism and the k-th map is the first one k times */
        for (unsigned k = 1; k < 6; k++) {
            fp6_frobenius(&x, &a, k);
            fp6_frobenius(&y, &a, k - 1), fp6_frobenius(&y, &y, 1);
            bad += !fp6_eq(&x, &y);
        }
        fp6_frobenius(&x, &a, 6), bad += !fp6_eq(&x, &a);
        fp6_mul(&x, &a, &b), fp6_frobenius(&x, &x, 1);
        fp6_frobenius(&y, &a, 1), fp6_frobenius(&z, &b, 1), fp6_mul(&y, &y, &z);
        bad += !fp6_eq(&x, &y);
    }
    CHECK_MSG(bad == 0, "fp6 laws: %lu", bad);
    CHECK_MSG(bad_inv == 0, "fp6 inverse: %lu", bad_inv);
}

/* a^(p^k) by exponentiation, independently of the Frobenius tables. */
static void fp12_pow_mpz(fp12 *r, const fp12 *a, const mpz_t e)
{
    uint64_t l[80];
    fp12_pow(r, a, l, mpz_limbs(l, 80, e));
}

static void cyclotomic(fp12 *r, const fp12 *a)
{
    /* a^((p^6 − 1)(p² + 1)) lies in the cyclotomic subgroup */
    fp12 t, u;
    fp12_inv(&t, a);
    fp12_conj(&u, a);
    fp12_mul(&t, &t, &u);
    fp12_frobenius(&u, &t, 2);
    fp12_mul(r, &u, &t);
}

static void check_fp12(void)
{
    unsigned long bad = 0, bad_inv = 0, bad_cyc = 0, bad_014 = 0;
    for (int i = 0; i < N_RAND / 10; i++) {
        fp12 a, b, c, x, y, z;
        fp12_rand(&a), fp12_rand(&b), fp12_rand(&c);
        fp12_mul(&x, &a, &b), fp12_mul(&x, &x, &c);
        fp12_mul(&y, &b, &c), fp12_mul(&y, &a, &y);
        bad += !fp12_eq(&x, &y);
        fp12_mul(&x, &a, &b), fp12_mul(&y, &b, &a), bad += !fp12_eq(&x, &y);
        fp6_add(&x.c0, &b.c0, &c.c0), fp6_add(&x.c1, &b.c1, &c.c1), fp12_mul(&x, &a, &x);
        fp12_mul(&y, &a, &b), fp12_mul(&z, &a, &c);
        fp6_add(&y.c0, &y.c0, &z.c0), fp6_add(&y.c1, &y.c1, &z.c1);
        bad += !fp12_eq(&x, &y);
        fp12_mul(&x, &a, &a), fp12_sqr(&y, &a), bad += !fp12_eq(&x, &y);
        y = a, fp12_sqr(&y, &y), bad += !fp12_eq(&x, &y);
        fp12_inv(&x, &a), fp12_mul(&y, &x, &a), bad_inv += !fp12_is_one(&y);
        /* conj is the p^6 Frobenius */
        fp12_conj(&x, &a), fp12_frobenius(&y, &a, 6), bad += !fp12_eq(&x, &y);
        for (unsigned k = 1; k < 12; k++) {
            fp12_frobenius(&x, &a, k);
            fp12_frobenius(&y, &a, k - 1), fp12_frobenius(&y, &y, 1);
            bad += !fp12_eq(&x, &y);
        }
        fp12_frobenius(&x, &a, 12), bad += !fp12_eq(&x, &a);
        /* cyclotomic squaring on a cyclotomic element, and the aliasing form */
        cyclotomic(&c, &a);
        fp12_sqr(&x, &c), fp12_cyclotomic_sqr(&y, &c), bad_cyc += !fp12_eq(&x, &y);
        fp12_cyclotomic_sqr(&c, &c), bad_cyc += !fp12_eq(&c, &y);
        fp12_conj(&x, &c), fp12_mul(&x, &x, &c), bad_cyc += !fp12_is_one(&x);
        /* sparse line multiplication against the full product */
        fp12 s;
        memset(&s, 0, sizeof s);
        s.c0.c0 = b.c0.c0, s.c0.c1 = b.c0.c1, s.c1.c1 = b.c1.c1;
        fp12_mul(&x, &a, &s);
        fp12_mul_by_014(&y, &a, &b.c0.c0, &b.c0.c1, &b.c1.c1);
        bad_014 += !fp12_eq(&x, &y);
        y = a, fp12_mul_by_014(&y, &y, &b.c0.c0, &b.c0.c1, &b.c1.c1), bad_014 += !fp12_eq(&x, &y);
        /* pow with a small exponent against repeated products */
        uint64_t e = 0x1d;
        fp12_pow(&x, &a, &e, 1);
        y = FP12_ONE;
        for (int k = 0; k < 0x1d; k++)
            fp12_mul(&y, &y, &a);
        bad += !fp12_eq(&x, &y);
    }
    CHECK_MSG(bad == 0, "fp12 laws: %lu", bad);
    CHECK_MSG(bad_inv == 0, "fp12 inverse: %lu", bad_inv);
    CHECK_MSG(bad_cyc == 0, "fp12 cyclotomic square: %lu", bad_cyc);
    CHECK_MSG(bad_014 == 0, "fp12 mul_by_014: %lu", bad_014);

    /* Frobenius^k equals exponentiation by p^k, for every k (and Fp6's for k < 6). */
    fp12 a, x, y;
    fp12_rand(&a);
    mpz_t pk;
    mpz_init_set_ui(pk, 1);
    for (unsigned k = 1; k < 12; k++) {
        mpz_mul(pk, pk, p);
#ifdef CUZK_SANITIZE
        if (k > 2 && k != 6 && k != 11)
            continue;
#endif
        fp12_pow_mpz(&x, &a, pk);
        fp12_frobenius(&y, &a, k);
        CHECK_MSG(fp12_eq(&x, &y), "fp12 frobenius %u vs pow p^%u", k, k);
        if (k < 6) {
            fp6 s;
            fp6_mul(&s, &a.c0, &FP6_ONE);
            fp12 t = {s, FP6_ZERO};
            fp12_pow_mpz(&x, &t, pk);
            fp6_frobenius(&s, &a.c0, k);
            CHECK_MSG(fp6_eq(&x.c0, &s) && fp6_is_zero(&x.c1), "fp6 frobenius %u vs pow", k);
        }
    }
    mpz_clear(pk);
}

static int hexval(char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; }

static bool fp12_from_bytes(fp12 *a, const uint8_t in[576])
{
    fp *c[12] = {&a->c0.c0.c0, &a->c0.c0.c1, &a->c0.c1.c0, &a->c0.c1.c1, &a->c0.c2.c0, &a->c0.c2.c1,
                 &a->c1.c0.c0, &a->c1.c0.c1, &a->c1.c1.c0, &a->c1.c1.c1, &a->c1.c2.c0, &a->c1.c2.c1};
    for (int i = 0; i < 12; i++)
        if (!fp_from_bytes_be(c[i], in + 48 * i))
            return false;
    return true;
}

/* Known answers from @noble/curves: field products and inverses, and the pairing values. */
static void check_noble(void)
{
    size_t len;
    char *txt = test_read_file("tests/vectors/noble-bls12-381.txt", &len);
    CHECK_MSG(txt != NULL, "cannot read tests/vectors/noble-bls12-381.txt");
    if (!txt)
        return;
    int n_fp = 0, n_fr = 0, n_pair = 0;
    fp12 gt11;
    bool have11 = false;
    for (char *line = strtok(txt, "\n"); line; line = strtok(NULL, "\n")) {
        char tag[16], f[5][1300];
        int k = sscanf(line, "%15s %1299s %1299s %1299s %1299s %1299s", tag, f[0], f[1], f[2], f[3], f[4]);
        uint8_t b[3][576];
        if ((!strcmp(tag, "fp_mul") && k == 4) || (!strcmp(tag, "fp_inv") && k == 3)) {
            fp x[3];
            for (int i = 0; i < k - 1; i++)
                CHECK(test_hex_decode(f[i], b[i], 48) == 48 && fp_from_bytes_be(&x[i], b[i]));
            if (k == 4)
                {
                fp_mul(&x[0], &x[0], &x[1]);
                CHECK(fp_eq(&x[0], &x[2]));
            }
            else
                {
                fp_inv(&x[0], &x[0]);
                CHECK(fp_eq(&x[0], &x[1]));
            }
            n_fp++;
        } else if ((!strcmp(tag, "fr_mul") && k == 4) || (!strcmp(tag, "fr_inv") && k == 3)) {
            fr x[3];
            for (int i = 0; i < k - 1; i++)
                CHECK(test_hex_decode(f[i], b[i], 32) == 32 && fr_from_bytes_be(&x[i], b[i]));
            if (k == 4)
                {
                fr_mul(&x[0], &x[0], &x[1]);
                CHECK(fr_eq(&x[0], &x[2]));
            }
            else
                {
                fr_inv(&x[0], &x[0]);
                CHECK(fr_eq(&x[0], &x[1]));
            }
            n_fr++;
        } else if (!strcmp(tag, "pairing") && k == 6) {
            fp12 g, x;
            uint8_t sa[32], sb[32], out[576];
            CHECK(test_hex_decode(f[0], sa, 32) == 32 && test_hex_decode(f[1], sb, 32) == 32);
            CHECK(test_hex_decode(f[4], b[0], 576) == 576);
            CHECK(fp12_from_bytes(&g, b[0]));
            fp12_to_bytes(out, &g);
            CHECK(memcmp(out, b[0], 576) == 0);
            /* a pairing value has order r: g^r = 1, and lies in the cyclotomic subgroup */
            fp12_pow(&x, &g, FR_MODULUS, FR_LIMBS);
            CHECK(fp12_is_one(&x));
            fp12_sqr(&x, &g);
            fp12_cyclotomic_sqr(&g, &g);
            CHECK(fp12_eq(&x, &g));
            fp12_from_bytes(&g, b[0]);
            bool one_one = true;
            for (int i = 0; i < 31; i++)
                one_one &= sa[i] == 0 && sb[i] == 0;
            if (one_one && sa[31] == 1 && sb[31] == 1)
                gt11 = g, have11 = true;
            /* bilinearity on small scalars: e(aG1, bG2) = e(G1, G2)^(ab) */
            if (have11 && one_one && sa[31] * sb[31] > 1) {
                uint64_t ab = (uint64_t)sa[31] * sb[31];
                fp12_pow(&x, &gt11, &ab, 1);
                CHECK(fp12_eq(&x, &g));
            }
            n_pair++;
        }
    }
    free(txt);
    CHECK_MSG(n_fp >= 6 && n_fr >= 6 && n_pair >= 2, "noble vectors: %d fp, %d fr, %d pairing", n_fp, n_fr, n_pair);
    (void)hexval;
}

int main(void)
{
    test_init("test_tower");
    mpz_inits(p, R, Rinv, rr, NULL);
    mpz_set_str(p, "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16);
    cuzk_init_options_t saved = cuzk_dispatch()->asked;
    for (int impl = CUZK_IMPL_PORTABLE; impl <= CUZK_IMPL_ADX; impl++) {
        if (cuzk_dispatch_use((cuzk_impl_t)impl) != CUZK_OK)
            continue;
        printf("  impl=%s\n", cuzk_impl_name((cuzk_impl_t)impl));
        check_fp2();
        check_frobenius_consts();
        check_fp6();
        check_fp12();
        check_noble();
    }
    CHECK(cuzk_dispatch_reinit(&saved, NULL) == CUZK_OK);
    mpz_clears(p, R, Rinv, rr, NULL);
    return test_finish();
}
