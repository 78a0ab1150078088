/* The constraint system: creation, variable allocation, values, failure state, counts, and
 * enforce for every backend (density tracking as bellperson's ProvingAssignment: A tracks aux
 * only, B inputs and aux, C nothing; a zero coefficient never counts). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "cs/cs_internal.h"

void cs_failf(cuzk_cs_t *cs, cuzk_status st, const char *fmt, ...)
{
    if (cs->status != CUZK_OK)
        return;
    cs->status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cs->err.msg, sizeof cs->err.msg, fmt, ap);
    va_end(ap);
}

cuzk_status cuzk_cs_fail(cuzk_cs_t *cs, cuzk_status status, const char *fmt, ...)
{
    if (cs->status == CUZK_OK && status != CUZK_OK) {
        cs->status = status;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(cs->err.msg, sizeof cs->err.msg, fmt, ap);
        va_end(ap);
    }
    return status;
}

cuzk_status cuzk_cs_status(const cuzk_cs_t *cs, cuzk_err_t *err)
{
    if (cs->status != CUZK_OK && err)
        *err = cs->err;
    return cs->status;
}

void cuzk_cs_set_stop(cuzk_cs_t *cs, bool (*should_stop)(void *stop_arg), void *stop_arg)
{
    cs->should_stop = should_stop;
    cs->stop_arg = stop_arg;
}

void cuzk_cs_get_stop(const cuzk_cs_t *cs, bool (**should_stop)(void *stop_arg), void **stop_arg)
{
    *should_stop = cs->should_stop;
    *stop_arg = cs->stop_arg;
}

bool cuzk_cs_poll_stop(cuzk_cs_t *cs)
{
    if (cs->status == CUZK_OK && cs->should_stop && cs->should_stop(cs->stop_arg))
        cuzk_cs_fail(cs, CUZK_ERR_CANCELLED, "cancelled");
    return cs->status == CUZK_ERR_CANCELLED;
}

/* What a fresh system holds, over whatever memory cs's arrays keep: the modes of its backend (which
 * cuzk_cs_take_record turns off), the record's first row, no unsatisfied constraint, and ONE. False
 * when out of memory (the record's row: nothing else done; ONE: cs failed). */
static bool cs_start(cuzk_cs_t *cs)
{
    cuzk_cs_backend b = cs->backend;
    cs->want_values = b == CUZK_CS_WITNESS || b == CUZK_CS_DIRECT || b == CUZK_CS_TEST || b == CUZK_CS_CHECK;
    cs->want_lcs = b != CUZK_CS_WITNESS;
    cs->want_density = b != CUZK_CS_WITNESS && b != CUZK_CS_CHECK;
    cs->want_record = b == CUZK_CS_RECORD || b == CUZK_CS_TEST;
    cs->first_unsat = -1;
    for (int k = 0; b == CUZK_CS_RECORD && k < 3; k++)
        if (!cs_cmat_start(&cs->cm[k]))
            return false;
    for (int k = 0; b == CUZK_CS_TEST && k < 3; k++) {
        if (!cs_vec_reserve(&cs->m[k].row_start, 1, sizeof(uint64_t)))
            return false;
        ((uint64_t *)cs->m[k].row_start.p)[0] = 0;
        cs->m[k].row_start.len = 1;
    }
    cuzk_cs_alloc_input(cs, &FR_ONE);
    return cs->status == CUZK_OK;
}

void cs_unlimited(cuzk_cs_t *cs)
{
    cs->max_inputs = cs->max_aux = (size_t)CUZK_VAR_MAX_INDEX + 1;
    cs->max_constraints = SIZE_MAX;
    cs->gap_in_lo = cs->gap_in_hi = cs->gap_aux_lo = cs->gap_aux_hi = 0;
}

