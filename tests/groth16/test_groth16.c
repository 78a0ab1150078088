/* Groth16 prover, verifier and development setup on random R1CS instances:
 * - the H polynomial against a naive O(m²) interpolation and polynomial division (both forms);
 * - a whole proof with fixed r, s against a naive prover (double-and-add sums over the key);
 * - prove → verify, batch verification, tampered proofs and inputs, shape mismatches. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/groth16.h"
#include "cuzk/ntt.h"
#include "ec/ec.h"
#include "ff/fr.h"
#include "groth16/groth16_internal.h"
#include "r1cs_gen.h"
#include "test_util.h"

static void fr_pow_u(fr *r, const fr *a, uint64_t e) { fr_pow(r, a, &e, 1); }

/* Rows of the witness (synthesized, then inputs) placed in a domain vector, as the prover must. */
static void domain_values(fr *va, fr *vb, fr *vc, size_t m, const cuzk_groth16_witness_t *w, const uint32_t *pos)
{
    for (size_t j = 0; j < m; j++)
        va[j] = vb[j] = vc[j] = FR_ZERO;
    for (size_t k = 0; k < w->num_constraints + w->num_inputs; k++) {
        size_t p = pos ? pos[k] : k;
        if (k < w->num_constraints) {
            va[p] = w->a[k];
            vb[p] = w->b[k];
            vc[p] = w->c[k];
        } else {
            va[p] = w->input[k - w->num_constraints];
        }
    }
}

/* Naive inverse DFT: coefficients of the polynomial taking v[j] at ω^j. */
static void naive_interpolate(fr *coef, const fr *v, size_t m, const fr *omega)
{
    fr winv, minv;
    fr_inv(&winv, omega);
    fr_from_u64(&minv, m);
    fr_inv(&minv, &minv);
    for (size_t i = 0; i < m; i++) {
        fr acc = FR_ZERO, step, x = FR_ONE, t;
        fr_pow_u(&step, &winv, i);
        for (size_t j = 0; j < m; j++) {
            fr_mul(&t, &v[j], &x);
            fr_add(&acc, &acc, &t);
            fr_mul(&x, &x, &step);
        }
        fr_mul(&coef[i], &acc, &minv);
    }
}

static void horner(fr *out, const fr *coef, size_t n, const fr *x)
{
    *out = FR_ZERO;
    for (size_t i = n; i-- > 0;) {
        fr_mul(out, out, x);
        fr_add(out, out, &coef[i]);
    }
}

/* h = (A·B − C)/(X^m − 1) by schoolbook multiplication and division; checks the remainder is 0. */
static void naive_h(fr *h, const cuzk_groth16_witness_t *w, unsigned log_m, const uint32_t *pos)
{
    size_t m = (size_t)1 << log_m;
    fr omega, *va = malloc(3 * m * sizeof(fr)), *ca = malloc(3 * m * sizeof(fr));
    fr *p = calloc(2 * m, sizeof(fr));
    CHECK(cuzk_ntt_root(&omega, log_m) == CUZK_OK);
    domain_values(va, va + m, va + 2 * m, m, w, pos);
    for (int k = 0; k < 3; k++)
        naive_interpolate(ca + k * m, va + k * m, m, &omega);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            fr t;
            fr_mul(&t, &ca[i], &ca[m + j]);
            fr_add(&p[i + j], &p[i + j], &t);
        }
    for (size_t i = 0; i < m; i++)
        fr_sub(&p[i], &p[i], &ca[2 * m + i]);
    /* P = h·(X^m − 1) with deg h <= m − 2: the upper half of P is h, the lower half −h. */
    for (size_t j = 0; j < m; j++)
        h[j] = j + 1 < m ? p[j + m] : FR_ZERO;
    /* The lower half must be −h (exact division). */
    bool exact = true;
    for (size_t i = 0; i < m; i++) {
        fr t;
        fr_add(&t, &p[i], &h[i]);
        exact &= fr_is_zero(&t);
    }
    CHECK_MSG(exact, "A·B − C is not divisible by Z: the test circuit is not satisfied");
    free(va);
    free(ca);
    free(p);
}

/* The prover's H computation against the naive quotient (coset form) and against direct
 * evaluation of A·B − C at the odd 2m-th roots (snarkjs form), with and without row_position. */
