/* Banded sparse Merkle trees (band_tree.h): level by level, the per-band defaults hashed from the level
 * below's, the touched nodes' parents hashed from their groups of children (defaults of their band where
 * untouched), and above the bands every node hashed; paths opened in the layout merkle.h verifies. */
#include "testkit/band_tree.h"

#include <stdbool.h>
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

static cuzk_status set_shape(cuzk_fc_band_tree_t *t, unsigned base, unsigned sub, unsigned top, uint64_t leaves,
                             uint64_t bands, cuzk_err_t *err)
{
    if (!arity_ok(t->hash, base) || (sub && !arity_ok(t->hash, sub)) || (top && !arity_ok(t->hash, top)))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sparse tree: shape %u-%u-%u is not one of the hash's", base, sub,
                            top);
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
    if (bands == 0 || (bands & (bands - 1)) || leaves % bands)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sparse tree: %llu bands of %llu leaves",
                            (unsigned long long)bands, (unsigned long long)leaves);
    t->n_base = nb;
    t->n_sub = sub != 0;
    t->n_top = top != 0;
    t->levels = nb + t->n_sub + t->n_top;
    t->leaves = leaves;
    t->bands = bands;
    t->band_leaves = leaves / bands;
    t->span[0] = 1;
    for (uint32_t i = 0; i < t->levels; i++) {
        t->arity[i] = (uint8_t)(i < nb ? base : i < nb + t->n_sub ? sub : top);
        t->span[i + 1] = t->span[i] * t->arity[i];
    }
    return CUZK_OK;
}

static int cmp_node(const void *a, const void *b)
{
    uint64_t x = ((const cuzk_fc_sparse_node_t *)a)->index, y = ((const cuzk_fc_sparse_node_t *)b)->index;
    return (x > y) - (x < y);
}

static cuzk_status set_leaves(cuzk_fc_band_tree_t *t, const uint8_t (*band_leaf)[32], const uint64_t *index,
                              const uint8_t (*value)[32], size_t n, cuzk_err_t *err)
{
    fr chk;
    if (!(t->band_dflt[0] = malloc(t->bands * 32)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "sparse tree: out of memory for %llu bands",
                            (unsigned long long)t->bands);
    for (uint64_t b = 0; b < t->bands; b++) {
        if (t->hash == CUZK_FC_MERKLE_POSEIDON && !fr_from_bytes_le(&chk, band_leaf[b]))
            return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "sparse tree: band %llu's leaf is not a canonical Fr",
                                (unsigned long long)b);
        memcpy(t->band_dflt[0][b], band_leaf[b], 32);
    }
    if (n == 0)
        return CUZK_OK;
    cuzk_fc_sparse_node_t *v = malloc(n * sizeof *v);
    if (!v)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "sparse tree: out of memory for %zu leaves", n);
    t->nodes[0] = v;
    for (size_t i = 0; i < n; i++) {
        if (index[i] >= t->leaves)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sparse tree: leaf %llu of %llu", (unsigned long long)index[i],
                                (unsigned long long)t->leaves);
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

/* The first kept node of a level at or after index (count[level] when none). */
static size_t lower_bound(const cuzk_fc_band_tree_t *t, uint32_t level, uint64_t index)
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

static const uint8_t *node_ref(const cuzk_fc_band_tree_t *t, uint32_t level, uint64_t index)
{
    size_t k = lower_bound(t, level, index);
    if (k < t->count[level] && t->nodes[level][k].index == index)
        return t->nodes[level][k].hash;
    /* untouched: inside one band (a level above the bands keeps every node) */
    return t->band_dflt[level][index * t->span[level] / t->band_leaves];
}

