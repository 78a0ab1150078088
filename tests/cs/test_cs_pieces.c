/* Pieces synthesized in place on several threads (cuzk_cs_pieces_begin) against the oracle, the same
 * circuit synthesized one constraint after the other into one system: a random prefix, then pieces of one
 * shape (inputs, aux and constraints interleaved; terms over the prefix's variables, the piece's own and
 * ONE; repeated, cancelling and zero terms; piece boundaries inside and across bitmap words), opened one or
 * several at a time, out of order, on two threads. Every backend that takes pieces (count, witness, direct
 * with and without C·z, check) must give the same system: every array compared (cs_test_compare.h); the
 * check backend finds the same first unsatisfied constraint; LC values given by a gadget are taken. Also:
 * misuse refused (other backends, ranges, a piece using another piece's variable, more or fewer variables
 * than the shape, the system itself used while its pieces are open, pieces never synthesized), the first
 * failure in piece order reported whatever the order of the closes, and the stop request. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "cs/cs_test_compare.h"
#include "cuzk/cs.h"
#include "ff/fr.h"
#include "test_util.h"

typedef struct {
    uint64_t s;
} rng;

static uint64_t next(rng *r) { return test_splitmix64(&r->s); }
static uint64_t below(rng *r, uint64_t n) { return next(r) % n; }
static uint64_t next_of(void *r) { return next(r); }

#define MAXV 2048

/* Variables a piece may use, with their values: ONE, the prefix's, then its own. */
typedef struct {
    cuzk_var_t v[MAXV];
    fr val[MAXV];
    size_t n;
} vars_t;

typedef struct {
    size_t inputs, aux, constraints; /* a piece allocates inputs and aux, and one aux per constraint more */
    unsigned max_terms;
    bool known;          /* enforced with the values given (cuzk_cs_enforce_known_free) */
    int64_t broken;      /* this constraint of every piece whose index is `broken_piece` does not hold */
    size_t broken_piece;
} shape_t;

static void new_var(cuzk_cs_t *cs, vars_t *vs, rng *values, bool input)
{
    fr x;
    test_rand_fr_from(&x, next_of, values);
    vs->v[vs->n] = input ? cuzk_cs_alloc_input(cs, &x) : cuzk_cs_alloc(cs, &x);
    vs->val[vs->n++] = x;
}

static void terms(cuzk_lc_t *lc, const vars_t *vs, rng *r, rng *values, unsigned max, fr *acc)
{
    *acc = FR_ZERO;
    unsigned n = (unsigned)below(r, max + 1);
    for (unsigned k = 0; k < n; k++) {
        size_t i = below(r, vs->n);
        fr c;
        switch (below(r, 6)) {
        case 0: c = FR_ONE; break;
        case 1: fr_neg(&c, &FR_ONE); break;
        case 2: c = FR_ZERO; break;
        default: test_rand_fr_from(&c, next_of, values);
        }
        int reps = below(r, 5) == 0 ? 2 : 1;
        for (int k2 = 0; k2 < reps; k2++) {
            cuzk_lc_add_term(lc, vs->v[i], &c);
            fr t;
            fr_mul(&t, &c, &vs->val[i]);
            fr_add(acc, acc, &t);
        }
    }
}

/* Constraints over vs whose C gets a fresh aux making them hold (or not: `broken`); allocates `inputs` and
 * `aux` more variables interleaved with them. */
static void constraints(cuzk_cs_t *cs, vars_t *vs, rng *r, rng *values, size_t inputs, size_t aux, size_t n,
                        unsigned max_terms, bool known, int64_t broken)
{
    size_t ni = 0, na = 0;
    for (size_t k = 0; k < n; k++) {
        while ((ni < inputs || na < aux) && below(r, 3) == 0) {
            bool in = ni < inputs && (na >= aux || below(r, 2));
            new_var(cs, vs, values, in);
            in ? ni++ : na++;
        }
        cuzk_lc_t a, b, c;
        cuzk_lc_init(&a, cs), cuzk_lc_init(&b, cs), cuzk_lc_init(&c, cs);
        fr va, vb, vc, ab, w;
        terms(&a, vs, r, values, max_terms, &va);
        terms(&b, vs, r, values, max_terms, &vb);
        terms(&c, vs, r, values, max_terms, &vc);
        fr_mul(&ab, &va, &vb);
        fr_sub(&w, &ab, &vc);
        if ((int64_t)k == broken)
            fr_add(&w, &w, &FR_ONE);
        vs->v[vs->n] = cuzk_cs_alloc(cs, &w);
        vs->val[vs->n] = w;
        cuzk_lc_add(&c, vs->v[vs->n++]);
        fr_add(&vc, &vc, &w);
        if (known) {
            fr given[3] = {va, vb, vc};
            cuzk_cs_enforce_known_free(cs, &a, &b, &c, given);
        } else {
            cuzk_cs_enforce_free(cs, &a, &b, &c);
        }
    }
    while (ni < inputs || na < aux) {
        bool in = ni < inputs && (na >= aux || below(r, 2));
        new_var(cs, vs, values, in);
        in ? ni++ : na++;
    }
}

