/* Shape figures of the PoRep circuit synthesized blank: counts, non-zeros and densities from the
 * count backend, and optionally the TestConstraintSystem hash from the hash backend (no values, no
 * matrices: constant memory, so production sizes work too; cuzk_cs_blank_shape). */
#include <pthread.h>
#include "cs/shape.h"
#include "filecoin/porep/porep_circuit.h"

static cuzk_status blank(cuzk_cs_t *cs, const void *cfg, cuzk_err_t *err)
{
    return cuzk_porep_synthesize(cs, cfg, NULL, err);
}

cuzk_status cuzk_porep_circuit_info(cuzk_circuit_info_t *out, const cuzk_porep_config_t *cfg, bool with_hash,
                                    cuzk_err_t *err)
{
    return cuzk_cs_blank_shape(out, with_hash, blank, cfg, err);
}

/* n1 + (challenges − 1)·(n2 − n1): a figure of the whole circuit from those of one and two challenges. */
static size_t extrapolate(size_t n1, size_t n2, uint64_t challenges)
{
    return challenges > 1 ? n1 + (size_t)(challenges - 1) * (n2 - n1) : n1;
}

static cuzk_status count_shape(cuzk_circuit_info_t *out, const cuzk_porep_config_t *cfg, cuzk_err_t *err)
{
    if (cfg->challenges <= 2) /* nothing to save: count it */
        return cuzk_porep_circuit_info(out, cfg, false, err);
    cuzk_porep_config_t c = *cfg;
    cuzk_circuit_info_t one, two;
    c.challenges = 1;
    cuzk_status st = cuzk_porep_circuit_info(&one, &c, false, err);
    c.challenges = 2;
    if (st == CUZK_OK)
        st = cuzk_porep_circuit_info(&two, &c, false, err);
    if (st != CUZK_OK)
        return st;
    const uint64_t n = cfg->challenges;
    *out = two;
    out->num_constraints = extrapolate(one.num_constraints, two.num_constraints, n);
    out->num_inputs = extrapolate(one.num_inputs, two.num_inputs, n);
    out->num_aux = extrapolate(one.num_aux, two.num_aux, n);
    out->nnz_a = extrapolate(one.nnz_a, two.nnz_a, n);
    out->nnz_b = extrapolate(one.nnz_b, two.nnz_b, n);
    out->nnz_c = extrapolate(one.nnz_c, two.nnz_c, n);
    out->a_aux_density = extrapolate(one.a_aux_density, two.a_aux_density, n);
    out->b_input_density = extrapolate(one.b_input_density, two.b_input_density, n);
    out->b_aux_density = extrapolate(one.b_aux_density, two.b_aux_density, n);
    return CUZK_OK;
}

/* Shapes by configuration, counted once: a handful of circuits exist, and each count takes seconds at
 * 32GiB (the key check, every partition's reservation and the daemon's memory plan all ask). */
static pthread_mutex_t shape_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
    cuzk_porep_config_t cfg;
    cuzk_circuit_info_t info;
} shapes[16];
static size_t n_shapes;

/* Where cfg's shape is kept, or n_shapes when it was not counted yet. Caller holds shape_mu. */
static size_t shape_index_locked(const cuzk_porep_config_t *cfg)
{
    size_t i = 0;
    while (i < n_shapes && !cuzk_porep_config_equal(&shapes[i].cfg, cfg))
        i++;
    return i;
}

cuzk_status cuzk_porep_circuit_shape(cuzk_circuit_info_t *out, const cuzk_porep_config_t *cfg, cuzk_err_t *err)
{
    pthread_mutex_lock(&shape_mu);
    size_t i = shape_index_locked(cfg);
    bool found = i < n_shapes;
    if (found)
        *out = shapes[i].info;
    pthread_mutex_unlock(&shape_mu);
    if (found)
        return CUZK_OK;
    cuzk_circuit_info_t info;
    cuzk_status st = count_shape(&info, cfg, err);
    if (st != CUZK_OK)
        return st;
    pthread_mutex_lock(&shape_mu); /* another thread may have counted it meanwhile */
    if (shape_index_locked(cfg) == n_shapes && n_shapes < sizeof shapes / sizeof shapes[0]) {
        shapes[n_shapes].cfg = *cfg;
        shapes[n_shapes].info = info;
        n_shapes++;
    }
    pthread_mutex_unlock(&shape_mu);
    *out = info;
    return CUZK_OK;
}
