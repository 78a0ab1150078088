/* Micro benchmarks of the Groth16 layer on a squaring chain x_{i+1} = x_i² (random x_0, so every
 * witness value is a full-width scalar: the prover's worst case), with a development setup:
 *   groth16-prove   one proof of a circuit with 2^log2 domain rows (default 2^12);
 *   groth16-verify  single and batch (8 proofs) verification of a 2-input proof.
 * Checks after timing: the proofs verify, a tampered input does not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cuzk/groth16.h"
#include "ff/fr.h"

typedef struct {
    cuzk_r1cs_t r1cs;
    fr *z, *a, *b, *c;
    cuzk_groth16_witness_t w;
    cuzk_groth16_pk_t pk;
    cuzk_groth16_pvk_t *pvk;
    cuzk_groth16_proof_t proofs[8];
    cuzk_scalar_t inputs[8];
    int threads;
    bool ok;
} chain_ctx;

/* Rows: nc constraints + 2 inputs (ONE, out) = 2^log2. */
static void chain_build(chain_ctx *c, unsigned log2)
{
    size_t nc = ((size_t)1 << log2) - 2, na = nc;
    c->z = malloc((2 + na) * sizeof(fr));
    c->a = malloc(nc * sizeof(fr));
    c->b = malloc(nc * sizeof(fr));
    c->c = malloc(nc * sizeof(fr));
    cuzk_csr_t *m[3] = {&c->r1cs.a, &c->r1cs.b, &c->r1cs.c};
    for (int k = 0; k < 3; k++) {
        m[k]->row_start = malloc((nc + 1) * sizeof(uint64_t));
        m[k]->col = malloc(nc * sizeof(uint32_t));
        m[k]->coeff = malloc(nc * sizeof(fr));
        m[k]->row_start[0] = 0;
    }
    fr *x = c->z + 2;
    fr_from_u64(&x[0], 0x9e3779b97f4a7c15ull);
    for (size_t i = 0; i < nc; i++) {
        bool last = i + 1 == nc;
        if (!last)
            fr_sqr(&x[i + 1], &x[i]);
        /* row i: x_i · x_i = x_{i+1}; the last row: x_i · ONE = out */
        m[0]->col[i] = (uint32_t)(2 + i);
        m[1]->col[i] = last ? 0 : (uint32_t)(2 + i);
        m[2]->col[i] = last ? 1 : (uint32_t)(3 + i);
        for (int k = 0; k < 3; k++) {
            m[k]->coeff[i] = FR_ONE;
            m[k]->row_start[i + 1] = i + 1;
        }
        c->a[i] = x[i];
        c->b[i] = last ? FR_ONE : x[i];
        c->c[i] = last ? x[i] : x[i + 1];
    }
    c->z[0] = FR_ONE;
    c->z[1] = x[nc - 1];
    c->r1cs.num_inputs = 2;
    c->r1cs.num_aux = na;
    c->r1cs.num_constraints = nc;
    c->w = (cuzk_groth16_witness_t){.num_inputs = 2, .num_aux = na, .num_constraints = nc,
                                    .a = c->a, .b = c->b, .c = c->c, .input = c->z, .aux = c->z + 2};
    /* Densities: every aux is in A; B holds ONE and every aux but the last. */
    size_t words = (na + 63) / 64;
    uint64_t *a_aux = calloc(words, 8), *b_aux = calloc(words, 8), *b_in = calloc(1, 8);
    for (size_t j = 0; j < na; j++) {
        a_aux[j / 64] |= 1ull << (j % 64);
        if (j + 1 < na)
            b_aux[j / 64] |= 1ull << (j % 64);
    }
    b_in[0] = 1;
    c->w.a_aux_density = a_aux;
    c->w.b_aux_density = b_aux;
    c->w.b_input_density = b_in;
    fr_to_scalar(&c->inputs[0], &c->z[1]);
}

static void chain_free(chain_ctx *c)
{
    cuzk_csr_t *m[3] = {&c->r1cs.a, &c->r1cs.b, &c->r1cs.c};
    for (int k = 0; k < 3; k++) {
        free(m[k]->row_start);
        free(m[k]->col);
        free(m[k]->coeff);
    }
    free((void *)c->w.a_aux_density);
    free((void *)c->w.b_aux_density);
    free((void *)c->w.b_input_density);
    free(c->z);
    free(c->a);
    free(c->b);
    free(c->c);
    cuzk_groth16_pvk_free(c->pvk);
    cuzk_groth16_pk_free(&c->pk);
}

