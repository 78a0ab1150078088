/* In-memory sealing of base-only-shape sectors (2KiB, 8MiB, 512MiB) and the commit-phase-1 vanilla proofs.
 * Labels are sequential within a layer (each node hashes its predecessor); parents come from the graph
 * once (the parent cache, 56 bytes a node), and the Poseidon trees and column hashes are split over threads. */
#include "filecoin/seal/seal.h"

#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "filecoin/fr32.h"
#include "filecoin/graph.h"
#include "filecoin/parent_cache.h"
#include "filecoin/porep_inputs.h"
#include "filecoin/poseidon.h"
#include "filecoin/sha256_tree.h"
#include "util/parallel.h"

void cuzk_fc_prover_id_from_miner(uint8_t out[32], uint64_t miner_id)
{
    memset(out, 0, 32);
    int i = 0;
    do {
        uint8_t b = miner_id & 0x7f;
        miner_id >>= 7;
        out[i++] = (uint8_t)(b | (miner_id ? 0x80 : 0));
    } while (miner_id);
}

unsigned cuzk_fc_seal_tree_height(uint64_t nodes, unsigned arity)
{
    unsigned h = 0;
    while (nodes > 1) {
        nodes /= arity;
        h++;
    }
    return h;
}

uint64_t cuzk_fc_seal_tree_level_offset(uint64_t nodes, unsigned arity, unsigned level)
{
    uint64_t off = 0;
    for (unsigned i = 0; i < level; i++) {
        off += nodes;
        nodes /= arity;
    }
    return off;
}

static uint64_t tree_size(uint64_t nodes, unsigned arity)
{
    return cuzk_fc_seal_tree_level_offset(nodes, arity, cuzk_fc_seal_tree_height(nodes, arity)) + 1;
}

/* ---- trees ---- */

typedef struct {
    const uint8_t *in;
    uint8_t *out;
    unsigned arity;
    const cuzk_poseidon_constants_t *c;
} level_job;

#define HASH_GRAIN 256

static void sha_level(void *ctx, size_t b, size_t e)
{
    level_job *j = ctx;
    for (size_t i = b; i < e; i++)
        cuzk_fc_sha256_node(j->out + i * 32, j->in + 2 * i * 32, j->in + (2 * i + 1) * 32);
}

/* Parents [b, e) of a Poseidon level: children bytes → Fr, one batched call, bytes back. */
static void poseidon_level(void *ctx, size_t b, size_t e)
{
    level_job *j = ctx;
    fr in[HASH_GRAIN * 16], out[HASH_GRAIN];
    size_t n = e - b;
    for (size_t i = 0; i < n * j->arity; i++) {
        bool ok = fr_from_bytes_le(&in[i], j->in + (b * j->arity + i) * 32);
        (void)ok; /* tree nodes are canonical by construction (trimmed labels, Poseidon outputs) */
    }
    cuzk_poseidon_hash_batch(out, j->c, &j->c->merkle_tag, in, n);
    for (size_t i = 0; i < n; i++)
        fr_to_bytes_le(j->out + (b + i) * 32, &out[i]);
}

/* The Poseidon tree above leaves already in tree[0 .. nodes). */
static void build_tree(uint8_t *tree, uint64_t nodes, unsigned arity, int threads)
{
    level_job j = {.arity = arity, .c = cuzk_poseidon_constants(arity)};
    uint64_t w = nodes;
    uint8_t *lvl = tree;
    while (w > 1) {
        j.in = lvl;
        j.out = lvl + w * 32;
        cuzk_parallel_for(threads, w / arity, HASH_GRAIN, poseidon_level, &j);
        lvl += w * 32;
        w /= arity;
    }
}

static void build_tree_d(uint8_t *tree, uint64_t nodes, int threads)
{
    level_job j = {.arity = 2};
    uint64_t w = nodes;
    uint8_t *lvl = tree;
    while (w > 1) {
        j.in = lvl;
        j.out = lvl + w * 32;
        cuzk_parallel_for(threads, w / 2, HASH_GRAIN, sha_level, &j);
        lvl += w * 32;
        w /= 2;
    }
}

typedef struct {
    const uint8_t *labels;
    uint8_t *out;
    uint64_t nodes;
    unsigned layers;
    const cuzk_poseidon_constants_t *c;
} column_job;

