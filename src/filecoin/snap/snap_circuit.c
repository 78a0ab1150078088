/* EmptySectorUpdateCircuit::synthesize (storage-proofs-update src/circuit.rs) line by line: the packed
 * k_and_h_select input and its bits, the partition number, comm_r_old / comm_d_new / comm_r_new inputized,
 * phi, comm_c and the two tree-R roots, the apex leaves and the partition path, comm_r_old / comm_r_new
 * from comm_c, the apex tree against comm_d_new, every challenge's bits from comm_r_new, then per challenge
 * rho, the encoded leaf and its three paths — the same variables, constraints and linear combinations in
 * the same order. With threads the challenges, which all have one shape and read only variables allocated
 * before the loop (phi, the roots, the apex leaves, their bits), are synthesized at once as pieces of the
 * system (cuzk_cs_pieces_begin), each in its own place; the record, test and hash backends, which build
 * their output in order, synthesize them one after the other. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "ff/fr.h"
#include "filecoin/registry/snap_proof.h"
#include "filecoin/snap/snap_circuit.h"
#include "filecoin/snap/snap_gadgets.h"
#include "gadgets/constraint.h"
#include "gadgets/insertion.h"
#include "gadgets/multipack.h"
#include "gadgets/poseidon.h"
#include "gadgets/por_no_challenge.h"
#include "util/parallel.h"

static unsigned log2u64(uint64_t x) { return (unsigned)__builtin_ctzll(x); }

cuzk_status cuzk_snap_tree_r_shape(cuzk_por_shape_t *shape, const cuzk_snap_config_t *cfg, cuzk_err_t *err)
{
    return cuzk_por_shape_for_leaves(shape, CUZK_POR_POSEIDON, cfg->nodes, cfg->base_arity, cfg->sub_arity,
                                     cfg->top_arity, err);
}

/* Sizes of one synthesis, from the configuration. */
typedef struct {
    unsigned cbits, pbits, abits; /* challenge, partition and apex-leaf bits */
    unsigned rand_bits;           /* a challenge's random bits: cbits − pbits */
    unsigned n_sha;               /* tree-D levels from a leaf to its apex leaf */
    size_t r_sib;                 /* siblings of a tree-R path */
} dims_t;

static dims_t dims_of(const cuzk_snap_config_t *cfg, const cuzk_por_shape_t *shape)
{
    dims_t d;
    d.cbits = log2u64(cfg->nodes);
    d.pbits = log2u64(cfg->partition_count);
    d.abits = log2u64(cfg->apex_leaf_count);
    d.rand_bits = d.cbits - d.pbits;
    d.n_sha = d.cbits - d.pbits - d.abits;
    d.r_sib = cuzk_por_siblings(shape);
    return d;
}

/* n new nums, values from vals (NULL: none). */
static void alloc_nums(cuzk_cs_t *cs, cuzk_num_t *out, const cuzk_fr_t *vals, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = cuzk_num_alloc(cs, vals ? &vals[i] : NULL);
}

/* The reference's assertion that every challenge carries the partition path of challenge 0. */
static bool same_partition_path(cuzk_cs_t *cs, const cuzk_snap_config_t *cfg, const dims_t *d,
                                const cuzk_snap_witness_t *v)
{
    const cuzk_fr_t *p0 = v->challenges[0].siblings_d_new + (d->cbits - d->pbits);
    for (uint32_t c = 1; c < cfg->challenge_count; c++)
        if (d->pbits && memcmp(v->challenges[c].siblings_d_new + (d->cbits - d->pbits), p0,
                               d->pbits * sizeof(cuzk_fr_t)) != 0) {
            cuzk_cs_fail(cs, CUZK_ERR_MISMATCH,
                         "snap synthesis: challenge %u: the partition levels of the tree-D path are not challenge "
                         "0's",
                         c);
            return false;
        }
    return true;
}

