/* EmptySectorUpdateCircuit::synthesize (storage-proofs-update src/circuit.rs) line by line: the packed
 * k_and_h_select input and its bits, the partition number, comm_r_old / comm_d_new / comm_r_new inputized,
 * phi, comm_c and the two tree-R roots, the apex leaves and the partition path, comm_r_old / comm_r_new
 * from comm_c, the apex tree against comm_d_new, every challenge's bits from comm_r_new, then per challenge
 * rho, the encoded leaf and its three paths — the same variables, constraints and linear combinations in
 * the same order. Synthesis is sequential: every challenge reads variables allocated before the loop (phi,
 * the roots, the apex leaves, its bits), so challenges cannot be synthesized as parts of their own and
 * joined (cuzk_cs_extend joins parts that share no variable but ONE). */
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

/* The circuit with only challenges [0, challenges) of the loop (all: cfg->challenge_count); everything
 * before the loop, the bits of every challenge included, is the same. cfg and rshape checked; v NULL (blank)
 * or a witness with values of cfg whose k is in range. */
static void synthesize_part(cuzk_cs_t *cs, const cuzk_snap_config_t *cfg, const cuzk_por_shape_t *rshape,
                            const cuzk_snap_witness_t *v, uint32_t challenges)
{
    dims_t d = dims_of(cfg, rshape);
    uint32_t hs[CUZK_SNAP_H_CHOICES];
    cuzk_snap_hs(cfg->nodes, hs);
    if (v && !same_partition_path(cs, cfg, &d, v))
        return;

    size_t n_gen = (size_t)cfg->challenge_count * d.rand_bits;
    size_t n_sib = d.r_sib > d.n_sha ? d.r_sib : d.n_sha;
    cuzk_bit_t *gen = malloc(n_gen * sizeof *gen);
    cuzk_num_t *apex = malloc(cfg->apex_leaf_count * sizeof *apex);
    cuzk_num_t *sib = malloc((n_sib > d.pbits ? n_sib : d.pbits) * sizeof *sib);
    if (!gen || !apex || !sib) {
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "snap synthesis: out of memory for the challenge bits and paths");
        goto out;
    }

    /* k_and_h_select, inputized, and its partition and h-select bits */
    unsigned nsel = d.pbits + CUZK_SNAP_H_CHOICES;
    /* circuit.rs PublicInputs::new: k in the low bits, h_select one-hot above */
    uint64_t khs = v ? (uint64_t)v->k | cuzk_fc_snap_h_select(cfg) << d.pbits : 0;
    fr f_khs;
    fr_from_u64(&f_khs, khs);
    cuzk_num_t k_and_h_select = cuzk_num_alloc(cs, v ? &f_khs : NULL);
    cuzk_num_inputize(cs, &k_and_h_select);
    cuzk_bit_t sel_bits[64];
    for (unsigned i = 0; i < nsel; i++)
        sel_bits[i] = cuzk_bit_alloc(cs, k_and_h_select.has_value ? (int)((khs >> i) & 1) : CUZK_BIT_UNKNOWN);
    cuzk_snap_enforce_bits(cs, sel_bits, nsel, &k_and_h_select);
    const cuzk_bit_t *partition_bits = sel_bits, *h_select_bits = sel_bits + d.pbits;
    cuzk_boolean_t pb[32];
    for (unsigned i = 0; i < d.pbits; i++)
        pb[i] = cuzk_boolean_from_bit(partition_bits[i]);
    cuzk_num_t partition = cuzk_multipack_pack_bits(cs, pb, d.pbits);

    cuzk_num_t comm_r_old = cuzk_num_alloc(cs, v ? &v->comm_r_old : NULL);
    cuzk_num_inputize(cs, &comm_r_old);
    cuzk_num_t comm_d_new = cuzk_num_alloc(cs, v ? &v->comm_d_new : NULL);
    cuzk_num_inputize(cs, &comm_d_new);
    cuzk_num_t comm_r_new = cuzk_num_alloc(cs, v ? &v->comm_r_new : NULL);
    cuzk_num_inputize(cs, &comm_r_new);

    cuzk_num_t phi = cuzk_snap_poseidon_gen(cs, &comm_d_new, &comm_r_old);

    cuzk_num_t comm_c = cuzk_num_alloc(cs, v ? &v->comm_c : NULL);
    cuzk_num_t root_r_old = cuzk_num_alloc(cs, v ? &v->root_r_old : NULL);
    cuzk_num_t root_r_new = cuzk_num_alloc(cs, v ? &v->root_r_new : NULL);
    alloc_nums(cs, apex, v ? v->apex_leaves : NULL, cfg->apex_leaf_count);
    /* the partition path: the top pbits levels of challenge 0's tree-D path */
    alloc_nums(cs, sib, v ? v->challenges[0].siblings_d_new + (d.cbits - d.pbits) : NULL, d.pbits);

    cuzk_num_t pre[2] = {comm_c, root_r_old}, calc;
    cuzk_poseidon_circuit(cs, &calc, 2, pre);
    cuzk_constraint_equal(cs, &calc, &comm_r_old);
    pre[1] = root_r_new;
    cuzk_poseidon_circuit(cs, &calc, 2, pre);
    cuzk_constraint_equal(cs, &calc, &comm_r_new);

    cuzk_snap_apex_por(cs, apex, cfg->apex_leaf_count, partition_bits, d.pbits, sib, &comm_d_new);

    cuzk_snap_gen_challenge_bits(cs, &comm_r_new, &partition, cfg->challenge_count, d.rand_bits, gen);

    for (uint32_t c = 0; c < challenges && !cuzk_cs_poll_stop(cs) && cuzk_cs_status(cs, NULL) == CUZK_OK; c++)
        challenge(cs, rshape, &d, v, c, gen + (size_t)c * d.rand_bits, partition_bits, h_select_bits, hs, &phi,
                  &root_r_old, &root_r_new, apex, sib);
