/* The group law of y² = x³ + b (a = 0) in affine and Jacobian coordinates, written once and compiled
 * for G1 (g1.c, over Fp) and G2 (g2.c, over Fp2). The including file defines:
 *   EC_FE          field element type (fp, fp2)        EC_F(op)    field function (fp_##op, fp2_##op)
 *   EC_FE_ZERO/ONE field constants                     EC_B        the curve constant b (an EC_FE)
 *   EC_AFF, EC_JAC point types                         EC_FN(name) public name (g1_##name, g2_##name)
 *   EC_GEN         the generator (an EC_AFF)
 * Variable-time formulas: add-1998-cmo-2, madd-2004-hmv and a 3M + 4S doubling (Explicit-Formulas
 * Database, a = 0), chosen for few field additions as well as few multiplications. The _ct code uses
 * Renes–Costello–Batina 2015 algorithms 7 and 9 (complete, projective). */
#include <assert.h>
#include <string.h>

#define F(op) EC_F(op)

void EC_FN(generator)(EC_AFF *r) { *r = EC_GEN; }

void EC_FN(aff_set_inf)(EC_AFF *r)
{
    r->x = EC_FE_ZERO;
    r->y = EC_FE_ZERO;
}

bool EC_FN(aff_is_inf)(const EC_AFF *p) { return F(is_zero)(&p->x) && F(is_zero)(&p->y); }

void EC_FN(jac_set_inf)(EC_JAC *r)
{
    r->x = EC_FE_ONE;
    r->y = EC_FE_ONE;
    r->z = EC_FE_ZERO;
}

bool EC_FN(jac_is_inf)(const EC_JAC *p) { return F(is_zero)(&p->z); }

void EC_FN(jac_from_aff)(EC_JAC *r, const EC_AFF *p)
{
    if (EC_FN(aff_is_inf)(p)) {
        EC_FN(jac_set_inf)(r);
        return;
    }
    r->x = p->x;
    r->y = p->y;
    r->z = EC_FE_ONE;
}

/* (X/Z², Y/Z³) given zi = 1/Z. */
static inline void EC_FN(jac_scale_to_aff)(EC_AFF *r, const EC_JAC *p, const EC_FE *zi)
{
    EC_FE zi2, zi3;
    F(sqr)(&zi2, zi);
    F(mul)(&zi3, &zi2, zi);
    F(mul)(&r->x, &p->x, &zi2);
    F(mul)(&r->y, &p->y, &zi3);
}

void EC_FN(jac_to_aff)(EC_AFF *r, const EC_JAC *p)
{
    if (EC_FN(jac_is_inf)(p)) {
        EC_FN(aff_set_inf)(r);
        return;
    }
    if (F(eq)(&p->z, &EC_FE_ONE)) {
        r->x = p->x;
        r->y = p->y;
        return;
    }
    EC_FE zi;
    F(inv)(&zi, &p->z);
    EC_FN(jac_scale_to_aff)(r, p, &zi);
}

/* Montgomery's trick with the output array as scratch: out[i].x first holds the product of the
 * non-zero Z's before i, so no extra memory is needed. */
void EC_FN(jac_batch_to_aff)(EC_AFF *out, const EC_JAC *in, size_t n)
{
    EC_FE acc = EC_FE_ONE, inv, zi;
    for (size_t i = 0; i < n; i++) {
        if (EC_FN(jac_is_inf)(&in[i]))
            continue;
        out[i].x = acc;
        F(mul)(&acc, &acc, &in[i].z);
    }
    F(inv)(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (EC_FN(jac_is_inf)(&in[i])) {
            EC_FN(aff_set_inf)(&out[i]);
            continue;
        }
        F(mul)(&zi, &inv, &out[i].x);
        F(mul)(&inv, &inv, &in[i].z);
        EC_FN(jac_scale_to_aff)(&out[i], &in[i], &zi);
    }
}