/* One challenge of the loop. */
static void challenge(cuzk_cs_t *cs, const cuzk_por_shape_t *rshape, const dims_t *d,
                      const cuzk_snap_witness_t *v, uint32_t ci, const cuzk_bit_t *rand_bits,
                      const cuzk_bit_t *partition_bits, const cuzk_bit_t *h_select_bits, const uint32_t *hs,
                      const cuzk_num_t *phi, const cuzk_num_t *root_r_old, const cuzk_num_t *root_r_new,
                      const cuzk_num_t *apex_leaves, cuzk_num_t *sib)
{
    const cuzk_snap_challenge_witness_t *cw = v ? &v->challenges[ci] : NULL;
    cuzk_bit_t c_bits[64];
    memcpy(c_bits, rand_bits, d->rand_bits * sizeof *c_bits);
    memcpy(c_bits + d->rand_bits, partition_bits, d->pbits * sizeof *c_bits);

    cuzk_num_t c_high = cuzk_snap_challenge_high_bits(cs, c_bits, d->cbits, h_select_bits, hs, CUZK_SNAP_H_CHOICES);
    cuzk_num_t rho = cuzk_snap_poseidon_gen(cs, phi, &c_high);

    cuzk_num_t leaf_r_old = cuzk_num_alloc(cs, cw ? &cw->leaf_r_old : NULL);
    cuzk_num_t leaf_d_new = cuzk_num_alloc(cs, cw ? &cw->leaf_d_new : NULL);
    cuzk_num_t leaf_r_new = cuzk_snap_label_r_new(cs, &leaf_r_old, &leaf_d_new, &rho);
    /* the reference asserts that the encoding it computed is the leaf the vanilla proof gives */
    if (cw && leaf_r_new.has_value && !fr_eq(&leaf_r_new.value, &cw->leaf_r_new))
        cuzk_cs_fail(cs, CUZK_ERR_MISMATCH,
                     "snap synthesis: challenge %u: leaf_r_new is not leaf_r_old + leaf_d_new·rho", ci);

    alloc_nums(cs, sib, cw ? cw->siblings_r_old : NULL, d->r_sib);
    cuzk_por_no_challenge_input(cs, rshape, c_bits, d->cbits, &leaf_r_old, sib, root_r_old);
    alloc_nums(cs, sib, cw ? cw->siblings_r_new : NULL, d->r_sib);
    cuzk_por_no_challenge_input(cs, rshape, c_bits, d->cbits, &leaf_r_new, sib, root_r_new);

    cuzk_boolean_t apex_bits[32];
    for (unsigned i = 0; i < d->abits; i++)
        apex_bits[i] = cuzk_boolean_from_bit(c_bits[d->n_sha + i]);
    cuzk_num_t apex_leaf = cuzk_insertion_select(cs, apex_leaves, apex_bits, d->abits);

    alloc_nums(cs, sib, cw ? cw->siblings_d_new : NULL, d->n_sha);
    cuzk_por_shape_t dshape = {.hasher = CUZK_POR_SHA256, .base_arity = 2, .base_levels = d->n_sha};
    cuzk_por_no_challenge_input(cs, &dshape, c_bits, d->n_sha, &leaf_d_new, sib, &apex_leaf);
}

/* What every challenge uses, allocated before the loop. */
typedef struct {
    dims_t d;
    uint32_t hs[CUZK_SNAP_H_CHOICES];
    cuzk_bit_t sel_bits[64];  /* k_and_h_select's bits: the partition's, then the h select's */
    cuzk_bit_t *gen;          /* every challenge's random bits, rand_bits each */
    cuzk_num_t *apex;         /* the apex leaves */
    cuzk_num_t phi, root_r_old, root_r_new;
} prefix_t;

static void prefix_free(prefix_t *pre)
{
    free(pre->gen);
    free(pre->apex);
}

/* Everything before the challenge loop, into cs; *pre holds what the challenges use (free it with
 * prefix_free, whatever happens). cfg and rshape checked; v NULL (blank) or a witness with values of cfg
 * whose k is in range. False when cs failed. */
