/* Bits in a circuit (bellpepper-core gadgets/boolean.rs): AllocatedBit, a variable constrained to 0
 * or 1, and Boolean = Is(bit) | Not(bit) | Constant, with bellpepper's combinators — the same
 * variables, constraints, coefficients and constant folding, so that circuits built from them match
 * rust-fil-proofs' R1CS exactly.
 *
 * Values: on backends without values (count, record) allocated bits have none (has_value false);
 * constants always have one. A gadget that must allocate a value it does not have on a backend that
 * wants values fails the system (cuzk_cs_fail), as bellpepper's SynthesisError::AssignmentMissing;
 * synthesis goes on and the caller reads the failure from cuzk_cs_status. */
#ifndef CUZK_GADGETS_BOOLEAN_H
#define CUZK_GADGETS_BOOLEAN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"

/* An allocated bit. value is meaningful only when has_value. */
typedef struct {
    cuzk_var_t var;
    bool has_value;
    bool value;
} cuzk_bit_t;

/* Alloc functions take an Option<bool> as an int: 0, 1, or CUZK_BIT_UNKNOWN (any negative). */
#define CUZK_BIT_UNKNOWN (-1)

typedef enum {
    CUZK_BOOLEAN_CONST = 0, /* Constant(value) */
    CUZK_BOOLEAN_IS = 1,    /* Is(bit at var) */
    CUZK_BOOLEAN_NOT = 2,   /* Not(bit at var) */
} cuzk_boolean_kind;

/* A Boolean. value is the Boolean's own value (for Not: the negation of the bit's). */
typedef struct {
    cuzk_var_t var; /* Is / Not only */
    uint8_t kind;   /* cuzk_boolean_kind */
    bool has_value; /* always true for a constant */
    bool value;
} cuzk_boolean_t;

/* ---- AllocatedBit --------------------------------------------------------------------------- */

/* New bit; constraint (ONE − b)·b = 0. */
cuzk_bit_t cuzk_bit_alloc(cuzk_cs_t *cs, int value);
/* New bit forced to 0 when must_be_false is 1: (ONE − must_be_false − b)·b = 0. */
cuzk_bit_t cuzk_bit_alloc_conditionally(cuzk_cs_t *cs, int value, cuzk_bit_t must_be_false);
/* a ⊕ b: new bit c, (a + a)·b = a + b − c. */
cuzk_bit_t cuzk_bit_xor(cuzk_cs_t *cs, cuzk_bit_t a, cuzk_bit_t b);
/* a ∧ b: a·b = c. */
cuzk_bit_t cuzk_bit_and(cuzk_cs_t *cs, cuzk_bit_t a, cuzk_bit_t b);
/* a ∧ ¬b: a·(ONE − b) = c. */
cuzk_bit_t cuzk_bit_and_not(cuzk_cs_t *cs, cuzk_bit_t a, cuzk_bit_t b);
/* ¬a ∧ ¬b: (ONE − a)·(ONE − b) = c. */
cuzk_bit_t cuzk_bit_nor(cuzk_cs_t *cs, cuzk_bit_t a, cuzk_bit_t b);

/* 64 bits of value, least significant first (u64_into_boolean_vec_le); value NULL: unknown. */
void cuzk_bits_from_u64_le(cuzk_cs_t *cs, const uint64_t *value, cuzk_boolean_t out[64]);
/* The 255 low bits of a field element (Montgomery form; NULL: unknown) as allocated bits, least
 * significant first (field_into_allocated_bits_le); 255 boolean constraints. */
void cuzk_bits_from_field_le(cuzk_cs_t *cs, const cuzk_fr_t *value, cuzk_bit_t out[255]);
/* The same as Booleans (field_into_boolean_vec_le). */
void cuzk_booleans_from_field_le(cuzk_cs_t *cs, const cuzk_fr_t *value, cuzk_boolean_t out[255]);

/* ---- Boolean ---------------------------------------------------------------------------------- */

