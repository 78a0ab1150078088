/* Fp6 = Fp2[v]/(v³ − ξ), ξ = 1 + u: Karatsuba multiplication, Chung–Hasan squaring, inversion by
 * the adjugate, Frobenius maps, and the sparse products used by Fp12 line multiplication. */
#include "ff/fp12.h"
#include "ff/tower.h"

const fp6 FP6_ZERO = {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}};
const fp6 FP6_ONE = {{{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                        0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
                      {{0}}},
                     {{{0}}, {{0}}},
                     {{{0}}, {{0}}}};

void fp6_add(fp6 *r, const fp6 *a, const fp6 *b)
{
    fp2_add(&r->c0, &a->c0, &b->c0);
    fp2_add(&r->c1, &a->c1, &b->c1);
    fp2_add(&r->c2, &a->c2, &b->c2);
}

void fp6_sub(fp6 *r, const fp6 *a, const fp6 *b)
{
    fp2_sub(&r->c0, &a->c0, &b->c0);
    fp2_sub(&r->c1, &a->c1, &b->c1);
    fp2_sub(&r->c2, &a->c2, &b->c2);
}

void fp6_neg(fp6 *r, const fp6 *a)
{
    fp2_neg(&r->c0, &a->c0);
    fp2_neg(&r->c1, &a->c1);
    fp2_neg(&r->c2, &a->c2);
}

void fp6_mul(fp6 *r, const fp6 *a, const fp6 *b)
{
    fp2 t0, t1, t2, s, u, c0, c1, c2;
    fp2_mul(&t0, &a->c0, &b->c0);
    fp2_mul(&t1, &a->c1, &b->c1);
    fp2_mul(&t2, &a->c2, &b->c2);
    /* c0 = t0 + ξ·((a1 + a2)(b1 + b2) − t1 − t2) */
    fp2_add(&s, &a->c1, &a->c2);
    fp2_add(&u, &b->c1, &b->c2);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t1);
    fp2_sub(&s, &s, &t2);
    fp2_mul_by_nonresidue(&s, &s);
    fp2_add(&c0, &s, &t0);
    /* c1 = (a0 + a1)(b0 + b1) − t0 − t1 + ξ·t2 */
    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&u, &b->c0, &b->c1);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t0);
    fp2_sub(&s, &s, &t1);
    fp2_mul_by_nonresidue(&u, &t2);
    fp2_add(&c1, &s, &u);
    /* c2 = (a0 + a2)(b0 + b2) − t0 − t2 + t1 */
    fp2_add(&s, &a->c0, &a->c2);
    fp2_add(&u, &b->c0, &b->c2);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t0);
    fp2_sub(&s, &s, &t2);
    fp2_add(&c2, &s, &t1);
    r->c0 = c0, r->c1 = c1, r->c2 = c2;
}

void fp6_sqr(fp6 *r, const fp6 *a)
{
    /* Chung–Hasan SQR2: s0 = a0², s1 = 2a0a1, s2 = (a0 − a1 + a2)², s3 = 2a1a2, s4 = a2². */
    fp2 s0, s1, s2, s3, s4, t;
    fp2_sqr(&s0, &a->c0);
    fp2_mul(&s1, &a->c0, &a->c1);
    fp2_dbl(&s1, &s1);
    fp2_sub(&t, &a->c0, &a->c1);
    fp2_add(&t, &t, &a->c2);
    fp2_sqr(&s2, &t);
    fp2_mul(&s3, &a->c1, &a->c2);
    fp2_dbl(&s3, &s3);
    fp2_sqr(&s4, &a->c2);
    /* c2 = s1 + s2 + s3 − s0 − s4 */
    fp2_add(&t, &s1, &s2);
    fp2_add(&t, &t, &s3);
    fp2_sub(&t, &t, &s0);
    fp2_sub(&r->c2, &t, &s4);
    fp2_mul_by_nonresidue(&s3, &s3);
    fp2_add(&r->c0, &s0, &s3);
    fp2_mul_by_nonresidue(&s4, &s4);
    fp2_add(&r->c1, &s1, &s4);
}

