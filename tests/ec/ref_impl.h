/* Reference arithmetic and random points for the curve tests, written once for G1 and G2 (the including
 * file defines the macros of src/ec/point_impl.h plus EC_RAND_FE). The references are deliberately
 * naive: textbook affine addition with one inversion per operation, MSB-first double-and-add on top of
 * it, and the subgroup test r·P == O. */
#include "ec_test_util.h"
#include "test_util.h"

#define REF_FN static __attribute__((unused))
#define F(op) EC_F(op)

/* ---- references ----------------------------------------------------------------------------- */

REF_FN EC_AFF ref_add(const EC_AFF *p, const EC_AFF *q)
{
    EC_AFF r;
    if (EC_FN(aff_is_inf)(p))
        return *q;
    if (EC_FN(aff_is_inf)(q))
        return *p;
    EC_FE lam, t, u;
    if (F(eq)(&p->x, &q->x)) {
        F(add)(&t, &p->y, &q->y);
        if (F(is_zero)(&t)) {
            EC_FN(aff_set_inf)(&r);
            return r;
        }
        F(sqr)(&t, &p->x);             /* λ = 3x² / 2y */
        F(add)(&u, &t, &t);
        F(add)(&t, &u, &t);
        F(add)(&u, &p->y, &p->y);
        F(inv)(&u, &u);
        F(mul)(&lam, &t, &u);
    } else {
        F(sub)(&t, &q->y, &p->y);      /* λ = (y2 − y1) / (x2 − x1) */
        F(sub)(&u, &q->x, &p->x);
        F(inv)(&u, &u);
        F(mul)(&lam, &t, &u);
    }
    F(sqr)(&t, &lam);
    F(sub)(&t, &t, &p->x);
    F(sub)(&r.x, &t, &q->x);
    F(sub)(&t, &p->x, &r.x);
    F(mul)(&t, &lam, &t);
    F(sub)(&r.y, &t, &p->y);
    return r;
}

REF_FN EC_AFF ref_mul(const EC_AFF *p, const uint64_t *k, size_t n)
{
    EC_AFF acc;
    EC_FN(aff_set_inf)(&acc);
    for (size_t i = 64 * n; i-- > 0;) {
        acc = ref_add(&acc, &acc);
        if ((k[i / 64] >> (i % 64)) & 1)
            acc = ref_add(&acc, p);
    }
    return acc;
}

/* ---- random points -------------------------------------------------------------------------- */

/* A curve point by try-and-increment, NOT cofactor-cleared (so almost never in the subgroup). */
REF_FN void rand_curve_point(EC_AFF *r)
{
    EC_FE x;
    EC_RAND_FE(&x);
    bool sign = test_rand64() & 1;
    while (!EC_FN(aff_from_x)(r, &x, sign))
        F(add)(&x, &x, &EC_FE_ONE);
}

REF_FN void rand_subgroup_point(EC_AFF *r)
{
    EC_AFF p;
    EC_JAC j;
    do {
        rand_curve_point(&p);
        EC_FN(jac_from_aff)(&j, &p);
        EC_FN(clear_cofactor)(&j, &j);
    } while (EC_FN(jac_is_inf)(&j));
    EC_FN(jac_to_aff)(r, &j);
}

/* The same point with a random Z ≠ 1, so the formulas see general Jacobian inputs. */
REF_FN void rand_jac_of(EC_JAC *r, const EC_AFF *p)
{
    EC_FE l, l2, l3;
    EC_FN(jac_from_aff)(r, p);
    if (EC_FN(aff_is_inf)(p)) {
        EC_RAND_FE(&r->x);     /* any X, Y with Z = 0 is infinity */
        EC_RAND_FE(&r->y);
        return;
    }
    do
        EC_RAND_FE(&l);
    while (F(is_zero)(&l));
    F(sqr)(&l2, &l);
    F(mul)(&l3, &l2, &l);
    F(mul)(&r->x, &r->x, &l2);
    F(mul)(&r->y, &r->y, &l3);
    r->z = l;
}

REF_FN bool jac_eq_aff(const EC_JAC *p, const EC_AFF *q)
{
    EC_AFF a;
    EC_FN(jac_to_aff)(&a, p);
    return EC_FN(aff_eq)(&a, q);
}

REF_FN bool slow_in_subgroup(const EC_AFF *p)
{
    EC_JAC j;
    EC_FN(jac_from_aff)(&j, p);
    EC_FN(jac_mul_limbs)(&j, &j, FR_MODULUS, FR_LIMBS);
    return EC_FN(jac_is_inf)(&j);
}

#undef F
