/* Exhaustive group-law tests on the tiny subgroups of E1(Fp): its order is r·h with
 * h = 0x396c8c005555e1568c00aaab0000aaab = 3·11²·…, so (r·h/3)·P and (r·h/11²)·P have order 3 or 11
 * (or are O). Every pair of elements exercises add, mixed add, doubling, negation and scalar
 * multiplication, including all their special cases (P = Q, P = −Q, O); none may pass the subgroup test. */
#include "ec/ec.h"

#define EC_FE fp
#define EC_F(op) fp_##op
#define EC_FE_ONE FP_ONE
#define EC_AFF g1_aff
#define EC_JAC g1_jac
#define EC_FN(name) g1_##name
#define EC_RAND_FE rand_fp
#include "ref_impl.h"

#define MAX_ORDER 11

/* A point of order n (n prime, n | h): (r·h/n^k)·P, n^k the n-part of h, for random curve points P
 * until it is not O; its order is then checked to be n. */
static void small_order_point(g1_aff *t, unsigned n)
{
    mpz_t s;
    mpz_init(s);
    mpz_set_r(s);
    mpz_t h;
    mpz_init_set_str(h, "396c8c005555e1568c00aaab0000aaab", 16);
    mpz_mul(s, s, h);
    /* Remove every factor n: E1(Fp)[11^∞] is Z/11 × Z/11 (exponent 11, so (r·h/11)·P is always O),
     * while E1(Fp)[3^∞] is Z/3. What is left kills everything but the n-part. */
    mpz_t nn;
    mpz_init_set_ui(nn, n);
    CHECK(mpz_remove(s, s, nn) > 0);
    mpz_clear(nn);
    uint64_t k[6];
    mpz_to_limbs(k, 6, s);
    mpz_clears(s, h, NULL);
    g1_jac j;
    do {
        g1_aff p;
        rand_curve_point(&p);
        g1_jac_from_aff(&j, &p);
        g1_jac_mul_limbs(&j, &j, k, 6);
    } while (g1_jac_is_inf(&j));
    g1_jac_to_aff(t, &j);
}

static void exhaustive(unsigned n)
{
    g1_aff t, m[MAX_ORDER], a;
    g1_jac jm[MAX_ORDER], r, q;
    small_order_point(&t, n);
    CHECK(g1_aff_on_curve(&t));
    /* m[i] = i·T by the reference; T has order exactly n */
    g1_aff_set_inf(&m[0]);
    for (unsigned i = 1; i < n; i++)
        m[i] = ref_add(&m[i - 1], &t);
    a = ref_add(&m[n - 1], &t);
    CHECK(g1_aff_is_inf(&a));
    for (unsigned i = 0; i < n; i++) {
        rand_jac_of(&jm[i], &m[i]);
        for (unsigned j = 0; j < i; j++)
            CHECK(!g1_aff_eq(&m[i], &m[j]));
    }

    for (unsigned i = 0; i < n; i++) {
        for (unsigned j = 0; j < n; j++) {
            unsigned s = (i + j) % n;
            g1_jac_add(&r, &jm[i], &jm[j]);
            CHECK_MSG(jac_eq_aff(&r, &m[s]), "order %u: %u + %u", n, i, j);
            g1_jac_add_aff(&r, &jm[i], &m[j]);
            CHECK_MSG(jac_eq_aff(&r, &m[s]), "order %u: %u + aff %u", n, i, j);
            CHECK(g1_jac_eq(&jm[i], &jm[j]) == (i == j));
        }
        g1_jac_dbl(&r, &jm[i]);
        CHECK_MSG(jac_eq_aff(&r, &m[2 * i % n]), "order %u: 2·%u", n, i);
        g1_jac_neg(&r, &jm[i]);
        CHECK(jac_eq_aff(&r, &m[(n - i) % n]));
        g1_aff_neg(&a, &m[i]);
        CHECK(g1_aff_eq(&a, &m[(n - i) % n]));
        CHECK(g1_aff_on_curve(&m[i]) && g1_jac_on_curve(&jm[i]));
        /* the subgroup tests: only O is in G1 */
        CHECK_MSG(g1_aff_in_subgroup(&m[i]) == (i == 0), "order %u: %u·T in G1?", n, i);
        CHECK(slow_in_subgroup(&m[i]) == (i == 0));
        /* decoding: on the curve, so only the checked decoders refuse it */
        uint8_t c[CUZK_G1_COMPRESSED_BYTES], u[CUZK_G1_UNCOMPRESSED_BYTES];
        cuzk_g1_compress(c, &m[i]);
        cuzk_g1_serialize(u, &m[i]);
        cuzk_status want = i == 0 ? CUZK_OK : CUZK_ERR_NOT_IN_SUBGROUP;
        CHECK(cuzk_g1_decompress(&a, c) == want && cuzk_g1_deserialize(&a, u) == want);
        CHECK(cuzk_g1_decompress_unchecked(&a, c) == CUZK_OK && g1_aff_eq(&a, &m[i]));
        CHECK(cuzk_g1_deserialize_unchecked(&a, u) == CUZK_OK && g1_aff_eq(&a, &m[i]));
    }

    /* k·T for small k and for k + (random multiple of n): both multiplications */
    g1_jac jt;
    rand_jac_of(&jt, &t);
    for (unsigned k = 0; k < 3 * n; k++) {
        for (int big = 0; big < 2; big++) {
            cuzk_scalar_t s = {{k, 0, 0, 0}};
            if (big) {
                mpz_t v;
                mpz_init(v);
                mpz_set_ui(v, test_rand64());
                mpz_mul_2exp(v, v, 64);
                mpz_add_ui(v, v, test_rand64());
                mpz_mul_2exp(v, v, 64);
                mpz_add_ui(v, v, test_rand64());
                mpz_mul_ui(v, v, n);
                mpz_add_ui(v, v, k);
                mpz_to_limbs(s.l, 4, v);
                mpz_clear(v);
            }
            g1_jac_mul(&r, &jt, &s);
            CHECK_MSG(jac_eq_aff(&r, &m[k % n]), "order %u: k = %u (big %d)", n, k, big);
            g1_jac_mul_ct(&q, &jt, &s);
            CHECK_MSG(jac_eq_aff(&q, &m[k % n]), "order %u: ct k = %u (big %d)", n, k, big);
        }
    }

    /* batch normalisation over the whole group (O included) */
    g1_aff out[MAX_ORDER];
    g1_jac_batch_to_aff(out, jm, n);
    for (unsigned i = 0; i < n; i++)
        CHECK(g1_aff_eq(&out[i], &m[i]));

    /* G1 point + small-order point: on the curve, outside G1 */
    g1_aff p;
    rand_subgroup_point(&p);
    g1_jac_from_aff(&r, &p);
    g1_jac_add_aff(&r, &r, &t);
    g1_jac_to_aff(&a, &r);
    CHECK(g1_aff_on_curve(&a) && !g1_aff_in_subgroup(&a) && !slow_in_subgroup(&a));
}

int main(void)
{
    test_init("test_g1_small");
    for (int rep = 0; rep < 3; rep++) {
        exhaustive(3);
        exhaustive(11);
    }
    return test_finish();
}