cuzk_status cuzk_cs_new(cuzk_cs_t **out, cuzk_cs_backend backend, cuzk_lc_strategy strategy, cuzk_err_t *err)
{
    *out = NULL;
    if ((unsigned)backend > CUZK_CS_SINK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_new: unknown backend %d", (int)backend);
    if ((unsigned)strategy >= CUZK_LC_STRATEGY_COUNT)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_new: unknown LC strategy %d", (int)strategy);
    cuzk_cs_t *cs = calloc(1, sizeof *cs);
    if (!cs)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "cuzk_cs_new: out of memory");
    cs->backend = backend;
    cs->strategy = strategy;
    static const uint32_t inline_caps[CUZK_LC_STRATEGY_COUNT] = {0, 1, 2, 4, 0};
    cs->inline_cap = inline_caps[strategy];
    cs_unlimited(cs);
    if (!cs_start(cs)) {
        cuzk_cs_free(cs);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "cuzk_cs_new: out of memory");
    }
    *out = cs;
    return CUZK_OK;
}

void cuzk_cs_free(cuzk_cs_t *cs)
{
    if (!cs)
        return;
    cuzk_cs_prefault_stop(cs);
    cs_pieces_drop(cs);
    cs_vec *vs[] = {&cs->input, &cs->aux, &cs->av, &cs->bv, &cs->cv, &cs->a_aux_d, &cs->b_in_d, &cs->b_aux_d};
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++)
        cs_vec_free(vs[i]);
    for (int k = 0; k < 3; k++) {
        cs_vec_free(&cs->m[k].row_start);
        cs_vec_free(&cs->m[k].col);
        cs_vec_free(&cs->m[k].coeff);
        cs_cmat_free(&cs->cm[k]);
    }
    cs_arena_free(&cs->arena);
    cs_hash_free(cs);
    free(cs);
}

void cuzk_cs_reset(cuzk_cs_t *cs)
{
    cuzk_cs_prefault_stop(cs);
    if (cs->whole || cs->pieces) {
        cs_failf(cs, CUZK_ERR_INVALID_ARG, "cuzk_cs_reset: a piece, or a system whose pieces are open, cannot be reset");
        return;
    }
    cs->num_inputs = cs->num_aux = cs->num_constraints = 0;
    cs->nnz[0] = cs->nnz[1] = cs->nnz[2] = 0;
    cs->status = CUZK_OK;
    cs->err.msg[0] = 0;
    cs_vec *vs[] = {&cs->input, &cs->aux, &cs->av, &cs->bv, &cs->cv, &cs->a_aux_d, &cs->b_in_d, &cs->b_aux_d};
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++)
        vs[i]->len = 0; /* bitmaps: alloc zeroes each word it starts */
    for (int k = 0; k < 3; k++)
        cs->m[k].col.len = cs->m[k].coeff.len = cs->m[k].row_start.len = 0;
    cs_arena_reset(&cs->arena);
    cs->arena.live = 0;
    cs_hash_free(cs);
    cs->sink_fn = NULL; /* like the hash stream: a fresh system has no consumer */
    cs->sink_arg = NULL;
    if (!cs_start(cs)) /* a failure of ONE's allocation has already named itself */
        cs_failf(cs, CUZK_ERR_NO_MEMORY, "cuzk_cs_reset: out of memory");
}

void cuzk_cs_reserve(cuzk_cs_t *cs, size_t num_inputs, size_t num_aux, size_t num_constraints)
{
    /* Best effort: a failure here only means the arrays grow later. */
    cs->reserved_aux = num_aux;
    cs->reserved_constraints = num_constraints;
    if (cs->want_values) {
        cs_vec_reserve(&cs->input, num_inputs, sizeof(fr));
        cs_vec_reserve(&cs->aux, num_aux, sizeof(fr));
    }
    if (cs->want_density) {
        cs_vec_reserve(&cs->a_aux_d, cs_words(num_aux), 8);
        cs_vec_reserve(&cs->b_aux_d, cs_words(num_aux), 8);
        cs_vec_reserve(&cs->b_in_d, cs_words(num_inputs), 8);
    }
    if (cs->backend == CUZK_CS_DIRECT) {
        cs_vec_reserve(&cs->av, num_constraints, sizeof(fr));
        cs_vec_reserve(&cs->bv, num_constraints, sizeof(fr));
        if (!cs->omit_c)
            cs_vec_reserve(&cs->cv, num_constraints, sizeof(fr));
    }
    for (int k = 0; cs->want_record && k < 3; k++) {
        if (cs->backend == CUZK_CS_RECORD)
            cs_vec_reserve(&cs->cm[k].row_len, num_constraints, 1);
        else
            cs_vec_reserve(&cs->m[k].row_start, num_constraints + 1, sizeof(uint64_t));
    }
}

