/* FallbackPoStCircuit (storage-proofs-post src/fallback/circuit.rs): per sector comm_r_last, comm_c and
 * comm_r allocated in that order, comm_r inputized, comm_r = Poseidon2(comm_c, comm_r_last), then per
 * challenge a PoRCircuit into tree R whose leaf is allocated from its value and whose private root is the
 * allocated comm_r_last — allocations and constraints in the reference's order.
 * Sequential synthesis is synthesize_default; with threads the sectors go in chunks to systems of their
 * own on a pool of threads, joined in order with cuzk_cs_extend as synthesize_extendable does. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "filecoin/post/post_circuit.h"
#include "gadgets/constraint.h"
#include "gadgets/poseidon.h"
#include "util/parallel.h"

/* Sector::synthesize (s NULL: blank). */
static void sector(cuzk_cs_t *cs, const cuzk_por_shape_t *shape, uint32_t challenges,
                   const cuzk_post_sector_witness_t *s)
{
    bool has = s && s->has_comms;
    cuzk_num_t comm_r_last = cuzk_num_alloc(cs, has ? &s->comm_r_last : NULL);
    cuzk_num_t comm_c = cuzk_num_alloc(cs, has ? &s->comm_c : NULL);
    cuzk_num_t comm_r = cuzk_num_alloc(cs, has ? &s->comm_r : NULL);
    cuzk_num_inputize(cs, &comm_r);

    cuzk_num_t pre[2] = {comm_c, comm_r_last}, h;
    cuzk_poseidon_circuit(cs, &h, 2, pre);
    cuzk_constraint_equal(cs, &comm_r, &h);

    for (uint32_t i = 0; i < challenges; i++) {
        const cuzk_porep_path_t *p = s ? &s->paths[i] : NULL;
        bool known = p && p->has_values;
        cuzk_por_path_t path = known ? (cuzk_por_path_t){p->siblings, p->positions} : (cuzk_por_path_t){NULL, NULL};
        cuzk_por_synthesize(cs, shape, cuzk_por_root_val(known ? &p->leaf : NULL), &path,
                            cuzk_por_root_var(&comm_r_last), true);
    }
}

/* Sectors [begin, end) into cs, polling its stop request before each. */
static void sectors(cuzk_cs_t *cs, const cuzk_por_shape_t *shape, const cuzk_post_config_t *cfg,
                    const cuzk_post_witness_t *w, uint32_t begin, uint32_t end)
{
    for (uint32_t i = begin; i < end && !cuzk_cs_poll_stop(cs) && cuzk_cs_status(cs, NULL) == CUZK_OK; i++)
        sector(cs, shape, cfg->challenge_count, w ? &w->sectors[i] : NULL);
}

/* ---- parallel chunks ------------------------------------------------------------------------------ */

/* A chunk of at most this many sectors; at least CHUNKS_PER_THREAD chunks per thread when there are
 * sectors enough, so that the threads stay busy to the end and the chunks waiting to be joined stay
 * small beside the whole system. */
#define CHUNK_MAX_SECTORS 8
#define CHUNKS_PER_THREAD 4
/* Chunks synthesized ahead of the join, per thread: bounds the memory held by chunks waiting. */
#define AHEAD_PER_THREAD 2

typedef struct {
    cuzk_cs_t *dst;
    const cuzk_post_config_t *cfg;
    const cuzk_post_witness_t *w;
    const cuzk_por_shape_t *shape;
    cuzk_cs_counts_t per_sector; /* one blank sector's counts, for reserving */
    uint32_t chunk_sectors, nchunks, ahead;

    pthread_mutex_t lock;
    pthread_cond_t cond;
    uint32_t next_claim, next_join; /* chunks handed out; chunks joined into dst */
    cuzk_cs_t **ready; /* finished chunks waiting for their turn (chunk 0: dst itself) */
    bool *done;
    bool joining; /* a thread is appending */
    bool failed; /* no more chunks are handed out */
    cuzk_cs_t **spare; /* joined chunk systems kept for the next chunks (their memory is
                        * already faulted in: written again, it costs no page zeroing) */
    uint32_t nspare;

    /* The caller's stop request, asked on behalf of every chunk, one thread at a time. */
    pthread_mutex_t stop_lock;
    bool (*user_stop)(void *);
    void *user_stop_arg;
    bool stopped;
} pool_t;

static bool pool_should_stop(void *arg)
{
    pool_t *p = arg;
    pthread_mutex_lock(&p->stop_lock);
    if (!p->stopped && p->user_stop && p->user_stop(p->user_stop_arg))
        p->stopped = true;
    bool s = p->stopped;
    pthread_mutex_unlock(&p->stop_lock);
    return s;
}

