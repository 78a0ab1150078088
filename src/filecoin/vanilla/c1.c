/* The C1 model's storage (one arena per C1) and the checks of a whole C1 output: shapes per registered proof,
 * Merkle paths, the comm_r relation, challenges and parents, column hashes, labels and the encoding. */
#include "filecoin/vanilla/c1.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "filecoin/vanilla/c1_hashes.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "util/bigmem.h"
#include "util/parallel.h"

/* Chunks of 1 MiB, each new one twice the last up to 32 MiB (a 32GiB C1 holds ~10 MB), the large ones
 * on huge pages: the first touches of the model's memory were a large part of parsing a big C1 (a 4 KiB
 * page fault per 4 KiB of parsed paths). A request larger than a chunk gets a chunk of its own. */
struct cuzk_fc_c1_arena {
    struct cuzk_fc_c1_arena *next;
    size_t cap, used;
    _Alignas(16) uint8_t data[];
};

#define ARENA_CHUNK ((size_t)1 << 20)
#define ARENA_CHUNK_MAX ((size_t)32 << 20)

void *cuzk_fc_c1_alloc(cuzk_fc_c1_t *c1, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    cuzk_fc_c1_arena_t *a = c1->arena;
    if (!a || a->cap - a->used < n) {
        size_t grow = !a ? ARENA_CHUNK : a->cap < ARENA_CHUNK_MAX ? 2 * a->cap : ARENA_CHUNK_MAX;
        int own = n > grow;
        size_t cap = own ? n : grow;
        cuzk_fc_c1_arena_t *b = cap > ARENA_CHUNK ? cuzk_big_malloc(sizeof(*b) + cap) : malloc(sizeof(*b) + cap);
        if (!b)
            return NULL;
        b->cap = cap;
        b->used = 0;
        /* A private chunk for a large request goes behind the current one so that the current one keeps
         * filling. */
        if (a && own) {
            b->next = a->next;
            a->next = b;
        } else {
            b->next = a;
            c1->arena = b;
        }
        a = b;
    }
    void *p = a->data + a->used;
    a->used += n;
    memset(p, 0, n);
    return p;
}

void cuzk_fc_c1_free(cuzk_fc_c1_t *c1)
{
    if (!c1)
        return;
    for (cuzk_fc_c1_arena_t *a = c1->arena; a;) {
        cuzk_fc_c1_arena_t *n = a->next;
        free(a);
        a = n;
    }
    memset(c1, 0, sizeof(*c1));
}

const char *cuzk_fc_c1_shape_name(const cuzk_fc_seal_proof_t *p)
{
    switch (p->sector_size) {
    case 2048: return "StackedDrg2KiBV1";
    case 8ull << 20: return "StackedDrg8MiBV1";
    case 512ull << 20: return "StackedDrg512MiBV1";
    case 32ull << 30: return "StackedDrg32GiBV1";
    case 64ull << 30: return "StackedDrg64GiBV1";
    default: return NULL;
    }
}

