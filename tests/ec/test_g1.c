/* G1 arithmetic: group law against textbook affine formulas, scalar multiplication against naive
 * double-and-add, the σ subgroup test against r·P == O, batch normalisation, cofactor clearing. */
#include "ec/ec.h"
#include "ec/ec_consts.h"

#define EC_FE fp
#define EC_F(op) fp_##op
#define EC_FE_ONE FP_ONE
#define EC_AFF g1_aff
#define EC_JAC g1_jac
#define EC_FN(name) g1_##name
#define EC_RAND_FE rand_fp
#define EC_B_CONST EC_G1_B
#include "group_test_impl.h"

/* β is a primitive cube root of unity and σ(P) = (βx, y) equals (−x² mod r)·P on G1. */
static void test_sigma(void)
{
    fp t, four;
    fp_sqr(&t, &EC_G1_BETA);
    fp_mul(&t, &t, &EC_G1_BETA);
    CHECK(fp_eq(&t, &FP_ONE));
    CHECK(!fp_eq(&EC_G1_BETA, &FP_ONE));
    fp_from_u64(&four, 4);
    CHECK(fp_eq(&four, &EC_G1_B));

    mpz_t lam, r;
    mpz_inits(lam, r, NULL);
    mpz_set_r(r);
    mpz_set_str(lam, "d201000000010000", 16);
    mpz_mul(lam, lam, lam);
    mpz_neg(lam, lam);
    mpz_mod(lam, lam, r);
    uint64_t l[4];
    mpz_to_limbs(l, 4, lam);
    mpz_clears(lam, r, NULL);
    for (int it = 0; it < 3; it++) {
        g1_aff P, s;
        g1_jac j, js;
        rand_subgroup_point(&P);
        g1_jac_from_aff(&j, &P);
        g1_jac_mul_limbs(&j, &j, l, 4);
        fp_mul(&s.x, &EC_G1_BETA, &P.x);
        s.y = P.y;
        g1_jac_from_aff(&js, &s);
        CHECK(g1_jac_eq(&j, &js));
    }
}

int main(void)
{
    test_init("test_g1");
    run_group_tests();
    test_sigma();
    const uint64_t heff = 0xd201000000010001ull;   /* 1 − x */
    test_clear_cofactor(&heff, 1);
    return test_finish();
}
