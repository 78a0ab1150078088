/* Linear combinations and enforce against naive dense oracles: random sequences of LC operations
 * on every storage strategy (terms, order, merging, kept zero terms), and random constraint
 * systems on every backend (A·z, B·z, C·z, CSR rows, densities and counts from a dense per-variable
 * accumulation of the raw terms), including inputs allocated between constraints. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/cs.h"
#include "ff/fr.h"
#include "test_util.h"

/* 1, −1 and 0 often (the coefficients that fold and cancel), otherwise a random element. */
static void pick_fr(fr *x)
{
    switch (test_rand_below(6)) {
    case 0: *x = FR_ONE; return;
    case 1: fr_neg(x, &FR_ONE); return;
    case 2: *x = FR_ZERO; return;
    default: test_rand_fr(x);
    }
}

/* ---- LC operations against a dense model ---- */

#define MAXV 640
typedef struct {
    unsigned ni, na;
    bool present[MAXV];
    fr coeff[MAXV];
} model; /* slot i < ni: Input(i); slot ni + j: Aux(j) */

static cuzk_var_t var_of(const model *m, unsigned s)
{
    return s < m->ni ? cuzk_var_input(s) : cuzk_var_aux(s - m->ni);
}

static bool same(const model *m, const cuzk_lc_t *lc, bool active)
{
    const cuzk_lc_term_t *t = cuzk_lc_terms(lc);
    size_t k = 0;
    for (unsigned s = 0; s < m->ni + m->na; s++) {
        if (!active || !m->present[s])
            continue;
        if (k >= cuzk_lc_len(lc) || t[k].var != var_of(m, s).id || !fr_eq(&t[k].coeff, &m->coeff[s]))
            return false;
        k++;
    }
    return k == cuzk_lc_len(lc);
}

static void model_add(model *m, unsigned s, const fr *c)
{
    if (!m->present[s]) {
        m->present[s] = true;
        m->coeff[s] = FR_ZERO;
    }
    fr_add(&m->coeff[s], &m->coeff[s], c);
}

static void lc_ops(cuzk_cs_backend backend, cuzk_lc_strategy strat, unsigned na, int steps)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, backend, strat, NULL) == CUZK_OK);
    bool active = cuzk_cs_wants_lcs(cs);
    enum { NLC = 4 };
    static model md[NLC];
    cuzk_lc_t lc[NLC];
    for (int i = 0; i < NLC; i++) {
        memset(&md[i], 0, sizeof md[i]);
        md[i].ni = 5, md[i].na = na;
        cuzk_lc_init(&lc[i], cs);
    }
    for (int step = 0; step < steps; step++) {
        int i = (int)test_rand_below(NLC), j = (int)test_rand_below(NLC);
        model *m = &md[i];
        unsigned s = (unsigned)test_rand_below(m->ni + m->na);
        /* bias towards runs of increasing variables, the inline fast path */
        if (test_rand_below(2)) {
            unsigned last = 0;
            for (unsigned q = 0; q < m->ni + m->na; q++)
                if (m->present[q])
                    last = q + 1;
            if (last < m->ni + m->na)
                s = last + (unsigned)test_rand_below(m->ni + m->na - last);
        }
        fr c, k, tmp;
        pick_fr(&c);
        switch (test_rand_below(12)) {
        case 0:
        case 1:
        case 2:
            cuzk_lc_add_term(&lc[i], var_of(m, s), &c);
            model_add(m, s, &c);
            break;
        case 3:
            cuzk_lc_sub_term(&lc[i], var_of(m, s), &c);
            fr_neg(&tmp, &c);
            model_add(m, s, &tmp);
            break;
        case 4:
            cuzk_lc_add(&lc[i], var_of(m, s));
            model_add(m, s, &FR_ONE);
            break;
        case 5:
            cuzk_lc_sub(&lc[i], var_of(m, s));
            fr_neg(&tmp, &FR_ONE);
            model_add(m, s, &tmp);
            break;
        case 6:
        case 7:
        case 8: {
            int op = (int)test_rand_below(3);
            pick_fr(&k);
            model src = md[j]; /* j may be i */
            for (unsigned q = 0; q < m->ni + m->na; q++) {
                if (!src.present[q])
                    continue;
                if (op == 0)
                    tmp = src.coeff[q];
                else if (op == 1)
                    fr_neg(&tmp, &src.coeff[q]);
                else
                    fr_mul(&tmp, &src.coeff[q], &k);
                model_add(m, q, &tmp);
            }
            if (op == 0)
                cuzk_lc_add_lc(&lc[i], &lc[j]);
            else if (op == 1)
                cuzk_lc_sub_lc(&lc[i], &lc[j]);
            else
                cuzk_lc_add_scaled_lc(&lc[i], &k, &lc[j]);
            break;
        }
        case 9:
            cuzk_lc_copy(&lc[i], &lc[j]);
            if (i != j)
                md[i] = md[j];
            break;
        case 10:
            if (test_rand_below(4) == 0) {
                cuzk_lc_free(&lc[i]);
                memset(m->present, 0, sizeof m->present);
            }
            break;
        case 11:
            if (test_rand_below(4) == 0) {
                cuzk_lc_clear(&lc[i]);
                memset(m->present, 0, sizeof m->present);
            }
            break;
        }
        bool ok = same(m, &lc[i], active);
        CHECK_MSG(ok, "strategy %s backend %d step %d lc %d", cuzk_lc_strategy_name(strat), (int)backend,
                  step, i);
        if (!ok)
            break;
    }
    for (int i = 0; i < NLC; i++)
        cuzk_lc_free(&lc[i]);
    CHECK(cuzk_cs_status(cs, NULL) == CUZK_OK);
    cuzk_cs_free(cs);
}

