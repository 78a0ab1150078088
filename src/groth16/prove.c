/* The Groth16 prover (bellperson's create_proof_batch): for each circuit, H from 7 NTTs, then the
 * five MSMs (h, l, a, b_g1, b_g2) over the key's points, then the blinding with fresh r, s:
 *   A = α + Σa + r·δ,  B = β + Σb + s·δ (in G2 and G1),  C = s·A + r·B₁ − r·s·δ + H + L. */
#include <stdlib.h>
#include <string.h>
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
    uint64_t *bits_a;       /* A density over z: every input, then a_aux */
    uint64_t *bits_b;       /* B density over z: b_input, then b_aux */
} prove_scratch;

/* The MSM sums of one circuit, before blinding. */
typedef struct {
    g1_jac h, l, a, b1;
    g2_jac b2;
} msm_sums;

static size_t words_for(size_t bits) { return (bits + 63) / 64; }

/* Copies nbits bits of src (NULL = all set) to dst starting at bit offset `at`. */
static void bits_append(uint64_t *dst, size_t at, const uint64_t *src, size_t nbits)
{
    for (size_t i = 0; i < nbits; i++) {
        bool set = !src || ((src[i / 64] >> (i % 64)) & 1);
        if (set)
            dst[(at + i) / 64] |= 1ull << ((at + i) % 64);
    }
}

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

static cuzk_status run_msms(msm_sums *sums, const cuzk_groth16_pk_t *pk, const cuzk_groth16_witness_t *w,
                            prove_scratch *s, const cuzk_groth16_prove_opts *o, int threads)
{
    size_t ni = w->num_inputs, na = w->num_aux, nz = ni + na;
    cuzk_msm_opts opts = {.threads = threads};
    /* H is in s->a; s->b is free once H is computed (same size and alignment as scalars). */
    size_t h_len = pk->h_len;
    cuzk_scalar_t *h_scalars = (cuzk_scalar_t *)(o->h_source ? s->b : s->a);
    g16_to_scalars_gather(h_scalars, s->a, o->h_source, h_len, threads);
    g16_to_scalars(s->z, w->input, ni, threads);
    g16_to_scalars(s->z + ni, w->aux, na, threads);
    memset(s->bits_a, 0, words_for(nz) * sizeof(uint64_t));
    memset(s->bits_b, 0, words_for(nz) * sizeof(uint64_t));
    bits_append(s->bits_a, 0, NULL, ni);
    bits_append(s->bits_a, ni, w->a_aux_density, na);
    bits_append(s->bits_b, 0, w->b_input_density, ni);
    bits_append(s->bits_b, ni, w->b_aux_density, na);

    cuzk_status st;
    if ((st = stop_check(o)) != CUZK_OK)
        return st;
    uint64_t t = cuzk_now_ns();
    if ((st = cuzk_msm_g1(&sums->h, pk->h, h_scalars, h_len, &opts)) != CUZK_OK)
        return st;
    cuzk_timing_report("msm_h", t);
    if ((st = stop_check(o)) != CUZK_OK)
        return st;
    t = cuzk_now_ns();
    if ((st = cuzk_msm_g1(&sums->l, pk->l, s->z + ni, na, &opts)) != CUZK_OK)
        return st;
    cuzk_timing_report("msm_l", t);
    if ((st = stop_check(o)) != CUZK_OK)
        return st;
    t = cuzk_now_ns();
    if ((st = cuzk_msm_g1_density(&sums->a, pk->a, pk->a_len, s->z, nz, s->bits_a, &opts)) != CUZK_OK)
        return st;
    cuzk_timing_report("msm_a", t);
    if ((st = stop_check(o)) != CUZK_OK)
        return st;
    t = cuzk_now_ns();
    if ((st = cuzk_msm_g1_density(&sums->b1, pk->b_g1, pk->b_g1_len, s->z, nz, s->bits_b, &opts)) != CUZK_OK)
        return st;
    cuzk_timing_report("msm_b_g1", t);
    if ((st = stop_check(o)) != CUZK_OK)
        return st;
    t = cuzk_now_ns();
    if ((st = cuzk_msm_g2_density(&sums->b2, pk->b_g2, pk->b_g2_len, s->z, nz, s->bits_b, &opts)) != CUZK_OK)
        return st;
    cuzk_timing_report("msm_b_g2", t);
    return CUZK_OK;
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
    free(s->bits_a);
    free(s->bits_b);
}

static cuzk_status scratch_alloc(prove_scratch *s, size_t m, size_t nz)
{
    s->a = cuzk_big_malloc(m * sizeof(fr));
    s->b = cuzk_big_malloc(m * sizeof(fr));
    s->c = cuzk_big_malloc(m * sizeof(fr));
    s->z = cuzk_big_malloc(nz * sizeof(cuzk_scalar_t));
    s->bits_a = malloc(words_for(nz + 1) * sizeof(uint64_t));
    s->bits_b = malloc(words_for(nz + 1) * sizeof(uint64_t));
    if (!s->a || !s->b || !s->c || !s->z || !s->bits_a || !s->bits_b)
        return CUZK_ERR_NO_MEMORY;
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
    if ((st = run_msms(&sums, pk, w, s, o, threads)) == CUZK_ERR_CANCELLED)
        return cuzk_err_set(err, st, "cancelled");
    if (st != CUZK_OK)
        return cuzk_err_set(err, st, "multi-scalar multiplication: %s", cuzk_status_str(st));

    fr r, sv;
    if (fixed_r && fixed_s) {
        r = *fixed_r;
        sv = *fixed_s;
    } else if ((st = g16_random_fr(&r, err)) != CUZK_OK || (st = g16_random_fr(&sv, err)) != CUZK_OK) {
        g16_wipe(&r, sizeof r);
        return st;
    }
    t = cuzk_now_ns();
    blind(proof, &pk->vk, &sums, &r, &sv);
    cuzk_timing_report("blind", t);
    g16_wipe(&r, sizeof r);
    g16_wipe(&sv, sizeof sv);
    return CUZK_OK;
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