out:
    free(gen);
    free(apex);
    free(sib);
}

static bool same_config(const cuzk_snap_config_t *a, const cuzk_snap_config_t *b)
{
    return a->nodes == b->nodes && a->partition_count == b->partition_count &&
           a->challenge_count == b->challenge_count && a->apex_leaf_count == b->apex_leaf_count && a->h == b->h &&
           a->base_arity == b->base_arity && a->sub_arity == b->sub_arity && a->top_arity == b->top_arity;
}

/* Counts of the blank circuit with its first `challenges` challenges. */
static cuzk_status part_counts(cuzk_cs_counts_t *out, const cuzk_snap_config_t *cfg, const cuzk_por_shape_t *shape,
                               uint32_t challenges, cuzk_err_t *err)
{
    cuzk_cs_t *cs = NULL;
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_COUNT, CUZK_LC_DEFAULT, err);
    if (st != CUZK_OK)
        return st;
    synthesize_part(cs, cfg, shape, NULL, challenges);
    st = cuzk_cs_status(cs, err);
    cuzk_cs_counts(cs, out);
    cuzk_cs_free(cs);
    return st;
}

/* Reserves the whole system's arrays: the part before the loop and one challenge counted, the rest the
 * same challenge again (each challenge has the same shape). */
static cuzk_status reserve(cuzk_cs_t *cs, const cuzk_snap_config_t *cfg, const cuzk_por_shape_t *shape,
                           cuzk_err_t *err)
{
    cuzk_cs_counts_t c0, c1;
    cuzk_status st = part_counts(&c0, cfg, shape, 0, err);
    if (st == CUZK_OK)
        st = part_counts(&c1, cfg, shape, 1, err);
    if (st != CUZK_OK)
        return st;
    size_t n = cfg->challenge_count;
    cuzk_cs_reserve(cs, c0.num_inputs, c0.num_aux + n * (c1.num_aux - c0.num_aux),
                    c0.num_constraints + n * (c1.num_constraints - c0.num_constraints));
    return CUZK_OK;
}

cuzk_status cuzk_snap_synthesize(cuzk_cs_t *cs, const cuzk_snap_config_t *cfg, const cuzk_snap_witness_t *w,
                                 int threads, cuzk_err_t *err)
{
    (void)threads; /* sequential: see the file comment */
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
    if (b != CUZK_CS_COUNT && b != CUZK_CS_HASH && (st = reserve(cs, cfg, &shape, err)) != CUZK_OK)
        return st;
    synthesize_part(cs, cfg, &shape, v, cfg->challenge_count);
    return cuzk_cs_status(cs, err);
}
