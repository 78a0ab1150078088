/* XYZZ coordinates for y² = x³ + b (a = 0), written once for G1 and G2 (see group_g1.h).
 * A point (X, Y, ZZ, ZZZ) stands for (X/ZZ, Y/ZZZ) with ZZ³ = ZZZ²; ZZ = 0 is the point at infinity.
 * Additions cost 12M+2S (mixed: 8M+2S) against 12M+4S / 7M+4S in Jacobian, and need no halving.
 * No include guard: included once per group by xyzz.h. */

typedef struct {
    FE x, y, zz, zzz;
} GP(xyzz);

static inline bool GP(aff_is_inf)(const AFF *p)
{
    return FE_(is_zero)(&p->x) && FE_(is_zero)(&p->y);
}

static inline void GP(xyzz_set_inf)(GP(xyzz) *r)
{
    r->x = FE_ONE;
    r->y = FE_ONE;
    memset(&r->zz, 0, sizeof r->zz);
    memset(&r->zzz, 0, sizeof r->zzz);
}

static inline bool GP(xyzz_is_inf)(const GP(xyzz) *p)
{
    return FE_(is_zero)(&p->zz);
}

/* r = ±a (neg selects −a); a may be the affine infinity (0, 0). */
static inline void GP(xyzz_from_aff)(GP(xyzz) *r, const AFF *a, bool neg)
{
    if (GP(aff_is_inf)(a)) {
        GP(xyzz_set_inf)(r);
        return;
    }
    r->x = a->x;
    if (neg)
        FE_(neg)(&r->y, &a->y);
    else
        r->y = a->y;
    r->zz = FE_ONE;
    r->zzz = FE_ONE;
}

/* r = 2p. r may alias p. */
static inline void GP(xyzz_dbl)(GP(xyzz) *r, const GP(xyzz) *p)
{
    if (GP(xyzz_is_inf)(p)) {
        *r = *p;
        return;
    }
    FE u, v, w, s, m, t;
    FE_(dbl)(&u, &p->y);       /* U = 2Y */
    FE_(sqr)(&v, &u);          /* V = U² */
    FE_(mul)(&w, &u, &v);      /* W = U·V */
    FE_(mul)(&s, &p->x, &v);   /* S = X·V */
    FE_(sqr)(&m, &p->x);
    FE_(dbl)(&t, &m);
    FE_(add)(&m, &m, &t);      /* M = 3X² */
    FE_(mul)(&r->zz, &p->zz, &v);
    FE_(mul)(&r->zzz, &p->zzz, &w);
    FE_(mul)(&w, &w, &p->y);   /* W·Y */
    FE_(sqr)(&t, &m);
    FE_(sub)(&t, &t, &s);
    FE_(sub)(&r->x, &t, &s);   /* X3 = M² − 2S */
    FE_(sub)(&s, &s, &r->x);
    FE_(mul)(&s, &s, &m);
    FE_(sub)(&r->y, &s, &w);   /* Y3 = M·(S − X3) − W·Y */
    /* Y = 0 would give V = 0, hence ZZ3 = 0: the point at infinity, as it should. */
}

/* r = p ± q with q affine (neg selects p − q). Handles p or q at infinity, p = ±q. r may alias p. */
static inline void GP(xyzz_madd)(GP(xyzz) *r, const GP(xyzz) *p, const AFF *q, bool neg)
{
    if (GP(aff_is_inf)(q)) {
        *r = *p;
        return;
    }
    if (GP(xyzz_is_inf)(p)) {
        GP(xyzz_from_aff)(r, q, neg);
        return;
    }
    FE u2, s2, pp, ppp, rr, qq, t;
    FE_(mul)(&u2, &q->x, &p->zz);
    FE_(mul)(&s2, &q->y, &p->zzz);
    if (neg)
        FE_(neg)(&s2, &s2);
    FE_(sub)(&pp, &u2, &p->x);  /* P = U2 − X1 */
    FE_(sub)(&rr, &s2, &p->y);  /* R = S2 − Y1 */
    if (FE_(is_zero)(&pp)) {
        if (FE_(is_zero)(&rr)) {
            GP(xyzz) qq2;
            GP(xyzz_from_aff)(&qq2, q, neg);
            GP(xyzz_dbl)(r, &qq2);
        } else {
            GP(xyzz_set_inf)(r);
        }
        return;
    }
    FE_(sqr)(&t, &pp);             /* PP */
    FE_(mul)(&ppp, &pp, &t);       /* PPP = P·PP */
    FE_(mul)(&qq, &p->x, &t);      /* Q = X1·PP */
    FE_(mul)(&r->zz, &p->zz, &t);
    FE_(mul)(&r->zzz, &p->zzz, &ppp);
    FE_(mul)(&t, &p->y, &ppp);     /* Y1·PPP */
    FE_(sqr)(&u2, &rr);
    FE_(sub)(&u2, &u2, &ppp);
    FE_(sub)(&u2, &u2, &qq);
    FE_(sub)(&r->x, &u2, &qq);     /* X3 = R² − PPP − 2Q */
    FE_(sub)(&qq, &qq, &r->x);
    FE_(mul)(&qq, &qq, &rr);
    FE_(sub)(&r->y, &qq, &t);      /* Y3 = R·(Q − X3) − Y1·PPP */
}

