/* Streaming QAP evaluation at τ (setup_qap.h): the sink backend's consumer. */
#include "groth16/setup_qap.h"

#include <string.h>
#include <sys/mman.h>
#include "groth16/groth16_internal.h"

/* Lagrange values computed at a time: one batch inversion per chunk. */
#define LAG_CHUNK ((size_t)1 << 16)
/* Rows between progress ticks. */
#define TICK_ROWS ((size_t)1 << 20)

static size_t words(size_t n) { return (n + 63) / 64; }

/* An anonymous mapping (zero pages until written), transparent huge pages asked for: the arrays are
 * gigabytes indexed by variable. */
static void *big_alloc(size_t bytes)
{
    if (!bytes)
        bytes = 1;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

static void big_free(void *p, size_t bytes, bool wipe)
{
    if (!p)
        return;
    if (wipe)
        g16_wipe(p, bytes); /* the values give τ away */
    munmap(p, bytes ? bytes : 1);
}

cuzk_status g16_qap_init(g16_qap *q, const g16_stream_plan *plan, const g16_toxic_waste *tw, cuzk_err_t *err)
{
    memset(q, 0, sizeof *q);
    q->plan = plan;
    q->tw = tw;
    size_t na = plan->num_aux, ni = plan->num_inputs;
    q->x = big_alloc(na * sizeof(fr));
    q->y = big_alloc(na * sizeof(fr));
    q->in_u = big_alloc(ni * sizeof(fr));
    q->in_v = big_alloc(ni * sizeof(fr));
    q->in_w = big_alloc(ni * sizeof(fr));
    q->a_aux = big_alloc(words(na) * 8);
    q->b_aux = big_alloc(words(na) * 8);
    q->b_in = big_alloc(words(ni) * 8);
    q->lag = big_alloc(LAG_CHUNK * sizeof(fr));
    if (!q->x || !q->y || !q->in_u || !q->in_v || !q->in_w || !q->a_aux || !q->b_aux || !q->b_in || !q->lag) {
        g16_qap_free(q);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "setup: out of memory (QAP arrays for %zu variables)", na + ni);
    }
    return CUZK_OK;
}

void g16_qap_release_y(g16_qap *q)
{
    big_free(q->y, q->plan->num_aux * sizeof(fr), true);
    q->y = NULL;
}

void g16_qap_free(g16_qap *q)
{
    if (!q->plan)
        return;
    size_t na = q->plan->num_aux, ni = q->plan->num_inputs;
    big_free(q->x, na * sizeof(fr), true);
    big_free(q->y, na * sizeof(fr), true);
    big_free(q->in_u, ni * sizeof(fr), true);
    big_free(q->in_v, ni * sizeof(fr), true);
    big_free(q->in_w, ni * sizeof(fr), true);
    big_free(q->a_aux, words(na) * 8, false);
    big_free(q->b_aux, words(na) * 8, false);
    big_free(q->b_in, words(ni) * 8, false);
    big_free(q->lag, LAG_CHUNK * sizeof(fr), true);
    memset(q, 0, sizeof *q);
}

/* L_row(τ): the next row's weight (rows come in order). NULL past the plan's rows or on a failure. */
static const fr *next_weight(g16_qap *q, size_t row)
{
    if (q->lag_pos == q->lag_n) {
        size_t rows = q->plan->num_constraints + q->plan->num_inputs;
        size_t first = q->lag_first + q->lag_n;
        if (first >= rows || q->lag_st != CUZK_OK)
            return NULL;
        size_t n = rows - first < LAG_CHUNK ? rows - first : LAG_CHUNK;
        q->lag_st = g16_lagrange_range(q->lag, first, n, q->plan->log_m, &q->tw->tau);
        if (q->lag_st != CUZK_OK)
            return NULL;
        q->lag_first = first;
        q->lag_n = n;
        q->lag_pos = 0;
    }
    if (q->lag_first + q->lag_pos != row)
        return NULL;
    return &q->lag[q->lag_pos++];
}

static inline bool is_one(const fr *a)
{
    return !((a->l[0] ^ FR_ONE.l[0]) | (a->l[1] ^ FR_ONE.l[1]) | (a->l[2] ^ FR_ONE.l[2]) | (a->l[3] ^ FR_ONE.l[3]));
}
static inline bool is_zero(const fr *a) { return !(a->l[0] | a->l[1] | a->l[2] | a->l[3]); }

/* dst += coeff·w, the multiplication skipped for coefficient 1 (most terms). */
static inline void add_term(fr *dst, const fr *coeff, const fr *w)
{
    if (is_one(coeff)) {
        fr_add(dst, dst, w);
    } else {
        fr t;
        fr_mul(&t, coeff, w);
        fr_add(dst, dst, &t);
    }
}

static inline void set_bit(uint64_t *bm, size_t i) { bm[i / 64] |= 1ull << (i % 64); }

/* Index of a term's variable in its array (aux or input), false past the plan's counts. */
static inline bool term_index(const g16_qap *q, uint32_t var, bool *aux, size_t *idx)
{
    *aux = var & CUZK_VAR_AUX_BIT;
    *idx = var & ~CUZK_VAR_AUX_BIT;
    return *idx < (*aux ? q->plan->num_aux : q->plan->num_inputs);
}

