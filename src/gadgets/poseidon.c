/* The Poseidon gadget's fast path: the legacy circuit's constraints are the same for every hash of
 * an (arity, tag) up to the variables they name, so the walk records them once as a template; each
 * hash then only computes its values (where the backend wants them) and copies the template's terms
 * onto its own variables. */
#include "gadgets/poseidon.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "ff/fr.h"
#include "gadgets/poseidon_internal.h"

/* arity·3 + 4·(t·(R_F − 1) + R_P) + 1 for arity 36 (t 37, R_P 60) */
#define MAX_ALLOCS 1385u

/* ---- recording a template ------------------------------------------------------------------- */

typedef struct {
    pz_template *tp;
    uint32_t allocs, cons, nterms, cap_terms;
    bool bad_order; /* allocations and constraints do not alternate */
} recorder;

static void rec_alloc(pz_walk *w, uint32_t var, const fr *value)
{
    (void)var, (void)value;
    recorder *r = w->ctx;
    if (r->allocs++ != r->cons)
        r->bad_order = true;
}

static void rec_enforce(pz_walk *w, const pz_lc *a, const pz_lc *b, const pz_lc *c, const fr *values)
{
    (void)values;
    recorder *r = w->ctx;
    pz_template *tp = r->tp;
    if (r->cons + 1 != r->allocs || r->cons >= MAX_ALLOCS) {
        r->bad_order = true;
        return;
    }
    const pz_lc *s[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        uint32_t need = r->nterms + s[k]->n;
        if (need > r->cap_terms) {
            uint32_t cap = r->cap_terms ? r->cap_terms : 1024;
            while (cap < need)
                cap *= 2;
            uint32_t *v = realloc(tp->var, sizeof(uint32_t) * cap);
            if (v)
                tp->var = v;
            fr *co = v ? realloc(tp->coeff, sizeof(fr) * cap) : NULL;
            if (!co) {
                w->oom = true;
                return;
            }
            tp->coeff = co;
            r->cap_terms = cap;
        }
        /* zero coefficients (a key of 0, merged terms that cancel) are ignored by every backend */
        for (uint32_t i = 0; i < s[k]->n; i++)
            if (!fr_is_zero(&s[k]->t[i].coeff)) {
                tp->var[r->nterms] = s[k]->t[i].var;
                tp->coeff[r->nterms++] = s[k]->t[i].coeff;
            }
        tp->start[3 * r->cons + k + 1] = r->nterms;
    }
    r->cons++;
}

static void template_free(pz_template *tp)
{
    if (tp) {
        free(tp->start), free(tp->var), free(tp->coeff);
        free(tp);
    }
}

static pz_template *template_build(const cuzk_poseidon_constants_t *c, const fr *tag)
{
    pz_template *tp = calloc(1, sizeof *tp);
    if (!tp || !(tp->start = calloc(3 * MAX_ALLOCS + 1, sizeof(uint32_t)))) {
        template_free(tp);
        return NULL;
    }
    tp->c = c;
    tp->tag = *tag;
    recorder r = {.tp = tp};
    pz_walk w = {.c = c, .tag = *tag, .lcs = true, .on_alloc = rec_alloc, .on_enforce = rec_enforce, .ctx = &r};
    pz_walk_run(&w);
    if (w.oom || r.bad_order || r.cons != r.allocs) {
        template_free(tp);
        return NULL;
    }
    tp->n = r.cons;
    tp->out_local = w.out_var;
    return tp;
}

/* ---- cache: per arity, a list of templates by tag; nodes are immutable once published ---------- */

static pz_template *cache[CUZK_POSEIDON_MAX_ARITY + 1];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static const pz_template *find(const pz_template *tp, const fr *tag)
{
    for (; tp; tp = tp->next)
        if (fr_eq(&tp->tag, tag))
            return tp;
    return NULL;
}

const pz_template *pz_template_get(const cuzk_poseidon_constants_t *c, const fr *tag)
{
    const pz_template *tp = find(__atomic_load_n(&cache[c->arity], __ATOMIC_ACQUIRE), tag);
    if (tp)
        return tp;
    pthread_mutex_lock(&cache_lock);
    tp = find(cache[c->arity], tag);
    if (!tp) {
        pz_template *n = template_build(c, tag);
        if (n) {
            n->next = cache[c->arity];
            __atomic_store_n(&cache[c->arity], n, __ATOMIC_RELEASE);
        }
        tp = n;
    }
    pthread_mutex_unlock(&cache_lock);
    return tp;
}

/* ---- emitting a template onto a constraint system ---------------------------------------------- */

typedef struct {
    cuzk_cs_t *cs;
    const pz_template *tp;
    const cuzk_num_t *preimage;
    uint32_t arity;
    bool lcs;
    uint32_t k; /* next constraint */
    cuzk_var_t vars[MAX_ALLOCS];
} emitter;

static inline cuzk_var_t local_var(const emitter *e, uint32_t local)
{
    if (local == 0)
        return cuzk_cs_one();
    if (local <= e->arity)
        return e->preimage[local - 1].var;
    return e->vars[local - e->arity - 1];
}

/* values: the LCs' values when the walk computed them (cuzk_cs_enforce_known_free), else NULL */
static void emit_constraint(emitter *e, const fr *values)
{
    const pz_template *tp = e->tp;
    cuzk_lc_t lc[3];
    for (int s = 0; s < 3; s++) {
        cuzk_lc_init(&lc[s], e->cs);
        if (!e->lcs)
            continue;
        for (uint32_t i = tp->start[3 * e->k + s]; i < tp->start[3 * e->k + s + 1]; i++)
            cuzk_lc_add_term(&lc[s], local_var(e, tp->var[i]), &tp->coeff[i]);
    }
    cuzk_cs_enforce_known_free(e->cs, &lc[0], &lc[1], &lc[2], values);
    e->k++;
}