void cuzk_fc_band_tree_node(uint8_t out[32], const cuzk_fc_band_tree_t *t, uint32_t level, uint64_t index)
{
    memcpy(out, node_ref(t, level, index), 32);
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

/* Level i + 1 from level i: while its nodes stay inside the bands, each band's default and the parents of
 * level i's kept nodes; above the bands, every node. */
static cuzk_status build_level(cuzk_fc_band_tree_t *t, uint32_t i, int threads, cuzk_err_t *err)
{
    unsigned a = t->arity[i];
    hash_job_t job = {.hash = t->hash, .arity = a};
    cuzk_status st;
    if (t->hash == CUZK_FC_MERKLE_POSEIDON && (st = cuzk_poseidon_constants_get(&job.c, a, err)) != CUZK_OK)
        return st;
    bool dense = t->span[i + 1] > t->band_leaves;
    const cuzk_fc_sparse_node_t *in = t->nodes[i];
    size_t n = t->count[i], groups = 0;
    if (dense) {
        groups = (size_t)(t->leaves / t->span[i + 1]);
    } else {
        for (size_t j = 0; j < n; j++)
            groups += j == 0 || in[j].index / a != in[j - 1].index / a;
    }
    size_t nb = dense ? 0 : (size_t)t->bands, jobs = groups + nb;
    uint8_t *children = malloc((jobs ? jobs : 1) * a * 32), *parents = malloc((jobs ? jobs : 1) * 32);
    cuzk_fc_sparse_node_t *out = groups ? malloc(groups * sizeof *out) : NULL;
    if (!children || !parents || (groups && !out)) {
        free(children), free(parents), free(out);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "sparse tree: out of memory at level %u", i);
    }
    /* jobs 0 .. nb − 1: each band's default subtree; then the kept parents */
    for (size_t b = 0; b < nb; b++)
        for (unsigned c = 0; c < a; c++)
            memcpy(children + (b * a + c) * 32, t->band_dflt[i][b], 32);
    size_t g = 0;
    for (size_t j = 0; j < (dense ? groups : n); j++) {
        uint64_t parent = dense ? j : in[j].index / a;
        if (!dense && j && parent == in[j - 1].index / a)
            continue;
        out[g].index = parent;
        for (unsigned c = 0; c < a; c++)
            memcpy(children + ((nb + g) * a + c) * 32, node_ref(t, i, parent * a + c), 32);
        g++;
    }
    job.in = children;
    job.out = parents;
    cuzk_parallel_for(threads, jobs, HASH_GRAIN, hash_groups, &job);
    if (nb) {
        if (!(t->band_dflt[i + 1] = malloc(nb * 32))) {
            free(children), free(parents), free(out);
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "sparse tree: out of memory at level %u", i);
        }
        memcpy(t->band_dflt[i + 1], parents, nb * 32);
    }
    for (g = 0; g < groups; g++)
        memcpy(out[g].hash, parents + (nb + g) * 32, 32);
    free(children);
    free(parents);
    t->nodes[i + 1] = out;
    t->count[i + 1] = groups;
    return CUZK_OK;
}

cuzk_status cuzk_fc_band_tree_build(cuzk_fc_band_tree_t *t, cuzk_fc_merkle_hash_t hash, unsigned base, unsigned sub,
                                    unsigned top, uint64_t leaves, uint64_t bands, const uint8_t (*band_leaf)[32],
                                    const uint64_t *index, const uint8_t (*value)[32], size_t n, int threads,
                                    cuzk_err_t *err)
{
    memset(t, 0, sizeof *t);
    if (hash != CUZK_FC_MERKLE_SHA256 && hash != CUZK_FC_MERKLE_POSEIDON)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sparse tree: unknown hash %d", (int)hash);
    if (!band_leaf || (n && (!index || !value)))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sparse tree: NULL leaves");
    if (threads <= 0)
        threads = cuzk_cpu_count();
    t->hash = hash;
    cuzk_status st = set_shape(t, base, sub, top, leaves, bands, err);
    if (st == CUZK_OK)
        st = set_leaves(t, band_leaf, index, value, n, err);
    for (uint32_t i = 0; i < t->levels && st == CUZK_OK; i++)
        st = build_level(t, i, threads, err);
    if (st != CUZK_OK) {
        cuzk_fc_band_tree_free(t);
        return st;
    }
    cuzk_fc_band_tree_node(t->root, t, t->levels, 0);
    return CUZK_OK;
}

size_t cuzk_fc_band_tree_sibling_count(const cuzk_fc_band_tree_t *t)
{
    size_t s = 0;
    for (uint32_t i = 0; i < t->levels; i++)
        s += t->arity[i] - 1u;
    return s;
}

cuzk_status cuzk_fc_band_tree_open(const cuzk_fc_band_tree_t *t, uint64_t index, cuzk_fc_merkle_path_t *p,
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
    cuzk_fc_band_tree_node(p->leaf, t, 0, index);
    memcpy(p->root, t->root, 32);
    uint8_t *s = siblings;
    for (uint32_t i = 0; i < t->levels; i++) {
        unsigned a = t->arity[i];
        uint64_t group = index / a * a;
        for (unsigned j = 0; j < a; j++) {
            if (group + j == index)
                continue;
            memcpy(s, node_ref(t, i, group + j), 32);
            s += 32;
        }
        p->steps[i].arity = (uint8_t)a;
        p->steps[i].index = (uint8_t)(index % a);
        index /= a;
    }
    return CUZK_OK;
}

void cuzk_fc_band_tree_free(cuzk_fc_band_tree_t *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i <= CUZK_FC_MERKLE_MAX_LEVELS; i++) {
        free(t->nodes[i]);
        free(t->band_dflt[i]);
    }
    memset(t, 0, sizeof *t);
}
