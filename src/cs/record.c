/* The record backend's result (the compact matrices + density bitmaps): taking it from the system, its
 * expansion to CSR for the consumers of the full form, and the assembly of a Groth16 witness from it and an
 * assignment. */
#include <stdlib.h>
#include "cs/cs_internal.h"

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

void cuzk_r1cs_compact_free(cuzk_r1cs_compact_t *m)
{
    if (!m)
        return;
    cuzk_cmat_t *ms[3] = {&m->a, &m->b, &m->c};
    for (int k = 0; k < 3; k++) {
        cs_big_free(ms[k]->block_start);
        cs_big_free(ms[k]->row_len);
        cs_big_free(ms[k]->long_rows);
        cs_big_free(ms[k]->col);
        cs_big_free(ms[k]->idx8);
        cs_big_free(ms[k]->idx16);
        cs_big_free(ms[k]->table);
    }
    *m = (cuzk_r1cs_compact_t){0};
}

size_t cuzk_r1cs_compact_bytes(const cuzk_r1cs_compact_t *m)
{
    size_t rows = m->num_constraints, bytes = 0;
    const cuzk_cmat_t *ms[3] = {&m->a, &m->b, &m->c};
    for (int k = 0; k < 3; k++) {
        const cuzk_cmat_t *x = ms[k];
        bytes += (rows + CUZK_CMAT_BLOCK - 1) / CUZK_CMAT_BLOCK * 8 + 8 + rows + x->num_long * 16 +
                 (size_t)x->nnz * (4 + (x->idx16 ? 2 : 1)) + x->table_len * sizeof(cuzk_fr_t);
    }
    return bytes;
}