cuzk_status cuzk_cs_omit_c(cuzk_cs_t *cs, cuzk_err_t *err)
{
    if (cs->backend != CUZK_CS_DIRECT || cs->num_constraints || cs->whole)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "cuzk_cs_omit_c: needs the direct backend, before its first constraint (not a piece)");
    cs->omit_c = true;
    return CUZK_OK;
}

cuzk_status cuzk_cs_new_part(cuzk_cs_t **out, const cuzk_cs_t *like, cuzk_err_t *err)
{
    cuzk_status st = cuzk_cs_new(out, like->backend, like->strategy, err);
    if (st == CUZK_OK)
        (*out)->omit_c = like->omit_c;
    return st;
}

cuzk_cs_backend cuzk_cs_get_backend(const cuzk_cs_t *cs) { return cs->backend; }
cuzk_lc_strategy cuzk_cs_get_strategy(const cuzk_cs_t *cs) { return cs->strategy; }
bool cuzk_cs_wants_values(const cuzk_cs_t *cs) { return cs->want_values; }
bool cuzk_cs_wants_lcs(const cuzk_cs_t *cs) { return cs->want_lcs; }

/* Appends one zero word to a bitmap when variable number n (0-based) starts a new word. */
static bool bitmap_grow(cs_vec *bm, size_t n)
{
    if (n % 64)
        return true;
    if (!cs_vec_reserve(bm, bm->len + 1, 8))
        return false;
    ((uint64_t *)bm->p)[bm->len++] = 0;
    return true;
}

static cuzk_var_t alloc_common(cuzk_cs_t *cs, const cuzk_fr_t *value, bool input)
{
    size_t *count = input ? &cs->num_inputs : &cs->num_aux;
    const char *kind = input ? "input" : "aux";
    if (*count >= (input ? cs->max_inputs : cs->max_aux)) {
        if (cs->pieces)
            cs_failf(cs, CUZK_ERR_INVALID_ARG, "%s variable allocated while the system's pieces are open", kind);
        else if (cs->whole)
            cs_failf(cs, CUZK_ERR_INVALID_ARG, "a piece allocates more %s variables than its shape has", kind);
        else
            cs_failf(cs, CUZK_ERR_INVALID_ARG, "more than %u %s variables", CUZK_VAR_MAX_INDEX + 1, kind);
        return cuzk_cs_one();
    }
    if (cs->want_values) {
        cs_vec *v = input ? &cs->input : &cs->aux;
        if (!cs_vec_reserve(v, v->len + 1, sizeof(fr)))
            goto oom;
        fr *slot = &((fr *)v->p)[v->len];
        if (value) {
            *slot = *value;
        } else {
            *slot = FR_ZERO;
            cs_failf(cs, CUZK_ERR_INVALID_ARG,
                     "%s variable %zu allocated without a value (the %s backend needs values)", kind, *count,
                     cs->backend == CUZK_CS_WITNESS  ? "witness"
                     : cs->backend == CUZK_CS_DIRECT ? "direct"
                     : cs->backend == CUZK_CS_CHECK  ? "check"
                                                     : "test");
        }
        v->len++;
    }
    if (cs->want_density) {
        if (input ? !bitmap_grow(&cs->b_in_d, *count)
                  : (!bitmap_grow(&cs->a_aux_d, *count) || !bitmap_grow(&cs->b_aux_d, *count)))
            goto oom;
    }
    size_t idx = (*count)++;
    return input ? cuzk_var_input(idx) : cuzk_var_aux(idx);
oom:
    cs_failf(cs, CUZK_ERR_NO_MEMORY, "out of memory allocating %s variable %zu", kind, *count);
    return cuzk_cs_one();
}

