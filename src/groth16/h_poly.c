/* The H polynomial of a Groth16 proof from the constraint evaluations a = A·z, b = B·z, c = C·z.
 * Two forms, matching what the key's h points were made for:
 *   bellperson (coset): iNTT a, b, c → coset-7 NTT → (a·b − c)/Z, Z = 7^m − 1 on the whole coset →
 *                       inverse coset NTT: the m − 1 coefficients of H (7 NTTs);
 *   snarkjs (odd roots): iNTT → NTT on the coset ζ·H (ζ a primitive 2m-th root, so ζ·H is the odd
 *                       powers of ζ): a·b − c there; Z = −2 there is folded into the key (6 NTTs). */
#include <stdlib.h>
#include <string.h>
#include "cuzk/ntt.h"
#include "groth16/groth16_internal.h"
#include "util/parallel.h"

/* Places the witness rows into the domain: row k at position k (or row_position[k]); the input
 * rows (a = input[i], b = c = 0) follow the synthesized ones, as bellperson appends them. */
static void h_place_rows(fr *a, fr *b, fr *c, size_t m, const cuzk_groth16_witness_t *w,
                         const uint32_t *row_position)
{
    memset(a, 0, m * sizeof *a);
    memset(b, 0, m * sizeof *b);
    memset(c, 0, m * sizeof *c);
    for (size_t k = 0; k < w->num_constraints; k++) {
        size_t pos = row_position ? row_position[k] : k;
        a[pos] = w->a[k];
        b[pos] = w->b[k];
        if (w->c)
            c[pos] = w->c[k];
        else
            fr_mul(&c[pos], &w->a[k], &w->b[k]);
    }
    for (size_t i = 0; i < w->num_inputs; i++) {
        size_t k = w->num_constraints + i;
        a[row_position ? row_position[k] : k] = w->input[i];
    }
}

typedef struct {
    const fr *a, *b;
    fr *c;
} product_ctx;

/* c[j] = a[j]·b[j]: C·z of a satisfying assignment, row by row. */
static void h_product_chunk(void *p, size_t begin, size_t end)
{
    product_ctx *ctx = p;
    fr_mul_many(ctx->c + begin, ctx->a + begin, ctx->b + begin, end - begin);
}

void g16_h_place_consumed(fr *a, fr *b, fr *c, size_t m, size_t num_constraints, const fr *input,
                          size_t num_inputs, int threads)
{
    size_t nc = num_constraints;
    product_ctx ctx = {a, b, c};
    cuzk_parallel_for(threads, nc, 1 << 14, h_product_chunk, &ctx);
    for (size_t i = 0; i < num_inputs; i++)
        a[nc + i] = input[i];
    memset(a + nc + num_inputs, 0, (m - nc - num_inputs) * sizeof *a);
    memset(b + nc, 0, (m - nc) * sizeof *b);
    memset(c + nc, 0, (m - nc) * sizeof *c);
}

typedef struct {
    fr *a;
    const fr *b, *c;
    fr factor;      /* coset: 1/Z; odd roots: unused */
    bool divide;
} pointwise_ctx;

/* Elements per step of the pointwise pass: its products go through fr_mul_many, 1/Z from a row of copies. */
#define POINTWISE_STEP 256

/* a[j] = a[j]·b[j] − c[j], times 1/Z on the coset. */
static void h_pointwise_chunk(void *p, size_t begin, size_t end)
{
    pointwise_ctx *ctx = p;
    fr factor[POINTWISE_STEP];
    for (size_t i = 0; ctx->divide && i < POINTWISE_STEP; i++)
        factor[i] = ctx->factor;
    for (size_t j = begin; j < end; j += POINTWISE_STEP) {
        size_t n = end - j < POINTWISE_STEP ? end - j : POINTWISE_STEP;
        fr *a = ctx->a + j;
        fr_mul_many(a, a, ctx->b + j, n);
        for (size_t i = 0; i < n; i++)
            fr_sub(&a[i], &a[i], &ctx->c[j + i]);
        if (ctx->divide)
            fr_mul_many(a, a, factor, n);
    }
}

