/* Insertion, selection and pick (storage-proofs-core gadgets/insertion.rs). The size-4 and size-8
 * circuits are bellperson's tables of picks written out position by position, in its order. */
#include <stdlib.h>
#include "gadgets/insertion.h"
#include "ff/fr.h"

#define MAX_BITS 24

cuzk_num_t cuzk_insertion_pick(cuzk_cs_t *cs, cuzk_boolean_t condition, const cuzk_num_t *a, const cuzk_num_t *b)
{
    const cuzk_num_t *src = condition.value ? a : b;
    bool known = condition.has_value && src->has_value;
    cuzk_num_t c;
    if (cuzk_cs_wants_values(cs) && !known)
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "insertion pick: assignment missing");
    c = cuzk_num_alloc(cs, known ? &src->value : NULL);
    cuzk_lc_t la, lb, lc;
    cuzk_lc_init(&la, cs);
    cuzk_lc_init(&lb, cs);
    cuzk_lc_init(&lc, cs);
    cuzk_lc_add(&la, b->var);
    cuzk_lc_sub(&la, a->var);
    cuzk_boolean_lc_add(&lb, condition, &cuzk_lc_coeff_one);
    cuzk_lc_add(&lc, b->var);
    cuzk_lc_sub(&lc, c.var);
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);
    return c;
}

static cuzk_num_t zero_num(void) { return (cuzk_num_t){.var = {0}, .has_value = false, .value = FR_ZERO}; }

cuzk_num_t cuzk_insertion_select(cuzk_cs_t *cs, const cuzk_num_t *from, const cuzk_boolean_t *bits, size_t nbits)
{
    if (nbits > MAX_BITS) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "insertion select: %zu path bits (at most %d)", nbits, MAX_BITS);
        return zero_num();
    }
    size_t half = ((size_t)1 << nbits) / 2;
    if (nbits == 0)
        return from[0];
    cuzk_num_t *state = malloc(half * sizeof *state);
    if (!state) {
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "insertion select: out of memory");
        return zero_num();
    }
    /* most significant bit first; the first level reads from, the others the state in place */
    const cuzk_num_t *src = from;
    for (size_t i = nbits; i-- > 0; half /= 2) {
        for (size_t j = 0; j < half; j++)
            state[j] = cuzk_insertion_pick(cs, bits[i], &src[half + j], &src[j]);
        src = state;
    }
    cuzk_num_t r = state[0];
    free(state);
    return r;
}

static void insert_2(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_boolean_t *bits, const cuzk_num_t *e,
                     cuzk_num_t *out)
{
    out[0] = cuzk_insertion_pick(cs, bits[0], &e[0], a);
    out[1] = cuzk_insertion_pick(cs, bits[0], a, &e[0]);
}

static void insert_4(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_boolean_t *bits, const cuzk_num_t *e,
                     cuzk_num_t *out)
{
    cuzk_boolean_t b0 = bits[0], b1 = bits[1];
    const cuzk_num_t *b = &e[0], *c = &e[1], *d = &e[2];
    cuzk_num_t t;
    t = cuzk_insertion_pick(cs, b0, b, a); /* p0_x0 */
    out[0] = cuzk_insertion_pick(cs, b1, b, &t);
    t = cuzk_insertion_pick(cs, b0, a, b); /* p1_x0 */
    out[1] = cuzk_insertion_pick(cs, b1, c, &t);
    t = cuzk_insertion_pick(cs, b0, d, a); /* p2_x1 */
    out[2] = cuzk_insertion_pick(cs, b1, &t, c);
    t = cuzk_insertion_pick(cs, b0, a, d); /* p3_x1 */
    out[3] = cuzk_insertion_pick(cs, b1, &t, d);
}

