/* The tree R / tree C roots and column hashes of a whole C1 output, computed level by level across all of its
 * paths: the inputs of a level are sorted by content so that each distinct one is hashed once (the paths of
 * a C1 share their upper levels), and the distinct ones go through the Poseidon lane batches on every CPU. */
#define _GNU_SOURCE /* qsort_r */
#include "filecoin/vanilla/c1_hashes.h"

#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "filecoin/hash/poseidon.h"
#include "util/parallel.h"

static const cuzk_fc_c1_column_t *slot_column(const cuzk_fc_c1_vproof_t *v, unsigned s)
{
    if (s == 1)
        return &v->c_x;
    return s < 2 + CUZK_FC_DRG_DEGREE ? &v->drg[s - 2] : &v->exp[s - 2 - CUZK_FC_DRG_DEGREE];
}

static const cuzk_fc_merkle_path_t *slot_path(const cuzk_fc_c1_vproof_t *v, unsigned s)
{
    return s == 0 ? &v->comm_r_last : &slot_column(v, s)->path;
}

/* b < r as a 32-byte little-endian integer: the test of fr_from_bytes_le without its conversion. */
static int canonical(const uint8_t *b)
{
    for (int i = 3; i >= 0; i--) {
        uint64_t w = 0;
        for (int k = 7; k >= 0; k--)
            w = w << 8 | b[8 * i + k];
        if (w != FR_MODULUS[i])
            return w < FR_MODULUS[i];
    }
    return 0;
}

static int all_canonical(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!canonical(b + 32 * i))
            return 0;
    return 1;
}

/* Scratch of hash_distinct, sized once for the largest level. */
typedef struct {
    uint32_t *order, *map;
    uint8_t *uniq, (*out)[32];
    int threads;
} work_t;

typedef struct {
    const uint8_t *const *in;
    size_t w;
} sort_ctx_t;

static int cmp_input(const void *a, const void *b, void *ctx)
{
    const sort_ctx_t *s = ctx;
    return memcmp(s->in[*(const uint32_t *)a], s->in[*(const uint32_t *)b], s->w);
}

typedef struct {
    const cuzk_poseidon_constants_t *c;
    const uint8_t *in;
    uint8_t (*out)[32];
} hash_job_t;

static void hash_range(void *p, size_t b, size_t e)
{
    const hash_job_t *j = p;
    cuzk_poseidon_hash_batch_bytes(j->out[b], j->c, &j->c->merkle_tag, j->in + b * j->c->arity * 32, e - b);
}

/* res[i] = the MerkleTree Poseidon hash of arity c->arity of in[i] (arity × 32 bytes of canonical Fr), for
 * i < n; equal inputs are hashed once. res may be what in[] points into only if the caller copied first. */
static void hash_distinct(work_t *w, const cuzk_poseidon_constants_t *c, const uint8_t *const *in, size_t n,
                          uint8_t (*res)[32])
{
    if (n == 0)
        return;
    size_t width = (size_t)c->arity * 32, nu = 0;
    for (size_t i = 0; i < n; i++)
        w->order[i] = (uint32_t)i;
    sort_ctx_t sc = {in, width};
    qsort_r(w->order, n, sizeof *w->order, cmp_input, &sc);
    for (size_t k = 0; k < n; k++) {
        uint32_t i = w->order[k];
        if (k == 0 || memcmp(in[i], in[w->order[k - 1]], width) != 0)
            memcpy(w->uniq + nu++ * width, in[i], width);
        w->map[i] = (uint32_t)(nu - 1);
    }
    /* Chunks that are whole lane groups and leave every thread several of them. */
    size_t grain = 16;
    while (grain < 256 && grain * (size_t)w->threads * 4 < nu)
        grain *= 2;
    hash_job_t job = {c, w->uniq, w->out};
    cuzk_parallel_for(w->threads, nu, grain, hash_range, &job);
    for (size_t i = 0; i < n; i++)
        memcpy(res[i], w->out[w->map[i]], 32);
}

void cuzk_fc_c1_hashes_free(cuzk_fc_c1_hashes_t *h)
{
    if (!h)
        return;
    free(h->root);
    free(h->col);
    free(h->have);
    memset(h, 0, sizeof *h);
}