static cuzk_cs_t *chunk_synthesize(pool_t *p, uint32_t c)
{
    uint32_t begin = c * p->chunk_sectors, end = begin + p->chunk_sectors;
    if (end > p->cfg->sector_count)
        end = p->cfg->sector_count;
    if (c == 0) {
        /* the first chunk goes straight into the system: nothing precedes it */
        sectors(p->dst, p->shape, p->cfg, p->w, begin, end);
        return p->dst;
    }
    cuzk_cs_t *cs = NULL;
    pthread_mutex_lock(&p->lock);
    if (p->nspare)
        cs = p->spare[--p->nspare];
    pthread_mutex_unlock(&p->lock);
    if (cs) {
        cuzk_cs_reset(cs);
    } else {
        cuzk_err_t err;
        if (cuzk_cs_new_part(&cs, p->dst, &err) != CUZK_OK)
            return NULL;
        size_t n = p->chunk_sectors;
        cuzk_cs_reserve(cs, 1 + n * (p->per_sector.num_inputs - 1), n * p->per_sector.num_aux,
                        n * p->per_sector.num_constraints);
        cuzk_cs_set_stop(cs, pool_should_stop, p);
    }
    sectors(cs, p->shape, p->cfg, p->w, begin, end);
    return cs;
}

/* Appends every finished chunk whose turn has come, unless another thread is at it (it sees these chunks
 * too before it stops). Called with the lock held; the appends themselves run unlocked. */
static void join_ready(pool_t *p)
{
    if (p->joining)
        return;
    p->joining = true;
    while (p->next_join < p->nchunks && p->done[p->next_join]) {
        uint32_t c = p->next_join;
        cuzk_cs_t *cs = p->ready[c];
        p->ready[c] = NULL;
        pthread_mutex_unlock(&p->lock);
        bool ok;
        if (c == 0) {
            ok = cuzk_cs_status(p->dst, NULL) == CUZK_OK;
        } else if (!cs) {
            cuzk_cs_fail(p->dst, CUZK_ERR_NO_MEMORY, "post synthesis: out of memory for the system of sectors %u..",
                         c * p->chunk_sectors);
            ok = false;
        } else {
            ok = cuzk_cs_extend(p->dst, cs, NULL) == CUZK_OK;
        }
        pthread_mutex_lock(&p->lock);
        if (cs && cs != p->dst) {
            if (p->nspare < p->ahead)
                p->spare[p->nspare++] = cs;
            else
                cuzk_cs_free(cs);
        }
        if (!ok)
            p->failed = true;
        p->next_join++;
        pthread_cond_broadcast(&p->cond);
    }
    p->joining = false;
}

static void pool_worker(void *arg, int tid, int nthreads)
{
    (void)tid, (void)nthreads;
    pool_t *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->failed && p->next_claim < p->nchunks && p->next_claim >= p->next_join + p->ahead)
            pthread_cond_wait(&p->cond, &p->lock);
        if (p->failed || p->next_claim >= p->nchunks)
            break;
        uint32_t c = p->next_claim++;
        pthread_mutex_unlock(&p->lock);
        cuzk_cs_t *cs = chunk_synthesize(p, c);
        bool bad = !cs || cuzk_cs_status(cs, NULL) != CUZK_OK;
        pthread_mutex_lock(&p->lock);
        p->ready[c] = c == 0 ? NULL : cs;
        p->done[c] = true;
        if (bad)
            p->failed = true; /* the chunks before this one still join, then this one's failure */
        join_ready(p);
        pthread_cond_broadcast(&p->cond);
    }
    /* A failure stops the hand-out; chunks already finished still join in order, so that dst reports
     * the first failure in sector order. The last thread out joins what is left. */
    join_ready(p);
    pthread_mutex_unlock(&p->lock);
}

