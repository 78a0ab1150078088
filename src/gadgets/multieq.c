/* MultiEq: the batching of small equalities into one constraint (bellperson gadgets/multieq.rs). */
#include "gadgets/multieq.h"
#include "gadgets/consts.h"

void cuzk_multieq_init(cuzk_multieq_t *me, cuzk_cs_t *cs)
{
    me->cs = cs;
    me->ops = 0;
    me->bits_used = 0;
    cuzk_lc_init(&me->lhs, cs);
    cuzk_lc_init(&me->rhs, cs);
}

static void accumulate(cuzk_multieq_t *me)
{
    cuzk_lc_t one;
    cuzk_lc_init(&one, me->cs);
    cuzk_lc_add(&one, cuzk_cs_one());
    cuzk_cs_enforce(me->cs, &me->lhs, &one, &me->rhs);
    cuzk_lc_free(&one);
    /* freed, not cleared: an arena LC kept alive would stop the arena's resets */
    cuzk_lc_free(&me->lhs);
    cuzk_lc_free(&me->rhs);
    me->bits_used = 0;
    me->ops++;
}

size_t cuzk_multieq_next_shift(const cuzk_multieq_t *me, size_t num_bits)
{
    return CUZK_FR_CAPACITY <= me->bits_used + num_bits ? 0 : me->bits_used;
}

/* Flushes when the width would reach the capacity; false for a width that can never fit. */
static bool make_room(cuzk_multieq_t *me, size_t num_bits)
{
    if (CUZK_FR_CAPACITY <= me->bits_used + num_bits)
        accumulate(me);
    if (num_bits >= CUZK_FR_CAPACITY) {
        /* bellperson asserts here; a caller bug, reported rather than aborting */
        cuzk_cs_fail(me->cs, CUZK_ERR_INVALID_ARG, "MultiEq::enforce_equal: %zu bits do not fit in one constraint",
                     num_bits);
        return false;
    }
    return true;
}

void cuzk_multieq_enforce_equal(cuzk_multieq_t *me, size_t num_bits, const cuzk_lc_t *lhs, const cuzk_lc_t *rhs)
{
    if (!make_room(me, num_bits))
        return;
    if (cuzk_cs_wants_lcs(me->cs)) {
        const fr *coeff = cuzk_gadget_pow2((unsigned)me->bits_used);
        cuzk_lc_add_scaled_lc(&me->lhs, coeff, lhs);
        cuzk_lc_add_scaled_lc(&me->rhs, coeff, rhs);
    }
    me->bits_used += num_bits;
}

void cuzk_multieq_enforce_equal_shifted(cuzk_multieq_t *me, size_t num_bits, const cuzk_lc_t *lhs,
                                        const cuzk_lc_t *rhs)
{
    if (!make_room(me, num_bits))
        return;
    cuzk_lc_add_lc(&me->lhs, lhs);
    cuzk_lc_add_lc(&me->rhs, rhs);
    me->bits_used += num_bits;
}

void cuzk_multieq_finish(cuzk_multieq_t *me)
{
    if (me->bits_used > 0)
        accumulate(me);
    cuzk_lc_free(&me->lhs);
    cuzk_lc_free(&me->rhs);
}
