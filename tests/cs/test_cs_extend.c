/* Joining systems synthesized apart (cuzk_cs_extend, bellperson's ProvingAssignment::extend): random
 * parts — inputs and aux interleaved with constraints, repeated and cancelling terms, zero coefficients,
 * ONE in B in some parts and not in others, parts wider than a bitmap word — synthesized one after the
 * other into one system (the oracle: sequential synthesis) and each into a system of its own, then
 * joined in order, must give the same system on every backend that joins (count, witness, record,
 * direct, test, check): every array compared (cs_test_compare.h). Also: the check backend against the
 * test backend (same verdict, same first unsatisfied constraint) on satisfied and broken circuits, the
 * density bit of ONE as DensityTracker::extend keeps it, failures carried over, misuse refused; a reset
 * system (cuzk_cs_reset) synthesized again equals a new one. The direct backend without C·z
 * (cuzk_cs_omit_c) joins the same way, and LC values given by a gadget (cuzk_cs_enforce_known_free) give
 * the same system as evaluated ones, a wrong one found by the check backend. */
#include <stdlib.h>
#include <string.h>
#include "cs/cs_test_compare.h"
#include "cuzk/cs.h"
#include "ff/fr.h"
#include "test_util.h"

typedef struct {
    uint64_t seed;
    size_t inputs, aux, constraints; /* allocated by the part (plus one aux per constraint) */
    unsigned max_terms;
    bool one_in_b; /* ONE may appear in B (and does at least once when there are constraints) */
    int64_t broken; /* this constraint of the part does not hold (−1: none) */
    bool known;     /* enforced with the LCs' values given (cuzk_cs_enforce_known_free) */
    int64_t wrong;  /* ... and this constraint's given value of A wrong (−1: none) */
} part_params;

typedef struct {
    uint64_t s;
} rng;

static uint64_t next(rng *r) { return test_splitmix64(&r->s); }
static uint64_t below(rng *r, uint64_t n) { return next(r) % n; }
static uint64_t next_of(void *r) { return next(r); }

#define MAXV 4096

typedef struct {
    cuzk_var_t v[MAXV];
    fr val[MAXV];
    size_t n;
} vars_t;

static void new_var(cuzk_cs_t *cs, vars_t *vs, rng *values, bool input)
{
    fr x;
    test_rand_fr_from(&x, next_of, values);
    vs->v[vs->n] = input ? cuzk_cs_alloc_input(cs, &x) : cuzk_cs_alloc(cs, &x);
    vs->val[vs->n++] = x;
}

/* Random terms over the part's variables (index 0: ONE); *acc gets their value. */
static void terms(cuzk_lc_t *lc, const vars_t *vs, rng *shape, rng *values, unsigned max, bool allow_one, fr *acc)
{
    *acc = FR_ZERO;
    unsigned n = (unsigned)below(shape, max + 1);
    for (unsigned k = 0; k < n; k++) {
        size_t i = below(shape, vs->n);
        if (i == 0 && !allow_one)
            i = vs->n > 1 ? 1 + below(shape, vs->n - 1) : 0;
        if (i == 0 && !allow_one)
            continue;
        fr c;
        switch (below(shape, 6)) {
        case 0: c = FR_ONE; break;
        case 1: fr_neg(&c, &FR_ONE); break;
        case 2: c = FR_ZERO; break;
        default: test_rand_fr_from(&c, next_of, values);
        }
        int reps = below(shape, 5) == 0 ? 2 : 1; /* the same variable again, merged */
        for (int r = 0; r < reps; r++) {
            cuzk_lc_add_term(lc, vs->v[i], &c);
            fr t;
            fr_mul(&t, &c, &vs->val[i]);
            fr_add(acc, acc, &t);
        }
    }
}

/* One part; its variables are those it allocates and ONE, so that it can run in a system of its own
 * or after other parts. */
