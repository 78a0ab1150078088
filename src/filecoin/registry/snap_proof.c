/* The registered update proof table (rust-filecoin-proofs-api src/registry.rs RegisteredUpdateProof; the
 * map from seal proofs as go-state-types abi's RegisteredSealProof.RegisteredUpdateProof gives it) and the
 * circuit shapes of storage-proofs-update src/constants.rs: partition_count, challenge_count,
 * apex_leaf_count, hs / h_default and validate_tree_r_shape, for every size of ALLOWED_SECTOR_SIZES. */
#include "filecoin/registry/snap_proof.h"
#include <string.h>
#include "filecoin/registry/registered_proof.h"
#include "filecoin/registry/proof_name.h"

#define KIB (1ull << 10)
#define MIB (1ull << 20)
#define GIB (1ull << 30)

static const cuzk_fc_snap_proof_t TABLE[CUZK_FC_SNAP_PROOF_COUNT] = {
    {0, "StackedDrg2KiBV1", "2KiB", 2 * KIB},
    {1, "StackedDrg8MiBV1", "8MiB", 8 * MIB},
    {2, "StackedDrg512MiBV1", "512MiB", 512 * MIB},
    {3, "StackedDrg32GiBV1", "32GiB", 32 * GIB},
    {4, "StackedDrg64GiBV1", "64GiB", 64 * GIB},
};

/* Sector sizes in nodes (constants.rs SECTOR_SIZE_*) with validate_tree_r_shape's arities. */
static const struct {
    uint64_t nodes;
    uint32_t base, sub, top;
} SHAPES[CUZK_FC_SNAP_SIZE_COUNT] = {
    {1ull << 5, 8, 4, 0},  /* 1KiB */
    {1ull << 6, 8, 0, 0},  /* 2KiB */
    {1ull << 7, 8, 2, 0},  /* 4KiB */
    {1ull << 8, 8, 4, 0},  /* 8KiB */
    {1ull << 9, 8, 8, 0},  /* 16KiB */
    {1ull << 10, 8, 8, 2}, /* 32KiB */
    {1ull << 18, 8, 0, 0}, /* 8MiB */
    {1ull << 19, 8, 2, 0}, /* 16MiB */
    {1ull << 24, 8, 0, 0}, /* 512MiB */
    {1ull << 30, 8, 8, 0}, /* 32GiB */
    {1ull << 31, 8, 8, 2}, /* 64GiB */
};
static const uint64_t ALLOWED[CUZK_FC_SNAP_SIZE_COUNT] = {1ull << 5,  1ull << 6,  1ull << 7,  1ull << 8,
                                                         1ull << 9,  1ull << 10, 1ull << 18, 1ull << 19,
                                                         1ull << 24, 1ull << 30, 1ull << 31};

#define NODES_8KIB (1ull << 8)
#define NODES_32KIB (1ull << 10)
#define NODES_16MIB (1ull << 19)

const cuzk_fc_snap_proof_t *cuzk_fc_snap_proofs(void) { return TABLE; }
const uint64_t *cuzk_fc_snap_allowed_nodes(void) { return ALLOWED; }

uint32_t cuzk_fc_snap_log2(uint64_t v)
{
    uint32_t n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

static int shape_index(uint64_t nodes)
{
    for (int i = 0; i < CUZK_FC_SNAP_SIZE_COUNT; i++)
        if (SHAPES[i].nodes == nodes)
            return i;
    return -1;
}

static uint32_t partition_count(uint64_t nodes)
{
    return nodes <= NODES_8KIB ? 1 : nodes <= NODES_32KIB ? 2 : nodes <= NODES_16MIB ? 4 : 16;
}
static uint32_t challenge_count(uint64_t nodes) { return nodes <= NODES_16MIB ? 10 : 86; }
static uint32_t apex_leaf_count(uint64_t nodes) { return nodes <= NODES_8KIB ? 8 : 128; }

void cuzk_snap_hs(uint64_t nodes, uint32_t hs[CUZK_SNAP_H_CHOICES])
{
    for (uint32_t i = 0; i < CUZK_SNAP_H_CHOICES; i++)
        hs[i] = nodes <= NODES_32KIB ? 1 : 7 + i;
}

/* ---- registered proofs ---- */

static void to_public(cuzk_snap_registered_proof_t *out, const cuzk_fc_snap_proof_t *p)
{
    uint64_t nodes = p->sector_size / CUZK_FC_NODE_SIZE;
    *out = (cuzk_snap_registered_proof_t){.id = p->id,
                                          .name = p->name,
                                          .size_name = p->size_name,
                                          .sector_size = p->sector_size,
                                          .partitions = partition_count(nodes),
                                          .challenges_per_partition = challenge_count(nodes)};
}

cuzk_status cuzk_snap_registered_proof(cuzk_snap_registered_proof_t *out, uint64_t id, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    if (id >= CUZK_FC_SNAP_PROOF_COUNT)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "unknown registered update proof id %llu (known: 0..%d)",
                            (unsigned long long)id, CUZK_FC_SNAP_PROOF_COUNT - 1);
    to_public(out, &TABLE[id]);
    return CUZK_OK;
}

