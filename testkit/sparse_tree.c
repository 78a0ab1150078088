/* Sparse Merkle trees of Filecoin's shapes: per level the default node and the sorted touched nodes, built
 * level by level (a touched node's parent hashes its group of `arity` children, defaults where untouched),
 * and inclusion paths opened from them in the layout merkle.h verifies. */
#include "testkit/sparse_tree.h"

#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "util/parallel.h"

static int arity_ok(cuzk_fc_merkle_hash_t h, unsigned a)
{
    if (h == CUZK_FC_MERKLE_SHA256)
        return a == 2;
    return a == 2 || a == 4 || a == 8 || a == 16;
}

/* n_base, n_sub, n_top and the per-level arities from base-sub-top and the leaf count. */
static cuzk_status set_shape(cuzk_fc_sparse_tree_t *t, unsigned base, unsigned sub, unsigned top, uint64_t leaves,
                             cuzk_err_t *err)
{
    if (!arity_ok(t->hash, base) || (sub && !arity_ok(t->hash, sub)) || (top && !arity_ok(t->hash, top)))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sparse tree: shape %u-%u-%u is not one of the hash's", base,
                            sub, top);
    uint64_t rest = leaves, above = (uint64_t)(sub ? sub : 1) * (top ? top : 1);
    if (leaves == 0 || rest % above != 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sparse tree: %llu leaves do not fill a %u-%u-%u tree",
                            (unsigned long long)leaves, base, sub, top);
    rest /= above;
    uint32_t nb = 0;
    while (rest > 1 && rest % base == 0) {
        rest /= base;
        nb++;
    }
    if (rest != 1 || nb + (sub != 0) + (top != 0) > CUZK_FC_MERKLE_MAX_LEVELS)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sparse tree: %llu leaves do not fill a %u-%u-%u tree",
                            (unsigned long long)leaves, base, sub, top);
    t->n_base = nb;
    t->n_sub = sub != 0;
    t->n_top = top != 0;
    t->levels = nb + t->n_sub + t->n_top;
    t->leaves = leaves;
    for (uint32_t i = 0; i < t->levels; i++)
        t->arity[i] = (uint8_t)(i < nb ? base : i < nb + t->n_sub ? sub : top);
    return CUZK_OK;
}

static int cmp_node(const void *a, const void *b)
{
    uint64_t x = ((const cuzk_fc_sparse_node_t *)a)->index, y = ((const cuzk_fc_sparse_node_t *)b)->index;
    return (x > y) - (x < y);
}

/* Level 0: the given leaves sorted, repeated indexes merged (they must agree). */
static cuzk_status set_leaves(cuzk_fc_sparse_tree_t *t, const uint64_t *index, const uint8_t (*value)[32], size_t n,
                              cuzk_err_t *err)
{
    fr chk;
    if (t->hash == CUZK_FC_MERKLE_POSEIDON && !fr_from_bytes_le(&chk, t->dflt[0]))
        return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "sparse tree: the default leaf is not a canonical Fr");
    if (n == 0)
        return CUZK_OK;
    cuzk_fc_sparse_node_t *v = malloc(n * sizeof *v);
    if (!v)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "sparse tree: out of memory for %zu leaves", n);
    t->nodes[0] = v;
    for (size_t i = 0; i < n; i++) {
        if (index[i] >= t->leaves)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sparse tree: leaf %llu of %llu",
                                (unsigned long long)index[i], (unsigned long long)t->leaves);
        if (t->hash == CUZK_FC_MERKLE_POSEIDON && !fr_from_bytes_le(&chk, value[i]))
            return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "sparse tree: leaf %llu is not a canonical Fr",
                                (unsigned long long)index[i]);
        v[i].index = index[i];
        memcpy(v[i].hash, value[i], 32);
    }
    qsort(v, n, sizeof *v, cmp_node);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && v[m - 1].index == v[i].index) {
            if (memcmp(v[m - 1].hash, v[i].hash, 32) != 0)
                return cuzk_err_set(err, CUZK_ERR_MISMATCH, "sparse tree: leaf %llu is given two values",
                                    (unsigned long long)v[i].index);
            continue;
        }
        v[m++] = v[i];
    }
    t->count[0] = m;
    return CUZK_OK;
}

typedef struct {
    cuzk_fc_merkle_hash_t hash;
    const cuzk_poseidon_constants_t *c;
    unsigned arity;
    const uint8_t *in; /* groups · arity children */
    uint8_t *out;      /* groups parents */
} hash_job_t;

#define HASH_GRAIN 64

static void hash_groups(void *ctx, size_t b, size_t e)
{
    hash_job_t *j = ctx;
    if (j->hash == CUZK_FC_MERKLE_SHA256) {
        for (size_t g = b; g < e; g++)
            cuzk_fc_sha256_node(j->out + g * 32, j->in + g * 64, j->in + g * 64 + 32);
        return;
    }
    cuzk_poseidon_hash_batch_bytes(j->out + b * 32, j->c, &j->c->merkle_tag, j->in + b * j->arity * 32, e - b);
}