/* Doubling, 3M + 4S: D = 4XY², E = 3X², X3 = E² − 2D, Y3 = E(D − X3) − 8Y⁴, Z3 = 2YZ. Against
 * dbl-2009-l (2M + 5S) this trades a squaring for a multiplication and saves two field additions, which
 * cost about a third of a multiplication each here. Z = 0 gives Z3 = 0, so infinity needs no branch. */
void EC_FN(jac_dbl)(EC_JAC *r, const EC_JAC *p)
{
    EC_FE a, b, c, d, e, t;
    F(sqr)(&a, &p->x);
    F(sqr)(&b, &p->y);
    F(sqr)(&c, &b);
    F(mul)(&d, &p->x, &b);
    F(dbl)(&d, &d);
    F(dbl)(&d, &d);          /* D = 4XY² */
    F(dbl)(&e, &a);
    F(add)(&e, &e, &a);      /* E = 3X² */
    F(mul)(&r->z, &p->y, &p->z);
    F(dbl)(&r->z, &r->z);    /* Z3 = 2YZ; p is not read again */
    F(sqr)(&t, &e);
    F(sub)(&t, &t, &d);
    F(sub)(&r->x, &t, &d);   /* X3 = E² − 2D */
    F(sub)(&t, &d, &r->x);
    F(mul)(&t, &e, &t);
    F(dbl)(&c, &c);
    F(dbl)(&c, &c);
    F(dbl)(&c, &c);
    F(sub)(&r->y, &t, &c);   /* Y3 = E(D − X3) − 8C */
}

/* add-1998-cmo-2: 12M + 4S and 7 field additions (add-2007-bl: 11M + 5S but 13 additions). */
void EC_FN(jac_add)(EC_JAC *r, const EC_JAC *p, const EC_JAC *q)
{
    if (EC_FN(jac_is_inf)(p)) {
        *r = *q;
        return;
    }
    if (EC_FN(jac_is_inf)(q)) {
        *r = *p;
        return;
    }
    EC_FE z1z1, z2z2, u1, u2, s1, s2, h, rr, hh, hhh, v, t;
    F(sqr)(&z1z1, &p->z);
    F(sqr)(&z2z2, &q->z);
    F(mul)(&u1, &p->x, &z2z2);
    F(mul)(&u2, &q->x, &z1z1);
    F(mul)(&s1, &p->y, &q->z);
    F(mul)(&s1, &s1, &z2z2);
    F(mul)(&s2, &q->y, &p->z);
    F(mul)(&s2, &s2, &z1z1);
    F(sub)(&h, &u2, &u1);
    F(sub)(&rr, &s2, &s1);
    if (F(is_zero)(&h)) {
        if (F(is_zero)(&rr))
            EC_FN(jac_dbl)(r, p);
        else
            EC_FN(jac_set_inf)(r);
        return;
    }
    F(sqr)(&hh, &h);
    F(mul)(&hhh, &h, &hh);
    F(mul)(&v, &u1, &hh);
    F(mul)(&r->z, &p->z, &q->z);
    F(mul)(&r->z, &r->z, &h);   /* Z3 = Z1·Z2·H; p, q are not read again */
    F(sqr)(&t, &rr);
    F(sub)(&t, &t, &hhh);
    F(sub)(&t, &t, &v);
    F(sub)(&r->x, &t, &v);      /* X3 = R² − H³ − 2V */
    F(sub)(&t, &v, &r->x);
    F(mul)(&t, &rr, &t);
    F(mul)(&s1, &s1, &hhh);
    F(sub)(&r->y, &t, &s1);     /* Y3 = R(V − X3) − S1·H³ */
}