cuzk_status cuzk_snap_registered_proof_parse(cuzk_snap_registered_proof_t *out, const char *name, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    const char *s;
    uint64_t v;
    cuzk_fc_proof_name_t k = cuzk_fc_proof_name_split(name, "RegisteredUpdateProof_", CUZK_FC_SNAP_PROOF_COUNT, &v, &s);
    if (k == CUZK_FC_PROOF_NAME_ID)
        return cuzk_snap_registered_proof(out, v, err);
    if (k == CUZK_FC_PROOF_NAME_TEXT)
        for (int i = 0; i < CUZK_FC_SNAP_PROOF_COUNT; i++)
            if (strcmp(TABLE[i].name, s) == 0) {
                to_public(out, &TABLE[i]);
                return CUZK_OK;
            }
    return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                        "unknown registered update proof \"%.64s\" (expected a name such as StackedDrg32GiBV1, "
                        "RegisteredUpdateProof_StackedDrg32GiBV1, or a number 0..%d)",
                        name, CUZK_FC_SNAP_PROOF_COUNT - 1);
}

cuzk_status cuzk_snap_registered_proof_for_size(cuzk_snap_registered_proof_t *out, uint64_t sector_size,
                                                cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < CUZK_FC_SNAP_PROOF_COUNT; i++)
        if (TABLE[i].sector_size == sector_size) {
            to_public(out, &TABLE[i]);
            return CUZK_OK;
        }
    return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "no registered update proof has sectors of %llu bytes",
                        (unsigned long long)sector_size);
}

cuzk_status cuzk_snap_registered_proof_for_seal(cuzk_snap_registered_proof_t *out, uint64_t seal_proof_id,
                                                cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    const cuzk_fc_seal_proof_t *p;
    cuzk_err_t e = {{0}};
    if (cuzk_fc_seal_proof_by_id(&p, seal_proof_id, &e) != CUZK_OK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "no update proof for seal proof %llu: %s",
                            (unsigned long long)seal_proof_id, e.msg);
    /* every version and challenge kind of a size updates with that size's one update proof */
    return cuzk_snap_registered_proof_for_size(out, p->sector_size, err);
}

/* ---- configurations ---- */

cuzk_status cuzk_snap_config_for_size(cuzk_snap_config_t *cfg, uint64_t sector_size, cuzk_err_t *err)
{
    memset(cfg, 0, sizeof *cfg);
    int i = sector_size % CUZK_FC_NODE_SIZE ? -1 : shape_index(sector_size / CUZK_FC_NODE_SIZE);
    if (i < 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "snap config: %llu-byte sectors are not among storage-proofs-update's allowed sizes "
                            "(1KiB-32KiB, 8MiB, 16MiB, 512MiB, 32GiB, 64GiB)",
                            (unsigned long long)sector_size);
    uint64_t nodes = SHAPES[i].nodes;
    uint32_t hs[CUZK_SNAP_H_CHOICES];
    cuzk_snap_hs(nodes, hs);
    *cfg = (cuzk_snap_config_t){.nodes = nodes,
                                .partition_count = partition_count(nodes),
                                .challenge_count = challenge_count(nodes),
                                .apex_leaf_count = apex_leaf_count(nodes),
                                .h = hs[3], /* h_default */
                                .base_arity = SHAPES[i].base,
                                .sub_arity = SHAPES[i].sub,
                                .top_arity = SHAPES[i].top};
    return CUZK_OK;
}

cuzk_status cuzk_snap_config_for_proof(cuzk_snap_config_t *cfg, uint64_t proof_id, cuzk_err_t *err)
{
    memset(cfg, 0, sizeof *cfg);
    cuzk_snap_registered_proof_t p;
    cuzk_status st = cuzk_snap_registered_proof(&p, proof_id, err);
    return st == CUZK_OK ? cuzk_snap_config_for_size(cfg, p.sector_size, err) : st;
}

