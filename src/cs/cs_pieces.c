/* Pieces: the repeated tail of a circuit synthesized on several threads, each piece straight into its own
 * place of the system (cuzk_cs_pieces_begin in cs.h). The system's arrays are sized for every piece at
 * begin; a piece is a system of its own whose value and A·z/B·z/C·z arrays are windows into the whole's
 * (borrowed: never grown or freed), numbered as the sequential synthesis numbers them, so nothing is
 * copied or renumbered afterwards and the memory is first touched by the thread that writes it. What two
 * pieces would both write (density bits of the shared variables, bitmap words across a boundary, the
 * non-zero counts) each piece keeps privately and folds into the whole when it closes, under a lock. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "cs/cs_internal.h"

enum { PIECE_NEW = 0, PIECE_OPEN = 1, PIECE_CLOSED = 2 };

struct cs_pieces {
    pthread_mutex_t lock;
    size_t count, in_each, aux_each, c_each;
    size_t in0, aux0, c0;   /* the system's counts at begin: what every piece may read */
    unsigned char *state;   /* per piece: PIECE_NEW, PIECE_OPEN, PIECE_CLOSED */
    /* the failure of the first failing piece in piece order */
    size_t fail_piece;      /* count while none */
    cuzk_status fail_status;
    char fail_msg[sizeof(((cuzk_err_t *)0)->msg)];
    bool stopped;           /* the system's stop request said so once: every piece stops */
};

bool cuzk_cs_supports_pieces(const cuzk_cs_t *cs)
{
    cuzk_cs_backend b = cs->backend;
    return (b == CUZK_CS_COUNT || b == CUZK_CS_WITNESS || b == CUZK_CS_DIRECT || b == CUZK_CS_CHECK) && !cs->whole;
}

void cs_pieces_drop(cuzk_cs_t *cs)
{
    struct cs_pieces *p = cs->pieces;
    if (!p)
        return;
    pthread_mutex_destroy(&p->lock);
    free(p->state);
    free(p);
    cs->pieces = NULL;
}

/* Zeroes the words [len, words) of a bitmap whose capacity holds them (alloc starts each word it needs). */
static void bits_clear_tail(cs_vec *bm, size_t words)
{
    for (size_t w = bm->len; w < words; w++)
        ((uint64_t *)bm->p)[w] = 0;
}

cuzk_status cuzk_cs_pieces_begin(cuzk_cs_t *cs, size_t count, size_t inputs_each, size_t aux_each,
                                 size_t constraints_each, cuzk_err_t *err)
{
    if (!cuzk_cs_supports_pieces(cs) || cs->pieces)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "cuzk_cs_pieces_begin: needs a count, witness, direct or check system, not a piece, "
                            "without pieces already begun");
    if (cs->status != CUZK_OK)
        return cuzk_cs_status(cs, err);
    size_t ni, na, nc;
    if (count == 0 || __builtin_mul_overflow(count, inputs_each, &ni) || __builtin_add_overflow(ni, cs->num_inputs, &ni) ||
        __builtin_mul_overflow(count, aux_each, &na) || __builtin_add_overflow(na, cs->num_aux, &na) ||
        __builtin_mul_overflow(count, constraints_each, &nc) || __builtin_add_overflow(nc, cs->num_constraints, &nc) ||
        ni > cs->max_inputs || na > cs->max_aux)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "cuzk_cs_pieces_begin: %zu pieces of %zu inputs, %zu aux, %zu constraints: none, or more "
                            "than a system holds",
                            count, inputs_each, aux_each, constraints_each);
    struct cs_pieces *p = calloc(1, sizeof *p);
    unsigned char *state = calloc(count, 1);
    bool ok = p && state;
    if (ok && cs->want_values)
        ok = cs_vec_reserve(&cs->input, ni, sizeof(fr)) && cs_vec_reserve(&cs->aux, na, sizeof(fr));
    if (ok && cs->want_density)
        ok = cs_vec_reserve(&cs->a_aux_d, cs_words(na), 8) && cs_vec_reserve(&cs->b_aux_d, cs_words(na), 8) &&
             cs_vec_reserve(&cs->b_in_d, cs_words(ni), 8);
    if (ok && cs->backend == CUZK_CS_DIRECT)
        ok = cs_vec_reserve(&cs->av, nc, sizeof(fr)) && cs_vec_reserve(&cs->bv, nc, sizeof(fr)) &&
             (cs->omit_c || cs_vec_reserve(&cs->cv, nc, sizeof(fr)));
    if (!ok) {
        free(p);
        free(state);
        cs_failf(cs, CUZK_ERR_NO_MEMORY, "cuzk_cs_pieces_begin: out of memory for %zu aux, %zu constraints", na, nc);
        return cuzk_cs_status(cs, err);
    }
    if (cs->want_density) {
        bits_clear_tail(&cs->a_aux_d, cs_words(na));
        bits_clear_tail(&cs->b_aux_d, cs_words(na));
        bits_clear_tail(&cs->b_in_d, cs_words(ni));
    }
    pthread_mutex_init(&p->lock, NULL);
    p->count = count;
    p->in_each = inputs_each, p->aux_each = aux_each, p->c_each = constraints_each;
    p->in0 = cs->num_inputs, p->aux0 = cs->num_aux, p->c0 = cs->num_constraints;
    p->state = state;
    p->fail_piece = count;
    cs->pieces = p;
    /* the system itself takes nothing more until the end */
    cs->max_inputs = cs->num_inputs, cs->max_aux = cs->num_aux, cs->max_constraints = cs->num_constraints;
    return CUZK_OK;
}