static void column_hashes(void *ctx, size_t b, size_t e)
{
    column_job *j = ctx;
    fr in[HASH_GRAIN * CUZK_FC_C1_MAX_LAYERS], out[HASH_GRAIN];
    size_t n = e - b;
    memset(in, 0, n * j->layers * sizeof(fr)); /* gcc cannot see that the loop below fills it */
    for (size_t i = 0; i < n; i++)
        for (unsigned l = 0; l < j->layers; l++) {
            bool ok = fr_from_bytes_le(&in[i * j->layers + l], j->labels + ((uint64_t)l * j->nodes + b + i) * 32);
            (void)ok; /* labels are trimmed below 2^254 */
        }
    cuzk_poseidon_hash_batch(out, j->c, &j->c->merkle_tag, in, n);
    for (size_t i = 0; i < n; i++)
        fr_to_bytes_le(j->out + (b + i) * 32, &out[i]);
}

typedef struct {
    const uint8_t *data, *key;
    uint8_t *out;
} encode_job;

static void encode_range(void *ctx, size_t b, size_t e)
{
    encode_job *j = ctx;
    for (size_t i = b; i < e; i++) {
        fr d, k;
        bool ok = fr_from_bytes_le(&d, j->data + i * 32) & fr_from_bytes_le(&k, j->key + i * 32);
        (void)ok; /* padded data and trimmed labels are below 2^254 */
        fr_add(&d, &d, &k);
        fr_to_bytes_le(j->out + i * 32, &d);
    }
}

/* ---- labels ---- */

static void put_be(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* Layer `layer` (1-based) of the SDR labels into cur; prev is layer − 1 (NULL for layer 1). parents holds the
 * 14 parents of every node (the parent cache, generated once for all layers). */
static void label_layer(uint8_t *cur, const uint8_t *prev, uint32_t layer, uint64_t nodes, const uint8_t replica_id[32],
                        const uint32_t *parents)
{
    uint8_t buf[64 + CUZK_FC_LABEL_PARENTS * 32];
    memset(buf, 0, 64);
    memcpy(buf, replica_id, 32);
    put_be(buf + 32, layer, 4);
    for (uint64_t v = 0; v < nodes; v++) {
        put_be(buf + 36, v, 8);
        size_t len = 64;
        if (v > 0) {
            const uint32_t *par = parents + v * CUZK_FC_PARENTS;
            uint32_t np = prev ? CUZK_FC_PARENTS : CUZK_FC_DRG_DEGREE;
            for (uint32_t q = 0; q < np; q++) {
                const uint8_t *src = q < CUZK_FC_DRG_DEGREE ? cur + (uint64_t)par[q] * 32 : prev + (uint64_t)par[q] * 32;
                memcpy(buf + 64 + q * 32, src, 32);
            }
            for (uint32_t q = np; q < CUZK_FC_LABEL_PARENTS; q++)
                memcpy(buf + 64 + q * 32, buf + 64 + (q % np) * 32, 32);
            len += CUZK_FC_LABEL_PARENTS * 32;
        }
        cuzk_fc_span_t sp = {buf, len};
        cuzk_fc_sha256_trimmed(cur + v * 32, &sp, 1);
    }
}

/* ---- precommit ---- */

void cuzk_fc_sealed_free(cuzk_fc_sealed_t *s)
{
    if (!s)
        return;
    free(s->data);
    free(s->labels);
    free(s->tree_d);
    free(s->tree_c);
    free(s->tree_r);
    memset(s, 0, sizeof *s);
}

cuzk_status cuzk_fc_seal_precommit(cuzk_fc_sealed_t *out, const cuzk_fc_seal_proof_t *proof,
                                   const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                                   const uint8_t *raw, int threads, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    if (proof->sub_arity || proof->top_arity || proof->base_arity != 8)
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "seal: %s: only 8-0-0 tree shapes are sealed here", proof->name);
    if (proof->layers > CUZK_FC_C1_MAX_LAYERS)
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "seal: %s: %u layers", proof->name, proof->layers);
    if (threads <= 0)
        threads = cuzk_cpu_count();
    uint64_t n = proof->nodes, L = proof->layers;
    out->proof = proof;
    out->nodes = n;
    out->sector_id = sector_id;
    memcpy(out->prover_id, prover_id, 32);
    memcpy(out->ticket, ticket, 32);
    out->data = malloc(n * 32);
    out->labels = malloc(L * n * 32);
    out->tree_d = malloc((2 * n - 1) * 32);
    out->tree_c = malloc(tree_size(n, 8) * 32);
    out->tree_r = malloc(tree_size(n, 8) * 32);
    uint32_t *parents = malloc(n * CUZK_FC_PARENTS * sizeof(uint32_t));
    cuzk_status st = CUZK_OK;
    if (!out->data || !out->labels || !out->tree_d || !out->tree_c || !out->tree_r || !parents) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "seal: out of memory for a %s sector", proof->size_name);
        goto done;
    }
    if (raw)
        cuzk_fr32_pad_blocks(out->data, raw, n * 32 / CUZK_FR32_PADDED_BLOCK);
    else
        memset(out->data, 0, n * 32);

    memcpy(out->tree_d, out->data, n * 32);
    build_tree_d(out->tree_d, n, threads);
    memcpy(out->comm_d, out->tree_d + (2 * n - 2) * 32, 32);

    uint8_t porep_id[32];
    cuzk_fc_porep_id(porep_id, proof->id);
    cuzk_fc_replica_id(out->replica_id, prover_id, sector_id, ticket, out->comm_d, porep_id);

    cuzk_fc_graph_t g;
    if ((st = cuzk_fc_graph_init_proof(&g, proof, err)) != CUZK_OK)
        goto done;
    if ((st = cuzk_fc_parent_cache_fill(&g, 0, n, parents, threads, err)) != CUZK_OK)
        goto done;
    for (uint32_t l = 1; l <= L; l++) {
        uint8_t *cur = out->labels + (uint64_t)(l - 1) * n * 32;
        label_layer(cur, l > 1 ? cur - n * 32 : NULL, l, n, out->replica_id, parents);
    }

    column_job cj = {out->labels, out->tree_c, n, (unsigned)L, cuzk_poseidon_constants((unsigned)L)};
    cuzk_parallel_for(threads, n, HASH_GRAIN, column_hashes, &cj);
    build_tree(out->tree_c, n, 8, threads);

    encode_job ej = {out->data, out->labels + (L - 1) * n * 32, out->tree_r};
    cuzk_parallel_for(threads, n, 4096, encode_range, &ej);
    build_tree(out->tree_r, n, 8, threads);

    uint64_t root = tree_size(n, 8) - 1;
    memcpy(out->comm_c, out->tree_c + root * 32, 32);
    memcpy(out->comm_r_last, out->tree_r + root * 32, 32);
    uint8_t two[64];
    memcpy(two, out->comm_c, 32);
    memcpy(two + 32, out->comm_r_last, 32);
    st = cuzk_poseidon_node(out->comm_r, 2, two, err);
