/* The Groth16 prover (bellperson's create_proof_batch): for each circuit, H from 7 NTTs, then the
 * five MSMs (h, l, a, b_g1, b_g2) over the key's points, then the blinding with fresh r, s:
 *   A = α + Σa + r·δ,  B = β + Σb + s·δ (in G2 and G1),  C = s·A + r·B₁ − r·s·δ + H + L.
 * Two memory plans: cuzk_groth16_prove copies the witnesses into scratch shared by a batch; the
 * consuming prover works in the witness's own arrays (a 32GiB PoRep partition: A·z, B·z and the
 * assignment, 12.6 GB, plus one domain array for C·z, 4.3 GB). */
#define _GNU_SOURCE /* madvise */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cuzk/msm.h"
#include "cuzk/ntt.h"
#include "ec/ec.h"
#include "groth16/groth16_internal.h"
#include "util/parallel.h"
#include "util/timer.h"
#include "util/timing.h"
#include "util/bigmem.h"

/* Scratch shared by the circuits of one call (all of one key, so all of one size). */
typedef struct {
    fr *a, *b, *c;          /* m elements each: the H computation */
    cuzk_scalar_t *z;       /* inputs then aux, canonical: the MSM scalars */
} prove_scratch;

/* The MSM sums of one circuit, before blinding. */
typedef struct {
    g1_jac h, l, a, b1;
    g2_jac b2;
} msm_sums;

static size_t words_for(size_t bits) { return (bits + 63) / 64; }

static size_t count_or_all(const uint64_t *bits, size_t nbits)
{
    return bits ? g16_popcount(bits, nbits) : nbits;
}

/* Every witness must fit the key exactly: bellperson's length rules. */
static cuzk_status check_witness(const cuzk_groth16_pk_t *pk, const cuzk_groth16_witness_t *w,
                                 size_t index, cuzk_groth16_h_mode mode, cuzk_err_t *err)
{
    size_t ni = w->num_inputs, na = w->num_aux;
    if (ni == 0 || !w->input || (na && !w->aux) ||
        (w->num_constraints && (!w->a || !w->b)))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "circuit %zu: missing witness arrays", index);
    if (!fr_eq(&w->input[0], &FR_ONE))
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "circuit %zu: input 0 (ONE) is not 1", index);
    size_t rows = w->num_constraints + ni;
    if (rows > ((size_t)1 << CUZK_NTT_MAX_LOG))
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "circuit %zu: %zu rows exceed the largest domain",
                            index, rows);
    size_t m = (size_t)1 << g16_log2_ceil(rows);
    size_t want_h = mode == CUZK_GROTH16_H_ODD_ROOTS ? m : m - 1;
    size_t want_a = ni + count_or_all(w->a_aux_density, na);
    size_t want_b = count_or_all(w->b_input_density, ni) + count_or_all(w->b_aux_density, na);
    const char *what = NULL;
    size_t have = 0, want = 0;
    if (pk->vk.ic_len != ni)
        what = "ic (inputs)", have = pk->vk.ic_len, want = ni;
    else if (pk->l_len != na)
        what = "l (aux)", have = pk->l_len, want = na;
    else if (pk->h_len != want_h)
        what = "h (domain)", have = pk->h_len, want = want_h;
    else if (pk->a_len != want_a)
        what = "a (A density)", have = pk->a_len, want = want_a;
    else if (pk->b_g1_len != want_b)
        what = "b_g1 (B density)", have = pk->b_g1_len, want = want_b;
    else if (pk->b_g2_len != want_b)
        what = "b_g2 (B density)", have = pk->b_g2_len, want = want_b;
    if (what)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "circuit %zu does not match the parameters: %s has %zu points, the circuit needs %zu",
                            index, what, have, want);
    return CUZK_OK;
}

