/* The legacy Poseidon circuit: neptune's and rust-fil-proofs' constraint counts (311 / 377 / 505 /
 * 598 / 761 / 1009 / 1385) and neptune's closed form; output = the out-of-circuit textbook hash on
 * random inputs; satisfied, and unsatisfied once a variable is tampered with; the same shape on the
 * count, witness, record, direct and test backends (and a·b = c through record + witness, equal to the
 * direct backend's, which takes the gadget's values); the check backend finds each given value right; the cached
 * template against the uncached walk and against a dense re-derivation of the circuit written here;
 * recorded TestConstraintSystem hashes as regression values; misuse. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "ff/fr.h"
#include "filecoin/hash/poseidon.h"
#include "gadgets/poseidon.h"
#include "gadgets/poseidon_internal.h"
#include "test_util.h"

/* neptune circuit.rs test_poseidon_hash (2, 4, 8, 16, 24, 36) and rust-fil-proofs
 * storage-proofs-porep stacked/circuit/hash.rs (2 and 11); the hashes are our own recorded
 * TestConstraintSystem values (regression only: no Rust run published one). */
static const struct {
    unsigned arity, constraints;
    const char *hash;
} cases[] = {
    {2, 311, "658f013f99360e164ad8e7f96290944601cc064f93c153d9ea7ac1275927175f"},
    {4, 377, "2360602a7c4555d454b46891236273f4ae308090bc916fdcef1fb81d00ebbe70"},
    {8, 505, "ab50aeda63344f7125999ef5c4af7777380b9015ec82ad48bac2213e9353b163"},
    {11, 598, "e94a28106cbb9a718e525f0f2593ce3b138350047854ebcc3c83472ed482a6f6"},
    {16, 761, "8a505dae4403e57b9e890c342d06175b1277033ebb1977417179b9170815d9f7"},
    {24, 1009, "d2442574550d759d9931eb827be35995fabe934c7105e21f4c2af40ca8003f1f"},
    {36, 1385, "82a32bd5b41ed6413f3b858da811eb7f9a1519b160c082be307a21ff64364465"},
};

typedef struct {
    cuzk_cs_t *cs;
    cuzk_num_t in[CUZK_POSEIDON_MAX_ARITY], out;
    cuzk_status st;
} run_t;

/* preimage allocated as aux (or inputs), then the hash; direct: the uncached reference path */
static run_t synth(cuzk_cs_backend b, cuzk_lc_strategy s, const cuzk_poseidon_constants_t *c, const fr *tag,
                   const fr *vals, bool public_in, bool direct)
{
    run_t r = {0};
    CHECK(cuzk_cs_new(&r.cs, b, s, NULL) == CUZK_OK);
    bool want = cuzk_cs_wants_values(r.cs);
    for (unsigned i = 0; i < c->arity; i++) {
        const fr *v = want && vals ? &vals[i] : NULL;
        r.in[i].var = public_in ? cuzk_cs_alloc_input(r.cs, v) : cuzk_cs_alloc(r.cs, v);
        r.in[i].has_value = v != NULL;
        if (v)
            r.in[i].value = *v;
    }
    r.st = direct ? pz_circuit_direct(r.cs, &r.out, c, tag, r.in) : cuzk_poseidon_circuit_tagged(r.cs, &r.out, c, tag, r.in);
    return r;
}

static bool same_counts(const cuzk_cs_counts_t *x, const cuzk_cs_counts_t *y, bool density)
{
    return x->num_inputs == y->num_inputs && x->num_aux == y->num_aux && x->num_constraints == y->num_constraints &&
           (!density || (x->a_aux_density == y->a_aux_density && x->b_input_density == y->b_input_density &&
                         x->b_aux_density == y->b_aux_density));
}

