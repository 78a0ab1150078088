/* In-memory sealing of base-only-shape sectors (2KiB, 8MiB, 512MiB) and the commit-phase-1 vanilla proofs.
 * Labels are sequential within a layer (each node hashes its predecessor) and take one thread; parents come
 * from the graph once (the parent cache, 56 bytes a node), and the other threads compute them, then the
 * column hashes and the Poseidon trees, beside the labeler (see "the precommit pipeline"). */
#include "filecoin/seal/seal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "filecoin/hash/fr32.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/parent_cache.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "util/bigmem.h"
#include "util/parallel.h"
#include "util/timer.h"
#include "util/timing.h"

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

uint64_t cuzk_fc_seal_tree_size(uint64_t nodes, unsigned arity)
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

/* Parents [b, e) of a Poseidon level: one batched call over the children's bytes (IFMA lanes where the
 * CPU has them). Tree nodes are canonical by construction (trimmed labels, Poseidon outputs). */
static void poseidon_level(void *ctx, size_t b, size_t e)
{
    level_job *j = ctx;
    cuzk_poseidon_hash_batch_bytes(j->out + b * 32, j->c, &j->c->merkle_tag, j->in + b * j->arity * 32, e - b);
}

/* The levels above `from` of an octree whose level `from` (w nodes, at upper + off·32) is complete. */
static void build_tree_from(uint8_t *upper, uint64_t off, uint64_t w, int threads)
{
    level_job j = {.arity = 8, .c = cuzk_poseidon_constants(8)};
    while (w > 1) {
        j.in = upper + off * 32;
        j.out = upper + (off + w) * 32;
        cuzk_parallel_for(threads, w / 8, HASH_GRAIN, poseidon_level, &j);
        off += w;
        w /= 8;
    }
}

/* Tree D's levels above the data (its leaves) into upper. */
static void build_tree_d(uint8_t *upper, const uint8_t *data, uint64_t nodes, int threads)
{
    level_job j = {.arity = 2, .in = data, .out = upper};
    for (uint64_t w = nodes; w > 1; w /= 2) {
        cuzk_parallel_for(threads, w / 2, HASH_GRAIN, sha_level, &j);
        j.in = j.out;
        j.out += w / 2 * 32;
    }
}

void cuzk_fc_seal_tree_d(uint8_t *upper, const uint8_t *data, uint64_t nodes, int threads)
{
    build_tree_d(upper, data, nodes, threads <= 0 ? cuzk_cpu_count() : threads);
}

void cuzk_fc_seal_tree_r(uint8_t *upper, const uint8_t *leaves, uint64_t nodes, int threads)
{
    if (threads <= 0)
        threads = cuzk_cpu_count();
    level_job j = {.arity = 8, .c = cuzk_poseidon_constants(8), .in = leaves, .out = upper};
    cuzk_parallel_for(threads, nodes / 8, HASH_GRAIN, poseidon_level, &j);
    build_tree_from(upper, 0, nodes / 8, threads);
}

/* Column hashes of nodes [b, e) into out[0 .. e − b): each node's labels of every layer gathered next
 * to each other, then batches of HASH_GRAIN. Labels are trimmed, hence canonical. */
static void column_hashes(uint8_t *out, const cuzk_fc_sealed_t *s, const cuzk_poseidon_constants_t *c, uint64_t b,
                          uint64_t e)
{
    uint8_t in[HASH_GRAIN * CUZK_FC_C1_MAX_LAYERS * 32];
    const unsigned L = s->proof->layers;
    for (uint64_t g = b; g < e; g += HASH_GRAIN) {
        uint64_t n = e - g < HASH_GRAIN ? e - g : HASH_GRAIN;
        for (uint64_t i = 0; i < n; i++)
            for (unsigned l = 0; l < L; l++)
                memcpy(in + (i * L + l) * 32, s->labels + ((uint64_t)l * s->nodes + g + i) * 32, 32);
        cuzk_poseidon_hash_batch_bytes(out + (g - b) * 32, c, &c->merkle_tag, in, n);
    }
}