/* A window [lo, hi) of the whole's array w (elements), lo..hi−1 writable by the piece. */
static cs_vec window(const cs_vec *w, size_t lo, size_t hi) { return (cs_vec){w->p, lo, hi, true}; }

/* A private bitmap for bits [0, hi) of which the first lo are already counted: words up to cs_words(hi),
 * zeroed (calloc: only the pages the piece touches are ever faulted in). */
static bool private_bits(cs_vec *bm, size_t lo, size_t hi)
{
    size_t words = cs_words(hi);
    bm->p = calloc(words ? words : 1, 8);
    bm->len = cs_words(lo);
    bm->cap = words;
    return bm->p != NULL;
}

/* Keeps a failure of the pieces starting at `piece` if no earlier piece failed. */
static void note_failure(struct cs_pieces *p, size_t piece, cuzk_status st, const char *msg)
{
    if (piece >= p->fail_piece)
        return;
    p->fail_piece = piece;
    p->fail_status = st;
    snprintf(p->fail_msg, sizeof p->fail_msg, "%s", msg);
}

/* The piece's stop request: the system's, asked one piece at a time; once it says stop, every piece stops. */
static bool piece_should_stop(void *arg)
{
    cuzk_cs_t *whole = arg;
    struct cs_pieces *p = whole->pieces;
    pthread_mutex_lock(&p->lock);
    if (!p->stopped && whole->should_stop && whole->should_stop(whole->stop_arg))
        p->stopped = true;
    bool s = p->stopped;
    pthread_mutex_unlock(&p->lock);
    return s;
}

cuzk_status cuzk_cs_piece_open(cuzk_cs_t **out, cuzk_cs_t *cs, size_t first, size_t n, cuzk_err_t *err)
{
    *out = NULL;
    struct cs_pieces *p = cs->pieces;
    if (!p || n == 0 || first >= p->count || n > p->count - first)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_piece_open: pieces [%zu, %zu + %zu) of %zu begun",
                            first, first, n, p ? p->count : 0);
    pthread_mutex_lock(&p->lock);
    size_t taken = p->count;
    for (size_t i = first; i < first + n && taken == p->count; i++)
        if (p->state[i] != PIECE_NEW)
            taken = i;
    if (taken == p->count)
        memset(p->state + first, PIECE_OPEN, n);
    pthread_mutex_unlock(&p->lock);
    if (taken != p->count)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_piece_open: piece %zu is already open or closed",
                            taken);

    cuzk_cs_t *pc = calloc(1, sizeof *pc);
    size_t in_lo = p->in0 + first * p->in_each, in_hi = in_lo + n * p->in_each;
    size_t aux_lo = p->aux0 + first * p->aux_each, aux_hi = aux_lo + n * p->aux_each;
    size_t c_lo = p->c0 + first * p->c_each, c_hi = c_lo + n * p->c_each;
    if (pc) {
        pc->backend = cs->backend;
        pc->strategy = cs->strategy;
        pc->want_values = cs->want_values, pc->want_lcs = cs->want_lcs, pc->want_density = cs->want_density;
        pc->omit_c = cs->omit_c;
        pc->inline_cap = cs->inline_cap;
        pc->first_unsat = -1;
        pc->whole = cs;
        pc->piece_first = first, pc->piece_n = n;
        pc->num_inputs = in_lo, pc->num_aux = aux_lo, pc->num_constraints = c_lo;
        pc->max_inputs = in_hi, pc->max_aux = aux_hi, pc->max_constraints = c_hi;
        pc->gap_in_lo = p->in0, pc->gap_in_hi = in_lo, pc->gap_aux_lo = p->aux0, pc->gap_aux_hi = aux_lo;
        pc->should_stop = piece_should_stop, pc->stop_arg = cs;
        if (cs->want_values) {
            pc->input = window(&cs->input, in_lo, in_hi);
            pc->aux = window(&cs->aux, aux_lo, aux_hi);
        }
        if (cs->backend == CUZK_CS_DIRECT) {
            pc->av = window(&cs->av, c_lo, c_hi);
            pc->bv = window(&cs->bv, c_lo, c_hi);
            if (!cs->omit_c)
                pc->cv = window(&cs->cv, c_lo, c_hi);
        }
    }
    if (!pc || (cs->want_density && (!private_bits(&pc->a_aux_d, aux_lo, aux_hi) ||
                                      !private_bits(&pc->b_aux_d, aux_lo, aux_hi) ||
                                      !private_bits(&pc->b_in_d, in_lo, in_hi)))) {
        /* the pieces count as failed: cuzk_cs_pieces_end reports it (if no piece before them failed) */
        cuzk_cs_free(pc);
        cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "cuzk_cs_piece_open: out of memory for pieces [%zu, %zu)", first,
                     first + n);
        pthread_mutex_lock(&p->lock);
        note_failure(p, first, CUZK_ERR_NO_MEMORY, "out of memory for a piece's density bits");
        memset(p->state + first, PIECE_CLOSED, n);
        pthread_mutex_unlock(&p->lock);
        return CUZK_ERR_NO_MEMORY;
    }
    *out = pc;
    return CUZK_OK;
}

