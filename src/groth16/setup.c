/* Development setup: fresh random Groth16 parameters for a constraint system (bellperson's
 * generate_random_parameters). NOT a trusted setup: this process knows τ, α, β, γ, δ.
 * QAP at τ via Lagrange polynomials over the domain: L_j(τ) = (τ^m − 1)/m · ω^j/(τ − ω^j). */
#include <stdlib.h>
#include <string.h>
#include "cuzk/ntt.h"
#include "groth16/fixed_base.h"
#include "groth16/groth16_internal.h"
#include "groth16/setup_internal.h"
#include "util/parallel.h"

typedef g16_toxic_waste toxic_waste;

/* u, v, w: the A, B, C polynomials of every variable evaluated at τ (inputs first, then aux). */
typedef struct {
    fr *u, *v, *w;
    uint8_t *a_dense, *b_dense;   /* a non-zero coefficient in some A (B) row */
} qap_at_tau;

static cuzk_status check_r1cs(const cuzk_r1cs_t *cs, cuzk_err_t *err)
{
    if (cs->num_inputs == 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "the constraint system has no ONE input");
    size_t nvars = cs->num_inputs + cs->num_aux;
    const cuzk_csr_t *mats[3] = {&cs->a, &cs->b, &cs->c};
    for (int m = 0; m < 3; m++) {
        if (cs->num_constraints && (!mats[m]->row_start || mats[m]->row_start[0] != 0))
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "matrix %c: missing rows", "ABC"[m]);
        for (size_t k = 0; k < cs->num_constraints; k++) {
            if (mats[m]->row_start[k + 1] < mats[m]->row_start[k])
                return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "matrix %c: row %zu is malformed", "ABC"[m], k);
            for (uint64_t t = mats[m]->row_start[k]; t < mats[m]->row_start[k + 1]; t++)
                if (mats[m]->col[t] >= nvars)
                    return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "matrix %c row %zu: variable %u out of range",
                                        "ABC"[m], k, mats[m]->col[t]);
        }
    }
    return CUZK_OK;
}

static void qap_free(qap_at_tau *q)
{
    free(q->u);
    free(q->v);
    free(q->w);
    free(q->a_dense);
    free(q->b_dense);
}

cuzk_status g16_lagrange_range(fr *lag, size_t first, size_t rows, unsigned log_m, const fr *tau)
{
    size_t m = (size_t)1 << log_m;
    fr omega, wj, zt, minv;
    cuzk_status st = cuzk_ntt_root(&omega, log_m);
    if (st != CUZK_OK || rows == 0)
        return st;
    uint64_t e = first;
    fr_pow(&wj, &omega, &e, 1);          /* ω^first */
    fr w0 = wj;
    e = m;
    fr_pow(&zt, tau, &e, 1);
    fr_sub(&zt, &zt, &FR_ONE);          /* Z(τ) = τ^m − 1 */
    fr_from_u64(&minv, m);
    fr_inv(&minv, &minv);
    fr_mul(&zt, &zt, &minv);
    for (size_t j = 0; j < rows; j++) {
        fr_sub(&lag[j], tau, &wj);       /* τ − ω^j, non-zero: τ is not in the domain */
        fr_mul(&wj, &wj, &omega);
    }
    fr_batch_inv(lag, lag, rows);
    wj = w0;
    for (size_t j = 0; j < rows; j++) {
        fr_mul(&lag[j], &lag[j], &wj);
        fr_mul(&lag[j], &lag[j], &zt);
        fr_mul(&wj, &wj, &omega);
    }
    g16_wipe(&zt, sizeof zt);
    return CUZK_OK;
}

static void accumulate(fr *dst, uint8_t *dense, const cuzk_csr_t *mat, size_t rows, const fr *lag)
{
    for (size_t k = 0; k < rows; k++)
        for (uint64_t t = mat->row_start[k]; t < mat->row_start[k + 1]; t++) {
            if (fr_is_zero(&mat->coeff[t]))
                continue;
            fr term;
            fr_mul(&term, &mat->coeff[t], &lag[k]);
            fr_add(&dst[mat->col[t]], &dst[mat->col[t]], &term);
            if (dense)
                dense[mat->col[t]] = 1;
        }
}

