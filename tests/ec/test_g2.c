/* G2 arithmetic: group law against textbook affine formulas, scalar multiplication against naive
 * double-and-add, the ψ subgroup test against r·P == O, batch normalisation, cofactor clearing. */
#include "ec/ec.h"
#include "ec/ec_consts.h"

#define EC_FE fp2
#define EC_F(op) fp2_##op
#define EC_FE_ONE FP2_ONE
#define EC_AFF g2_aff
#define EC_JAC g2_jac
#define EC_FN(name) g2_##name
#define EC_RAND_FE rand_fp2
#define EC_B_CONST EC_G2_B
#include "group_test_impl.h"

/* ψ is x·P on G2, a group homomorphism everywhere, and ψ² − t·ψ + p = 0 (t = x + 1 the trace) on the
 * whole of E2(Fp2), which pins down both ψ constants. */
static void test_psi(void)
{
    mpz_t pm;
    mpz_init(pm);
    mpz_set_p(pm);
    uint64_t pl[6];
    mpz_to_limbs(pl, 6, pm);
    mpz_clear(pm);
    for (int it = 0; it < 4; it++) {
        g2_aff P, Q;
        g2_jac j, a, b, c;
        rand_subgroup_point(&P);
        rand_jac_of(&j, &P);
        g2_jac_psi(&a, &j);
        g2_jac_mul_by_x(&b, &j);
        CHECK(g2_jac_eq(&a, &b));

        rand_curve_point(&Q);
        rand_jac_of(&j, &Q);
        CHECK(g2_jac_on_curve(&j));
        g2_jac_psi(&a, &j);
        CHECK(g2_jac_on_curve(&a));
        g2_jac_psi(&a, &a);                  /* ψ²(Q) */
        g2_jac_psi(&b, &j);
        g2_jac_mul_by_x(&c, &b);
        g2_jac_add(&b, &b, &c);              /* t·ψ(Q) = (x + 1)·ψ(Q) */
        g2_jac_mul_limbs(&c, &j, pl, 6);     /* p·Q */
        g2_jac_add(&a, &a, &c);
        g2_jac_neg(&b, &b);
        g2_jac_add(&a, &a, &b);
        CHECK(g2_jac_is_inf(&a));
    }
}

int main(void)
{
    test_init("test_g2");
    run_group_tests();
    test_psi();
    /* h_eff of RFC 9380 §8.8.2 (636 bits) */
    mpz_t h;
    mpz_init_set_str(h, "bc69f08f2ee75b3584c6a0ea91b352888e2a8e9145ad7689986ff031508ffe1329c2f178731db956d82"
                        "bf015d1212b02ec0ec69d7477c1ae954cbc06689f6a359894c0adebbf6b4e8020005aaa95551", 16);
    uint64_t heff[10];
    mpz_to_limbs(heff, 10, h);
    mpz_clear(h);
    test_clear_cofactor(heff, 10);
    return test_finish();
}