static void emit_alloc(pz_walk *w, uint32_t var, const fr *value)
{
    emitter *e = w->ctx;
    e->vars[var - e->arity - 1] = cuzk_cs_alloc(e->cs, value);
}

static void emit_enforce(pz_walk *w, const pz_lc *a, const pz_lc *b, const pz_lc *c, const fr *values)
{
    (void)a, (void)b, (void)c;
    emit_constraint(w->ctx, values);
}

static cuzk_status fail_out(cuzk_cs_t *cs, cuzk_num_t *out)
{
    *out = (cuzk_num_t){.var = cuzk_cs_one(), .has_value = false};
    return cuzk_cs_status(cs, NULL);
}

/* The preimage values into vals when cs wants values and every element has one; false otherwise
 * (where values are wanted, cs then fails at the first allocation, as bellpepper does). */
static bool preimage_values(cuzk_cs_t *cs, const cuzk_num_t *preimage, unsigned arity, fr *vals)
{
    if (!cuzk_cs_wants_values(cs))
        return false;
    for (unsigned i = 0; i < arity; i++) {
        if (!preimage[i].has_value)
            return false;
        vals[i] = preimage[i].value;
    }
    return true;
}

cuzk_status cuzk_poseidon_circuit_tagged(cuzk_cs_t *cs, cuzk_num_t *out, const cuzk_poseidon_constants_t *c,
                                         const fr *tag, const cuzk_num_t *preimage)
{
    if (cuzk_cs_status(cs, NULL) != CUZK_OK)
        return fail_out(cs, out);
    const pz_template *tp = pz_template_get(c, tag);
    if (!tp) {
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "poseidon circuit: no memory for the arity-%u constraint template",
                     c->arity);
        return fail_out(cs, out);
    }
    emitter em = {.cs = cs, .tp = tp, .preimage = preimage, .arity = c->arity, .lcs = cuzk_cs_wants_lcs(cs)},
            *e = &em;
    fr vals[CUZK_POSEIDON_MAX_ARITY];
    bool have = preimage_values(cs, preimage, c->arity, vals);
    cuzk_num_t r = {.has_value = false};
    if (cuzk_cs_wants_values(cs)) {
        /* the walk computes the values; each allocation and constraint goes out as it comes */
        pz_walk w = {.c = c, .tag = *tag, .input = have ? vals : NULL, .on_alloc = emit_alloc,
                     .on_enforce = emit_enforce, .ctx = e};
        pz_walk_run(&w);
        r.has_value = w.has_out_value;
        r.value = w.out_value;
    } else {
        for (uint32_t k = 0; k < tp->n; k++) {
            e->vars[k] = cuzk_cs_alloc(cs, NULL);
            emit_constraint(e, NULL);
        }
    }
    r.var = local_var(e, tp->out_local);
    if (cuzk_cs_status(cs, NULL) != CUZK_OK)
        return fail_out(cs, out);
    *out = r;
    return CUZK_OK;
}

cuzk_status cuzk_poseidon_circuit(cuzk_cs_t *cs, cuzk_num_t *out, unsigned arity, const cuzk_num_t *preimage)
{
    const cuzk_poseidon_constants_t *c;
    cuzk_err_t err;
    cuzk_status st = cuzk_poseidon_constants_get(&c, arity, &err);
    if (st != CUZK_OK) {
        cuzk_cs_fail(cs, st, "poseidon circuit: %s", err.msg);
        return fail_out(cs, out);
    }
    return cuzk_poseidon_circuit_tagged(cs, out, c, &c->merkle_tag, preimage);
}

/* ---- the reference path: the walk's LCs straight into cs ------------------------------------- */

static void direct_enforce(pz_walk *w, const pz_lc *a, const pz_lc *b, const pz_lc *c, const fr *values)
{
    (void)values; /* the reference path evaluates its LCs as every other gadget's are */
    emitter *e = w->ctx;
    const pz_lc *s[3] = {a, b, c};
    cuzk_lc_t lc[3];
    for (int k = 0; k < 3; k++) {
        cuzk_lc_init(&lc[k], e->cs);
        for (uint32_t i = 0; i < s[k]->n; i++)
            cuzk_lc_add_term(&lc[k], local_var(e, s[k]->t[i].var), &s[k]->t[i].coeff);
    }
    cuzk_cs_enforce_free(e->cs, &lc[0], &lc[1], &lc[2]);
}

cuzk_status pz_circuit_direct(cuzk_cs_t *cs, cuzk_num_t *out, const cuzk_poseidon_constants_t *c, const fr *tag,
                              const cuzk_num_t *preimage)
{
    emitter em = {.cs = cs, .preimage = preimage, .arity = c->arity}, *e = &em;
    fr vals[CUZK_POSEIDON_MAX_ARITY];
    bool have = preimage_values(cs, preimage, c->arity, vals);
    pz_walk w = {.c = c, .tag = *tag, .lcs = true, .input = have ? vals : NULL, .on_alloc = emit_alloc,
                 .on_enforce = direct_enforce, .ctx = e};
    pz_walk_run(&w);
    cuzk_num_t r = {.var = local_var(e, w.out_var), .has_value = w.has_out_value, .value = w.out_value};
    if (w.oom)
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "poseidon circuit: no memory for a linear combination");
    if (cuzk_cs_status(cs, NULL) != CUZK_OK)
        return fail_out(cs, out);
    *out = r;
    return CUZK_OK;
}