done:
    free(parents);
    if (st != CUZK_OK)
        cuzk_fc_sealed_free(out);
    return st;
}

/* ---- commit phase 1 ---- */

static cuzk_status open_path(cuzk_fc_c1_t *c1, cuzk_fc_merkle_path_t *p, const uint8_t *tree, uint64_t nodes,
                             unsigned arity, uint64_t idx, cuzk_fc_merkle_hash_t hash, cuzk_err_t *err)
{
    memset(p, 0, sizeof *p);
    p->hash = hash;
    unsigned h = cuzk_fc_seal_tree_height(nodes, arity);
    uint8_t *sib = cuzk_fc_c1_alloc(c1, (size_t)h * (arity - 1) * 32);
    if (!sib)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "seal: out of memory");
    p->siblings = sib;
    p->n_base = h;
    memcpy(p->leaf, tree + idx * 32, 32);
    uint64_t off = 0, w = nodes;
    for (unsigned lv = 0; lv < h; lv++) {
        uint64_t group = idx / arity * arity;
        for (unsigned a = 0; a < arity; a++)
            if (group + a != idx) {
                memcpy(sib, tree + (off + group + a) * 32, 32);
                sib += 32;
            }
        p->steps[lv].arity = (uint8_t)arity;
        p->steps[lv].index = (uint8_t)(idx % arity);
        off += w;
        w /= arity;
        idx /= arity;
    }
    memcpy(p->root, tree + off * 32, 32);
    return CUZK_OK;
}