cuzk_var_t cuzk_cs_alloc(cuzk_cs_t *cs, const cuzk_fr_t *value) { return alloc_common(cs, value, false); }
cuzk_var_t cuzk_cs_alloc_input(cuzk_cs_t *cs, const cuzk_fr_t *value)
{
    return alloc_common(cs, value, true);
}

bool cuzk_cs_get_value(const cuzk_cs_t *cs, cuzk_var_t v, cuzk_fr_t *out)
{
    if (!cs->want_values || !cs_var_valid(cs, v.id))
        return false;
    *out = *cs_value(cs, v.id);
    return true;
}

cuzk_status cuzk_cs_set_value(cuzk_cs_t *cs, cuzk_var_t v, const cuzk_fr_t *value, cuzk_err_t *err)
{
    if (cs->backend != CUZK_CS_TEST && cs->backend != CUZK_CS_WITNESS)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "cuzk_cs_set_value: only the test and witness backends allow it");
    if (!cs_var_valid(cs, v.id))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_set_value: %s %zu is not allocated",
                            cuzk_var_is_input(v) ? "input" : "aux", cuzk_var_index(v));
    *(fr *)cs_value(cs, v.id) = *value;
    return CUZK_OK;
}

const cuzk_fr_t *cuzk_cs_inputs(const cuzk_cs_t *cs) { return cs->want_values ? cs->input.p : NULL; }
const cuzk_fr_t *cuzk_cs_aux(const cuzk_cs_t *cs) { return cs->want_values ? cs->aux.p : NULL; }

static size_t popcount_words(const cs_vec *bm)
{
    size_t n = 0;
    const uint64_t *w = bm->p;
    for (size_t i = 0; i < bm->len; i++)
        n += (size_t)__builtin_popcountll(w[i]);
    return n;
}

void cuzk_cs_counts(const cuzk_cs_t *cs, cuzk_cs_counts_t *out)
{
    *out = (cuzk_cs_counts_t){.num_inputs = cs->num_inputs,
                              .num_aux = cs->num_aux,
                              .num_constraints = cs->num_constraints,
                              .has_density = cs->want_density};
    if (cs->want_density) {
        out->a_aux_density = popcount_words(&cs->a_aux_d);
        out->b_input_density = popcount_words(&cs->b_in_d);
        out->b_aux_density = popcount_words(&cs->b_aux_d);
        out->nnz_a = cs->nnz[0], out->nnz_b = cs->nnz[1], out->nnz_c = cs->nnz[2];
    }
}

/* ---- enforce ---- */

enum { M_A = 0, M_B = 1, M_C = 2 };

static void bad_var(cuzk_cs_t *cs, int which, uint32_t id)
{
    size_t idx = id & ~CUZK_VAR_AUX_BIT;
    bool aux = id & CUZK_VAR_AUX_BIT;
    if (aux ? idx >= cs->gap_aux_lo && idx < cs->gap_aux_hi : idx >= cs->gap_in_lo && idx < cs->gap_in_hi) {
        cs_failf(cs, CUZK_ERR_INVALID_ARG, "constraint %zu: %c uses %s %zu, a variable of another piece",
                 cs->num_constraints, "ABC"[which], aux ? "aux" : "input", idx);
        return;
    }
    cs_failf(cs, CUZK_ERR_INVALID_ARG,
             "constraint %zu: %c uses %s %u, which is not allocated (%zu inputs, %zu aux)",
             cs->num_constraints, "ABC"[which], (id & CUZK_VAR_AUX_BIT) ? "aux" : "input",
             id & ~CUZK_VAR_AUX_BIT, cs->num_inputs, cs->num_aux);
}

static inline void set_bit(cs_vec *bm, size_t i) { ((uint64_t *)bm->p)[i / 64] |= 1ULL << (i % 64); }

