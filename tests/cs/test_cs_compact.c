/* The record backend's compact matrices against the direct backend, which evaluates every LC while it
 * synthesizes (an independent path): record + witness gives the direct a, b, c on random circuits with long
 * rows and one- and two-byte coefficient indices, on 1–3 threads; products left out (NULL) are not written;
 * the CSR expansion evaluates to the same; a table filled to its limit (65536 distinct values) still
 * records and evaluates, one value more fails the system with CUZK_ERR_UNSUPPORTED naming the matrix; the
 * record prover's path without a copy (cuzk_cs_record_witness_consumable) gives a proof that verifies. */
#include <stdlib.h>
#include <string.h>
#include "circuits/circuits.h"
#include "cuzk/cs.h"
#include "ff/fr.h"
#include "test_util.h"

static cuzk_cs_t *synth(cuzk_cs_backend b, const circuit_random_params *p)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, b, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    circuit_random_synthesize(cs, p);
    return cs;
}

static void against_direct(const circuit_random_params *p, bool *saw_long, bool *saw_wide)
{
    cuzk_cs_t *rcs = synth(CUZK_CS_RECORD, p), *wcs = synth(CUZK_CS_WITNESS, p), *dcs = synth(CUZK_CS_DIRECT, p);
    cuzk_cs_record_t rec;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_cs_take_record_compact(rcs, &rec, &err) == CUZK_OK, "%s", err.msg);
    *saw_long |= rec.m.a.num_long + rec.m.b.num_long + rec.m.c.num_long > 0;
    *saw_wide |= rec.m.a.idx16 || rec.m.b.idx16 || rec.m.c.idx16;
    cuzk_groth16_witness_t wd;
    CHECK(cuzk_cs_groth16_witness(dcs, &wd, NULL) == CUZK_OK);
    size_t n = wd.num_constraints, bytes = n * sizeof(cuzk_fr_t);
    for (int threads = 1; threads <= 3; threads++) {
        cuzk_groth16_witness_t wr;
        cuzk_cs_abc_t abc;
        CHECK(cuzk_cs_record_witness(&wr, &abc, &rec, wcs, threads, NULL) == CUZK_OK);
        CHECK_MSG(wr.num_constraints == n && !memcmp(wr.a, wd.a, bytes) && !memcmp(wr.b, wd.b, bytes) &&
                      !memcmp(wr.c, wd.c, bytes),
                  "record + witness differs from direct (%zu rows, %d threads)", n, threads);
        cuzk_cs_abc_free(&abc);
    }
    /* B and C left out: their buffers untouched; A as before */
    cuzk_fr_t *buf = malloc(3 * (n + 1) * sizeof *buf);
    memset(buf, 0xa5, 3 * (n + 1) * sizeof *buf);
    cuzk_r1cs_compact_eval(&rec.m, cuzk_cs_inputs(wcs), cuzk_cs_aux(wcs), buf, NULL, NULL, 2);
    CHECK(!memcmp(buf, wd.a, bytes));
    for (size_t i = n * sizeof *buf; i < 3 * (n + 1) * sizeof *buf; i++)
        CHECK(((unsigned char *)buf)[i] == 0xa5);
    /* the expansion to CSR evaluates to the same */
    CHECK(cuzk_cs_record_expand(&rec, NULL) == CUZK_OK && rec.r1cs.num_constraints == n);
    cuzk_r1cs_eval(&rec.r1cs, cuzk_cs_inputs(wcs), cuzk_cs_aux(wcs), buf, buf + n, buf + 2 * n, 1);
    CHECK(!memcmp(buf, wd.a, bytes) && !memcmp(buf + n, wd.b, bytes) && !memcmp(buf + 2 * n, wd.c, bytes));
    CHECK(rec.r1cs.a.row_start[n] == rec.m.a.nnz && rec.r1cs.c.row_start[n] == rec.m.c.nnz);
    free(buf);
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(rcs), cuzk_cs_free(wcs), cuzk_cs_free(dcs);
}

static void random_circuits(void)
{
    bool saw_long = false, saw_wide = false;
    for (int it = 0; it < 8; it++) {
        circuit_random_params p = {test_rand64(), 1 + test_rand_below(40), 1 + test_rand_below(300),
                                   test_rand_below(600), 1 + (unsigned)test_rand_below(8)};
        if (it < 2) /* rows of 255 terms and more */
            p.num_aux = 900, p.num_constraints = 30 + test_rand_below(100), p.max_terms = 700;
        against_direct(&p, &saw_long, &saw_wide);
    }
    CHECK(saw_long && saw_wide);
}

/* n constraints (c_k·x)·ONE = c_k·x with c_k = k + 2 distinct: A and C get n + 2 table entries. */
static void distinct_coefficients(cuzk_cs_t *cs, size_t n)
{
    cuzk_fr_t x;
    fr_from_u64(&x, 7);
    cuzk_var_t vx = cuzk_cs_alloc(cs, cuzk_cs_wants_values(cs) ? &x : NULL);
    for (size_t k = 0; k < n; k++) {
        cuzk_fr_t c, v[3];
        fr_from_u64(&c, k + 2);
        fr_mul(&v[0], &c, &x);
        v[1] = FR_ONE, v[2] = v[0];
        cuzk_lc_t a, b, cc;
        cuzk_lc_init(&a, cs), cuzk_lc_init(&b, cs), cuzk_lc_init(&cc, cs);
        cuzk_lc_add_term(&a, vx, &c);
        cuzk_lc_add(&b, cuzk_cs_one());
        cuzk_lc_add_term(&cc, vx, &c);
        cuzk_cs_enforce_free(cs, &a, &b, &cc);
    }
}

