/* The example circuits (tests/circuits) on every backend and LC strategy: count = record shape =
 * test counts = direct counts, hand-derived counts and densities, direct a, b, c and densities =
 * record + witness evaluation (several thread counts), a·b = c row by row, the same test hash
 * whatever the strategy, tampered assignments found unsatisfied, and misuse reported. */
#include <stdlib.h>
#include <string.h>
#include "circuits/circuits.h"
#include "cuzk/cs.h"
#include "ff/fr.h"
#include "test_util.h"

typedef void (*synth_fn)(cuzk_cs_t *cs, const void *params);

static void cubic(cuzk_cs_t *cs, const void *p) { circuit_cubic_synthesize(cs, p); }
static void bits(cuzk_cs_t *cs, const void *p) { circuit_bits_synthesize(cs, p); }
static void rnd(cuzk_cs_t *cs, const void *p) { circuit_random_synthesize(cs, p); }

static cuzk_cs_t *run(synth_fn f, const void *p, cuzk_cs_backend b, cuzk_lc_strategy s)
{
    cuzk_cs_t *cs = NULL;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_new(&cs, b, s, &err) == CUZK_OK);
    f(cs, p);
    CHECK_MSG(cuzk_cs_status(cs, &err) == CUZK_OK, "backend %d: %s", (int)b, err.msg);
    return cs;
}

static bool counts_eq(const cuzk_cs_counts_t *x, const cuzk_cs_counts_t *y)
{
    return x->num_inputs == y->num_inputs && x->num_aux == y->num_aux &&
           x->num_constraints == y->num_constraints && x->a_aux_density == y->a_aux_density &&
           x->b_input_density == y->b_input_density && x->b_aux_density == y->b_aux_density;
}

static bool bit(const uint64_t *w, size_t i) { return (w[i / 64] >> (i % 64)) & 1; }