/* pos (row_position, h_source) must map its n entries into 0..m−1, no two to one position. */
static cuzk_status check_positions(const char *name, const uint32_t *pos, size_t rows, size_t m, cuzk_err_t *err)
{
    uint64_t *seen = calloc(words_for(m), sizeof *seen);
    if (!seen)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory (row positions)");
    cuzk_status st = CUZK_OK;
    for (size_t k = 0; k < rows && st == CUZK_OK; k++) {
        if (pos[k] >= m || ((seen[pos[k] / 64] >> (pos[k] % 64)) & 1))
            st = cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%s[%zu] = %u is out of range or repeated", name, k,
                              pos[k]);
        else
            seen[pos[k] / 64] |= 1ull << (pos[k] % 64);
    }
    free(seen);
    return st;
}

/* The caller's stop request, polled between phases. */
static cuzk_status stop_check(const cuzk_groth16_prove_opts *o)
{
    return o->should_stop && o->should_stop(o->stop_arg) ? CUZK_ERR_CANCELLED : CUZK_OK;
}

/* The h MSM over H's m (or m − 1) scalars; then: the section streamed after it (NULL: none). */
static cuzk_status msm_h(g1_jac *out, const cuzk_groth16_pk_t *pk, const cuzk_scalar_t *h,
                         const g16_section_scalars *then, g16_msm_source *src, cuzk_err_t *err)
{
    g16_msm_segment seg = {h, pk->h_len, NULL};
    uint64_t t = cuzk_now_ns();
    cuzk_status st = g16_section_msm(out, G16_SEC_H, pk->h, pk->h_len, &seg, 1, then, src, err);
    cuzk_timing_report("msm_h", t);
    return st;
}

/* The MSMs over the assignment, in the order they run: inputs and aux as two runs of scalars, each with
 * its density (the key's compact arrays hold the inputs' bases first). b_g1 comes first: where nothing
 * read its start ahead, the sparse b sections' pieces (a quarter of their scalars take bases at 32GiB)
 * cost the least to wait for; then b_g2, l and a. The runs point into the plan: it stays where it was
 * made. */
typedef struct {
    void *out;
    g16_section_scalars s;
    const void *bases;
    size_t n_bases;
    const char *phase;
} z_run;

#define Z_RUNS 4
typedef struct {
    g16_msm_segment l[1], a[2], b[2];
    z_run run[Z_RUNS];
} z_plan;

static void z_plan_init(z_plan *p, msm_sums *sums, const cuzk_groth16_pk_t *pk, const cuzk_groth16_witness_t *w,
                        const cuzk_scalar_t *z_in, const cuzk_scalar_t *z_aux)
{
    size_t ni = w->num_inputs, na = w->num_aux;
    p->l[0] = (g16_msm_segment){z_aux, na, NULL};
    p->a[0] = (g16_msm_segment){z_in, ni, NULL};
    p->a[1] = (g16_msm_segment){z_aux, na, w->a_aux_density};
    p->b[0] = (g16_msm_segment){z_in, ni, w->b_input_density};
    p->b[1] = (g16_msm_segment){z_aux, na, w->b_aux_density};
    p->run[0] = (z_run){&sums->b1, {G16_SEC_B_G1, p->b, 2}, pk->b_g1, pk->b_g1_len, "msm_b_g1"};
    p->run[1] = (z_run){&sums->b2, {G16_SEC_B_G2, p->b, 2}, pk->b_g2, pk->b_g2_len, "msm_b_g2"};
    p->run[2] = (z_run){&sums->l, {G16_SEC_L, p->l, 1}, pk->l, pk->l_len, "msm_l"};
    p->run[3] = (z_run){&sums->a, {G16_SEC_A, p->a, 2}, pk->a, pk->a_len, "msm_a"};
}