/* Densities of one LC: A marks aux, B marks inputs and aux (ProvingAssignment::enforce). */
static inline void track_density(cuzk_cs_t *cs, int which, uint32_t id)
{
    if (which == M_C)
        return;
    size_t idx = id & ~CUZK_VAR_AUX_BIT;
    if (id & CUZK_VAR_AUX_BIT)
        set_bit(which == M_A ? &cs->a_aux_d : &cs->b_aux_d, idx);
    else if (which == M_B)
        set_bit(&cs->b_in_d, idx);
}

/* Σ coeff·z, skipping zero coefficients and the multiplication by one (bellperson's eval); with track
 * the terms count in the densities and non-zeros too (direct; the check backend keeps neither). */
static inline void lc_eval(cuzk_cs_t *cs, const cuzk_lc_t *lc, int which, bool track, fr *out)
{
    fr acc = FR_ZERO, tmp;
    const cuzk_lc_term_t *t = cuzk_lc_terms(lc);
    for (uint32_t k = 0; k < lc->len; k++) {
        if (cs_is_zero(&t[k].coeff))
            continue;
        uint32_t id = t[k].var;
        if (!cs_var_valid(cs, id)) {
            bad_var(cs, which, id);
            continue;
        }
        if (track) {
            track_density(cs, which, id);
            cs->nnz[which]++;
        }
        const fr *z = cs_value(cs, id);
        if (cs_is_one(&t[k].coeff)) {
            fr_add(&acc, &acc, z);
        } else {
            fr_mul(&tmp, &t[k].coeff, z);
            fr_add(&acc, &acc, &tmp);
        }
    }
    *out = acc;
}

/* Whether a term takes part (non-zero coefficient, allocated variable; a bad variable fails the
 * system); a term that does is counted in the density of matrix `which`. */
static bool term_counts(cuzk_cs_t *cs, const cuzk_lc_term_t *t, int which)
{
    if (cs_is_zero(&t->coeff))
        return false;
    if (!cs_var_valid(cs, t->var)) {
        bad_var(cs, which, t->var);
        return false;
    }
    track_density(cs, which, t->var);
    cs->nnz[which]++;
    return true;
}

static void lc_count(cuzk_cs_t *cs, const cuzk_lc_t *lc, int which)
{
    const cuzk_lc_term_t *t = cuzk_lc_terms(lc);
    for (uint32_t k = 0; k < lc->len; k++)
        term_counts(cs, &t[k], which);
}

/* The record backend: the LC's non-zero terms as the next row of compact matrix `which`. */
static void lc_record_compact(cuzk_cs_t *cs, const cuzk_lc_t *lc, int which)
{
    const cuzk_lc_term_t *t = cuzk_lc_terms(lc);
    for (uint32_t k = 0; k < lc->len; k++)
        term_counts(cs, &t[k], which);
    if (cs->status != CUZK_OK) /* a bad variable; or failed before: nothing will be taken */
        return;
    cuzk_status st = cs_cmat_push_row(&cs->cm[which], t, lc->len);
    if (st == CUZK_ERR_UNSUPPORTED)
        cs_failf(cs, st, "constraint %zu: %c has more than %d distinct coefficients, more than the record "
                 "backend's table holds (prove by the direct backend)", cs->num_constraints, "ABC"[which],
                 CUZK_CMAT_MAX_TABLE);
    else if (st != CUZK_OK)
        cs_failf(cs, st, "out of memory recording constraint %zu", cs->num_constraints);
}

/* The test backend: the LC's non-zero terms as the next row of matrix `which`. */
static void lc_record(cuzk_cs_t *cs, const cuzk_lc_t *lc, int which)
{
    cs_csr *m = &cs->m[which];
    size_t n = m->col.len;
    if (!cs_vec_reserve(&m->col, n + lc->len, sizeof(uint32_t)) ||
        !cs_vec_reserve(&m->coeff, n + lc->len, sizeof(fr)) ||
        !cs_vec_reserve(&m->row_start, m->row_start.len + 1, sizeof(uint64_t))) {
        cs_failf(cs, CUZK_ERR_NO_MEMORY, "out of memory recording constraint %zu", cs->num_constraints);
        return;
    }
    uint32_t *col = m->col.p;
    fr *coeff = m->coeff.p;
    const cuzk_lc_term_t *t = cuzk_lc_terms(lc);
    for (uint32_t k = 0; k < lc->len; k++) {
        if (!term_counts(cs, &t[k], which))
            continue;
        col[n] = t[k].var;
        coeff[n] = t[k].coeff;
        n++;
    }
    m->col.len = m->coeff.len = n;
    ((uint64_t *)m->row_start.p)[m->row_start.len++] = n;
}

