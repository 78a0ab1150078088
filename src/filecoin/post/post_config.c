/* Registered PoSt proofs as the public API gives them, the circuit configurations they imply (or that a
 * caller gives directly, as the reference's test circuits are), and the witness container a vanilla-proof
 * reader or a test fills. */
#include <stdlib.h>
#include <string.h>
#include "filecoin/post/post_circuit.h"
#include "filecoin/registry/post_proof.h"

/* Generous bounds that keep every count and the witness's size far from overflow. */
#define MAX_SECTORS (1u << 16)
#define MAX_CHALLENGES (1u << 10)

static void to_public(cuzk_post_registered_proof_t *out, const cuzk_fc_post_proof_t *p)
{
    *out = (cuzk_post_registered_proof_t){
        .id = p->id,
        .name = p->name,
        .size_name = p->size_name,
        .sector_size = p->sector_size,
        .kind = p->kind == CUZK_FC_POST_WINNING ? CUZK_POST_WINNING : CUZK_POST_WINDOW,
        .api = p->api == CUZK_FC_API_V1_0   ? CUZK_POREP_API_V1_0
               : p->api == CUZK_FC_API_V1_1 ? CUZK_POREP_API_V1_1
                                            : CUZK_POREP_API_V1_2,
        .sector_count = p->sector_count,
        .challenge_count = p->challenge_count,
        .vanilla_sectors = p->vanilla_sectors,
        .vanilla_challenges = p->vanilla_challenges,
    };
}

cuzk_status cuzk_post_registered_proof(cuzk_post_registered_proof_t *out, uint64_t id, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    const cuzk_fc_post_proof_t *p;
    cuzk_status st = cuzk_fc_post_proof_by_id(&p, id, err);
    if (st == CUZK_OK)
        to_public(out, p);
    return st;
}

cuzk_status cuzk_post_registered_proof_parse(cuzk_post_registered_proof_t *out, const char *name, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    const cuzk_fc_post_proof_t *p;
    cuzk_status st = cuzk_fc_post_proof_parse(&p, name, err);
    if (st == CUZK_OK)
        to_public(out, p);
    return st;
}

cuzk_status cuzk_post_registered_proof_for_size(cuzk_post_registered_proof_t *out, cuzk_post_kind kind,
                                                uint64_t sector_size, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    if (kind != CUZK_POST_WINNING && kind != CUZK_POST_WINDOW)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "unknown PoSt kind %d (Winning 0, Window 1)", (int)kind);
    const cuzk_fc_post_proof_t *p;
    cuzk_status st = cuzk_fc_post_proof_for_size(
        &p, kind == CUZK_POST_WINNING ? CUZK_FC_POST_WINNING : CUZK_FC_POST_WINDOW, sector_size, err);
    if (st == CUZK_OK)
        to_public(out, p);
    return st;
}

static const char *kind_name(cuzk_post_kind k) { return k == CUZK_POST_WINNING ? "Winning" : "Window"; }

cuzk_status cuzk_post_registered_proof_select(cuzk_post_registered_proof_t *out, cuzk_post_kind kind,
                                              const char *name, uint64_t sector_size, cuzk_err_t *err)
{
    if (!name)
        return cuzk_post_registered_proof_for_size(out, kind, sector_size, err);
    cuzk_status st = cuzk_post_registered_proof_parse(out, name, err);
    if (st != CUZK_OK)
        return st;
    if (out->kind != kind)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%s is a %s PoSt proof, not a %s one", out->name,
                            kind_name(out->kind), kind_name(kind));
    if (sector_size && out->sector_size != sector_size)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%s is a proof of %s sectors, not of %llu-byte ones",
                            out->name, out->size_name, (unsigned long long)sector_size);
    return CUZK_OK;
}

cuzk_status cuzk_post_config_for_proof(cuzk_post_config_t *cfg, uint64_t proof_id, cuzk_err_t *err)
{
    memset(cfg, 0, sizeof *cfg);
    const cuzk_fc_post_proof_t *p;
    cuzk_status st = cuzk_fc_post_proof_by_id(&p, proof_id, err);
    if (st != CUZK_OK)
        return st;
    *cfg = (cuzk_post_config_t){.nodes = p->sector_size / CUZK_FC_NODE_SIZE,
                                .sector_count = p->sector_count,
                                .challenge_count = p->challenge_count,
                                .base_arity = p->base_arity,
                                .sub_arity = p->sub_arity,
                                .top_arity = p->top_arity};
    return CUZK_OK;
}

