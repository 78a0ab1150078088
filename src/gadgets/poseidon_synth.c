/* neptune's legacy Poseidon circuit (src/circuit.rs `poseidon_hash`), step by step: state elements
 * stay lazy linear combinations (Elt::Num) until an S-box needs them allocated; the first round folds
 * the pre-round key into square_sum/mul_sum and computes the tag's S-box as a constant; the MDS layers
 * follow the optimized schedule (full M, pre-sparse, sparse). Same allocations, constraints, order
 * and coefficients as neptune, over local variable numbers. */
#include <stdlib.h>
#include <string.h>
#include "ff/fr.h"
#include "gadgets/poseidon_internal.h"

#define T_MAX CUZK_POSEIDON_MAX_WIDTH

/* ---- linear combinations over local variables ---------------------------------------------- */

static bool lc_reserve(pz_walk *w, pz_lc *lc, uint32_t need)
{
    if (need <= lc->cap)
        return true;
    uint32_t cap = lc->cap ? lc->cap : 8;
    while (cap < need)
        cap *= 2;
    pz_term *t = realloc(lc->t, sizeof(pz_term) * cap);
    if (!t) {
        w->oom = true;
        return false;
    }
    lc->t = t, lc->cap = cap;
    return true;
}

static void lc_free(pz_lc *lc)
{
    free(lc->t);
    *lc = (pz_lc){0};
}

/* lc = coeff·var */
static void lc_set(pz_walk *w, pz_lc *lc, uint32_t var, const fr *coeff)
{
    lc->n = 0;
    if (lc_reserve(w, lc, 1))
        lc->t[lc->n++] = (pz_term){var, *coeff};
}

/* lc += coeff·var (merged into an existing term of var, as bellpepper's insert_or_update) */
static void lc_add_term(pz_walk *w, pz_lc *lc, uint32_t var, const fr *coeff)
{
    uint32_t i = 0;
    while (i < lc->n && lc->t[i].var < var)
        i++;
    if (i < lc->n && lc->t[i].var == var) {
        fr_add(&lc->t[i].coeff, &lc->t[i].coeff, coeff);
        return;
    }
    if (!lc_reserve(w, lc, lc->n + 1))
        return;
    memmove(&lc->t[i + 1], &lc->t[i], sizeof(pz_term) * (lc->n - i));
    lc->t[i] = (pz_term){var, *coeff};
    lc->n++;
}

/* dst += s·src (merge of two sorted term lists) */
static void lc_add_scaled(pz_walk *w, pz_lc *dst, const fr *s, const pz_lc *src)
{
    pz_lc out = {0};
    if (!lc_reserve(w, &out, dst->n + src->n + 1))
        return;
    uint32_t i = 0, j = 0;
    while (i < dst->n || j < src->n) {
        if (j == src->n || (i < dst->n && dst->t[i].var < src->t[j].var)) {
            out.t[out.n++] = dst->t[i++];
            continue;
        }
        pz_term x = {src->t[j].var, FR_ZERO};
        fr_mul(&x.coeff, s, &src->t[j].coeff);
        if (i < dst->n && dst->t[i].var == x.var)
            fr_add(&x.coeff, &x.coeff, &dst->t[i++].coeff);
        out.t[out.n++] = x;
        j++;
    }
    lc_free(dst);
    *dst = out;
}

/* ---- state elements (neptune's Elt) ------------------------------------------------------------ */

typedef struct {
    bool allocated; /* Elt::Allocated: exactly `var`; otherwise Elt::Num: `lc` */
    uint32_t var;
    bool has_value;
    fr value;
    pz_lc lc;
} elt;

static const fr *one_coeff(void) { return &FR_ONE; }

static uint32_t alloc(pz_walk *w, bool has_value, const fr *value)
{
    uint32_t v = w->next_var++;
    w->on_alloc(w, v, has_value ? value : NULL);
    return v;
}

/* A·B = C with each side given as up to two terms (var, coeff); n = 0 means the side is empty. */
typedef struct {
    int n;
    uint32_t var[2];
    fr coeff[2];
} side;

static void enforce(pz_walk *w, const pz_lc *lc_a, const side *a, const side *b, const side *c, const fr *values)
{
    if (!w->lcs) {
        w->on_enforce(w, NULL, NULL, NULL, values);
        return;
    }
    pz_lc l[3] = {{0}};
    const side *s[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        if (k == 0 && lc_a) {
            lc_add_scaled(w, &l[0], one_coeff(), lc_a);
            continue;
        }
        for (int i = 0; i < s[k]->n; i++)
            lc_add_term(w, &l[k], s[k]->var[i], &s[k]->coeff[i]);
    }
    w->on_enforce(w, &l[0], &l[1], &l[2], values);
    for (int k = 0; k < 3; k++)
        lc_free(&l[k]);
}