/* The plan's MSMs, each streamed section reading the next one's first piece ahead (the last, nothing). */
static cuzk_status msm_z(const z_plan *p, g16_msm_source *src, const cuzk_groth16_prove_opts *o, cuzk_err_t *err)
{
    for (size_t k = 0; k < Z_RUNS; k++) {
        if (stop_check(o) != CUZK_OK)
            return cuzk_err_set(err, CUZK_ERR_CANCELLED, "cancelled");
        uint64_t t = cuzk_now_ns();
        const g16_section_scalars *s = &p->run[k].s;
        cuzk_status st = g16_section_msm(p->run[k].out, s->sec, p->run[k].bases, p->run[k].n_bases, s->segs,
                                         s->nsegs, k + 1 < Z_RUNS ? &p->run[k + 1].s : NULL, src, err);
        if (st != CUZK_OK)
            return st;
        cuzk_timing_report(p->run[k].phase, t);
    }
    return CUZK_OK;
}

/* Every MSM of a copied witness: H is in s->a (s->b is free once H is computed: same size and
 * alignment as scalars); the assignment's first section is read ahead during h's last piece. */
static cuzk_status run_msms(msm_sums *sums, const cuzk_groth16_pk_t *pk, const cuzk_groth16_witness_t *w,
                            prove_scratch *s, const cuzk_groth16_prove_opts *o, g16_msm_source *src,
                            cuzk_err_t *err)
{
    size_t ni = w->num_inputs, na = w->num_aux;
    cuzk_scalar_t *h_scalars = (cuzk_scalar_t *)(o->h_source ? s->b : s->a);
    g16_to_scalars_gather(h_scalars, s->a, o->h_source, pk->h_len, src->threads);
    g16_to_scalars(s->z, w->input, ni, src->threads);
    g16_to_scalars(s->z + ni, w->aux, na, src->threads);
    if (stop_check(o) != CUZK_OK)
        return cuzk_err_set(err, CUZK_ERR_CANCELLED, "cancelled");
    z_plan zp;
    z_plan_init(&zp, sums, pk, w, s->z, s->z + ni);
    cuzk_status st = msm_h(&sums->h, pk, h_scalars, &zp.run[0].s, src, err);
    return st == CUZK_OK ? msm_z(&zp, src, o, err) : st;
}

/* Blinds the sums into the proof with r and s (secret: constant-time multiplications, wiped). */
static void blind(cuzk_groth16_proof_t *proof, const cuzk_groth16_vk_t *vk, const msm_sums *sums,
                  const fr *r, const fr *s)
{
    cuzk_scalar_t r_s, s_s, rs_s;
    fr rs;
    fr_mul(&rs, r, s);
    fr_to_scalar(&r_s, r);
    fr_to_scalar(&s_s, s);
    fr_to_scalar(&rs_s, &rs);

    g1_jac delta1, a, b1, c, t;
    g2_jac delta2, b2;
    g1_jac_from_aff(&delta1, &vk->delta_g1);
    g2_jac_from_aff(&delta2, &vk->delta_g2);

    g1_jac_mul_ct(&a, &delta1, &r_s);              /* A = α + Σa + r·δ */
    g1_jac_add_aff(&a, &a, &vk->alpha_g1);
    g1_jac_add(&a, &a, &sums->a);

    g2_jac_mul_ct(&b2, &delta2, &s_s);             /* B = β + Σb + s·δ */
    g2_jac_add_aff(&b2, &b2, &vk->beta_g2);
    g2_jac_add(&b2, &b2, &sums->b2);
    g1_jac_mul_ct(&b1, &delta1, &s_s);
    g1_jac_add_aff(&b1, &b1, &vk->beta_g1);
    g1_jac_add(&b1, &b1, &sums->b1);

    g1_jac_mul_ct(&c, &a, &s_s);                   /* C = s·A + r·B₁ − r·s·δ + H + L */
    g1_jac_mul_ct(&t, &b1, &r_s);
    g1_jac_add(&c, &c, &t);
    g1_jac_mul_ct(&t, &delta1, &rs_s);
    g1_jac_neg(&t, &t);
    g1_jac_add(&c, &c, &t);
    g1_jac_add(&c, &c, &sums->h);
    g1_jac_add(&c, &c, &sums->l);

    g1_jac_to_aff(&proof->a, &a);
    g2_jac_to_aff(&proof->b, &b2);
    g1_jac_to_aff(&proof->c, &c);
    g16_wipe(&r_s, sizeof r_s);
    g16_wipe(&s_s, sizeof s_s);
    g16_wipe(&rs_s, sizeof rs_s);
    g16_wipe(&rs, sizeof rs);
    g16_wipe(&b1, sizeof b1);
    g16_wipe(&t, sizeof t);
}