static void part(cuzk_cs_t *cs, const part_params *p)
{
    rng shape = {p->seed}, values = {p->seed ^ 0x5555aaaa5555aaaaULL};
    static vars_t vs; /* one part at a time */
    vs.n = 0;
    vs.v[vs.n] = cuzk_cs_one();
    vs.val[vs.n++] = FR_ONE;
    size_t ni = 0, na = 0;
    /* half the variables first, the rest interleaved with the constraints */
    while (ni < p->inputs / 2 || na < p->aux / 2) {
        bool in = ni < p->inputs / 2 && (na >= p->aux / 2 || below(&shape, 2));
        new_var(cs, &vs, &values, in);
        in ? ni++ : na++;
    }
    for (size_t k = 0; k < p->constraints; k++) {
        while ((ni < p->inputs || na < p->aux) && vs.n < MAXV - 2 && below(&shape, 3) == 0) {
            bool in = ni < p->inputs && (na >= p->aux || below(&shape, 2));
            new_var(cs, &vs, &values, in);
            in ? ni++ : na++;
        }
        cuzk_lc_t a, b, c;
        cuzk_lc_init(&a, cs), cuzk_lc_init(&b, cs), cuzk_lc_init(&c, cs);
        fr va, vb, vc, ab, w;
        terms(&a, &vs, &shape, &values, p->max_terms, true, &va);
        terms(&b, &vs, &shape, &values, p->max_terms, p->one_in_b, &vb);
        if (p->one_in_b && k == 0)
            cuzk_lc_add(&b, cuzk_cs_one()), fr_add(&vb, &vb, &FR_ONE);
        terms(&c, &vs, &shape, &values, p->max_terms, true, &vc);
        /* C gets a fresh w that makes the constraint hold (or not) */
        fr_mul(&ab, &va, &vb);
        fr_sub(&w, &ab, &vc);
        if ((int64_t)k == p->broken)
            fr_add(&w, &w, &FR_ONE);
        if (vs.n < MAXV) {
            vs.v[vs.n] = cuzk_cs_alloc(cs, &w);
            vs.val[vs.n] = w;
            cuzk_lc_add(&c, vs.v[vs.n++]);
            fr_add(&vc, &vc, &w);
        }
        if (p->known) {
            fr given[3] = {va, vb, vc};
            if (p->wrong == (int64_t)k)
                fr_add(&given[0], &given[0], &FR_ONE);
            cuzk_cs_enforce_known_free(cs, &a, &b, &c, given);
        } else {
            cuzk_cs_enforce_free(cs, &a, &b, &c);
        }
    }
    while (ni < p->inputs || na < p->aux) {
        bool in = ni < p->inputs && (na >= p->aux || below(&shape, 2));
        if (vs.n >= MAXV)
            break;
        new_var(cs, &vs, &values, in);
        in ? ni++ : na++;
    }
}

static cuzk_cs_t *fresh(cuzk_cs_backend b, cuzk_lc_strategy s)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, b, s, NULL) == CUZK_OK);
    return cs;
}

static const cuzk_cs_backend JOINED[] = {CUZK_CS_COUNT,  CUZK_CS_WITNESS, CUZK_CS_RECORD,
                                         CUZK_CS_DIRECT, CUZK_CS_TEST,    CUZK_CS_CHECK};

/* parts[0..n) sequentially vs each apart and joined (with the first synthesized straight into the
 * joined system, or into a system of its own joined into an empty one). */
static void join_case(const char *name, const part_params *parts, size_t n, cuzk_lc_strategy s)
{
    for (size_t bi = 0; bi < sizeof JOINED / sizeof JOINED[0]; bi++) {
        cuzk_cs_backend b = JOINED[bi];
        /* direct also as the provers run it, without C·z: parts made with cuzk_cs_new_part */
        for (int variant = 0; variant < (b == CUZK_CS_DIRECT ? 4 : 2); variant++) {
            int first_direct = variant & 1;
            bool omit_c = variant >= 2;
            cuzk_cs_t *seq = fresh(b, s), *dst = fresh(b, s);
            if (omit_c)
                CHECK(cuzk_cs_omit_c(seq, NULL) == CUZK_OK && cuzk_cs_omit_c(dst, NULL) == CUZK_OK);
            for (size_t i = 0; i < n; i++) {
                part(seq, &parts[i]);
                if (i == 0 && first_direct) {
                    part(dst, &parts[i]);
                    continue;
                }
                cuzk_cs_t *src = NULL;
                CHECK(cuzk_cs_new_part(&src, dst, NULL) == CUZK_OK);
                part(src, &parts[i]);
                cuzk_err_t err = {{0}};
                CHECK_MSG(cuzk_cs_extend(dst, src, &err) == CUZK_OK, "%s: %s", name, err.msg);
                cuzk_cs_free(src);
            }
            char why[256] = "";
            CHECK_MSG(cs_test_same(seq, dst, why, sizeof why), "%s, backend %d%s, %s, first part %s: %s", name, (int)b,
                      omit_c ? " without C·z" : "", cuzk_lc_strategy_name(s), first_direct ? "in place" : "joined", why);
            cuzk_cs_free(seq);
            cuzk_cs_free(dst);
        }
    }
}