static void enforce(cuzk_cs_t *cs, const cuzk_lc_t *a, const cuzk_lc_t *b, const cuzk_lc_t *c, const fr *known)
{
    if (a->cs != cs || b->cs != cs || c->cs != cs) {
        cs_failf(cs, CUZK_ERR_INVALID_ARG,
                 "constraint %zu: a linear combination belongs to another constraint system",
                 cs->num_constraints);
        return;
    }
    if (cs->num_constraints >= cs->max_constraints) {
        cs_failf(cs, CUZK_ERR_INVALID_ARG,
                 cs->pieces ? "constraint %zu enforced while the system's pieces are open"
                            : "constraint %zu: a piece enforces more constraints than its shape has",
                 cs->num_constraints);
        return;
    }
    const cuzk_lc_t *lcs[3] = {a, b, c};
    switch (cs->backend) {
    case CUZK_CS_WITNESS: break;
    case CUZK_CS_COUNT:
        for (int k = 0; k < 3; k++)
            lc_count(cs, lcs[k], k);
        break;
    case CUZK_CS_RECORD:
    case CUZK_CS_TEST:
        if (!cs->want_record) {
            cs_failf(cs, CUZK_ERR_INVALID_ARG, "constraint %zu: enforced after cuzk_cs_take_record",
                     cs->num_constraints);
            return;
        }
        for (int k = 0; k < 3; k++) {
            if (cs->backend == CUZK_CS_RECORD)
                lc_record_compact(cs, lcs[k], k);
            else
                lc_record(cs, lcs[k], k);
        }
        break;
    case CUZK_CS_HASH:
        if (!cs->hs) {
            cs_failf(cs, CUZK_ERR_INVALID_ARG, "constraint %zu: the hash backend needs cuzk_cs_hash_begin first",
                     cs->num_constraints);
            return;
        }
        cs_hash_enforce(cs, lcs, term_counts);
        break;
    case CUZK_CS_SINK: cs_sink_enforce(cs, lcs, lc_count); break;
    case CUZK_CS_CHECK: {
        fr v[3], ab;
        for (int k = 0; k < 3; k++) {
            lc_eval(cs, lcs[k], k, false, &v[k]);
            if (known && !fr_eq(&v[k], &known[k])) {
                cs_failf(cs, CUZK_ERR_MISMATCH, "constraint %zu: the value given for %c is not its linear "
                         "combination's", cs->num_constraints, "ABC"[k]);
                return;
            }
        }
        fr_mul(&ab, &v[0], &v[1]);
        if (cs->first_unsat < 0 && !fr_eq(&ab, &v[2]))
            cs->first_unsat = (int64_t)cs->num_constraints;
        break;
    }
    case CUZK_CS_DIRECT: {
        cs_vec *out[3] = {&cs->av, &cs->bv, &cs->cv};
        int kept = cs->omit_c ? 2 : 3;
        for (int k = 0; k < kept; k++) {
            if (!cs_vec_reserve(out[k], out[k]->len + 1, sizeof(fr))) {
                cs_failf(cs, CUZK_ERR_NO_MEMORY, "out of memory at constraint %zu", cs->num_constraints);
                return;
            }
        }
        for (int k = 0; k < kept; k++) {
            fr *slot = &((fr *)out[k]->p)[out[k]->len++];
            if (known) {
                lc_count(cs, lcs[k], k); /* densities and non-zeros only: the value is given */
                *slot = known[k];
            } else {
                lc_eval(cs, lcs[k], k, true, slot);
            }
        }
        if (cs->omit_c)
            lc_count(cs, lcs[M_C], M_C);
        break;
    }
    }
    cs->num_constraints++;
}

