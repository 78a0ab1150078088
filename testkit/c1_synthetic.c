/* Synthetic C1 outputs (c1_synthetic.h): the challenges of a sector whose data nodes are all one value, the
 * labels of the challenged nodes over random parent labels, sparse trees C and R over the few touched leaves,
 * and the vanilla proofs opened from them into a C1 model. */
#include "testkit/c1_synthetic.h"

#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "filecoin/sdr/challenges.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "testkit/sparse_tree.h"
#include "util/parallel.h"

#define PAR CUZK_FC_PARENTS
#define DRG CUZK_FC_DRG_DEGREE

/* trim(sha256(seed_bytes ‖ "cuzk synthetic C1 " ‖ what ‖ u64_le(a) ‖ u32_le(b))): every value the synthetic
 * sector needs besides its miner and sector number, each under its own label. */
static void derive(uint8_t out[32], const uint8_t seed_bytes[32], const char *what, uint64_t a, uint32_t b)
{
    static const char pfx[] = "cuzk synthetic C1 ";
    uint8_t ab[12];
    for (int i = 0; i < 8; i++)
        ab[i] = (uint8_t)(a >> (8 * i));
    for (int i = 0; i < 4; i++)
        ab[8 + i] = (uint8_t)(b >> (8 * i));
    cuzk_fc_span_t s[4] = {{seed_bytes, 32}, {pfx, sizeof pfx - 1}, {what, strlen(what)}, {ab, sizeof ab}};
    cuzk_fc_sha256_trimmed(out, s, 4);
}

void cuzk_fc_c1_synthetic_defaults(uint8_t data[32], uint8_t tree_c_leaf[32], uint8_t tree_r_leaf[32],
                                   const uint8_t seed_bytes[32])
{
    derive(data, seed_bytes, "data", 0, 0);
    derive(tree_c_leaf, seed_bytes, "tree C leaf", 0, 0);
    derive(tree_r_leaf, seed_bytes, "tree R leaf", 0, 0);
}

/* The nodes the proofs show: the challenges and their parents, sorted and distinct, each with its labels
 * (L rows) and, for challenged ones, the positions of its 14 parents in this list. */
typedef struct {
    const cuzk_fc_seal_proof_t *p;
    uint32_t L;
    size_t n_ch;            /* partitions · challenges per partition */
    uint64_t *ch;           /* n_ch challenges, partition-major */
    size_t n;               /* distinct nodes */
    uint64_t *node;
    uint8_t *challenged;    /* per node: 1 when some proof challenges it */
    uint32_t *ppos;         /* per node: 14 parent positions (challenged nodes only) */
    uint8_t (*rows)[32];    /* per node: L labels */
    uint8_t (*col)[32];     /* per node: Poseidon of its L labels (tree C leaf) */
    uint8_t replica_id[32], data[32];
    cuzk_fc_sparse_tree_t td, tc, tr;
} synth_t;

