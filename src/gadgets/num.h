/* AllocatedNum (bellpepper-core gadgets/num.rs): a field element held in one variable, with its value
 * when the constraint system keeps values. The type every gadget passes field elements around in. */
#ifndef CUZK_GADGETS_NUM_H
#define CUZK_GADGETS_NUM_H
#include <stdbool.h>
#include "cuzk/cs.h"
#include "gadgets/boolean.h"

typedef struct {
    cuzk_var_t var;
    bool has_value;  /* false on backends without values (count, record) */
    cuzk_fr_t value; /* Montgomery form; meaningful only when has_value */
} cuzk_num_t;

/* Values: a value argument is NULL when unknown; it is ignored on backends without values. A
 * value the backend wants but does not get fails the system (cuzk_cs_fail), as bellpepper's
 * AssignmentMissing, and synthesis goes on; read the failure from cuzk_cs_status. */

/* AllocatedNum::alloc / alloc_input: one new aux / input variable, no constraint. */
cuzk_num_t cuzk_num_alloc(cuzk_cs_t *cs, const cuzk_fr_t *value);
cuzk_num_t cuzk_num_alloc_input(cuzk_cs_t *cs, const cuzk_fr_t *value);
/* A num for a variable already allocated (value read back from cs when it keeps values). */
cuzk_num_t cuzk_num_from_var(const cuzk_cs_t *cs, cuzk_var_t var);
/* The constraint x·y = z over single-variable LCs (cuzk_cs_one() for ONE): no new variable. */
void cuzk_enforce_var_product(cuzk_cs_t *cs, cuzk_var_t x, cuzk_var_t y, cuzk_var_t z);
/* inputize: new input x with x·ONE = num. */
void cuzk_num_inputize(cuzk_cs_t *cs, const cuzk_num_t *num);
/* to_bits_le (the non-strict one Filecoin uses): 255 allocated bits, least significant first,
 * each boolean-constrained, then 0·0 = Σ 2^i·b_i − num. 256 constraints. */
void cuzk_num_to_bits_le(cuzk_cs_t *cs, const cuzk_num_t *num, cuzk_boolean_t out[255]);
/* a + b: (a + b)·ONE = c; a·b = c; a·a = c; each one new variable and one constraint. */
cuzk_num_t cuzk_num_add(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b);
cuzk_num_t cuzk_num_mul(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b);
cuzk_num_t cuzk_num_square(cuzk_cs_t *cs, const cuzk_num_t *a);
/* New variable inv with num·inv = ONE; a zero value fails the system (DivisionByZero). */
void cuzk_num_assert_nonzero(cuzk_cs_t *cs, const cuzk_num_t *num);
/* (c, d) = condition ? (b, a) : (a, b): c allocated, (a − b)·cond = a − c, then d,
 * (b − a)·cond = b − d. */
void cuzk_num_conditionally_reverse(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b,
                                    cuzk_boolean_t condition, cuzk_num_t *c, cuzk_num_t *d);

/* ---- Num: a linear combination with its value, built without constraints ------------------------
 * Owns an LC of cs: release it with cuzk_num_lc_free. has_value follows bellpepper (zero() has
 * the value 0 on every backend; a term without a value makes the sum unknown). */
typedef struct {
    cuzk_lc_t lc;
    bool has_value;
    cuzk_fr_t value;
} cuzk_num_lc_t;

void cuzk_num_lc_zero(cuzk_num_lc_t *n, cuzk_cs_t *cs);
void cuzk_num_lc_from_num(cuzk_num_lc_t *n, cuzk_cs_t *cs, const cuzk_num_t *num);
void cuzk_num_lc_free(cuzk_num_lc_t *n);
/* n += coeff·bit (Boolean::lc(ONE, coeff)). */
void cuzk_num_lc_add_bool_with_coeff(cuzk_num_lc_t *n, cuzk_boolean_t bit, const cuzk_fr_t *coeff);
/* n += other */
void cuzk_num_lc_add(cuzk_num_lc_t *n, const cuzk_num_lc_t *other);
/* n *= s (every coefficient and the value) */
void cuzk_num_lc_scale(cuzk_num_lc_t *n, const cuzk_fr_t *s);
/* out += coeff·n.lc (Num::lc(coeff) added to out; out initialized by the caller). */
void cuzk_num_lc_add_to(const cuzk_num_lc_t *n, const cuzk_fr_t *coeff, cuzk_lc_t *out);

#endif