static void check_arity(size_t ci, bool full)
{
    unsigned a = cases[ci].arity, n = cases[ci].constraints;
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(a);
    CHECK(c != NULL);
    if (!c)
        return;
    unsigned t = a + 1, rf = c->full_rounds, rp = c->partial_rounds;
    CHECK_MSG(3 * (t * rf + rp - 1) + (t * rf + rp - a) == n, "arity %u: closed form differs from %u", a, n);

    fr vals[CUZK_POSEIDON_MAX_ARITY], want;
    for (unsigned i = 0; i < a; i++)
        test_rand_fr(&vals[i]);
    cuzk_poseidon_hash_textbook(&want, c, &c->merkle_tag, vals);

    run_t tr = synth(CUZK_CS_TEST, CUZK_LC_DEFAULT, c, &c->merkle_tag, vals, false, false);
    CHECK(tr.st == CUZK_OK);
    cuzk_cs_counts_t ct;
    cuzk_cs_counts(tr.cs, &ct);
    CHECK_MSG(ct.num_constraints == n && ct.num_aux == a + n && ct.num_inputs == 1,
              "arity %u: %zu constraints, %zu aux, %zu inputs; expected %u, %u, 1", a, ct.num_constraints,
              ct.num_aux, ct.num_inputs, n, a + n);
    CHECK_MSG(tr.out.has_value && fr_eq(&tr.out.value, &want), "arity %u: circuit output differs from the hash", a);
    fr got;
    CHECK(cuzk_cs_get_value(tr.cs, tr.out.var, &got) && fr_eq(&got, &want));
    CHECK(!cuzk_var_is_input(tr.out.var) && cuzk_var_index(tr.out.var) == a + n - 1);
    int64_t first = -2;
    CHECK(cuzk_cs_test_unsatisfied(tr.cs, &first, NULL) == CUZK_OK && first == -1);

    /* tampering with any one variable of the hash, or with the preimage, is caught */
    for (int rep = 0; rep < 4; rep++) {
        size_t j = rep == 0 ? 0 : rep == 1 ? a + n - 1 : a + test_rand_below(n);
        cuzk_var_t v = cuzk_var_aux(j);
        fr old, bad;
        CHECK(cuzk_cs_get_value(tr.cs, v, &old));
        fr_add(&bad, &old, &FR_ONE);
        CHECK(cuzk_cs_set_value(tr.cs, v, &bad, NULL) == CUZK_OK);
        CHECK(cuzk_cs_test_unsatisfied(tr.cs, &first, NULL) == CUZK_OK);
        CHECK_MSG(first >= 0, "arity %u: aux %zu tampered, still satisfied", a, j);
        CHECK(cuzk_cs_set_value(tr.cs, v, &old, NULL) == CUZK_OK);
    }
    CHECK(cuzk_cs_test_unsatisfied(tr.cs, &first, NULL) == CUZK_OK && first == -1);

    char hash[65], h2[65];
    CHECK(cuzk_cs_test_hash(tr.cs, hash, NULL) == CUZK_OK);
    if (cases[ci].hash)
        CHECK_MSG(strcmp(hash, cases[ci].hash) == 0, "arity %u: test hash %s, recorded %s", a, hash, cases[ci].hash);
    else
        printf("arity %u: test hash %s\n", a, hash);

    /* the uncached walk gives the same system and assignment */
    run_t dr = synth(CUZK_CS_TEST, CUZK_LC_HEAP, c, &c->merkle_tag, vals, false, true);
    CHECK(dr.st == CUZK_OK && cuzk_cs_test_hash(dr.cs, h2, NULL) == CUZK_OK);
    CHECK_MSG(strcmp(hash, h2) == 0, "arity %u: template and direct walk differ", a);
    CHECK(memcmp(cuzk_cs_aux(dr.cs), cuzk_cs_aux(tr.cs), sizeof(fr) * (a + n)) == 0);
    cuzk_cs_free(dr.cs);

    /* the same shape on every backend; the witness the same assignment */
    cuzk_cs_backend bs[] = {CUZK_CS_COUNT, CUZK_CS_WITNESS, CUZK_CS_RECORD, CUZK_CS_DIRECT};
    run_t rr[4];
    for (int k = 0; k < 4; k++) {
        rr[k] = synth(bs[k], CUZK_LC_DEFAULT, c, &c->merkle_tag, vals, false, false);
        CHECK(rr[k].st == CUZK_OK);
        cuzk_cs_counts_t cb;
        cuzk_cs_counts(rr[k].cs, &cb);
        CHECK_MSG(same_counts(&cb, &ct, bs[k] != CUZK_CS_WITNESS), "arity %u backend %d: shape differs", a, (int)bs[k]);
        bool vals_wanted = cuzk_cs_wants_values(rr[k].cs);
        CHECK(rr[k].out.has_value == vals_wanted && rr[k].out.var.id == tr.out.var.id);
        if (vals_wanted) {
            CHECK(fr_eq(&rr[k].out.value, &want));
            CHECK(memcmp(cuzk_cs_aux(rr[k].cs), cuzk_cs_aux(tr.cs), sizeof(fr) * (a + n)) == 0);
        }
    }
    /* the check backend evaluates every LC and compares the values the gadget gives with them
     * (cuzk_cs_enforce_known_free): none differs, and the system is satisfied */
    run_t kr = synth(CUZK_CS_CHECK, CUZK_LC_DEFAULT, c, &c->merkle_tag, vals, false, false);
    CHECK_MSG(kr.st == CUZK_OK && cuzk_cs_status(kr.cs, NULL) == CUZK_OK, "arity %u: a given value differs", a);
    CHECK(cuzk_cs_test_unsatisfied(kr.cs, &first, NULL) == CUZK_OK && first == -1);
    cuzk_cs_free(kr.cs);
    if (full) {
        /* record + witness: a·b = c on every row, and equal to the direct backend's a, b, c (which takes
         * the gadget's values instead of evaluating the LCs) */
        cuzk_cs_record_t rec;
        cuzk_groth16_witness_t wr, wd;
        cuzk_cs_abc_t abc;
        CHECK(cuzk_cs_take_record(rr[2].cs, &rec, NULL) == CUZK_OK);
        CHECK(cuzk_cs_record_witness(&wr, &abc, &rec, rr[1].cs, 1, NULL) == CUZK_OK);
        CHECK(cuzk_cs_groth16_witness(rr[3].cs, &wd, NULL) == CUZK_OK);
        bool ok = wr.num_constraints == n && wd.num_constraints == n;
        for (size_t k = 0; ok && k < n; k++) {
            fr ab;
            fr_mul(&ab, &wr.a[k], &wr.b[k]);
            ok = fr_eq(&ab, &wr.c[k]) && fr_eq(&wr.a[k], &wd.a[k]) && fr_eq(&wr.b[k], &wd.b[k]) &&
                 fr_eq(&wr.c[k], &wd.c[k]);
        }
        CHECK_MSG(ok, "arity %u: record + witness a, b, c wrong or differ from direct", a);
        cuzk_cs_abc_free(&abc);
        cuzk_cs_record_free(&rec);

        /* every LC strategy gives the same system */
        for (int s = 0; s < CUZK_LC_STRATEGY_COUNT; s++) {
            run_t sr = synth(CUZK_CS_TEST, (cuzk_lc_strategy)s, c, &c->merkle_tag, vals, false, false);
            CHECK(sr.st == CUZK_OK && cuzk_cs_test_hash(sr.cs, h2, NULL) == CUZK_OK && strcmp(hash, h2) == 0);
            cuzk_cs_free(sr.cs);
        }
        /* a public preimage: same constraints on other variables, still satisfied, same output */
        run_t pr = synth(CUZK_CS_TEST, CUZK_LC_DEFAULT, c, &c->merkle_tag, vals, true, false);
        CHECK(pr.st == CUZK_OK && pr.out.has_value && fr_eq(&pr.out.value, &want));
        CHECK(cuzk_cs_test_unsatisfied(pr.cs, &first, NULL) == CUZK_OK && first == -1);
        cuzk_cs_counts(pr.cs, &ct);
        CHECK(ct.num_inputs == 1 + a && ct.num_aux == n);
        cuzk_cs_free(pr.cs);
    }
    for (int k = 0; k < 4; k++)
        cuzk_cs_free(rr[k].cs);
    cuzk_cs_free(tr.cs);
}

