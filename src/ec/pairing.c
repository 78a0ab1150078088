/* Optimal ate pairing on BLS12-381: Miller loop over |x| = 0xd201000000010000 with the G2 point in
 * homogeneous projective coordinates on the M-type twist y² = x³ + 4(1 + u), sparse line
 * multiplication, and the final exponentiation by 3·(p¹² − 1)/r. */
#include "ec/pairing.h"

/* |x| for the curve parameter x = −0xd201000000010000; its sign is applied by conjugation. */
#define ATE_X 0xd201000000010000ULL
#define ATE_TOP 63           /* the top set bit, consumed by the initial T = Q */
/* Pairs whose Miller loops run side by side sharing the squarings; bounds the stack use. */
#define CHUNK 16

typedef struct { fp2 x, y, z; } g2_proj;   /* (X : Y : Z) = (X/Z, Y/Z) */

static bool g1_is_inf(const g1_aff *P) { return fp_is_zero(&P->x) && fp_is_zero(&P->y); }
static bool g2_is_inf(const g2_aff *Q) { return fp2_is_zero(&Q->x) && fp2_is_zero(&Q->y); }

/* Lines are kept as (c0, c1, c4) with the line at P equal, up to an Fp2 factor the final
 * exponentiation removes, to c0 + (c1·xP)·v + (c4·yP)·v·w: the untwisted line times w³ has exactly
 * that shape, which fp12_mul_by_014 multiplies by. */

/* T ← 2T and the tangent line at T. With b' = 4(1 + u): the line is
 * (3b'Z² − Y²) + 3X²·xP·v − 2YZ·yP·vw, and the doubled point (Costello–Lange–Naehrig) scaled by 4
 * to avoid halvings: X' = 2XY(Y² − 9b'Z²), Y' = (Y² + 9b'Z²)² − 108b'²Z⁴, Z' = 8Y³Z. */
static void dbl_step(fp2 ell[3], g2_proj *T)
{
    fp2 a, b, c, e, f, h, i, t;
    fp2_mul(&a, &T->x, &T->y);
    fp2_sqr(&b, &T->y);
    fp2_sqr(&c, &T->z);
    /* e = 3b'·Z² = 12(1 + u)·Z² */
    fp2_mul_by_nonresidue(&e, &c);
    fp2_dbl(&t, &e);
    fp2_add(&e, &e, &t);
    fp2_dbl(&e, &e);
    fp2_dbl(&e, &e);
    fp2_dbl(&f, &e);
    fp2_add(&f, &f, &e);                 /* f = 9b'Z² */
    fp2_add(&h, &T->y, &T->z);
    fp2_sqr(&h, &h);
    fp2_sub(&h, &h, &b);
    fp2_sub(&h, &h, &c);                 /* h = 2YZ */
    fp2_sqr(&i, &T->x);

    fp2_sub(&ell[0], &e, &b);
    fp2_dbl(&ell[1], &i);
    fp2_add(&ell[1], &ell[1], &i);
    fp2_neg(&ell[2], &h);

    fp2_sub(&t, &b, &f);
    fp2_mul(&T->x, &a, &t);
    fp2_dbl(&T->x, &T->x);               /* 2XY(Y² − 9b'Z²) */
    fp2_mul(&T->z, &b, &h);
    fp2_dbl(&T->z, &T->z);
    fp2_dbl(&T->z, &T->z);               /* 4Y²·2YZ */
    fp2_add(&t, &b, &f);
    fp2_sqr(&t, &t);
    fp2_sqr(&e, &e);                     /* (3b'Z²)² */
    fp2_dbl(&a, &e);
    fp2_add(&a, &a, &e);
    fp2_dbl(&a, &a);
    fp2_dbl(&a, &a);                     /* 12·(3b'Z²)² = 108b'²Z⁴ */
    fp2_sub(&T->y, &t, &a);
}