static part_params random_part(void)
{
    part_params p = {.seed = test_rand64(),
                     .inputs = test_rand_below(5),
                     .aux = test_rand_below(test_rand_below(4) == 0 ? 300 : 20),
                     .constraints = test_rand_below(test_rand_below(4) == 0 ? 200 : 12),
                     .max_terms = 1 + (unsigned)test_rand_below(6),
                     .one_in_b = test_rand_below(2),
                     .broken = -1,
                     .wrong = -1};
    if (test_rand_below(5) == 0 && p.constraints)
        p.broken = (int64_t)test_rand_below(p.constraints);
    return p;
}

static void joins(void)
{
    /* ONE in B: in neither, the first, the second, both (DensityTracker::extend or-s the bit) */
    for (int mask = 0; mask < 4; mask++) {
        part_params ps[2] = {{test_rand64(), 2, 10, 6, 3, mask & 1, -1, false, -1},
                             {test_rand64(), 3, 70, 9, 4, (mask >> 1) & 1, -1, false, -1}};
        join_case("ONE in B", ps, 2, CUZK_LC_DEFAULT);
    }
    /* parts without inputs, without aux, without constraints, and a part with nothing at all */
    part_params edge[4] = {{test_rand64(), 0, 5, 4, 3, 1, -1, false, -1},
                           {test_rand64(), 3, 0, 0, 2, 0, -1, false, -1},
                           {test_rand64(), 0, 0, 0, 2, 0, -1, false, -1},
                           {test_rand64(), 1, 130, 40, 5, 0, 7, false, -1}};
    join_case("edges", edge, 4, CUZK_LC_INLINE2);
    for (int r = 0; r < 12; r++) {
        part_params ps[6];
        size_t n = 1 + test_rand_below(6);
        for (size_t i = 0; i < n; i++)
            ps[i] = random_part();
        join_case("random", ps, n, (cuzk_lc_strategy)test_rand_below(CUZK_LC_STRATEGY_COUNT));
    }
}

/* Direct without C·z (cuzk_cs_omit_c): the same system as with it, but no C·z; and given LC values
 * (cuzk_cs_enforce_known_free): the same system as evaluated ones on direct and check, a wrong one
 * found by check and taken as given by direct (which trusts its gadgets). */