void cuzk_fc_c1_label(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                      const uint8_t (*parents)[32])
{
    uint8_t hdr[64] = {0};
    memcpy(hdr, replica_id, 32);
    for (int i = 0; i < 4; i++)
        hdr[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        hdr[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    cuzk_fc_span_t s[2] = {{hdr, 64}, {parents, CUZK_FC_LABEL_PARENTS * 32}};
    cuzk_fc_sha256_trimmed(out, s, 2);
}

/* One challenge's checks: its place (k, i; j = k · per + i) and the hashes computed ahead (NULL: every
 * node hashed here, one at a time). */
typedef struct {
    const cuzk_fc_c1_t *c1;
    uint32_t k, i;
    cuzk_err_t *err;
    const cuzk_fc_c1_hashes_t *h;
    size_t j;
} ctx_t;

#define FAIL(cx, st, ...)                                                                               \
    do {                                                                                               \
        char m_[600];                                                                                  \
        snprintf(m_, sizeof m_, __VA_ARGS__);                                                          \
        return cuzk_err_set((cx)->err, (st), "c1: partition %u challenge %u: %s", (cx)->k, (cx)->i, m_); \
    } while (0)

/* root: what the path hashes to when computed ahead, else NULL. */
static cuzk_status check_path(ctx_t *cx, const cuzk_fc_merkle_path_t *p, const char *what, unsigned base,
                              unsigned sub, unsigned top, uint64_t leaves, uint64_t want_index, const uint8_t *root)
{
    cuzk_err_t e;
    cuzk_status st = cuzk_fc_merkle_path_check_shape(p, base, sub, top, leaves, &e);
    if (st != CUZK_OK)
        FAIL(cx, CUZK_ERR_FORMAT, "%s: %s", what, e.msg);
    uint64_t idx;
    if ((st = cuzk_fc_merkle_leaf_index(&idx, p, &e)) != CUZK_OK)
        FAIL(cx, st, "%s: %s", what, e.msg);
    if (idx != want_index)
        FAIL(cx, CUZK_ERR_MISMATCH, "%s: the path opens leaf %llu, expected %llu", what,
             (unsigned long long)idx, (unsigned long long)want_index);
    st = root ? cuzk_fc_merkle_check_root(p, root, &e) : cuzk_fc_merkle_verify(p, &e);
    if (st != CUZK_OK)
        FAIL(cx, st, "%s: %s", what, e.msg);
    return CUZK_OK;
}

/* slot: the column's place among the challenge's hashes computed ahead (c1_hashes.h). */
static cuzk_status check_column(ctx_t *cx, const cuzk_fc_c1_column_t *c, const char *what, uint32_t layers,
                                const uint8_t comm_c[32], unsigned slot)
{
    const cuzk_fc_seal_proof_t *p = cx->c1->proof;
    cuzk_status st = check_path(cx, &c->path, what, p->base_arity, p->sub_arity, p->top_arity, p->nodes, c->index,
                                cuzk_fc_c1_hashes_root(cx->h, cx->j, slot));
    if (st != CUZK_OK)
        return st;
    if (memcmp(c->path.root, comm_c, 32) != 0)
        FAIL(cx, CUZK_ERR_MISMATCH, "%s: inclusion_proof root differs from c_x's root (comm_c)", what);
    fr rows[CUZK_FC_C1_MAX_LAYERS], h;
    for (uint32_t l = 0; l < layers; l++)
        if (!fr_from_bytes_le(&rows[l], c->rows[l]))
            FAIL(cx, CUZK_ERR_NOT_CANONICAL, "%s: column row %u is not a canonical field element", what, l);
    uint8_t hb[32];
    const uint8_t *ahead = cuzk_fc_c1_hashes_column(cx->h, cx->j, slot);
    if (ahead) {
        memcpy(hb, ahead, 32);
    } else {
        cuzk_err_t e;
        if ((st = cuzk_poseidon_hash(&h, layers, rows, &e)) != CUZK_OK)
            FAIL(cx, st, "%s: %s", what, e.msg);
        fr_to_bytes_le(hb, &h);
    }
    if (memcmp(hb, c->path.leaf, 32) != 0)
        FAIL(cx, CUZK_ERR_MISMATCH, "%s: the column's hash is not the inclusion_proof leaf", what);
    return CUZK_OK;
}

static cuzk_status check_one(ctx_t *cx, const cuzk_fc_c1_vproof_t *v, const cuzk_fc_graph_t *g,
                             const uint8_t comm_r_last[32], const uint8_t comm_c[32])
{
    const cuzk_fc_c1_t *c1 = cx->c1;
    const cuzk_fc_seal_proof_t *p = c1->proof;
    uint32_t L = p->layers;
    if (v->n_layers != L)
        FAIL(cx, CUZK_ERR_FORMAT, "labeling_proofs: %u entries, %s has %u layers", v->n_layers, p->name, L);
    uint64_t ch = v->labeling[0].node;
    if (ch >= p->nodes)
        FAIL(cx, CUZK_ERR_FORMAT, "challenge %llu outside the %llu nodes", (unsigned long long)ch,
             (unsigned long long)p->nodes);
    cuzk_status st = check_path(cx, &v->comm_d, "comm_d_proofs", 2, 0, 0, p->nodes, ch, NULL);
    if (st != CUZK_OK)
        return st;
    if (memcmp(v->comm_d.root, c1->comm_d, 32) != 0)
        FAIL(cx, CUZK_ERR_MISMATCH, "comm_d_proofs root differs from comm_d");
    st = check_path(cx, &v->comm_r_last, "comm_r_last_proof", p->base_arity, p->sub_arity, p->top_arity, p->nodes, ch,
                    cuzk_fc_c1_hashes_root(cx->h, cx->j, 0));
    if (st != CUZK_OK)
        return st;
    if (memcmp(v->comm_r_last.root, comm_r_last, 32) != 0)
        FAIL(cx, CUZK_ERR_MISMATCH, "comm_r_last_proof root differs from the first proof's");
    if (v->c_x.index != ch)
        FAIL(cx, CUZK_ERR_MISMATCH, "replica_column_proofs.c_x: index %u, the challenge is %llu", v->c_x.index,
             (unsigned long long)ch);
    if ((st = check_column(cx, &v->c_x, "replica_column_proofs.c_x", L, comm_c, 1)) != CUZK_OK)
        return st;
    uint32_t par[CUZK_FC_PARENTS];
    cuzk_fc_graph_parents(g, ch, par);
    char what[64];
    for (int j = 0; j < CUZK_FC_PARENTS; j++) {
        const cuzk_fc_c1_column_t *c = j < CUZK_FC_DRG_DEGREE ? &v->drg[j] : &v->exp[j - CUZK_FC_DRG_DEGREE];
        snprintf(what, sizeof what, "replica_column_proofs.%s[%d]", j < 6 ? "drg_parents" : "exp_parents",
                 j < 6 ? j : j - 6);
        if (c->index != par[j])
            FAIL(cx, CUZK_ERR_MISMATCH, "%s: index %u, the graph's parent is %u", what, c->index, par[j]);
        if ((st = check_column(cx, c, what, L, comm_c, 2 + (unsigned)j)) != CUZK_OK)
            return st;
    }
    /* Labels: layer 1 hashes the 6 DRG parents' layer-1 labels, later layers add the 8 expander parents'
     * labels of the layer below; the list is repeated up to 37 (params.rs Proof::from_parts). */
    uint8_t want[CUZK_FC_LABEL_PARENTS][32], lab[32];
    for (uint32_t l = 0; l < L; l++) {
        const cuzk_fc_c1_label_t *lp = &v->labeling[l];
        if (lp->layer_index != l + 1 || lp->node != ch)
            FAIL(cx, CUZK_ERR_MISMATCH, "labeling_proofs[%u]: layer_index %u node %llu, expected %u and %llu", l,
                 lp->layer_index, (unsigned long long)lp->node, l + 1, (unsigned long long)ch);
        if (lp->n_parents != CUZK_FC_LABEL_PARENTS)
            FAIL(cx, CUZK_ERR_FORMAT, "labeling_proofs[%u]: %u parents, expected 37", l, lp->n_parents);
        uint32_t np = l == 0 ? CUZK_FC_DRG_DEGREE : CUZK_FC_PARENTS;
        for (uint32_t j = 0; j < CUZK_FC_LABEL_PARENTS; j++) {
            uint32_t q = j % np;
            const uint8_t *src = q < CUZK_FC_DRG_DEGREE ? v->drg[q].rows[l] : v->exp[q - CUZK_FC_DRG_DEGREE].rows[l - 1];
            memcpy(want[j], src, 32);
        }
        if (memcmp(want, lp->parents, sizeof want) != 0)
            FAIL(cx, CUZK_ERR_MISMATCH, "labeling_proofs[%u]: parents are not the parent columns' labels", l);
        cuzk_fc_c1_label(lab, c1->replica_id, lp->layer_index, ch, lp->parents);
        if (memcmp(lab, v->c_x.rows[l], 32) != 0)
            FAIL(cx, CUZK_ERR_MISMATCH, "labeling_proofs[%u]: the label is not c_x's row %u", l, l);
    }
    const cuzk_fc_c1_label_t *ep = &v->encoding;
    if (ep->layer_index != L || ep->node != ch || ep->n_parents != CUZK_FC_LABEL_PARENTS)
        FAIL(cx, CUZK_ERR_MISMATCH, "encoding_proof: layer_index %u node %llu with %u parents, expected %u, %llu, 37",
             ep->layer_index, (unsigned long long)ep->node, ep->n_parents, L, (unsigned long long)ch);
    cuzk_fc_c1_label(lab, c1->replica_id, ep->layer_index, ch, ep->parents);
    fr key, d, r;
    if (!fr_from_bytes_le(&key, lab) || !fr_from_bytes_le(&d, v->comm_d.leaf))
        FAIL(cx, CUZK_ERR_NOT_CANONICAL, "comm_d_proofs leaf is not a canonical field element");
    fr_add(&r, &key, &d);
    uint8_t rb[32];
    fr_to_bytes_le(rb, &r);
    if (memcmp(rb, v->comm_r_last.leaf, 32) != 0)
        FAIL(cx, CUZK_ERR_MISMATCH, "encoding_proof: key + data node is not the comm_r_last_proof leaf");
    return CUZK_OK;
}

/* The challenges are checked on every CPU; the error reported is the one of the first bad challenge in
 * (partition, challenge) order, whichever thread found it, so that the message does not depend on
 * timing: a thread skips only challenges after a failure already found. */
typedef struct {
    const cuzk_fc_c1_t *c1;
    const cuzk_fc_graph_t *g;
    const cuzk_fc_c1_hashes_t *h;
    uint8_t comm_r_last[32], comm_c[32];
    pthread_mutex_t mu;
    size_t first_bad; /* SIZE_MAX: none yet */
    cuzk_status st;
    cuzk_err_t err;
} verify_ctx_t;

static void verify_range(void *p, size_t begin, size_t end)
{
    verify_ctx_t *vc = p;
    uint32_t per = vc->c1->challenges_per_partition;
    for (size_t j = begin; j < end && j < __atomic_load_n(&vc->first_bad, __ATOMIC_RELAXED); j++) {
        cuzk_err_t e = {{0}};
        ctx_t cx = {vc->c1, (uint32_t)(j / per), (uint32_t)(j % per), &e, vc->h, j};
        cuzk_status st = check_one(&cx, &vc->c1->vproofs[j], vc->g, vc->comm_r_last, vc->comm_c);
        if (st == CUZK_OK)
            continue;
        pthread_mutex_lock(&vc->mu);
        if (j < vc->first_bad) {
            __atomic_store_n(&vc->first_bad, j, __ATOMIC_RELAXED);
            vc->st = st;
            vc->err = e;
        }
        pthread_mutex_unlock(&vc->mu);
        return;
    }
}

cuzk_status cuzk_fc_c1_verify(const cuzk_fc_c1_t *c1, cuzk_err_t *err)
{
    return cuzk_fc_c1_verify_opts(c1, 0, 0, err);
}

cuzk_status cuzk_fc_c1_verify_opts(const cuzk_fc_c1_t *c1, int threads, unsigned flags, cuzk_err_t *err)
{
    if (threads < 1)
        threads = cuzk_cpu_count();
    const cuzk_fc_seal_proof_t *p = c1->proof;
    if (!p || !c1->vproofs)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "c1: empty");
    if (c1->n_partitions != p->partitions || c1->challenges_per_partition != p->challenges_per_partition)
        return cuzk_err_set(err, CUZK_ERR_FORMAT,
                            "c1: vanilla_proofs has %u partitions of %u challenges, %s needs %u of %u",
                            c1->n_partitions, c1->challenges_per_partition, p->name, p->partitions,
                            p->challenges_per_partition);
    if (p->layers > CUZK_FC_C1_MAX_LAYERS)
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "c1: %u layers", p->layers);
    cuzk_fc_graph_t g;
    cuzk_status st = cuzk_fc_graph_init_proof(&g, p, err);
    if (st != CUZK_OK)
        return st;
    const cuzk_fc_c1_vproof_t *v0 = &c1->vproofs[0];
    if (v0->n_layers < 1)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "c1: partition 0 challenge 0: no labeling proofs");
    /* The Poseidon nodes of all paths first, batched and each distinct one once; then every challenge's
     * checks in their order, which only compare against those results. */
    cuzk_fc_c1_hashes_t h;
    int batched = !(flags & CUZK_FC_C1_VERIFY_SCALAR);
    if (batched && (st = cuzk_fc_c1_hashes_compute(&h, c1, threads, err)) != CUZK_OK)
        return st;
    verify_ctx_t vc = {.c1 = c1, .g = &g, .h = batched ? &h : NULL, .first_bad = SIZE_MAX, .st = CUZK_OK};
    memcpy(vc.comm_r_last, v0->comm_r_last.root, 32);
    memcpy(vc.comm_c, v0->c_x.path.root, 32);
    pthread_mutex_init(&vc.mu, NULL);
    size_t n = (size_t)c1->n_partitions * c1->challenges_per_partition;
    cuzk_parallel_for(threads, n, 4, verify_range, &vc);
    pthread_mutex_destroy(&vc.mu);
    if (batched)
        cuzk_fc_c1_hashes_free(&h);
    if (vc.st != CUZK_OK) {
        if (err)
            *err = vc.err;
        return vc.st;
    }
    const uint8_t *comm_c = vc.comm_c, *comm_r_last = vc.comm_r_last;
    uint8_t two[64], r[32];
    memcpy(two, comm_c, 32);
    memcpy(two + 32, comm_r_last, 32);
    if ((st = cuzk_poseidon_node(r, 2, two, err)) != CUZK_OK)
        return st;
    if (memcmp(r, c1->comm_r, 32) != 0)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "c1: comm_r is not Poseidon2(comm_c, comm_r_last)");
    return CUZK_OK;
}