/* The prefix: ONE and `n` constraints with some inputs and aux; *vs gets its variables. */
static void prefix(cuzk_cs_t *cs, vars_t *vs, uint64_t seed, size_t n)
{
    rng r = {seed}, values = {seed ^ 0x1234567812345678ULL};
    vs->n = 0;
    vs->v[vs->n] = cuzk_cs_one();
    vs->val[vs->n++] = FR_ONE;
    constraints(cs, vs, &r, &values, 3, 70, n, 4, false, -1);
}

/* Piece i over the prefix's variables (pre is not changed). */
static void piece(cuzk_cs_t *cs, const vars_t *pre, const shape_t *sh, uint64_t seed, size_t i)
{
    static _Thread_local vars_t vs;
    memcpy(&vs, pre, sizeof vs);
    rng r = {seed * 1000003 + i}, values = {(seed * 1000003 + i) ^ 0xa5a5a5a5a5a5a5a5ULL};
    constraints(cs, &vs, &r, &values, sh->inputs, sh->aux, sh->constraints, sh->max_terms, sh->known,
                i == sh->broken_piece ? sh->broken : -1);
}

static cuzk_cs_t *fresh(cuzk_cs_backend b, bool omit_c)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, b, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    if (omit_c)
        CHECK(cuzk_cs_omit_c(cs, NULL) == CUZK_OK);
    return cs;
}

/* ---- pieces on two threads ---- */

typedef struct {
    cuzk_cs_t *cs;
    const vars_t *pre;
    const shape_t *sh;
    uint64_t seed;
    size_t count, group; /* pieces per open */
    int tid;
} run_t;

/* Thread 0 takes the even groups from the first, thread 1 the odd ones from the last. */
static void *run_thread(void *arg)
{
    run_t *t = arg;
    size_t groups = (t->count + t->group - 1) / t->group;
    for (size_t j = 0; j < groups; j++) {
        size_t g = t->tid == 0 ? j : groups - 1 - j;
        if ((int)(g % 2) != t->tid)
            continue;
        size_t first = g * t->group, n = first + t->group <= t->count ? t->group : t->count - first;
        cuzk_cs_t *pc = NULL;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_cs_piece_open(&pc, t->cs, first, n, &err) == CUZK_OK, "%s", err.msg);
        if (!pc)
            continue;
        for (size_t i = first; i < first + n; i++)
            piece(pc, t->pre, t->sh, t->seed, i);
        cuzk_cs_piece_close(t->cs, pc);
    }
    return NULL;
}

static cuzk_status in_pieces(cuzk_cs_t *cs, const vars_t *pre, const shape_t *sh, uint64_t seed, size_t count,
                             size_t group)
{
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_cs_pieces_begin(cs, count, sh->inputs, sh->aux + sh->constraints, sh->constraints, &err) ==
                  CUZK_OK,
              "%s", err.msg);
    run_t t[2];
    pthread_t th;
    for (int i = 0; i < 2; i++)
        t[i] = (run_t){cs, pre, sh, seed, count, group, i};
    CHECK(pthread_create(&th, NULL, run_thread, &t[1]) == 0);
    run_thread(&t[0]);
    pthread_join(th, NULL);
    return cuzk_cs_pieces_end(cs, NULL);
}