static void test_h_poly(void)
{
    test_circuit tc;
    test_circuit_random(&tc, 3, 12, 13);   /* 16 rows: m = 16 */
    unsigned log_m = g16_log2_ceil(tc.w.num_constraints + tc.w.num_inputs);
    size_t m = (size_t)1 << log_m;
    uint32_t pos[16];
    for (size_t k = 0; k < m; k++)
        pos[k] = (uint32_t)((k * 5) % m);   /* 5 is odd: a permutation */
    fr *a = malloc(m * sizeof(fr)), *b = malloc(m * sizeof(fr)), *c = malloc(m * sizeof(fr));
    fr *h = malloc(m * sizeof(fr));
    for (int with_pos = 0; with_pos < 2; with_pos++) {
        const uint32_t *rp = with_pos ? pos : NULL;
        naive_h(h, &tc.w, log_m, rp);
        CHECK(g16_h_compute(a, b, c, log_m, &tc.w, CUZK_GROTH16_H_COSET, rp, 2) == CUZK_OK);
        bool same = true;
        for (size_t i = 0; i + 1 < m; i++)
            same &= fr_eq(&a[i], &h[i]);
        CHECK_MSG(same, "coset H differs from the naive quotient (row_position %d)", with_pos);
        cuzk_groth16_witness_t no_c = tc.w; /* C·z left to the prover: A·z ∘ B·z */
        no_c.c = NULL;
        CHECK(g16_h_compute(a, b, c, log_m, &no_c, CUZK_GROTH16_H_COSET, rp, 2) == CUZK_OK);
        same = true;
        for (size_t i = 0; i + 1 < m; i++)
            same &= fr_eq(&a[i], &h[i]);
        CHECK_MSG(same, "coset H without C·z differs from the naive quotient (row_position %d)", with_pos);

        /* snarkjs form: a·b − c at ζ·ω^j, computed here by interpolation and Horner. */
        CHECK(g16_h_compute(a, b, c, log_m, &tc.w, CUZK_GROTH16_H_ODD_ROOTS, rp, 1) == CUZK_OK);
        fr omega, zeta, *va = malloc(3 * m * sizeof(fr)), *ca = malloc(3 * m * sizeof(fr));
        CHECK(cuzk_ntt_root(&omega, log_m) == CUZK_OK);
        CHECK(cuzk_ntt_root(&zeta, log_m + 1) == CUZK_OK);
        domain_values(va, va + m, va + 2 * m, m, &tc.w, rp);
        for (int k = 0; k < 3; k++)
            naive_interpolate(ca + k * m, va + k * m, m, &omega);
        same = true;
        for (size_t j = 0; j < m; j++) {
            fr x, ea, eb, ec, want;
            fr_pow_u(&x, &omega, j);
            fr_mul(&x, &x, &zeta);
            horner(&ea, ca, m, &x);
            horner(&eb, ca + m, m, &x);
            horner(&ec, ca + 2 * m, m, &x);
            fr_mul(&want, &ea, &eb);
            fr_sub(&want, &want, &ec);
            same &= fr_eq(&want, &a[j]);
        }
        CHECK_MSG(same, "odd-root H differs from direct evaluation (row_position %d)", with_pos);
        free(va);
        free(ca);
    }
    free(a);
    free(b);
    free(c);
    free(h);
    test_circuit_free(&tc);
}

static void g1_naive_sum(g1_jac *acc, const g1_aff *p, const fr *k)
{
    g1_jac t;
    cuzk_scalar_t s;
    fr_to_scalar(&s, k);
    g1_jac_from_aff(&t, p);
    g1_jac_mul(&t, &t, &s);
    g1_jac_add(acc, acc, &t);
}

static bool bit(const uint64_t *bits, size_t i) { return (bits[i / 64] >> (i % 64)) & 1; }