/* ---- an independent derivation of the legacy circuit: dense coefficient vectors over every local
 * variable, no merging logic, compared constraint by constraint with the cached template ---------- */

typedef struct {
    const cuzk_poseidon_constants_t *c;
    const pz_template *tp;
    size_t nv;        /* local variables */
    uint32_t next, k; /* next allocation, next constraint */
    fr *scratch;      /* 3 dense vectors for the template's sides */
    bool ok;
} oracle;

typedef struct {
    bool alloc;
    fr *v; /* dense vector (alloc: the unit vector of its variable) */
} oelt;

static void unit(const oracle *o, fr *v, uint32_t var, const fr *coeff)
{
    memset(v, 0, sizeof(fr) * o->nv);
    v[var] = *coeff;
}

static void o_enforce(oracle *o, const fr *a, const fr *b, const fr *c)
{
    const fr *side[3] = {a, b, c};
    if (o->k >= o->tp->n) {
        o->ok = false;
        return;
    }
    for (int s = 0; s < 3; s++) {
        fr *d = o->scratch + (size_t)s * o->nv;
        memset(d, 0, sizeof(fr) * o->nv);
        for (uint32_t i = o->tp->start[3 * o->k + s]; i < o->tp->start[3 * o->k + s + 1]; i++)
            d[o->tp->var[i]] = o->tp->coeff[i];
        for (size_t j = 0; j < o->nv; j++)
            if (!fr_eq(&d[j], &side[s][j]) && o->ok) {
                o->ok = false;
                fprintf(stderr, "constraint %u side %d variable %zu differs\n", o->k, s, j);
            }
    }
    o->k++;
}