static void insert_8(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_boolean_t *bits, const cuzk_num_t *el,
                     cuzk_num_t *out)
{
    cuzk_boolean_t b0 = bits[0], b1 = bits[1], b2 = bits[2];
    if (b0.kind != CUZK_BOOLEAN_IS || b1.kind != CUZK_BOOLEAN_IS) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "insertion insert (size 8): bits must be allocated and unnegated");
        for (int i = 0; i < 8; i++)
            out[i] = zero_num();
        return;
    }
    const cuzk_num_t *b = &el[0], *c = &el[1], *d = &el[2], *e = &el[3], *f = &el[4], *g = &el[5], *h = &el[6];
    cuzk_boolean_t nor = cuzk_boolean_from_bit(cuzk_bit_nor(cs, cuzk_boolean_bit(b0), cuzk_boolean_bit(b1)));
    cuzk_boolean_t and = cuzk_boolean_from_bit(cuzk_bit_and(cs, cuzk_boolean_bit(b0), cuzk_boolean_bit(b1)));
    cuzk_num_t t, u;
    t = cuzk_insertion_pick(cs, nor, a, b); /* p0_xx0 */
    out[0] = cuzk_insertion_pick(cs, b2, b, &t);

    t = cuzk_insertion_pick(cs, b0, a, b); /* p1_x00 */
    u = cuzk_insertion_pick(cs, b1, c, &t); /* p1_xx0 */
    out[1] = cuzk_insertion_pick(cs, b2, c, &u);

    t = cuzk_insertion_pick(cs, b0, d, a); /* p2_x10 */
    u = cuzk_insertion_pick(cs, b1, &t, c); /* p2_xx0 */
    out[2] = cuzk_insertion_pick(cs, b2, d, &u);

    t = cuzk_insertion_pick(cs, and, a, d); /* p3_xx0 */
    out[3] = cuzk_insertion_pick(cs, b2, e, &t);

    t = cuzk_insertion_pick(cs, nor, a, f); /* p4_xx1 */
    out[4] = cuzk_insertion_pick(cs, b2, &t, e);

    t = cuzk_insertion_pick(cs, b0, a, f); /* p5_x01 */
    u = cuzk_insertion_pick(cs, b1, g, &t); /* p5_xx1 */
    out[5] = cuzk_insertion_pick(cs, b2, &u, f);

    t = cuzk_insertion_pick(cs, b0, h, a); /* p6_x11 */
    u = cuzk_insertion_pick(cs, b1, &t, g); /* p6_xx1 */
    out[6] = cuzk_insertion_pick(cs, b2, &u, g);

    t = cuzk_insertion_pick(cs, and, a, h); /* p7_xx1 */
    out[7] = cuzk_insertion_pick(cs, b2, &t, h);
}

void cuzk_insertion_insert(cuzk_cs_t *cs, const cuzk_num_t *element, const cuzk_boolean_t *bits, size_t nbits,
                           const cuzk_num_t *elements, cuzk_num_t *out)
{
    if (nbits > MAX_BITS) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "insertion insert: %zu position bits (at most %d)", nbits, MAX_BITS);
        return;
    }
    size_t size = (size_t)1 << nbits;
    cuzk_num_t a = *element;
    if (size == 2) {
        insert_2(cs, &a, bits, elements, out);
        return;
    }
    if (size == 4) {
        insert_4(cs, &a, bits, elements, out);
        return;
    }
    if (size == 8) {
        insert_8(cs, &a, bits, elements, out);
        return;
    }
    cuzk_num_t *choices = malloc(size * sizeof *choices);
    if (!choices) {
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "insertion insert: out of memory");
        for (size_t i = 0; i < size; i++)
            out[i] = zero_num();
        return;
    }
    /* position pos of the result for insertion index k: elements[pos] before k, the element at
     * k, elements[pos − 1] after */
    for (size_t pos = 0; pos < size; pos++) {
        for (size_t k = 0; k < size; k++)
            choices[k] = pos < k ? elements[pos] : pos == k ? a : elements[pos - 1];
        out[pos] = cuzk_insertion_select(cs, choices, bits, nbits);
    }
    free(choices);
}
