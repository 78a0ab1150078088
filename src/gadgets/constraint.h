/* Small equality and arithmetic constraints on nums (storage-proofs-core gadgets/constraint.rs) and
 * the encoding of a replica node (gadgets/encode.rs: encode = key + value, decode = value − key). */
#ifndef CUZK_GADGETS_CONSTRAINT_H
#define CUZK_GADGETS_CONSTRAINT_H
#include "cuzk/cs.h"
#include "gadgets/num.h"

/* a·ONE = b */
void cuzk_constraint_equal(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b);
/* (a + b)·ONE = sum */
void cuzk_constraint_sum(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b, const cuzk_num_t *sum);
/* (difference + b)·ONE = a */
void cuzk_constraint_difference(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b,
                                const cuzk_num_t *difference);
/* New num a + b with cuzk_constraint_sum; new num a − b with cuzk_constraint_difference. */
cuzk_num_t cuzk_constraint_add(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b);
cuzk_num_t cuzk_constraint_sub(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b);
/* encode(key, value) = key + value; decode(key, value) = value − key. */
static inline cuzk_num_t cuzk_encode(cuzk_cs_t *cs, const cuzk_num_t *key, const cuzk_num_t *value)
{
    return cuzk_constraint_add(cs, key, value);
}
static inline cuzk_num_t cuzk_decode(cuzk_cs_t *cs, const cuzk_num_t *key, const cuzk_num_t *value)
{
    return cuzk_constraint_sub(cs, value, key);
}

#endif