/* State of the level-by-level walk over the paths that have the tree's shape. */
typedef struct {
    const cuzk_fc_c1_t *c1;
    cuzk_fc_c1_hashes_t *h;
    work_t w;
    size_t n;                /* paths walked */
    uint32_t *slot;          /* path e → its global slot */
    uint8_t *live;           /* 0 once a non-canonical input was met */
    uint8_t (*cur)[32];      /* the path's node at the current level */
    uint8_t *blk;            /* this level's inputs, one block of arity × 32 bytes per live path */
    const uint8_t **in;
    uint32_t *who;           /* input k → path e */
} walk_t;

static const cuzk_fc_merkle_path_t *walk_path(const walk_t *wk, size_t e)
{
    uint32_t g = wk->slot[e];
    return slot_path(&wk->c1->vproofs[g / CUZK_FC_C1_SLOTS], g % CUZK_FC_C1_SLOTS);
}

/* One level: every live path's node with its siblings in place, hashed. */
static cuzk_status walk_level(walk_t *wk, uint32_t level, unsigned arity, size_t sib_off, cuzk_err_t *err)
{
    const cuzk_poseidon_constants_t *c;
    cuzk_status st = cuzk_poseidon_constants_get(&c, arity, err);
    if (st != CUZK_OK)
        return st;
    size_t width = (size_t)arity * 32, m = 0;
    for (size_t e = 0; e < wk->n; e++) {
        if (!wk->live[e])
            continue;
        const cuzk_fc_merkle_path_t *p = walk_path(wk, e);
        const uint8_t *sib = p->siblings + sib_off * 32;
        unsigned idx = p->steps[level].index;
        /* Level 0's node is the claimed leaf; later ones are hash outputs, canonical by construction. */
        if ((level == 0 && !canonical(wk->cur[e])) || !all_canonical(sib, arity - 1u)) {
            wk->live[e] = 0;
            continue;
        }
        uint8_t *b = wk->blk + m * width;
        memcpy(b, sib, (size_t)idx * 32);
        memcpy(b + (size_t)idx * 32, wk->cur[e], 32);
        memcpy(b + (size_t)(idx + 1) * 32, sib + (size_t)idx * 32, (size_t)(arity - 1 - idx) * 32);
        wk->in[m] = b;
        wk->who[m++] = (uint32_t)e;
    }
    /* The results land in w.out's order first; cur[] is written after every input was read. */
    uint8_t (*res)[32] = (uint8_t(*)[32])wk->blk; /* blocks are >= 64 bytes each: room for m results */
    hash_distinct(&wk->w, c, wk->in, m, res);
    for (size_t k = 0; k < m; k++)
        memcpy(wk->cur[wk->who[k]], res[k], 32);
    return CUZK_OK;
}

/* The roots of every path that has the tree's shape. */
static cuzk_status roots(walk_t *wk, cuzk_err_t *err)
{
    const cuzk_fc_c1_t *c1 = wk->c1;
    const cuzk_fc_seal_proof_t *p = c1->proof;
    size_t total = wk->h->n_ch * CUZK_FC_C1_SLOTS;
    const cuzk_fc_merkle_path_t *shape = NULL;
    for (size_t g = 0; g < total; g++) {
        const cuzk_fc_merkle_path_t *q = slot_path(&c1->vproofs[g / CUZK_FC_C1_SLOTS], g % CUZK_FC_C1_SLOTS);
        cuzk_err_t e;
        if (q->hash != CUZK_FC_MERKLE_POSEIDON ||
            cuzk_fc_merkle_path_check_shape(q, p->base_arity, p->sub_arity, p->top_arity, p->nodes, &e) != CUZK_OK)
            continue;
        shape = shape ? shape : q;
        wk->slot[wk->n] = (uint32_t)g;
        wk->live[wk->n] = 1;
        memcpy(wk->cur[wk->n++], q->leaf, 32);
    }
    if (!shape)
        return CUZK_OK;
    /* The shape check fixes every level's arity: all the walked paths have the same steps' arities. */
    size_t sib_off = 0;
    for (uint32_t i = 0; i < cuzk_fc_merkle_levels(shape); i++) {
        unsigned a = shape->steps[i].arity;
        cuzk_status st = walk_level(wk, i, a, sib_off, err);
        if (st != CUZK_OK)
            return st;
        sib_off += a - 1u;
    }
    for (size_t e = 0; e < wk->n; e++)
        if (wk->live[e]) {
            memcpy(wk->h->root[wk->slot[e]], wk->cur[e], 32);
            wk->h->have[wk->slot[e]] |= 1;
        }
    return CUZK_OK;
}