/* r as little-endian 64-bit words. */
static const uint64_t R_WORDS[4] = {0xffffffff00000001ull, 0x53bda402fffe5bfeull, 0x3339d80809a1d805ull,
                                    0x73eda753299d7d48ull};

/* A replica node: data + key mod r on the canonical integers. Both are below 2^254 (Fr32 padding,
 * trimmed labels), so the sum is below 2^255 < 2r and one conditional subtraction reduces it. */
static void encode_node(uint8_t out[32], const uint8_t data[32], const uint8_t key[32])
{
    uint64_t d[4], k[4], x[4], y[4];
    memcpy(d, data, 32);
    memcpy(k, key, 32);
    unsigned char c = 0, bw = 0;
    for (int w = 0; w < 4; w++) {
        unsigned long long t;
        c = (unsigned char)__builtin_uaddll_overflow(d[w], k[w], &t) |
            (unsigned char)__builtin_uaddll_overflow(t, c, &t);
        x[w] = t;
    }
    for (int w = 0; w < 4; w++) {
        unsigned long long t;
        bw = (unsigned char)__builtin_usubll_overflow(x[w], R_WORDS[w], &t) |
             (unsigned char)__builtin_usubll_overflow(t, bw, &t);
        y[w] = t;
    }
    memcpy(out, bw ? x : y, 32); /* a borrow: x < r, keep it */
}

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "tree nodes are read as little-endian words");

/* ---- labels ---- */

