/* DRG bucket sampling and expander parents of the SDR graph. Integer arithmetic throughout: the
 * reference takes ceil(log2(node·5)) through f64, which equals the integer bit length of node·5 − 1
 * for every node count Filecoin allows (node·5 < 2^35, far from where f64 rounding could matter). */
#include "filecoin/sdr/graph.h"
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "filecoin/hash/chacha8.h"
#include "filecoin/hash/sha256_tree.h"

static void domain_seed(uint8_t out[32], const char *tag, const uint8_t porep_id[32])
{
    cuzk_fc_span_t parts[2] = {{tag, strlen(tag)}, {porep_id, 32}};
    cuzk_fc_sha256(out, parts, 2);
}

cuzk_status cuzk_fc_graph_init(cuzk_fc_graph_t *g, uint64_t nodes, const uint8_t porep_id[32],
                               cuzk_fc_api_t api, cuzk_err_t *err)
{
    if (!g || !porep_id)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "graph: NULL argument");
    if (nodes < 2 || nodes > (1ull << 32))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "graph: %llu nodes is out of range (2 .. 2^32)", (unsigned long long)nodes);
    if (api != CUZK_FC_API_V1_0 && api != CUZK_FC_API_V1_1 && api != CUZK_FC_API_V1_2)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "graph: unknown API version %d", (int)api);
    memset(g, 0, sizeof *g);
    g->nodes = nodes;
    g->api = api;
    memcpy(g->porep_id, porep_id, 32);
    uint8_t h[32];
    domain_seed(h, "Filecoin_DRSample", porep_id);
    memcpy(g->drg_seed, h, 28);
    domain_seed(h, "Filecoin_Feistel", porep_id);
    uint64_t keys[4];
    for (int k = 0; k < 4; k++) {
        keys[k] = 0;
        for (int i = 7; i >= 0; i--)
            keys[k] = keys[k] << 8 | h[8 * k + i];
    }
    cuzk_fc_feistel_init(&g->feistel, nodes * CUZK_FC_EXP_DEGREE, keys);
    return CUZK_OK;
}

cuzk_status cuzk_fc_graph_init_proof(cuzk_fc_graph_t *g, const cuzk_fc_seal_proof_t *p, cuzk_err_t *err)
{
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "graph: no seal proof");
    uint8_t id[32];
    cuzk_fc_porep_id(id, p->id);
    return cuzk_fc_graph_init(g, p->nodes, id, p->api, err);
}

cuzk_status cuzk_fc_graph_drg_parents(const cuzk_fc_graph_t *g, uint64_t node, uint32_t out[6])
{
    if (node >= g->nodes)
        return CUZK_ERR_INVALID_ARG;
    if (node < 2) {
        memset(out, 0, 6 * sizeof *out);
        return CUZK_OK;
    }
    /* Five sampled parents, two u64 draws each: 20 keystream words. */
    uint8_t seed[32];
    memcpy(seed, g->drg_seed, 28);
    for (int i = 0; i < 4; i++)
        seed[28 + i] = (uint8_t)(node >> (8 * i));
    uint32_t w[20];
    cuzk_fc_chacha8_words(w, 20, seed);

    const uint64_t m_prime = CUZK_FC_DRG_DEGREE - 1;
    uint64_t meta = node * m_prime;
    uint64_t n_buckets = 64 - (uint64_t)__builtin_clzll(meta - 1);
    /* V1_0 puts the predecessor last, later versions first (so hashing cannot start early). */
    int first = g->api == CUZK_FC_API_V1_0 ? 0 : 1;
    for (int p = 0; p < 5; p++) {
        uint64_t r1 = (uint64_t)w[4 * p] | (uint64_t)w[4 * p + 1] << 32;
        uint64_t r2 = (uint64_t)w[4 * p + 2] | (uint64_t)w[4 * p + 3] << 32;
        uint64_t bucket = r1 % n_buckets + 1;
        uint64_t largest = meta < (1ull << bucket) ? meta : (1ull << bucket);
        uint64_t smallest = largest >> 1 > 2 ? largest >> 1 : 2;
        uint64_t dist = smallest + r2 % (largest - smallest + 1);
        uint64_t parent = (meta - dist) / m_prime;
        out[first + p] = (uint32_t)(parent == node ? node - 1 : parent);
    }
    out[first ? 0 : 5] = (uint32_t)(node - 1);
    return CUZK_OK;
}

