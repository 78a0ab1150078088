/* The figures of a circuit synthesized blank: a count run, then a hash run whose header needs its counts. */
#include "cs/shape.h"
#include <string.h>

cuzk_status cuzk_cs_blank_shape(cuzk_circuit_info_t *out, bool with_hash,
                                cuzk_status (*synthesize)(cuzk_cs_t *cs, const void *arg, cuzk_err_t *err),
                                const void *arg, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    cuzk_cs_counts_t c = {0};
    cuzk_cs_t *cs = NULL;
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_COUNT, CUZK_LC_DEFAULT, err);
    if (st == CUZK_OK)
        st = synthesize(cs, arg, err);
    if (st == CUZK_OK)
        cuzk_cs_counts(cs, &c);
    cuzk_cs_free(cs);
    if (st != CUZK_OK)
        return st;
    *out = (cuzk_circuit_info_t){.num_constraints = c.num_constraints,
                                 .num_inputs = c.num_inputs,
                                 .num_aux = c.num_aux,
                                 .nnz_a = c.nnz_a,
                                 .nnz_b = c.nnz_b,
                                 .nnz_c = c.nnz_c,
                                 .a_aux_density = c.a_aux_density,
                                 .b_input_density = c.b_input_density,
                                 .b_aux_density = c.b_aux_density};
    if (!with_hash)
        return CUZK_OK;
    cs = NULL;
    st = cuzk_cs_new(&cs, CUZK_CS_HASH, CUZK_LC_DEFAULT, err);
    if (st == CUZK_OK)
        st = cuzk_cs_hash_begin(cs, c.num_inputs, c.num_aux, c.num_constraints, err);
    if (st == CUZK_OK)
        st = synthesize(cs, arg, err);
    if (st == CUZK_OK)
        st = cuzk_cs_hash_finish(cs, out->hash, err);
    cuzk_cs_free(cs);
    out->has_hash = st == CUZK_OK;
    if (!out->has_hash)
        out->hash[0] = 0;
    return st;
}