/* The whole proof with fixed r, s against the textbook formulas evaluated naively. */
static void test_prove_against_naive(void)
{
    test_circuit tc;
    test_circuit_random(&tc, 4, 30, 40);
    cuzk_groth16_pk_t pk;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_groth16_setup(&pk, &tc.r1cs, 2, &err) == CUZK_OK, "%s", err.msg);
    fr r, s;
    test_rand_fr(&r);
    test_rand_fr(&s);
    cuzk_groth16_prove_opts opts = {.threads = 2};
    cuzk_groth16_proof_t proof;
    CHECK_MSG(g16_prove_blinded(&proof, &pk, &tc.w, 1, &opts, &r, &s, &err) == CUZK_OK, "%s", err.msg);

    size_t ni = tc.w.num_inputs, na = tc.w.num_aux;
    unsigned log_m = g16_log2_ceil(tc.w.num_constraints + ni);
    size_t m = (size_t)1 << log_m;
    fr *h = malloc(m * sizeof(fr));
    naive_h(h, &tc.w, log_m, NULL);
    g1_jac A, B1, C, t;
    g2_jac B2, t2;
    g1_jac_set_inf(&A);
    g1_jac_set_inf(&B1);
    g1_jac_set_inf(&C);
    g2_jac_set_inf(&B2);
    size_t ia = 0, ib = 0;
    for (size_t v = 0; v < ni + na; v++) {
        bool in_a = v < ni || bit(tc.a_aux, v - ni);
        bool in_b = v < ni ? bit(tc.b_in, v) : bit(tc.b_aux, v - ni);
        if (in_a)
            g1_naive_sum(&A, &pk.a[ia++], &tc.z[v]);
        if (in_b) {
            cuzk_scalar_t sc;
            fr_to_scalar(&sc, &tc.z[v]);
            g1_naive_sum(&B1, &pk.b_g1[ib], &tc.z[v]);
            g2_jac_from_aff(&t2, &pk.b_g2[ib++]);
            g2_jac_mul(&t2, &t2, &sc);
            g2_jac_add(&B2, &B2, &t2);
        }
        if (v >= ni)
            g1_naive_sum(&C, &pk.l[v - ni], &tc.z[v]);
    }
    CHECK(ia == pk.a_len && ib == pk.b_g1_len);
    for (size_t i = 0; i + 1 < m; i++)
        g1_naive_sum(&C, &pk.h[i], &h[i]);
    fr rs, neg_rs;
    fr_mul(&rs, &r, &s);
    fr_neg(&neg_rs, &rs);
    g1_naive_sum(&A, &pk.vk.alpha_g1, &FR_ONE);
    g1_naive_sum(&A, &pk.vk.delta_g1, &r);                     /* A = α + Σa + rδ */
    g1_naive_sum(&B1, &pk.vk.beta_g1, &FR_ONE);
    g1_naive_sum(&B1, &pk.vk.delta_g1, &s);                    /* B₁ = β + Σb + sδ */
    cuzk_scalar_t ss;
    fr_to_scalar(&ss, &s);
    g2_jac_from_aff(&t2, &pk.vk.delta_g2);
    g2_jac_mul(&t2, &t2, &ss);
    g2_jac_add(&B2, &B2, &t2);
    g2_jac_from_aff(&t2, &pk.vk.beta_g2);
    g2_jac_add(&B2, &B2, &t2);
    g1_aff a_aff, b1_aff;
    g1_jac_to_aff(&a_aff, &A);
    g1_jac_to_aff(&b1_aff, &B1);
    g1_naive_sum(&C, &a_aff, &s);                              /* C = sA + rB₁ − rsδ + H + L */
    g1_naive_sum(&C, &b1_aff, &r);
    g1_naive_sum(&C, &pk.vk.delta_g1, &neg_rs);
    g1_aff want_a, want_c;
    g2_aff want_b;
    g1_jac_to_aff(&want_a, &A);
    g2_jac_to_aff(&want_b, &B2);
    g1_jac_to_aff(&want_c, &C);
    CHECK(g1_aff_eq(&proof.a, &want_a));
    CHECK(g2_aff_eq(&proof.b, &want_b));
    CHECK(g1_aff_eq(&proof.c, &want_c));
    (void)t;

    /* without C·z (the direct backend's cuzk_cs_omit_c): the prover takes A·z ∘ B·z, which is C·z on
     * this satisfying assignment, and makes the same proof */
    cuzk_groth16_witness_t no_c = tc.w;
    no_c.c = NULL;
    cuzk_groth16_proof_t proof2;
    CHECK_MSG(g16_prove_blinded(&proof2, &pk, &no_c, 1, &opts, &r, &s, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(g1_aff_eq(&proof2.a, &want_a) && g2_aff_eq(&proof2.b, &want_b) && g1_aff_eq(&proof2.c, &want_c),
              "the proof without C·z differs");

    cuzk_groth16_pvk_t *pvk;
    CHECK(cuzk_groth16_pvk_new(&pvk, &pk.vk) == CUZK_OK);
    cuzk_scalar_t inputs[3];
    for (size_t i = 1; i < ni; i++)
        fr_to_scalar(&inputs[i - 1], &tc.z[i]);
    bool ok = false;
    CHECK(cuzk_groth16_verify(&ok, pvk, &proof, inputs, ni - 1, &err) == CUZK_OK && ok);
    cuzk_groth16_pvk_free(pvk);
    free(h);
    cuzk_groth16_pk_free(&pk);
    test_circuit_free(&tc);
}

static void inputs_of(cuzk_scalar_t *out, const test_circuit *tc)
{
    for (size_t i = 1; i < tc->w.num_inputs; i++)
        fr_to_scalar(&out[i - 1], &tc->z[i]);
}

/* Random r, s; several circuits in one call; single and batch verification; tampering. */
static void test_prove_verify(void)
{
    enum { N = 3, NI = 3 };
    test_circuit tc[N];
    test_circuit_random(&tc[0], NI, 50, 70);
    cuzk_groth16_pk_t pk;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_groth16_setup(&pk, &tc[0].r1cs, 0, &err) == CUZK_OK, "%s", err.msg);
    /* Same matrices, other witnesses: re-solve by generating with the same seed is not possible,
     * so the other circuits reuse circuit 0's shape and values (partitions of one key). */
    cuzk_groth16_witness_t ws[N];
    for (int k = 0; k < N; k++)
        ws[k] = tc[0].w;
    cuzk_groth16_proof_t proofs[N];
    CHECK_MSG(cuzk_groth16_prove(proofs, &pk, ws, N, NULL, &err) == CUZK_OK, "%s", err.msg);
    CHECK(!g1_aff_eq(&proofs[0].a, &proofs[1].a));   /* fresh blinding per proof */

    cuzk_groth16_pvk_t *pvk;
    CHECK(cuzk_groth16_pvk_new(&pvk, &pk.vk) == CUZK_OK);
    cuzk_scalar_t in[N * (NI - 1)];
    for (int k = 0; k < N; k++)
        inputs_of(in + k * (NI - 1), &tc[0]);
    bool ok = false;
    for (int k = 0; k < N; k++) {
        CHECK(cuzk_groth16_verify(&ok, pvk, &proofs[k], in, NI - 1, &err) == CUZK_OK);
        CHECK_MSG(ok, "proof %d does not verify", k);
    }
    CHECK(cuzk_groth16_verify_batch(&ok, pvk, proofs, in, NI - 1, N, &err) == CUZK_OK && ok);

    /* A wrong public input, a proof with a changed point, and a swapped proof are rejected. */
    cuzk_scalar_t bad[N * (NI - 1)];
    memcpy(bad, in, sizeof bad);
    bad[0].l[0] ^= 1;
    CHECK(cuzk_groth16_verify(&ok, pvk, &proofs[0], bad, NI - 1, &err) == CUZK_OK && !ok);
    CHECK(cuzk_groth16_verify_batch(&ok, pvk, proofs, bad, NI - 1, N, &err) == CUZK_OK && !ok);
    cuzk_groth16_proof_t forged = proofs[1];
    forged.c = proofs[0].c;
    CHECK(cuzk_groth16_verify(&ok, pvk, &forged, in, NI - 1, &err) == CUZK_OK && !ok);
    cuzk_groth16_proof_t batch[N];
    memcpy(batch, proofs, sizeof batch);
    batch[2] = forged;
    CHECK(cuzk_groth16_verify_batch(&ok, pvk, batch, in, NI - 1, N, &err) == CUZK_OK && !ok);
    g1_jac t;
    g1_jac_from_aff(&t, &proofs[0].a);
    g1_jac_dbl(&t, &t);
    g1_jac_to_aff(&forged.a, &t);
    forged.b = proofs[0].b;
    forged.c = proofs[0].c;
    CHECK(cuzk_groth16_verify(&ok, pvk, &forged, in, NI - 1, &err) == CUZK_OK && !ok);

    /* Wrong input count and a non-canonical input are errors, not "invalid". */
    err.msg[0] = 0;
    CHECK(cuzk_groth16_verify(&ok, pvk, &proofs[0], in, NI - 2, &err) == CUZK_ERR_MISMATCH && !ok);
    CHECK(err.msg[0] != 0);
    bad[0] = (cuzk_scalar_t){{FR_MODULUS[0], FR_MODULUS[1], FR_MODULUS[2], FR_MODULUS[3]}};
    CHECK(cuzk_groth16_verify(&ok, pvk, &proofs[0], bad, NI - 1, &err) == CUZK_ERR_NOT_CANONICAL);

    /* 192-byte encoding round trip; the identity and garbage are rejected. */
    uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_write(bytes, &proofs[0]);
    cuzk_groth16_proof_t back;
    CHECK(cuzk_groth16_proof_read(&back, bytes, &err) == CUZK_OK);
    CHECK(g1_aff_eq(&back.a, &proofs[0].a) && g2_aff_eq(&back.b, &proofs[0].b) &&
          g1_aff_eq(&back.c, &proofs[0].c));
    /* Several proofs: concatenated in order; a partial or corrupt one is named. */
    uint8_t many[N * CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_t many_back[N];
    size_t n_back = 0;
    cuzk_groth16_proofs_write(many, proofs, N);
    CHECK(memcmp(many, bytes, CUZK_GROTH16_PROOF_BYTES) == 0);
    CHECK(cuzk_groth16_proofs_read(many_back, N, &n_back, many, sizeof many, &err) == CUZK_OK && n_back == N);
    CHECK(g1_aff_eq(&many_back[2].c, &proofs[2].c));
    CHECK(cuzk_groth16_proofs_read(many_back, N, &n_back, many, sizeof many - 1, &err) == CUZK_ERR_BAD_LENGTH);
    CHECK(cuzk_groth16_proofs_read(many_back, N - 1, &n_back, many, sizeof many, &err) == CUZK_ERR_BAD_LENGTH);
    many[CUZK_GROTH16_PROOF_BYTES + 5] ^= 0x40;
    err.msg[0] = 0;
    CHECK(cuzk_groth16_proofs_read(many_back, N, &n_back, many, sizeof many, &err) != CUZK_OK);
    CHECK_MSG(strncmp(err.msg, "proof 1:", 8) == 0, "message: %s", err.msg);
    uint8_t inf[CUZK_GROTH16_PROOF_BYTES];
    memcpy(inf, bytes, sizeof inf);
    memset(inf, 0, 48);
    inf[0] = 0xc0;
    CHECK(cuzk_groth16_proof_read(&back, inf, &err) == CUZK_ERR_FORMAT);
    memset(inf, 0xff, sizeof inf);
    CHECK(cuzk_groth16_proof_read(&back, inf, &err) != CUZK_OK);

    cuzk_groth16_pvk_free(pvk);
    cuzk_groth16_pk_free(&pk);
    test_circuit_free(&tc[0]);
}

/* A witness of another shape is refused with a message, and no proof is written. */
static void test_mismatch(void)
{
    test_circuit tc, other;
    test_circuit_random(&tc, 2, 20, 25);
    test_circuit_random(&other, 2, 21, 25);
    cuzk_groth16_pk_t pk;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_groth16_setup(&pk, &tc.r1cs, 1, &err) == CUZK_OK);
    cuzk_groth16_proof_t proof;
    memset(&proof, 0x5a, sizeof proof);
    err.msg[0] = 0;
    CHECK(cuzk_groth16_prove(&proof, &pk, &other.w, 1, NULL, &err) == CUZK_ERR_MISMATCH);
    CHECK_MSG(strstr(err.msg, "l (aux)") != NULL, "message: %s", err.msg);
    uint8_t *raw = (uint8_t *)&proof;
    CHECK(raw[0] == 0x5a && raw[sizeof proof - 1] == 0x5a);
    /* A density bitmap that disagrees with the key's compact arrays. */
    cuzk_groth16_witness_t w = tc.w;
    uint64_t dens[2] = {0, 0};
    w.a_aux_density = dens;
    CHECK(cuzk_groth16_prove(&proof, &pk, &w, 1, NULL, &err) == CUZK_ERR_MISMATCH);
    CHECK_MSG(strstr(err.msg, "A density") != NULL, "message: %s", err.msg);
    cuzk_groth16_pk_free(&pk);

    /* bellperson refuses an aux variable that appears in no constraint. */
    cuzk_r1cs_t r = tc.r1cs;
    r.num_aux++;
    CHECK(cuzk_groth16_setup(&pk, &r, 1, &err) == CUZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(err.msg, "unconstrained") != NULL, "message: %s", err.msg);
    test_circuit_free(&tc);
    test_circuit_free(&other);
}

