/* Proving from snarkjs zkeys. An obviously-correct oracle builds the proof the slow way: a and b from
 * circom's r1cs (not the zkey's coefficients), placed at the zkey reader's row positions, the
 * polynomials evaluated at the odd 2m-th roots by the Lagrange formula (O(m²)), paired with the
 * reader's reordered H points, every MSM a sum of double-and-add products. Its proof must satisfy the
 * Groth16 pairing equation under snarkjs's verifying key (so the root-of-unity mapping is right), and
 * the library prover with the same fixed r, s must give the same proof, which the library verifier
 * accepts. snarkjs's own proof passes the same pairing check. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/interop.h"
#include "ec/ec.h"
#include "ec/pairing.h"
#include "ff/fr.h"
#include "interop/interop_internal.h"
#include "interop_test_util.h"
#include "test_util.h"

static void g1_acc(g1_jac *acc, const g1_aff *p, const cuzk_fr_t *k)
{
    cuzk_scalar_t s;
    g1_jac t, pj;
    fr_to_scalar(&s, k);
    g1_jac_from_aff(&pj, p);
    g1_jac_mul(&t, &pj, &s);
    g1_jac_add(acc, acc, &t);
}

static void g2_acc(g2_jac *acc, const g2_aff *p, const cuzk_fr_t *k)
{
    cuzk_scalar_t s;
    g2_jac t, pj;
    fr_to_scalar(&s, k);
    g2_jac_from_aff(&pj, p);
    g2_jac_mul(&t, &pj, &s);
    g2_jac_add(acc, acc, &t);
}

static void row_dot(cuzk_fr_t *out, const cuzk_csr_t *m, size_t k, const cuzk_fr_t *w)
{
    cuzk_fr_t acc = FR_ZERO, t;
    for (uint64_t j = m->row_start[k]; j < m->row_start[k + 1]; j++) {
        fr_mul(&t, &m->coeff[j], &w[m->col[j]]);
        fr_add(&acc, &acc, &t);
    }
    *out = acc;
}

/* p(x) for the polynomial of degree < m with values e[i] at ω_m^i, x^m = −1:
 * p(x) = Σ e[i] · ω^i·(x^m − 1) / (m·(x − ω^i)) = Σ e[i] · (−2·ω^i) / (m·(x − ω^i)). */
static void lagrange_eval(cuzk_fr_t *out, const cuzk_fr_t *e, size_t m, const cuzk_fr_t *wpow,
                          const cuzk_fr_t *x)
{
    cuzk_fr_t acc = FR_ZERO, mm, two, t, d;
    fr_from_u64(&mm, m);
    fr_from_u64(&two, 2);
    for (size_t i = 0; i < m; i++) {
        if (fr_is_zero(&e[i]))
            continue;
        fr_sub(&d, x, &wpow[i]);
        fr_mul(&d, &d, &mm);
        fr_inv(&d, &d);
        fr_mul(&t, &wpow[i], &two);
        fr_neg(&t, &t);
        fr_mul(&t, &t, &d);
        fr_mul(&t, &t, &e[i]);
        fr_add(&acc, &acc, &t);
    }
    *out = acc;
}

/* The oracle prover. identity_positions = true ignores the zkey reader's row positions (the
 * negative control: the proof must then fail). */