static void synth_free(synth_t *s)
{
    free(s->ch);
    free(s->node);
    free(s->challenged);
    free(s->ppos);
    free(s->rows);
    free(s->col);
    cuzk_fc_sparse_tree_free(&s->td);
    cuzk_fc_sparse_tree_free(&s->tc);
    cuzk_fc_sparse_tree_free(&s->tr);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static size_t pos_of(const synth_t *s, uint64_t node)
{
    const uint64_t *f = bsearch(&node, s->node, s->n, sizeof *s->node, cmp_u64);
    return (size_t)(f - s->node); /* every node asked for is in the list by construction */
}

/* Challenges of every partition: the proof's kind, or the interactive derivation when the caller allowed it
 * for a kind that needs comm_r. */
static cuzk_status challenges(synth_t *s, const uint8_t seed[32], cuzk_err_t *err)
{
    const cuzk_fc_seal_proof_t *p = s->p;
    cuzk_fc_porep_config_t cfg;
    cuzk_fc_porep_config_from_proof(&cfg, p);
    for (uint32_t k = 0; k < p->partitions; k++) {
        uint64_t *out = s->ch + (size_t)k * p->challenges_per_partition;
        cuzk_status st = p->challenges == CUZK_FC_CHALLENGES_INTERACTIVE
                             ? cuzk_fc_porep_challenges(out, &cfg, s->replica_id, NULL, seed, k, err)
                             : cuzk_fc_challenges_interactive(out, p->challenges_per_partition, p->nodes,
                                                              s->replica_id, seed, k, err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

/* The distinct nodes (challenges and parents) and the parent positions of the challenged ones. */
static cuzk_status collect_nodes(synth_t *s, const cuzk_fc_graph_t *g, cuzk_err_t *err)
{
    uint32_t *par = malloc(s->n_ch * PAR * sizeof *par);
    s->node = malloc(s->n_ch * (PAR + 1) * sizeof *s->node);
    if (!par || !s->node) {
        free(par);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1 synthetic: out of memory (nodes)");
    }
    size_t m = 0;
    for (size_t j = 0; j < s->n_ch; j++) {
        cuzk_fc_graph_parents(g, s->ch[j], par + j * PAR);
        s->node[m++] = s->ch[j];
        for (int q = 0; q < PAR; q++)
            s->node[m++] = par[j * PAR + q];
    }
    qsort(s->node, m, sizeof *s->node, cmp_u64);
    size_t n = 0;
    for (size_t i = 0; i < m; i++)
        if (!n || s->node[n - 1] != s->node[i])
            s->node[n++] = s->node[i];
    s->n = n;
    s->challenged = calloc(n, 1);
    s->ppos = malloc(n * PAR * sizeof *s->ppos);
    s->rows = malloc(n * s->L * 32);
    s->col = malloc(n * 32);
    if (!s->challenged || !s->ppos || !s->rows || !s->col) {
        free(par);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1 synthetic: out of memory (%zu nodes)", n);
    }
    for (size_t j = 0; j < s->n_ch; j++) {
        size_t c = pos_of(s, s->ch[j]);
        s->challenged[c] = 1;
        for (int q = 0; q < PAR; q++)
            s->ppos[c * PAR + q] = (uint32_t)pos_of(s, par[j * PAR + q]);
    }
    free(par);
    return CUZK_OK;
}

/* Random labels everywhere, then the challenged nodes' labels, layer by layer and in node order: layer l
 * hashes the DRG parents' layer-l labels (all DRG parents precede the node, so a challenged one is done)
 * and the expander parents' layer l − 1 labels, repeated up to 37 (params.rs Proof::from_parts). */
static cuzk_status labels(synth_t *s, const uint8_t seed_bytes[32], cuzk_err_t *err)
{
    uint32_t L = s->L;
    for (size_t i = 0; i < s->n; i++)
        for (uint32_t l = 0; l < L; l++)
            derive(s->rows[i * L + l], seed_bytes, "label", s->node[i], l + 1);
    uint8_t pl[CUZK_FC_LABEL_PARENTS][32];
    for (uint32_t l = 0; l < L; l++)
        for (size_t i = 0; i < s->n; i++) {
            if (!s->challenged[i])
                continue;
            const uint32_t *pp = s->ppos + i * PAR;
            for (int q = 0; q < DRG; q++)
                if (s->challenged[pp[q]] && s->node[pp[q]] >= s->node[i])
                    return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED,
                                        "c1 synthetic: node %llu is a DRG parent of challenge %llu",
                                        (unsigned long long)s->node[pp[q]], (unsigned long long)s->node[i]);
            uint32_t np = l == 0 ? DRG : PAR;
            for (uint32_t j = 0; j < CUZK_FC_LABEL_PARENTS; j++) {
                uint32_t q = j % np;
                memcpy(pl[j], s->rows[(size_t)pp[q] * L + (q < DRG ? l : l - 1)], 32);
            }
            cuzk_fc_c1_label(s->rows[i * L + l], s->replica_id, l + 1, s->node[i], (const uint8_t(*)[32])pl);
        }
    return CUZK_OK;
}

typedef struct {
    synth_t *s;
    const cuzk_poseidon_constants_t *c;
} col_job_t;

static void col_range(void *ctx, size_t b, size_t e)
{
    col_job_t *j = ctx;
    cuzk_poseidon_hash_batch_bytes(j->s->col[b], j->c, &j->c->merkle_tag, j->s->rows[b * j->s->L], e - b);
}

/* Tree C over the column hashes, tree R over the challenged nodes' replica nodes (key = last label, plus
 * the data node). Their other leaves are one random value each rather than 0, so that the siblings look like
 * a real sector's (digits per byte, hence the JSON's size and parse time). */
static cuzk_status trees(synth_t *s, const uint8_t seed_bytes[32], int threads, cuzk_err_t *err)
{
    const cuzk_fc_seal_proof_t *p = s->p;
    col_job_t cj = {.s = s};
    cuzk_status st = cuzk_poseidon_constants_get(&cj.c, s->L, err);
    if (st != CUZK_OK)
        return st;
    cuzk_parallel_for(threads, s->n, 64, col_range, &cj);
    uint8_t data[32], dc[32], dr[32];
    cuzk_fc_c1_synthetic_defaults(data, dc, dr, seed_bytes);
    st = cuzk_fc_sparse_tree_build(&s->tc, CUZK_FC_MERKLE_POSEIDON, p->base_arity, p->sub_arity, p->top_arity,
                                   p->nodes, dc, s->node, (const uint8_t(*)[32])s->col, s->n, threads, err);
    if (st != CUZK_OK)
        return st;
    uint64_t *idx = malloc(s->n * sizeof *idx);
    uint8_t(*rep)[32] = malloc(s->n * 32);
    size_t m = 0;
    fr d, key;
    fr_from_bytes_le(&d, s->data); /* trimmed, hence canonical */
    if (!idx || !rep) {
        free(idx), free(rep);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1 synthetic: out of memory (tree R)");
    }
    for (size_t i = 0; i < s->n; i++) {
        if (!s->challenged[i])
            continue;
        fr_from_bytes_le(&key, s->rows[i * s->L + s->L - 1]); /* trimmed, hence canonical */
        fr_add(&key, &key, &d);
        idx[m] = s->node[i];
        fr_to_bytes_le(rep[m++], &key);
    }
    st = cuzk_fc_sparse_tree_build(&s->tr, CUZK_FC_MERKLE_POSEIDON, p->base_arity, p->sub_arity, p->top_arity,
                                   p->nodes, dr, idx, (const uint8_t(*)[32])rep, m, threads, err);
    free(idx);
    free(rep);
    return st;
}

/* ---- the C1 model ---- */

static cuzk_status open_path(cuzk_fc_c1_t *c1, const cuzk_fc_sparse_tree_t *t, uint64_t index,
                             cuzk_fc_merkle_path_t *p, cuzk_err_t *err)
{
    uint8_t *sib = cuzk_fc_c1_alloc(c1, cuzk_fc_sparse_tree_sibling_count(t) * 32);
    if (!sib)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1 synthetic: out of memory (paths)");
    return cuzk_fc_sparse_tree_open(t, index, p, sib, err);
}

static cuzk_status column(cuzk_fc_c1_t *c1, const synth_t *s, size_t pos, cuzk_fc_c1_column_t *c, cuzk_err_t *err)
{
    c->index = (uint32_t)s->node[pos];
    if (!(c->rows = cuzk_fc_c1_alloc(c1, (size_t)s->L * 32)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1 synthetic: out of memory (columns)");
    memcpy(c->rows, s->rows[pos * s->L], (size_t)s->L * 32);
    return open_path(c1, &s->tc, s->node[pos], &c->path, err);
}

static cuzk_status vproof(cuzk_fc_c1_t *c1, const synth_t *s, uint64_t ch, cuzk_fc_c1_vproof_t *v, cuzk_err_t *err)
{
    uint32_t L = s->L;
    size_t c = pos_of(s, ch);
    const uint32_t *pp = s->ppos + c * PAR;
    cuzk_status st;
    if ((st = open_path(c1, &s->td, ch, &v->comm_d, err)) != CUZK_OK ||
        (st = open_path(c1, &s->tr, ch, &v->comm_r_last, err)) != CUZK_OK ||
        (st = column(c1, s, c, &v->c_x, err)) != CUZK_OK)
        return st;
    for (int q = 0; q < PAR; q++)
        if ((st = column(c1, s, pp[q], q < DRG ? &v->drg[q] : &v->exp[q - DRG], err)) != CUZK_OK)
            return st;
    v->n_layers = L;
    if (!(v->labeling = cuzk_fc_c1_alloc(c1, L * sizeof *v->labeling)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1 synthetic: out of memory (labels)");
    for (uint32_t l = 0; l <= L; l++) {
        /* l == L: the encoding proof, which repeats the last layer's labeling proof. */
        cuzk_fc_c1_label_t *lp = l < L ? &v->labeling[l] : &v->encoding;
        uint32_t layer = l < L ? l : L - 1;
        lp->layer_index = layer + 1;
        lp->node = ch;
        lp->n_parents = CUZK_FC_LABEL_PARENTS;
        if (!(lp->parents = cuzk_fc_c1_alloc(c1, CUZK_FC_LABEL_PARENTS * 32)))
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1 synthetic: out of memory (labels)");
        uint32_t np = layer == 0 ? DRG : PAR;
        for (uint32_t j = 0; j < CUZK_FC_LABEL_PARENTS; j++) {
            uint32_t q = j % np;
            memcpy(lp->parents[j], s->rows[(size_t)pp[q] * L + (q < DRG ? layer : layer - 1)], 32);
        }
    }
    return CUZK_OK;
}

static cuzk_status fill(cuzk_fc_c1_t *out, const synth_t *s, const uint8_t ticket[32], const uint8_t seed[32],
                        cuzk_err_t *err)
{
    const cuzk_fc_seal_proof_t *p = s->p;
    out->proof = p;
    out->n_partitions = p->partitions;
    out->challenges_per_partition = p->challenges_per_partition;
    memcpy(out->comm_d, s->td.root, 32);
    memcpy(out->replica_id, s->replica_id, 32);
    memcpy(out->seed, seed, 32);
    memcpy(out->ticket, ticket, 32);
    uint8_t two[64];
    memcpy(two, s->tc.root, 32);
    memcpy(two + 32, s->tr.root, 32);
    cuzk_status st = cuzk_poseidon_node(out->comm_r, 2, two, err);
    if (st != CUZK_OK)
        return st;
    if (!(out->vproofs = cuzk_fc_c1_alloc(out, s->n_ch * sizeof *out->vproofs)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1 synthetic: out of memory (proofs)");
    for (size_t j = 0; j < s->n_ch && st == CUZK_OK; j++)
        st = vproof(out, s, s->ch[j], &out->vproofs[j], err);
    return st;
}

cuzk_status cuzk_fc_c1_synthetic(cuzk_fc_c1_t *out, const cuzk_fc_seal_proof_t *p, uint64_t miner, uint64_t sector,
                                 const uint8_t seed_bytes[32], unsigned flags, int threads, cuzk_err_t *err)
{
    if (!out || !p || !seed_bytes)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "c1 synthetic: NULL argument");
    memset(out, 0, sizeof *out);
    if (p->challenges != CUZK_FC_CHALLENGES_INTERACTIVE && !(flags & CUZK_FC_C1_SYNTH_ANY_CHALLENGES))
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED,
                            "c1 synthetic: %s derives its %s challenges from comm_r, which a synthetic sector "
                            "cannot meet (only interactive proofs are made consistent)",
                            p->name, cuzk_fc_challenge_kind_str(p->challenges));
    if (p->layers < 1 || p->layers > CUZK_FC_C1_MAX_LAYERS ||
        p->challenges_per_partition > CUZK_FC_MAX_CHALLENGES_PER_PARTITION)
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "c1 synthetic: %s: %u layers, %u challenges per partition",
                            p->name, p->layers, p->challenges_per_partition);
    if (threads <= 0)
        threads = cuzk_cpu_count();
    synth_t s = {.p = p, .L = p->layers, .n_ch = (size_t)p->partitions * p->challenges_per_partition};
    uint8_t prover_id[32], ticket[32], seed[32], porep_id[32];
    cuzk_fc_prover_id_from_miner(prover_id, miner);
    derive(ticket, seed_bytes, "ticket", 0, 0);
    derive(seed, seed_bytes, "seed", 0, 0);
    derive(s.data, seed_bytes, "data", 0, 0);
    cuzk_fc_porep_id(porep_id, p->id);
    cuzk_fc_graph_t g;
    cuzk_status st = cuzk_fc_graph_init_proof(&g, p, err);
    /* Tree D: every leaf d, no leaf touched. */
    if (st == CUZK_OK)
        st = cuzk_fc_sparse_tree_build(&s.td, CUZK_FC_MERKLE_SHA256, 2, 0, 0, p->nodes, s.data, NULL, NULL, 0,
                                       threads, err);
    if (st == CUZK_OK) {
        cuzk_fc_replica_id(s.replica_id, prover_id, sector, ticket, s.td.root, porep_id);
        if (!(s.ch = malloc(s.n_ch * sizeof *s.ch)))
            st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1 synthetic: out of memory (challenges)");
    }
    if (st == CUZK_OK)
        st = challenges(&s, seed, err);
    if (st == CUZK_OK)
        st = collect_nodes(&s, &g, err);
    if (st == CUZK_OK)
        st = labels(&s, seed_bytes, err);
    if (st == CUZK_OK)
        st = trees(&s, seed_bytes, threads, err);
    if (st == CUZK_OK)
        st = fill(out, &s, ticket, seed, err);
    synth_free(&s);
    if (st != CUZK_OK)
        cuzk_fc_c1_free(out);
    return st;
}