static void omitted_and_known(void)
{
    for (int r = 0; r < 20; r++) {
        part_params p = random_part(), pk = p;
        pk.known = true;
        cuzk_cs_backend bs[3] = {CUZK_CS_DIRECT, CUZK_CS_DIRECT, CUZK_CS_CHECK};
        for (int k = 0; k < 3; k++) {
            cuzk_cs_t *plain = fresh(bs[k], CUZK_LC_DEFAULT), *given = fresh(bs[k], CUZK_LC_DEFAULT);
            if (k == 1)
                CHECK(cuzk_cs_omit_c(plain, NULL) == CUZK_OK && cuzk_cs_omit_c(given, NULL) == CUZK_OK);
            part(plain, &p);
            part(given, &pk);
            char why[256] = "";
            CHECK_MSG(cs_test_same(plain, given, why, sizeof why), "given values, backend %d%s: %s", (int)bs[k],
                      k == 1 ? " without C·z" : "", why);
            cuzk_cs_free(plain), cuzk_cs_free(given);
        }
        /* with and without C·z: A·z, B·z, densities and counts the same; C·z only with */
        cuzk_cs_t *with = fresh(CUZK_CS_DIRECT, CUZK_LC_DEFAULT), *without = fresh(CUZK_CS_DIRECT, CUZK_LC_DEFAULT);
        CHECK(cuzk_cs_omit_c(without, NULL) == CUZK_OK);
        part(with, &p);
        part(without, &p);
        cuzk_groth16_witness_t ww, wo;
        CHECK(cuzk_cs_groth16_witness(with, &ww, NULL) == CUZK_OK && cuzk_cs_groth16_witness(without, &wo, NULL) == CUZK_OK);
        size_t m = ww.num_constraints;
        CHECK(wo.num_constraints == m && (ww.c != NULL || m == 0) && wo.c == NULL);
        CHECK(cs_test_bytes_eq(ww.a, wo.a, m * sizeof(fr)) && cs_test_bytes_eq(ww.b, wo.b, m * sizeof(fr)));
        cuzk_cs_counts_t cw, co;
        cuzk_cs_counts(with, &cw), cuzk_cs_counts(without, &co);
        CHECK(cw.nnz_c == co.nnz_c && cw.a_aux_density == co.a_aux_density && cw.b_aux_density == co.b_aux_density);
        /* handed to the consuming prover: A·z, B·z and aux grown to the domain (aux for C·z), values kept */
        cuzk_groth16_witness_consumable_t wc;
        CHECK(cuzk_cs_groth16_witness_consumable(without, &wc, NULL) == CUZK_OK);
        size_t dom = 1;
        while (dom < m + ww.num_inputs)
            dom *= 2;
        CHECK(wc.capacity >= dom && wc.aux_capacity >= dom && wc.num_aux == ww.num_aux);
        CHECK(cs_test_bytes_eq(wc.a, ww.a, m * sizeof(fr)) && cs_test_bytes_eq(wc.b, ww.b, m * sizeof(fr)) &&
              cs_test_bytes_eq(wc.aux, ww.aux, ww.num_aux * sizeof(fr)));
        cuzk_cs_free(with), cuzk_cs_free(without);
    }
    /* a wrong given value: check fails naming the constraint; direct stores it */
    part_params p = {test_rand64(), 1, 6, 8, 3, 1, -1, true, 5};
    cuzk_cs_t *chk = fresh(CUZK_CS_CHECK, CUZK_LC_DEFAULT), *dir = fresh(CUZK_CS_DIRECT, CUZK_LC_DEFAULT),
              *ref = fresh(CUZK_CS_DIRECT, CUZK_LC_DEFAULT);
    part(chk, &p);
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_status(chk, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "constraint 5"));
    part(dir, &p);
    p.known = false;
    part(ref, &p);
    cuzk_groth16_witness_t wd, wr;
    CHECK(cuzk_cs_groth16_witness(dir, &wd, NULL) == CUZK_OK && cuzk_cs_groth16_witness(ref, &wr, NULL) == CUZK_OK);
    fr want;
    fr_add(&want, &wr.a[5], &FR_ONE);
    CHECK(fr_eq(&wd.a[5], &want) && fr_eq(&wd.a[4], &wr.a[4]));
    cuzk_cs_free(chk), cuzk_cs_free(dir), cuzk_cs_free(ref);
}

