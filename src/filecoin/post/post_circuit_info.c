/* Shape figures of the Fallback PoSt circuit synthesized blank: counts, non-zeros and densities from the
 * count backend (in parallel chunks), and optionally the TestConstraintSystem hash from the hash backend
 * (no values, no matrices: constant memory, so a 32GiB Window PoSt partition works too). */
#include <string.h>
#include "filecoin/post/post_circuit.h"
#include "util/parallel.h"

/* The hash backend streams the hash while synthesizing; its header needs the counts of the count run. */
static cuzk_status test_hash(cuzk_circuit_info_t *out, const cuzk_post_config_t *cfg, cuzk_err_t *err)
{
    cuzk_cs_t *cs = NULL;
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_HASH, CUZK_LC_DEFAULT, err);
    if (st == CUZK_OK)
        st = cuzk_cs_hash_begin(cs, out->num_inputs, out->num_aux, out->num_constraints, err);
    if (st == CUZK_OK)
        st = cuzk_post_synthesize(cs, cfg, NULL, 1, err);
    if (st == CUZK_OK)
        st = cuzk_cs_hash_finish(cs, out->hash, err);
    out->has_hash = st == CUZK_OK;
    cuzk_cs_free(cs);
    return st;
}

cuzk_status cuzk_post_circuit_info(cuzk_circuit_info_t *out, const cuzk_post_config_t *cfg, bool with_hash,
                                   cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    cuzk_cs_t *cs = NULL;
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_COUNT, CUZK_LC_DEFAULT, err);
    /* counting joins in parallel for the same figures: a 32GiB Window partition on every CPU */
    if (st == CUZK_OK)
        st = cuzk_post_synthesize(cs, cfg, NULL, cuzk_cpu_count(), err);
    if (st == CUZK_OK) {
        cuzk_cs_counts_t c;
        cuzk_cs_counts(cs, &c);
        *out = (cuzk_circuit_info_t){.num_constraints = c.num_constraints,
                                     .num_inputs = c.num_inputs,
                                     .num_aux = c.num_aux,
                                     .nnz_a = c.nnz_a,
                                     .nnz_b = c.nnz_b,
                                     .nnz_c = c.nnz_c,
                                     .a_aux_density = c.a_aux_density,
                                     .b_input_density = c.b_input_density,
                                     .b_aux_density = c.b_aux_density};
    }
    cuzk_cs_free(cs);
    if (st != CUZK_OK || !with_hash)
        return st;
    return test_hash(out, cfg, err);
}
