/* PoRep circuit configurations (from registered proofs or given directly, as the reference's test
 * circuits are) and the witness container a C1 parser or a test fills. */
#include <stdlib.h>
#include <string.h>
#include "filecoin/porep/porep_circuit.h"
#include "filecoin/registry/registered_proof.h"

static void from_proof(cuzk_porep_config_t *cfg, uint32_t *partitions, const cuzk_fc_seal_proof_t *p)
{
    *cfg = (cuzk_porep_config_t){.nodes = p->nodes,
                                 .layers = p->layers,
                                 .challenges = p->challenges_per_partition,
                                 .base_arity = p->base_arity,
                                 .sub_arity = p->sub_arity,
                                 .top_arity = p->top_arity};
    if (partitions)
        *partitions = p->partitions;
}

cuzk_status cuzk_porep_config_for_proof(cuzk_porep_config_t *cfg, uint32_t *partitions, const char *name,
                                        cuzk_err_t *err)
{
    const cuzk_fc_seal_proof_t *p;
    cuzk_status st = cuzk_fc_seal_proof_parse(&p, name, err);
    if (st != CUZK_OK)
        return st;
    from_proof(cfg, partitions, p);
    return CUZK_OK;
}

cuzk_status cuzk_porep_config_for_sector_size(cuzk_porep_config_t *cfg, uint32_t *partitions, uint64_t sector_size,
                                              cuzk_err_t *err)
{
    const cuzk_fc_seal_proof_t *t = cuzk_fc_seal_proofs();
    for (int i = 0; i < CUZK_FC_SEAL_PROOF_COUNT; i++)
        if (t[i].sector_size == sector_size && t[i].api == CUZK_FC_API_V1_1 &&
            t[i].challenges == CUZK_FC_CHALLENGES_INTERACTIVE) {
            from_proof(cfg, partitions, &t[i]);
            return CUZK_OK;
        }
    return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep: no registered seal proof has sectors of %llu bytes",
                        (unsigned long long)sector_size);
}

cuzk_status cuzk_porep_tree_shape(cuzk_por_shape_t *shape, const cuzk_porep_config_t *cfg, cuzk_err_t *err)
{
    cuzk_err_t e = {{0}};
    if (cfg->base_arity > 16 || cfg->sub_arity > 16 || cfg->top_arity > 16 ||
        cuzk_por_shape_for_leaves(shape, CUZK_POR_POSEIDON, cfg->nodes, cfg->base_arity, cfg->sub_arity,
                                  cfg->top_arity, &e) != CUZK_OK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep config: tree %u-%u-%u over %llu nodes: %s",
                            cfg->base_arity, cfg->sub_arity, cfg->top_arity, (unsigned long long)cfg->nodes,
                            e.msg[0] ? e.msg : "arity out of range");
    return CUZK_OK;
}

cuzk_status cuzk_porep_tree_d_shape(cuzk_por_shape_t *shape, const cuzk_porep_config_t *cfg, cuzk_err_t *err)
{
    cuzk_err_t e = {{0}};
    if (cuzk_por_shape_for_leaves(shape, CUZK_POR_SHA256, cfg->nodes, 2, 0, 0, &e) != CUZK_OK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep config: tree D over %llu nodes: %s",
                            (unsigned long long)cfg->nodes, e.msg);
    return CUZK_OK;
}

cuzk_status cuzk_porep_config_check(const cuzk_porep_config_t *cfg, cuzk_err_t *err)
{
    if (!cfg)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep config: NULL");
    if (cfg->nodes < 2 || cfg->nodes > ((uint64_t)1 << 32) || (cfg->nodes & (cfg->nodes - 1)))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep config: %llu nodes (a power of two in 2..2^32)",
                            (unsigned long long)cfg->nodes);
    /* the reference's column hash exists for these two heights only (hash_single_column) */
    if (cfg->layers != 2 && cfg->layers != 11)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep config: %u layers (2 or 11)", cfg->layers);
    if (cfg->challenges < 1 || cfg->challenges > CUZK_POREP_MAX_CHALLENGES)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep config: %u challenges per partition (1..%d)",
                            cfg->challenges, CUZK_POREP_MAX_CHALLENGES);
    cuzk_por_shape_t s;
    cuzk_status st = cuzk_porep_tree_shape(&s, cfg, err);
    if (st != CUZK_OK)
        return st;
    return cuzk_porep_tree_d_shape(&s, cfg, err);
}