static void oracle_prove(cuzk_groth16_proof_t *proof, const cuzk_zkey_t *zk, const cuzk_r1cs_t *r1cs,
                         const cuzk_fr_t *w, const cuzk_fr_t *r, const cuzk_fr_t *s, bool identity_positions)
{
    size_t m = zk->domain_size, nc = zk->num_constraints, nin = (size_t)zk->n_public + 1;
    cuzk_fr_t *ea = calloc(m, sizeof *ea), *eb = calloc(m, sizeof *eb), *ec = calloc(m, sizeof *ec);
    cuzk_fr_t *wpow = malloc(m * sizeof *wpow), *h = malloc(m * sizeof *h);
    for (size_t k = 0; k < nc + nin; k++) {
        size_t pos = identity_positions ? k : zk->row_position[k];
        if (k < nc) {
            row_dot(&ea[pos], &r1cs->a, k, w);
            row_dot(&eb[pos], &r1cs->b, k, w);
            fr_mul(&ec[pos], &ea[pos], &eb[pos]);
        } else {
            ea[pos] = w[k - nc];
        }
    }
    /* ω_2m = ω^(2^32 / 2m) from the 2^32-th root, ω_m = ω_2m². */
    cuzk_fr_t w2m = FR_ROOT_OF_UNITY_2_32, wm, x;
    for (size_t sz = (size_t)1 << 31; sz > m; sz >>= 1)
        fr_sqr(&w2m, &w2m);
    fr_sqr(&wm, &w2m);
    wpow[0] = FR_ONE;
    for (size_t i = 1; i < m; i++)
        fr_mul(&wpow[i], &wpow[i - 1], &wm);
    x = w2m;
    for (size_t j = 0; j < m; j++) {
        cuzk_fr_t av, bv, cv;
        lagrange_eval(&av, ea, m, wpow, &x);
        lagrange_eval(&bv, eb, m, wpow, &x);
        lagrange_eval(&cv, ec, m, wpow, &x);
        fr_mul(&h[j], &av, &bv);
        fr_sub(&h[j], &h[j], &cv);
        fr_mul(&x, &x, &wm);
    }
    const cuzk_groth16_pk_t *pk = &zk->pk;
    g1_jac a, b1, c;
    g2_jac b2;
    g1_jac_from_aff(&a, &pk->vk.alpha_g1);
    g1_jac_from_aff(&b1, &pk->vk.beta_g1);
    g2_jac_from_aff(&b2, &pk->vk.beta_g2);
    g1_jac_set_inf(&c);
    for (size_t i = 0; i < zk->n_vars; i++) {
        g1_acc(&a, &pk->a[i], &w[i]);
        g1_acc(&b1, &pk->b_g1[i], &w[i]);
        g2_acc(&b2, &pk->b_g2[i], &w[i]);
    }
    for (size_t i = nin; i < zk->n_vars; i++)
        g1_acc(&c, &pk->l[i - nin], &w[i]);
    for (size_t j = 0; j < m; j++) /* zkey point j is at odd-root position h_source[j] */
        g1_acc(&c, &pk->h[j], &h[identity_positions ? j : zk->h_source[j]]);
    g1_acc(&a, &pk->vk.delta_g1, r);
    g1_acc(&b1, &pk->vk.delta_g1, s);
    g2_acc(&b2, &pk->vk.delta_g2, s);
    g1_aff aa, bb1;
    g1_jac_to_aff(&aa, &a);
    g1_jac_to_aff(&bb1, &b1);
    cuzk_fr_t rs;
    fr_mul(&rs, r, s);
    fr_neg(&rs, &rs);
    g1_acc(&c, &aa, s);
    g1_acc(&c, &bb1, r);
    g1_acc(&c, &pk->vk.delta_g1, &rs);
    proof->a = aa;
    g2_jac_to_aff(&proof->b, &b2);
    g1_jac_to_aff(&proof->c, &c);
    free(ea), free(eb), free(ec), free(wpow), free(h);
}

/* e(A, B) == e(α, β)·e(Σ IC_i·x_i, γ)·e(C, δ), written out with the pairing (not the library verifier). */
static bool pairing_check(const cuzk_groth16_vk_t *vk, const cuzk_groth16_proof_t *p, const cuzk_fr_t *x,
                          size_t nx)
{
    if (nx + 1 != vk->ic_len)
        return false;
    g1_jac acc;
    g1_jac_from_aff(&acc, &vk->ic[0]);
    for (size_t i = 0; i < nx; i++)
        g1_acc(&acc, &vk->ic[i + 1], &x[i]);
    g1_aff ps[4];
    g2_aff qs[4] = {p->b, vk->beta_g2, vk->gamma_g2, vk->delta_g2};
    g1_aff_neg(&ps[0], &p->a);
    ps[1] = vk->alpha_g1;
    g1_jac_to_aff(&ps[2], &acc);
    ps[3] = p->c;
    return multi_pairing_is_one(ps, qs, 4);
}

static bool proof_eq(const cuzk_groth16_proof_t *x, const cuzk_groth16_proof_t *y)
{
    return g1_aff_eq(&x->a, &y->a) && g2_aff_eq(&x->b, &y->b) && g1_aff_eq(&x->c, &y->c);
}