/* should_stop is polled before H and before each of the 5 MSMs of every proof; the prover stops at
 * the poll that says so, with CUZK_ERR_CANCELLED; never saying so gives valid proofs. */
static void test_should_stop(void)
{
    enum { N = 2, POLLS = 6 * N };
    test_circuit tc;
    test_circuit_random(&tc, 2, 30, 40);
    cuzk_groth16_pk_t pk;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_groth16_setup(&pk, &tc.r1cs, 1, &err) == CUZK_OK, "%s", err.msg);
    cuzk_groth16_witness_t ws[N] = {tc.w, tc.w};
    cuzk_groth16_proof_t proofs[N];
    for (int k = 1; k <= POLLS; k++) {
        test_stop_counter c = {0, k};
        cuzk_groth16_prove_opts o = {.threads = 1, .should_stop = test_stop_after, .stop_arg = &c};
        err.msg[0] = 0;
        CHECK_MSG(cuzk_groth16_prove(proofs, &pk, ws, N, &o, &err) == CUZK_ERR_CANCELLED, "stop at %d", k);
        CHECK_MSG(c.polls == k && strstr(err.msg, "cancelled"), "stop at %d: %d polls, '%s'", k, c.polls, err.msg);
    }
    test_stop_counter never = {0, 0};
    cuzk_groth16_prove_opts o = {.threads = 1, .should_stop = test_stop_after, .stop_arg = &never};
    CHECK_MSG(cuzk_groth16_prove(proofs, &pk, ws, N, &o, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(never.polls == POLLS, "%d polls", never.polls);
    cuzk_groth16_pvk_t *pvk;
    CHECK(cuzk_groth16_pvk_new(&pvk, &pk.vk) == CUZK_OK);
    cuzk_scalar_t in[1];
    inputs_of(in, &tc);
    bool ok = false;
    for (int k = 0; k < N; k++)
        CHECK(cuzk_groth16_verify(&ok, pvk, &proofs[k], in, 1, &err) == CUZK_OK && ok);
    cuzk_groth16_pvk_free(pvk);
    cuzk_groth16_pk_free(&pk);
    test_circuit_free(&tc);
}

/* Only ONE and no constraints: m = 1, no h points. */
static void test_trivial_circuit(void)
{
    test_circuit tc;
    test_circuit_random(&tc, 1, 0, 0);
    cuzk_groth16_pk_t pk;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_groth16_setup(&pk, &tc.r1cs, 1, &err) == CUZK_OK, "%s", err.msg);
    CHECK(pk.h_len == 0 && pk.a_len == 1 && pk.b_g1_len == 0);
    cuzk_groth16_proof_t proof;
    CHECK_MSG(cuzk_groth16_prove(&proof, &pk, &tc.w, 1, NULL, &err) == CUZK_OK, "%s", err.msg);
    cuzk_groth16_pvk_t *pvk;
    CHECK(cuzk_groth16_pvk_new(&pvk, &pk.vk) == CUZK_OK);
    bool ok = false;
    CHECK(cuzk_groth16_verify(&ok, pvk, &proof, NULL, 0, &err) == CUZK_OK && ok);
    cuzk_groth16_pvk_free(pvk);
    cuzk_groth16_pk_free(&pk);
    test_circuit_free(&tc);
}

int main(void)
{
    test_init("groth16");
    test_h_poly();
    test_prove_against_naive();
    test_prove_verify();
    test_mismatch();
    test_should_stop();
    test_trivial_circuit();
    return test_finish();
}