cuzk_status cuzk_snap_config_check(const cuzk_snap_config_t *cfg, cuzk_err_t *err)
{
    if (!cfg)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap config: NULL");
    int i = shape_index(cfg->nodes);
    if (i < 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "snap config: nodes %llu is not one of storage-proofs-update's allowed sector sizes",
                            (unsigned long long)cfg->nodes);
    uint64_t n = cfg->nodes;
    const char *what = NULL;
    uint64_t got = 0, want = 0;
    if (cfg->partition_count != partition_count(n))
        what = "partition_count", got = cfg->partition_count, want = partition_count(n);
    else if (cfg->challenge_count != challenge_count(n))
        what = "challenge_count", got = cfg->challenge_count, want = challenge_count(n);
    else if (cfg->apex_leaf_count != apex_leaf_count(n))
        what = "apex_leaf_count", got = cfg->apex_leaf_count, want = apex_leaf_count(n);
    else if (cfg->base_arity != SHAPES[i].base)
        what = "base_arity", got = cfg->base_arity, want = SHAPES[i].base;
    else if (cfg->sub_arity != SHAPES[i].sub)
        what = "sub_arity", got = cfg->sub_arity, want = SHAPES[i].sub;
    else if (cfg->top_arity != SHAPES[i].top)
        what = "top_arity", got = cfg->top_arity, want = SHAPES[i].top;
    if (what)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap config: %s %llu for %llu nodes (constants.rs: %llu)",
                            what, (unsigned long long)got, (unsigned long long)n, (unsigned long long)want);
    if (!cuzk_fc_snap_h_select(cfg)) {
        uint32_t hs[CUZK_SNAP_H_CHOICES];
        cuzk_snap_hs(n, hs);
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap config: h %u for %llu nodes is not one of hs = [%u..%u]",
                            cfg->h, (unsigned long long)n, hs[0], hs[CUZK_SNAP_H_CHOICES - 1]);
    }
    return CUZK_OK;
}

/* ---- tree shapes ---- */

/* Base-tree levels of cfg's tree R: log_base of the leaves under one base tree. */
static uint32_t base_levels(const cuzk_snap_config_t *cfg)
{
    if (cfg->base_arity < 2 || (cfg->base_arity & (cfg->base_arity - 1)))
        return 0;
    uint64_t trees = (uint64_t)(cfg->sub_arity ? cfg->sub_arity : 1) * (cfg->top_arity ? cfg->top_arity : 1);
    uint64_t leaves = trees ? cfg->nodes / trees : 0;
    uint32_t per = cuzk_fc_snap_log2(cfg->base_arity);
    return per ? cuzk_fc_snap_log2(leaves) / per : 0;
}

uint32_t cuzk_snap_tree_r_levels(const cuzk_snap_config_t *cfg)
{
    return base_levels(cfg) + (cfg->sub_arity ? 1 : 0) + (cfg->top_arity ? 1 : 0);
}

size_t cuzk_snap_tree_r_siblings(const cuzk_snap_config_t *cfg)
{
    size_t n = (size_t)base_levels(cfg) * (cfg->base_arity ? cfg->base_arity - 1 : 0);
    if (cfg->sub_arity)
        n += cfg->sub_arity - 1;
    if (cfg->top_arity)
        n += cfg->top_arity - 1;
    return n;
}

uint32_t cuzk_snap_tree_d_levels(const cuzk_snap_config_t *cfg) { return cuzk_fc_snap_log2(cfg->nodes); }

/* ---- shared derivations ---- */

uint32_t cuzk_fc_snap_partition_bits(const cuzk_snap_config_t *cfg)
{
    return cuzk_fc_snap_log2(cfg->partition_count);
}

uint64_t cuzk_fc_snap_h_select(const cuzk_snap_config_t *cfg)
{
    uint32_t hs[CUZK_SNAP_H_CHOICES];
    cuzk_snap_hs(cfg->nodes, hs);
    for (uint32_t i = 0; i < CUZK_SNAP_H_CHOICES; i++)
        if (hs[i] == cfg->h)
            return 1ull << i;
    return 0;
}

uint32_t cuzk_fc_snap_high_shift(const cuzk_snap_config_t *cfg)
{
    uint32_t bits = cuzk_fc_snap_log2(cfg->nodes);
    return cfg->h < bits ? bits - cfg->h : 0;
}
