/* A small sealed sector built out of circuit for the PoRep circuit tests (test_porep_circuit_replica.h).
 * Labels follow storage-proofs-porep create_label/single.rs: sha256(replica_id ‖ u32_be(layer) ‖
 * u64_be(node) ‖ 20 zero bytes ‖ parents), node 0 hashing the 64-byte header alone, layer 1 hashing
 * its 6 DRG parents six times and the first once more, later layers their 14 parents (DRG from the
 * same layer, expander from the layer below) twice and the first 9 once more; the digest trimmed. */
#include "test_porep_circuit_replica.h"
#include <stdlib.h>
#include <string.h>
#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "testkit/xorshift.h"
#include "test_util.h"

static void label_of(tpr_replica_t *r, const cuzk_fc_graph_t *g, uint32_t layer, uint64_t v)
{
    uint64_t n = r->cfg.nodes;
    uint8_t hdr[64] = {0}, par[14][32], out[32];
    fr_to_bytes_le(hdr, &r->replica_id);
    for (int i = 0; i < 4; i++)
        hdr[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        hdr[36 + i] = (uint8_t)(v >> (56 - 8 * i));
    cuzk_fc_span_t parts[38] = {{hdr, 64}};
    size_t np = 1;
    if (v > 0) {
        uint32_t p[14];
        CHECK(cuzk_fc_graph_parents(g, v, p) == CUZK_OK);
        const fr *cur = &r->labels[(layer - 1) * n], *below = layer > 1 ? &r->labels[(layer - 2) * n] : NULL;
        int k = layer > 1 ? 14 : 6;
        for (int i = 0; i < k; i++)
            fr_to_bytes_le(par[i], i < 6 ? &cur[p[i]] : &below[p[i]]);
        for (int i = 0; i < 37; i++)
            parts[np++] = (cuzk_fc_span_t){par[layer > 1 ? (i < 28 ? i % 14 : i - 28) : (i < 36 ? i % 6 : 0)], 32};
    }
    cuzk_fc_sha256_trimmed(out, parts, np);
    CHECK(fr_from_bytes_le(&r->labels[(layer - 1) * n + v], out));
}

/* levels[0] = leaves (taken over); returns the number of path levels */
static unsigned build_tree(fr **levels, fr *leaves, uint64_t n, const unsigned *arity, unsigned nlev, bool sha)
{
    levels[0] = leaves;
    for (unsigned l = 0; l < nlev; l++) {
        unsigned a = arity[l];
        uint64_t m = n / a;
        levels[l + 1] = malloc(m * sizeof(fr));
        for (uint64_t j = 0; j < m; j++) {
            if (sha) {
                uint8_t lb[32], rb[32], o[32];
                fr_to_bytes_le(lb, &levels[l][2 * j]);
                fr_to_bytes_le(rb, &levels[l][2 * j + 1]);
                cuzk_fc_sha256_node(o, lb, rb);
                CHECK(fr_from_bytes_le(&levels[l + 1][j], o));
            } else {
                CHECK(cuzk_poseidon_hash(&levels[l + 1][j], a, &levels[l][j * a], NULL) == CUZK_OK);
            }
        }
        n = m;
    }
    CHECK(n == 1);
    return nlev;
}

static unsigned rc_arities(const cuzk_porep_config_t *cfg, unsigned *arity)
{
    unsigned lv = cuzk_porep_tree_levels(cfg), base = lv - (cfg->sub_arity ? 1 : 0) - (cfg->top_arity ? 1 : 0);
    for (unsigned l = 0; l < lv; l++)
        arity[l] = l < base ? cfg->base_arity : l == base && cfg->sub_arity ? cfg->sub_arity : cfg->top_arity;
    return lv;
}

bool tpr_build(tpr_replica_t *r, const cuzk_porep_config_t *cfg, const uint8_t porep_id[32], const uint8_t seed16[16])
{
    memset(r, 0, sizeof *r);
    r->cfg = *cfg;
    memcpy(r->porep_id, porep_id, 32);
    uint64_t n = cfg->nodes;
    cuzk_fc_xorshift_t rng;
    cuzk_fc_xorshift_seed(&rng, seed16);
    cuzk_fc_xorshift_fr(&rng, &r->replica_id);
    r->data = malloc(n * sizeof(fr));
    r->labels = malloc(cfg->layers * n * sizeof(fr));
    r->replica = malloc(n * sizeof(fr));
    fr *colh = malloc(n * sizeof(fr)), *dleaves = malloc(n * sizeof(fr));
    if (!r->data || !r->labels || !r->replica || !colh || !dleaves) {
        free(colh), free(dleaves);
        CHECK_MSG(false, "replica: out of memory");
        return false;
    }
    for (uint64_t v = 0; v < n; v++)
        cuzk_fc_xorshift_fr(&rng, &r->data[v]);
    test_rand_bytes(r->seed, 32);

    cuzk_fc_graph_t g;
    if (cuzk_fc_graph_init(&g, n, porep_id, CUZK_FC_API_V1_1, NULL) != CUZK_OK) {
        free(colh), free(dleaves);
        CHECK_MSG(false, "replica: graph");
        return false;
    }
    for (uint32_t layer = 1; layer <= cfg->layers; layer++)
        for (uint64_t v = 0; v < n; v++)
            label_of(r, &g, layer, v);
    for (uint64_t v = 0; v < n; v++) {
        fr col[11];
        for (uint32_t l = 0; l < cfg->layers; l++)
            col[l] = r->labels[l * n + v];
        CHECK(cuzk_poseidon_hash(&colh[v], cfg->layers, col, NULL) == CUZK_OK);
        fr_add(&r->replica[v], &r->data[v], &r->labels[(cfg->layers - 1) * n + v]);
        dleaves[v] = r->data[v];
    }
    unsigned ar[64], two[64];
    unsigned lv = rc_arities(cfg, ar);
    r->d_levels = cuzk_porep_tree_d_levels(cfg);
    for (unsigned l = 0; l < r->d_levels; l++)
        two[l] = 2;
    build_tree(r->tree_d, dleaves, n, two, r->d_levels, true);
    build_tree(r->tree_c, colh, n, ar, lv, false);
    fr *rleaves = malloc(n * sizeof(fr));
    memcpy(rleaves, r->replica, n * sizeof(fr));
    r->rc_levels = build_tree(r->tree_r, rleaves, n, ar, lv, false);
    r->comm_d = r->tree_d[r->d_levels][0];
    r->comm_c = r->tree_c[lv][0];
    r->comm_r_last = r->tree_r[lv][0];
    fr pair[2] = {r->comm_c, r->comm_r_last};
    CHECK(cuzk_poseidon_hash(&r->comm_r, 2, pair, NULL) == CUZK_OK);
    return true;
}

void tpr_free(tpr_replica_t *r)
{
    free(r->data), free(r->labels), free(r->replica);
    for (unsigned l = 0; l < 64; l++) {
        free(r->tree_d[l]), free(r->tree_c[l]), free(r->tree_r[l]);
    }
    memset(r, 0, sizeof *r);
}

static void fc_config(const tpr_replica_t *r, cuzk_fc_porep_config_t *pc)
{
    memset(pc, 0, sizeof *pc);
    pc->nodes = r->cfg.nodes;
    pc->api = CUZK_FC_API_V1_1;
    pc->challenges = CUZK_FC_CHALLENGES_INTERACTIVE;
    pc->challenges_per_partition = r->cfg.challenges;
    pc->partitions = 1;
    memcpy(pc->porep_id, r->porep_id, 32);
}

bool tpr_challenges(const tpr_replica_t *r, uint64_t *out)
{
    cuzk_fc_porep_config_t pc;
    fc_config(r, &pc);
    uint8_t rid[32];
    fr_to_bytes_le(rid, &r->replica_id);
    return cuzk_fc_porep_challenges(out, &pc, rid, NULL, r->seed, 0, NULL) == CUZK_OK;
}

bool tpr_public_inputs(const tpr_replica_t *r, fr *out, size_t n)
{
    cuzk_fc_porep_config_t pc;
    fc_config(r, &pc);
    uint8_t rid[32], cd[32], cr[32];
    fr_to_bytes_le(rid, &r->replica_id);
    fr_to_bytes_le(cd, &r->comm_d);
    fr_to_bytes_le(cr, &r->comm_r);
    return cuzk_fc_porep_public_inputs(out, n, &pc, rid, cd, cr, r->seed, 0, NULL) == CUZK_OK;
}

/* The path of leaf `index` in a tree whose levels are `levels` (arities `arity`). */
static void fill_path(cuzk_porep_path_t *p, fr *const *levels, const unsigned *arity, unsigned nlev, uint64_t index)
{
    size_t ns = 0;
    p->leaf = levels[0][index];
    for (unsigned l = 0; l < nlev; l++) {
        unsigned a = arity[l];
        uint64_t first = index - index % a;
        p->positions[l] = (uint32_t)(index % a);
        for (unsigned k = 0; k < a; k++)
            if (first + k != index)
                p->siblings[ns++] = levels[l][first + k];
        index /= a;
    }
    p->root = levels[nlev][0];
    p->has_values = true;
}

static void fill_column(cuzk_porep_column_t *c, const tpr_replica_t *r, const unsigned *ar, uint32_t node)
{
    c->index = node;
    for (uint32_t l = 0; l < r->cfg.layers; l++)
        c->rows[l] = r->labels[l * r->cfg.nodes + node];
    c->has_rows = true;
    fill_path(&c->path, r->tree_c, ar, r->rc_levels, node);
}

void tpr_fill_witness(cuzk_porep_witness_t *w, const tpr_replica_t *r, const uint64_t *challenges)
{
    unsigned ar[64], two[64];
    rc_arities(&r->cfg, ar);
    for (unsigned l = 0; l < 64; l++)
        two[l] = 2;
    w->replica_id = r->replica_id, w->comm_d = r->comm_d, w->comm_r = r->comm_r;
    w->comm_c = r->comm_c, w->comm_r_last = r->comm_r_last;
    w->has_replica_id = w->has_comm_d = w->has_comm_r = w->has_comm_c = w->has_comm_r_last = true;
    cuzk_fc_graph_t g;
    CHECK(cuzk_fc_graph_init(&g, r->cfg.nodes, r->porep_id, CUZK_FC_API_V1_1, NULL) == CUZK_OK);
    for (uint32_t i = 0; i < w->num_challenges; i++) {
        cuzk_porep_challenge_t *ch = &w->challenges[i];
        uint64_t c = challenges[i];
        ch->challenge = c;
        ch->has_challenge = true;
        fill_path(&ch->comm_d_path, r->tree_d, two, r->d_levels, c);
        fill_path(&ch->comm_r_last_path, r->tree_r, ar, r->rc_levels, c);
        fill_column(&ch->c_x, r, ar, (uint32_t)c);
        uint32_t p[14];
        CHECK(cuzk_fc_graph_parents(&g, c, p) == CUZK_OK);
        for (int k = 0; k < CUZK_POREP_DRG_PARENTS; k++)
            fill_column(&ch->drg_parents[k], r, ar, p[k]);
        for (int k = 0; k < CUZK_POREP_EXP_PARENTS; k++)
            fill_column(&ch->exp_parents[k], r, ar, p[CUZK_POREP_DRG_PARENTS + k]);
    }
}
