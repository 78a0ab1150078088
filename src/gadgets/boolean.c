/* AllocatedBit and Boolean (bellpepper-core gadgets/boolean.rs). The case analysis of every
 * Boolean combinator follows bellpepper's match arms in their order: which arm fires decides the
 * variables allocated and the operand order inside the constraint, both part of the R1CS. */
#include "gadgets/boolean.h"
#include "ff/fr.h"
#include "gadgets/consts.h"

/* Allocates the variable of a new bit. A value the backend wants but the caller lacks is
 * bellpepper's AssignmentMissing. */
static cuzk_bit_t new_bit(cuzk_cs_t *cs, bool known, bool v, const char *who)
{
    cuzk_bit_t r = {.var = {0}, .has_value = false, .value = false};
    if (cuzk_cs_wants_values(cs)) {
        if (known) {
            r.has_value = true;
            r.value = v;
        } else {
            cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "%s: assignment missing", who);
        }
    }
    r.var = cuzk_cs_alloc(cs, r.has_value ? (v ? &FR_ONE : &FR_ZERO) : NULL);
    return r;
}

static void enforce_boolean(cuzk_cs_t *cs, cuzk_var_t v, const cuzk_bit_t *must_be_false)
{
    cuzk_lc_t a, b, c;
    cuzk_lc_init(&a, cs);
    cuzk_lc_init(&b, cs);
    cuzk_lc_init(&c, cs);
    cuzk_lc_add(&a, cuzk_cs_one());
    if (must_be_false)
        cuzk_lc_sub(&a, must_be_false->var);
    cuzk_lc_sub(&a, v);
    cuzk_lc_add(&b, v);
    cuzk_cs_enforce_free(cs, &a, &b, &c);
}

cuzk_bit_t cuzk_bit_alloc(cuzk_cs_t *cs, int value)
{
    cuzk_bit_t r = new_bit(cs, value >= 0, value > 0, "AllocatedBit::alloc");
    enforce_boolean(cs, r.var, NULL);
    return r;
}

cuzk_bit_t cuzk_bit_alloc_conditionally(cuzk_cs_t *cs, int value, cuzk_bit_t must_be_false)
{
    cuzk_bit_t r = new_bit(cs, value >= 0, value > 0, "AllocatedBit::alloc_conditionally");
    enforce_boolean(cs, r.var, &must_be_false);
    return r;
}

cuzk_bit_t cuzk_bit_xor(cuzk_cs_t *cs, cuzk_bit_t a, cuzk_bit_t b)
{
    cuzk_bit_t r = new_bit(cs, a.has_value && b.has_value, a.value ^ b.value, "AllocatedBit::xor");
    cuzk_lc_t la, lb, lc;
    cuzk_lc_init(&la, cs);
    cuzk_lc_init(&lb, cs);
    cuzk_lc_init(&lc, cs);
    cuzk_lc_add_term(&la, a.var, cuzk_gadget_pow2(1)); /* a + a, merged */
    cuzk_lc_add(&lb, b.var);
    cuzk_lc_add(&lc, a.var);
    cuzk_lc_add(&lc, b.var);
    cuzk_lc_sub(&lc, r.var);
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);
    return r;
}

/* The three product gadgets: (a or ONE − a)·(b or ONE − b) = c. */
static cuzk_bit_t product(cuzk_cs_t *cs, cuzk_bit_t a, bool neg_a, cuzk_bit_t b, bool neg_b, const char *who)
{
    bool va = a.value ^ neg_a, vb = b.value ^ neg_b;
    cuzk_bit_t r = new_bit(cs, a.has_value && b.has_value, va && vb, who);
    cuzk_lc_t la, lb, lc;
    cuzk_lc_init(&la, cs);
    cuzk_lc_init(&lb, cs);
    cuzk_lc_init(&lc, cs);
    if (neg_a)
        cuzk_lc_add(&la, cuzk_cs_one()), cuzk_lc_sub(&la, a.var);
    else
        cuzk_lc_add(&la, a.var);
    if (neg_b)
        cuzk_lc_add(&lb, cuzk_cs_one()), cuzk_lc_sub(&lb, b.var);
    else
        cuzk_lc_add(&lb, b.var);
    cuzk_lc_add(&lc, r.var);
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);
    return r;
}