static inline cuzk_boolean_t cuzk_boolean_constant(bool v)
{
    return (cuzk_boolean_t){.var = {0}, .kind = CUZK_BOOLEAN_CONST, .has_value = true, .value = v};
}
static inline cuzk_boolean_t cuzk_boolean_from_bit(cuzk_bit_t b)
{
    return (cuzk_boolean_t){.var = b.var, .kind = CUZK_BOOLEAN_IS, .has_value = b.has_value, .value = b.value};
}
static inline bool cuzk_boolean_is_constant(cuzk_boolean_t b) { return b.kind == CUZK_BOOLEAN_CONST; }
static inline bool cuzk_boolean_is_const_val(cuzk_boolean_t b, bool v)
{
    return b.kind == CUZK_BOOLEAN_CONST && b.value == v;
}
/* The underlying AllocatedBit of Is / Not (its value is the bit's, not the Boolean's). */
static inline cuzk_bit_t cuzk_boolean_bit(cuzk_boolean_t b)
{
    return (cuzk_bit_t){.var = b.var,
                        .has_value = b.has_value,
                        .value = b.kind == CUZK_BOOLEAN_NOT ? !b.value : b.value};
}
/* Boolean::not: Constant(!v), Is ↔ Not; no constraint. */
static inline cuzk_boolean_t cuzk_boolean_not(cuzk_boolean_t b)
{
    if (b.kind == CUZK_BOOLEAN_IS)
        b.kind = CUZK_BOOLEAN_NOT;
    else if (b.kind == CUZK_BOOLEAN_NOT)
        b.kind = CUZK_BOOLEAN_IS;
    b.value = !b.value;
    return b;
}
/* 0/1, or CUZK_BIT_UNKNOWN. */
static inline int cuzk_boolean_get_value(cuzk_boolean_t b) { return b.has_value ? (int)b.value : CUZK_BIT_UNKNOWN; }

/* lc += Boolean::lc(ONE, coeff): coeff·ONE for true, nothing for false, coeff·v for Is,
 * coeff·ONE − coeff·v for Not. */
void cuzk_boolean_lc_add(cuzk_lc_t *lc, cuzk_boolean_t b, const cuzk_fr_t *coeff);
/* lc −= Boolean::lc(ONE, 1) */
void cuzk_boolean_lc_sub(cuzk_lc_t *lc, cuzk_boolean_t b);

/* Boolean::xor: folds constants (false ⊕ x = x, true ⊕ x = ¬x), Is ⊕ Not = ¬(Is ⊕ Is), otherwise
 * one AllocatedBit::xor. */
cuzk_boolean_t cuzk_boolean_xor(cuzk_cs_t *cs, cuzk_boolean_t a, cuzk_boolean_t b);
/* Boolean::and: folds constants; Is∧Not → and_not, Not∧Not → nor, Is∧Is → and. */
cuzk_boolean_t cuzk_boolean_and(cuzk_cs_t *cs, cuzk_boolean_t a, cuzk_boolean_t b);
/* Boolean::or = ¬(¬a ∧ ¬b). */
cuzk_boolean_t cuzk_boolean_or(cuzk_cs_t *cs, cuzk_boolean_t a, cuzk_boolean_t b);
/* (a ∧ b) ⊕ (¬a ∧ c), with bellpepper's constant cases; otherwise one new bit ch and
 * (b − c)·a = ch − c. */
cuzk_boolean_t cuzk_boolean_sha256_ch(cuzk_cs_t *cs, cuzk_boolean_t a, cuzk_boolean_t b, cuzk_boolean_t c);
/* (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c), with bellpepper's constant cases; otherwise new bit maj, then
 * bc = b ∧ c, then (2·bc − b − c)·a = bc − maj. */
cuzk_boolean_t cuzk_boolean_sha256_maj(cuzk_cs_t *cs, cuzk_boolean_t a, cuzk_boolean_t b, cuzk_boolean_t c);
/* a = b: two different constants fail the system (Unsatisfiable, CUZK_ERR_MISMATCH), two equal
 * ones add nothing; otherwise one constraint 0·0 = ONE − x (x against true), x (against false) or
 * a − b. */
void cuzk_boolean_enforce_equal(cuzk_cs_t *cs, cuzk_boolean_t a, cuzk_boolean_t b);

#endif
