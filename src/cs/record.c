/* The record backend's result (CSR matrices + density bitmaps) and what the prover does with it:
 * sparse matrix–vector products over rows on several threads (the "pre-compiled constraint
 * evaluator"), density bitmaps from the matrices, and the assembly of a Groth16 witness. */
#include <stdlib.h>
#include "cs/cs_internal.h"
#include "util/parallel.h"

void cuzk_r1cs_free(cuzk_r1cs_t *r1cs)
{
    if (!r1cs)
        return;
    cuzk_csr_t *ms[3] = {&r1cs->a, &r1cs->b, &r1cs->c};
    for (int k = 0; k < 3; k++) {
        cs_big_free(ms[k]->row_start);
        cs_big_free(ms[k]->col);
        cs_big_free(ms[k]->coeff);
    }
    *r1cs = (cuzk_r1cs_t){0};
}

void cuzk_cs_record_free(cuzk_cs_record_t *rec)
{
    if (!rec)
        return;
    cuzk_r1cs_free(&rec->r1cs);
    cs_big_free(rec->a_aux_density);
    cs_big_free(rec->b_input_density);
    cs_big_free(rec->b_aux_density);
    *rec = (cuzk_cs_record_t){0};
}

static size_t popcount(const uint64_t *w, size_t words)
{
    size_t n = 0;
    for (size_t i = 0; i < words; i++)
        n += (size_t)__builtin_popcountll(w[i]);
    return n;
}

void cuzk_cs_record_counts(const cuzk_cs_record_t *rec, cuzk_cs_counts_t *out)
{
    const cuzk_r1cs_t *r = &rec->r1cs;
    *out = (cuzk_cs_counts_t){
        .num_inputs = r->num_inputs,
        .num_aux = r->num_aux,
        .num_constraints = r->num_constraints,
        .has_density = true,
        .a_aux_density = popcount(rec->a_aux_density, cs_words(r->num_aux)),
        .b_input_density = popcount(rec->b_input_density, cs_words(r->num_inputs)),
        .b_aux_density = popcount(rec->b_aux_density, cs_words(r->num_aux)),
        .nnz_a = r->a.row_start ? r->a.row_start[r->num_constraints] : 0,
        .nnz_b = r->b.row_start ? r->b.row_start[r->num_constraints] : 0,
        .nnz_c = r->c.row_start ? r->c.row_start[r->num_constraints] : 0,
    };
}

/* Gives the vector's array away, shrunk to its length (at least one element, so that an empty
 * array is still a valid pointer). */
static void *vec_take(cs_vec *v, size_t elem)
{
    size_t n = v->len ? v->len : 1;
    void *p = v->p;
    if (!p) {
        p = cs_big_realloc(NULL, 0, elem);
        if (p)
            memset(p, 0, elem);
    } else if (v->cap > n) {
        /* Shrinks malloc'd arrays; a mapping keeps its size (the untouched tail holds no memory). */
        void *q = cs_big_realloc(p, n * elem, n * elem);
        if (q)
            p = q;
    }
    *v = (cs_vec){0};
    return p;
}