/* T ← T + Q (Q affine, T ≠ ±Q, which holds inside the loop for Q in G2) and the line through
 * them: with t0 = Y − yQ·Z and t1 = X − xQ·Z (slope t0/t1) the line is
 * (t0·xQ − t1·yQ) − t0·xP·v + t1·yP·vw. */
static void add_step(fp2 ell[3], g2_proj *T, const g2_aff *Q)
{
    fp2 t0, t1, t2, t3, t4, t5, u;
    fp2_mul(&u, &Q->y, &T->z);
    fp2_sub(&t0, &T->y, &u);
    fp2_mul(&u, &Q->x, &T->z);
    fp2_sub(&t1, &T->x, &u);

    fp2_mul(&ell[0], &t0, &Q->x);
    fp2_mul(&u, &t1, &Q->y);
    fp2_sub(&ell[0], &ell[0], &u);
    fp2_neg(&ell[1], &t0);
    ell[2] = t1;

    fp2_sqr(&t2, &t1);
    fp2_mul(&t3, &t2, &t1);
    fp2_mul(&t4, &t2, &T->x);
    fp2_sqr(&u, &t0);
    fp2_mul(&u, &u, &T->z);
    fp2_sub(&t5, &t3, &t4);
    fp2_sub(&t5, &t5, &t4);
    fp2_add(&t5, &t5, &u);               /* t1³ − 2t1²X + t0²Z */
    fp2_mul(&T->x, &t1, &t5);
    fp2_sub(&u, &t4, &t5);
    fp2_mul(&u, &u, &t0);
    fp2_mul(&t2, &t3, &T->y);
    fp2_sub(&T->y, &u, &t2);
    fp2_mul(&T->z, &T->z, &t3);
}

static void line_mul(fp12 *f, const fp2 ell[3], const g1_aff *P)
{
    fp2 c1, c4;
    fp2_mul_fp(&c1, &ell[1], &P->x);
    fp2_mul_fp(&c4, &ell[2], &P->y);
    fp12_mul_by_014(f, f, &ell[0], &c1, &c4);
}

void g2_prepare(g2_prepared *out, const g2_aff *Q)
{
    out->is_inf = g2_is_inf(Q);
    if (out->is_inf)
        return;
    g2_proj T = {Q->x, Q->y, FP2_ONE};
    size_t k = 0;
    for (int i = ATE_TOP - 1; i >= 0; i--) {
        dbl_step(out->ell[k++], &T);
        if ((ATE_X >> i) & 1)
            add_step(out->ell[k++], &T, Q);
    }
}

/* One chunk of at most CHUNK finite pairs, multiplied into f. */
static void miller_chunk(fp12 *f, const g1_aff *const *P, const g2_aff *const *Q, size_t n)
{
    g2_proj T[CHUNK];
    fp2 ell[3];
    fp12 acc = FP12_ONE;
    for (size_t j = 0; j < n; j++) {
        T[j].x = Q[j]->x;
        T[j].y = Q[j]->y;
        T[j].z = FP2_ONE;
    }
    for (int i = ATE_TOP - 1; i >= 0; i--) {
        if (i != ATE_TOP - 1)
            fp12_sqr(&acc, &acc);
        for (size_t j = 0; j < n; j++) {
            dbl_step(ell, &T[j]);
            line_mul(&acc, ell, P[j]);
        }
        if ((ATE_X >> i) & 1) {
            for (size_t j = 0; j < n; j++) {
                add_step(ell, &T[j], Q[j]);
                line_mul(&acc, ell, P[j]);
            }
        }
    }
    fp12_mul(f, f, &acc);
}

void miller_loop(fp12 *out, const g1_aff *Ps, const g2_aff *Qs, size_t n)
{
    const g1_aff *P[CHUNK];
    const g2_aff *Q[CHUNK];
    fp12 f = FP12_ONE;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (g1_is_inf(&Ps[i]) || g2_is_inf(&Qs[i]))
            continue;
        P[m] = &Ps[i];
        Q[m] = &Qs[i];
        if (++m == CHUNK) {
            miller_chunk(&f, P, Q, m);
            m = 0;
        }
    }
    if (m)
        miller_chunk(&f, P, Q, m);
    fp12_conj(out, &f);   /* x < 0: f_{−|x|} = 1/f_{|x|} up to factors the final exponentiation removes */
}