static void pass1_constraint(void *arg, size_t row, const cuzk_lc_t *a, const cuzk_lc_t *b, const cuzk_lc_t *c)
{
    g16_qap *q = arg;
    const fr *w = next_weight(q, row);
    if (!w) {
        q->overrun = true;
        return;
    }
    fr bw;
    fr_mul(&bw, &q->tw->beta, w); /* A's aux terms go into β·u directly */
    const cuzk_lc_t *lcs[3] = {a, b, c};
    for (int m = 0; m < 3; m++) {
        const cuzk_lc_term_t *t = cuzk_lc_terms(lcs[m]);
        for (size_t k = 0; k < cuzk_lc_len(lcs[m]); k++) {
            if (is_zero(&t[k].coeff))
                continue;
            bool aux;
            size_t i;
            if (!term_index(q, t[k].var, &aux, &i)) {
                q->overrun = true;
                continue;
            }
            if (m == 0) {
                if (aux) {
                    add_term(&q->y[i], &t[k].coeff, &bw);
                    set_bit(q->a_aux, i);
                } else {
                    add_term(&q->in_u[i], &t[k].coeff, w);
                }
            } else if (m == 1) {
                add_term(aux ? &q->x[i] : &q->in_v[i], &t[k].coeff, w);
                set_bit(aux ? q->b_aux : q->b_in, i);
            } else {
                add_term(aux ? &q->y[i] : &q->in_w[i], &t[k].coeff, w);
            }
        }
    }
    g16_wipe(&bw, sizeof bw);
    if (q->tick && (row + 1) % TICK_ROWS == 0)
        q->tick(q->tick_arg, row + 1);
}

static void pass2_constraint(void *arg, size_t row, const cuzk_lc_t *a, const cuzk_lc_t *b, const cuzk_lc_t *c)
{
    (void)b, (void)c;
    g16_qap *q = arg;
    const fr *w = next_weight(q, row);
    if (!w) {
        q->overrun = true;
        return;
    }
    const cuzk_lc_term_t *t = cuzk_lc_terms(a);
    for (size_t k = 0; k < cuzk_lc_len(a); k++) {
        bool aux;
        size_t i;
        if (is_zero(&t[k].coeff))
            continue;
        if (!term_index(q, t[k].var, &aux, &i))
            q->overrun = true;
        else if (aux)
            add_term(&q->y[i], &t[k].coeff, w);
    }
    if (q->tick && (row + 1) % TICK_ROWS == 0)
        q->tick(q->tick_arg, row + 1);
}

static cuzk_status check_counts(const g16_qap *q, const cuzk_cs_counts_t *c, cuzk_err_t *err)
{
    const g16_stream_plan *p = q->plan;
    if (q->overrun || c->num_inputs != p->num_inputs || c->num_aux != p->num_aux ||
        c->num_constraints != p->num_constraints || c->a_aux_density != p->a_aux_density ||
        c->b_input_density != p->b_input_density || c->b_aux_density != p->b_aux_density)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "setup: pass %d synthesized another circuit than the count run (%zu inputs, %zu aux, "
                            "%zu constraints; the plan has %zu, %zu, %zu)",
                            q->pass, c->num_inputs, c->num_aux, c->num_constraints, p->num_inputs, p->num_aux,
                            p->num_constraints);
    return CUZK_OK;
}

cuzk_status g16_qap_pass(g16_qap *q, int pass, g16_synthesize_fn synthesize, const void *arg,
                         bool (*should_stop)(void *), void *stop_arg, cuzk_err_t *err)
{
    if (pass != 1 && pass != 2)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "setup: no QAP pass %d", pass);
    if (pass == 2) /* y becomes u */
        memset(q->y, 0, q->plan->num_aux * sizeof(fr));
    q->pass = pass;
    q->lag_first = q->lag_n = q->lag_pos = 0;
    q->overrun = false;
    q->lag_st = CUZK_OK;
    cuzk_cs_counts_t c;
    cuzk_status st = g16_sink_synthesize(&c, synthesize, arg, pass == 1 ? pass1_constraint : pass2_constraint, q,
                                         should_stop, stop_arg, err);
    if (st == CUZK_OK && q->lag_st != CUZK_OK)
        st = cuzk_err_set(err, q->lag_st, "setup: Lagrange basis: %s", cuzk_status_str(q->lag_st));
    if (st == CUZK_OK)
        st = check_counts(q, &c, err);
    /* the input rows Input(i)·0 = 0 after the circuit's: u_i += L_(constraints + i)(τ) */
    for (size_t i = 0; st == CUZK_OK && pass == 1 && i < q->plan->num_inputs; i++) {
        const fr *w = next_weight(q, q->plan->num_constraints + i);
        if (!w)
            st = cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "setup: input row %zu out of the plan", i);
        else
            fr_add(&q->in_u[i], &q->in_u[i], w);
    }
    return st;
}