cuzk_status cuzk_fc_c1_check_challenges(const cuzk_fc_c1_t *c1, cuzk_err_t *err)
{
    cuzk_fc_porep_config_t cfg;
    cuzk_fc_porep_config_from_proof(&cfg, c1->proof);
    if (c1->challenges_per_partition != cfg.challenges_per_partition || c1->n_partitions != cfg.partitions)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "c1: vanilla_proofs shape differs from %s", c1->proof->name);
    uint64_t ch[CUZK_FC_MAX_CHALLENGES_PER_PARTITION];
    for (uint32_t k = 0; k < c1->n_partitions; k++) {
        cuzk_status st = cuzk_fc_porep_challenges(ch, &cfg, c1->replica_id, c1->comm_r, c1->seed, k, err);
        if (st != CUZK_OK)
            return st;
        for (uint32_t i = 0; i < c1->challenges_per_partition; i++) {
            const cuzk_fc_c1_vproof_t *v = cuzk_fc_c1_vproof(c1, k, i);
            if (v->n_layers < 1 || v->labeling[0].node != ch[i])
                return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                                    "c1: partition %u challenge %u: node %llu, the seed gives challenge %llu", k, i,
                                    v->n_layers ? (unsigned long long)v->labeling[0].node : 0ull,
                                    (unsigned long long)ch[i]);
        }
    }
    return CUZK_OK;
}