/* ---- constraint systems against dense evaluation ---- */

typedef struct {
    cuzk_var_t v;
    fr c;
} rterm;

typedef struct {
    size_t n[3];
    rterm t[3][16];
} rcons;

/* Dense merge of raw terms: per-variable sums, then the non-zero ones in z order. */
static size_t dense_row(const rterm *t, size_t n, size_t ni, size_t na, uint32_t *col, fr *coeff)
{
    fr *acc = calloc(ni + na, sizeof(fr));
    for (size_t k = 0; k < n; k++) {
        size_t z = cuzk_var_is_input(t[k].v) ? cuzk_var_index(t[k].v) : ni + cuzk_var_index(t[k].v);
        fr_add(&acc[z], &acc[z], &t[k].c);
    }
    size_t cnt = 0;
    for (size_t z = 0; z < ni + na; z++)
        if (!fr_is_zero(&acc[z])) {
            col[cnt] = (uint32_t)z;
            coeff[cnt++] = acc[z];
        }
    free(acc);
    return cnt;
}

static bool bit(const uint64_t *w, size_t i) { return (w[i / 64] >> (i % 64)) & 1; }

static void systems(cuzk_lc_strategy strat)
{
    /* One random script, replayed on every backend at once. */
    size_t ncons = test_rand_below(40);
    cuzk_cs_t *cs[5];
    for (int b = 0; b < 5; b++)
        CHECK(cuzk_cs_new(&cs[b], (cuzk_cs_backend)b, strat, NULL) == CUZK_OK);
    rcons *cons = calloc(ncons ? ncons : 1, sizeof *cons);
    fr *input = malloc(64 * sizeof(fr)), *aux = malloc(256 * sizeof(fr));
    size_t ni = 1, na = 0;
    input[0] = FR_ONE;
    for (size_t k = 0; k < ncons; k++) {
        /* sometimes new variables first */
        while (test_rand_below(3) == 0 && ni < 64) {
            pick_fr(&input[ni]);
            for (int b = 0; b < 5; b++)
                cuzk_cs_alloc_input(cs[b], cuzk_cs_wants_values(cs[b]) ? &input[ni] : NULL);
            ni++;
        }
        while ((na == 0 || test_rand_below(2) == 0) && na < 256) {
            pick_fr(&aux[na]);
            for (int b = 0; b < 5; b++)
                cuzk_cs_alloc(cs[b], cuzk_cs_wants_values(cs[b]) ? &aux[na] : NULL);
            na++;
        }
        rcons *r = &cons[k];
        for (int m = 0; m < 3; m++) {
            r->n[m] = test_rand_below(9);
            for (size_t i = 0; i < r->n[m]; i++) {
                rterm *t = &r->t[m][i];
                if (i && test_rand_below(3) == 0)
                    t->v = r->t[m][i - 1].v;
                else
                    t->v = test_rand_below(3) ? cuzk_var_aux(test_rand_below(na))
                                              : cuzk_var_input(test_rand_below(ni));
                pick_fr(&t->c);
                if (i && t->v.id == r->t[m][i - 1].v.id && test_rand_below(2))
                    fr_neg(&t->c, &r->t[m][i - 1].c);
            }
        }
        for (int b = 0; b < 5; b++) {
            cuzk_lc_t l[3];
            for (int m = 0; m < 3; m++) {
                cuzk_lc_init(&l[m], cs[b]);
                for (size_t i = 0; i < r->n[m]; i++)
                    cuzk_lc_add_term(&l[m], r->t[m][i].v, &r->t[m][i].c);
            }
            cuzk_cs_enforce_free(cs[b], &l[0], &l[1], &l[2]);
        }
    }
    /* oracle */
    uint64_t *da = calloc(na / 64 + 1, 8), *dbi = calloc(ni / 64 + 1, 8), *dba = calloc(na / 64 + 1, 8);
    fr *ov[3];
    for (int m = 0; m < 3; m++)
        ov[m] = calloc(ncons + 1, sizeof(fr));
    uint32_t col[16];
    fr coeff[16];
    for (size_t k = 0; k < ncons; k++)
        for (int m = 0; m < 3; m++) {
            size_t n = dense_row(cons[k].t[m], cons[k].n[m], ni, na, col, coeff);
            fr acc = FR_ZERO, tmp;
            for (size_t i = 0; i < cons[k].n[m]; i++) {
                const rterm *t = &cons[k].t[m][i];
                const fr *z =
                    cuzk_var_is_input(t->v) ? &input[cuzk_var_index(t->v)] : &aux[cuzk_var_index(t->v)];
                fr_mul(&tmp, &t->c, z);
                fr_add(&acc, &acc, &tmp);
            }
            ov[m][k] = acc;
            for (size_t i = 0; i < n; i++) {
                if (m == 0 && col[i] >= ni)
                    da[(col[i] - ni) / 64] |= 1ULL << ((col[i] - ni) % 64);
                if (m == 1 && col[i] >= ni)
                    dba[(col[i] - ni) / 64] |= 1ULL << ((col[i] - ni) % 64);
                if (m == 1 && col[i] < ni)
                    dbi[col[i] / 64] |= 1ULL << (col[i] % 64);
            }
        }
    size_t pa = 0, pbi = 0, pba = 0;
    for (size_t j = 0; j < na; j++)
        pa += bit(da, j), pba += bit(dba, j);
    for (size_t i = 0; i < ni; i++)
        pbi += bit(dbi, i);

    for (int b = 0; b < 5; b++) {
        cuzk_cs_counts_t c;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_cs_status(cs[b], &err) == CUZK_OK, "%s", err.msg);
        cuzk_cs_counts(cs[b], &c);
        CHECK(c.num_inputs == ni && c.num_aux == na && c.num_constraints == ncons);
        if (b != CUZK_CS_WITNESS)
            CHECK_MSG(c.has_density && c.a_aux_density == pa && c.b_input_density == pbi &&
                          c.b_aux_density == pba,
                      "backend %d densities %zu %zu %zu want %zu %zu %zu", b, c.a_aux_density,
                      c.b_input_density, c.b_aux_density, pa, pbi, pba);
        else
            CHECK(!c.has_density);
    }
    /* direct */
    cuzk_groth16_witness_t w;
    CHECK(cuzk_cs_groth16_witness(cs[CUZK_CS_DIRECT], &w, NULL) == CUZK_OK);
    const fr *wv[3] = {w.a, w.b, w.c};
    for (size_t k = 0; k < ncons; k++)
        for (int m = 0; m < 3; m++)
            CHECK_MSG(fr_eq(&wv[m][k], &ov[m][k]), "direct row %zu matrix %d", k, m);
    for (size_t j = 0; j < na; j++)
        CHECK(bit(w.a_aux_density, j) == bit(da, j) && bit(w.b_aux_density, j) == bit(dba, j));
    for (size_t i = 0; i < ni; i++)
        CHECK(bit(w.b_input_density, i) == bit(dbi, i));
    /* record */
    cuzk_cs_record_t rec;
    CHECK(cuzk_cs_take_record(cs[CUZK_CS_RECORD], &rec, NULL) == CUZK_OK);
    const cuzk_csr_t *ms[3] = {&rec.r1cs.a, &rec.r1cs.b, &rec.r1cs.c};
    for (size_t k = 0; k < ncons; k++)
        for (int m = 0; m < 3; m++) {
            size_t n = dense_row(cons[k].t[m], cons[k].n[m], ni, na, col, coeff);
            uint64_t s0 = ms[m]->row_start[k], s1 = ms[m]->row_start[k + 1];
            bool ok = s1 - s0 == n;
            for (size_t i = 0; ok && i < n; i++)
                ok = ms[m]->col[s0 + i] == col[i] && fr_eq(&ms[m]->coeff[s0 + i], &coeff[i]);
            CHECK_MSG(ok, "record row %zu matrix %d", k, m);
        }
    for (size_t j = 0; j < na; j++)
        CHECK(bit(rec.a_aux_density, j) == bit(da, j) && bit(rec.b_aux_density, j) == bit(dba, j));
    for (size_t i = 0; i < ni; i++)
        CHECK(bit(rec.b_input_density, i) == bit(dbi, i));
    /* record + witness */
    cuzk_cs_abc_t abc;
    cuzk_groth16_witness_t w2;
    CHECK(cuzk_cs_record_witness(&w2, &abc, &rec, cs[CUZK_CS_WITNESS], 1 + (int)test_rand_below(3), NULL) ==
          CUZK_OK);
    for (size_t k = 0; k < ncons; k++)
        CHECK(fr_eq(&w2.a[k], &ov[0][k]) && fr_eq(&w2.b[k], &ov[1][k]) && fr_eq(&w2.c[k], &ov[2][k]));
    cuzk_cs_abc_free(&abc);
    cuzk_cs_record_free(&rec);
    for (int m = 0; m < 3; m++)
        free(ov[m]);
    free(da), free(dbi), free(dba), free(cons), free(input), free(aux);
    for (int b = 0; b < 5; b++)
        cuzk_cs_free(cs[b]);
}

int main(void)
{
    test_init("test_cs_lc");
    for (int s = 0; s < CUZK_LC_STRATEGY_COUNT; s++) {
        lc_ops(CUZK_CS_RECORD, (cuzk_lc_strategy)s, 8, 3000);
        lc_ops(CUZK_CS_DIRECT, (cuzk_lc_strategy)s, 600, 3000); /* long LCs: spills, arena chunks */
        lc_ops(CUZK_CS_WITNESS, (cuzk_lc_strategy)s, 8, 300);   /* inert LCs */
        for (int it = 0; it < 40; it++)
            systems((cuzk_lc_strategy)s);
    }
    return test_finish();
}
