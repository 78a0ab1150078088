/* AllocatedNum and Num (bellpepper-core gadgets/num.rs): allocation, inputize, the non-strict bit
 * decomposition, arithmetic, conditional reversal, and the constraint-free linear combination with
 * a value that packing gadgets build. */
#include "gadgets/num.h"
#include "ff/fr.h"
#include "gadgets/consts.h"

/* The value a new variable gets: NULL when the backend keeps none or the caller lacks it (then
 * a backend that wants values fails: AssignmentMissing). */
static const fr *wanted(cuzk_cs_t *cs, bool known, const fr *v, const char *who)
{
    if (!cuzk_cs_wants_values(cs))
        return NULL;
    if (!known) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "%s: assignment missing", who);
        return NULL;
    }
    return v;
}

static cuzk_num_t make(cuzk_cs_t *cs, bool input, const fr *value, const char *who)
{
    const fr *v = wanted(cs, value != NULL, value, who);
    cuzk_num_t r = {.var = {0}, .has_value = v != NULL, .value = v ? *v : FR_ZERO};
    r.var = input ? cuzk_cs_alloc_input(cs, v) : cuzk_cs_alloc(cs, v);
    return r;
}

cuzk_num_t cuzk_num_alloc(cuzk_cs_t *cs, const cuzk_fr_t *value)
{
    return make(cs, false, value, "AllocatedNum::alloc");
}

cuzk_num_t cuzk_num_alloc_input(cuzk_cs_t *cs, const cuzk_fr_t *value)
{
    return make(cs, true, value, "AllocatedNum::alloc_input");
}

cuzk_num_t cuzk_num_from_var(const cuzk_cs_t *cs, cuzk_var_t var)
{
    cuzk_num_t r = {.var = var, .has_value = false, .value = FR_ZERO};
    r.has_value = cuzk_cs_get_value(cs, var, &r.value);
    return r;
}

void cuzk_enforce_var_product(cuzk_cs_t *cs, cuzk_var_t x, cuzk_var_t y, cuzk_var_t z)
{
    cuzk_lc_t a, b, c;
    cuzk_lc_init(&a, cs);
    cuzk_lc_init(&b, cs);
    cuzk_lc_init(&c, cs);
    cuzk_lc_add(&a, x);
    cuzk_lc_add(&b, y);
    cuzk_lc_add(&c, z);
    cuzk_cs_enforce_free(cs, &a, &b, &c);
}

void cuzk_num_inputize(cuzk_cs_t *cs, const cuzk_num_t *num)
{
    const fr *v = wanted(cs, num->has_value, &num->value, "AllocatedNum::inputize");
    cuzk_var_t in = cuzk_cs_alloc_input(cs, v);
    cuzk_enforce_var_product(cs, in, cuzk_cs_one(), num->var);
}

void cuzk_num_to_bits_le(cuzk_cs_t *cs, const cuzk_num_t *num, cuzk_boolean_t out[255])
{
    cuzk_bit_t bits[CUZK_FR_NUM_BITS];
    cuzk_bits_from_field_le(cs, num->has_value ? &num->value : NULL, bits);
    cuzk_lc_t a, b, c;
    cuzk_lc_init(&a, cs);
    cuzk_lc_init(&b, cs);
    cuzk_lc_init(&c, cs);
    if (cuzk_cs_wants_lcs(cs)) {
        for (unsigned i = 0; i < CUZK_FR_NUM_BITS; i++)
            cuzk_lc_add_term(&c, bits[i].var, cuzk_gadget_pow2(i));
        cuzk_lc_sub(&c, num->var);
    }
    cuzk_cs_enforce_free(cs, &a, &b, &c);
    for (unsigned i = 0; i < CUZK_FR_NUM_BITS; i++)
        out[i] = cuzk_boolean_from_bit(bits[i]);
}

typedef enum { OP_ADD, OP_MUL, OP_SQUARE } num_op;

static cuzk_num_t binop(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b, num_op op, const char *who)
{
    fr v = FR_ZERO;
    bool known = a->has_value && b->has_value;
    if (known) {
        if (op == OP_ADD)
            fr_add(&v, &a->value, &b->value);
        else
            fr_mul(&v, &a->value, &b->value);
    }
    cuzk_num_t r = make(cs, false, known ? &v : NULL, who);
    if (op == OP_ADD) {
        cuzk_lc_t la, lb, lc;
        cuzk_lc_init(&la, cs);
        cuzk_lc_init(&lb, cs);
        cuzk_lc_init(&lc, cs);
        cuzk_lc_add(&la, a->var);
        cuzk_lc_add(&la, b->var);
        cuzk_lc_add(&lb, cuzk_cs_one());
        cuzk_lc_add(&lc, r.var);
        cuzk_cs_enforce_free(cs, &la, &lb, &lc);
    } else {
        cuzk_enforce_var_product(cs, a->var, b->var, r.var);
    }
    return r;
}

