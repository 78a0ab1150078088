/* Are two finished constraint systems of the same backend the same system? Every array the backend
 * keeps is compared: counts, densities and non-zeros, input and aux assignments, A·z, B·z, C·z and the
 * density bitmaps (direct), the CSR matrices and bitmaps (record; taken from both systems), the
 * TestConstraintSystem hash and first unsatisfied constraint (test), the first unsatisfied constraint
 * (check). Test-only, static; shared by the tests of joined syntheses. */
#ifndef CUZK_TESTS_CS_TEST_COMPARE_H
#define CUZK_TESTS_CS_TEST_COMPARE_H
#include <stdio.h>
#include <string.h>
#include "cuzk/cs.h"

/* memcmp that takes empty arrays: a system without aux or non-zeros may keep NULL for them */
static inline bool cs_test_bytes_eq(const void *x, const void *y, size_t n) { return n == 0 || memcmp(x, y, n) == 0; }

static inline bool cs_test_words_eq(const uint64_t *x, const uint64_t *y, size_t bits)
{
    return cs_test_bytes_eq(x, y, (bits + 63) / 64 * 8);
}

static inline bool cs_test_csr_eq(const cuzk_csr_t *x, const cuzk_csr_t *y, size_t rows)
{
    size_t nnz = x->row_start[rows];
    return nnz == y->row_start[rows] && memcmp(x->row_start, y->row_start, (rows + 1) * 8) == 0 &&
           cs_test_bytes_eq(x->col, y->col, nnz * sizeof(uint32_t)) &&
           cs_test_bytes_eq(x->coeff, y->coeff, nnz * sizeof(cuzk_fr_t));
}

/* true when x and y are the same system; otherwise why names the first difference. Record systems give
 * their records away here. */
static inline bool cs_test_same(cuzk_cs_t *x, cuzk_cs_t *y, char *why, size_t why_len)
{
#define CS_DIFF(...) return snprintf(why, why_len, __VA_ARGS__), false
    cuzk_cs_backend b = cuzk_cs_get_backend(x);
    if (b != cuzk_cs_get_backend(y))
        CS_DIFF("backends %d and %d", (int)b, (int)cuzk_cs_get_backend(y));
    cuzk_err_t ex = {{0}}, ey = {{0}};
    cuzk_status sx = cuzk_cs_status(x, &ex), sy = cuzk_cs_status(y, &ey);
    if (sx != sy || (sx != CUZK_OK && strcmp(ex.msg, ey.msg) != 0))
        CS_DIFF("status %d (%.100s) and %d (%.100s)", (int)sx, ex.msg, (int)sy, ey.msg);
    if (sx != CUZK_OK)
        return true;
    cuzk_cs_counts_t cx, cy;
    cuzk_cs_counts(x, &cx);
    cuzk_cs_counts(y, &cy);
    if (cx.num_inputs != cy.num_inputs || cx.num_aux != cy.num_aux || cx.num_constraints != cy.num_constraints ||
        cx.has_density != cy.has_density || cx.a_aux_density != cy.a_aux_density ||
        cx.b_input_density != cy.b_input_density || cx.b_aux_density != cy.b_aux_density || cx.nnz_a != cy.nnz_a ||
        cx.nnz_b != cy.nnz_b || cx.nnz_c != cy.nnz_c)
        CS_DIFF("counts: %zu/%zu inputs, %zu/%zu aux, %zu/%zu constraints, densities %zu/%zu %zu/%zu %zu/%zu, "
                "nnz %zu/%zu %zu/%zu %zu/%zu",
                cx.num_inputs, cy.num_inputs, cx.num_aux, cy.num_aux, cx.num_constraints, cy.num_constraints,
                cx.a_aux_density, cy.a_aux_density, cx.b_input_density, cy.b_input_density, cx.b_aux_density,
                cy.b_aux_density, cx.nnz_a, cy.nnz_a, cx.nnz_b, cy.nnz_b, cx.nnz_c, cy.nnz_c);
    if (cuzk_cs_wants_values(x)) {
        if (!cs_test_bytes_eq(cuzk_cs_inputs(x), cuzk_cs_inputs(y), cx.num_inputs * sizeof(cuzk_fr_t)))
            CS_DIFF("input assignments");
        if (!cs_test_bytes_eq(cuzk_cs_aux(x), cuzk_cs_aux(y), cx.num_aux * sizeof(cuzk_fr_t)))
            CS_DIFF("aux assignments");
    }
    size_t m = cx.num_constraints;
    if (b == CUZK_CS_DIRECT) {
        cuzk_groth16_witness_t wx, wy;
        if (cuzk_cs_groth16_witness(x, &wx, NULL) != CUZK_OK || cuzk_cs_groth16_witness(y, &wy, NULL) != CUZK_OK)
            CS_DIFF("no direct witness");
        if (m && !wx.c != !wy.c) /* without constraints neither array need exist */
            CS_DIFF("C·z kept by one system only (cuzk_cs_omit_c)");
        size_t zb = m * sizeof(cuzk_fr_t);
        if (!cs_test_bytes_eq(wx.a, wy.a, zb) || !cs_test_bytes_eq(wx.b, wy.b, zb) ||
            (wx.c && !cs_test_bytes_eq(wx.c, wy.c, zb)))
            CS_DIFF("A·z, B·z or C·z");
        if (!cs_test_words_eq(wx.a_aux_density, wy.a_aux_density, cx.num_aux) ||
            !cs_test_words_eq(wx.b_aux_density, wy.b_aux_density, cx.num_aux) ||
            !cs_test_words_eq(wx.b_input_density, wy.b_input_density, cx.num_inputs))
            CS_DIFF("density bitmaps");
    }
    if (b == CUZK_CS_RECORD) {
        cuzk_cs_record_t rx, ry;
        bool ok = cuzk_cs_take_record(x, &rx, NULL) == CUZK_OK && cuzk_cs_take_record(y, &ry, NULL) == CUZK_OK;
        ok = ok && cs_test_csr_eq(&rx.r1cs.a, &ry.r1cs.a, m) && cs_test_csr_eq(&rx.r1cs.b, &ry.r1cs.b, m) &&
             cs_test_csr_eq(&rx.r1cs.c, &ry.r1cs.c, m) &&
             cs_test_words_eq(rx.a_aux_density, ry.a_aux_density, cx.num_aux) &&
             cs_test_words_eq(rx.b_aux_density, ry.b_aux_density, cx.num_aux) &&
             cs_test_words_eq(rx.b_input_density, ry.b_input_density, cx.num_inputs);
        cuzk_cs_record_free(&rx);
        cuzk_cs_record_free(&ry);
        if (!ok)
            CS_DIFF("records (CSR matrices or density bitmaps)");
    }
    if (b == CUZK_CS_TEST) {
        char hx[65], hy[65];
        if (cuzk_cs_test_hash(x, hx, NULL) != CUZK_OK || cuzk_cs_test_hash(y, hy, NULL) != CUZK_OK ||
            strcmp(hx, hy) != 0)
            CS_DIFF("test hashes %s and %s", hx, hy);
    }
    if (b == CUZK_CS_TEST || b == CUZK_CS_CHECK) {
        int64_t ux = -2, uy = -2;
        if (cuzk_cs_test_unsatisfied(x, &ux, NULL) != CUZK_OK || cuzk_cs_test_unsatisfied(y, &uy, NULL) != CUZK_OK ||
            ux != uy)
            CS_DIFF("first unsatisfied constraint %lld and %lld", (long long)ux, (long long)uy);
    }
    return true;
#undef CS_DIFF
}

#endif