static side side1(uint32_t v) { return (side){1, {v, 0}, {FR_ONE, FR_ZERO}}; }
static side side2(uint32_t v, uint32_t v2, const fr *c2) { return (side){2, {v, v2}, {FR_ONE, *c2}}; }

/* Elt::ensure_allocated(enforce = true): a Num becomes a fresh variable v with lc·ONE = v. */
static void ensure_allocated(pz_walk *w, elt *e)
{
    if (e->allocated)
        return;
    uint32_t v = alloc(w, e->has_value, &e->value);
    side one = side1(0), vs = side1(v);
    fr values[3] = {e->value, FR_ONE, e->value};
    enforce(w, &e->lc, NULL, &one, &vs, e->has_value ? values : NULL);
    lc_free(&e->lc);
    e->allocated = true;
    e->var = v;
}

/* AllocatedNum::square: r = x², x·x = r */
static void square(pz_walk *w, elt *r, const elt *x)
{
    r->has_value = x->has_value;
    if (x->has_value)
        fr_sqr(&r->value, &x->value);
    r->allocated = true;
    r->var = alloc(w, r->has_value, &r->value);
    side xs = side1(x->var), rs = side1(r->var);
    fr values[3] = {x->value, x->value, r->value};
    enforce(w, NULL, &xs, &xs, &rs, r->has_value ? values : NULL);
}

/* circuit.rs square_sum: r = (x + k)², (x + k·ONE)·(x + k·ONE) = r */
static void square_sum(pz_walk *w, elt *r, const fr *k, const elt *x)
{
    fr values[3]; /* (x + k)·(x + k) = r */
    r->has_value = x->has_value;
    if (x->has_value) {
        fr_add(&values[0], &x->value, k);
        fr_sqr(&r->value, &values[0]);
        values[1] = values[0];
        values[2] = r->value;
    }
    r->allocated = true;
    r->var = alloc(w, r->has_value, &r->value);
    side xk = side2(x->var, 0, k), rs = side1(r->var);
    enforce(w, NULL, &xk, &xk, &rs, r->has_value ? values : NULL);
}

/* circuit.rs mul_sum(a, b, pre, post): r = (b + pre)·a + post, (b + pre·ONE)·a = r − post·ONE
 * (the ONE terms only when pre / post are given) */
static void mul_sum(pz_walk *w, elt *r, const elt *a, const elt *b, const fr *pre, const fr *post)
{
    fr values[3]; /* (b + pre)·a = r − post */
    r->has_value = a->has_value && b->has_value;
    if (r->has_value) {
        values[0] = b->value;
        if (pre)
            fr_add(&values[0], &values[0], pre);
        values[1] = a->value;
        fr_mul(&values[2], &values[0], &a->value);
        r->value = values[2];
        if (post)
            fr_add(&r->value, &r->value, post);
    }
    r->allocated = true;
    r->var = alloc(w, r->has_value, &r->value);
    fr neg = FR_ZERO;
    if (post)
        fr_neg(&neg, post);
    side bs = pre ? side2(b->var, 0, pre) : side1(b->var), as = side1(a->var),
         rs = post ? side2(r->var, 0, &neg) : side1(r->var);
    enforce(w, NULL, &bs, &as, &rs, r->has_value ? values : NULL);
}

/* quintic_s_box: l = allocated e, l², l⁴, l⁵ (+ post key) */
static void sbox(pz_walk *w, elt *e, const fr *post)
{
    ensure_allocated(w, e);
    elt l2, l4, l5;
    square(w, &l2, e);
    square(w, &l4, &l2);
    mul_sum(w, &l5, &l4, e, NULL, post);
    *e = l5;
}

/* quintic_s_box_pre_add (first round, preimage elements are already allocated) */
static void sbox_pre_add(pz_walk *w, elt *e, const fr *pre, const fr *post)
{
    ensure_allocated(w, e);
    elt l2, l4, l5;
    square_sum(w, &l2, pre, e);
    square(w, &l4, &l2);
    mul_sum(w, &l5, &l4, e, pre, post);
    *e = l5;
}

/* Elt::num_from_fr: the constant v as the LC v·ONE */
static void set_constant(pz_walk *w, elt *e, const fr *v)
{
    e->allocated = false;
    e->has_value = true;
    e->value = *v;
    e->lc = (pz_lc){0};
    if (w->lcs)
        lc_set(w, &e->lc, 0, v);
}

/* acc += s·e (Elt::scale then Num::add) */
static void add_scaled(pz_walk *w, elt *acc, const fr *s, const elt *e)
{
    acc->has_value = acc->has_value && e->has_value;
    if (acc->has_value) {
        fr t;
        fr_mul(&t, s, &e->value);
        fr_add(&acc->value, &acc->value, &t);
    }
    if (!w->lcs)
        return;
    if (e->allocated) {
        fr t = *s;
        lc_add_term(w, &acc->lc, e->var, &t);
    } else {
        lc_add_scaled(w, &acc->lc, s, &e->lc);
    }
}