/* madd-2004-hmv: 8M + 3S and 7 field additions (madd-2007-bl: 7M + 4S but 14 additions). */
void EC_FN(jac_add_aff)(EC_JAC *r, const EC_JAC *p, const EC_AFF *q)
{
    if (EC_FN(aff_is_inf)(q)) {
        *r = *p;
        return;
    }
    if (EC_FN(jac_is_inf)(p)) {
        EC_FN(jac_from_aff)(r, q);
        return;
    }
    EC_FE z1z1, h, rr, hh, hhh, v, t;
    F(sqr)(&z1z1, &p->z);
    F(mul)(&rr, &p->z, &z1z1);
    F(mul)(&rr, &rr, &q->y);
    F(sub)(&rr, &rr, &p->y);    /* R = Y2·Z1³ − Y1 */
    F(mul)(&h, &q->x, &z1z1);
    F(sub)(&h, &h, &p->x);      /* H = X2·Z1² − X1 */
    if (F(is_zero)(&h)) {
        if (F(is_zero)(&rr))
            EC_FN(jac_dbl)(r, p);
        else
            EC_FN(jac_set_inf)(r);
        return;
    }
    F(sqr)(&hh, &h);
    F(mul)(&hhh, &hh, &h);
    F(mul)(&v, &p->x, &hh);
    F(mul)(&t, &p->y, &hhh);    /* Y1·H³, needed after Y1 may be overwritten */
    F(mul)(&r->z, &p->z, &h);   /* Z3 = Z1·H */
    F(sqr)(&hh, &rr);
    F(sub)(&hh, &hh, &hhh);
    F(sub)(&hh, &hh, &v);
    F(sub)(&r->x, &hh, &v);     /* X3 = R² − H³ − 2V */
    F(sub)(&v, &v, &r->x);
    F(mul)(&v, &rr, &v);
    F(sub)(&r->y, &v, &t);      /* Y3 = R(V − X3) − Y1·H³ */
}

void EC_FN(jac_neg)(EC_JAC *r, const EC_JAC *p)
{
    r->x = p->x;
    F(neg)(&r->y, &p->y);
    r->z = p->z;
}

void EC_FN(aff_neg)(EC_AFF *r, const EC_AFF *p)
{
    r->x = p->x;
    F(neg)(&r->y, &p->y);   /* −0 = 0 keeps (0, 0) as infinity */
}

bool EC_FN(jac_eq)(const EC_JAC *p, const EC_JAC *q)
{
    bool pi = EC_FN(jac_is_inf)(p), qi = EC_FN(jac_is_inf)(q);
    if (pi || qi)
        return pi && qi;
    EC_FE z1z1, z2z2, a, b;
    F(sqr)(&z1z1, &p->z);
    F(sqr)(&z2z2, &q->z);
    F(mul)(&a, &p->x, &z2z2);
    F(mul)(&b, &q->x, &z1z1);
    if (!F(eq)(&a, &b))
        return false;
    F(mul)(&a, &p->y, &z2z2);
    F(mul)(&a, &a, &q->z);
    F(mul)(&b, &q->y, &z1z1);
    F(mul)(&b, &b, &p->z);
    return F(eq)(&a, &b);
}

bool EC_FN(aff_eq)(const EC_AFF *p, const EC_AFF *q)
{
    return F(eq)(&p->x, &q->x) && F(eq)(&p->y, &q->y);
}

bool EC_FN(aff_on_curve)(const EC_AFF *p)
{
    if (EC_FN(aff_is_inf)(p))
        return true;
    EC_FE lhs, rhs;
    F(sqr)(&lhs, &p->y);
    F(sqr)(&rhs, &p->x);
    F(mul)(&rhs, &rhs, &p->x);
    F(add)(&rhs, &rhs, &EC_B);
    return F(eq)(&lhs, &rhs);
}

bool EC_FN(jac_on_curve)(const EC_JAC *p)
{
    if (EC_FN(jac_is_inf)(p))
        return true;
    EC_FE lhs, rhs, z6;
    F(sqr)(&lhs, &p->y);
    F(sqr)(&z6, &p->z);
    F(mul)(&rhs, &z6, &p->z);
    F(sqr)(&z6, &rhs);
    F(mul)(&z6, &z6, &EC_B);
    F(sqr)(&rhs, &p->x);
    F(mul)(&rhs, &rhs, &p->x);
    F(add)(&rhs, &rhs, &z6);  /* X³ + b·Z⁶ */
    return F(eq)(&lhs, &rhs);
}