void miller_loop_prepared(fp12 *out, const g1_aff *Ps, const g2_prepared *Qs, size_t n)
{
    fp12 f = FP12_ONE;
    bool started = false;   /* squaring 1 is wasted work (and all pairs may be at infinity) */
    size_t k = 0;
    for (int i = ATE_TOP - 1; i >= 0; i--) {
        if (started)
            fp12_sqr(&f, &f);
        size_t lines = ((ATE_X >> i) & 1) ? 2 : 1;
        for (size_t j = 0; j < n; j++) {
            if (Qs[j].is_inf || g1_is_inf(&Ps[j]))
                continue;
            for (size_t l = 0; l < lines; l++)
                line_mul(&f, Qs[j].ell[k + l], &Ps[j]);
            started = true;
        }
        k += lines;
    }
    fp12_conj(out, &f);
}

/* r = a^x for a in the cyclotomic subgroup (x < 0, so the conjugate of a^|x|). */
static void cyc_exp_x(fp12 *r, const fp12 *a)
{
    fp12 t = *a;
    for (int i = ATE_TOP - 1; i >= 0; i--) {
        fp12_cyclotomic_sqr(&t, &t);
        if ((ATE_X >> i) & 1)
            fp12_mul(&t, &t, a);
    }
    fp12_conj(r, &t);
}

/* Easy part f^((p⁶ − 1)(p² + 1)) lands in the cyclotomic subgroup; the hard part raises to
 * 3·(p⁴ − p² + 1)/r = (x − 1)²·(x + p)·(x² + p² − 1) + 3 (Hayashida–Hayasaka–Teruya), which
 * needs five exponentiations by x and gives the value other implementations publish. */
void final_exp(fp12 *out, const fp12 *f)
{
    fp12 g, a, b, c, t;
    fp12_inv(&t, f);
    fp12_conj(&g, f);
    fp12_mul(&g, &g, &t);          /* f^(p⁶ − 1) */
    fp12_frobenius(&t, &g, 2);
    fp12_mul(&g, &g, &t);          /* ·^(p² + 1) */

    cyc_exp_x(&a, &g);
    fp12_conj(&t, &g);
    fp12_mul(&a, &a, &t);          /* g^(x − 1) */
    cyc_exp_x(&b, &a);
    fp12_conj(&t, &a);
    fp12_mul(&a, &b, &t);          /* g^((x − 1)²) */
    cyc_exp_x(&b, &a);
    fp12_frobenius(&t, &a, 1);
    fp12_mul(&b, &b, &t);          /* a^(x + p) */
    cyc_exp_x(&c, &b);
    cyc_exp_x(&c, &c);
    fp12_frobenius(&t, &b, 2);
    fp12_mul(&c, &c, &t);
    fp12_conj(&t, &b);
    fp12_mul(&c, &c, &t);          /* b^(x² + p² − 1) */
    fp12_cyclotomic_sqr(&t, &g);
    fp12_mul(&t, &t, &g);          /* g³ */
    fp12_mul(out, &c, &t);
}

void pairing(fp12 *out, const g1_aff *P, const g2_aff *Q)
{
    multi_pairing(out, P, Q, 1);
}

void multi_pairing(fp12 *out, const g1_aff *Ps, const g2_aff *Qs, size_t n)
{
    fp12 f;
    miller_loop(&f, Ps, Qs, n);
    final_exp(out, &f);
}

bool multi_pairing_is_one(const g1_aff *Ps, const g2_aff *Qs, size_t n)
{
    fp12 f;
    multi_pairing(&f, Ps, Qs, n);
    return fp12_is_one(&f);
}