static cuzk_status qap_eval(qap_at_tau *q, const cuzk_r1cs_t *cs, unsigned log_m, const fr *tau)
{
    size_t nvars = cs->num_inputs + cs->num_aux, rows = cs->num_constraints + cs->num_inputs;
    fr *lag = malloc(rows * sizeof *lag);
    q->u = calloc(nvars, sizeof(fr));
    q->v = calloc(nvars, sizeof(fr));
    q->w = calloc(nvars, sizeof(fr));
    q->a_dense = calloc(nvars, 1);
    q->b_dense = calloc(nvars, 1);
    if (!lag || !q->u || !q->v || !q->w || !q->a_dense || !q->b_dense) {
        free(lag);
        return CUZK_ERR_NO_MEMORY;
    }
    cuzk_status st = g16_lagrange_range(lag, 0, rows, log_m, tau);
    if (st == CUZK_OK) {
        accumulate(q->u, q->a_dense, &cs->a, cs->num_constraints, lag);
        accumulate(q->v, q->b_dense, &cs->b, cs->num_constraints, lag);
        accumulate(q->w, NULL, &cs->c, cs->num_constraints, lag);
        for (size_t i = 0; i < cs->num_inputs; i++) {   /* input rows: Input(i)·0 = 0 */
            fr_add(&q->u[i], &q->u[i], &lag[cs->num_constraints + i]);
            q->a_dense[i] = 1;
        }
    }
    g16_wipe(lag, rows * sizeof *lag); /* L_j(τ) gives τ away */
    free(lag);
    return st;
}

/* out[i] = (β·u_i + α·v_i + w_i)·inv for variables first..first+n. */
static void ic_scalars(fr *out, const qap_at_tau *q, size_t first, size_t n, const toxic_waste *tw,
                       const fr *inv)
{
    for (size_t i = 0; i < n; i++) {
        fr t, s;
        fr_mul(&t, &tw->beta, &q->u[first + i]);
        fr_mul(&s, &tw->alpha, &q->v[first + i]);
        fr_add(&t, &t, &s);
        fr_add(&t, &t, &q->w[first + i]);
        fr_mul(&out[i], &t, inv);
    }
}

cuzk_status g16_toxic_waste_draw(toxic_waste *tw, size_t m, cuzk_err_t *err)
{
    fr *all[5] = {&tw->tau, &tw->alpha, &tw->beta, &tw->gamma, &tw->delta};
    for (int i = 0; i < 5; i++) {
        cuzk_status st = g16_random_fr(all[i], err);
        if (st != CUZK_OK)
            return st;
        if (fr_is_zero(all[i]))
            i--;
    }
    fr tm;
    uint64_t e = m;
    fr_pow(&tm, &tw->tau, &e, 1);
    bool in_domain = fr_eq(&tm, &FR_ONE);
    g16_wipe(&tm, sizeof tm);
    if (in_domain)   /* τ in the domain: probability m/r, draw again */
        return g16_toxic_waste_draw(tw, m, err);
    return CUZK_OK;
}

/* Builds every scalar of the key, then multiplies them onto the generators. */
static cuzk_status build_key(cuzk_groth16_pk_t *pk, const cuzk_r1cs_t *cs, const qap_at_tau *q,
                             const toxic_waste *tw, unsigned log_m, int threads, cuzk_err_t *err)
{
    size_t ni = cs->num_inputs, na = cs->num_aux, nvars = ni + na, m = (size_t)1 << log_m;
    size_t n_a = 0, n_b = 0;
    for (size_t i = 0; i < nvars; i++) {
        n_a += q->a_dense[i];
        n_b += q->b_dense[i];
    }
    size_t cap = nvars > m ? nvars : m;
    fr *sc = malloc(cap * sizeof *sc);
    pk->vk.ic = malloc(ni * sizeof(g1_aff));
    pk->l = malloc((na ? na : 1) * sizeof(g1_aff));
    pk->h = malloc(m * sizeof(g1_aff));
    pk->a = malloc((n_a ? n_a : 1) * sizeof(g1_aff));
    pk->b_g1 = malloc((n_b ? n_b : 1) * sizeof(g1_aff));
    pk->b_g2 = malloc((n_b ? n_b : 1) * sizeof(g2_aff));
    if (!sc || !pk->vk.ic || !pk->l || !pk->h || !pk->a || !pk->b_g1 || !pk->b_g2) {
        free(sc);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory (setup)");
    }
    pk->vk.ic_len = ni;
    pk->l_len = na;
    pk->h_len = m - 1;
    pk->a_len = n_a;
    pk->b_g1_len = pk->b_g2_len = n_b;
    cuzk_status st = CUZK_OK;
    fr inv;
#define FB1(dst, count) \
    if (st == CUZK_OK) st = g16_fixed_base_g1(dst, sc, count, threads)
#define FB2(dst, count) \
    if (st == CUZK_OK) st = g16_fixed_base_g2(dst, sc, count, threads)

    fr_inv(&inv, &tw->gamma);                          /* ic = (βu + αv + w)/γ */
    ic_scalars(sc, q, 0, ni, tw, &inv);
    FB1(pk->vk.ic, ni);
    fr_inv(&inv, &tw->delta);                          /* l = (βu + αv + w)/δ */
    ic_scalars(sc, q, ni, na, tw, &inv);
    FB1(pk->l, na);
    fr zt;                                             /* h_i = τ^i·Z(τ)/δ */
    uint64_t e = m;
    fr_pow(&zt, &tw->tau, &e, 1);
    fr_sub(&zt, &zt, &FR_ONE);
    fr_mul(&sc[0], &zt, &inv);
    for (size_t i = 1; i + 1 < m; i++)
        fr_mul(&sc[i], &sc[i - 1], &tw->tau);
    FB1(pk->h, m - 1);
    size_t k = 0;                                      /* compact A and B queries */
    for (size_t i = 0; i < nvars; i++)
        if (q->a_dense[i])
            sc[k++] = q->u[i];
    FB1(pk->a, n_a);
    k = 0;
    for (size_t i = 0; i < nvars; i++)
        if (q->b_dense[i])
            sc[k++] = q->v[i];
    FB1(pk->b_g1, n_b);
    FB2(pk->b_g2, n_b);
    if (st == CUZK_OK)
        st = g16_vk_points(&pk->vk, tw);
#undef FB1
#undef FB2
    g16_wipe(sc, cap * sizeof *sc);
    g16_wipe(&inv, sizeof inv);
    g16_wipe(&zt, sizeof zt);
    free(sc);
    if (st != CUZK_OK)
        return cuzk_err_set(err, st, "setup: %s", cuzk_status_str(st));
    return CUZK_OK;
}