bool EC_FN(aff_from_x)(EC_AFF *r, const EC_FE *x, bool largest)
{
    EC_FE y2, y;
    F(sqr)(&y2, x);
    F(mul)(&y2, &y2, x);
    F(add)(&y2, &y2, &EC_B);
    if (!F(sqrt)(&y, &y2))
        return false;
    if (F(is_lexicographically_largest)(&y) != largest)
        F(neg)(&y, &y);
    r->x = *x;
    r->y = y;
    return true;
}

/* ---- scalar multiplication ----------------------------------------------------------------- */

#define EC_WNAF_W 5   /* table of 2^(W−2) = 8 odd multiples; ≈ 256/(W+1) additions for 256 bits */

#ifndef EC_WNAF_DEFINED
#define EC_WNAF_DEFINED
/* Width-w NAF of the n-limb k: naf[i] ∈ {0, ±1, ±3, …, ±(2^(w−1) − 1)}, Σ naf[i]·2^i = k, no two
 * non-zero digits within w positions. Returns the index of the top non-zero digit, or −1 for k = 0.
 * naf must hold 64·n + 1 entries. */
static int ec_wnaf(int8_t *naf, const uint64_t *k, size_t n, unsigned w)
{
    const size_t nbits = 64 * n;
    const unsigned full = 1u << w, half = 1u << (w - 1);
    unsigned carry = 0;
    int top = -1;
    memset(naf, 0, nbits + 1);
    for (size_t i = 0; i < nbits;) {
        unsigned bit = (unsigned)(k[i / 64] >> (i % 64)) & 1;
        if (bit == carry) {       /* this digit is 0 (with the carry, if any, moving up) */
            i++;
            continue;
        }
        /* The next w bits plus the carry; bits past the end read as 0. */
        uint64_t lo = k[i / 64] >> (i % 64);
        if (i % 64 && i / 64 + 1 < n)
            lo |= k[i / 64 + 1] << (64 - i % 64);
        unsigned v = (unsigned)(lo & (full - 1)) + carry;   /* odd, < 2^w */
        int d = (int)v;
        carry = v >= half;
        if (carry)
            d -= (int)full;
        naf[i] = (int8_t)d;
        top = (int)i;
        i += w;
    }
    if (carry) {
        naf[nbits] = 1;
        top = (int)nbits;
    }
    return top;
}

/* All-ones when a == b, else 0, without a data-dependent branch. */
static inline uint64_t ec_ct_eq_mask(uint64_t a, uint64_t b)
{
    uint64_t x = a ^ b;
    return ((x | (0 - x)) >> 63) - 1;
}

/* dst = mask ? src : dst over n 64-bit words. */
static inline void ec_ct_cmov(uint64_t *dst, const uint64_t *src, size_t n, uint64_t mask)
{
    for (size_t i = 0; i < n; i++)
        dst[i] ^= (dst[i] ^ src[i]) & mask;
}
#endif

void EC_FN(jac_mul_limbs)(EC_JAC *r, const EC_JAC *p, const uint64_t *k, size_t n)
{
    int8_t naf[EC_MUL_MAX_LIMBS * 64 + 1];
    assert(n <= EC_MUL_MAX_LIMBS);
    if (n > EC_MUL_MAX_LIMBS)
        n = EC_MUL_MAX_LIMBS;
    int top = ec_wnaf(naf, k, n, EC_WNAF_W);
    if (top < 0 || EC_FN(jac_is_inf)(p)) {
        EC_FN(jac_set_inf)(r);
        return;
    }
    EC_JAC tab[1 << (EC_WNAF_W - 2)], p2, acc, t;   /* tab[i] = (2i + 1)·p */
    tab[0] = *p;
    EC_FN(jac_dbl)(&p2, p);
    for (size_t i = 1; i < sizeof tab / sizeof tab[0]; i++)
        EC_FN(jac_add)(&tab[i], &tab[i - 1], &p2);
    int d = naf[top];
    acc = tab[(d - 1) / 2];   /* the top digit is positive */
    for (int i = top - 1; i >= 0; i--) {
        EC_FN(jac_dbl)(&acc, &acc);
        d = naf[i];
        if (d > 0) {
            EC_FN(jac_add)(&acc, &acc, &tab[(d - 1) / 2]);
        } else if (d < 0) {
            EC_FN(jac_neg)(&t, &tab[(-d - 1) / 2]);
            EC_FN(jac_add)(&acc, &acc, &t);
        }
    }
    *r = acc;
}