static void put_be(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* Nodes between progress reports of the labeler, and how far ahead it prefetches parents (the layer is
 * far larger than the caches at 512MiB, and the parents are scattered over it). */
#define LABEL_PUBLISH 1024
#define LABEL_AHEAD 8

/* The label of parent q (node i): DRG parents are in the layer being labeled, expander ones in the one below. */
static inline const uint8_t *parent_label(const uint8_t *cur, const uint8_t *prev, uint32_t q, uint32_t i)
{
    return (q < CUZK_FC_DRG_DEGREE ? cur : prev) + (uint64_t)i * 32;
}

/* Layer `layer` (1-based) of the SDR labels into cur; prev is layer − 1 (NULL for layer 1). parents holds
 * the 14 parents of every node (the parent cache; layer 1 reads only the 6 DRG ones). When done is given,
 * the count of finished nodes is published there every LABEL_PUBLISH nodes (release order). */
static void label_layer(uint8_t *cur, const uint8_t *prev, uint32_t layer, uint64_t nodes, const uint8_t replica_id[32],
                        const uint32_t *parents, _Atomic uint64_t *done)
{
    uint8_t buf[64 + CUZK_FC_LABEL_PARENTS * 32];
    memset(buf, 0, 64);
    memcpy(buf, replica_id, 32);
    put_be(buf + 32, layer, 4);
    const uint32_t np = prev ? CUZK_FC_PARENTS : CUZK_FC_DRG_DEGREE;
    for (uint64_t v = 0; v < nodes; v++) {
        if (v + LABEL_AHEAD < nodes) {
            const uint32_t *pa = parents + (v + LABEL_AHEAD) * CUZK_FC_PARENTS;
            for (uint32_t q = 0; q < np; q++)
                __builtin_prefetch(parent_label(cur, prev, q, pa[q]));
        }
        put_be(buf + 36, v, 8);
        size_t len = 64;
        if (v > 0) {
            const uint32_t *par = parents + v * CUZK_FC_PARENTS;
            for (uint32_t q = 0; q < np; q++)
                memcpy(buf + 64 + q * 32, parent_label(cur, prev, q, par[q]), 32);
            for (uint32_t q = np; q < CUZK_FC_LABEL_PARENTS; q++)
                memcpy(buf + 64 + q * 32, buf + 64 + (q % np) * 32, 32);
            len += CUZK_FC_LABEL_PARENTS * 32;
        }
        cuzk_fc_span_t sp = {buf, len};
        cuzk_fc_sha256_trimmed(cur + v * 32, &sp, 1);
        if (done && ((v + 1) % LABEL_PUBLISH == 0 || v + 1 == nodes))
            atomic_store_explicit(done, v + 1, memory_order_release);
    }
}

/* ---- the precommit pipeline ----
 * Labeling is sequential within a layer and runs on one thread; the other threads work beside it:
 * during the first layer (which reads only the DRG parents) they compute the expander parents, and
 * during the last layer they follow the labeler chunk by chunk with the column hashes, the replica
 * and both trees' lower levels. The labeler joins that work when its layer is done. */

#define EXP_CHUNK 2048 /* nodes per claim of expander-parent work */
#define CHUNK_LEVELS 4 /* follower chunks: subtrees of 8^4 = 4096 leaves (fewer for tiny sectors) */

typedef struct {
    cuzk_fc_sealed_t *s;
    const cuzk_fc_graph_t *g;
    uint32_t *parents;
    uint64_t n;
    uint64_t chunk;        /* leaves per follower chunk: 8^chunk_levels, divides n */
    unsigned chunk_levels;
    const cuzk_poseidon_constants_t *col;
    uint8_t *scratch; /* per thread: one chunk's leaves of both trees */
    _Atomic uint64_t exp_next, labeled, chunk_next;
} pipe_t;

static uint8_t *layer_labels(const pipe_t *p, uint32_t l) { return p->s->labels + (uint64_t)(l - 1) * p->n * 32; }

static void exp_work(pipe_t *p)
{
    for (;;) {
        uint64_t b = atomic_fetch_add(&p->exp_next, EXP_CHUNK);
        if (b >= p->n)
            return;
        uint64_t e = b + EXP_CHUNK < p->n ? b + EXP_CHUNK : p->n;
        cuzk_fc_graph_exp_parents_range(p->g, b, e - b, p->parents + b * CUZK_FC_PARENTS); /* in range */
    }
}

static void drg_range(void *ctx, size_t b, size_t e)
{
    pipe_t *p = ctx;
    cuzk_fc_graph_drg_parents_range(p->g, b, e - b, p->parents + b * CUZK_FC_PARENTS); /* in range */
}

/* Layer 1 on thread 0, the expander parents on the others (and on thread 0 once its layer is done). */
static void phase_first_layer(void *ctx, int tid, int nthreads)
{
    (void)nthreads;
    pipe_t *p = ctx;
    if (tid == 0)
        label_layer(layer_labels(p, 1), NULL, 1, p->n, p->s->replica_id, p->parents, NULL);
    exp_work(p);
}

/* Chunk c of the last layer: its column hashes and replica nodes (the leaves, into the thread's scratch
 * of 2·chunk nodes), then its subtrees in trees C and R. */
static void chunk_trees(pipe_t *p, uint64_t c, uint8_t *scratch)
{
    cuzk_fc_sealed_t *s = p->s;
    const uint64_t b = c * p->chunk, e = b + p->chunk;
    uint8_t *leaves_c = scratch, *leaves_r = scratch + p->chunk * 32;
    const uint8_t *key = layer_labels(p, s->proof->layers);
    column_hashes(leaves_c, s, p->col, b, e);
    for (uint64_t i = b; i < e; i++)
        encode_node(leaves_r + (i - b) * 32, s->data + i * 32, key + i * 32);
    level_job j = {.arity = 8, .c = cuzk_poseidon_constants(8)};
    for (int t = 0; t < 2; t++) {
        uint8_t *upper = t ? s->tree_r : s->tree_c;
        /* level 1 from the scratch leaves, then levels 2.. within the upper levels */
        j.in = t ? leaves_r : leaves_c;
        j.out = upper + b / 8 * 32;
        poseidon_level(&j, 0, p->chunk / 8);
        uint64_t w = p->n / 8, off = 0, lb = b / 8, le = e / 8;
        for (unsigned lv = 1; lv < p->chunk_levels; lv++) {
            j.in = upper + off * 32;
            j.out = upper + (off + w) * 32;
            poseidon_level(&j, lb / 8, le / 8);
            off += w, w /= 8, lb /= 8, le /= 8;
        }
    }
}

static void pause_briefly(void)
{
    struct timespec ts = {0, 50000};
    nanosleep(&ts, NULL);
}

static void chunk_work(pipe_t *p, uint8_t *scratch)
{
    const uint64_t chunks = p->n / p->chunk;
    for (;;) {
        uint64_t c = atomic_fetch_add(&p->chunk_next, 1);
        if (c >= chunks)
            return;
        while (atomic_load_explicit(&p->labeled, memory_order_acquire) < (c + 1) * p->chunk)
            pause_briefly(); /* the labeler is ahead almost always: it labels a chunk faster than one is hashed */
        chunk_trees(p, c, scratch);
    }
}

/* The last layer on thread 0, the followers on the others (and on thread 0 once its layer is done). */
static void phase_last_layer(void *ctx, int tid, int nthreads)
{
    (void)nthreads;
    pipe_t *p = ctx;
    uint32_t L = p->s->proof->layers;
    if (tid == 0)
        label_layer(layer_labels(p, L), layer_labels(p, L - 1), L, p->n, p->s->replica_id, p->parents, &p->labeled);
    chunk_work(p, p->scratch + (size_t)tid * 2 * p->chunk * 32);
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

/* Fr32 padding of whole 127-byte blocks, independent of each other. */
#define PAD_GRAIN 8192

typedef struct {
    uint8_t *out;
    const uint8_t *raw;
} pad_job;

static void pad_range(void *ctx, size_t b, size_t e)
{
    pad_job *j = ctx;
    cuzk_fr32_pad_blocks(j->out + b * CUZK_FR32_PADDED_BLOCK, j->raw + b * (CUZK_FR32_PADDED_BLOCK - 1), e - b);
}

/* The labels of every layer and trees C and R (their levels above the leaves), with the parent cache.
 * CUZK_ERR_NO_MEMORY when the followers' scratch cannot be had. */
static cuzk_status label_and_trees(cuzk_fc_sealed_t *s, const cuzk_fc_graph_t *g, uint32_t *parents, int threads,
                                   cuzk_err_t *err)
{
    const uint64_t n = s->nodes;
    const uint32_t L = s->proof->layers;
    pipe_t p = {.s = s, .g = g, .parents = parents, .n = n, .col = cuzk_poseidon_constants(L)};
    p.chunk = 1;
    while (p.chunk_levels < CHUNK_LEVELS && p.chunk * 8 <= n && n % (p.chunk * 8) == 0) {
        p.chunk *= 8;
        p.chunk_levels++;
    }
    if (!(p.scratch = malloc((size_t)threads * 2 * p.chunk * 32)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "seal: out of memory for the tree builders' scratch");
    atomic_init(&p.exp_next, 0);
    atomic_init(&p.labeled, 0);
    atomic_init(&p.chunk_next, 0);

    uint64_t t0 = cuzk_now_ns();
    cuzk_parallel_for(threads, n, EXP_CHUNK, drg_range, &p);
    cuzk_timing_report("seal_parents_drg", t0);
    t0 = cuzk_now_ns();
    cuzk_parallel_run(threads, phase_first_layer, &p);
    cuzk_timing_report("seal_layer_1", t0); /* with the expander parents */
    t0 = cuzk_now_ns();
    for (uint32_t l = 2; l < L; l++)
        label_layer(layer_labels(&p, l), layer_labels(&p, l - 1), l, n, s->replica_id, parents, NULL);
    cuzk_parallel_run(threads, phase_last_layer, &p);
    cuzk_timing_report("seal_last_layers", t0); /* with columns, replica and the trees' lower levels */
    t0 = cuzk_now_ns();
    free(p.scratch);
    uint64_t off = cuzk_fc_seal_tree_level_offset(n, 8, p.chunk_levels) - n;
    build_tree_from(s->tree_c, off, n / p.chunk, threads);
    build_tree_from(s->tree_r, off, n / p.chunk, threads);
    cuzk_timing_report("seal_tree_tops", t0);
    return CUZK_OK;
}

void cuzk_fc_seal_pad(uint8_t *out, const uint8_t *raw, uint64_t nodes, int threads)
{
    pad_job pj = {out, raw};
    cuzk_parallel_for(threads <= 0 ? cuzk_cpu_count() : threads, nodes * 32 / CUZK_FR32_PADDED_BLOCK, PAD_GRAIN,
                      pad_range, &pj);
}

cuzk_status cuzk_fc_seal_precommit(cuzk_fc_sealed_t *out, const cuzk_fc_seal_proof_t *proof,
                                   const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                                   const uint8_t *raw, int threads, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    if (proof->sub_arity || proof->top_arity || proof->base_arity != 8)
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "seal: %s: only 8-0-0 tree shapes are sealed here", proof->name);
    if (proof->layers < 2 || proof->layers > CUZK_FC_C1_MAX_LAYERS)
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "seal: %s: %u layers", proof->name, proof->layers);
    if (proof->nodes < 8 || (proof->nodes & (proof->nodes - 1)) || __builtin_ctzll(proof->nodes) % 3)
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "seal: %s: %llu nodes is not a power of 8", proof->name,
                            (unsigned long long)proof->nodes);
    if (threads <= 0)
        threads = cuzk_cpu_count();
    uint64_t n = proof->nodes, L = proof->layers;
    out->proof = proof;
    out->nodes = n;
    out->sector_id = sector_id;
    memcpy(out->prover_id, prover_id, 32);
    memcpy(out->ticket, ticket, 32);
    /* Huge pages where the kernel has them: 512MiB touches ~3 GiB, a page fault per 4 KiB otherwise. The
     * trees keep their levels above the leaves only (the leaves are the data, or cheap to recompute when
     * commit 1 opens a path): a third of the memory, and of the kernel's page clearing. */
    out->data = cuzk_big_malloc(n * 32);
    out->labels = cuzk_big_malloc(L * n * 32);
    out->tree_d = cuzk_big_malloc((n - 1) * 32);
    out->tree_c = cuzk_big_malloc((cuzk_fc_seal_tree_size(n, 8) - n) * 32);
    out->tree_r = cuzk_big_malloc((cuzk_fc_seal_tree_size(n, 8) - n) * 32);
    uint32_t *parents = cuzk_big_malloc(n * CUZK_FC_PARENTS * sizeof(uint32_t));
    cuzk_status st = CUZK_OK;
    if (!out->data || !out->labels || !out->tree_d || !out->tree_c || !out->tree_r || !parents) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "seal: out of memory for a %s sector", proof->size_name);
        goto done;
    }
    uint64_t t0 = cuzk_now_ns();
    if (raw) {
        cuzk_fc_seal_pad(out->data, raw, n, threads);
    } else {
        memset(out->data, 0, n * 32);
    }
    build_tree_d(out->tree_d, out->data, n, threads);
    memcpy(out->comm_d, out->tree_d + (n - 2) * 32, 32);
    cuzk_timing_report("seal_tree_d", t0);

    uint8_t porep_id[32];
    cuzk_fc_porep_id(porep_id, proof->id);
    cuzk_fc_replica_id(out->replica_id, prover_id, sector_id, ticket, out->comm_d, porep_id);

    cuzk_fc_graph_t g;
    if ((st = cuzk_fc_graph_init_proof(&g, proof, err)) != CUZK_OK)
        goto done;
    if ((st = label_and_trees(out, &g, parents, threads, err)) != CUZK_OK)
        goto done;

    uint64_t root = cuzk_fc_seal_tree_size(n, 8) - 1 - n;
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

