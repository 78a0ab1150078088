/* Fp12 = Fp6[w]/(w² − v): Karatsuba multiplication, complex squaring, inversion, conjugation,
 * Frobenius maps, Granger–Scott cyclotomic squaring, the sparse line multiplication mul_by_014,
 * exponentiation and the byte encoding. */
#include "ff/fp12.h"
#include "ff/tower.h"

const fp12 FP12_ONE = {{{{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                           0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
                         {{0}}},
                        {{{0}}, {{0}}},
                        {{{0}}, {{0}}}},
                       {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}}};

void fp12_mul(fp12 *r, const fp12 *a, const fp12 *b)
{
    fp6 t0, t1, s, u;
    fp6_mul(&t0, &a->c0, &b->c0);
    fp6_mul(&t1, &a->c1, &b->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_add(&u, &b->c0, &b->c1);
    fp6_mul(&s, &s, &u);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&r->c1, &s, &t1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_add(&r->c0, &t0, &t1);
}

void fp12_sqr(fp12 *r, const fp12 *a)
{
    /* (a0 + a1 w)² = (a0 + a1)(a0 + v a1) − t − v t + 2t w, with t = a0 a1 */
    fp6 t, s, u;
    fp6_mul(&t, &a->c0, &a->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_nonresidue(&u, &a->c1);
    fp6_add(&u, &u, &a->c0);
    fp6_mul(&s, &s, &u);
    fp6_sub(&s, &s, &t);
    fp6_add(&r->c1, &t, &t);
    fp6_mul_by_nonresidue(&t, &t);
    fp6_sub(&r->c0, &s, &t);
}

void fp12_inv(fp12 *r, const fp12 *a)
{
    /* (a0 + a1 w)⁻¹ = (a0 − a1 w) / (a0² − v a1²) */
    fp6 t0, t1;
    fp6_sqr(&t0, &a->c0);
    fp6_sqr(&t1, &a->c1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_sub(&t0, &t0, &t1);
    fp6_inv(&t0, &t0);
    fp6_mul(&r->c0, &a->c0, &t0);
    fp6_mul(&r->c1, &a->c1, &t0);
    fp6_neg(&r->c1, &r->c1);
}

void fp12_conj(fp12 *r, const fp12 *a)
{
    r->c0 = a->c0;
    fp6_neg(&r->c1, &a->c1);
}

void fp12_frobenius(fp12 *r, const fp12 *a, unsigned power)
{
    unsigned k = power % 12;
    fp6 c1;
    fp6_frobenius(&r->c0, &a->c0, k);
    fp6_frobenius(&c1, &a->c1, k);
    fp2_mul(&r->c1.c0, &c1.c0, &FROB12_W[k]);
    fp2_mul(&r->c1.c1, &c1.c1, &FROB12_W[k]);
    fp2_mul(&r->c1.c2, &c1.c2, &FROB12_W[k]);
}

/* (x0 + x1 s)² in Fp4 = Fp2[s]/(s² − ξ): returns the two Fp2 coefficients. */
static void fp4_sqr(fp2 *r0, fp2 *r1, const fp2 *x0, const fp2 *x1)
{
    fp2 a2, b2, t;
    fp2_sqr(&a2, x0);
    fp2_sqr(&b2, x1);
    fp2_add(&t, x0, x1);
    fp2_sqr(&t, &t);
    fp2_sub(&t, &t, &a2);
    fp2_sub(r1, &t, &b2);
    fp2_mul_by_nonresidue(&b2, &b2);
    fp2_add(r0, &a2, &b2);
}

void fp12_cyclotomic_sqr(fp12 *r, const fp12 *a)
{
    /* Granger–Scott. Write a = A0 + A1 w + A2 w² over Fp4 = Fp2[s], s = w³ (s² = ξ), with
     * A0 = g0 + g3 s, A1 = g1 + g4 s, A2 = g2 + g5 s where g0..g5 are the coefficients of
     * 1, w, ..., w⁵ (g0 = c0.c0, g1 = c1.c0, g2 = c0.c1, g3 = c1.c1, g4 = c0.c2, g5 = c1.c2).
     * In the cyclotomic subgroup, a² = (3A0² − 2Ā0) + (3 s A2² + 2Ā1) w + (3A1² − 2Ā2) w²,
     * where Ā is the conjugate x0 − x1 s. */
    const fp2 *g0 = &a->c0.c0, *g1 = &a->c1.c0, *g2 = &a->c0.c1;
    const fp2 *g3 = &a->c1.c1, *g4 = &a->c0.c2, *g5 = &a->c1.c2;
    fp2 t0, t1, u0, u1, v0, v1, h;
    fp4_sqr(&t0, &t1, g0, g3); /* A0² */
    fp4_sqr(&v0, &v1, g1, g4); /* A1² */
    fp4_sqr(&u0, &u1, g2, g5); /* A2² */
    fp12 o;
    /* h0 = 3 t0 − 2 g0, h3 = 3 t1 + 2 g3 */
    fp2_sub(&h, &t0, g0), fp2_dbl(&h, &h), fp2_add(&o.c0.c0, &h, &t0);
    fp2_add(&h, &t1, g3), fp2_dbl(&h, &h), fp2_add(&o.c1.c1, &h, &t1);
    /* s·A2² = ξ u1 + u0 s: h1 = 3 ξ u1 + 2 g1, h4 = 3 u0 − 2 g4 */
    fp2_mul_by_nonresidue(&u1, &u1);
    fp2_add(&h, &u1, g1), fp2_dbl(&h, &h), fp2_add(&o.c1.c0, &h, &u1);
    fp2_sub(&h, &u0, g4), fp2_dbl(&h, &h), fp2_add(&o.c0.c2, &h, &u0);
    /* h2 = 3 v0 − 2 g2, h5 = 3 v1 + 2 g5 */
    fp2_sub(&h, &v0, g2), fp2_dbl(&h, &h), fp2_add(&o.c0.c1, &h, &v0);
    fp2_add(&h, &v1, g5), fp2_dbl(&h, &h), fp2_add(&o.c1.c2, &h, &v1);
    *r = o;
}

void fp12_mul_by_014(fp12 *r, const fp12 *a, const fp2 *c0, const fp2 *c1, const fp2 *c4)
{
    /* b = (c0 + c1 v) + (c4 v) w: Karatsuba over Fp6 with the sparse products. */
    fp6 t0, t1, s;
    fp2 o;
    fp6_mul_by_01(&t0, &a->c0, c0, c1);
    fp6_mul_by_1(&t1, &a->c1, c4);
    fp6_add(&s, &a->c0, &a->c1);
    fp2_add(&o, c1, c4);
    fp6_mul_by_01(&s, &s, c0, &o);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&r->c1, &s, &t1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_add(&r->c0, &t0, &t1);
}

void fp12_pow(fp12 *r, const fp12 *a, const uint64_t *e, size_t e_limbs)
{
    /* Plain square-and-multiply; the pairing's fixed exponents use dedicated chains. */
    fp12 acc = FP12_ONE, base = *a;
    for (size_t i = e_limbs; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            fp12_sqr(&acc, &acc);
            if ((e[i] >> b) & 1)
                fp12_mul(&acc, &acc, &base);
        }
    *r = acc;
}

bool fp12_is_one(const fp12 *a) { return fp12_eq(a, &FP12_ONE); }

bool fp12_eq(const fp12 *a, const fp12 *b) { return fp6_eq(&a->c0, &b->c0) && fp6_eq(&a->c1, &b->c1); }

/* 576 bytes: the twelve Fp coefficients, 48 bytes big-endian each, in the order
 *   c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1, c0.c2.c0, c0.c2.c1,
 *   c1.c0.c0, c1.c0.c1, c1.c1.c0, c1.c1.c1, c1.c2.c0, c1.c2.c1
 * (Fp12 = c0 ‖ c1, Fp6 = c0 ‖ c1 ‖ c2, Fp2 = c0 ‖ c1), which is the order of @noble/curves'
 * Fp12.toBytes for BLS12-381. */
void fp12_to_bytes(uint8_t out[576], const fp12 *a)
{
    const fp6 *h[2] = {&a->c0, &a->c1};
    for (int i = 0; i < 2; i++) {
        const fp2 *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        for (int j = 0; j < 3; j++) {
            fp_to_bytes_be(out + 96 * (3 * i + j), &c[j]->c0);
            fp_to_bytes_be(out + 96 * (3 * i + j) + 48, &c[j]->c1);
        }
    }
}