void EC_FN(jac_mul)(EC_JAC *r, const EC_JAC *p, const cuzk_scalar_t *k)
{
    EC_FN(jac_mul_limbs)(r, p, k->l, 4);
}

/* ---- multi-scalar with shared doublings (the endomorphism decompositions) ---------------------- */

#define EC_ENDO_W 4
#define EC_ENDO_TAB (1 << (EC_ENDO_W - 2))   /* odd multiples 1, 3, 5, 7 */
#define EC_ENDO_MAX_LIMBS 2

/* tab[j] = (2j + 1)·p */
static void EC_FN(odd_multiples)(EC_JAC tab[EC_ENDO_TAB], const EC_JAC *p)
{
    EC_JAC p2;
    tab[0] = *p;
    EC_FN(jac_dbl)(&p2, p);
    for (int j = 1; j < EC_ENDO_TAB; j++)
        EC_FN(jac_add)(&tab[j], &tab[j - 1], &p2);
}

/* r = Σ_{i<m} k_i·P_i, where tab[i] holds the odd multiples of P_i and k_i is the n-limb number at
 * k + i·n (n <= EC_ENDO_MAX_LIMBS): interleaved width-4 NAFs sharing one doubling chain. */
static void EC_FN(mul_tables)(EC_JAC *r, const EC_JAC (*tab)[EC_ENDO_TAB], const uint64_t *k, size_t m,
                              size_t n)
{
    int8_t naf[4][EC_ENDO_MAX_LIMBS * 64 + 1];
    int top = -1;
    for (size_t i = 0; i < m; i++) {
        int t = ec_wnaf(naf[i], k + i * n, n, EC_ENDO_W);
        top = t > top ? t : top;
    }
    EC_JAC acc, t;
    EC_FN(jac_set_inf)(&acc);
    for (int b = top; b >= 0; b--) {
        EC_FN(jac_dbl)(&acc, &acc);
        for (size_t i = 0; i < m; i++) {
            int d = naf[i][b];
            if (d > 0) {
                EC_FN(jac_add)(&acc, &acc, &tab[i][(d - 1) / 2]);
            } else if (d < 0) {
                EC_FN(jac_neg)(&t, &tab[i][(-d - 1) / 2]);
                EC_FN(jac_add)(&acc, &acc, &t);
            }
        }
    }
    *r = acc;
}

/* k mod r for any 256-bit k (at most two subtractions: 2^256 < 3r). */
static void EC_FN(scalar_reduce)(uint64_t out[4], const cuzk_scalar_t *k)
{
    static const uint64_t R[4] = {0xffffffff00000001ull, 0x53bda402fffe5bfeull, 0x3339d80809a1d805ull,
                                  0x73eda753299d7d48ull};
    for (int i = 0; i < 4; i++)
        out[i] = k->l[i];
    for (int rep = 0; rep < 2; rep++) {
        int ge = 1;
        for (int i = 3; i >= 0; i--) {
            if (out[i] != R[i]) {
                ge = out[i] > R[i];
                break;
            }
        }
        if (!ge)
            return;
        unsigned __int128 borrow = 0;
        for (int i = 0; i < 4; i++) {
            unsigned __int128 d = (unsigned __int128)out[i] - R[i] - borrow;
            out[i] = (uint64_t)d;
            borrow = (d >> 64) & 1;
        }
    }
}