static bool prefix(cuzk_cs_t *cs, const cuzk_snap_config_t *cfg, const cuzk_por_shape_t *rshape,
                   const cuzk_snap_witness_t *v, prefix_t *pre)
{
    *pre = (prefix_t){.d = dims_of(cfg, rshape)};
    const dims_t *d = &pre->d;
    cuzk_snap_hs(cfg->nodes, pre->hs);
    if (v && !same_partition_path(cs, cfg, d, v))
        return false;
    pre->gen = malloc((size_t)cfg->challenge_count * d->rand_bits * sizeof *pre->gen);
    pre->apex = malloc(cfg->apex_leaf_count * sizeof *pre->apex);
    cuzk_num_t *part_path = malloc((d->pbits ? d->pbits : 1) * sizeof *part_path);
    if (!pre->gen || !pre->apex || !part_path) {
        free(part_path);
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "snap synthesis: out of memory for the challenge bits and paths");
        return false;
    }

    /* k_and_h_select, inputized, and its partition and h-select bits */
    unsigned nsel = d->pbits + CUZK_SNAP_H_CHOICES;
    /* circuit.rs PublicInputs::new: k in the low bits, h_select one-hot above */
    uint64_t khs = v ? (uint64_t)v->k | cuzk_fc_snap_h_select(cfg) << d->pbits : 0;
    fr f_khs;
    fr_from_u64(&f_khs, khs);
    cuzk_num_t k_and_h_select = cuzk_num_alloc(cs, v ? &f_khs : NULL);
    cuzk_num_inputize(cs, &k_and_h_select);
    for (unsigned i = 0; i < nsel; i++)
        pre->sel_bits[i] =
            cuzk_bit_alloc(cs, k_and_h_select.has_value ? (int)((khs >> i) & 1) : CUZK_BIT_UNKNOWN);
    cuzk_snap_enforce_bits(cs, pre->sel_bits, nsel, &k_and_h_select);
    const cuzk_bit_t *partition_bits = pre->sel_bits;
    cuzk_boolean_t pb[32];
    for (unsigned i = 0; i < d->pbits; i++)
        pb[i] = cuzk_boolean_from_bit(partition_bits[i]);
    cuzk_num_t partition = cuzk_multipack_pack_bits(cs, pb, d->pbits);

    cuzk_num_t comm_r_old = cuzk_num_alloc(cs, v ? &v->comm_r_old : NULL);
    cuzk_num_inputize(cs, &comm_r_old);
    cuzk_num_t comm_d_new = cuzk_num_alloc(cs, v ? &v->comm_d_new : NULL);
    cuzk_num_inputize(cs, &comm_d_new);
    cuzk_num_t comm_r_new = cuzk_num_alloc(cs, v ? &v->comm_r_new : NULL);
    cuzk_num_inputize(cs, &comm_r_new);

    pre->phi = cuzk_snap_poseidon_gen(cs, &comm_d_new, &comm_r_old);

    cuzk_num_t comm_c = cuzk_num_alloc(cs, v ? &v->comm_c : NULL);
    pre->root_r_old = cuzk_num_alloc(cs, v ? &v->root_r_old : NULL);
    pre->root_r_new = cuzk_num_alloc(cs, v ? &v->root_r_new : NULL);
    alloc_nums(cs, pre->apex, v ? v->apex_leaves : NULL, cfg->apex_leaf_count);
    /* the partition path: the top pbits levels of challenge 0's tree-D path */
    alloc_nums(cs, part_path, v ? v->challenges[0].siblings_d_new + (d->cbits - d->pbits) : NULL, d->pbits);

    cuzk_num_t hashed[2] = {comm_c, pre->root_r_old}, calc;
    cuzk_poseidon_circuit(cs, &calc, 2, hashed);
    cuzk_constraint_equal(cs, &calc, &comm_r_old);
    hashed[1] = pre->root_r_new;
    cuzk_poseidon_circuit(cs, &calc, 2, hashed);
    cuzk_constraint_equal(cs, &calc, &comm_r_new);

    cuzk_snap_apex_por(cs, pre->apex, cfg->apex_leaf_count, partition_bits, d->pbits, part_path, &comm_d_new);
    free(part_path);

    cuzk_snap_gen_challenge_bits(cs, &comm_r_new, &partition, cfg->challenge_count, d->rand_bits, pre->gen);
    return cuzk_cs_status(cs, NULL) == CUZK_OK;
}

/* Challenges [from, to) of the loop into cs (the system of the prefix, or a piece of it). */
static void challenges(cuzk_cs_t *cs, const cuzk_por_shape_t *rshape, const prefix_t *pre,
                       const cuzk_snap_witness_t *v, uint32_t from, uint32_t to)
{
    const dims_t *d = &pre->d;
    size_t n_sib = d->r_sib > d->n_sha ? d->r_sib : d->n_sha;
    cuzk_num_t *sib = malloc(n_sib * sizeof *sib);
    if (!sib) {
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "snap synthesis: out of memory for a challenge's paths");
        return;
    }
    for (uint32_t c = from; c < to && !cuzk_cs_poll_stop(cs) && cuzk_cs_status(cs, NULL) == CUZK_OK; c++)
        challenge(cs, rshape, d, v, c, pre->gen + (size_t)c * d->rand_bits, pre->sel_bits,
                  pre->sel_bits + d->pbits, pre->hs, &pre->phi, &pre->root_r_old, &pre->root_r_new, pre->apex, sib);
    free(sib);
}