/* Everything for one circuit and strategy; returns the counts and the test hash. */
static void check_circuit(const char *name, synth_fn f, const void *p, cuzk_lc_strategy s,
                          cuzk_cs_counts_t *counts, char hash[65])
{
    cuzk_cs_t *cnt = run(f, p, CUZK_CS_COUNT, s), *wit = run(f, p, CUZK_CS_WITNESS, s),
              *recs = run(f, p, CUZK_CS_RECORD, s), *dir = run(f, p, CUZK_CS_DIRECT, s),
              *tst = run(f, p, CUZK_CS_TEST, s);
    cuzk_cs_counts_t cc, cw, cr, cd, ct, crec;
    cuzk_cs_counts(cnt, &cc), cuzk_cs_counts(wit, &cw), cuzk_cs_counts(recs, &cr);
    cuzk_cs_counts(dir, &cd), cuzk_cs_counts(tst, &ct);
    CHECK_MSG(counts_eq(&cc, &cr) && counts_eq(&cc, &cd) && counts_eq(&cc, &ct), "%s/%s: counts differ", name,
              cuzk_lc_strategy_name(s));
    CHECK(cw.num_inputs == cc.num_inputs && cw.num_aux == cc.num_aux &&
          cw.num_constraints == cc.num_constraints);
    *counts = cc;

    cuzk_cs_record_t rec;
    CHECK(cuzk_cs_take_record(recs, &rec, NULL) == CUZK_OK);
    cuzk_cs_record_counts(&rec, &crec);
    CHECK_MSG(counts_eq(&cc, &crec), "%s: record shape differs from count", name);

    /* direct vs record + witness (one thread, or four) */
    cuzk_groth16_witness_t wd, wr;
    CHECK(cuzk_cs_groth16_witness(dir, &wd, NULL) == CUZK_OK);
    size_t m = cc.num_constraints;
    for (int threads = 1; threads <= 4; threads += 3) {
        cuzk_cs_abc_t abc;
        CHECK(cuzk_cs_record_witness(&wr, &abc, &rec, wit, threads, NULL) == CUZK_OK);
        CHECK(wr.num_inputs == wd.num_inputs && wr.num_aux == wd.num_aux && wr.num_constraints == m);
        bool ok = true;
        for (size_t k = 0; k < m; k++)
            ok = ok && fr_eq(&wd.a[k], &wr.a[k]) && fr_eq(&wd.b[k], &wr.b[k]) && fr_eq(&wd.c[k], &wr.c[k]);
        CHECK_MSG(ok, "%s/%s: direct a, b, c differ from record + witness (%d threads)", name,
                  cuzk_lc_strategy_name(s), threads);
        cuzk_cs_abc_free(&abc);
    }
    CHECK(memcmp(wd.input, wr.input, cc.num_inputs * sizeof(fr)) == 0);
    CHECK(cc.num_aux == 0 || memcmp(wd.aux, wr.aux, cc.num_aux * sizeof(fr)) == 0);
    /* a·b = c, computed here */
    size_t bad = 0;
    for (size_t k = 0; k < m; k++) {
        fr ab;
        fr_mul(&ab, &wd.a[k], &wd.b[k]);
        bad += !fr_eq(&ab, &wd.c[k]);
    }
    CHECK_MSG(bad == 0, "%s: %zu rows with a·b != c", name, bad);
    /* densities: direct's bitmaps = the record's = recomputed from the matrices */
    size_t wa = (cc.num_aux + 63) / 64, wi = (cc.num_inputs + 63) / 64;
    uint64_t *d = calloc(2 * wa + wi + 1, 8);
    cuzk_r1cs_density(&rec.r1cs, d, d + wa, d + wa + wi);
    CHECK(memcmp(d, wd.a_aux_density, wa * 8) == 0 && memcmp(d, rec.a_aux_density, wa * 8) == 0);
    CHECK(memcmp(d + wa, wd.b_input_density, wi * 8) == 0 &&
          memcmp(d + wa, rec.b_input_density, wi * 8) == 0);
    CHECK(memcmp(d + wa + wi, wd.b_aux_density, wa * 8) == 0 &&
          memcmp(d + wa + wi, rec.b_aux_density, wa * 8) == 0);
    free(d);
    /* the shape of the circuit's LCs: each row merged (distinct, increasing columns), no zeros */
    const cuzk_csr_t *ms[3] = {&rec.r1cs.a, &rec.r1cs.b, &rec.r1cs.c};
    for (int mm = 0; mm < 3; mm++)
        for (size_t k = 0; k < m; k++)
            for (uint64_t t = ms[mm]->row_start[k]; t < ms[mm]->row_start[k + 1]; t++) {
                CHECK(!fr_is_zero(&ms[mm]->coeff[t]));
                CHECK(ms[mm]->col[t] < cc.num_inputs + cc.num_aux);
                if (t > ms[mm]->row_start[k])
                    CHECK(ms[mm]->col[t] > ms[mm]->col[t - 1]);
            }

    int64_t first = -2;
    CHECK(cuzk_cs_test_unsatisfied(tst, &first, NULL) == CUZK_OK && first == -1);
    CHECK(cuzk_cs_test_hash(tst, hash, NULL) == CUZK_OK);
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(cnt), cuzk_cs_free(wit), cuzk_cs_free(recs), cuzk_cs_free(dir), cuzk_cs_free(tst);
}

static void all_strategies(const char *name, synth_fn f, const void *p, cuzk_cs_counts_t *counts)
{
    char h0[65], h[65];
    cuzk_cs_counts_t c0, c;
    for (int s = 0; s < CUZK_LC_STRATEGY_COUNT; s++) {
        check_circuit(name, f, p, (cuzk_lc_strategy)s, s ? &c : &c0, s ? h : h0);
        if (s) {
            CHECK_MSG(counts_eq(&c, &c0), "%s: counts depend on the strategy", name);
            CHECK_MSG(strcmp(h, h0) == 0, "%s: hash depends on the strategy", name);
        }
    }
    *counts = c0;
}

