/* Random satisfiable R1CS instances (see r1cs_gen.h). Each row gets a few random A and B terms;
 * C gets random terms plus one term whose coefficient is solved so that A·z · B·z = C·z. */
#include "r1cs_gen.h"
#include <stdlib.h>
#include <string.h>
#include "ff/fr.h"
#include "test_util.h"

typedef struct {
    uint64_t *start;
    uint32_t *col;
    cuzk_fr_t *coeff;
    size_t len, cap;
} csr_builder;

static void push(csr_builder *m, uint32_t col, const cuzk_fr_t *coeff)
{
    if (m->len == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->col = realloc(m->col, m->cap * sizeof *m->col);
        m->coeff = realloc(m->coeff, m->cap * sizeof *m->coeff);
    }
    m->col[m->len] = col;
    m->coeff[m->len] = *coeff;
    m->len++;
}

static bool row_has(const csr_builder *m, uint64_t row_begin, uint32_t col)
{
    for (uint64_t t = row_begin; t < m->len; t++)
        if (m->col[t] == col)
            return true;
    return false;
}

static void set_bit(uint64_t *bits, size_t i) { bits[i / 64] |= 1ull << (i % 64); }

/* Dense evaluation of one row: the reference for a, b, c. */
static void eval_row(cuzk_fr_t *out, const csr_builder *m, uint64_t begin, uint64_t end, const cuzk_fr_t *z)
{
    *out = FR_ZERO;
    for (uint64_t t = begin; t < end; t++) {
        cuzk_fr_t p;
        fr_mul(&p, &m->coeff[t], &z[m->col[t]]);
        fr_add(out, out, &p);
    }
}

void test_circuit_random(test_circuit *tc, size_t ni, size_t na, size_t nc)
{
    memset(tc, 0, sizeof *tc);
    size_t nv = ni + na;
    tc->z = malloc(nv * sizeof *tc->z);
    tc->z[0] = FR_ONE;
    for (size_t i = 1; i < nv; i++)
        test_rand_fr(&tc->z[i]);
    /* Roles of aux variables: 0 = anywhere, 1 = only A, 2 = only B, 3 = only C. */
    uint8_t *role = calloc(nv, 1);
    for (size_t j = 0; j < na; j++)
        role[ni + j] = (uint8_t)(j % 7 < 4 ? j % 7 : 0);
    csr_builder mat[3] = {0};
    for (int k = 0; k < 3; k++) {
        mat[k].start = calloc(nc + 1, sizeof(uint64_t));
    }
    tc->a = calloc(nc ? nc : 1, sizeof(cuzk_fr_t));
    tc->b = calloc(nc ? nc : 1, sizeof(cuzk_fr_t));
    tc->c = calloc(nc ? nc : 1, sizeof(cuzk_fr_t));
    size_t next_aux = 0;   /* guarantees every aux appears at least once */
    for (size_t row = 0; row < nc; row++) {
        for (int k = 0; k < 3; k++) {
            uint64_t begin = mat[k].len;
            size_t terms = 1 + test_rand_below(3);
            for (size_t t = 0; t < terms; t++) {
                uint32_t var;
                if (next_aux < na && role[ni + next_aux] == 0 && k == 0)
                    var = (uint32_t)(ni + next_aux++);
                else if (next_aux < na && role[ni + next_aux] == (uint8_t)(k + 1))
                    var = (uint32_t)(ni + next_aux++);
                else
                    var = (uint32_t)test_rand_below(nv);
                if (role[var] && role[var] != k + 1)
                    continue;
                if (row_has(&mat[k], begin, var))
                    continue;
                cuzk_fr_t co;
                test_rand_fr(&co);
                push(&mat[k], var, &co);
            }
            if (k == 2) {
                /* Solve one more C term (ONE, unless ONE is already in the row) for satisfiability. */
                cuzk_fr_t want, have, co;
                fr_mul(&want, &tc->a[row], &tc->b[row]);
                eval_row(&have, &mat[2], begin, mat[2].len, tc->z);
                fr_sub(&co, &want, &have);
                if (row_has(&mat[2], begin, 0)) {
                    for (uint64_t t = begin; t < mat[2].len; t++)
                        if (mat[2].col[t] == 0)
                            fr_add(&mat[2].coeff[t], &mat[2].coeff[t], &co);
                } else if (!fr_is_zero(&co)) {
                    push(&mat[2], 0, &co);
                }
            }
            mat[k].start[row + 1] = mat[k].len;
            cuzk_fr_t *dst = k == 0 ? tc->a : k == 1 ? tc->b : tc->c;
            eval_row(&dst[row], &mat[k], begin, mat[k].len, tc->z);
        }
    }
    if (next_aux < na) {   /* a generator bug or too few rows: every aux must be constrained */
        fprintf(stderr, "test_circuit_random: %zu rows cannot place %zu aux\n", nc, na);
        abort();
    }
    size_t words = (nv + 63) / 64 + 1;
    tc->a_aux = calloc(words, 8);
    tc->b_in = calloc(words, 8);
    tc->b_aux = calloc(words, 8);
    for (size_t t = 0; t < mat[0].len; t++)
        if (mat[0].col[t] >= ni && !fr_is_zero(&mat[0].coeff[t]))
            set_bit(tc->a_aux, mat[0].col[t] - ni);
    for (size_t t = 0; t < mat[1].len; t++) {
        if (fr_is_zero(&mat[1].coeff[t]))
            continue;
        if (mat[1].col[t] < ni)
            set_bit(tc->b_in, mat[1].col[t]);
        else
            set_bit(tc->b_aux, mat[1].col[t] - ni);
    }
    cuzk_csr_t *dst[3] = {&tc->r1cs.a, &tc->r1cs.b, &tc->r1cs.c};
    for (int k = 0; k < 3; k++) {
        dst[k]->row_start = mat[k].start;
        dst[k]->col = mat[k].col ? mat[k].col : malloc(4);
        dst[k]->coeff = mat[k].coeff ? mat[k].coeff : malloc(sizeof(cuzk_fr_t));
    }
    tc->r1cs.num_inputs = ni;
    tc->r1cs.num_aux = na;
    tc->r1cs.num_constraints = nc;
    tc->w = (cuzk_groth16_witness_t){
        .num_inputs = ni, .num_aux = na, .num_constraints = nc,
        .a = tc->a, .b = tc->b, .c = tc->c, .input = tc->z, .aux = tc->z + ni,
        .a_aux_density = tc->a_aux, .b_input_density = tc->b_in, .b_aux_density = tc->b_aux,
    };
    free(role);
}

void test_circuit_free(test_circuit *tc)
{
    cuzk_csr_t *m[3] = {&tc->r1cs.a, &tc->r1cs.b, &tc->r1cs.c};
    for (int k = 0; k < 3; k++) {
        free(m[k]->row_start);
        free(m[k]->col);
        free(m[k]->coeff);
    }
    free(tc->z);
    free(tc->a);
    free(tc->b);
    free(tc->c);
    free(tc->a_aux);
    free(tc->b_in);
    free(tc->b_aux);
    memset(tc, 0, sizeof *tc);
}