static void scratch_free(prove_scratch *s)
{
    free(s->a);
    free(s->b);
    free(s->c);
    free(s->z);
}

static cuzk_status scratch_alloc(prove_scratch *s, size_t m, size_t nz)
{
    s->a = cuzk_big_malloc(m * sizeof(fr));
    s->b = cuzk_big_malloc(m * sizeof(fr));
    s->c = cuzk_big_malloc(m * sizeof(fr));
    s->z = cuzk_big_malloc((nz ? nz : 1) * sizeof(cuzk_scalar_t));
    if (!s->a || !s->b || !s->c || !s->z)
        return CUZK_ERR_NO_MEMORY;
    return CUZK_OK;
}

/* The blinding of a proof's sums: r and s fixed (tests) or drawn, wiped after. */
static cuzk_status finish_proof(cuzk_groth16_proof_t *proof, const cuzk_groth16_pk_t *pk, const msm_sums *sums,
                                const fr *fixed_r, const fr *fixed_s, cuzk_err_t *err)
{
    cuzk_status st;
    uint64_t t;
    fr r, sv;
    if (fixed_r && fixed_s) {
        r = *fixed_r;
        sv = *fixed_s;
    } else if ((st = g16_random_fr(&r, err)) != CUZK_OK || (st = g16_random_fr(&sv, err)) != CUZK_OK) {
        g16_wipe(&r, sizeof r);
        return st;
    }
    t = cuzk_now_ns();
    blind(proof, &pk->vk, sums, &r, &sv);
    cuzk_timing_report("blind", t);
    g16_wipe(&r, sizeof r);
    g16_wipe(&sv, sizeof sv);
    return CUZK_OK;
}

static cuzk_status prove_one(cuzk_groth16_proof_t *proof, const cuzk_groth16_pk_t *pk,
                             const cuzk_groth16_witness_t *w, const cuzk_groth16_prove_opts *o,
                             const fr *fixed_r, const fr *fixed_s, prove_scratch *s, int threads, cuzk_err_t *err)
{
    unsigned log_m = g16_log2_ceil(w->num_constraints + w->num_inputs);
    cuzk_status st = stop_check(o);
    if (st != CUZK_OK)
        return cuzk_err_set(err, st, "cancelled");
    uint64_t t = cuzk_now_ns();
    st = g16_h_compute(s->a, s->b, s->c, log_m, w, o->h_mode, o->row_position, threads);
    if (st != CUZK_OK)
        return cuzk_err_set(err, st, "H polynomial: %s", cuzk_status_str(st));
    cuzk_timing_report("ntt", t);

    msm_sums sums;
    g16_msm_source src = {.params = o->params, .piece_points = o->stream_points, .threads = threads};
    st = run_msms(&sums, pk, w, s, o, &src, err);
    g16_msm_source_release(&src);
    return st == CUZK_OK ? finish_proof(proof, pk, &sums, fixed_r, fixed_s, err) : st;
}

cuzk_status cuzk_groth16_prove(cuzk_groth16_proof_t *proofs, const cuzk_groth16_pk_t *pk,
                               const cuzk_groth16_witness_t *witnesses, size_t n,
                               const cuzk_groth16_prove_opts *opts, cuzk_err_t *err)
{
    return g16_prove_blinded(proofs, pk, witnesses, n, opts, NULL, NULL, err);
}