/* q = a / d, returns a mod d, for an n-limb a and a 64-bit d. */
static uint64_t EC_FN(divrem_u64)(uint64_t *q, const uint64_t *a, size_t n, uint64_t d)
{
    unsigned __int128 rem = 0;
    for (size_t i = n; i-- > 0;) {
        unsigned __int128 cur = rem << 64 | a[i];
        q[i] = (uint64_t)(cur / d);
        rem = cur % d;
    }
    return (uint64_t)rem;
}

/* |x| = 0xd201000000010000: 63 doublings and 5 additions, then the sign. */

static void EC_FN(jac_mul_abs_x)(EC_JAC *r, const EC_JAC *p)
{
    EC_JAC acc = *p;
    for (int i = 62; i >= 0; i--) {
        EC_FN(jac_dbl)(&acc, &acc);
        if ((EC_BLS_X_ABS >> i) & 1)
            EC_FN(jac_add)(&acc, &acc, p);
    }
    *r = acc;
}

/* The same from an affine point (mixed additions), for the subgroup tests. */
static void EC_FN(aff_mul_abs_x)(EC_JAC *r, const EC_AFF *p)
{
    EC_JAC acc;
    EC_FN(jac_from_aff)(&acc, p);
    for (int i = 62; i >= 0; i--) {
        EC_FN(jac_dbl)(&acc, &acc);
        if ((EC_BLS_X_ABS >> i) & 1)
            EC_FN(jac_add_aff)(&acc, &acc, p);
    }
    *r = acc;
}

void EC_FN(jac_mul_by_x)(EC_JAC *r, const EC_JAC *p)
{
    EC_FN(jac_mul_abs_x)(r, p);
    EC_FN(jac_neg)(r, r);   /* x < 0 */
}

/* ---- constant-time multiplication (complete projective formulas) ---------------------------- */

/* These use EC_JAC to hold homogeneous projective (X : Y : Z): x = X/Z, y = Y/Z, infinity (0 : 1 : 0). */

