/* Fp2 = Fp[u]/(u² + 1): Karatsuba multiplication, complex squaring, inversion through the norm,
 * and the square root used by G2 decompression (through square roots in Fp of the norm). */
#include "ff/fp2.h"
#include "ff/field_tmpl.h"
#include "ff/limbs.h"
#include "ff/mont.h"

const fp2 FP2_ZERO = {{{0}}, {{0}}};
const fp2 FP2_ONE = {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                       0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
                     {{0}}};

void fp2_add(fp2 *r, const fp2 *a, const fp2 *b)
{
    fp_add(&r->c0, &a->c0, &b->c0);
    fp_add(&r->c1, &a->c1, &b->c1);
}

void fp2_sub(fp2 *r, const fp2 *a, const fp2 *b)
{
    fp_sub(&r->c0, &a->c0, &b->c0);
    fp_sub(&r->c1, &a->c1, &b->c1);
}

void fp2_dbl(fp2 *r, const fp2 *a)
{
    fp_dbl(&r->c0, &a->c0);
    fp_dbl(&r->c1, &a->c1);
}

void fp2_neg(fp2 *r, const fp2 *a)
{
    fp_neg(&r->c0, &a->c0);
    fp_neg(&r->c1, &a->c1);
}

void fp2_conj(fp2 *r, const fp2 *a)
{
    r->c0 = a->c0;
    fp_neg(&r->c1, &a->c1);
}

/* Karatsuba with one Montgomery reduction per output coefficient: three 12-limb products, then
 * c1 = (a0 + a1)(b0 + b1) − a0b0 − a1b1 = a0b1 + a1b0 < 2p² and c0 = a0b0 − a1b1 (+ p·2^384 when
 * negative), both below p·2^384 as the reduction requires. */
void fp2_mul(fp2 *r, const fp2 *a, const fp2 *b)
{
    uint64_t t0[12], t1[12], t2[12], sa[6], sb[6];
    limbs_add(sa, a->c0.l, a->c1.l, 6); /* < 2p < 2^382: no carry out */
    limbs_add(sb, b->c0.l, b->c1.l, 6);
    fp_mul_wide(t0, a->c0.l, b->c0.l);
    fp_mul_wide(t1, a->c1.l, b->c1.l);
    fp_mul_wide(t2, sa, sb);
    limbs_sub(t2, t2, t0, 12);
    limbs_sub(t2, t2, t1, 12);
    uint64_t neg = limbs_sub(t0, t0, t1, 12), pm[6];
    for (int i = 0; i < 6; i++)
        pm[i] = FP_MODULUS[i] & (0 - neg);
    limbs_add(t0 + 6, t0 + 6, pm, 6); /* the wrapped top limbs absorb the carry out */
    fp_redc(&r->c0, t0);
    fp_redc(&r->c1, t2);
}

void fp2_sqr(fp2 *r, const fp2 *a)
{
    fp s, d, m;
    fp_add(&s, &a->c0, &a->c1);
    fp_sub(&d, &a->c0, &a->c1);
    fp_mul(&m, &a->c0, &a->c1);
    fp_mul(&r->c0, &s, &d);
    fp_dbl(&r->c1, &m);
}

void fp2_mul_fp(fp2 *r, const fp2 *a, const fp *b)
{
    fp_mul(&r->c0, &a->c0, b);
    fp_mul(&r->c1, &a->c1, b);
}

void fp2_mul_by_nonresidue(fp2 *r, const fp2 *a)
{
    fp t;
    fp_sub(&t, &a->c0, &a->c1);
    fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

static void fp2_norm(fp *n, const fp2 *a)
{
    fp t;
    fp_sqr(n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(n, n, &t);
}

void fp2_inv(fp2 *r, const fp2 *a)
{
    fp n;
    fp2_norm(&n, a);
    fp_inv(&n, &n);
    fp_mul(&r->c0, &a->c0, &n);
    fp_mul(&r->c1, &a->c1, &n);
    fp_neg(&r->c1, &r->c1);
}

bool fp2_is_zero(const fp2 *a) { return fp_is_zero(&a->c0) && fp_is_zero(&a->c1); }
bool fp2_eq(const fp2 *a, const fp2 *b) { return fp_eq(&a->c0, &b->c0) && fp_eq(&a->c1, &b->c1); }

#define FP2_IS_ZERO(x) fp2_is_zero(x)
FF_DEFINE_BATCH_INV(fp2_batch_inv, fp2, fp2_mul, fp2_inv, FP2_IS_ZERO, FP2_ONE, FP2_ZERO)
FF_DEFINE_POW(fp2_pow, fp2, fp2_mul, fp2_sqr, FP2_ONE)

void fp2_frobenius(fp2 *r, const fp2 *a) { fp2_conj(r, a); }

/* a is a square in Fp2 exactly when its norm is a square in Fp. */
int fp2_legendre(const fp2 *a)
{
    fp n;
    fp2_norm(&n, a);
    return fp_legendre(&n);
}

bool fp2_sqrt(fp2 *r, const fp2 *a)
{
    fp s, t, x0, x1;
    if (fp_is_zero(&a->c1)) {
        /* −1 is a non-square (p = 3 mod 4): exactly one of ±c0 has a root in Fp. */
        if (fp_sqrt(&s, &a->c0)) {
            r->c0 = s, r->c1 = FP_ZERO;
        } else {
            fp_neg(&t, &a->c0);
            if (!fp_sqrt(&s, &t))
                return false; /* unreachable for a field element */
            r->c0 = FP_ZERO, r->c1 = s;
        }
        return true;
    }
    /* (x0 + x1·u)² = a gives x0² − x1² = c0 and 2·x0·x1 = c1, so x0² = (c0 ± √N)/2 with
     * N = c0² + c1²; the two candidates multiply to −c1²/4, a non-square, so exactly one works. */
    fp2_norm(&s, a);
    if (!fp_sqrt(&s, &s))
        return false;
    fp_add(&t, &a->c0, &s);
    fp_half(&t, &t);
    if (!fp_sqrt(&x0, &t)) {
        fp_sub(&t, &a->c0, &s);
        fp_half(&t, &t);
        if (!fp_sqrt(&x0, &t))
            return false; /* unreachable for a field element */
    }
    fp_dbl(&t, &x0);
    fp_inv(&t, &t);
    fp_mul(&x1, &a->c1, &t);
    r->c0 = x0, r->c1 = x1;
    return true;
}

bool fp2_is_lexicographically_largest(const fp2 *a)
{
    if (!fp_is_zero(&a->c1))
        return fp_is_lexicographically_largest(&a->c1);
    return fp_is_lexicographically_largest(&a->c0);
}