void cuzk_cs_record_free(cuzk_cs_record_t *rec)
{
    if (!rec)
        return;
    cuzk_r1cs_compact_free(&rec->m);
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
    const cuzk_r1cs_compact_t *m = &rec->m;
    *out = (cuzk_cs_counts_t){
        .num_inputs = m->num_inputs,
        .num_aux = m->num_aux,
        .num_constraints = m->num_constraints,
        .has_density = true,
        .a_aux_density = popcount(rec->a_aux_density, cs_words(m->num_aux)),
        .b_input_density = popcount(rec->b_input_density, cs_words(m->num_inputs)),
        .b_aux_density = popcount(rec->b_aux_density, cs_words(m->num_aux)),
        .nnz_a = m->a.nnz,
        .nnz_b = m->b.nnz,
        .nnz_c = m->c.nnz,
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

/* Turns a built matrix into its final form: raw ids into columns of z, indices narrowed to a byte when
 * the table allows (in place: byte i is written after u16 i is read), block starts from the lengths. */
static bool cmat_take(cuzk_cmat_t *out, cs_cmat *b, size_t rows, uint32_t ni)
{
    uint32_t *col = b->col.p;
    size_t nnz = b->col.len;
    for (size_t i = 0; i < nnz; i++)
        if (col[i] & CUZK_VAR_AUX_BIT)
            col[i] = ni + (col[i] & ~CUZK_VAR_AUX_BIT);
    size_t blocks = (rows + CUZK_CMAT_BLOCK - 1) / CUZK_CMAT_BLOCK;
    uint64_t *bs = cs_big_realloc(NULL, 0, (blocks + 1) * sizeof *bs);
    if (!bs)
        return false;
    const uint8_t *len = b->row_len.p;
    const uint64_t *lr = b->long_rows.p;
    uint64_t t = 0;
    size_t li = 0;
    for (size_t r = 0; r < rows; r++) {
        if (r % CUZK_CMAT_BLOCK == 0)
            bs[r / CUZK_CMAT_BLOCK] = t;
        t += len[r] == CUZK_CMAT_LONG_ROW ? lr[2 * li++ + 1] : len[r];
    }
    bs[blocks] = t;
    out->nnz = nnz;
    out->block_start = bs;
    out->num_long = b->long_rows.len / 2;
    out->table_len = b->table.len;
    if (b->table.len <= 256) {
        uint8_t *i8 = b->idx.p;
        const uint16_t *i16 = b->idx.p;
        for (size_t i = 0; i < nnz; i++)
            i8[i] = (uint8_t)i16[i];
        b->idx.len = nnz;
        b->idx.cap *= 2; /* in bytes now */
        out->idx8 = vec_take(&b->idx, 1);
    } else {
        out->idx16 = vec_take(&b->idx, sizeof(uint16_t));
    }
    out->row_len = vec_take(&b->row_len, 1);
    out->long_rows = vec_take(&b->long_rows, sizeof(uint64_t));
    out->col = vec_take(&b->col, sizeof(uint32_t));
    out->table = vec_take(&b->table, sizeof(fr));
    return out->row_len && out->long_rows && out->col && out->table && (out->idx8 || out->idx16);
}

cuzk_status cuzk_cs_take_record_compact(cuzk_cs_t *cs, cuzk_cs_record_t *rec, cuzk_err_t *err)
{
    *rec = (cuzk_cs_record_t){0};
    if (cs->backend != CUZK_CS_RECORD)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_take_record: needs the record backend");
    if (cs->status != CUZK_OK)
        return cuzk_cs_status(cs, err);
    if (!cs->want_record)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_take_record: the record was already taken");
    cuzk_cmat_t *ms[3] = {&rec->m.a, &rec->m.b, &rec->m.c};
    bool ok = true;
    for (int k = 0; k < 3; k++)
        ok = cmat_take(ms[k], &cs->cm[k], cs->num_constraints, (uint32_t)cs->num_inputs) && ok;
    rec->a_aux_density = vec_take(&cs->a_aux_d, 8);
    rec->b_input_density = vec_take(&cs->b_in_d, 8);
    rec->b_aux_density = vec_take(&cs->b_aux_d, 8);
    rec->m.num_inputs = cs->num_inputs;
    rec->m.num_aux = cs->num_aux;
    rec->m.num_constraints = cs->num_constraints;
    ok = ok && rec->a_aux_density && rec->b_input_density && rec->b_aux_density;
    /* The matrices are gone: a later enforce fails instead of recording into nothing. */
    cs->want_record = false;
    cs->want_density = false;
    if (!ok) {
        cuzk_cs_record_free(rec);
        cs_failf(cs, CUZK_ERR_NO_MEMORY, "cuzk_cs_take_record: out of memory");
        return cuzk_cs_status(cs, err);
    }
    return CUZK_OK;
}

cuzk_status cuzk_cs_take_record(cuzk_cs_t *cs, cuzk_cs_record_t *rec, cuzk_err_t *err)
{
    cuzk_status st = cuzk_cs_take_record_compact(cs, rec, err);
    if (st == CUZK_OK)
        st = cuzk_cs_record_expand(rec, err);
    if (st != CUZK_OK)
        cuzk_cs_record_free(rec);
    return st;
}

/* Row lengths of a compact matrix, in order (the long rows' from their pairs). */
typedef struct {
    const cuzk_cmat_t *m;
    size_t next_long;
} row_iter;

static inline uint64_t row_length(row_iter *it, size_t row)
{
    uint8_t n = it->m->row_len[row];
    return n == CUZK_CMAT_LONG_ROW ? it->m->long_rows[2 * it->next_long++ + 1] : n;
}

static bool cmat_expand(cuzk_csr_t *out, const cuzk_cmat_t *m, size_t rows)
{
    size_t nnz = m->nnz ? (size_t)m->nnz : 1;
    out->row_start = cs_big_realloc(NULL, 0, (rows + 1) * sizeof(uint64_t));
    out->col = cs_big_realloc(NULL, 0, nnz * sizeof(uint32_t));
    out->coeff = cs_big_realloc(NULL, 0, nnz * sizeof(fr));
    if (!out->row_start || !out->col || !out->coeff)
        return false;
    row_iter it = {m, 0};
    uint64_t t = 0;
    out->row_start[0] = 0;
    for (size_t r = 0; r < rows; r++) {
        t += row_length(&it, r);
        out->row_start[r + 1] = t;
    }
    if (m->nnz)
        memcpy(out->col, m->col, m->nnz * sizeof(uint32_t));
    for (uint64_t i = 0; i < m->nnz; i++)
        out->coeff[i] = m->table[m->idx16 ? m->idx16[i] : m->idx8[i]];
    return true;
}

cuzk_status cuzk_r1cs_compact_expand(const cuzk_r1cs_compact_t *m, cuzk_r1cs_t *out, cuzk_err_t *err)
{
    *out = (cuzk_r1cs_t){.num_inputs = m->num_inputs, .num_aux = m->num_aux, .num_constraints = m->num_constraints};
    bool ok = cmat_expand(&out->a, &m->a, m->num_constraints) && cmat_expand(&out->b, &m->b, m->num_constraints) &&
              cmat_expand(&out->c, &m->c, m->num_constraints);
    if (!ok) {
        cuzk_r1cs_free(out);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "cuzk_r1cs_compact_expand: out of memory (%llu non-zeros)",
                            (unsigned long long)(m->a.nnz + m->b.nnz + m->c.nnz));
    }
    return CUZK_OK;
}

cuzk_status cuzk_cs_record_expand(cuzk_cs_record_t *rec, cuzk_err_t *err)
{
    if (rec->r1cs.a.row_start)
        return CUZK_OK;
    return cuzk_r1cs_compact_expand(&rec->m, &rec->r1cs, err);
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

/* The assignment of vcs fits the record. */
static cuzk_status check_values(const cuzk_cs_record_t *rec, const cuzk_cs_t *vcs, const char *fn, cuzk_err_t *err)
{
    const cuzk_r1cs_compact_t *r = &rec->m;
    if (!vcs->want_values)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%s: the system keeps no values", fn);
    if (vcs->status != CUZK_OK)
        return cuzk_cs_status(vcs, err);
    if (vcs->num_inputs != r->num_inputs || vcs->num_aux != r->num_aux ||
        vcs->num_constraints != r->num_constraints)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "%s: record has %zu inputs, %zu aux, %zu constraints; the assignment %zu, %zu, %zu", fn,
                            r->num_inputs, r->num_aux, r->num_constraints, vcs->num_inputs, vcs->num_aux,
                            vcs->num_constraints);
    return CUZK_OK;
}

cuzk_status cuzk_cs_record_witness_consumable(cuzk_groth16_witness_consumable_t *w, cuzk_cs_abc_t *abc,
                                              const cuzk_cs_record_t *rec, cuzk_cs_t *vcs, int threads,
                                              cuzk_err_t *err)
{
    *abc = (cuzk_cs_abc_t){0};
    cuzk_status st = check_values(rec, vcs, "cuzk_cs_record_witness_consumable", err);
    if (st != CUZK_OK)
        return st;
    const cuzk_r1cs_compact_t *r = &rec->m;
    size_t rows = r->num_constraints + r->num_inputs, m = 1;
    while (m < rows && m <= SIZE_MAX / 64)
        m *= 2;
    /* the prover's domain buffers, anonymous memory (mappings from 1 MiB up) as it requires; the
     * assignment's aux array is one already */
    abc->a = cs_big_realloc(NULL, 0, m * sizeof(fr));
    abc->b = cs_big_realloc(NULL, 0, m * sizeof(fr));
    if (!abc->a || !abc->b || !cs_vec_reserve(&vcs->aux, 1, sizeof(fr))) {
        cuzk_cs_abc_free(abc);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY,
                            "cuzk_cs_record_witness_consumable: out of memory (A·z and B·z over a domain of %zu)", m);
    }
    (void)cs_vec_reserve(&vcs->aux, m, sizeof(fr)); /* room for C·z, as cuzk_cs_groth16_witness_consumable */
    cuzk_r1cs_compact_eval(r, vcs->input.p, vcs->aux.p, abc->a, abc->b, NULL, threads);
    *w = (cuzk_groth16_witness_consumable_t){
        .num_inputs = r->num_inputs,
        .num_aux = r->num_aux,
        .num_constraints = r->num_constraints,
        .a = abc->a,
        .b = abc->b,
        .capacity = m,
        .input = vcs->input.p,
        .aux = vcs->aux.p,
        .a_aux_density = rec->a_aux_density,
        .b_input_density = rec->b_input_density,
        .b_aux_density = rec->b_aux_density,
        .aux_capacity = vcs->aux.cap,
    };
    return CUZK_OK;
}

cuzk_status cuzk_cs_record_witness(cuzk_groth16_witness_t *w, cuzk_cs_abc_t *abc, const cuzk_cs_record_t *rec,
                                   const cuzk_cs_t *vcs, int threads, cuzk_err_t *err)
{
    *abc = (cuzk_cs_abc_t){0};
    const cuzk_r1cs_compact_t *r = &rec->m;
    cuzk_status st = check_values(rec, vcs, "cuzk_cs_record_witness", err);
    if (st != CUZK_OK)
        return st;
    size_t m = r->num_constraints ? r->num_constraints : 1;
    abc->a = cs_big_realloc(NULL, 0, m * sizeof(fr));
    abc->b = cs_big_realloc(NULL, 0, m * sizeof(fr));
    abc->c = cs_big_realloc(NULL, 0, m * sizeof(fr));
    if (!abc->a || !abc->b || !abc->c) {
        cuzk_cs_abc_free(abc);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "cuzk_cs_record_witness: out of memory for %zu rows", m);
    }
    cuzk_r1cs_compact_eval(r, vcs->input.p, vcs->aux.p, abc->a, abc->b, abc->c, threads);
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