void cuzk_cs_enforce(cuzk_cs_t *cs, const cuzk_lc_t *a, const cuzk_lc_t *b, const cuzk_lc_t *c)
{
    enforce(cs, a, b, c, NULL);
}

void cuzk_cs_enforce_known_free(cuzk_cs_t *cs, cuzk_lc_t *a, cuzk_lc_t *b, cuzk_lc_t *c, const cuzk_fr_t values[3])
{
    enforce(cs, a, b, c, (const fr *)values);
    cuzk_lc_free(a);
    cuzk_lc_free(b);
    cuzk_lc_free(c);
}

void cuzk_cs_enforce_free(cuzk_cs_t *cs, cuzk_lc_t *a, cuzk_lc_t *b, cuzk_lc_t *c)
{
    cuzk_cs_enforce(cs, a, b, c);
    cuzk_lc_free(a);
    cuzk_lc_free(b);
    cuzk_lc_free(c);
}

cuzk_status cuzk_cs_groth16_witness(const cuzk_cs_t *cs, cuzk_groth16_witness_t *w, cuzk_err_t *err)
{
    if (cs->backend != CUZK_CS_DIRECT || cs->whole || cs->pieces)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "cuzk_cs_groth16_witness: needs the direct backend (a whole system, no piece open)");
    if (cs->status != CUZK_OK)
        return cuzk_cs_status(cs, err);
    *w = (cuzk_groth16_witness_t){
        .num_inputs = cs->num_inputs,
        .num_aux = cs->num_aux,
        .num_constraints = cs->num_constraints,
        .a = cs->av.p,
        .b = cs->bv.p,
        .c = cs->omit_c ? NULL : cs->cv.p,
        .input = cs->input.p,
        .aux = cs->aux.p,
        .a_aux_density = cs->a_aux_d.p,
        .b_input_density = cs->b_in_d.p,
        .b_aux_density = cs->b_aux_d.p,
    };
    return CUZK_OK;
}

cuzk_status cuzk_cs_groth16_witness_consumable(cuzk_cs_t *cs, cuzk_groth16_witness_consumable_t *w, cuzk_err_t *err)
{
    if (cs->backend != CUZK_CS_DIRECT || !cs->omit_c || cs->whole || cs->pieces)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_groth16_witness_consumable: needs the direct "
                                                       "backend with C·z omitted (a whole system, no piece open)");
    if (cs->status != CUZK_OK)
        return cuzk_cs_status(cs, err);
    cuzk_cs_prefault_stop(cs); /* the synthesis is over: whatever it wrote is in memory */
    size_t rows = cs->num_constraints + cs->num_inputs, m = 1;
    while (m < rows && m <= SIZE_MAX / 2)
        m *= 2;
    /* the prover's domain buffers: big arrays are mappings, grown in place by mremap */
    if (!cs_vec_reserve(&cs->av, m, sizeof(fr)) || !cs_vec_reserve(&cs->bv, m, sizeof(fr)) ||
        !cs_vec_reserve(&cs->aux, 1, sizeof(fr)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory (A·z and B·z over a domain of %zu)", m);
    /* room for C·z in aux's memory once the MSMs have spent its scalars; without it the prover
     * allocates its own */
    (void)cs_vec_reserve(&cs->aux, m, sizeof(fr));
    *w = (cuzk_groth16_witness_consumable_t){
        .num_inputs = cs->num_inputs,
        .num_aux = cs->num_aux,
        .num_constraints = cs->num_constraints,
        .a = cs->av.p,
        .b = cs->bv.p,
        .capacity = cs->av.cap < cs->bv.cap ? cs->av.cap : cs->bv.cap,
        .input = cs->input.p,
        .aux = cs->aux.p,
        .a_aux_density = cs->a_aux_d.p,
        .b_input_density = cs->b_in_d.p,
        .b_aux_density = cs->b_aux_d.p,
        .aux_capacity = cs->aux.cap,
    };
    return CUZK_OK;
}