static uint32_t o_alloc(oracle *o) { return o->next++; }

static void o_ensure(oracle *o, oelt *e, fr *tmp3)
{
    if (e->alloc)
        return;
    uint32_t v = o_alloc(o);
    fr *one = tmp3, *vv = tmp3 + o->nv;
    unit(o, one, 0, &FR_ONE);
    unit(o, vv, v, &FR_ONE);
    o_enforce(o, e->v, one, vv);
    unit(o, e->v, v, &FR_ONE);
    e->alloc = true;
}

/* x → x² (pre: (x + pre)²), then ⁴, then ·(x + pre) + post */
static void o_sbox(oracle *o, oelt *e, const fr *pre, const fr *post, fr *tmp3)
{
    o_ensure(o, e, tmp3);
    uint32_t x = 0;
    for (size_t j = 0; j < o->nv; j++)
        if (!fr_is_zero(&e->v[j]))
            x = (uint32_t)j;
    fr *a = tmp3, *b = tmp3 + o->nv, *c = tmp3 + 2 * o->nv, neg;
    uint32_t l2 = o_alloc(o);
    unit(o, a, x, &FR_ONE);
    if (pre)
        a[0] = *pre;
    unit(o, c, l2, &FR_ONE);
    o_enforce(o, a, a, c);
    uint32_t l4 = o_alloc(o);
    unit(o, a, l2, &FR_ONE);
    unit(o, c, l4, &FR_ONE);
    o_enforce(o, a, a, c);
    uint32_t l5 = o_alloc(o);
    unit(o, a, x, &FR_ONE);
    if (pre)
        a[0] = *pre;
    unit(o, b, l4, &FR_ONE);
    unit(o, c, l5, &FR_ONE);
    if (post)
        fr_neg(&neg, post), c[0] = neg;
    o_enforce(o, a, b, c);
    unit(o, e->v, l5, &FR_ONE);
}

/* result[j] = Σ_i m(i, j)·e[i] with m given by a callback-free table: full[i·t + j] */
static void o_mix(oracle *o, oelt *e, const fr *m, unsigned t, fr *buf)
{
    for (unsigned j = 0; j < t; j++) {
        fr *r = buf + (size_t)j * o->nv, x;
        memset(r, 0, sizeof(fr) * o->nv);
        for (unsigned i = 0; i < t; i++)
            for (size_t q = 0; q < o->nv; q++)
                if (!fr_is_zero(&e[i].v[q]))
                    fr_mul(&x, &m[i * t + j], &e[i].v[q]), fr_add(&r[q], &r[q], &x);
    }
    for (unsigned j = 0; j < t; j++)
        memcpy(e[j].v, buf + (size_t)j * o->nv, sizeof(fr) * o->nv), e[j].alloc = false;
}