static void test_circuit(const char *name)
{
    char p[256];
    cuzk_err_t err = {{0}};
    cuzk_circom_r1cs_t r;
    cuzk_wtns_t w;
    cuzk_zkey_t z;
    cuzk_groth16_vk_t vk;
    snprintf(p, sizeof p, VEC_DIR "%s.r1cs", name);
    CHECK_MSG(cuzk_circom_r1cs_read(&r, p, &err) == CUZK_OK, "%s", err.msg);
    snprintf(p, sizeof p, VEC_DIR "%s.wtns", name);
    CHECK_MSG(cuzk_wtns_read(&w, p, &err) == CUZK_OK, "%s", err.msg);
    snprintf(p, sizeof p, VEC_DIR "%s.zkey", name);
    CHECK_MSG(cuzk_zkey_read(&z, p, 2, 0, &err) == CUZK_OK, "%s", err.msg);
    snprintf(p, sizeof p, VEC_DIR "%s_vk.json", name);
    CHECK_MSG(cuzk_snarkjs_vk_read(&vk, p, &err) == CUZK_OK, "%s", err.msg);
    const cuzk_fr_t *pub = w.values + 1;
    size_t npub = z.n_public;

    /* snarkjs's proof of this witness passes the written-out check; a changed input does not. */
    cuzk_groth16_proof_t sp;
    snprintf(p, sizeof p, VEC_DIR "%s_proof.json", name);
    CHECK_MSG(cuzk_snarkjs_proof_read(&sp, p, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(pairing_check(&vk, &sp, pub, npub), "%s: snarkjs's proof fails the pairing check", name);
    cuzk_fr_t *bad = malloc(npub * sizeof *bad);
    memcpy(bad, pub, npub * sizeof *bad);
    fr_add(&bad[0], &bad[0], &FR_ONE);
    CHECK(!pairing_check(&vk, &sp, bad, npub));

    /* The oracle's proof verifies; with identity row positions it does not. */
    cuzk_fr_t rr, ss;
    test_rand_fr(&rr);
    test_rand_fr(&ss);
    cuzk_groth16_proof_t op, wrong;
    oracle_prove(&op, &z, &r.r1cs, w.values, &rr, &ss, false);
    CHECK_MSG(pairing_check(&vk, &op, pub, npub), "%s: oracle proof with the zkey mapping fails", name);
    oracle_prove(&wrong, &z, &r.r1cs, w.values, &rr, &ss, true);
    CHECK_MSG(!pairing_check(&vk, &wrong, pub, npub), "%s: identity positions should not verify", name);

    /* The library prover in snarkjs mode: the oracle's proof exactly, for the same r and s. */
    cuzk_groth16_prove_opts o = {.threads = 2};
    cuzk_groth16_proof_t lp;
    cuzk_status st = interop_zkey_prove_blinded(&lp, &z, w.values, w.n, &o, &rr, &ss, &err);
    CHECK_MSG(st == CUZK_OK, "%s: cuzk_zkey_prove: %s", name, err.msg);
    if (st == CUZK_OK) {
        CHECK_MSG(proof_eq(&lp, &op), "%s: library proof differs from the oracle's", name);
        CHECK(pairing_check(&vk, &lp, pub, npub));
    }
    /* Fresh randomness: still valid, and accepted by the library verifier (which rejects a
     * changed input). */
    cuzk_groth16_proof_t fp;
    st = cuzk_zkey_prove(&fp, &z, w.values, w.n, NULL, &err);
    CHECK_MSG(st == CUZK_OK, "%s: cuzk_zkey_prove: %s", name, err.msg);
    CHECK(st != CUZK_OK || pairing_check(&vk, &fp, pub, npub));
    cuzk_groth16_pvk_t *pvk = NULL;
    CHECK(cuzk_groth16_pvk_new(&pvk, &vk) == CUZK_OK);
    cuzk_scalar_t *xs = malloc(npub * sizeof *xs);
    for (size_t i = 0; i < npub; i++)
        fr_to_scalar(&xs[i], &pub[i]);
    bool valid = false;
    CHECK(cuzk_groth16_verify(&valid, pvk, &fp, xs, npub, &err) == CUZK_OK && valid);
    CHECK(cuzk_groth16_verify(&valid, pvk, &sp, xs, npub, &err) == CUZK_OK && valid);
    fr_to_scalar(&xs[0], &bad[0]);
    CHECK(cuzk_groth16_verify(&valid, pvk, &fp, xs, npub, &err) == CUZK_OK && !valid);
    cuzk_groth16_pvk_free(pvk);
    free(xs);
    free(bad);

    cuzk_interop_vk_free(&vk);
    cuzk_zkey_free(&z);
    cuzk_wtns_free(&w);
    cuzk_circom_r1cs_free(&r);
}

/* K with ω^K = 5^t: from the definition, and against the value an independent big-integer
 * computation gives (Python: Pohlig–Hellman with pow(), 0xe25f4955). */
static void test_root_log(void)
{
    uint32_t k = cuzk_interop_ffjs_root_log();
    CHECK(k & 1);
    CHECK_MSG(k == 0xe25f4955u, "K = %#x", k);
    uint64_t t[4], kk = k;
    for (int i = 0; i < 4; i++)
        t[i] = FR_MODULUS[i] >> 32 | (i < 3 ? FR_MODULUS[i + 1] << 32 : 0);
    cuzk_fr_t five, w5, wk, x;
    fr_from_u64(&five, 5);
    fr_pow(&w5, &five, t, 4);
    fr_pow(&wk, &FR_ROOT_OF_UNITY_2_32, &kk, 1);
    CHECK(fr_eq(&w5, &wk));
    /* 2 and 3 are squares, 5 is not: ffjavascript's search stops at 5. */
    for (uint64_t v = 2; v <= 5; v++) {
        fr_from_u64(&x, v);
        CHECK(fr_legendre(&x) == (v == 5 ? -1 : 1));
    }
}

int main(void)
{
    test_init("test_interop_prove");
    test_root_log();
    test_circuit("mult");
    test_circuit("cmp");
    scratch_cleanup();
    return test_finish();
}
