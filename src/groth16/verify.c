/* The Groth16 verifier (bellperson verify_proof / verify_proofs_batch) with a prepared key:
 *   single: e(A, B)·e(acc, −γ)·e(C, −δ) = e(α, β), acc = Σ ic_i·x_i (x_0 = 1);
 *   batch:  with random 128-bit ρ_k, Π e(ρ_k·A_k, B_k)·e(Σρ_k·acc_k, −γ)·e(Σρ_k·C_k, −δ) = e(α, β)^(Σρ_k). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "cuzk/msm.h"
#include "ec/pairing.h"
#include "groth16/groth16_internal.h"
#include "util/timer.h"
#include "util/timing.h"

struct cuzk_groth16_pvk {
    fp12 alpha_beta;          /* e(α, β) */
    g2_prepared neg_gamma, neg_delta;
    g1_aff *ic;
    size_t ic_len;
};

cuzk_status cuzk_groth16_pvk_new(cuzk_groth16_pvk_t **out, const cuzk_groth16_vk_t *vk)
{
    if (!out || !vk || vk->ic_len == 0 || !vk->ic)
        return CUZK_ERR_INVALID_ARG;
    cuzk_groth16_pvk_t *p = calloc(1, sizeof *p);
    if (!p || !(p->ic = malloc(vk->ic_len * sizeof *p->ic))) {
        free(p);
        return CUZK_ERR_NO_MEMORY;
    }
    memcpy(p->ic, vk->ic, vk->ic_len * sizeof *p->ic);
    p->ic_len = vk->ic_len;
    pairing(&p->alpha_beta, &vk->alpha_g1, &vk->beta_g2);
    g2_aff q;
    g2_aff_neg(&q, &vk->gamma_g2);
    g2_prepare(&p->neg_gamma, &q);
    g2_aff_neg(&q, &vk->delta_g2);
    g2_prepare(&p->neg_delta, &q);
    *out = p;
    return CUZK_OK;
}

void cuzk_groth16_pvk_free(cuzk_groth16_pvk_t *pvk)
{
    if (!pvk)
        return;
    free(pvk->ic);
    free(pvk);
}

static bool scalar_is_canonical(const cuzk_scalar_t *s)
{
    for (int i = 3; i >= 0; i--) {
        if (s->l[i] != FR_MODULUS[i])
            return s->l[i] < FR_MODULUS[i];
    }
    return false;
}

static cuzk_status check_inputs(const cuzk_groth16_pvk_t *pvk, const cuzk_scalar_t *inputs, size_t n_inputs,
                                size_t count, cuzk_err_t *err)
{
    if (n_inputs + 1 != pvk->ic_len)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "%zu public inputs given, the verifying key has %zu",
                            n_inputs, pvk->ic_len - 1);
    if (n_inputs && count && !inputs)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "public inputs missing");
    for (size_t i = 0; i < n_inputs * count; i++)
        if (!scalar_is_canonical(&inputs[i]))
            return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "public input %zu is not below the field modulus",
                                i % n_inputs);
    return CUZK_OK;
}

/* Σ_{i≥1} ic_i·x_i over the key's inputs, plus weight·ic_0 (x_0 = 1 weighted per proof). */
static cuzk_status input_sum(g1_jac *out, const cuzk_groth16_pvk_t *pvk, const cuzk_scalar_t *x,
                             const cuzk_scalar_t *weight0)
{
    cuzk_msm_opts opts = {.threads = 1};
    cuzk_status st = cuzk_msm_g1(out, pvk->ic + 1, x, pvk->ic_len - 1, &opts);
    if (st != CUZK_OK)
        return st;
    g1_jac ic0, t;
    g1_jac_from_aff(&ic0, &pvk->ic[0]);
    g1_jac_mul(&t, &ic0, weight0);
    g1_jac_add(out, out, &t);
    return CUZK_OK;
}

cuzk_status cuzk_groth16_verify(bool *valid, const cuzk_groth16_pvk_t *pvk, const cuzk_groth16_proof_t *proof,
                                const cuzk_scalar_t *inputs, size_t n_inputs, cuzk_err_t *err)
{
    if (!valid || !pvk || !proof)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "invalid arguments to cuzk_groth16_verify");
    *valid = false;
    uint64_t t0 = cuzk_now_ns();
    cuzk_status st = check_inputs(pvk, inputs, n_inputs, 1, err);
    if (st != CUZK_OK)
        return st;
    cuzk_scalar_t one = {{1, 0, 0, 0}};
    g1_jac acc;
    if ((st = input_sum(&acc, pvk, inputs, &one)) != CUZK_OK)
        return cuzk_err_set(err, st, "input accumulation: %s", cuzk_status_str(st));

    g1_aff ps[3];
    g2_prepared *qs = malloc(3 * sizeof *qs);
    if (!qs)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    ps[0] = proof->a;
    g2_prepare(&qs[0], &proof->b);
    g1_jac_to_aff(&ps[1], &acc);
    qs[1] = pvk->neg_gamma;
    ps[2] = proof->c;
    qs[2] = pvk->neg_delta;
    fp12 f;
    miller_loop_prepared(&f, ps, qs, 3);
    final_exp(&f, &f);
    free(qs);
    *valid = fp12_eq(&f, &pvk->alpha_beta);
    cuzk_timing_report("verify", t0);
    return CUZK_OK;
}