static void same_as_sequential(const char *name, cuzk_cs_backend b, bool omit_c, const shape_t *sh, uint64_t seed,
                               size_t prefix_n, size_t count, size_t group)
{
    vars_t *pre = malloc(sizeof *pre);
    cuzk_cs_t *seq = fresh(b, omit_c), *par = fresh(b, omit_c);
    prefix(seq, pre, seed, prefix_n);
    for (size_t i = 0; i < count; i++)
        piece(seq, pre, sh, seed, i);
    prefix(par, pre, seed, prefix_n);
    in_pieces(par, pre, sh, seed, count, group);
    char why[256] = "";
    CHECK_MSG(cs_test_same(seq, par, why, sizeof why), "%s (backend %d%s, %zu pieces by %zu): %s", name, (int)b,
              omit_c ? ", C·z omitted" : "", count, group, why);
    if (b == CUZK_CS_CHECK) {
        int64_t us = -2, up = -2;
        CHECK(cuzk_cs_test_unsatisfied(seq, &us, NULL) == CUZK_OK && cuzk_cs_test_unsatisfied(par, &up, NULL) == CUZK_OK);
        CHECK_MSG(us == up && (sh->broken < 0) == (us < 0), "%s: first unsatisfied %lld / %lld", name, (long long)us,
                  (long long)up);
    }
    cuzk_cs_free(seq);
    cuzk_cs_free(par);
    free(pre);
}

static const struct {
    cuzk_cs_backend b;
    bool omit_c;
} BACKENDS[] = {{CUZK_CS_COUNT, false}, {CUZK_CS_WITNESS, false}, {CUZK_CS_DIRECT, false},
                {CUZK_CS_DIRECT, true}, {CUZK_CS_CHECK, false}};

static void equal_systems(void)
{
    rng r = {77};
    for (int round = 0; round < 12; round++) {
        shape_t sh = {.inputs = below(&r, 3) == 0 ? 0 : below(&r, 4),
                      .aux = below(&r, 150), /* with one per constraint: boundaries anywhere in a word */
                      .constraints = 1 + below(&r, 40),
                      .max_terms = 1 + (unsigned)below(&r, 6),
                      .known = below(&r, 3) == 0,
                      .broken = -1};
        size_t count = 1 + below(&r, 9), group = 1 + below(&r, 3), prefix_n = 1 + below(&r, 60);
        if (round % 4 == 3) { /* a piece that does not hold */
            sh.broken_piece = below(&r, count);
            sh.broken = (int64_t)below(&r, sh.constraints);
        }
        for (size_t k = 0; k < sizeof BACKENDS / sizeof BACKENDS[0]; k++) {
            if (sh.broken >= 0 && BACKENDS[k].b == CUZK_CS_DIRECT && BACKENDS[k].omit_c)
                continue; /* the same arrays either way; nothing more to see */
            same_as_sequential("random pieces", BACKENDS[k].b, BACKENDS[k].omit_c, &sh, 1000 + (uint64_t)round,
                               prefix_n, count, group);
        }
    }
    /* many one-word pieces: every closing word shared with a neighbour */
    shape_t small = {.inputs = 1, .aux = 6, .constraints = 3, .max_terms = 3, .broken = -1};
    for (size_t k = 0; k < sizeof BACKENDS / sizeof BACKENDS[0]; k++)
        same_as_sequential("small pieces", BACKENDS[k].b, BACKENDS[k].omit_c, &small, 9, 5, 40, 1);
}

/* ---- misuse and failures ---- */

static void expect_failure(cuzk_cs_t *cs, cuzk_status want, const char *part)
{
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_cs_status(cs, &err);
    CHECK_MSG(st == want && strstr(err.msg, part), "status %d (want %d): \"%s\" should name \"%s\"", (int)st,
              (int)want, err.msg, part);
}

/* A system with a prefix of one aux and one constraint, pieces begun: 4 of (0 inputs, 2 aux, 1 constraint). */
static cuzk_cs_t *begun(cuzk_cs_backend b, cuzk_var_t *x)
{
    cuzk_cs_t *cs = fresh(b, false);
    *x = cuzk_cs_alloc(cs, &FR_ONE);
    cuzk_lc_t l[3];
    for (int k = 0; k < 3; k++)
        cuzk_lc_init(&l[k], cs);
    cuzk_lc_add(&l[0], *x), cuzk_lc_add(&l[1], *x), cuzk_lc_add(&l[2], *x);
    cuzk_cs_enforce_free(cs, &l[0], &l[1], &l[2]);
    CHECK(cuzk_cs_pieces_begin(cs, 4, 0, 2, 1, NULL) == CUZK_OK);
    return cs;
}