static int cmp_path(const cuzk_fc_merkle_path_t *a, const cuzk_fc_merkle_path_t *b)
{
    if (a->hash != b->hash || a->n_base != b->n_base || a->n_sub != b->n_sub || a->n_top != b->n_top ||
        memcmp(a->leaf, b->leaf, 32) || memcmp(a->root, b->root, 32))
        return 1;
    uint32_t n = cuzk_fc_merkle_levels(a);
    for (uint32_t i = 0; i < n; i++)
        if (a->steps[i].arity != b->steps[i].arity || a->steps[i].index != b->steps[i].index)
            return 1;
    size_t s = cuzk_fc_merkle_sibling_count(a);
    return s && memcmp(a->siblings, b->siblings, s * 32) != 0;
}

static int cmp_col(const cuzk_fc_c1_column_t *a, const cuzk_fc_c1_column_t *b, uint32_t layers)
{
    return a->index != b->index || memcmp(a->rows, b->rows, (size_t)layers * 32) || cmp_path(&a->path, &b->path);
}

static int cmp_label(const cuzk_fc_c1_label_t *a, const cuzk_fc_c1_label_t *b)
{
    return a->n_parents != b->n_parents || a->layer_index != b->layer_index || a->node != b->node ||
           memcmp(a->parents, b->parents, (size_t)a->n_parents * 32);
}