cuzk_status g16_prove_blinded(cuzk_groth16_proof_t *proofs, const cuzk_groth16_pk_t *pk,
                              const cuzk_groth16_witness_t *witnesses, size_t n, const cuzk_groth16_prove_opts *opts,
                              const fr *fixed_r, const fr *fixed_s, cuzk_err_t *err)
{
    cuzk_groth16_prove_opts o = opts ? *opts : (cuzk_groth16_prove_opts){0};
    if (!proofs || !pk || (n && !witnesses) || o.threads < 0 ||
        (o.h_mode != CUZK_GROTH16_H_COSET && o.h_mode != CUZK_GROTH16_H_ODD_ROOTS) || (!fixed_r != !fixed_s))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "invalid arguments to cuzk_groth16_prove");
    int threads = o.threads ? o.threads : cuzk_cpu_count();
    size_t max_rows = 0, max_z = 0;
    for (size_t k = 0; k < n; k++) {
        cuzk_status st = check_witness(pk, &witnesses[k], k, o.h_mode, err);
        if (st != CUZK_OK)
            return st;
        size_t rows = witnesses[k].num_constraints + witnesses[k].num_inputs;
        size_t nz = witnesses[k].num_inputs + witnesses[k].num_aux;
        if (o.row_position) {
            st = check_positions("row_position", o.row_position, rows, (size_t)1 << g16_log2_ceil(rows), err);
            if (st != CUZK_OK)
                return st;
        }
        max_rows = rows > max_rows ? rows : max_rows;
        max_z = nz > max_z ? nz : max_z;
    }
    if (n == 0)
        return CUZK_OK;
    if (o.h_source) {
        cuzk_status st = check_positions("h_source", o.h_source, pk->h_len, pk->h_len, err);
        if (st != CUZK_OK)
            return st;
    }

    prove_scratch s = {0};
    cuzk_status st = scratch_alloc(&s, (size_t)1 << g16_log2_ceil(max_rows), max_z);
    if (st != CUZK_OK) {
        scratch_free(&s);
        return cuzk_err_set(err, st, "out of memory (prover scratch for %zu rows)", max_rows);
    }
    uint64_t t = cuzk_now_ns();
    for (size_t k = 0; k < n && st == CUZK_OK; k++)
        st = prove_one(&proofs[k], pk, &witnesses[k], &o, fixed_r, fixed_s, &s, threads, err);
    cuzk_timing_report("prove", t);
    /* The witness is secret too, and so is what was derived from it (A·z, B·z, C·z, H). */
    size_t m = (size_t)1 << g16_log2_ceil(max_rows);
    g16_wipe(s.z, max_z * sizeof(cuzk_scalar_t));
    g16_wipe(s.a, m * sizeof(fr));
    g16_wipe(s.b, m * sizeof(fr));
    g16_wipe(s.c, m * sizeof(fr));
    scratch_free(&s);
    return st;
}

/* ---- the consuming prover ---------------------------------------------------------------------- */

void g16_discard(void *p, size_t n)
{
    if (!p || !n)
        return;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t begin = ((uintptr_t)p + page - 1) & ~(page - 1), end = ((uintptr_t)p + n) & ~(page - 1);
    if (end <= begin || madvise((void *)begin, end - begin, MADV_DONTNEED) != 0) {
        g16_wipe(p, n); /* too small to hold a whole page, or not anonymous memory: zero it by hand */
        return;
    }
    g16_wipe(p, begin - (uintptr_t)p);
    g16_wipe((void *)end, (uintptr_t)p + n - end);
}

/* The assignment's MSMs first (b_g1, b_g2, l, a over aux's scalars, in place), so that C·z can then
 * take aux's memory when it has room for the domain: the H phase holds three domain arrays, not four,
 * and C·z's pages are mostly ones the assignment had. Then H in the witness's a (B·z's and C·z's pages
 * released after the pointwise step) and its MSM. */