cuzk_status cuzk_fc_graph_exp_parents(const cuzk_fc_graph_t *g, uint64_t node, uint32_t out[8])
{
    if (node >= g->nodes)
        return CUZK_ERR_INVALID_ARG;
    for (uint64_t i = 0; i < CUZK_FC_EXP_DEGREE; i++) {
        uint64_t t = cuzk_fc_feistel_permute(&g->feistel, node * CUZK_FC_EXP_DEGREE + i);
        /* V1_0 narrowed the permuted index to u32 before dividing: above 2^32 (64GiB) that loses
         * the high bits, and those parents are part of the V1_0 graph. */
        out[i] = g->api == CUZK_FC_API_V1_0 ? (uint32_t)t / CUZK_FC_EXP_DEGREE
                                            : (uint32_t)(t / CUZK_FC_EXP_DEGREE);
    }
    return CUZK_OK;
}

cuzk_status cuzk_fc_graph_parents(const cuzk_fc_graph_t *g, uint64_t node, uint32_t out[14])
{
    cuzk_status st = cuzk_fc_graph_drg_parents(g, node, out);
    if (st != CUZK_OK)
        return st;
    return cuzk_fc_graph_exp_parents(g, node, out + CUZK_FC_DRG_DEGREE);
}

/* Nodes per batch: 8 expander indexes each, a few Feistel blocks' worth of lanes on the stack. */
#define RANGE_NODES 256

static bool range_ok(const cuzk_fc_graph_t *g, uint64_t first, uint64_t count)
{
    return first <= g->nodes && count <= g->nodes - first;
}

cuzk_status cuzk_fc_graph_drg_parents_range(const cuzk_fc_graph_t *g, uint64_t first, uint64_t count, uint32_t *out)
{
    if (!range_ok(g, first, count))
        return CUZK_ERR_INVALID_ARG;
    for (uint64_t i = 0; i < count; i++)
        cuzk_fc_graph_drg_parents(g, first + i, out + i * CUZK_FC_PARENTS); /* in range */
    return CUZK_OK;
}

cuzk_status cuzk_fc_graph_exp_parents_range(const cuzk_fc_graph_t *g, uint64_t first, uint64_t count, uint32_t *out)
{
    if (!range_ok(g, first, count))
        return CUZK_ERR_INVALID_ARG;
    uint64_t t[RANGE_NODES * CUZK_FC_EXP_DEGREE];
    for (uint64_t b = 0; b < count; b += RANGE_NODES) {
        uint64_t n = count - b < RANGE_NODES ? count - b : RANGE_NODES;
        for (uint64_t i = 0; i < n * CUZK_FC_EXP_DEGREE; i++)
            t[i] = (first + b) * CUZK_FC_EXP_DEGREE + i;
        cuzk_fc_feistel_permute_n(&g->feistel, t, t, n * CUZK_FC_EXP_DEGREE);
        for (uint64_t i = 0; i < n; i++) {
            uint32_t *o = out + (b + i) * CUZK_FC_PARENTS + CUZK_FC_DRG_DEGREE;
            for (int e = 0; e < CUZK_FC_EXP_DEGREE; e++) {
                uint64_t p = t[i * CUZK_FC_EXP_DEGREE + e];
                /* as cuzk_fc_graph_exp_parents: V1_0 narrows before dividing */
                o[e] = g->api == CUZK_FC_API_V1_0 ? (uint32_t)p / CUZK_FC_EXP_DEGREE
                                                  : (uint32_t)(p / CUZK_FC_EXP_DEGREE);
            }
        }
    }
    return CUZK_OK;
}

cuzk_status cuzk_fc_graph_parents_range(const cuzk_fc_graph_t *g, uint64_t first, uint64_t count, uint32_t *out)
{
    cuzk_status st = cuzk_fc_graph_drg_parents_range(g, first, count, out);
    return st != CUZK_OK ? st : cuzk_fc_graph_exp_parents_range(g, first, count, out);
}

cuzk_status cuzk_fc_graph_identifier(char *out, size_t out_len, const cuzk_fc_graph_t *g)
{
    if (!out || !g)
        return CUZK_ERR_INVALID_ARG;
    int n = snprintf(out, out_len,
                     "stacked_graph::StackedGraph{expansion_degree: %d base_graph: "
                     "drgraph::BucketGraph{size: %llu; degree: %d; hasher: poseidon_hasher} }",
                     CUZK_FC_EXP_DEGREE, (unsigned long long)g->nodes, CUZK_FC_DRG_DEGREE);
    if (n < 0 || (size_t)n >= out_len) {
        if (out_len)
            out[0] = 0;
        return CUZK_ERR_BAD_LENGTH;
    }
    return CUZK_OK;
}