/* dst |= src over words [from, to). */
static void bits_or(cs_vec *dst, const cs_vec *src, size_t from, size_t to)
{
    uint64_t *d = dst->p;
    const uint64_t *s = src->p;
    for (size_t w = from; w < to; w++)
        d[w] |= s[w];
}

cuzk_status cuzk_cs_piece_close(cuzk_cs_t *cs, cuzk_cs_t *piece)
{
    struct cs_pieces *p = cs->pieces;
    if (!p || !piece || piece->whole != cs) {
        cuzk_cs_free(piece);
        return CUZK_ERR_INVALID_ARG;
    }
    size_t first = piece->piece_first, n = piece->piece_n;
    size_t in_lo = p->in0 + first * p->in_each, aux_lo = p->aux0 + first * p->aux_each;
    size_t c_lo = p->c0 + first * p->c_each;
    cuzk_status st = piece->status;
    if (st == CUZK_OK && (piece->num_inputs != piece->max_inputs || piece->num_aux != piece->max_aux ||
                          piece->num_constraints != piece->max_constraints)) {
        st = CUZK_ERR_INVALID_ARG;
        snprintf(piece->err.msg, sizeof piece->err.msg,
                 "pieces [%zu, %zu): %zu inputs, %zu aux, %zu constraints where their shape has %zu, %zu, %zu",
                 first, first + n, piece->num_inputs - in_lo, piece->num_aux - aux_lo, piece->num_constraints - c_lo,
                 n * p->in_each, n * p->aux_each, n * p->c_each);
    }
    pthread_mutex_lock(&p->lock);
    if (st != CUZK_OK) {
        note_failure(p, first, st, piece->err.msg);
    } else {
        if (cs->want_density) {
            /* the variables before the pieces, then the piece's own words (a boundary word is shared) */
            bits_or(&cs->a_aux_d, &piece->a_aux_d, 0, cs_words(p->aux0));
            bits_or(&cs->b_aux_d, &piece->b_aux_d, 0, cs_words(p->aux0));
            bits_or(&cs->b_in_d, &piece->b_in_d, 0, cs_words(p->in0));
            bits_or(&cs->a_aux_d, &piece->a_aux_d, aux_lo / 64, cs_words(piece->max_aux));
            bits_or(&cs->b_aux_d, &piece->b_aux_d, aux_lo / 64, cs_words(piece->max_aux));
            bits_or(&cs->b_in_d, &piece->b_in_d, in_lo / 64, cs_words(piece->max_inputs));
        }
        for (int k = 0; k < 3; k++)
            cs->nnz[k] += piece->nnz[k];
        if (piece->first_unsat >= 0 && (cs->first_unsat < 0 || piece->first_unsat < cs->first_unsat))
            cs->first_unsat = piece->first_unsat;
    }
    memset(p->state + first, PIECE_CLOSED, n);
    pthread_mutex_unlock(&p->lock);
    cuzk_cs_free(piece);
    return st;
}

cuzk_status cuzk_cs_pieces_end(cuzk_cs_t *cs, cuzk_err_t *err)
{
    struct cs_pieces *p = cs->pieces;
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_pieces_end: no pieces begun");
    for (size_t i = 0; i < p->count && i < p->fail_piece; i++)
        if (p->state[i] != PIECE_CLOSED) {
            char msg[96];
            snprintf(msg, sizeof msg, "cuzk_cs_pieces_end: piece %zu of %zu was %s", i, p->count,
                     p->state[i] == PIECE_OPEN ? "not closed" : "never synthesized");
            note_failure(p, i, CUZK_ERR_INVALID_ARG, msg);
        }
    cs_unlimited(cs);
    if (p->fail_piece < p->count) {
        cs_failf(cs, p->fail_status, "%s", p->fail_msg);
    } else {
        size_t ni = p->in0 + p->count * p->in_each, na = p->aux0 + p->count * p->aux_each;
        size_t nc = p->c0 + p->count * p->c_each;
        cs->num_inputs = ni, cs->num_aux = na, cs->num_constraints = nc;
        if (cs->want_values)
            cs->input.len = ni, cs->aux.len = na;
        if (cs->want_density) {
            cs->a_aux_d.len = cs->b_aux_d.len = cs_words(na);
            cs->b_in_d.len = cs_words(ni);
        }
        if (cs->backend == CUZK_CS_DIRECT) {
            cs->av.len = cs->bv.len = nc;
            if (!cs->omit_c)
                cs->cv.len = nc;
        }
    }
    cs_pieces_drop(cs);
    return cuzk_cs_status(cs, err);
}