/* Builds the chain and its keys; false (having said why) when the setup fails. */
static bool chain_setup(chain_ctx *c, unsigned log2, int threads)
{
    cuzk_err_t err = {{0}};
    c->threads = threads;
    chain_build(c, log2);
    if (cuzk_groth16_setup(&c->pk, &c->r1cs, threads, &err) != CUZK_OK ||
        cuzk_groth16_pvk_new(&c->pvk, &c->pk.vk) != CUZK_OK) {
        fprintf(stderr, "groth16 bench: setup failed: %s\n", err.msg);
        return false;
    }
    return true;
}

static void run_prove(void *p)
{
    chain_ctx *c = p;
    cuzk_groth16_prove_opts o = {.threads = c->threads};
    c->ok = cuzk_groth16_prove(c->proofs, &c->pk, &c->w, 1, &o, NULL) == CUZK_OK;
}

static void run_verify(void *p)
{
    chain_ctx *c = p;
    bool valid;
    c->ok = cuzk_groth16_verify(&valid, c->pvk, &c->proofs[0], c->inputs, 1, NULL) == CUZK_OK && valid;
}

static void run_verify_batch(void *p)
{
    chain_ctx *c = p;
    bool valid;
    c->ok = cuzk_groth16_verify_batch(&valid, c->pvk, c->proofs, c->inputs, 1, 8, NULL) == CUZK_OK && valid;
}

/* The checks after timing: every proof verifies, a changed public input does not. */
static bool chain_check(chain_ctx *c, size_t n)
{
    bool valid, all = true;
    for (size_t k = 0; k < n; k++)
        all &= cuzk_groth16_verify(&valid, c->pvk, &c->proofs[k], c->inputs, 1, NULL) == CUZK_OK && valid;
    cuzk_scalar_t bad = c->inputs[0];
    bad.l[0] ^= 1;
    all &= cuzk_groth16_verify(&valid, c->pvk, &c->proofs[0], &bad, 1, NULL) == CUZK_OK && !valid;
    return all;
}

int micro_groth16_prove(const micro_args *a)
{
    static chain_ctx c;
    unsigned log2 = a->log2_set ? a->log2 : 12;
    if (log2 < 2 || log2 > 24)
        return micro_bad_arg("groth16-prove: --log2 must be in [2, 24]");
    if (!chain_setup(&c, log2, a->threads))
        return MICRO_ERROR;
    bench_stats st = bench_time(a->iters, run_prove, &c);
    bench_print("groth16-prove", a, st, 1, NULL);
    bool ok = c.ok && chain_check(&c, 1);
    printf("groth16-prove: check %s (proof verifies, tampered input rejected)\n", ok ? "ok" : "FAILED");
    chain_free(&c);
    return ok ? MICRO_OK : MICRO_WRONG;
}

int micro_groth16_verify(const micro_args *a)
{
    static chain_ctx c;
    if (!chain_setup(&c, a->log2_set ? a->log2 : 8, a->threads))
        return MICRO_ERROR;
    cuzk_groth16_prove_opts o = {.threads = a->threads};
    for (int k = 0; k < 8; k++) {
        c.inputs[k] = c.inputs[0];
        if (cuzk_groth16_prove(&c.proofs[k], &c.pk, &c.w, 1, &o, NULL) != CUZK_OK) {
            fprintf(stderr, "groth16-verify: proving failed\n");
            return MICRO_ERROR;
        }
    }
    bench_stats st = bench_time(a->iters, run_verify, &c);
    bool ok = c.ok;
    bench_print("groth16-verify", a, st, 1, NULL);
    st = bench_time(a->iters, run_verify_batch, &c);
    ok &= c.ok;
    bench_print("groth16-verify-batch-8", a, st, 8, NULL);
    ok &= chain_check(&c, 8);
    printf("groth16-verify: check %s (8 proofs verify, tampered input rejected)\n", ok ? "ok" : "FAILED");
    chain_free(&c);
    return ok ? MICRO_OK : MICRO_WRONG;
}