/* A transform of size 1 is the identity (a circuit with no constraints and only ONE has m = 1). */
static cuzk_status h_ntt(fr *data, unsigned log_m, cuzk_ntt_kind kind, cuzk_ntt_order order, int threads)
{
    return log_m == 0 ? CUZK_OK : cuzk_ntt_ordered(data, log_m, kind, order, threads);
}

/* Up to the pointwise step: a = (a·b − c)/Z on the coset 7·D; b and c are free after. */
static cuzk_status h_coset(fr *a, fr *b, fr *c, unsigned log_m, int threads)
{
    fr *bufs[3] = {a, b, c};
    cuzk_status st;
    for (int i = 0; i < 3; i++) {
        if ((st = h_ntt(bufs[i], log_m, CUZK_NTT_INVERSE, CUZK_NTT_NR, threads)) != CUZK_OK ||
            (st = h_ntt(bufs[i], log_m, CUZK_NTT_COSET_FORWARD, CUZK_NTT_RN, threads)) != CUZK_OK)
            return st;
    }
    /* Z(7·ω^j) = 7^m·ω^(jm) − 1 = 7^m − 1 for every point of the coset. */
    pointwise_ctx ctx = {.a = a, .b = b, .c = c, .divide = true};
    fr seven;
    uint64_t m = (uint64_t)1 << log_m;
    fr_from_u64(&seven, 7);
    fr_pow(&ctx.factor, &seven, &m, 1);
    fr_sub(&ctx.factor, &ctx.factor, &FR_ONE);
    fr_inv(&ctx.factor, &ctx.factor);
    cuzk_parallel_for(threads, m, 1 << 12, h_pointwise_chunk, &ctx);
    return CUZK_OK;
}

/* Evaluations on the odd powers of ζ (a primitive 2m-th root) are evaluations on the coset ζ·H:
 * iNTT with bit-reversed output, then the ζ-coset NTT from bit-reversed input, no permutation. */
static cuzk_status h_odd_roots(fr *a, fr *b, fr *c, unsigned log_m, int threads)
{
    fr *bufs[3] = {a, b, c};
    size_t m = (size_t)1 << log_m;
    fr zeta;
    cuzk_status st = cuzk_ntt_root(&zeta, log_m + 1);
    if (st != CUZK_OK)
        return st;
    /* m = 1 needs no transform: the single value at ζ = −1 is the constant coefficient itself. */
    for (int i = 0; i < 3 && log_m > 0; i++) {
        if ((st = cuzk_ntt_ordered(bufs[i], log_m, CUZK_NTT_INVERSE, CUZK_NTT_NR, threads)) != CUZK_OK ||
            (st = cuzk_ntt_coset_shifted(bufs[i], log_m, &zeta, CUZK_NTT_COSET_FORWARD, CUZK_NTT_RN, threads)) !=
                CUZK_OK)
            return st;
    }
    pointwise_ctx ctx = {.a = a, .b = b, .c = c, .divide = false};
    cuzk_parallel_for(threads, m, 1 << 12, h_pointwise_chunk, &ctx);
    return CUZK_OK;
}

cuzk_status g16_h_evaluate(fr *a, fr *b, fr *c, unsigned log_m, cuzk_groth16_h_mode mode, int threads)
{
    if (mode == CUZK_GROTH16_H_ODD_ROOTS)
        return h_odd_roots(a, b, c, log_m, threads);
    return h_coset(a, b, c, log_m, threads);
}

cuzk_status g16_h_finish(fr *a, unsigned log_m, cuzk_groth16_h_mode mode, int threads)
{
    if (mode == CUZK_GROTH16_H_ODD_ROOTS)
        return CUZK_OK; /* the evaluations are what the key's h points take */
    return h_ntt(a, log_m, CUZK_NTT_COSET_INVERSE, CUZK_NTT_NN, threads);
}

cuzk_status g16_h_compute(fr *a, fr *b, fr *c, unsigned log_m, const cuzk_groth16_witness_t *w,
                          cuzk_groth16_h_mode mode, const uint32_t *row_position, int threads)
{
    h_place_rows(a, b, c, (size_t)1 << log_m, w, row_position);
    cuzk_status st = g16_h_evaluate(a, b, c, log_m, mode, threads);
    return st == CUZK_OK ? g16_h_finish(a, log_m, mode, threads) : st;
}
