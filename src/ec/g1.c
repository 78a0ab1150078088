/* G1 = the order-r subgroup of E1: y² = x³ + 4 over Fp. The group law comes from point_impl.h;
 * this file adds what is specific to G1: the σ-endomorphism subgroup test and cofactor clearing. */
#include "ec/ec.h"
#include "ec/ec_consts.h"

#define EC_FE fp
#define EC_F(op) fp_##op
#define EC_FE_ZERO FP_ZERO
#define EC_FE_ONE FP_ONE
#define EC_B EC_G1_B
#define EC_GEN EC_G1_GEN
#define EC_AFF g1_aff
#define EC_JAC g1_jac
#define EC_FN(name) g1_##name
#include "ec/point_impl.h"

/* σ(x, y) = (βx, y) multiplies G1 by the cube root of unity −x² mod r. Scott (2021) shows that for
 * BLS12-381 σ(P) == −x²·P holds only on G1; tests/ec checks it against r·P == O. */
bool g1_aff_in_subgroup(const g1_aff *p)
{
    if (g1_aff_is_inf(p))
        return true;
    g1_jac q;
    fp bx, t, z2;
    g1_aff_mul_abs_x(&q, p);
    g1_jac_mul_abs_x(&q, &q);            /* q = x²·P; compare with −σ(P) = (βx, −y) */
    if (g1_jac_is_inf(&q))
        return false;
    fp_mul(&bx, &EC_G1_BETA, &p->x);
    fp_sqr(&z2, &q.z);
    fp_mul(&t, &bx, &z2);
    if (!fp_eq(&t, &q.x))
        return false;
    fp_mul(&t, &z2, &q.z);
    fp_mul(&t, &t, &p->y);
    fp_neg(&t, &t);
    return fp_eq(&t, &q.y);
}

void g1_clear_cofactor(g1_jac *r, const g1_jac *p)
{
    g1_jac t;
    g1_jac_mul_by_x(&t, p);
    g1_jac_neg(&t, &t);
    g1_jac_add(r, &t, p);   /* (1 − x)·p */
}

/* GLV: k mod r = d0 + d1·x² with d0, d1 < x² < 2^128 (since r < x⁴), so k·P = d0·P + d1·(−σ(P)). */
void g1_glv_split(uint64_t d0[2], uint64_t d1[2], const cuzk_scalar_t *k)
{
    uint64_t kr[4], q[4], q2[4];
    g1_scalar_reduce(kr, k);
    uint64_t e0 = g1_divrem_u64(q, kr, 4, EC_BLS_X_ABS);
    uint64_t e1 = g1_divrem_u64(q2, q, 4, EC_BLS_X_ABS);
    unsigned __int128 lo = (unsigned __int128)e1 * EC_BLS_X_ABS + e0;
    d0[0] = (uint64_t)lo;
    d0[1] = (uint64_t)(lo >> 64);
    d1[0] = q2[0];
    d1[1] = q2[1];
}

void g1_jac_mul_endo(g1_jac *r, const g1_jac *p, const cuzk_scalar_t *k)
{
    uint64_t d[2][2];
    g1_glv_split(d[0], d[1], k);
    g1_jac tab[2][EC_ENDO_TAB];
    g1_odd_multiples(tab[0], p);
    for (int j = 0; j < EC_ENDO_TAB; j++) {   /* −σ on Jacobian coordinates: (βX, −Y, Z) */
        fp_mul(&tab[1][j].x, &EC_G1_BETA, &tab[0][j].x);
        fp_neg(&tab[1][j].y, &tab[0][j].y);
        tab[1][j].z = tab[0][j].z;
    }
    g1_mul_tables(r, (const g1_jac(*)[EC_ENDO_TAB])tab, &d[0][0], 2, 2);
}