int cuzk_fc_c1_compare(const cuzk_fc_c1_t *a, const cuzk_fc_c1_t *b)
{
    if (a->proof != b->proof || a->n_partitions != b->n_partitions ||
        a->challenges_per_partition != b->challenges_per_partition || memcmp(a->comm_r, b->comm_r, 32) ||
        memcmp(a->comm_d, b->comm_d, 32) || memcmp(a->replica_id, b->replica_id, 32) ||
        memcmp(a->seed, b->seed, 32) || memcmp(a->ticket, b->ticket, 32))
        return 1;
    size_t n = (size_t)a->n_partitions * a->challenges_per_partition;
    for (size_t j = 0; j < n; j++) {
        const cuzk_fc_c1_vproof_t *x = &a->vproofs[j], *y = &b->vproofs[j];
        if (x->n_layers != y->n_layers || cmp_path(&x->comm_d, &y->comm_d) ||
            cmp_path(&x->comm_r_last, &y->comm_r_last) || cmp_col(&x->c_x, &y->c_x, x->n_layers))
            return 1;
        for (int i = 0; i < CUZK_FC_DRG_DEGREE; i++)
            if (cmp_col(&x->drg[i], &y->drg[i], x->n_layers))
                return 1;
        for (int i = 0; i < CUZK_FC_EXP_DEGREE; i++)
            if (cmp_col(&x->exp[i], &y->exp[i], x->n_layers))
                return 1;
        for (uint32_t l = 0; l < x->n_layers; l++)
            if (cmp_label(&x->labeling[l], &y->labeling[l]))
                return 1;
        if (cmp_label(&x->encoding, &y->encoding))
            return 1;
    }
    return 0;
}
