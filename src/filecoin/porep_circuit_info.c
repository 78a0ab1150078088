/* Shape figures of the PoRep circuit synthesized blank: counts, non-zeros and densities from the
 * count backend, and optionally the TestConstraintSystem hash from the test backend, which needs
 * values: it gets an all-zero witness (the hash covers the constraints, never the values). */
#include <string.h>
#include <unistd.h>
#include "filecoin/porep_circuit.h"

static void path_known(cuzk_porep_path_t *p) { p->has_values = true; }

static void column_known(cuzk_porep_column_t *c)
{
    c->has_rows = true;
    path_known(&c->path);
}

/* Every value present (and zero). */
static void all_known(cuzk_porep_witness_t *w)
{
    w->has_replica_id = w->has_comm_d = w->has_comm_r = w->has_comm_c = w->has_comm_r_last = true;
    for (uint32_t i = 0; i < w->num_challenges; i++) {
        cuzk_porep_challenge_t *ch = &w->challenges[i];
        ch->has_challenge = true;
        path_known(&ch->comm_d_path);
        path_known(&ch->comm_r_last_path);
        column_known(&ch->c_x);
        for (int k = 0; k < CUZK_POREP_DRG_PARENTS; k++)
            column_known(&ch->drg_parents[k]);
        for (int k = 0; k < CUZK_POREP_EXP_PARENTS; k++)
            column_known(&ch->exp_parents[k]);
    }
}

static cuzk_status test_hash(cuzk_circuit_info_t *out, const cuzk_porep_config_t *cfg, cuzk_err_t *err)
{
    /* the test backend keeps every term (column 4 bytes, coefficient 32, row starts 3·8) and every value */
    double need = 36.0 * (double)(out->nnz_a + out->nnz_b + out->nnz_c) + 24.0 * (double)out->num_constraints +
                  32.0 * (double)(out->num_aux + out->num_inputs);
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psize > 0 && need > 0.75 * (double)pages * (double)psize)
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED,
                            "porep circuit hash: the test backend needs about %.1f GiB, more than this machine has",
                            need / (1u << 30));
    cuzk_porep_witness_t w;
    cuzk_status st = cuzk_porep_witness_init(&w, cfg, err);
    cuzk_cs_t *cs = NULL;
    if (st == CUZK_OK) {
        all_known(&w);
        st = cuzk_cs_new(&cs, CUZK_CS_TEST, CUZK_LC_DEFAULT, err);
    }
    if (st == CUZK_OK) {
        cuzk_cs_reserve(cs, out->num_inputs, out->num_aux, out->num_constraints);
        st = cuzk_porep_synthesize(cs, cfg, &w, err);
    }
    if (st == CUZK_OK)
        st = cuzk_cs_test_hash(cs, out->hash, err);
    out->has_hash = st == CUZK_OK;
    cuzk_cs_free(cs);
    cuzk_porep_witness_free(&w);
    return st;
}

cuzk_status cuzk_porep_circuit_info(cuzk_circuit_info_t *out, const cuzk_porep_config_t *cfg, bool with_hash,
                                    cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    cuzk_cs_t *cs = NULL;
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_COUNT, CUZK_LC_DEFAULT, err);
    if (st == CUZK_OK)
        st = cuzk_porep_synthesize(cs, cfg, NULL, err);
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
