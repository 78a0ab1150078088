/* The shape of a streamed setup's key from the circuit's counts (bellperson's generate_random_parameters:
 * an input row Input(i)·0 = 0 per input after the circuit's constraints, so every input is dense in A;
 * A and B queries keep the variables with a non-zero coefficient in A, resp. B). */
#include <string.h>
#include "cuzk/ntt.h"
#include "cuzk/params.h"
#include "groth16/groth16_internal.h"
#include "groth16/setup_stream.h"

cuzk_status g16_stream_plan_counts(g16_stream_plan *plan, const cuzk_cs_counts_t *c, cuzk_err_t *err)
{
    memset(plan, 0, sizeof *plan);
    if (!c->has_density)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "setup plan: counts without densities");
    if (c->num_inputs == 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "setup plan: the constraint system has no ONE input");
    size_t rows = c->num_constraints + c->num_inputs;
    if (rows > ((size_t)1 << CUZK_NTT_MAX_LOG))
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "setup plan: %zu rows exceed the largest domain", rows);
    plan->num_inputs = c->num_inputs;
    plan->num_aux = c->num_aux;
    plan->num_constraints = c->num_constraints;
    plan->a_aux_density = c->a_aux_density;
    plan->b_input_density = c->b_input_density;
    plan->b_aux_density = c->b_aux_density;
    plan->log_m = g16_log2_ceil(rows);
    plan->ic = c->num_inputs;
    plan->h = ((size_t)1 << plan->log_m) - 1;
    plan->l = c->num_aux;
    plan->a = c->num_inputs + c->a_aux_density;
    plan->b = c->b_input_density + c->b_aux_density;
    size_t lens[5] = {plan->ic, plan->h, plan->l, plan->a, plan->b};
    for (int k = 0; k < 5; k++)
        if (lens[k] > UINT32_MAX)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "setup plan: a section of %zu points exceeds a u32 length",
                                lens[k]);
    plan->vk_bytes = cuzk_params_vk_size(plan->ic);
    plan->params_bytes = plan->vk_bytes + 5 * 4 + 96ull * (plan->h + plan->l + plan->a + plan->b) + 192ull * plan->b;
    return CUZK_OK;
}

/* The count run's consumer: nothing to keep, a progress tick now and then. */
typedef struct {
    void (*tick)(void *arg, uint64_t rows_done);
    void *tick_arg;
} count_sink;

static void count_constraint(void *arg, size_t row, const cuzk_lc_t *a, const cuzk_lc_t *b, const cuzk_lc_t *c)
{
    (void)a, (void)b, (void)c;
    const count_sink *k = arg;
    if (k->tick && (row + 1) % ((size_t)1 << 20) == 0)
        k->tick(k->tick_arg, row + 1);
}

cuzk_status g16_stream_plan_circuit(g16_stream_plan *plan, g16_synthesize_fn synthesize, const void *arg,
                                    bool (*should_stop)(void *), void *stop_arg,
                                    void (*tick)(void *arg, uint64_t rows_done), void *tick_arg, cuzk_err_t *err)
{
    memset(plan, 0, sizeof *plan);
    /* the sink backend counts as the count backend does, and lets the run report its progress */
    count_sink k = {tick, tick_arg};
    cuzk_cs_counts_t c;
    cuzk_status st = g16_sink_synthesize(&c, synthesize, arg, count_constraint, &k, should_stop, stop_arg, err);
    return st == CUZK_OK ? g16_stream_plan_counts(plan, &c, err) : st;
}

cuzk_status g16_sink_synthesize(cuzk_cs_counts_t *counts, g16_synthesize_fn synthesize, const void *arg,
                                cuzk_cs_sink_fn fn, void *fn_arg, bool (*should_stop)(void *), void *stop_arg,
                                cuzk_err_t *err)
{
    memset(counts, 0, sizeof *counts);
    cuzk_cs_t *cs = NULL;
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_SINK, CUZK_LC_DEFAULT, err);
    if (st != CUZK_OK)
        return st;
    cuzk_cs_set_stop(cs, should_stop, stop_arg);
    st = cuzk_cs_sink_begin(cs, fn, fn_arg, err);
    if (st == CUZK_OK)
        st = synthesize(cs, arg, err);
    if (st == CUZK_OK)
        st = cuzk_cs_status(cs, err);
    cuzk_cs_counts(cs, counts);
    cuzk_cs_free(cs);
    return st;
}