static cuzk_status open_column(cuzk_fc_c1_t *c1, cuzk_fc_c1_column_t *c, const cuzk_fc_sealed_t *s, uint32_t node,
                               cuzk_err_t *err)
{
    uint32_t L = s->proof->layers;
    c->index = node;
    if (!(c->rows = cuzk_fc_c1_alloc(c1, (size_t)L * 32)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "seal: out of memory");
    for (uint32_t l = 0; l < L; l++)
        memcpy(c->rows[l], s->labels + ((uint64_t)l * s->nodes + node) * 32, 32);
    return open_path(c1, &c->path, s->tree_c, s->nodes, 8, node, CUZK_FC_MERKLE_POSEIDON, err);
}

static cuzk_status vanilla(cuzk_fc_c1_t *c1, cuzk_fc_c1_vproof_t *v, const cuzk_fc_sealed_t *s,
                           const cuzk_fc_graph_t *g, uint64_t ch, cuzk_err_t *err)
{
    uint32_t L = s->proof->layers;
    cuzk_status st;
    if ((st = open_path(c1, &v->comm_d, s->tree_d, s->nodes, 2, ch, CUZK_FC_MERKLE_SHA256, err)) ||
        (st = open_path(c1, &v->comm_r_last, s->tree_r, s->nodes, 8, ch, CUZK_FC_MERKLE_POSEIDON, err)) ||
        (st = open_column(c1, &v->c_x, s, (uint32_t)ch, err)))
        return st;
    uint32_t par[CUZK_FC_PARENTS];
    cuzk_fc_graph_parents(g, ch, par);
    for (int i = 0; i < CUZK_FC_DRG_DEGREE; i++)
        if ((st = open_column(c1, &v->drg[i], s, par[i], err)) != CUZK_OK)
            return st;
    for (int i = 0; i < CUZK_FC_EXP_DEGREE; i++)
        if ((st = open_column(c1, &v->exp[i], s, par[CUZK_FC_DRG_DEGREE + i], err)) != CUZK_OK)
            return st;
    v->n_layers = L;
    v->labeling = cuzk_fc_c1_alloc(c1, L * sizeof *v->labeling);
    if (!v->labeling)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "seal: out of memory");
    for (uint32_t l = 0; l < L; l++) {
        cuzk_fc_c1_label_t *lp = &v->labeling[l];
        lp->layer_index = l + 1;
        lp->node = ch;
        lp->n_parents = CUZK_FC_LABEL_PARENTS;
        if (!(lp->parents = cuzk_fc_c1_alloc(c1, CUZK_FC_LABEL_PARENTS * 32)))
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "seal: out of memory");
        uint32_t np = l == 0 ? CUZK_FC_DRG_DEGREE : CUZK_FC_PARENTS;
        for (uint32_t j = 0; j < CUZK_FC_LABEL_PARENTS; j++) {
            uint32_t q = j % np;
            uint32_t layer0 = q < CUZK_FC_DRG_DEGREE ? l : l - 1; /* expander parents: the layer below */
            memcpy(lp->parents[j], s->labels + ((uint64_t)layer0 * s->nodes + par[q]) * 32, 32);
        }
    }
    v->encoding = v->labeling[L - 1];
    if (!(v->encoding.parents = cuzk_fc_c1_alloc(c1, CUZK_FC_LABEL_PARENTS * 32)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "seal: out of memory");
    memcpy(v->encoding.parents, v->labeling[L - 1].parents, CUZK_FC_LABEL_PARENTS * 32);
    return CUZK_OK;
}

cuzk_status cuzk_fc_seal_commit1(cuzk_fc_c1_t *out, const cuzk_fc_sealed_t *s, const uint8_t seed[32],
                                 cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    const cuzk_fc_seal_proof_t *p = s->proof;
    cuzk_fc_porep_config_t cfg;
    cuzk_fc_porep_config_from_proof(&cfg, p);
    cuzk_fc_graph_t g;
    cuzk_status st = cuzk_fc_graph_init_proof(&g, p, err);
    if (st != CUZK_OK)
        return st;
    out->proof = p;
    out->n_partitions = p->partitions;
    out->challenges_per_partition = p->challenges_per_partition;
    memcpy(out->comm_r, s->comm_r, 32);
    memcpy(out->comm_d, s->comm_d, 32);
    memcpy(out->replica_id, s->replica_id, 32);
    memcpy(out->seed, seed, 32);
    memcpy(out->ticket, s->ticket, 32);
    out->vproofs = cuzk_fc_c1_alloc(out, (size_t)p->partitions * p->challenges_per_partition * sizeof *out->vproofs);
    if (!out->vproofs) {
        cuzk_fc_c1_free(out);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "seal: out of memory");
    }
    uint64_t ch[CUZK_FC_MAX_CHALLENGES_PER_PARTITION];
    for (uint32_t k = 0; k < p->partitions && st == CUZK_OK; k++) {
        st = cuzk_fc_porep_challenges(ch, &cfg, s->replica_id, s->comm_r, seed, k, err);
        for (uint32_t i = 0; i < p->challenges_per_partition && st == CUZK_OK; i++)
            st = vanilla(out, cuzk_fc_c1_vproof(out, k, i), s, &g, ch[i], err);
    }
    if (st != CUZK_OK)
        cuzk_fc_c1_free(out);
    return st;
}