cuzk_status cuzk_cs_take_record(cuzk_cs_t *cs, cuzk_cs_record_t *rec, cuzk_err_t *err)
{
    *rec = (cuzk_cs_record_t){0};
    if (cs->backend != CUZK_CS_RECORD)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_take_record: needs the record backend");
    if (cs->status != CUZK_OK)
        return cuzk_cs_status(cs, err);
    if (!cs->m[0].row_start.p)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_take_record: the record was already taken");
    /* Raw ids become columns of z = (inputs, aux) now that the number of inputs is final. */
    uint32_t ni = (uint32_t)cs->num_inputs;
    cuzk_csr_t *ms[3] = {&rec->r1cs.a, &rec->r1cs.b, &rec->r1cs.c};
    for (int k = 0; k < 3; k++) {
        uint32_t *col = cs->m[k].col.p;
        for (size_t i = 0; i < cs->m[k].col.len; i++)
            if (col[i] & CUZK_VAR_AUX_BIT)
                col[i] = ni + (col[i] & ~CUZK_VAR_AUX_BIT);
        ms[k]->row_start = vec_take(&cs->m[k].row_start, sizeof(uint64_t));
        ms[k]->col = vec_take(&cs->m[k].col, sizeof(uint32_t));
        ms[k]->coeff = vec_take(&cs->m[k].coeff, sizeof(fr));
    }
    rec->a_aux_density = vec_take(&cs->a_aux_d, 8);
    rec->b_input_density = vec_take(&cs->b_in_d, 8);
    rec->b_aux_density = vec_take(&cs->b_aux_d, 8);
    rec->r1cs.num_inputs = cs->num_inputs;
    rec->r1cs.num_aux = cs->num_aux;
    rec->r1cs.num_constraints = cs->num_constraints;
    bool ok = rec->a_aux_density && rec->b_input_density && rec->b_aux_density;
    for (int k = 0; k < 3; k++)
        ok = ok && ms[k]->row_start && ms[k]->col && ms[k]->coeff;
    if (!ok) {
        cuzk_cs_record_free(rec);
        cs_failf(cs, CUZK_ERR_NO_MEMORY, "cuzk_cs_take_record: out of memory");
        return cuzk_cs_status(cs, err);
    }
    /* The matrices are gone: a later enforce fails instead of recording into nothing. */
    cs->want_record = false;
    cs->want_density = false;
    return CUZK_OK;
}

/* ---- sparse evaluation ---- */

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

void cuzk_cs_abc_free(cuzk_cs_abc_t *abc)
{
    if (!abc)
        return;
    cs_big_free(abc->a);
    cs_big_free(abc->b);
    cs_big_free(abc->c);
    *abc = (cuzk_cs_abc_t){0};
}

cuzk_status cuzk_cs_record_witness(cuzk_groth16_witness_t *w, cuzk_cs_abc_t *abc, const cuzk_cs_record_t *rec,
                                   const cuzk_cs_t *vcs, int threads, cuzk_err_t *err)
{
    *abc = (cuzk_cs_abc_t){0};
    const cuzk_r1cs_t *r = &rec->r1cs;
    if (!vcs->want_values)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_record_witness: the system keeps no values");
    if (vcs->status != CUZK_OK)
        return cuzk_cs_status(vcs, err);
    if (vcs->num_inputs != r->num_inputs || vcs->num_aux != r->num_aux ||
        vcs->num_constraints != r->num_constraints)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "cuzk_cs_record_witness: record has %zu inputs, %zu aux, %zu constraints; "
                            "the assignment %zu, %zu, %zu",
                            r->num_inputs, r->num_aux, r->num_constraints, vcs->num_inputs, vcs->num_aux,
                            vcs->num_constraints);
    size_t m = r->num_constraints ? r->num_constraints : 1;
    abc->a = cs_big_realloc(NULL, 0, m * sizeof(fr));
    abc->b = cs_big_realloc(NULL, 0, m * sizeof(fr));
    abc->c = cs_big_realloc(NULL, 0, m * sizeof(fr));
    if (!abc->a || !abc->b || !abc->c) {
        cuzk_cs_abc_free(abc);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "cuzk_cs_record_witness: out of memory for %zu rows", m);
    }
    cuzk_r1cs_eval(r, vcs->input.p, vcs->aux.p, abc->a, abc->b, abc->c, threads);
    *w = (cuzk_groth16_witness_t){
        .num_inputs = r->num_inputs,
        .num_aux = r->num_aux,
        .num_constraints = r->num_constraints,
        .a = abc->a,
        .b = abc->b,
        .c = abc->c,
        .input = vcs->input.p,
        .aux = vcs->aux.p,
        .a_aux_density = rec->a_aux_density,
        .b_input_density = rec->b_input_density,
        .b_aux_density = rec->b_aux_density,
    };
    return CUZK_OK;
}