static cuzk_status prove_consumed_msms(msm_sums *sums, const cuzk_groth16_pk_t *pk,
                                       cuzk_groth16_witness_consumable_t *cw, const cuzk_groth16_witness_t *w,
                                       const cuzk_groth16_prove_opts *o, g16_msm_source *src, int threads,
                                       cuzk_err_t *err)
{
    size_t ni = w->num_inputs, na = w->num_aux;
    unsigned log_m = g16_log2_ceil(w->num_constraints + ni);
    size_t m = (size_t)1 << log_m;
    cuzk_scalar_t *z_in = malloc(ni * sizeof *z_in);
    if (!z_in)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory (input scalars)");
    g16_to_scalars(z_in, w->input, ni, threads);
    g16_to_scalars((cuzk_scalar_t *)cw->aux, cw->aux, na, threads);
    z_plan zp;
    z_plan_init(&zp, sums, pk, w, z_in, (const cuzk_scalar_t *)cw->aux);
    cuzk_status st = msm_z(&zp, src, o, err);
    free(z_in); /* public inputs: nothing to wipe */
    if (st != CUZK_OK)
        return st;
    if (stop_check(o) != CUZK_OK)
        return cuzk_err_set(err, CUZK_ERR_CANCELLED, "cancelled");

    const bool c_in_aux = cw->aux_capacity >= m;
    if (!c_in_aux)
        g16_discard(cw->aux, na * sizeof(fr)); /* its scalars are spent */
    fr *a = cw->a, *b = cw->b, *c = c_in_aux ? cw->aux : cuzk_big_malloc(m * sizeof(fr));
    if (!c)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory (C·z over a domain of %zu)", m);
    params_readahead_t ra; /* h's first piece comes from the disk during the NTTs */
    g16_section_readahead(&ra, G16_SEC_H, pk->h, src);
    uint64_t t = cuzk_now_ns();
    g16_h_place_consumed(a, b, c, m, w->num_constraints, w->input, ni, threads);
    st = g16_h_evaluate(a, b, c, log_m, o->h_mode, threads);
    g16_discard(c, m * sizeof(fr));
    if (!c_in_aux)
        free(c);
    g16_discard(b, cw->capacity * sizeof(fr));
    if (st == CUZK_OK)
        st = g16_h_finish(a, log_m, o->h_mode, threads);
    params_readahead_wait(&ra);
    if (st != CUZK_OK)
        return cuzk_err_set(err, st, "H polynomial: %s", cuzk_status_str(st));
    cuzk_timing_report("ntt", t);

    cuzk_scalar_t *h = (cuzk_scalar_t *)a;
    if (o->h_source) { /* a gather cannot run in place */
        if (!(h = cuzk_big_malloc(pk->h_len * sizeof *h)))
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory (H in the key's order)");
        g16_to_scalars_gather(h, a, o->h_source, pk->h_len, threads);
        g16_discard(a, cw->capacity * sizeof(fr));
    } else {
        g16_to_scalars(h, a, pk->h_len, threads);
    }
    st = stop_check(o) != CUZK_OK ? cuzk_err_set(err, CUZK_ERR_CANCELLED, "cancelled")
                                   : msm_h(&sums->h, pk, h, NULL, src, err);
    if (o->h_source) {
        g16_discard(h, pk->h_len * sizeof *h);
        free(h);
    }
    g16_discard(a, cw->capacity * sizeof(fr));
    return st;
}

static cuzk_status prove_consumed(cuzk_groth16_proof_t *proof, const cuzk_groth16_pk_t *pk,
                                  cuzk_groth16_witness_consumable_t *cw, const cuzk_groth16_witness_t *w,
                                  const cuzk_groth16_prove_opts *o, const fr *fixed_r, const fr *fixed_s, int threads,
                                  cuzk_err_t *err)
{
    msm_sums sums;
    g16_msm_source src = {.params = o->params, .piece_points = o->stream_points, .threads = threads};
    cuzk_status st = prove_consumed_msms(&sums, pk, cw, w, o, &src, threads, err);
    g16_msm_source_release(&src);
    if (st != CUZK_OK) { /* stopped part-way: what the witness still holds goes too, as the contract says */
        size_t aux_n = cw->aux_capacity > w->num_aux ? cw->aux_capacity : w->num_aux;
        g16_discard(cw->a, cw->capacity * sizeof(fr));
        g16_discard(cw->b, cw->capacity * sizeof(fr));
        g16_discard(cw->aux, aux_n * sizeof(fr));
        return st;
    }
    return finish_proof(proof, pk, &sums, fixed_r, fixed_s, err);
}

cuzk_status cuzk_groth16_prove_consume(cuzk_groth16_proof_t *proof, const cuzk_groth16_pk_t *pk,
                                       cuzk_groth16_witness_consumable_t *w, const cuzk_groth16_prove_opts *opts,
                                       cuzk_err_t *err)
{
    return g16_prove_consume_blinded(proof, pk, w, opts, NULL, NULL, err);
}

cuzk_status g16_prove_consume_blinded(cuzk_groth16_proof_t *proof, const cuzk_groth16_pk_t *pk,
                                      cuzk_groth16_witness_consumable_t *cw, const cuzk_groth16_prove_opts *opts,
                                      const fr *fixed_r, const fr *fixed_s, cuzk_err_t *err)
{
    cuzk_groth16_prove_opts o = opts ? *opts : (cuzk_groth16_prove_opts){0};
    if (!proof || !pk || !cw || !cw->a || !cw->b || o.threads < 0 || o.row_position ||
        (o.h_mode != CUZK_GROTH16_H_COSET && o.h_mode != CUZK_GROTH16_H_ODD_ROOTS) || (!fixed_r != !fixed_s))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "invalid arguments to cuzk_groth16_prove_consume (row_position cannot be used)");
    const cuzk_groth16_witness_t w = {
        .num_inputs = cw->num_inputs,
        .num_aux = cw->num_aux,
        .num_constraints = cw->num_constraints,
        .a = cw->a,
        .b = cw->b,
        .c = NULL,
        .input = cw->input,
        .aux = cw->aux,
        .a_aux_density = cw->a_aux_density,
        .b_input_density = cw->b_input_density,
        .b_aux_density = cw->b_aux_density,
    };
    cuzk_status st = check_witness(pk, &w, 0, o.h_mode, err);
    if (st != CUZK_OK)
        return st;
    size_t m = (size_t)1 << g16_log2_ceil(w.num_constraints + w.num_inputs);
    if (cw->capacity < m)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "the witness's a and b hold %zu elements, the domain needs %zu", cw->capacity, m);
    if (cw->aux_capacity && cw->aux_capacity < w.num_aux)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "the witness's aux_capacity (%zu) is below its num_aux (%zu)",
                            cw->aux_capacity, w.num_aux);
    if (o.h_source && (st = check_positions("h_source", o.h_source, pk->h_len, pk->h_len, err)) != CUZK_OK)
        return st;
    int threads = o.threads ? o.threads : cuzk_cpu_count();
    uint64_t t = cuzk_now_ns();
    st = prove_consumed(proof, pk, cw, &w, &o, fixed_r, fixed_s, threads, err);
    cuzk_timing_report("prove", t);
    /* Secrets: a and b were discarded on the way (or are, on an early error); the aux scalars now. */
    g16_discard(cw->a, cw->capacity * sizeof(fr));
    g16_discard(cw->b, cw->capacity * sizeof(fr));
    g16_discard(cw->aux, w.num_aux * sizeof(fr));
    return st;
}