static void synthesize_parallel(cuzk_cs_t *cs, const cuzk_post_config_t *cfg, const cuzk_post_witness_t *w,
                                const cuzk_por_shape_t *shape, const cuzk_cs_counts_t *per, int threads)
{
    uint32_t S = cfg->sector_count;
    if (threads > (int)S)
        threads = (int)S; /* no more threads than sectors (and no overflow below) */
    uint32_t cs_per = (S + (uint32_t)threads * CHUNKS_PER_THREAD - 1) / ((uint32_t)threads * CHUNKS_PER_THREAD);
    if (cs_per > CHUNK_MAX_SECTORS)
        cs_per = CHUNK_MAX_SECTORS;
    if (cs_per < 1)
        cs_per = 1;
    pool_t p = {.dst = cs,
                .cfg = cfg,
                .w = w,
                .shape = shape,
                .per_sector = *per,
                .chunk_sectors = cs_per,
                .nchunks = (S + cs_per - 1) / cs_per,
                .ahead = (uint32_t)threads * AHEAD_PER_THREAD};
    p.ready = calloc(p.nchunks, sizeof *p.ready);
    p.done = calloc(p.nchunks, sizeof *p.done);
    p.spare = calloc(p.ahead, sizeof *p.spare);
    if (!p.ready || !p.done || !p.spare) {
        free(p.ready);
        free(p.done);
        free(p.spare);
        sectors(cs, shape, cfg, w, 0, S); /* no room for the bookkeeping: one after the other */
        return;
    }
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.cond, NULL);
    pthread_mutex_init(&p.stop_lock, NULL);
    /* dst polls through the pool too while chunk 0 is synthesized into it, so that the caller's hook is
     * never called from two threads at once */
    cuzk_cs_get_stop(cs, &p.user_stop, &p.user_stop_arg);
    cuzk_cs_set_stop(cs, pool_should_stop, &p);
    int workers = threads < (int)p.nchunks ? threads : (int)p.nchunks;
    cuzk_parallel_run(workers, pool_worker, &p);
    cuzk_cs_set_stop(cs, p.user_stop, p.user_stop_arg);
    /* chunks that finished after a failure was seen are dropped */
    for (uint32_t c = 1; c < p.nchunks; c++)
        cuzk_cs_free(p.ready[c]);
    for (uint32_t i = 0; i < p.nspare; i++)
        cuzk_cs_free(p.spare[i]);
    free(p.spare);
    pthread_mutex_destroy(&p.stop_lock);
    pthread_cond_destroy(&p.cond);
    pthread_mutex_destroy(&p.lock);
    free(p.ready);
    free(p.done);
}

/* A backend that keeps values needs every one of them: fails cs naming the first sector and challenge
 * without (the gadgets would only name a variable, numbered in whichever chunk it was in). */
static bool values_present(cuzk_cs_t *cs, const cuzk_post_config_t *cfg, const cuzk_post_witness_t *w)
{
    if (!w) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG,
                     "post synthesis: the blank circuit has no values (the backend needs them)");
        return false;
    }
    for (uint32_t s = 0; s < cfg->sector_count; s++) {
        if (!w->sectors[s].has_comms) {
            cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG,
                         "post synthesis: sector %u has no commitments (comm_r, comm_c, comm_r_last)", s);
            return false;
        }
        for (uint32_t c = 0; c < cfg->challenge_count; c++)
            if (!w->sectors[s].paths[c].has_values) {
                cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "post synthesis: sector %u, challenge %u has no path values", s,
                             c);
                return false;
            }
    }
    return true;
}

static bool same_config(const cuzk_post_config_t *a, const cuzk_post_config_t *b)
{
    return a->nodes == b->nodes && a->sector_count == b->sector_count && a->challenge_count == b->challenge_count &&
           a->base_arity == b->base_arity && a->sub_arity == b->sub_arity && a->top_arity == b->top_arity;
}

/* One blank sector's counts (inputs with ONE). */
static cuzk_status sector_counts(cuzk_cs_counts_t *out, const cuzk_por_shape_t *shape, const cuzk_post_config_t *cfg,
                                 cuzk_err_t *err)
{
    cuzk_cs_t *cs = NULL;
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_COUNT, CUZK_LC_DEFAULT, err);
    if (st != CUZK_OK)
        return st;
    sector(cs, shape, cfg->challenge_count, NULL);
    st = cuzk_cs_status(cs, err);
    cuzk_cs_counts(cs, out);
    cuzk_cs_free(cs);
    return st;
}

cuzk_status cuzk_post_synthesize(cuzk_cs_t *cs, const cuzk_post_config_t *cfg, const cuzk_post_witness_t *w,
                                 int threads, cuzk_err_t *err)
{
    cuzk_status st = cuzk_post_config_check(cfg, err);
    if (st != CUZK_OK)
        return st;
    if (w && (!same_config(&w->cfg, cfg) || !w->sectors))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post synthesize: the witness is for another configuration");
    cuzk_por_shape_t shape;
    cuzk_post_tree_shape(&shape, cfg, NULL);
    if (cuzk_cs_wants_values(cs) && !values_present(cs, cfg, w))
        return cuzk_cs_status(cs, err);
    cuzk_cs_backend b = cuzk_cs_get_backend(cs);
    bool parallel = threads > 1 && cfg->sector_count > 1 && b != CUZK_CS_HASH;
    if (parallel || (b != CUZK_CS_COUNT && b != CUZK_CS_HASH)) {
        cuzk_cs_counts_t per;
        st = sector_counts(&per, &shape, cfg, err);
        if (st != CUZK_OK)
            return st;
        /* the whole system's arrays at once: the join then appends without moving them */
        size_t S = cfg->sector_count;
        cuzk_cs_reserve(cs, 1 + S * (per.num_inputs - 1), S * per.num_aux, S * per.num_constraints);
        if (parallel) {
            synthesize_parallel(cs, cfg, w, &shape, &per, threads);
            return cuzk_cs_status(cs, err);
        }
    }
    sectors(cs, &shape, cfg, w, 0, cfg->sector_count);
    return cuzk_cs_status(cs, err);
}