/* The check backend's verdict is the test backend's, constraint for constraint. */
static void check_backend(void)
{
    for (int r = 0; r < 40; r++) {
        part_params p = random_part();
        if (r % 2 && p.constraints)
            p.broken = (int64_t)test_rand_below(p.constraints);
        cuzk_cs_t *t = fresh(CUZK_CS_TEST, CUZK_LC_DEFAULT), *c = fresh(CUZK_CS_CHECK, CUZK_LC_DEFAULT);
        part(t, &p);
        part(c, &p);
        int64_t ut = -2, uc = -2;
        CHECK(cuzk_cs_test_unsatisfied(t, &ut, NULL) == CUZK_OK);
        CHECK(cuzk_cs_test_unsatisfied(c, &uc, NULL) == CUZK_OK);
        /* a broken constraint's C is off by one: always found */
        CHECK_MSG(ut == p.broken && uc == ut, "broken %lld: test %lld, check %lld", (long long)p.broken, (long long)ut,
                  (long long)uc);
        cuzk_cs_counts_t cc, ct;
        cuzk_cs_counts(c, &cc);
        cuzk_cs_counts(t, &ct);
        CHECK(cc.num_inputs == ct.num_inputs && cc.num_aux == ct.num_aux && cc.num_constraints == ct.num_constraints &&
              !cc.has_density);
        CHECK(cs_test_bytes_eq(cuzk_cs_aux(c), cuzk_cs_aux(t), cc.num_aux * sizeof(fr)));
        cuzk_cs_free(t);
        cuzk_cs_free(c);
    }
    /* the first of two broken constraints; a missing value fails the system like the test backend */
    cuzk_cs_t *c = fresh(CUZK_CS_CHECK, CUZK_LC_HEAP);
    cuzk_var_t x = cuzk_cs_alloc(c, &FR_ONE), y = cuzk_cs_alloc(c, &FR_ZERO);
    for (int k = 0; k < 3; k++) {
        cuzk_lc_t a, b, cc;
        cuzk_lc_init(&a, c), cuzk_lc_init(&b, c), cuzk_lc_init(&cc, c);
        cuzk_lc_add(&a, x), cuzk_lc_add(&b, x), cuzk_lc_add(&cc, k == 0 ? x : y); /* 1·1 = 1, then 1·1 = 0 */
        cuzk_cs_enforce_free(c, &a, &b, &cc);
    }
    int64_t u = -2;
    CHECK(cuzk_cs_test_unsatisfied(c, &u, NULL) == CUZK_OK && u == 1);
    CHECK(cuzk_cs_wants_values(c) && cuzk_cs_wants_lcs(c));
    cuzk_cs_alloc(c, NULL);
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_status(c, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "check backend"));
    CHECK(cuzk_cs_test_unsatisfied(c, &u, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(c);
}

/* A reset system (cuzk_cs_reset) is a fresh one: synthesized again, it equals a new system, whatever it
 * held before (a record taken, a failure, a hash stream). */
static void resets(void)
{
    for (size_t bi = 0; bi < sizeof JOINED / sizeof JOINED[0]; bi++) {
        cuzk_cs_backend b = JOINED[bi];
        for (int r = 0; r < 3; r++) {
            part_params p1 = random_part(), p2 = random_part();
            cuzk_lc_strategy s = (cuzk_lc_strategy)test_rand_below(CUZK_LC_STRATEGY_COUNT);
            cuzk_cs_t *used = fresh(b, s), *clean = fresh(b, s);
            part(used, &p1);
            cuzk_cs_record_t rec;
            if (b == CUZK_CS_RECORD && r == 1) {
                CHECK(cuzk_cs_take_record(used, &rec, NULL) == CUZK_OK);
                cuzk_cs_record_free(&rec);
            }
            if (r == 2)
                cuzk_cs_fail(used, CUZK_ERR_CANCELLED, "stopped");
            cuzk_cs_reset(used);
            CHECK(cuzk_cs_status(used, NULL) == CUZK_OK && cuzk_cs_get_strategy(used) == s);
            part(used, &p2);
            part(clean, &p2);
            char why[256] = "";
            CHECK_MSG(cs_test_same(used, clean, why, sizeof why), "reset, backend %d, case %d: %s", (int)b, r, why);
            cuzk_cs_free(used);
            cuzk_cs_free(clean);
        }
    }
    /* the hash backend begins a new stream after a reset */
    part_params p = random_part();
    cuzk_cs_t *t = fresh(CUZK_CS_TEST, CUZK_LC_DEFAULT), *h = fresh(CUZK_CS_HASH, CUZK_LC_DEFAULT);
    part(t, &p);
    cuzk_cs_counts_t c;
    cuzk_cs_counts(t, &c);
    char want[65] = "", got[65] = "";
    CHECK(cuzk_cs_test_hash(t, want, NULL) == CUZK_OK);
    CHECK(cuzk_cs_hash_begin(h, 9, 9, 9, NULL) == CUZK_OK);
    part(h, &p);
    cuzk_cs_reset(h);
    CHECK(cuzk_cs_hash_begin(h, c.num_inputs, c.num_aux, c.num_constraints, NULL) == CUZK_OK);
    part(h, &p);
    CHECK(cuzk_cs_hash_finish(h, got, NULL) == CUZK_OK && strcmp(want, got) == 0);
    cuzk_cs_free(t);
    cuzk_cs_free(h);
}

static bool never(void *arg) { return arg != NULL; }

static void misuse(void)
{
    cuzk_err_t err = {{0}};
    part_params p = {test_rand64(), 2, 10, 5, 3, 1, -1, false, -1};
    cuzk_cs_t *d = fresh(CUZK_CS_DIRECT, CUZK_LC_ARENA), *w = fresh(CUZK_CS_WITNESS, CUZK_LC_ARENA);
    CHECK(cuzk_cs_get_strategy(d) == CUZK_LC_ARENA);
    part(d, &p);
    part(w, &p);
    cuzk_cs_counts_t before, after;
    cuzk_cs_counts(d, &before);
    /* another backend, itself, the hash backend: refused, nothing changed */
    CHECK(cuzk_cs_extend(d, w, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "backends"));
    CHECK(cuzk_cs_extend(d, d, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_counts(d, &after);
    CHECK(after.num_constraints == before.num_constraints && after.num_aux == before.num_aux);
    cuzk_cs_t *h1 = fresh(CUZK_CS_HASH, CUZK_LC_DEFAULT), *h2 = fresh(CUZK_CS_HASH, CUZK_LC_DEFAULT);
    CHECK(cuzk_cs_extend(h1, h2, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "hash"));
    cuzk_cs_free(h1), cuzk_cs_free(h2);
    /* a failed part fails the system with its message; a failed system appends nothing */
    cuzk_cs_t *bad = fresh(CUZK_CS_DIRECT, CUZK_LC_DEFAULT);
    cuzk_cs_alloc(bad, NULL);
    cuzk_err_t eb = {{0}};
    CHECK(cuzk_cs_status(bad, &eb) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_extend(d, bad, &err) == CUZK_ERR_INVALID_ARG && strcmp(err.msg, eb.msg) == 0);
    CHECK(cuzk_cs_status(d, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_t *ok = fresh(CUZK_CS_DIRECT, CUZK_LC_DEFAULT);
    part(ok, &p);
    CHECK(cuzk_cs_extend(d, ok, &err) == CUZK_ERR_INVALID_ARG && strcmp(err.msg, eb.msg) == 0);
    cuzk_cs_counts(d, &after);
    CHECK(after.num_constraints == before.num_constraints);
    cuzk_cs_free(bad), cuzk_cs_free(ok), cuzk_cs_free(d), cuzk_cs_free(w);
    /* a taken record joins nothing */
    cuzk_cs_t *r1 = fresh(CUZK_CS_RECORD, CUZK_LC_DEFAULT), *r2 = fresh(CUZK_CS_RECORD, CUZK_LC_DEFAULT);
    part(r1, &p), part(r2, &p);
    cuzk_cs_record_t rec;
    CHECK(cuzk_cs_take_record(r2, &rec, NULL) == CUZK_OK);
    CHECK(cuzk_cs_extend(r1, r2, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "record"));
    CHECK(cuzk_cs_extend(r2, r1, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(r1), cuzk_cs_free(r2);
    /* the stop request reads back as set */
    cuzk_cs_t *c = fresh(CUZK_CS_COUNT, CUZK_LC_DEFAULT);
    bool (*fn)(void *) = never;
    void *arg = &fn;
    cuzk_cs_get_stop(c, &fn, &arg);
    CHECK(fn == NULL && arg == NULL);
    cuzk_cs_set_stop(c, never, &p);
    cuzk_cs_get_stop(c, &fn, &arg);
    CHECK(fn == never && arg == &p);
    cuzk_cs_free(c);
    /* C·z omitted: only by the direct backend, only before the first constraint; joined only with its like */
    cuzk_cs_t *x = fresh(CUZK_CS_CHECK, CUZK_LC_DEFAULT), *y = fresh(CUZK_CS_DIRECT, CUZK_LC_DEFAULT),
              *z = fresh(CUZK_CS_DIRECT, CUZK_LC_DEFAULT);
    CHECK(cuzk_cs_omit_c(x, &err) == CUZK_ERR_INVALID_ARG);
    part(y, &p);
    CHECK(cuzk_cs_omit_c(y, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "before"));
    CHECK(cuzk_cs_omit_c(z, NULL) == CUZK_OK);
    part(z, &p);
    CHECK(cuzk_cs_extend(y, z, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "C·z"));
    CHECK(cuzk_cs_extend(z, y, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(x), cuzk_cs_free(y), cuzk_cs_free(z);
    /* an unknown backend number is still refused now that sink is the last one */
    CHECK(cuzk_cs_new(&c, (cuzk_cs_backend)(CUZK_CS_SINK + 1), CUZK_LC_DEFAULT, NULL) == CUZK_ERR_INVALID_ARG);
}

int main(void)
{
    test_init("test_cs_extend");
    joins();
    omitted_and_known();
    check_backend();
    resets();
    misuse();
    return test_finish();
}