/* A tree's leaf: the stored trees start one level up (precommit). */
typedef cuzk_status (*leaf_fn)(uint8_t out[32], const cuzk_fc_sealed_t *s, uint64_t idx, cuzk_err_t *err);

static cuzk_status leaf_d(uint8_t out[32], const cuzk_fc_sealed_t *s, uint64_t idx, cuzk_err_t *err)
{
    (void)err;
    memcpy(out, s->data + idx * 32, 32);
    return CUZK_OK;
}

static cuzk_status leaf_c(uint8_t out[32], const cuzk_fc_sealed_t *s, uint64_t idx, cuzk_err_t *err)
{
    uint8_t col[CUZK_FC_C1_MAX_LAYERS * 32];
    const uint32_t L = s->proof->layers;
    for (uint32_t l = 0; l < L; l++)
        memcpy(col + l * 32, s->labels + ((uint64_t)l * s->nodes + idx) * 32, 32);
    return cuzk_poseidon_node(out, L, col, err);
}

static cuzk_status leaf_r(uint8_t out[32], const cuzk_fc_sealed_t *s, uint64_t idx, cuzk_err_t *err)
{
    (void)err;
    encode_node(out, s->data + idx * 32, s->labels + ((uint64_t)(s->proof->layers - 1) * s->nodes + idx) * 32);
    return CUZK_OK;
}