cuzk_bit_t cuzk_bit_and(cuzk_cs_t *cs, cuzk_bit_t a, cuzk_bit_t b)
{
    return product(cs, a, false, b, false, "AllocatedBit::and");
}
cuzk_bit_t cuzk_bit_and_not(cuzk_cs_t *cs, cuzk_bit_t a, cuzk_bit_t b)
{
    return product(cs, a, false, b, true, "AllocatedBit::and_not");
}
cuzk_bit_t cuzk_bit_nor(cuzk_cs_t *cs, cuzk_bit_t a, cuzk_bit_t b)
{
    return product(cs, a, true, b, true, "AllocatedBit::nor");
}

void cuzk_bits_from_u64_le(cuzk_cs_t *cs, const uint64_t *value, cuzk_boolean_t out[64])
{
    for (unsigned i = 0; i < 64; i++)
        out[i] = cuzk_boolean_from_bit(cuzk_bit_alloc(cs, value ? (int)((*value >> i) & 1) : CUZK_BIT_UNKNOWN));
}

void cuzk_bits_from_field_le(cuzk_cs_t *cs, const cuzk_fr_t *value, cuzk_bit_t out[255])
{
    uint64_t l[4] = {0};
    if (value)
        fr_from_mont(l, value);
    for (unsigned i = 0; i < CUZK_FR_NUM_BITS; i++)
        out[i] = cuzk_bit_alloc(cs, value ? (int)((l[i / 64] >> (i % 64)) & 1) : CUZK_BIT_UNKNOWN);
}

void cuzk_booleans_from_field_le(cuzk_cs_t *cs, const cuzk_fr_t *value, cuzk_boolean_t out[255])
{
    cuzk_bit_t bits[CUZK_FR_NUM_BITS];
    cuzk_bits_from_field_le(cs, value, bits);
    for (unsigned i = 0; i < CUZK_FR_NUM_BITS; i++)
        out[i] = cuzk_boolean_from_bit(bits[i]);
}

/* ---- Boolean ---- */

void cuzk_boolean_lc_add(cuzk_lc_t *lc, cuzk_boolean_t b, const cuzk_fr_t *coeff)
{
    switch (b.kind) {
    case CUZK_BOOLEAN_CONST:
        if (b.value)
            cuzk_lc_add_term(lc, cuzk_cs_one(), coeff);
        break;
    case CUZK_BOOLEAN_IS: cuzk_lc_add_term(lc, b.var, coeff); break;
    default:
        cuzk_lc_add_term(lc, cuzk_cs_one(), coeff);
        cuzk_lc_sub_term(lc, b.var, coeff);
        break;
    }
}

void cuzk_boolean_lc_sub(cuzk_lc_t *lc, cuzk_boolean_t b)
{
    cuzk_boolean_lc_add(lc, b, &cuzk_lc_coeff_minus_one);
}

cuzk_boolean_t cuzk_boolean_xor(cuzk_cs_t *cs, cuzk_boolean_t a, cuzk_boolean_t b)
{
    if (cuzk_boolean_is_const_val(a, false))
        return b;
    if (cuzk_boolean_is_const_val(b, false))
        return a;
    if (cuzk_boolean_is_const_val(a, true))
        return cuzk_boolean_not(b);
    if (cuzk_boolean_is_const_val(b, true))
        return cuzk_boolean_not(a);
    if (a.kind != b.kind) {
        /* a ⊕ ¬b = ¬(a ⊕ b): the Is operand comes first whatever the argument order */
        cuzk_boolean_t is = a.kind == CUZK_BOOLEAN_IS ? a : b, not = a.kind == CUZK_BOOLEAN_IS ? b : a;
        return cuzk_boolean_not(
            cuzk_boolean_from_bit(cuzk_bit_xor(cs, cuzk_boolean_bit(is), cuzk_boolean_bit(not))));
    }
    /* Is ⊕ Is, or ¬a ⊕ ¬b = a ⊕ b */
    return cuzk_boolean_from_bit(cuzk_bit_xor(cs, cuzk_boolean_bit(a), cuzk_boolean_bit(b)));
}