static void oracle_check(unsigned arity)
{
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(arity);
    const pz_template *tp = c ? pz_template_get(c, &c->merkle_tag) : NULL;
    CHECK(tp != NULL);
    if (!tp)
        return;
    unsigned t = c->width, h = c->half_full_rounds, p = c->partial_rounds;
    oracle o = {.c = c, .tp = tp, .nv = 1 + arity + tp->n, .next = t, .ok = true};
    fr *mem = calloc((size_t)(2 * t + 6) * o.nv + (size_t)t * t, sizeof(fr));
    CHECK(mem != NULL);
    if (!mem)
        return;
    oelt e[CUZK_POSEIDON_MAX_WIDTH];
    for (unsigned i = 0; i < t; i++)
        e[i].v = mem + (size_t)i * o.nv;
    fr *buf = mem + (size_t)t * o.nv, *tmp3 = buf + (size_t)t * o.nv, *sparse = tmp3 + 3 * o.nv;
    o.scratch = sparse + (size_t)t * t;
    const fr *k = c->compressed_round_constants;

    /* tag's first S-box as a constant, the preimage S-boxes with the pre-round key folded in */
    fr tag5 = c->merkle_tag, x2;
    fr_add(&tag5, &tag5, &k[0]);
    fr_sqr(&x2, &tag5), fr_sqr(&x2, &x2), fr_mul(&tag5, &tag5, &x2), fr_add(&tag5, &tag5, &k[t]);
    unit(&o, e[0].v, 0, &tag5), e[0].alloc = false;
    for (unsigned i = 1; i < t; i++) {
        unit(&o, e[i].v, i, &FR_ONE), e[i].alloc = true;
        o_sbox(&o, &e[i], &k[i], &k[t + i], tmp3);
    }
    k += 2 * t;
    unsigned round = 0;
    for (unsigned r = 0; r < 2 * h + p; r++, round++) {
        if (r > 0) {
            bool partial = r >= h && r < h + p, last = r == 2 * h + p - 1;
            for (unsigned i = 0; i < (partial ? 1 : t); i++)
                o_sbox(&o, &e[i], NULL, last ? NULL : &k[i], tmp3);
            k += last ? 0 : partial ? 1 : t;
        }
        const fr *m = c->mds;
        if (round == h - 1) {
            m = c->pre_sparse;
        } else if (round >= h && round < h + p) {
            /* the sparse matrix as a dense one: column 0 = w_hat, row 0 = (w_hat[0], v_rest), identity */
            const fr *wh = &c->sparse_w_hat[(round - h) * t], *vr = &c->sparse_v_rest[(round - h) * (t - 1)];
            for (unsigned i = 0; i < t; i++)
                for (unsigned j = 0; j < t; j++)
                    sparse[i * t + j] = j == 0 ? wh[i] : i == 0 ? vr[j - 1] : i == j ? FR_ONE : FR_ZERO;
            m = sparse;
        }
        o_mix(&o, e, m, t, buf);
    }
    o_ensure(&o, &e[1], tmp3);
    CHECK_MSG(o.ok && o.k == tp->n && o.next == o.nv && tp->out_local == o.nv - 1,
              "arity %u: the template differs from the dense derivation (%u of %u constraints)", arity, o.k, tp->n);
    free(mem);
}

/* ---- other tags, misuse, concurrency ---------------------------------------------------------- */

static void check_custom_tag(void)
{
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(2);
    fr tag, vals[2], want;
    CHECK(cuzk_poseidon_tag_custom(&tag, 1, NULL) == CUZK_OK);
    test_rand_fr(&vals[0]), test_rand_fr(&vals[1]);
    cuzk_poseidon_hash_textbook(&want, c, &tag, vals);
    run_t r = synth(CUZK_CS_TEST, CUZK_LC_DEFAULT, c, &tag, vals, false, false);
    run_t m = synth(CUZK_CS_TEST, CUZK_LC_DEFAULT, c, &c->merkle_tag, vals, false, false);
    CHECK(r.st == CUZK_OK && r.out.has_value && fr_eq(&r.out.value, &want));
    int64_t first;
    CHECK(cuzk_cs_test_unsatisfied(r.cs, &first, NULL) == CUZK_OK && first == -1);
    cuzk_cs_counts_t cr;
    cuzk_cs_counts(r.cs, &cr);
    CHECK(cr.num_constraints == 311);
    char h1[65], h2[65];
    CHECK(cuzk_cs_test_hash(r.cs, h1, NULL) == CUZK_OK && cuzk_cs_test_hash(m.cs, h2, NULL) == CUZK_OK);
    CHECK_MSG(strcmp(h1, h2) != 0, "Custom(1) and MerkleTree circuits hash the same"); /* the tag is in the LCs */
    /* our own recorded value, as above */
    CHECK_MSG(strcmp(h1, "9675551c881122d99caf9a20a4bf87878e1863c432265a33e98e1c1a74e246a8") == 0,
              "arity 2, Custom(1): test hash %s", h1);
    cuzk_cs_free(r.cs), cuzk_cs_free(m.cs);
}

