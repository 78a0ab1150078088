/* Sparse matrix–vector products, the prover's use of a record (the "pre-compiled constraint evaluator"):
 * A·z, B·z, C·z over rows on several threads, from the CSR form and from the compact form, and the density
 * bitmaps of both. */
#include <stdlib.h>
#include "cs/cs_internal.h"
#include "util/parallel.h"

/* ---- CSR ---- */

typedef struct {
    const cuzk_r1cs_t *r1cs;
    const fr *input, *aux;
    fr *out[3];
} eval_ctx;

static inline void row_dot(fr *out, const cuzk_csr_t *m, size_t row, const fr *input, const fr *aux,
                           uint32_t ni)
{
    fr acc = FR_ZERO, tmp;
    for (uint64_t k = m->row_start[row], e = m->row_start[row + 1]; k < e; k++) {
        uint32_t col = m->col[k];
        const fr *z = col < ni ? &input[col] : &aux[col - ni];
        if (cs_is_one(&m->coeff[k])) {
            fr_add(&acc, &acc, z);
        } else {
            fr_mul(&tmp, &m->coeff[k], z);
            fr_add(&acc, &acc, &tmp);
        }
    }
    *out = acc;
}

static void eval_rows(void *p, size_t begin, size_t end)
{
    eval_ctx *c = p;
    const cuzk_r1cs_t *r = c->r1cs;
    uint32_t ni = (uint32_t)r->num_inputs;
    const cuzk_csr_t *ms[3] = {&r->a, &r->b, &r->c};
    for (size_t row = begin; row < end; row++)
        for (int k = 0; k < 3; k++)
            row_dot(&c->out[k][row], ms[k], row, c->input, c->aux, ni);
}

void cuzk_r1cs_eval(const cuzk_r1cs_t *r1cs, const cuzk_fr_t *input, const cuzk_fr_t *aux, cuzk_fr_t *a,
                    cuzk_fr_t *b, cuzk_fr_t *c, int threads)
{
    eval_ctx ctx = {r1cs, input, aux, {a, b, c}};
    cuzk_parallel_for(threads > 0 ? threads : cuzk_cpu_count(), r1cs->num_constraints, 4096, eval_rows, &ctx);
}

void cuzk_r1cs_density(const cuzk_r1cs_t *r1cs, uint64_t *a_aux, uint64_t *b_input, uint64_t *b_aux)
{
    size_t ni = r1cs->num_inputs;
    memset(a_aux, 0, cs_words(r1cs->num_aux) * 8);
    memset(b_aux, 0, cs_words(r1cs->num_aux) * 8);
    memset(b_input, 0, cs_words(ni) * 8);
    size_t nnz_a = r1cs->a.row_start[r1cs->num_constraints];
    size_t nnz_b = r1cs->b.row_start[r1cs->num_constraints];
    for (size_t k = 0; k < nnz_a; k++) {
        size_t col = r1cs->a.col[k];
        if (col >= ni)
            a_aux[(col - ni) / 64] |= 1ULL << ((col - ni) % 64);
    }
    for (size_t k = 0; k < nnz_b; k++) {
        size_t col = r1cs->b.col[k];
        if (col >= ni)
            b_aux[(col - ni) / 64] |= 1ULL << ((col - ni) % 64);
        else
            b_input[col / 64] |= 1ULL << (col % 64);
    }
}


/* ---- compact ---- */

typedef struct {
    const cuzk_r1cs_compact_t *m;
    const fr *input, *aux;
    fr *out[3];
} ceval_ctx;

/* The first long row at or after `row` (binary search over the pairs). */
static size_t first_long(const cuzk_cmat_t *m, size_t row)
{
    size_t lo = 0, hi = m->num_long;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->long_rows[2 * mid] < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Rows [row0, row1) of one matrix, row0 a block's first; wide says which index array. The ±1 entries
 * (indices 0 and 1) are an addition or a subtraction. */
static inline void cmat_rows(fr *out, const cuzk_cmat_t *m, size_t row0, size_t row1, const fr *input,
                             const fr *aux, uint32_t ni, bool wide)
{
    uint64_t t = m->block_start[row0 / CUZK_CMAT_BLOCK];
    size_t li = m->num_long ? first_long(m, row0) : 0;
    const fr *table = m->table;
    for (size_t row = row0; row < row1; row++) {
        uint64_t n = m->row_len[row];
        if (n == CUZK_CMAT_LONG_ROW)
            n = m->long_rows[2 * li++ + 1];
        fr acc = FR_ZERO, tmp;
        for (uint64_t e = t + n; t < e; t++) {
            uint32_t col = m->col[t];
            const fr *z = col < ni ? &input[col] : &aux[col - ni];
            unsigned i = wide ? m->idx16[t] : m->idx8[t];
            if (i == 0) {
                fr_add(&acc, &acc, z);
            } else if (i == 1) {
                fr_sub(&acc, &acc, z);
            } else {
                fr_mul(&tmp, &table[i], z);
                fr_add(&acc, &acc, &tmp);
            }
        }
        out[row] = acc;
    }
}

static void ceval_blocks(void *p, size_t begin, size_t end)
{
    ceval_ctx *c = p;
    const cuzk_r1cs_compact_t *m = c->m;
    uint32_t ni = (uint32_t)m->num_inputs;
    size_t row0 = begin * CUZK_CMAT_BLOCK, row1 = end * CUZK_CMAT_BLOCK;
    if (row1 > m->num_constraints)
        row1 = m->num_constraints;
    const cuzk_cmat_t *ms[3] = {&m->a, &m->b, &m->c};
    for (int k = 0; k < 3; k++) {
        if (!c->out[k])
            continue;
        if (ms[k]->idx16)
            cmat_rows(c->out[k], ms[k], row0, row1, c->input, c->aux, ni, true);
        else
            cmat_rows(c->out[k], ms[k], row0, row1, c->input, c->aux, ni, false);
    }
}

void cuzk_r1cs_compact_eval(const cuzk_r1cs_compact_t *m, const cuzk_fr_t *input, const cuzk_fr_t *aux,
                            cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c, int threads)
{
    ceval_ctx ctx = {m, input, aux, {a, b, c}};
    size_t blocks = (m->num_constraints + CUZK_CMAT_BLOCK - 1) / CUZK_CMAT_BLOCK;
    cuzk_parallel_for(threads > 0 ? threads : cuzk_cpu_count(), blocks, 64, ceval_blocks, &ctx);
}

void cs_compact_density(const cuzk_r1cs_compact_t *m, uint64_t *a_aux, uint64_t *b_input, uint64_t *b_aux)
{
    size_t ni = m->num_inputs;
    memset(a_aux, 0, cs_words(m->num_aux) * 8);
    memset(b_aux, 0, cs_words(m->num_aux) * 8);
    memset(b_input, 0, cs_words(ni) * 8);
    for (uint64_t k = 0; k < m->a.nnz; k++) {
        size_t col = m->a.col[k];
        if (col >= ni)
            a_aux[(col - ni) / 64] |= 1ULL << ((col - ni) % 64);
    }
    for (uint64_t k = 0; k < m->b.nnz; k++) {
        size_t col = m->b.col[k];
        if (col >= ni)
            b_aux[(col - ni) / 64] |= 1ULL << ((col - ni) % 64);
        else
            b_input[col / 64] |= 1ULL << (col % 64);
    }
}