typedef struct {
    uint8_t *out;
    const cuzk_fc_sealed_t *s;
} replica_job;

static void replica_range(void *ctx, size_t b, size_t e)
{
    replica_job *j = ctx;
    const uint8_t *key = j->s->labels + (uint64_t)(j->s->proof->layers - 1) * j->s->nodes * 32;
    for (size_t i = b; i < e; i++)
        encode_node(j->out + i * 32, j->s->data + i * 32, key + i * 32);
}

void cuzk_fc_seal_replica(uint8_t *out, const cuzk_fc_sealed_t *s, int threads)
{
    replica_job j = {out, s};
    cuzk_parallel_for(threads > 0 ? threads : cuzk_cpu_count(), s->nodes, PAD_GRAIN, replica_range, &j);
}

/* The path of leaf idx: the leaf level from leaf(), the levels above from upper (precommit's layout). */
static cuzk_status open_path(cuzk_fc_c1_t *c1, cuzk_fc_merkle_path_t *p, const cuzk_fc_sealed_t *s, leaf_fn leaf,
                             const uint8_t *upper, unsigned arity, uint64_t idx, cuzk_fc_merkle_hash_t hash,
                             cuzk_err_t *err)
{
    memset(p, 0, sizeof *p);
    p->hash = hash;
    const uint64_t nodes = s->nodes;
    unsigned h = cuzk_fc_seal_tree_height(nodes, arity);
    uint8_t *sib = cuzk_fc_c1_alloc(c1, (size_t)h * (arity - 1) * 32);
    if (!sib)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "seal: out of memory");
    p->siblings = sib;
    p->n_base = h;
    cuzk_status st = leaf(p->leaf, s, idx, err);
    uint64_t off = 0, w = nodes;
    for (unsigned lv = 0; lv < h && st == CUZK_OK; lv++) {
        uint64_t group = idx / arity * arity;
        for (unsigned a = 0; a < arity && st == CUZK_OK; a++)
            if (group + a != idx) {
                if (lv == 0)
                    st = leaf(sib, s, group + a, err);
                else
                    memcpy(sib, upper + (off - nodes + group + a) * 32, 32);
                sib += 32;
            }
        p->steps[lv].arity = (uint8_t)arity;
        p->steps[lv].index = (uint8_t)(idx % arity);
        off += w;
        w /= arity;
        idx /= arity;
    }
    if (st == CUZK_OK)
        memcpy(p->root, upper + (off - nodes) * 32, 32);
    return st;
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
    return open_path(c1, &c->path, s, leaf_c, s->tree_c, 8, node, CUZK_FC_MERKLE_POSEIDON, err);
}

static cuzk_status vanilla(cuzk_fc_c1_t *c1, cuzk_fc_c1_vproof_t *v, const cuzk_fc_sealed_t *s,
                           const cuzk_fc_graph_t *g, uint64_t ch, cuzk_err_t *err)
{
    uint32_t L = s->proof->layers;
    cuzk_status st;
    if ((st = open_path(c1, &v->comm_d, s, leaf_d, s->tree_d, 2, ch, CUZK_FC_MERKLE_SHA256, err)) ||
        (st = open_path(c1, &v->comm_r_last, s, leaf_r, s->tree_r, 8, ch, CUZK_FC_MERKLE_POSEIDON, err)) ||
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