/* The column hashes of every column with the proof's layers of canonical rows. */
static cuzk_status columns(walk_t *wk, cuzk_err_t *err)
{
    const cuzk_fc_c1_t *c1 = wk->c1;
    uint32_t L = c1->proof->layers;
    const cuzk_poseidon_constants_t *c;
    cuzk_status st = cuzk_poseidon_constants_get(&c, L, err);
    if (st != CUZK_OK)
        return st;
    size_t m = 0, total = wk->h->n_ch * CUZK_FC_C1_SLOTS;
    for (size_t g = 0; g < total; g++) {
        const cuzk_fc_c1_vproof_t *v = &c1->vproofs[g / CUZK_FC_C1_SLOTS];
        unsigned s = g % CUZK_FC_C1_SLOTS;
        if (s == 0 || v->n_layers != L)
            continue;
        const cuzk_fc_c1_column_t *col = slot_column(v, s);
        if (!col->rows || !all_canonical(col->rows[0], L))
            continue;
        wk->in[m] = col->rows[0];
        wk->who[m++] = (uint32_t)g;
    }
    uint8_t (*res)[32] = (uint8_t(*)[32])wk->blk;
    hash_distinct(&wk->w, c, wk->in, m, res);
    for (size_t k = 0; k < m; k++) {
        memcpy(wk->h->col[wk->who[k]], res[k], 32);
        wk->h->have[wk->who[k]] |= 2;
    }
    return CUZK_OK;
}

cuzk_status cuzk_fc_c1_hashes_compute(cuzk_fc_c1_hashes_t *h, const cuzk_fc_c1_t *c1, int threads, cuzk_err_t *err)
{
    memset(h, 0, sizeof *h);
    size_t n_ch = (size_t)c1->n_partitions * c1->challenges_per_partition, total = n_ch * CUZK_FC_C1_SLOTS;
    /* The widest input: a path level of arity 16 or a column of CUZK_FC_C1_MAX_LAYERS rows. */
    size_t width = 16 * 32;
    if (c1->proof->layers * 32 > width)
        width = (size_t)c1->proof->layers * 32;
    h->n_ch = n_ch;
    h->root = malloc(total * 32);
    h->col = malloc(total * 32);
    h->have = calloc(total ? total : 1, 1);
    walk_t wk = {.c1 = c1, .h = h, .w.threads = threads < 1 ? 1 : threads};
    wk.w.order = malloc(total * sizeof(uint32_t));
    wk.w.map = malloc(total * sizeof(uint32_t));
    wk.w.uniq = malloc(total * width);
    wk.w.out = malloc(total * 32);
    wk.slot = malloc(total * sizeof(uint32_t));
    wk.live = malloc(total);
    wk.cur = malloc(total * 32);
    wk.blk = malloc(total * width);
    wk.in = malloc(total * sizeof *wk.in);
    wk.who = malloc(total * sizeof(uint32_t));
    cuzk_status st = CUZK_OK;
    if (total && (!h->root || !h->col || !h->have || !wk.w.order || !wk.w.map || !wk.w.uniq || !wk.w.out ||
                  !wk.slot || !wk.live || !wk.cur || !wk.blk || !wk.in || !wk.who))
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1: out of memory for the batched hashes");
    if (st == CUZK_OK && total)
        st = roots(&wk, err);
    if (st == CUZK_OK && total)
        st = columns(&wk, err);
    free(wk.w.order);
    free(wk.w.map);
    free(wk.w.uniq);
    free(wk.w.out);
    free(wk.slot);
    free(wk.live);
    free(wk.cur);
    free(wk.blk);
    free(wk.in);
    free(wk.who);
    if (st != CUZK_OK)
        cuzk_fc_c1_hashes_free(h);
    return st;
}