/* The circuit with only challenges [0, count) of the loop (all: cfg->challenge_count), into cs. */
static void synthesize_sequential(cuzk_cs_t *cs, const cuzk_snap_config_t *cfg, const cuzk_por_shape_t *rshape,
                                  const cuzk_snap_witness_t *v, uint32_t count)
{
    prefix_t pre;
    if (prefix(cs, cfg, rshape, v, &pre))
        challenges(cs, rshape, &pre, v, 0, count);
    prefix_free(&pre);
}

/* ---- challenges in parallel: one piece each (cuzk_cs_pieces_begin) ---- */

typedef struct {
    cuzk_cs_t *cs;
    const cuzk_por_shape_t *rshape;
    const prefix_t *pre;
    const cuzk_snap_witness_t *v;
    atomic_bool failed; /* a piece failed: the others are not started */
} pieces_job_t;

static void piece_worker(void *arg, size_t begin, size_t end)
{
    pieces_job_t *job = arg;
    for (size_t c = begin; c < end && !atomic_load(&job->failed); c++) {
        cuzk_cs_t *piece = NULL;
        if (cuzk_cs_piece_open(&piece, job->cs, c, 1, NULL) != CUZK_OK) {
            atomic_store(&job->failed, true); /* noted in the pieces: cuzk_cs_pieces_end reports it */
            return;
        }
        challenges(piece, job->rshape, job->pre, job->v, (uint32_t)c, (uint32_t)c + 1);
        if (cuzk_cs_piece_close(job->cs, piece) != CUZK_OK)
            atomic_store(&job->failed, true);
    }
}

/* The whole circuit with the challenges on `threads` threads; per: one challenge's counts. */
static void synthesize_parallel(cuzk_cs_t *cs, const cuzk_snap_config_t *cfg, const cuzk_por_shape_t *rshape,
                                const cuzk_snap_witness_t *v, const cuzk_cs_counts_t *per, int threads)
{
    prefix_t pre;
    if (prefix(cs, cfg, rshape, v, &pre) &&
        cuzk_cs_pieces_begin(cs, cfg->challenge_count, per->num_inputs, per->num_aux, per->num_constraints, NULL) == CUZK_OK) {
        pieces_job_t job = {.cs = cs, .rshape = rshape, .pre = &pre, .v = v};
        atomic_init(&job.failed, false);
        cuzk_parallel_for(threads, cfg->challenge_count, 1, piece_worker, &job);
        cuzk_cs_pieces_end(cs, NULL); /* a failure is cs's: the caller reads it */
    }
    prefix_free(&pre);
}

static bool same_config(const cuzk_snap_config_t *a, const cuzk_snap_config_t *b)
{
    return a->nodes == b->nodes && a->partition_count == b->partition_count &&
           a->challenge_count == b->challenge_count && a->apex_leaf_count == b->apex_leaf_count && a->h == b->h &&
           a->base_arity == b->base_arity && a->sub_arity == b->sub_arity && a->top_arity == b->top_arity;
}

/* Counts of the blank circuit before its challenge loop (*before) and of one challenge (*per): every
 * challenge has the same shape. */
static cuzk_status loop_counts(cuzk_cs_counts_t *before, cuzk_cs_counts_t *per, const cuzk_snap_config_t *cfg,
                               const cuzk_por_shape_t *rshape, cuzk_err_t *err)
{
    cuzk_cs_t *cs = NULL;
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_COUNT, CUZK_LC_DEFAULT, err);
    if (st != CUZK_OK)
        return st;
    prefix_t pre;
    cuzk_cs_counts_t after;
    if (prefix(cs, cfg, rshape, NULL, &pre)) {
        cuzk_cs_counts(cs, before);
        challenges(cs, rshape, &pre, NULL, 0, 1);
        cuzk_cs_counts(cs, &after);
    }
    prefix_free(&pre);
    st = cuzk_cs_status(cs, err);
    cuzk_cs_free(cs);
    if (st == CUZK_OK)
        *per = (cuzk_cs_counts_t){.num_inputs = after.num_inputs - before->num_inputs,
                                  .num_aux = after.num_aux - before->num_aux,
                                  .num_constraints = after.num_constraints - before->num_constraints};
    return st;
}