/* RCB algorithm 7: complete addition, 12M + 2·(×3b). */
static void EC_FN(prj_add)(EC_JAC *r, const EC_JAC *p, const EC_JAC *q, const EC_FE *b3)
{
    EC_FE t0, t1, t2, t3, t4, x3, y3, z3;
    F(mul)(&t0, &p->x, &q->x);
    F(mul)(&t1, &p->y, &q->y);
    F(mul)(&t2, &p->z, &q->z);
    F(add)(&t3, &p->x, &p->y);
    F(add)(&t4, &q->x, &q->y);
    F(mul)(&t3, &t3, &t4);
    F(add)(&t4, &t0, &t1);
    F(sub)(&t3, &t3, &t4);   /* X1Y2 + X2Y1 */
    F(add)(&t4, &p->y, &p->z);
    F(add)(&x3, &q->y, &q->z);
    F(mul)(&t4, &t4, &x3);
    F(add)(&x3, &t1, &t2);
    F(sub)(&t4, &t4, &x3);   /* Y1Z2 + Y2Z1 */
    F(add)(&x3, &p->x, &p->z);
    F(add)(&y3, &q->x, &q->z);
    F(mul)(&x3, &x3, &y3);
    F(add)(&y3, &t0, &t2);
    F(sub)(&y3, &x3, &y3);   /* X1Z2 + X2Z1 */
    F(dbl)(&x3, &t0);
    F(add)(&t0, &x3, &t0);   /* 3X1X2 */
    F(mul)(&t2, b3, &t2);
    F(add)(&z3, &t1, &t2);
    F(sub)(&t1, &t1, &t2);
    F(mul)(&y3, b3, &y3);
    F(mul)(&x3, &t4, &y3);
    F(mul)(&t2, &t3, &t1);
    F(sub)(&x3, &t2, &x3);
    F(mul)(&y3, &y3, &t0);
    F(mul)(&t1, &t1, &z3);
    F(add)(&y3, &t1, &y3);
    F(mul)(&t0, &t0, &t3);
    F(mul)(&z3, &z3, &t4);
    F(add)(&z3, &z3, &t0);
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

/* RCB algorithm 9: complete doubling, 6M + 2S + 1·(×3b). */
static void EC_FN(prj_dbl)(EC_JAC *r, const EC_JAC *p, const EC_FE *b3)
{
    EC_FE t0, t1, t2, x3, y3, z3;
    F(sqr)(&t0, &p->y);
    F(dbl)(&z3, &t0);
    F(dbl)(&z3, &z3);
    F(dbl)(&z3, &z3);        /* 8Y² */
    F(mul)(&t1, &p->y, &p->z);
    F(sqr)(&t2, &p->z);
    F(mul)(&t2, b3, &t2);    /* 3bZ² */
    F(mul)(&x3, &t2, &z3);
    F(add)(&y3, &t0, &t2);
    F(mul)(&z3, &t1, &z3);
    F(dbl)(&t1, &t2);
    F(add)(&t2, &t1, &t2);
    F(sub)(&t0, &t0, &t2);
    F(mul)(&y3, &t0, &y3);
    F(add)(&y3, &x3, &y3);
    F(mul)(&t1, &p->x, &p->y);
    F(mul)(&x3, &t0, &t1);
    F(dbl)(&x3, &x3);
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

/* Fixed 4-bit windows over all 256 bits; every table entry is read for every window. */
void EC_FN(jac_mul_ct)(EC_JAC *r, const EC_JAC *p, const cuzk_scalar_t *k)
{
    enum { WORDS = sizeof(EC_JAC) / sizeof(uint64_t) };
    EC_FE b3, z2;
    F(dbl)(&b3, &EC_B);
    F(add)(&b3, &b3, &EC_B);
    /* Jacobian (X, Y, Z) is projective (XZ : Y : Z³); an infinite p (Z = 0) becomes (0 : Y : 0),
     * which the complete formulas treat as the identity as long as Y ≠ 0, so use (0 : 1 : 0). */
    EC_JAC tab[16], acc, t;
    EC_JAC prj_inf = {EC_FE_ZERO, EC_FE_ONE, EC_FE_ZERO};
    F(mul)(&tab[1].x, &p->x, &p->z);
    F(sqr)(&z2, &p->z);
    F(mul)(&tab[1].z, &z2, &p->z);
    tab[1].y = p->y;
    ec_ct_cmov((uint64_t *)&tab[1], (const uint64_t *)&prj_inf, WORDS,
               (uint64_t)0 - (uint64_t)F(is_zero)(&p->z));
    tab[0] = prj_inf;
    for (int i = 2; i < 16; i++)
        EC_FN(prj_add)(&tab[i], &tab[i - 1], &tab[1], &b3);
    acc = prj_inf;
    for (int w = 63; w >= 0; w--) {
        for (int j = 0; j < 4; j++)
            EC_FN(prj_dbl)(&acc, &acc, &b3);
        uint64_t digit = (k->l[w / 16] >> (4 * (w % 16))) & 15;
        t = tab[0];
        for (uint64_t i = 1; i < 16; i++)
            ec_ct_cmov((uint64_t *)&t, (const uint64_t *)&tab[i], WORDS, ec_ct_eq_mask(i, digit));
        EC_FN(prj_add)(&acc, &acc, &t, &b3);
    }
    /* Back to Jacobian: (X : Y : Z) → (XZ, YZ², Z); the identity keeps Z = 0. */
    F(mul)(&r->x, &acc.x, &acc.z);
    F(sqr)(&z2, &acc.z);
    F(mul)(&r->y, &acc.y, &z2);
    r->z = acc.z;
}

#undef F
#undef EC_WNAF_W