void fp6_mul_by_nonresidue(fp6 *r, const fp6 *a)
{
    /* (a0 + a1 v + a2 v²)·v = ξ a2 + a0 v + a1 v² */
    fp2 t;
    fp2_mul_by_nonresidue(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

void fp6_inv(fp6 *r, const fp6 *a)
{
    fp2 t0, t1, t2, s, d;
    /* t0 = a0² − ξ a1 a2, t1 = ξ a2² − a0 a1, t2 = a1² − a0 a2; a⁻¹ = (t0 + t1 v + t2 v²) / d with
     * d = a0 t0 + ξ (a2 t1 + a1 t2). */
    fp2_sqr(&t0, &a->c0);
    fp2_mul(&s, &a->c1, &a->c2);
    fp2_mul_by_nonresidue(&s, &s);
    fp2_sub(&t0, &t0, &s);
    fp2_sqr(&t1, &a->c2);
    fp2_mul_by_nonresidue(&t1, &t1);
    fp2_mul(&s, &a->c0, &a->c1);
    fp2_sub(&t1, &t1, &s);
    fp2_sqr(&t2, &a->c1);
    fp2_mul(&s, &a->c0, &a->c2);
    fp2_sub(&t2, &t2, &s);
    fp2_mul(&d, &a->c2, &t1);
    fp2_mul(&s, &a->c1, &t2);
    fp2_add(&d, &d, &s);
    fp2_mul_by_nonresidue(&d, &d);
    fp2_mul(&s, &a->c0, &t0);
    fp2_add(&d, &d, &s);
    fp2_inv(&d, &d);
    fp2_mul(&r->c0, &t0, &d);
    fp2_mul(&r->c1, &t1, &d);
    fp2_mul(&r->c2, &t2, &d);
}

void fp6_frobenius(fp6 *r, const fp6 *a, unsigned power)
{
    unsigned k = power % 6;
    fp2 c0 = a->c0, c1 = a->c1, c2 = a->c2;
    if (k & 1) {
        fp2_conj(&c0, &c0);
        fp2_conj(&c1, &c1);
        fp2_conj(&c2, &c2);
    }
    r->c0 = c0;
    fp2_mul(&r->c1, &c1, &FROB6_C1[k]);
    fp2_mul(&r->c2, &c2, &FROB6_C2[k]);
}

bool fp6_is_zero(const fp6 *a) { return fp2_is_zero(&a->c0) && fp2_is_zero(&a->c1) && fp2_is_zero(&a->c2); }

bool fp6_eq(const fp6 *a, const fp6 *b)
{
    return fp2_eq(&a->c0, &b->c0) && fp2_eq(&a->c1, &b->c1) && fp2_eq(&a->c2, &b->c2);
}

void fp6_mul_by_01(fp6 *r, const fp6 *a, const fp2 *b0, const fp2 *b1)
{
    /* (a0 + a1 v + a2 v²)(b0 + b1 v) = (a0 b0 + ξ a2 b1) + (a0 b1 + a1 b0) v + (a1 b1 + a2 b0) v² */
    fp2 t0, t1, s, u, c0, c1, c2;
    fp2_mul(&t0, &a->c0, b0);
    fp2_mul(&t1, &a->c1, b1);
    fp2_add(&s, &a->c1, &a->c2);
    fp2_mul(&s, &s, b1);
    fp2_sub(&s, &s, &t1); /* a2 b1 */
    fp2_mul_by_nonresidue(&s, &s);
    fp2_add(&c0, &s, &t0);
    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&u, b0, b1);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t0);
    fp2_sub(&c1, &s, &t1);
    fp2_add(&s, &a->c0, &a->c2);
    fp2_mul(&s, &s, b0);
    fp2_sub(&s, &s, &t0); /* a2 b0 */
    fp2_add(&c2, &s, &t1);
    r->c0 = c0, r->c1 = c1, r->c2 = c2;
}

void fp6_mul_by_1(fp6 *r, const fp6 *a, const fp2 *b1)
{
    fp2 c0, c1, c2;
    fp2_mul(&c0, &a->c2, b1);
    fp2_mul_by_nonresidue(&c0, &c0);
    fp2_mul(&c1, &a->c0, b1);
    fp2_mul(&c2, &a->c1, b1);
    r->c0 = c0, r->c1 = c1, r->c2 = c2;
}
