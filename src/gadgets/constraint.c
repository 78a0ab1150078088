/* Equality, sum and difference constraints between nums (storage-proofs-core gadgets/constraint.rs). */
#include "gadgets/constraint.h"
#include "ff/fr.h"

/* (x + y)·ONE = z; y may be absent. */
static void linear(cuzk_cs_t *cs, cuzk_var_t x, const cuzk_var_t *y, cuzk_var_t z)
{
    cuzk_lc_t a, b, c;
    cuzk_lc_init(&a, cs);
    cuzk_lc_init(&b, cs);
    cuzk_lc_init(&c, cs);
    cuzk_lc_add(&a, x);
    if (y)
        cuzk_lc_add(&a, *y);
    cuzk_lc_add(&b, cuzk_cs_one());
    cuzk_lc_add(&c, z);
    cuzk_cs_enforce_free(cs, &a, &b, &c);
}

void cuzk_constraint_equal(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b)
{
    linear(cs, a->var, NULL, b->var);
}

void cuzk_constraint_sum(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b, const cuzk_num_t *sum)
{
    linear(cs, a->var, &b->var, sum->var);
}

void cuzk_constraint_difference(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b,
                                const cuzk_num_t *difference)
{
    linear(cs, difference->var, &b->var, a->var);
}

static cuzk_num_t alloc_result(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b, bool add, const char *who)
{
    bool known = a->has_value && b->has_value;
    fr v = FR_ZERO;
    if (known) {
        if (add)
            fr_add(&v, &a->value, &b->value);
        else
            fr_sub(&v, &a->value, &b->value);
    } else if (cuzk_cs_wants_values(cs)) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "%s: assignment missing", who);
    }
    return cuzk_num_alloc(cs, known ? &v : NULL);
}

cuzk_num_t cuzk_constraint_add(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b)
{
    cuzk_num_t r = alloc_result(cs, a, b, true, "constraint::add");
    cuzk_constraint_sum(cs, a, b, &r);
    return r;
}

cuzk_num_t cuzk_constraint_sub(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b)
{
    cuzk_num_t r = alloc_result(cs, a, b, false, "constraint::sub");
    cuzk_constraint_difference(cs, a, b, &r);
    return r;
}