static void table_limit(void)
{
    size_t n = CUZK_CMAT_MAX_TABLE - 2;
    cuzk_cs_t *r = NULL, *w = NULL, *d = NULL;
    CHECK(cuzk_cs_new(&r, CUZK_CS_RECORD, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    CHECK(cuzk_cs_new(&w, CUZK_CS_WITNESS, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    CHECK(cuzk_cs_new(&d, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    distinct_coefficients(r, n), distinct_coefficients(w, n), distinct_coefficients(d, n);
    cuzk_cs_record_t rec;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_cs_take_record_compact(r, &rec, &err) == CUZK_OK, "%s", err.msg);
    CHECK(rec.m.a.table_len == CUZK_CMAT_MAX_TABLE && rec.m.a.idx16 && rec.m.a.idx16[n - 1] == n + 1);
    CHECK(rec.m.b.table_len == 2 && rec.m.b.idx8);
    cuzk_groth16_witness_t wr, wd;
    cuzk_cs_abc_t abc;
    CHECK(cuzk_cs_record_witness(&wr, &abc, &rec, w, 2, NULL) == CUZK_OK);
    CHECK(cuzk_cs_groth16_witness(d, &wd, NULL) == CUZK_OK);
    size_t bytes = n * sizeof(cuzk_fr_t);
    CHECK(!memcmp(wr.a, wd.a, bytes) && !memcmp(wr.b, wd.b, bytes) && !memcmp(wr.c, wd.c, bytes));
    cuzk_cs_abc_free(&abc);
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(r), cuzk_cs_free(w), cuzk_cs_free(d);

    /* one distinct value more: not silent */
    CHECK(cuzk_cs_new(&r, CUZK_CS_RECORD, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    distinct_coefficients(r, n + 1);
    CHECK(cuzk_cs_status(r, &err) == CUZK_ERR_UNSUPPORTED);
    CHECK_MSG(strstr(err.msg, "constraint 65534: A has more than 65536 distinct coefficients") &&
                  strstr(err.msg, "direct backend"), "%s", err.msg);
    CHECK(cuzk_cs_take_record_compact(r, &rec, NULL) == CUZK_ERR_UNSUPPORTED && rec.m.a.col == NULL);
    cuzk_cs_free(r);
}

/* The record prover's path without a copy: A·z and B·z evaluated into domain buffers, the witness system's
 * assignment consumed; the proof verifies (pairing check) and not against a changed public input. */
static void prove_consumable(void)
{
    circuit_cubic_params p;
    fr_from_u64(&p.x, test_rand64());
    cuzk_cs_t *rcs = NULL, *wcs = NULL;
    CHECK(cuzk_cs_new(&rcs, CUZK_CS_RECORD, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    CHECK(cuzk_cs_new(&wcs, CUZK_CS_WITNESS, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    circuit_cubic_synthesize(rcs, &p), circuit_cubic_synthesize(wcs, &p);
    cuzk_cs_record_t rec;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_take_record(rcs, &rec, NULL) == CUZK_OK);
    cuzk_groth16_pk_t pk;
    CHECK_MSG(cuzk_groth16_setup(&pk, &rec.r1cs, 2, &err) == CUZK_OK, "%s", err.msg);
    size_t ni = rec.m.num_inputs;
    cuzk_scalar_t *inputs = malloc(ni * sizeof *inputs);
    for (size_t i = 1; i < ni; i++)
        fr_to_scalar(&inputs[i - 1], &cuzk_cs_inputs(wcs)[i]);
    cuzk_groth16_witness_consumable_t w;
    cuzk_cs_abc_t abc;
    CHECK_MSG(cuzk_cs_record_witness_consumable(&w, &abc, &rec, wcs, 2, &err) == CUZK_OK, "%s", err.msg);
    CHECK(abc.c == NULL && w.capacity >= rec.m.num_constraints + ni && (w.capacity & (w.capacity - 1)) == 0);
    CHECK(w.aux_capacity >= w.capacity); /* C·z goes into the assignment's aux */
    cuzk_groth16_proof_t proof;
    CHECK_MSG(cuzk_groth16_prove_consume(&proof, &pk, &w, NULL, &err) == CUZK_OK, "%s", err.msg);
    cuzk_groth16_pvk_t *pvk;
    CHECK(cuzk_groth16_pvk_new(&pvk, &pk.vk) == CUZK_OK);
    bool ok = false;
    CHECK(cuzk_groth16_verify(&ok, pvk, &proof, inputs, ni - 1, &err) == CUZK_OK && ok);
    fr one;
    fr_from_scalar(&one, &inputs[0]);
    fr_add(&one, &one, &FR_ONE);
    fr_to_scalar(&inputs[0], &one);
    CHECK(cuzk_groth16_verify(&ok, pvk, &proof, inputs, ni - 1, &err) == CUZK_OK && !ok);
    cuzk_cs_abc_free(&abc);
    /* a system of another shape is refused before anything is allocated */
    circuit_random_params q = {test_rand64(), 1, 3, 3, 2};
    cuzk_cs_t *other = synth(CUZK_CS_WITNESS, &q);
    CHECK(cuzk_cs_record_witness_consumable(&w, &abc, &rec, other, 1, &err) == CUZK_ERR_MISMATCH && !abc.a);
    cuzk_cs_free(other);
    cuzk_groth16_pvk_free(pvk);
    cuzk_cs_abc_free(&abc);
    free(inputs);
    cuzk_groth16_pk_free(&pk);
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(rcs), cuzk_cs_free(wcs);
}

int main(void)
{
    test_init("test_cs_compact");
    random_circuits();
    table_limit();
    prove_consumable();
    return test_finish();
}