uint32_t cuzk_porep_tree_levels(const cuzk_porep_config_t *cfg)
{
    cuzk_por_shape_t s;
    return cuzk_porep_tree_shape(&s, cfg, NULL) == CUZK_OK ? cuzk_por_levels(&s) : 0;
}

uint32_t cuzk_porep_tree_d_levels(const cuzk_porep_config_t *cfg)
{
    cuzk_por_shape_t s;
    return cuzk_porep_tree_d_shape(&s, cfg, NULL) == CUZK_OK ? cuzk_por_levels(&s) : 0;
}

size_t cuzk_porep_tree_siblings(const cuzk_porep_config_t *cfg)
{
    cuzk_por_shape_t s;
    return cuzk_porep_tree_shape(&s, cfg, NULL) == CUZK_OK ? cuzk_por_siblings(&s) : 0;
}

size_t cuzk_porep_num_inputs(const cuzk_porep_config_t *cfg) { return 4 + 18 * (size_t)cfg->challenges; }

/* ---- witness storage: one zeroed block carved into every array ---- */

typedef struct {
    unsigned char *p;
    size_t off;
} carve_t;

static void *carve(carve_t *c, size_t bytes)
{
    void *r = c->p ? c->p + c->off : NULL;
    c->off += (bytes + 15) / 16 * 16;
    return r;
}

static void carve_path(carve_t *c, cuzk_porep_path_t *p, size_t siblings, uint32_t levels)
{
    p->siblings = carve(c, siblings * sizeof(cuzk_fr_t));
    p->positions = carve(c, levels * sizeof(uint32_t));
}

static void carve_column(carve_t *c, cuzk_porep_column_t *col, const cuzk_porep_config_t *cfg, size_t sib,
                         uint32_t lv)
{
    col->rows = carve(c, cfg->layers * sizeof(cuzk_fr_t));
    carve_path(c, &col->path, sib, lv);
}

/* Lays every array out (c->p NULL: only measures). */
static void carve_all(carve_t *c, cuzk_porep_witness_t *w, const cuzk_porep_config_t *cfg)
{
    size_t sib = cuzk_porep_tree_siblings(cfg);
    uint32_t lv = cuzk_porep_tree_levels(cfg), dlv = cuzk_porep_tree_d_levels(cfg);
    cuzk_porep_challenge_t dummy;
    for (uint32_t i = 0; i < cfg->challenges; i++) {
        cuzk_porep_challenge_t *ch = c->p ? &w->challenges[i] : &dummy;
        carve_path(c, &ch->comm_d_path, dlv, dlv);
        carve_path(c, &ch->comm_r_last_path, sib, lv);
        carve_column(c, &ch->c_x, cfg, sib, lv);
        for (int k = 0; k < CUZK_POREP_DRG_PARENTS; k++)
            carve_column(c, &ch->drg_parents[k], cfg, sib, lv);
        for (int k = 0; k < CUZK_POREP_EXP_PARENTS; k++)
            carve_column(c, &ch->exp_parents[k], cfg, sib, lv);
    }
}

cuzk_status cuzk_porep_witness_init(cuzk_porep_witness_t *w, const cuzk_porep_config_t *cfg, cuzk_err_t *err)
{
    memset(w, 0, sizeof *w);
    cuzk_status st = cuzk_porep_config_check(cfg, err);
    if (st != CUZK_OK)
        return st;
    carve_t c = {NULL, 0};
    carve_all(&c, w, cfg);
    w->challenges = calloc(cfg->challenges, sizeof *w->challenges);
    w->storage_ = calloc(1, c.off ? c.off : 1);
    if (!w->challenges || !w->storage_) {
        cuzk_porep_witness_free(w);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "porep witness: out of memory (%zu bytes)", c.off);
    }
    w->cfg = *cfg;
    w->num_challenges = cfg->challenges;
    c = (carve_t){w->storage_, 0};
    carve_all(&c, w, cfg);
    return CUZK_OK;
}

void cuzk_porep_witness_free(cuzk_porep_witness_t *w)
{
    if (!w)
        return;
    free(w->challenges);
    free(w->storage_);
    memset(w, 0, sizeof *w);
}