cuzk_boolean_t cuzk_boolean_and(cuzk_cs_t *cs, cuzk_boolean_t a, cuzk_boolean_t b)
{
    if (cuzk_boolean_is_const_val(a, false) || cuzk_boolean_is_const_val(b, false))
        return cuzk_boolean_constant(false);
    if (cuzk_boolean_is_const_val(a, true))
        return b;
    if (cuzk_boolean_is_const_val(b, true))
        return a;
    cuzk_bit_t ba = cuzk_boolean_bit(a), bb = cuzk_boolean_bit(b);
    if (a.kind == CUZK_BOOLEAN_IS && b.kind == CUZK_BOOLEAN_NOT)
        return cuzk_boolean_from_bit(cuzk_bit_and_not(cs, ba, bb));
    if (a.kind == CUZK_BOOLEAN_NOT && b.kind == CUZK_BOOLEAN_IS)
        return cuzk_boolean_from_bit(cuzk_bit_and_not(cs, bb, ba));
    if (a.kind == CUZK_BOOLEAN_NOT)
        return cuzk_boolean_from_bit(cuzk_bit_nor(cs, ba, bb));
    return cuzk_boolean_from_bit(cuzk_bit_and(cs, ba, bb));
}

cuzk_boolean_t cuzk_boolean_or(cuzk_cs_t *cs, cuzk_boolean_t a, cuzk_boolean_t b)
{
    return cuzk_boolean_not(cuzk_boolean_and(cs, cuzk_boolean_not(a), cuzk_boolean_not(b)));
}

static bool all_known(cuzk_boolean_t a, cuzk_boolean_t b, cuzk_boolean_t c)
{
    return a.has_value && b.has_value && c.has_value;
}

cuzk_boolean_t cuzk_boolean_sha256_ch(cuzk_cs_t *cs, cuzk_boolean_t a, cuzk_boolean_t b, cuzk_boolean_t c)
{
    bool known = all_known(a, b, c);
    bool v = (a.value & b.value) ^ (!a.value & c.value);
    if (cuzk_boolean_is_constant(a) && cuzk_boolean_is_constant(b) && cuzk_boolean_is_constant(c))
        return cuzk_boolean_constant(v);
    if (cuzk_boolean_is_const_val(a, false))
        return c;
    if (cuzk_boolean_is_const_val(b, false)) /* ¬a ∧ c */
        return cuzk_boolean_and(cs, cuzk_boolean_not(a), c);
    if (cuzk_boolean_is_const_val(c, false)) /* a ∧ b */
        return cuzk_boolean_and(cs, a, b);
    if (cuzk_boolean_is_const_val(c, true)) /* ¬(a ∧ ¬b) */
        return cuzk_boolean_not(cuzk_boolean_and(cs, a, cuzk_boolean_not(b)));
    if (cuzk_boolean_is_const_val(b, true)) /* ¬(¬a ∧ ¬c) */
        return cuzk_boolean_not(cuzk_boolean_and(cs, cuzk_boolean_not(a), cuzk_boolean_not(c)));
    /* a true, or nothing constant: the general constraint */
    cuzk_bit_t ch = new_bit(cs, known, v, "Boolean::sha256_ch");
    cuzk_lc_t la, lb, lc;
    cuzk_lc_init(&la, cs);
    cuzk_lc_init(&lb, cs);
    cuzk_lc_init(&lc, cs);
    cuzk_boolean_lc_add(&la, b, &cuzk_lc_coeff_one);
    cuzk_boolean_lc_sub(&la, c);
    cuzk_boolean_lc_add(&lb, a, &cuzk_lc_coeff_one);
    cuzk_lc_add(&lc, ch.var);
    cuzk_boolean_lc_sub(&lc, c);
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);
    return cuzk_boolean_from_bit(ch);
}