static void check_misuse(void)
{
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(2);
    fr vals[2] = {FR_ONE, FR_ONE};
    /* a preimage without value where the backend wants values: the system fails, no value out */
    cuzk_cs_t *cs;
    CHECK(cuzk_cs_new(&cs, CUZK_CS_TEST, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    cuzk_num_t in[2] = {{cuzk_cs_alloc(cs, &vals[0]), true, vals[0]}, {cuzk_cs_alloc(cs, &vals[1]), false, FR_ZERO}}, out;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_poseidon_circuit(cs, &out, 2, in) != CUZK_OK && !out.has_value);
    CHECK(cuzk_cs_status(cs, &err) != CUZK_OK && err.msg[0]);
    cuzk_cs_free(cs);
    /* an unsupported arity */
    CHECK(cuzk_cs_new(&cs, CUZK_CS_COUNT, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    CHECK(cuzk_poseidon_circuit(cs, &out, 37, in) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_status(cs, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "arity"));
    cuzk_cs_free(cs);
    /* a system that failed before: nothing is added */
    CHECK(cuzk_cs_new(&cs, CUZK_CS_COUNT, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    cuzk_cs_fail(cs, CUZK_ERR_MISMATCH, "earlier failure");
    cuzk_num_t nin[2] = {{cuzk_cs_alloc(cs, NULL), false, FR_ZERO}, {cuzk_cs_alloc(cs, NULL), false, FR_ZERO}};
    CHECK(cuzk_poseidon_circuit_tagged(cs, &out, c, &c->merkle_tag, nin) == CUZK_ERR_MISMATCH);
    cuzk_cs_counts_t cc;
    cuzk_cs_counts(cs, &cc);
    CHECK(cc.num_constraints == 0);
    cuzk_cs_free(cs);
}

#define N_THREADS 6
static char thread_hash[N_THREADS][65];
static fr thread_vals[4];
static void *thread_run(void *arg)
{
    size_t i = (size_t)arg;
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(4);
    run_t r = synth(CUZK_CS_TEST, CUZK_LC_DEFAULT, c, &c->merkle_tag, thread_vals, false, false);
    if (r.st != CUZK_OK || cuzk_cs_test_hash(r.cs, thread_hash[i], NULL) != CUZK_OK)
        thread_hash[i][0] = 0;
    cuzk_cs_free(r.cs);
    return NULL;
}

/* first use of a template from several threads: built once, the same system everywhere */
static void check_concurrent(void)
{
    pthread_t th[N_THREADS];
    for (int i = 0; i < 4; i++)
        test_rand_fr(&thread_vals[i]);
    for (size_t i = 0; i < N_THREADS; i++)
        CHECK(pthread_create(&th[i], NULL, thread_run, (void *)i) == 0);
    for (size_t i = 0; i < N_THREADS; i++)
        pthread_join(th[i], NULL);
    bool ok = thread_hash[0][0] != 0;
    for (size_t i = 1; i < N_THREADS; i++)
        ok = ok && strcmp(thread_hash[i], thread_hash[0]) == 0;
    CHECK_MSG(ok, "concurrent synthesis gave different systems");
}

int main(void)
{
    test_init("test_poseidon_circuit");
    check_concurrent();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_arity(i, cases[i].arity == 2 || cases[i].arity == 8 || cases[i].arity == 11);
    oracle_check(2);
    oracle_check(8);
    oracle_check(11);
    check_custom_tag();
    check_misuse();
    return test_finish();
}
