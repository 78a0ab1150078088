/* C1 output → PoRep circuit witness: paths are matched level by level against the circuit's tree
 * shapes (a vanilla proof of another shape would build another circuit), values are read as
 * canonical field elements. */
#include "filecoin/porep/porep_circuit_c1.h"
#include <string.h>
#include "ff/fr.h"
#include "filecoin/porep/porep_circuit.h"

typedef struct {
    uint32_t k, i;
    cuzk_err_t *err;
} where_t;

static cuzk_status to_fr(cuzk_fr_t *out, const uint8_t b[32], const where_t *at, const char *what)
{
    if (!fr_from_bytes_le(out, b))
        return cuzk_err_set(at->err, CUZK_ERR_NOT_CANONICAL, "c1 partition %u challenge %u: %s is not a field element",
                            at->k, at->i, what);
    return CUZK_OK;
}

static cuzk_status copy_path(cuzk_porep_path_t *dst, const cuzk_fc_merkle_path_t *src, const cuzk_por_shape_t *shape,
                             const where_t *at, const char *what)
{
    unsigned levels = cuzk_por_levels(shape);
    uint32_t n = src->n_base + src->n_sub + src->n_top;
    if (n != levels || !src->siblings)
        return cuzk_err_set(at->err, CUZK_ERR_FORMAT, "c1 partition %u challenge %u: %s has %u levels, the circuit %u",
                            at->k, at->i, what, n, levels);
    size_t s = 0;
    for (unsigned l = 0; l < levels; l++) {
        unsigned a = cuzk_por_arity(shape, l);
        if (src->steps[l].arity != a || src->steps[l].index >= a)
            return cuzk_err_set(at->err, CUZK_ERR_FORMAT,
                                "c1 partition %u challenge %u: %s level %u has arity %u index %u, the circuit arity %u",
                                at->k, at->i, what, l, src->steps[l].arity, src->steps[l].index, a);
        dst->positions[l] = src->steps[l].index;
        for (unsigned j = 0; j + 1 < a; j++, s++)
            if (to_fr(&dst->siblings[s], src->siblings + 32 * s, at, what) != CUZK_OK)
                return CUZK_ERR_NOT_CANONICAL;
    }
    if (to_fr(&dst->leaf, src->leaf, at, what) != CUZK_OK || to_fr(&dst->root, src->root, at, what) != CUZK_OK)
        return CUZK_ERR_NOT_CANONICAL;
    dst->has_values = true;
    return CUZK_OK;
}

static cuzk_status copy_column(cuzk_porep_column_t *dst, const cuzk_fc_c1_column_t *src, uint32_t layers,
                               const cuzk_por_shape_t *shape, const where_t *at, const char *what)
{
    if (!src->rows)
        return cuzk_err_set(at->err, CUZK_ERR_FORMAT, "c1 partition %u challenge %u: %s has no rows", at->k, at->i,
                            what);
    dst->index = src->index;
    for (uint32_t l = 0; l < layers; l++)
        if (to_fr(&dst->rows[l], src->rows[l], at, what) != CUZK_OK)
            return CUZK_ERR_NOT_CANONICAL;
    dst->has_rows = true;
    return copy_path(&dst->path, &src->path, shape, at, what);
}

static cuzk_status fill(cuzk_porep_witness_t *w, const cuzk_fc_c1_t *c1, uint32_t k, cuzk_err_t *err)
{
    const cuzk_porep_config_t *cfg = &w->cfg;
    cuzk_por_shape_t sd, src;
    cuzk_porep_tree_d_shape(&sd, cfg, NULL);
    cuzk_porep_tree_shape(&src, cfg, NULL);
    where_t at = {k, 0, err};
    if (to_fr(&w->replica_id, c1->replica_id, &at, "replica_id") || to_fr(&w->comm_d, c1->comm_d, &at, "comm_d") ||
        to_fr(&w->comm_r, c1->comm_r, &at, "comm_r"))
        return CUZK_ERR_NOT_CANONICAL;
    w->has_replica_id = w->has_comm_d = w->has_comm_r = true;
    const cuzk_fc_c1_vproof_t *v0 = cuzk_fc_c1_vproof(c1, k, 0);
    if (to_fr(&w->comm_c, v0->c_x.path.root, &at, "comm_c") ||
        to_fr(&w->comm_r_last, v0->comm_r_last.root, &at, "comm_r_last"))
        return CUZK_ERR_NOT_CANONICAL;
    w->has_comm_c = w->has_comm_r_last = true;
    for (uint32_t i = 0; i < cfg->challenges; i++) {
        at.i = i;
        const cuzk_fc_c1_vproof_t *v = cuzk_fc_c1_vproof(c1, k, i);
        cuzk_porep_challenge_t *ch = &w->challenges[i];
        if (memcmp(v->c_x.path.root, v0->c_x.path.root, 32) || memcmp(v->comm_r_last.root, v0->comm_r_last.root, 32))
            return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                                "c1 partition %u challenge %u: comm_c or comm_r_last differs from challenge 0", k, i);
        if (v->n_layers < 1 || !v->labeling)
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "c1 partition %u challenge %u: no labeling proof", k, i);
        ch->challenge = v->labeling[0].node;
        ch->has_challenge = true;
        cuzk_status st = copy_path(&ch->comm_d_path, &v->comm_d, &sd, &at, "comm_d_proofs");
        if (!st)
            st = copy_path(&ch->comm_r_last_path, &v->comm_r_last, &src, &at, "comm_r_last_proof");
        if (!st)
            st = copy_column(&ch->c_x, &v->c_x, cfg->layers, &src, &at, "c_x");
        for (int p = 0; !st && p < CUZK_POREP_DRG_PARENTS; p++)
            st = copy_column(&ch->drg_parents[p], &v->drg[p], cfg->layers, &src, &at, "a DRG parent column");
        for (int p = 0; !st && p < CUZK_POREP_EXP_PARENTS; p++)
            st = copy_column(&ch->exp_parents[p], &v->exp[p], cfg->layers, &src, &at, "an expander parent column");
        if (st)
            return st;
    }
    return CUZK_OK;
}

cuzk_status cuzk_porep_witness_from_c1(cuzk_porep_witness_t *w, const cuzk_fc_c1_t *c1, uint32_t k, cuzk_err_t *err)
{
    memset(w, 0, sizeof *w);
    if (!c1 || !c1->proof || !c1->vproofs)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "c1 to porep witness: empty C1 output");
    if (k >= c1->n_partitions)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "c1 to porep witness: partition %u of %u", k, c1->n_partitions);
    cuzk_porep_config_t cfg;
    cuzk_status st = cuzk_porep_config_for_proof(&cfg, NULL, c1->proof->name, err);
    if (st)
        return st;
    if (c1->challenges_per_partition != cfg.challenges)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "c1 to porep witness: %u challenges per partition, %s has %u",
                            c1->challenges_per_partition, c1->proof->name, cfg.challenges);
    st = cuzk_porep_witness_init(w, &cfg, err);
    if (!st)
        st = fill(w, c1, k, err);
    if (st)
        cuzk_porep_witness_free(w);
    return st;
}