/* A random 128-bit weight per proof, as bellperson's batch verifier draws. */
static cuzk_status random_weight(cuzk_scalar_t *w, cuzk_err_t *err)
{
    memset(w, 0, sizeof *w);
    uint8_t *p = (uint8_t *)w->l;
    size_t got = 0;
    while (got < 16) {
        ssize_t n = getrandom(p + got, 16 - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return cuzk_err_set(err, CUZK_ERR_IO, "getrandom failed: %s", strerror(errno));
        got += (size_t)n;
    }
    if (w->l[0] == 0 && w->l[1] == 0)
        w->l[0] = 1;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_verify_batch(bool *valid, const cuzk_groth16_pvk_t *pvk,
                                      const cuzk_groth16_proof_t *proofs, const cuzk_scalar_t *inputs,
                                      size_t n_inputs, size_t n, cuzk_err_t *err)
{
    if (!valid || !pvk || (n && !proofs))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "invalid arguments to cuzk_groth16_verify_batch");
    *valid = false;
    uint64_t t0 = cuzk_now_ns();
    cuzk_status st = check_inputs(pvk, inputs, n_inputs, n, err);
    if (st != CUZK_OK || n == 0) {
        *valid = st == CUZK_OK;
        return st;
    }
    /* Σρ_k·acc_k = (Σρ_k)·ic_0 + Σ_i ic_i·(Σ_k ρ_k·x_{k,i}): one MSM over ic. */
    cuzk_scalar_t *rho = malloc(n * sizeof *rho);
    cuzk_scalar_t *y = calloc(n_inputs ? n_inputs : 1, sizeof *y);
    g1_aff *ps = malloc((n + 2) * sizeof *ps);
    g2_prepared *qs = malloc((n + 2) * sizeof *qs);
    if (!rho || !y || !ps || !qs) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
        goto out;
    }
    fr rho_sum = FR_ZERO, term;
    fr *y_fr = (fr *)y;
    for (size_t k = 0; k < n && st == CUZK_OK; k++) {
        if ((st = random_weight(&rho[k], err)) != CUZK_OK)
            goto out;
        fr rk;
        fr_from_scalar(&rk, &rho[k]);
        fr_add(&rho_sum, &rho_sum, &rk);
        for (size_t i = 0; i < n_inputs; i++) {
            fr_from_scalar(&term, &inputs[k * n_inputs + i]);
            fr_mul(&term, &term, &rk);
            fr_add(&y_fr[i], &y_fr[i], &term);
        }
    }
    for (size_t i = 0; i < n_inputs; i++) {
        cuzk_scalar_t s;
        fr_to_scalar(&s, &y_fr[i]);
        y[i] = s;
    }
    cuzk_scalar_t rho_sum_s;
    fr_to_scalar(&rho_sum_s, &rho_sum);
    g1_jac acc, c_sum, t;
    if ((st = input_sum(&acc, pvk, y, &rho_sum_s)) != CUZK_OK) {
        cuzk_err_set(err, st, "input accumulation: %s", cuzk_status_str(st));
        goto out;
    }
    g1_jac_set_inf(&c_sum);
    for (size_t k = 0; k < n; k++) {
        g1_jac a;
        g1_jac_from_aff(&a, &proofs[k].a);
        g1_jac_mul(&a, &a, &rho[k]);
        g1_jac_to_aff(&ps[k], &a);
        g2_prepare(&qs[k], &proofs[k].b);
        g1_jac_from_aff(&t, &proofs[k].c);
        g1_jac_mul(&t, &t, &rho[k]);
        g1_jac_add(&c_sum, &c_sum, &t);
    }
    g1_jac_to_aff(&ps[n], &acc);
    qs[n] = pvk->neg_gamma;
    g1_jac_to_aff(&ps[n + 1], &c_sum);
    qs[n + 1] = pvk->neg_delta;
    fp12 f, rhs;
    miller_loop_prepared(&f, ps, qs, n + 2);
    final_exp(&f, &f);
    fp12_pow(&rhs, &pvk->alpha_beta, rho_sum_s.l, 4);
    *valid = fp12_eq(&f, &rhs);
    cuzk_timing_report("verify_batch", t0);
out:
    free(rho);
    free(y);
    free(ps);
    free(qs);
    return st;
}