cuzk_status cuzk_post_tree_shape(cuzk_por_shape_t *shape, const cuzk_post_config_t *cfg, cuzk_err_t *err)
{
    cuzk_err_t e = {{0}};
    if (cfg->base_arity > CUZK_POR_MAX_ARITY || cfg->sub_arity > CUZK_POR_MAX_ARITY ||
        cfg->top_arity > CUZK_POR_MAX_ARITY ||
        cuzk_por_shape_for_leaves(shape, CUZK_POR_POSEIDON, cfg->nodes, cfg->base_arity, cfg->sub_arity, cfg->top_arity,
                                  &e) != CUZK_OK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post config: tree %u-%u-%u over %llu nodes: %s",
                            cfg->base_arity, cfg->sub_arity, cfg->top_arity, (unsigned long long)cfg->nodes,
                            e.msg[0] ? e.msg : "arity out of range");
    return CUZK_OK;
}

cuzk_status cuzk_post_config_check(const cuzk_post_config_t *cfg, cuzk_err_t *err)
{
    if (!cfg)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post config: NULL");
    if (cfg->nodes < 2 || (cfg->nodes & (cfg->nodes - 1)))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post config: %llu nodes (a power of two, at least 2)",
                            (unsigned long long)cfg->nodes);
    if (cfg->sector_count < 1 || cfg->sector_count > MAX_SECTORS)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post config: %u sectors (1..%u)", cfg->sector_count,
                            MAX_SECTORS);
    if (cfg->challenge_count < 1 || cfg->challenge_count > MAX_CHALLENGES)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post config: %u challenges per sector (1..%u)",
                            cfg->challenge_count, MAX_CHALLENGES);
    cuzk_por_shape_t s;
    return cuzk_post_tree_shape(&s, cfg, err);
}

size_t cuzk_post_num_inputs(const cuzk_post_config_t *cfg)
{
    return 1 + (size_t)cfg->sector_count * (1 + (size_t)cfg->challenge_count);
}

uint32_t cuzk_post_tree_levels(const cuzk_post_config_t *cfg)
{
    cuzk_por_shape_t s;
    return cuzk_post_tree_shape(&s, cfg, NULL) == CUZK_OK ? cuzk_por_levels(&s) : 0;
}

size_t cuzk_post_tree_siblings(const cuzk_post_config_t *cfg)
{
    cuzk_por_shape_t s;
    return cuzk_post_tree_shape(&s, cfg, NULL) == CUZK_OK ? cuzk_por_siblings(&s) : 0;
}

/* ---- witness storage: one zeroed block holding the sectors, their paths and the paths' arrays ---- */

static size_t round16(size_t n) { return (n + 15) / 16 * 16; }

cuzk_status cuzk_post_witness_init(cuzk_post_witness_t *w, const cuzk_post_config_t *cfg, cuzk_err_t *err)
{
    memset(w, 0, sizeof *w);
    cuzk_status st = cuzk_post_config_check(cfg, err);
    if (st != CUZK_OK)
        return st;
    size_t ns = cfg->sector_count, np = ns * cfg->challenge_count;
    size_t sib = cuzk_post_tree_siblings(cfg), lv = cuzk_post_tree_levels(cfg);
    size_t sectors_b = round16(ns * sizeof(cuzk_post_sector_witness_t));
    size_t paths_b = round16(np * sizeof(cuzk_porep_path_t));
    size_t per_path = round16(sib * sizeof(cuzk_fr_t)) + round16(lv * sizeof(uint32_t));
    size_t total = sectors_b + paths_b + np * per_path;
    unsigned char *p = calloc(1, total);
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "post witness: out of memory (%zu bytes for %zu sectors)", total,
                            ns);
    w->storage_ = p;
    w->cfg = *cfg;
    w->sectors = (cuzk_post_sector_witness_t *)p;
    cuzk_porep_path_t *paths = (cuzk_porep_path_t *)(p + sectors_b);
    unsigned char *arr = p + sectors_b + paths_b;
    for (size_t i = 0; i < np; i++, arr += per_path) {
        paths[i].siblings = (cuzk_fr_t *)arr;
        paths[i].positions = (uint32_t *)(arr + round16(sib * sizeof(cuzk_fr_t)));
    }
    for (size_t s = 0; s < ns; s++)
        w->sectors[s].paths = &paths[s * cfg->challenge_count];
    return CUZK_OK;
}

void cuzk_post_witness_free(cuzk_post_witness_t *w)
{
    if (!w)
        return;
    free(w->storage_);
    memset(w, 0, sizeof *w);
}