/* scalar_product: Σ s[i·stride]·e[i] as a fresh Num (Num::zero() has the value 0) */
static void scalar_product(pz_walk *w, elt *out, const elt *e, const fr *s, size_t stride, unsigned n)
{
    *out = (elt){.allocated = false, .has_value = true, .value = FR_ZERO};
    for (unsigned i = 0; i < n; i++)
        add_scaled(w, out, &s[i * stride], &e[i]);
}

static void free_state(elt *e, unsigned t)
{
    for (unsigned i = 0; i < t; i++)
        if (!e[i].allocated)
            lc_free(&e[i].lc);
}

/* product_mds_with_matrix: result[j] = Σ_i m[i][j]·e[i] */
static void product_matrix(pz_walk *w, elt *e, const fr *m, unsigned t)
{
    elt r[T_MAX];
    for (unsigned j = 0; j < t; j++)
        scalar_product(w, &r[j], e, &m[j], t, t);
    free_state(e, t);
    memcpy(e, r, sizeof(elt) * t);
}

/* product_mds_with_sparse_matrix: result[0] = Σ w_hat[i]·e[i], result[j] = e[j] + v_rest[j−1]·e[0] */
static void product_sparse(pz_walk *w, elt *e, const fr *w_hat, const fr *v_rest, unsigned t)
{
    elt r0;
    scalar_product(w, &r0, e, w_hat, 1, t);
    for (unsigned j = 1; j < t; j++)
        add_scaled(w, &e[j], &v_rest[j - 1], &e[0]); /* e[j] is a Num here, as neptune requires */
    free_state(e, 1);
    e[0] = r0;
}

/* PoseidonCircuit::product_mds: which matrix mixes after round `round` */
static void product_mds(pz_walk *w, elt *e, unsigned round)
{
    const cuzk_poseidon_constants_t *c = w->c;
    unsigned t = c->width, h = c->half_full_rounds;
    if (round == h - 1)
        product_matrix(w, e, c->pre_sparse, t);
    else if (round >= h && round < h + c->partial_rounds)
        product_sparse(w, e, &c->sparse_w_hat[(size_t)(round - h) * t],
                       &c->sparse_v_rest[(size_t)(round - h) * (t - 1)], t);
    else
        product_matrix(w, e, c->mds, t);
}

void pz_walk_run(pz_walk *w)
{
    const cuzk_poseidon_constants_t *c = w->c;
    const unsigned t = c->width, h = c->half_full_rounds, p = c->partial_rounds;
    const fr *k = c->compressed_round_constants;
    elt e[T_MAX];
    unsigned round = 0;

    w->next_var = t; /* ONE, then the arity preimage variables */
    w->oom = false;
    set_constant(w, &e[0], &w->tag);
    for (unsigned i = 1; i < t; i++) {
        e[i] = (elt){.allocated = true, .var = i, .has_value = w->input != NULL};
        if (w->input)
            e[i].value = w->input[i - 1];
    }

    /* first round: pre-round keys k[0..t), post-round keys k[t..2t); the tag's S-box is a constant */
    fr tag5 = e[0].value;
    fr_add(&tag5, &tag5, &k[0]);
    fr x2, x4;
    fr_sqr(&x2, &tag5);
    fr_sqr(&x4, &x2);
    fr_mul(&tag5, &tag5, &x4);
    fr_add(&tag5, &tag5, &k[t]);
    free_state(e, 1);
    set_constant(w, &e[0], &tag5);
    for (unsigned i = 1; i < t; i++)
        sbox_pre_add(w, &e[i], &k[i], &k[t + i]);
    k += 2 * t;
    product_mds(w, e, round++);

    for (unsigned r = 1; r < h; r++, k += t) {
        for (unsigned i = 0; i < t; i++)
            sbox(w, &e[i], &k[i]);
        product_mds(w, e, round++);
    }
    for (unsigned r = 0; r < p; r++) {
        sbox(w, &e[0], k++);
        product_mds(w, e, round++);
    }
    for (unsigned r = 0; r + 1 < h; r++, k += t) {
        for (unsigned i = 0; i < t; i++)
            sbox(w, &e[i], &k[i]);
        product_mds(w, e, round++);
    }
    for (unsigned i = 0; i < t; i++)
        sbox(w, &e[i], NULL);
    product_mds(w, e, round++);

    ensure_allocated(w, &e[1]);
    w->out_var = e[1].var;
    w->has_out_value = e[1].has_value;
    w->out_value = e[1].value;
    free_state(e, t);
}