static void expect(const char *name, const cuzk_cs_counts_t *c, size_t ni, size_t na, size_t m, size_t da,
                   size_t dbi, size_t dba)
{
    CHECK_MSG(c->num_inputs == ni && c->num_aux == na && c->num_constraints == m && c->a_aux_density == da &&
                  c->b_input_density == dbi && c->b_aux_density == dba,
              "%s: counts %zu %zu %zu density %zu %zu %zu, expected %zu %zu %zu / %zu %zu %zu", name,
              c->num_inputs, c->num_aux, c->num_constraints, c->a_aux_density, c->b_input_density,
              c->b_aux_density, ni, na, m, da, dbi, dba);
}

static void tamper_cubic(void)
{
    circuit_cubic_params p;
    test_rand_fr(&p.x);
    cuzk_cs_t *cs = run(cubic, &p, CUZK_CS_TEST, CUZK_LC_DEFAULT);
    int64_t first;
    fr v, one = FR_ONE;
    /* out is input 1: a wrong out breaks only the last constraint; a wrong x² the first */
    cuzk_cs_get_value(cs, cuzk_var_input(1), &v);
    fr_add(&v, &v, &one);
    CHECK(cuzk_cs_set_value(cs, cuzk_var_input(1), &v, NULL) == CUZK_OK);
    CHECK(cuzk_cs_test_unsatisfied(cs, &first, NULL) == CUZK_OK && first == 2);
    cuzk_cs_get_value(cs, cuzk_var_aux(1), &v);
    fr_add(&v, &v, &one);
    CHECK(cuzk_cs_set_value(cs, cuzk_var_aux(1), &v, NULL) == CUZK_OK);
    CHECK(cuzk_cs_test_unsatisfied(cs, &first, NULL) == CUZK_OK && first == 0);
    cuzk_cs_free(cs);
    /* and the direct backend's rows show it: x computed wrongly on purpose via a bad input */
    cs = run(cubic, &p, CUZK_CS_DIRECT, CUZK_LC_DEFAULT);
    fr x2;
    CHECK(cuzk_cs_get_value(cs, cuzk_var_aux(0), &v) && fr_eq(&v, &p.x));
    CHECK(cuzk_cs_get_value(cs, cuzk_var_aux(1), &x2));
    fr_sqr(&v, &p.x);
    CHECK(fr_eq(&v, &x2));
    CHECK(!cuzk_cs_get_value(cs, cuzk_var_aux(3), &v)); /* not allocated */
    cuzk_cs_free(cs);
}

/* Enough rows for the evaluation to be split between threads (it hands out 4096 at a time). */
static void threads_check(void)
{
    circuit_random_params rp = {test_rand64(), 3, 50, 9000 + test_rand_below(3000), 3};
    cuzk_cs_t *dir = run(rnd, &rp, CUZK_CS_DIRECT, CUZK_LC_DEFAULT),
              *wit = run(rnd, &rp, CUZK_CS_WITNESS, CUZK_LC_DEFAULT),
              *r = run(rnd, &rp, CUZK_CS_RECORD, CUZK_LC_DEFAULT);
    cuzk_cs_record_t rec;
    cuzk_groth16_witness_t wd, wr;
    CHECK(cuzk_cs_take_record(r, &rec, NULL) == CUZK_OK);
    CHECK(cuzk_cs_groth16_witness(dir, &wd, NULL) == CUZK_OK);
    int tc[] = {1, 3, 4, 0};
    for (int i = 0; i < 4; i++) {
        cuzk_cs_abc_t abc;
        CHECK(cuzk_cs_record_witness(&wr, &abc, &rec, wit, tc[i], NULL) == CUZK_OK);
        size_t bad = 0;
        for (size_t k = 0; k < wd.num_constraints; k++)
            bad += !fr_eq(&wd.a[k], &wr.a[k]) || !fr_eq(&wd.b[k], &wr.b[k]) || !fr_eq(&wd.c[k], &wr.c[k]);
        CHECK_MSG(bad == 0, "%zu rows differ with %d threads", bad, tc[i]);
        cuzk_cs_abc_free(&abc);
    }
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(dir), cuzk_cs_free(wit), cuzk_cs_free(r);
}