/* Level i + 1's default node and touched nodes from level i's. */
static cuzk_status build_level(cuzk_fc_sparse_tree_t *t, uint32_t i, int threads, cuzk_err_t *err)
{
    unsigned a = t->arity[i];
    hash_job_t job = {.hash = t->hash, .arity = a};
    cuzk_status st;
    if (t->hash == CUZK_FC_MERKLE_POSEIDON && (st = cuzk_poseidon_constants_get(&job.c, a, err)) != CUZK_OK)
        return st;
    const cuzk_fc_sparse_node_t *in = t->nodes[i];
    size_t n = t->count[i], groups = 0;
    for (size_t j = 0; j < n; j++)
        groups += j == 0 || in[j].index / a != in[j - 1].index / a;
    /* Group 0 is the default subtree, so that its hash is the level's default node. */
    uint8_t *children = malloc((groups + 1) * a * 32), *parents = malloc((groups + 1) * 32);
    cuzk_fc_sparse_node_t *out = groups ? malloc(groups * sizeof *out) : NULL;
    if (!children || !parents || (groups && !out)) {
        free(children), free(parents), free(out);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "sparse tree: out of memory at level %u", i);
    }
    for (size_t g = 0; g < (groups + 1) * a; g++)
        memcpy(children + g * 32, t->dflt[i], 32);
    size_t g = 0;
    for (size_t j = 0; j < n; j++) {
        if (j && in[j].index / a != in[j - 1].index / a)
            g++;
        out[g].index = in[j].index / a;
        memcpy(children + ((g + 1) * a + in[j].index % a) * 32, in[j].hash, 32);
    }
    job.in = children;
    job.out = parents;
    cuzk_parallel_for(threads, groups + 1, HASH_GRAIN, hash_groups, &job);
    memcpy(t->dflt[i + 1], parents, 32);
    for (g = 0; g < groups; g++)
        memcpy(out[g].hash, parents + (g + 1) * 32, 32);
    free(children);
    free(parents);
    t->nodes[i + 1] = out;
    t->count[i + 1] = groups;
    return CUZK_OK;
}

cuzk_status cuzk_fc_sparse_tree_build(cuzk_fc_sparse_tree_t *t, cuzk_fc_merkle_hash_t hash, unsigned base,
                                      unsigned sub, unsigned top, uint64_t leaves, const uint8_t default_leaf[32],
                                      const uint64_t *index, const uint8_t (*value)[32], size_t n, int threads,
                                      cuzk_err_t *err)
{
    memset(t, 0, sizeof *t);
    if (hash != CUZK_FC_MERKLE_SHA256 && hash != CUZK_FC_MERKLE_POSEIDON)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sparse tree: unknown hash %d", (int)hash);
    if (n && (!index || !value))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sparse tree: %zu leaves without indexes or values", n);
    if (threads <= 0)
        threads = cuzk_cpu_count();
    t->hash = hash;
    memcpy(t->dflt[0], default_leaf, 32);
    cuzk_status st = set_shape(t, base, sub, top, leaves, err);
    if (st == CUZK_OK)
        st = set_leaves(t, index, value, n, err);
    for (uint32_t i = 0; i < t->levels && st == CUZK_OK; i++)
        st = build_level(t, i, threads, err);
    if (st != CUZK_OK) {
        cuzk_fc_sparse_tree_free(t);
        return st;
    }
    cuzk_fc_sparse_tree_node(t->root, t, t->levels, 0);
    return CUZK_OK;
}

size_t cuzk_fc_sparse_tree_sibling_count(const cuzk_fc_sparse_tree_t *t)
{
    size_t s = 0;
    for (uint32_t i = 0; i < t->levels; i++)
        s += t->arity[i] - 1u;
    return s;
}

/* The first touched node of a level at or after index (count[level] when none). */
static size_t lower_bound(const cuzk_fc_sparse_tree_t *t, uint32_t level, uint64_t index)
{
    size_t lo = 0, hi = t->count[level];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->nodes[level][mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void cuzk_fc_sparse_tree_node(uint8_t out[32], const cuzk_fc_sparse_tree_t *t, uint32_t level, uint64_t index)
{
    size_t k = lower_bound(t, level, index);
    const uint8_t *h = k < t->count[level] && t->nodes[level][k].index == index ? t->nodes[level][k].hash
                                                                                 : t->dflt[level];
    memcpy(out, h, 32);
}

cuzk_status cuzk_fc_sparse_tree_open(const cuzk_fc_sparse_tree_t *t, uint64_t index, cuzk_fc_merkle_path_t *p,
                                     uint8_t *siblings, cuzk_err_t *err)
{
    if (index >= t->leaves)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sparse tree: leaf %llu of %llu", (unsigned long long)index,
                            (unsigned long long)t->leaves);
    memset(p, 0, sizeof *p);
    p->hash = t->hash;
    p->n_base = t->n_base;
    p->n_sub = t->n_sub;
    p->n_top = t->n_top;
    p->siblings = siblings;
    cuzk_fc_sparse_tree_node(p->leaf, t, 0, index);
    memcpy(p->root, t->root, 32);
    uint8_t *s = siblings;
    for (uint32_t i = 0; i < t->levels; i++) {
        unsigned a = t->arity[i];
        uint64_t group = index / a * a;
        /* The group's touched nodes are consecutive in the sorted level: one search, then a walk. */
        size_t k = lower_bound(t, i, group);
        for (unsigned j = 0; j < a; j++) {
            const cuzk_fc_sparse_node_t *nd = k < t->count[i] ? &t->nodes[i][k] : NULL;
            int touched = nd && nd->index == group + j;
            k += touched;
            if (group + j == index)
                continue;
            memcpy(s, touched ? nd->hash : t->dflt[i], 32);
            s += 32;
        }
        p->steps[i].arity = (uint8_t)a;
        p->steps[i].index = (uint8_t)(index % a);
        index /= a;
    }
    return CUZK_OK;
}

void cuzk_fc_sparse_tree_free(cuzk_fc_sparse_tree_t *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i <= CUZK_FC_MERKLE_MAX_LEVELS; i++)
        free(t->nodes[i]);
    memset(t, 0, sizeof *t);
}
