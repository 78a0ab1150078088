/* A seeded random satisfiable circuit exercising every density and length rule (circuits.h).
 * Two generators: `shape` decides every structural choice, `val` only values, so the count and
 * record backends (no values) see exactly the circuit the value backends see. */
#include <stdlib.h>
#include "circuits.h"
#include "ff/fr.h"
#include "test_util.h"

typedef struct {
    uint64_t s;
} rng;

static uint64_t next(rng *r) { return test_splitmix64(&r->s); }
static uint64_t below(rng *r, uint64_t n) { return next(r) % n; }

static uint64_t next_of(void *r) { return next(r); }
/* The shared test draw, from this circuit's own value stream. */
static void rand_fr(rng *r, fr *x) { test_rand_fr_from(x, next_of, r); }

typedef struct {
    cuzk_var_t v;
    fr c;
} term;

typedef struct {
    cuzk_cs_t *cs;
    rng *shape;
    size_t ninputs_avail; /* inputs 0..ninputs_avail−1 may be used */
    size_t naux_general;  /* aux 0..num_aux−1 and the w's allocated so far */
    const circuit_random_params *p;
} gen;

/* A general variable for matrix m (0 A, 1 B, 2 C): an input (never input 1 in B) or a general
 * aux (a free one or an earlier w). */
static cuzk_var_t pick(gen *g, int m)
{
    const circuit_random_params *p = g->p;
    if (below(g->shape, 4) == 0) {
        size_t i = below(g->shape, g->ninputs_avail);
        if (m == 1 && i == 1)
            i = 0;
        return cuzk_var_input(i);
    }
    size_t j = below(g->shape, g->naux_general);
    return cuzk_var_aux(j < p->num_aux ? j : j + 4); /* skip the four special aux */
}

/* Coefficient kinds: random, one, minus one, zero. */
static void pick_coeff(gen *g, fr *c)
{
    switch (below(g->shape, 8)) {
    case 0: *c = FR_ONE; break;
    case 1: fr_neg(c, &FR_ONE); break;
    case 2: *c = FR_ZERO; break;
    default: rand_fr(g->shape, c);
    }
}

/* Random terms for matrix m into t (room for max_terms + 2); returns the count. */
static size_t make_terms(gen *g, int m, term *t)
{
    size_t n = 0, want = below(g->shape, g->p->max_terms + 1);
    while (n < want) {
        t[n].v = pick(g, m);
        pick_coeff(g, &t[n].c);
        n++;
        unsigned r = (unsigned)below(g->shape, 8);
        if (r == 0) { /* the same variable again */
            t[n].v = t[n - 1].v;
            pick_coeff(g, &t[n].c);
            n++;
        } else if (r == 1) { /* a cancelling pair: merges to a zero coefficient */
            t[n].v = t[n - 1].v;
            fr_neg(&t[n].c, &t[n - 1].c);
            n++;
        }
    }
    return n;
}

static void eval_terms(cuzk_cs_t *cs, const term *t, size_t n, fr *out)
{
    fr acc = FR_ZERO, x, y;
    for (size_t i = 0; i < n; i++) {
        cuzk_cs_get_value(cs, t[i].v, &x);
        fr_mul(&y, &x, &t[i].c);
        fr_add(&acc, &acc, &y);
    }
    *out = acc;
}

static void fill(cuzk_lc_t *lc, const term *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cuzk_lc_add_term(lc, t[i].v, &t[i].c);
}

/* The second half of the public inputs, allocated once, between constraints. */
static void late_inputs(cuzk_cs_t *cs, gen *g, rng *val, size_t first_inputs)
{
    if (g->ninputs_avail == 1 + g->p->num_inputs)
        return;
    bool vals = cuzk_cs_wants_values(cs);
    fr x;
    for (size_t i = first_inputs; i < g->p->num_inputs; i++) {
        if (vals)
            rand_fr(val, &x);
        cuzk_cs_alloc_input(cs, vals ? &x : NULL);
    }
    g->ninputs_avail = 1 + g->p->num_inputs;
}

void circuit_random_synthesize(cuzk_cs_t *cs, const circuit_random_params *p)
{
    bool vals = cuzk_cs_wants_values(cs);
    rng shape = {p->seed}, val = {p->seed ^ 0x5eed5eed5eed5eedULL};
    fr x;
    size_t first_inputs = (p->num_inputs + 1) / 2;
    for (size_t i = 0; i < first_inputs; i++) {
        if (vals)
            rand_fr(&val, &x);
        cuzk_cs_alloc_input(cs, vals ? &x : NULL);
    }
    for (size_t j = 0; j < p->num_aux + 4; j++) {
        if (vals)
            rand_fr(&val, &x);
        cuzk_cs_alloc(cs, vals ? &x : NULL);
    }
    gen g = {cs, &shape, 1 + first_inputs, p->num_aux, p};
    size_t cap = 2 * (size_t)p->max_terms + 4;
    term *ta = malloc(cap * sizeof *ta), *tb = malloc(cap * sizeof *tb), *tc = malloc(cap * sizeof *tc);
    if (!ta || !tb || !tc) {
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "circuit_random: out of memory");
        goto out;
    }
    for (size_t k = 0; k < p->num_constraints; k++) {
        if (k == p->num_constraints / 2)
            late_inputs(cs, &g, &val, first_inputs);
        size_t na = make_terms(&g, 0, ta), nb = make_terms(&g, 1, tb), nc = make_terms(&g, 2, tc);
        if (k == 0) { /* the single-matrix aux, each once, with a non-zero coefficient */
            ta[na].v = cuzk_var_aux(circuit_random_aux_only_a(p));
            rand_fr(&shape, &ta[na++].c);
            tb[nb].v = cuzk_var_aux(circuit_random_aux_only_b(p));
            rand_fr(&shape, &tb[nb++].c);
            tc[nc].v = cuzk_var_aux(circuit_random_aux_only_c(p));
            rand_fr(&shape, &tc[nc++].c);
            ta[na].v = cuzk_var_input(1); /* input 1 appears, but never in B */
            rand_fr(&shape, &ta[na++].c);
        }
        /* w = A·z · B·z − (the other C terms) */
        fr w;
        if (vals) {
            fr av, bv, cv;
            eval_terms(cs, ta, na, &av);
            eval_terms(cs, tb, nb, &bv);
            eval_terms(cs, tc, nc, &cv);
            fr_mul(&w, &av, &bv);
            fr_sub(&w, &w, &cv);
        }
        cuzk_var_t vw = cuzk_cs_alloc(cs, vals ? &w : NULL);
        g.naux_general++;
        cuzk_lc_t a, b, c;
        cuzk_lc_init(&a, cs);
        cuzk_lc_init(&b, cs);
        cuzk_lc_init(&c, cs);
        fill(&a, ta, na);
        fill(&b, tb, nb);
        fill(&c, tc, nc);
        cuzk_lc_add(&c, vw);
        cuzk_cs_enforce_free(cs, &a, &b, &c);
    }
    late_inputs(cs, &g, &val, first_inputs); /* no-op unless there were no constraints */
out:
    free(ta);
    free(tb);
    free(tc);
}