static void misuse(void)
{
    cuzk_cs_t *cs = NULL, *other = NULL;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_new(&cs, (cuzk_cs_backend)99, CUZK_LC_HEAP, &err) == CUZK_ERR_INVALID_ARG && !cs &&
          err.msg[0]);
    CHECK(cuzk_cs_new(&cs, CUZK_CS_COUNT, CUZK_LC_STRATEGY_COUNT, &err) == CUZK_ERR_INVALID_ARG && !cs);

    /* a value backend without a value */
    CHECK(cuzk_cs_new(&cs, CUZK_CS_WITNESS, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    CHECK(cuzk_cs_wants_values(cs) && !cuzk_cs_wants_lcs(cs));
    cuzk_cs_alloc(cs, NULL);
    err.msg[0] = 0;
    CHECK(cuzk_cs_status(cs, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "without a value"));
    cuzk_cs_free(cs);

    /* an unallocated variable, and an LC of another system */
    CHECK(cuzk_cs_new(&cs, CUZK_CS_DIRECT, CUZK_LC_INLINE2, NULL) == CUZK_OK);
    CHECK(cuzk_cs_new(&other, CUZK_CS_DIRECT, CUZK_LC_INLINE2, NULL) == CUZK_OK);
    cuzk_lc_t a, b, c;
    cuzk_lc_init(&a, cs), cuzk_lc_init(&b, cs), cuzk_lc_init(&c, cs);
    cuzk_lc_add(&a, cuzk_var_aux(0));
    cuzk_cs_enforce_free(cs, &a, &b, &c);
    CHECK(cuzk_cs_status(cs, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "not allocated"));
    cuzk_lc_init(&a, other), cuzk_lc_init(&b, cs), cuzk_lc_init(&c, cs);
    cuzk_cs_enforce_free(other, &a, &b, &c);
    CHECK(cuzk_cs_status(other, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "another"));
    cuzk_groth16_witness_t w;
    CHECK(cuzk_cs_groth16_witness(cs, &w, NULL) == CUZK_ERR_INVALID_ARG); /* failed system */
    cuzk_cs_free(cs), cuzk_cs_free(other);

    /* a gadget's own failure is kept, the first one only */
    CHECK(cuzk_cs_new(&cs, CUZK_CS_COUNT, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    CHECK(!cuzk_cs_wants_values(cs) && cuzk_cs_wants_lcs(cs));
    cuzk_cs_alloc(cs, NULL); /* fine: count needs no values */
    CHECK(cuzk_cs_status(cs, NULL) == CUZK_OK);
    CHECK(cuzk_cs_fail(cs, CUZK_ERR_MISMATCH, "division by zero in %s", "inverse") == CUZK_ERR_MISMATCH);
    cuzk_cs_fail(cs, CUZK_ERR_IO, "second");
    CHECK(cuzk_cs_status(cs, &err) == CUZK_ERR_MISMATCH &&
          strcmp(err.msg, "division by zero in inverse") == 0);
    cuzk_cs_record_t rec;
    CHECK(cuzk_cs_take_record(cs, &rec, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_set_value(cs, cuzk_cs_one(), &FR_ONE, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(cs);

    /* record + witness of different shapes; a record taken twice; enforce after taking */
    circuit_bits_params p8 = {200, 8}, p9 = {200, 9};
    cuzk_cs_t *r = run(bits, &p8, CUZK_CS_RECORD, CUZK_LC_DEFAULT),
              *wt = run(bits, &p9, CUZK_CS_WITNESS, CUZK_LC_DEFAULT);
    CHECK(cuzk_cs_take_record(r, &rec, NULL) == CUZK_OK);
    cuzk_cs_record_t rec2;
    CHECK(cuzk_cs_take_record(r, &rec2, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_abc_t abc;
    CHECK(cuzk_cs_record_witness(&w, &abc, &rec, wt, 1, &err) == CUZK_ERR_MISMATCH &&
          strstr(err.msg, "9 aux"));
    CHECK(abc.a == NULL);
    cuzk_lc_init(&a, r), cuzk_lc_init(&b, r), cuzk_lc_init(&c, r);
    cuzk_cs_enforce_free(r, &a, &b, &c);
    CHECK(cuzk_cs_status(r, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_record_free(&rec);
    cuzk_cs_record_free(&rec); /* NULL-safe, idempotent */
    cuzk_cs_free(r), cuzk_cs_free(wt);

    cuzk_lc_strategy st;
    CHECK(cuzk_lc_strategy_parse(&st, "inline4", NULL) == CUZK_OK && st == CUZK_LC_INLINE4);
    CHECK(cuzk_lc_strategy_parse(&st, "default", NULL) == CUZK_OK && st == CUZK_LC_DEFAULT);
    CHECK(cuzk_lc_strategy_parse(&st, "smallvec", &err) == CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "smallvec"));
    CHECK(cuzk_lc_strategy_name(CUZK_LC_STRATEGY_COUNT) == NULL);
    cuzk_cs_free(NULL);
}

int main(void)
{
    test_init("test_cs_backends");
    cuzk_cs_counts_t c;

    for (int it = 0; it < 4; it++) {
        circuit_cubic_params cp;
        test_rand_fr(&cp.x);
        if (it == 0)
            fr_from_u64(&cp.x, 3); /* 27 + 3 + 5 = 35 */
        all_strategies("cubic", cubic, &cp, &c);
        expect("cubic", &c, 2, 3, 3, 3, 1, 1);
    }
    for (int it = 0; it < 6; it++) {
        circuit_bits_params bp = {test_rand64(), it == 0   ? 64
                                                 : it == 1 ? 1
                                                           : 1 + (unsigned)test_rand_below(64)};
        all_strategies("bits", bits, &bp, &c);
        expect("bits", &c, 2, bp.nbits + 1, bp.nbits + 2, bp.nbits, 1, bp.nbits);
    }
    for (int it = 0; it < 8; it++) {
        circuit_random_params rp = {test_rand64(), 1 + test_rand_below(6), 1 + test_rand_below(30),
                                    test_rand_below(it < 6 ? 200 : 3000),
                                    1 + (unsigned)test_rand_below(it & 1 ? 12 : 4)};
        all_strategies("random", rnd, &rp, &c);
        CHECK(c.num_inputs == 1 + rp.num_inputs && c.num_aux == circuit_random_num_aux(&rp) &&
              c.num_constraints == rp.num_constraints);
        /* the special aux, from the record's bitmaps */
        if (rp.num_constraints) {
            cuzk_cs_t *r = run(rnd, &rp, CUZK_CS_RECORD, CUZK_LC_DEFAULT);
            cuzk_cs_record_t rec;
            CHECK(cuzk_cs_take_record(r, &rec, NULL) == CUZK_OK);
            size_t oa = circuit_random_aux_only_a(&rp), ob = circuit_random_aux_only_b(&rp),
                   oc = circuit_random_aux_only_c(&rp), un = circuit_random_aux_unused(&rp);
            CHECK(bit(rec.a_aux_density, oa) && !bit(rec.b_aux_density, oa));
            CHECK(!bit(rec.a_aux_density, ob) && bit(rec.b_aux_density, ob));
            CHECK(!bit(rec.a_aux_density, oc) && !bit(rec.b_aux_density, oc));
            CHECK(!bit(rec.a_aux_density, un) && !bit(rec.b_aux_density, un));
            CHECK(!bit(rec.b_input_density, 1));
            /* only_c is in C, unused nowhere */
            size_t ni = rec.r1cs.num_inputs, inc = 0, inu = 0;
            for (uint64_t t = 0; t < rec.r1cs.c.row_start[rec.r1cs.num_constraints]; t++)
                inc += rec.r1cs.c.col[t] == ni + oc, inu += rec.r1cs.c.col[t] == ni + un;
            CHECK(inc == 1 && inu == 0);
            cuzk_cs_record_free(&rec);
            cuzk_cs_free(r);
        }
    }
    threads_check();
    tamper_cubic();
    misuse();
    return test_finish();
}
