/* The sink backend: every enforced constraint is handed, as it is enforced, to a callback the
 * caller registered (cuzk_cs_sink_begin), so that a consumer can stream over a production-size
 * circuit without the matrices in memory. enforce (cs.c) checks and counts the terms first. */
#include "cs/cs_internal.h"

cuzk_status cuzk_cs_sink_begin(cuzk_cs_t *cs, cuzk_cs_sink_fn fn, void *arg, cuzk_err_t *err)
{
    if (cs->backend != CUZK_CS_SINK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_sink_begin: needs the sink backend");
    if (!fn)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_sink_begin: no callback");
    if (cs->sink_fn || cs->num_constraints)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "cuzk_cs_sink_begin: call it once, before the first constraint");
    cs->sink_fn = fn;
    cs->sink_arg = arg;
    return CUZK_OK;
}

void cs_sink_enforce(cuzk_cs_t *cs, const cuzk_lc_t *const lcs[3],
                     void (*count)(cuzk_cs_t *, const cuzk_lc_t *, int))
{
    if (!cs->sink_fn) {
        cs_failf(cs, CUZK_ERR_INVALID_ARG, "constraint %zu: the sink backend needs cuzk_cs_sink_begin first",
                 cs->num_constraints);
        return;
    }
    for (int k = 0; k < 3; k++)
        count(cs, lcs[k], k);
    /* A failed system (a bad variable just now, or earlier) hands nothing more on: the consumer then
     * only ever sees terms of allocated variables. */
    if (cs->status == CUZK_OK)
        cs->sink_fn(cs->sink_arg, cs->num_constraints, lcs[0], lcs[1], lcs[2]);
}