/* r = p + q. Handles either at infinity and p = ±q. r may alias p or q. */
static inline void GP(xyzz_add)(GP(xyzz) *r, const GP(xyzz) *p, const GP(xyzz) *q)
{
    if (GP(xyzz_is_inf)(q)) {
        *r = *p;
        return;
    }
    if (GP(xyzz_is_inf)(p)) {
        *r = *q;
        return;
    }
    FE u1, u2, s1, s2, pp, ppp, rr, t;
    FE_(mul)(&u1, &p->x, &q->zz);
    FE_(mul)(&u2, &q->x, &p->zz);
    FE_(mul)(&s1, &p->y, &q->zzz);
    FE_(mul)(&s2, &q->y, &p->zzz);
    FE_(sub)(&pp, &u2, &u1);  /* P = U2 − U1 */
    FE_(sub)(&rr, &s2, &s1);  /* R = S2 − S1 */
    if (FE_(is_zero)(&pp)) {
        if (FE_(is_zero)(&rr))
            GP(xyzz_dbl)(r, p);
        else
            GP(xyzz_set_inf)(r);
        return;
    }
    FE_(sqr)(&t, &pp);            /* PP */
    FE_(mul)(&ppp, &pp, &t);      /* PPP */
    FE_(mul)(&u1, &u1, &t);       /* Q = U1·PP */
    FE_(mul)(&r->zz, &p->zz, &q->zz);
    FE_(mul)(&r->zz, &r->zz, &t);
    FE_(mul)(&r->zzz, &p->zzz, &q->zzz);
    FE_(mul)(&r->zzz, &r->zzz, &ppp);
    FE_(mul)(&s1, &s1, &ppp);     /* S1·PPP */
    FE_(sqr)(&t, &rr);
    FE_(sub)(&t, &t, &ppp);
    FE_(sub)(&t, &t, &u1);
    FE_(sub)(&r->x, &t, &u1);     /* X3 = R² − PPP − 2Q */
    FE_(sub)(&u1, &u1, &r->x);
    FE_(mul)(&u1, &u1, &rr);
    FE_(sub)(&r->y, &u1, &s1);    /* Y3 = R·(Q − X3) − S1·PPP */
}

/* Jacobian (X·ZZ², Y·ZZZ², ZZZ) has x = X·ZZ²/ZZZ² = X/ZZ and y = Y/ZZZ because ZZ³ = ZZZ². */
static inline void GP(xyzz_to_jac)(JAC *r, const GP(xyzz) *p)
{
    if (GP(xyzz_is_inf)(p)) {
        r->x = FE_ONE;
        r->y = FE_ONE;
        memset(&r->z, 0, sizeof r->z);
        return;
    }
    FE t;
    FE_(sqr)(&t, &p->zz);
    FE_(mul)(&r->x, &p->x, &t);
    FE_(sqr)(&t, &p->zzz);
    FE_(mul)(&r->y, &p->y, &t);
    r->z = p->zzz;
}

/* Jacobian (X, Y, Z) is XYZZ (X, Y, Z², Z³). */
static inline void GP(xyzz_from_jac)(GP(xyzz) *r, const JAC *p)
{
    if (FE_(is_zero)(&p->z)) {
        GP(xyzz_set_inf)(r);
        return;
    }
    r->x = p->x;
    r->y = p->y;
    FE_(sqr)(&r->zz, &p->z);
    FE_(mul)(&r->zzz, &r->zz, &p->z);
}

/* Affine form with one inversion; infinity gives (0, 0). */
static inline void GP(xyzz_to_aff)(AFF *r, const GP(xyzz) *p)
{
    if (GP(xyzz_is_inf)(p)) {
        memset(r, 0, sizeof *r);
        return;
    }
    FE t, i;
    FE_(mul)(&t, &p->zz, &p->zzz);
    FE_(inv)(&i, &t);                 /* 1/(ZZ·ZZZ) */
    FE_(mul)(&t, &i, &p->zzz);        /* 1/ZZ */
    FE_(mul)(&r->x, &p->x, &t);
    FE_(mul)(&t, &i, &p->zz);         /* 1/ZZZ */
    FE_(mul)(&r->y, &p->y, &t);
}