/* loop_counts, remembered per configuration: they depend on nothing else, and at 8MiB and above the part
 * before the loop (the 128-leaf apex tree) is 5.8M constraints to count again for every partition. */
#define COUNTS_KEPT 8
static struct {
    cuzk_snap_config_t cfg;
    cuzk_cs_counts_t before, per;
} counts_kept[COUNTS_KEPT];
static size_t n_counts_kept;
static pthread_mutex_t counts_lock = PTHREAD_MUTEX_INITIALIZER;

static cuzk_status loop_counts_kept(cuzk_cs_counts_t *before, cuzk_cs_counts_t *per, const cuzk_snap_config_t *cfg,
                                    const cuzk_por_shape_t *rshape, cuzk_err_t *err)
{
    pthread_mutex_lock(&counts_lock);
    for (size_t i = 0; i < n_counts_kept; i++)
        if (same_config(&counts_kept[i].cfg, cfg)) {
            *before = counts_kept[i].before, *per = counts_kept[i].per;
            pthread_mutex_unlock(&counts_lock);
            return CUZK_OK;
        }
    pthread_mutex_unlock(&counts_lock);
    cuzk_status st = loop_counts(before, per, cfg, rshape, err);
    pthread_mutex_lock(&counts_lock);
    if (st == CUZK_OK && n_counts_kept < COUNTS_KEPT) { /* a second thread may add the same: harmless */
        counts_kept[n_counts_kept].cfg = *cfg;
        counts_kept[n_counts_kept].before = *before, counts_kept[n_counts_kept].per = *per;
        n_counts_kept++;
    }
    pthread_mutex_unlock(&counts_lock);
    return st;
}

cuzk_status cuzk_snap_synthesize(cuzk_cs_t *cs, const cuzk_snap_config_t *cfg, const cuzk_snap_witness_t *w,
                                 int threads, cuzk_err_t *err)
{
    cuzk_status st = cuzk_snap_config_check(cfg, err);
    if (st != CUZK_OK)
        return st;
    cuzk_por_shape_t shape;
    if ((st = cuzk_snap_tree_r_shape(&shape, cfg, err)) != CUZK_OK)
        return st;
    if (w && (!w->storage_ || !same_config(&w->cfg, cfg)))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap synthesize: the witness is for another configuration");
    const cuzk_snap_witness_t *v = w && w->has_values ? w : NULL;
    if (v && v->k >= cfg->partition_count)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap synthesize: partition %u of a sector of %u partitions",
                            v->k, cfg->partition_count);
    if (cuzk_cs_wants_values(cs) && !v) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG,
                     w ? "snap synthesis: the witness has no values (the backend needs them)"
                       : "snap synthesis: the blank circuit has no values (the backend needs them)");
        return cuzk_cs_status(cs, err);
    }
    if (!cuzk_cs_wants_values(cs))
        v = NULL; /* the backend keeps none: the blank circuit's shape */
    cuzk_cs_backend b = cuzk_cs_get_backend(cs);
    bool parallel = threads > 1 && cfg->challenge_count > 1 && cuzk_cs_supports_pieces(cs);
    if (!parallel && (b == CUZK_CS_COUNT || b == CUZK_CS_HASH)) {
        synthesize_sequential(cs, cfg, &shape, v, cfg->challenge_count);
        return cuzk_cs_status(cs, err);
    }
    cuzk_cs_counts_t before, per;
    if ((st = loop_counts_kept(&before, &per, cfg, &shape, err)) != CUZK_OK)
        return st;
    if (parallel) {
        synthesize_parallel(cs, cfg, &shape, v, &per, threads);
    } else {
        size_t n = cfg->challenge_count;
        cuzk_cs_reserve(cs, before.num_inputs + n * per.num_inputs, before.num_aux + n * per.num_aux,
                        before.num_constraints + n * per.num_constraints);
        synthesize_sequential(cs, cfg, &shape, v, cfg->challenge_count);
    }
    return cuzk_cs_status(cs, err);
}