cuzk_status cuzk_groth16_setup(cuzk_groth16_pk_t *pk, const cuzk_r1cs_t *cs, int threads, cuzk_err_t *err)
{
    return g16_setup_with_waste(pk, cs, NULL, threads, err);
}

cuzk_status g16_vk_points(cuzk_groth16_vk_t *vk, const g16_toxic_waste *tw)
{
    fr sc[3] = {tw->alpha, tw->beta, tw->delta};
    g1_aff g1s[3];
    g2_aff g2s[3];
    cuzk_status st = g16_fixed_base_g1(g1s, sc, 3, 1);
    sc[0] = tw->gamma;
    if (st == CUZK_OK)
        st = g16_fixed_base_g2(g2s, sc, 3, 1);
    g16_wipe(sc, sizeof sc);
    if (st != CUZK_OK)
        return st;
    vk->alpha_g1 = g1s[0];
    vk->beta_g1 = g1s[1];
    vk->delta_g1 = g1s[2];
    vk->gamma_g2 = g2s[0];
    vk->beta_g2 = g2s[1];
    vk->delta_g2 = g2s[2];
    return CUZK_OK;
}

cuzk_status g16_setup_with_waste(cuzk_groth16_pk_t *pk, const cuzk_r1cs_t *cs, const g16_toxic_waste *waste,
                                 int threads, cuzk_err_t *err)
{
    if (!pk || !cs || threads < 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "invalid arguments to cuzk_groth16_setup");
    memset(pk, 0, sizeof *pk);
    cuzk_status st = check_r1cs(cs, err);
    if (st != CUZK_OK)
        return st;
    size_t rows = cs->num_constraints + cs->num_inputs;
    if (rows > ((size_t)1 << CUZK_NTT_MAX_LOG))
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "%zu rows exceed the largest domain", rows);
    unsigned log_m = g16_log2_ceil(rows);
    if (threads == 0)
        threads = cuzk_cpu_count();

    toxic_waste tw;
    qap_at_tau q = {0};
    if (waste)
        tw = *waste;
    else if ((st = g16_toxic_waste_draw(&tw, (size_t)1 << log_m, err)) != CUZK_OK)
        goto out;
    if ((st = qap_eval(&q, cs, log_m, &tw.tau)) != CUZK_OK) {
        cuzk_err_set(err, st, "setup: %s", cuzk_status_str(st));
        goto out;
    }
    /* bellperson refuses a variable that no constraint mentions: its L point would be the
     * identity (SynthesisError::UnconstrainedVariable). */
    for (size_t j = 0; j < cs->num_aux; j++) {
        size_t i = cs->num_inputs + j;
        if (fr_is_zero(&q.u[i]) && fr_is_zero(&q.v[i]) && fr_is_zero(&q.w[i])) {
            st = cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "aux variable %zu is unconstrained", j);
            goto out;
        }
    }
    st = build_key(pk, cs, &q, &tw, log_m, threads, err);
out:
    g16_wipe(&tw, sizeof tw);
    /* After a failed allocation in qap_eval any of u, v, w may be NULL. */
    fr *evals[3] = {q.u, q.v, q.w};
    for (int i = 0; i < 3; i++)
        if (evals[i])
            g16_wipe(evals[i], (cs->num_inputs + cs->num_aux) * sizeof(fr));
    qap_free(&q);
    if (st != CUZK_OK)
        cuzk_groth16_pk_free(pk);
    return st;
}