cuzk_boolean_t cuzk_boolean_sha256_maj(cuzk_cs_t *cs, cuzk_boolean_t a, cuzk_boolean_t b, cuzk_boolean_t c)
{
    bool known = all_known(a, b, c);
    bool v = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
    if (cuzk_boolean_is_constant(a) && cuzk_boolean_is_constant(b) && cuzk_boolean_is_constant(c))
        return cuzk_boolean_constant(v);
    if (cuzk_boolean_is_const_val(a, false))
        return cuzk_boolean_and(cs, b, c);
    if (cuzk_boolean_is_const_val(b, false))
        return cuzk_boolean_and(cs, a, c);
    if (cuzk_boolean_is_const_val(c, false))
        return cuzk_boolean_and(cs, a, b);
    if (cuzk_boolean_is_const_val(c, true))
        return cuzk_boolean_not(cuzk_boolean_and(cs, cuzk_boolean_not(a), cuzk_boolean_not(b)));
    if (cuzk_boolean_is_const_val(b, true))
        return cuzk_boolean_not(cuzk_boolean_and(cs, cuzk_boolean_not(a), cuzk_boolean_not(c)));
    if (cuzk_boolean_is_const_val(a, true))
        return cuzk_boolean_not(cuzk_boolean_and(cs, cuzk_boolean_not(b), cuzk_boolean_not(c)));
    /* maj is allocated before b ∧ c */
    cuzk_bit_t maj = new_bit(cs, known, v, "Boolean::sha256_maj");
    cuzk_boolean_t bc = cuzk_boolean_and(cs, b, c);
    cuzk_lc_t la, lb, lc;
    cuzk_lc_init(&la, cs);
    cuzk_lc_init(&lb, cs);
    cuzk_lc_init(&lc, cs);
    cuzk_boolean_lc_add(&la, bc, cuzk_gadget_pow2(1));
    cuzk_boolean_lc_sub(&la, b);
    cuzk_boolean_lc_sub(&la, c);
    cuzk_boolean_lc_add(&lb, a, &cuzk_lc_coeff_one);
    cuzk_boolean_lc_add(&lc, bc, &cuzk_lc_coeff_one);
    cuzk_lc_sub(&lc, maj.var);
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);
    return cuzk_boolean_from_bit(maj);
}

void cuzk_boolean_enforce_equal(cuzk_cs_t *cs, cuzk_boolean_t a, cuzk_boolean_t b)
{
    if (cuzk_boolean_is_constant(a) && cuzk_boolean_is_constant(b)) {
        if (a.value != b.value)
            cuzk_cs_fail(cs, CUZK_ERR_MISMATCH, "Boolean::enforce_equal: constants %d and %d (unsatisfiable)",
                         (int)a.value, (int)b.value);
        return;
    }
    cuzk_lc_t la, lb, lc;
    cuzk_lc_init(&la, cs);
    cuzk_lc_init(&lb, cs);
    cuzk_lc_init(&lc, cs);
    if (cuzk_boolean_is_const_val(a, true) || cuzk_boolean_is_const_val(b, true)) {
        cuzk_lc_add(&lc, cuzk_cs_one());
        cuzk_boolean_lc_sub(&lc, cuzk_boolean_is_const_val(a, true) ? b : a);
    } else if (cuzk_boolean_is_const_val(a, false) || cuzk_boolean_is_const_val(b, false)) {
        cuzk_boolean_lc_add(&lc, cuzk_boolean_is_const_val(a, false) ? b : a, &cuzk_lc_coeff_one);
    } else {
        cuzk_boolean_lc_add(&lc, a, &cuzk_lc_coeff_one);
        cuzk_boolean_lc_sub(&lc, b);
    }
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);
}