cuzk_num_t cuzk_num_add(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b)
{
    return binop(cs, a, b, OP_ADD, "AllocatedNum::add");
}
cuzk_num_t cuzk_num_mul(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b)
{
    return binop(cs, a, b, OP_MUL, "AllocatedNum::mul");
}
cuzk_num_t cuzk_num_square(cuzk_cs_t *cs, const cuzk_num_t *a)
{
    return binop(cs, a, a, OP_SQUARE, "AllocatedNum::square");
}

void cuzk_num_assert_nonzero(cuzk_cs_t *cs, const cuzk_num_t *num)
{
    fr inv = FR_ZERO;
    bool known = num->has_value;
    if (known && cuzk_cs_wants_values(cs)) {
        if (fr_is_zero(&num->value))
            cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "AllocatedNum::assert_nonzero: division by zero");
        fr_inv(&inv, &num->value);
    }
    cuzk_var_t v = cuzk_cs_alloc(cs, wanted(cs, known, &inv, "AllocatedNum::assert_nonzero"));
    cuzk_enforce_var_product(cs, num->var, v, cuzk_cs_one());
}

/* x = condition ? then : otherwise, allocated, with (p − q)·condition = p − x. */
static cuzk_num_t reversal(cuzk_cs_t *cs, const cuzk_num_t *p, const cuzk_num_t *q, cuzk_boolean_t condition,
                           const cuzk_num_t *then, const cuzk_num_t *otherwise)
{
    const cuzk_num_t *pick = condition.value ? then : otherwise;
    bool known = condition.has_value && pick->has_value;
    cuzk_num_t x = make(cs, false, known ? &pick->value : NULL, "AllocatedNum::conditionally_reverse");
    cuzk_lc_t la, lb, lc;
    cuzk_lc_init(&la, cs);
    cuzk_lc_init(&lb, cs);
    cuzk_lc_init(&lc, cs);
    cuzk_lc_add(&la, p->var);
    cuzk_lc_sub(&la, q->var);
    cuzk_boolean_lc_add(&lb, condition, &cuzk_lc_coeff_one);
    cuzk_lc_add(&lc, p->var);
    cuzk_lc_sub(&lc, x.var);
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);
    return x;
}

void cuzk_num_conditionally_reverse(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b,
                                    cuzk_boolean_t condition, cuzk_num_t *c, cuzk_num_t *d)
{
    cuzk_num_t a0 = *a, b0 = *b; /* c or d may alias a or b */
    *c = reversal(cs, &a0, &b0, condition, &b0, &a0);
    *d = reversal(cs, &b0, &a0, condition, &a0, &b0);
}

/* ---- Num ---- */

void cuzk_num_lc_zero(cuzk_num_lc_t *n, cuzk_cs_t *cs)
{
    cuzk_lc_init(&n->lc, cs);
    n->has_value = true;
    n->value = FR_ZERO;
}

void cuzk_num_lc_from_num(cuzk_num_lc_t *n, cuzk_cs_t *cs, const cuzk_num_t *num)
{
    cuzk_lc_init(&n->lc, cs);
    cuzk_lc_add(&n->lc, num->var);
    n->has_value = num->has_value;
    n->value = num->has_value ? num->value : FR_ZERO;
}

void cuzk_num_lc_free(cuzk_num_lc_t *n) { cuzk_lc_free(&n->lc); }

void cuzk_num_lc_add_bool_with_coeff(cuzk_num_lc_t *n, cuzk_boolean_t bit, const cuzk_fr_t *coeff)
{
    if (n->has_value && bit.has_value) {
        if (bit.value)
            fr_add(&n->value, &n->value, coeff);
    } else {
        n->has_value = false;
    }
    cuzk_boolean_lc_add(&n->lc, bit, coeff);
}

void cuzk_num_lc_add(cuzk_num_lc_t *n, const cuzk_num_lc_t *other)
{
    cuzk_lc_add_lc(&n->lc, &other->lc);
    if (n->has_value && other->has_value)
        fr_add(&n->value, &n->value, &other->value);
    else
        n->has_value = false;
}

void cuzk_num_lc_scale(cuzk_num_lc_t *n, const cuzk_fr_t *s)
{
    cuzk_lc_term_t *t = cuzk_lc_terms(&n->lc);
    for (size_t i = 0; i < cuzk_lc_len(&n->lc); i++)
        fr_mul(&t[i].coeff, &t[i].coeff, s);
    if (n->has_value)
        fr_mul(&n->value, &n->value, s);
}

void cuzk_num_lc_add_to(const cuzk_num_lc_t *n, const cuzk_fr_t *coeff, cuzk_lc_t *out)
{
    cuzk_lc_add_scaled_lc(out, coeff, &n->lc);
}