/* One well-formed piece: y = x·x, z. */
static void good_piece(cuzk_cs_t *pc, cuzk_var_t x)
{
    cuzk_var_t y = cuzk_cs_alloc(pc, &FR_ONE);
    (void)cuzk_cs_alloc(pc, &FR_ONE);
    cuzk_lc_t l[3];
    for (int k = 0; k < 3; k++)
        cuzk_lc_init(&l[k], pc);
    cuzk_lc_add(&l[0], x), cuzk_lc_add(&l[1], x), cuzk_lc_add(&l[2], y);
    cuzk_cs_enforce_free(pc, &l[0], &l[1], &l[2]);
}

static cuzk_cs_t *open1(cuzk_cs_t *cs, size_t i)
{
    cuzk_cs_t *pc = NULL;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_cs_piece_open(&pc, cs, i, 1, &err) == CUZK_OK, "%s", err.msg);
    return pc;
}

static bool always(void *arg)
{
    (*(int *)arg)++;
    return true;
}

static void misuse(void)
{
    cuzk_cs_t *cs = NULL, *pc = NULL;
    cuzk_var_t x;
    /* backends that build in order */
    const cuzk_cs_backend ordered[] = {CUZK_CS_RECORD, CUZK_CS_TEST, CUZK_CS_HASH};
    for (size_t k = 0; k < 3; k++) {
        cs = fresh(ordered[k], false);
        CHECK(!cuzk_cs_supports_pieces(cs));
        CHECK(cuzk_cs_pieces_begin(cs, 2, 0, 1, 1, NULL) == CUZK_ERR_INVALID_ARG);
        cuzk_cs_free(cs);
    }
    /* ranges, twice, end without begin, sizes that overflow */
    cs = begun(CUZK_CS_DIRECT, &x);
    CHECK(cuzk_cs_pieces_begin(cs, 2, 0, 1, 1, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_piece_open(&pc, cs, 3, 2, NULL) == CUZK_ERR_INVALID_ARG && !pc);
    CHECK(cuzk_cs_piece_open(&pc, cs, 4, 1, NULL) == CUZK_ERR_INVALID_ARG && !pc);
    CHECK(cuzk_cs_piece_open(&pc, cs, 0, 0, NULL) == CUZK_ERR_INVALID_ARG && !pc);
    pc = open1(cs, 1);
    cuzk_cs_t *again = NULL;
    CHECK(cuzk_cs_piece_open(&again, cs, 0, 2, NULL) == CUZK_ERR_INVALID_ARG && !again);
    CHECK(!cuzk_cs_supports_pieces(pc));
    CHECK(cuzk_cs_pieces_begin(pc, 2, 0, 1, 1, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_t *other = fresh(CUZK_CS_DIRECT, false);
    CHECK(cuzk_cs_extend(other, pc, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_extend(cs, other, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(other);
    cuzk_groth16_witness_t gw;
    CHECK(cuzk_cs_groth16_witness(pc, &gw, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_groth16_witness(cs, &gw, NULL) == CUZK_ERR_INVALID_ARG);
    good_piece(pc, x);
    CHECK(cuzk_cs_piece_close(cs, pc) == CUZK_OK);
    CHECK(cuzk_cs_piece_open(&pc, cs, 1, 1, NULL) == CUZK_ERR_INVALID_ARG && !pc); /* closed already */
    for (size_t i = 0; i < 4; i++)
        if (i != 1) {
            pc = open1(cs, i);
            good_piece(pc, x);
            CHECK(cuzk_cs_piece_close(cs, pc) == CUZK_OK);
        }
    CHECK(cuzk_cs_pieces_end(cs, NULL) == CUZK_OK);
    CHECK(cuzk_cs_pieces_end(cs, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_counts_t counts;
    cuzk_cs_counts(cs, &counts);
    CHECK(cuzk_cs_status(cs, NULL) == CUZK_OK && counts.num_constraints == 5 && counts.num_aux == 9);
    cuzk_cs_free(cs);
    cs = fresh(CUZK_CS_WITNESS, false);
    CHECK(cuzk_cs_pieces_begin(cs, 0, 0, 1, 1, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_pieces_begin(cs, SIZE_MAX / 2, 0, 4, 1, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_pieces_end(cs, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(cs);

    /* another piece's variable: piece 2 uses piece 0's first aux (aux 1) */
    cs = begun(CUZK_CS_DIRECT, &x);
    cuzk_cs_t *p0 = open1(cs, 0), *p2 = open1(cs, 2);
    good_piece(p0, x);
    cuzk_var_t y = cuzk_cs_alloc(p2, &FR_ONE);
    (void)cuzk_cs_alloc(p2, &FR_ONE);
    cuzk_lc_t l[3];
    for (int k = 0; k < 3; k++)
        cuzk_lc_init(&l[k], p2);
    cuzk_lc_add(&l[0], cuzk_var_aux(1)), cuzk_lc_add(&l[1], x), cuzk_lc_add(&l[2], y);
    cuzk_cs_enforce_free(p2, &l[0], &l[1], &l[2]);
    expect_failure(p2, CUZK_ERR_INVALID_ARG, "another piece");
    CHECK(cuzk_cs_piece_close(cs, p2) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_piece_close(cs, p0) == CUZK_OK);
    /* the system itself while its pieces are open, and reset */
    (void)cuzk_cs_alloc(cs, &FR_ONE);
    cuzk_cs_reset(cs);
    /* piece 1: more aux than its shape (fails at once); piece 3: fewer (fails at close) */
    cuzk_cs_t *p1 = open1(cs, 1), *p3 = open1(cs, 3);
    good_piece(p1, x);
    (void)cuzk_cs_alloc(p1, &FR_ONE);
    expect_failure(p1, CUZK_ERR_INVALID_ARG, "more aux");
    (void)cuzk_cs_alloc(p3, &FR_ONE);
    CHECK(cuzk_cs_piece_close(cs, p3) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_piece_close(cs, p1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_pieces_end(cs, NULL) != CUZK_OK);
    /* the system had failed first (its own allocation): that message stays */
    expect_failure(cs, CUZK_ERR_INVALID_ARG, "while the system's pieces are open");
    cuzk_cs_free(cs);

    /* the first failure in piece order, whatever the order of the closes */
    cs = begun(CUZK_CS_CHECK, &x);
    p3 = open1(cs, 3);
    p1 = open1(cs, 1);
    (void)cuzk_cs_alloc(p3, &FR_ONE);
    CHECK(cuzk_cs_piece_close(cs, p3) == CUZK_ERR_INVALID_ARG); /* piece 3: fewer */
    good_piece(p1, x);
    good_piece(p1, x); /* piece 1: more */
    CHECK(cuzk_cs_piece_close(cs, p1) == CUZK_ERR_INVALID_ARG);
    p0 = open1(cs, 0);
    good_piece(p0, x);
    CHECK(cuzk_cs_piece_close(cs, p0) == CUZK_OK);
    CHECK(cuzk_cs_pieces_end(cs, NULL) == CUZK_ERR_INVALID_ARG); /* piece 2 never opened comes after 1 */
    expect_failure(cs, CUZK_ERR_INVALID_ARG, "more aux");
    cuzk_cs_free(cs);

    /* a piece never synthesized, one left open */
    cs = begun(CUZK_CS_COUNT, &x);
    p1 = open1(cs, 1);
    p0 = open1(cs, 0);
    good_piece(p0, x);
    CHECK(cuzk_cs_piece_close(cs, p0) == CUZK_OK);
    CHECK(cuzk_cs_pieces_end(cs, NULL) == CUZK_ERR_INVALID_ARG);
    expect_failure(cs, CUZK_ERR_INVALID_ARG, "piece 1 of 4 was not closed");
    cuzk_cs_free(p1);
    cuzk_cs_free(cs);

    /* the stop request, through the pieces */
    int asked = 0;
    cs = fresh(CUZK_CS_WITNESS, false);
    x = cuzk_cs_alloc(cs, &FR_ONE);
    cuzk_cs_set_stop(cs, always, &asked);
    CHECK(cuzk_cs_pieces_begin(cs, 2, 0, 2, 1, NULL) == CUZK_OK);
    p0 = open1(cs, 0);
    CHECK(cuzk_cs_poll_stop(p0) && asked == 1);
    CHECK(cuzk_cs_piece_close(cs, p0) == CUZK_ERR_CANCELLED);
    CHECK(cuzk_cs_pieces_end(cs, NULL) == CUZK_ERR_CANCELLED);
    cuzk_cs_free(cs);
}

int main(void)
{
    test_init("test_cs_pieces");
    equal_systems();
    misuse();
    return test_finish();
}
