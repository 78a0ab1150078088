/* The gadget tests' backend-agreement check and tampering helpers (gadget_harness.h). */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include "gadget_harness.h"
#include "test_util.h"

cuzk_cs_t *gh_run(gh_synth_fn f, const void *params, cuzk_cs_backend backend, cuzk_lc_strategy s)
{
    cuzk_cs_t *cs = NULL;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_new(&cs, backend, s, &err) == CUZK_OK);
    f(cs, params);
    CHECK_MSG(cuzk_cs_status(cs, &err) == CUZK_OK, "backend %d: %s", (int)backend, err.msg);
    return cs;
}

static bool counts_eq(const cuzk_cs_counts_t *x, const cuzk_cs_counts_t *y)
{
    return x->num_inputs == y->num_inputs && x->num_aux == y->num_aux &&
           x->num_constraints == y->num_constraints && x->a_aux_density == y->a_aux_density &&
           x->b_input_density == y->b_input_density && x->b_aux_density == y->b_aux_density;
}

void gh_check_backends(const char *name, gh_synth_fn f, const void *params, cuzk_lc_strategy s,
                       cuzk_cs_counts_t *counts, char hash[65])
{
    cuzk_cs_t *cnt = gh_run(f, params, CUZK_CS_COUNT, s), *wit = gh_run(f, params, CUZK_CS_WITNESS, s),
              *rcs = gh_run(f, params, CUZK_CS_RECORD, s), *dir = gh_run(f, params, CUZK_CS_DIRECT, s),
              *tst = gh_run(f, params, CUZK_CS_TEST, s);
    cuzk_cs_counts_t cc, cw, cr, cd, ct, crec;
    cuzk_cs_counts(cnt, &cc), cuzk_cs_counts(wit, &cw), cuzk_cs_counts(rcs, &cr);
    cuzk_cs_counts(dir, &cd), cuzk_cs_counts(tst, &ct);
    CHECK_MSG(counts_eq(&cc, &cr) && counts_eq(&cc, &cd) && counts_eq(&cc, &ct), "%s: counts differ by backend",
              name);
    CHECK_MSG(cw.num_inputs == cc.num_inputs && cw.num_aux == cc.num_aux && cw.num_constraints == cc.num_constraints,
              "%s: witness counts %zu/%zu/%zu, count backend %zu/%zu/%zu", name, cw.num_inputs, cw.num_aux,
              cw.num_constraints, cc.num_inputs, cc.num_aux, cc.num_constraints);
    if (counts)
        *counts = cc;

    /* one assignment on every values backend */
    size_t ni = cc.num_inputs, na = cc.num_aux;
    CHECK_MSG(memcmp(cuzk_cs_inputs(wit), cuzk_cs_inputs(dir), ni * sizeof(fr)) == 0 &&
                  memcmp(cuzk_cs_inputs(wit), cuzk_cs_inputs(tst), ni * sizeof(fr)) == 0,
              "%s: inputs differ by backend", name);
    CHECK_MSG(na == 0 || (memcmp(cuzk_cs_aux(wit), cuzk_cs_aux(dir), na * sizeof(fr)) == 0 &&
                          memcmp(cuzk_cs_aux(wit), cuzk_cs_aux(tst), na * sizeof(fr)) == 0),
              "%s: aux values differ by backend", name);

    cuzk_cs_record_t rec;
    CHECK(cuzk_cs_take_record(rcs, &rec, NULL) == CUZK_OK);
    cuzk_cs_record_counts(&rec, &crec);
    CHECK_MSG(counts_eq(&cc, &crec), "%s: record shape differs from count", name);

    cuzk_groth16_witness_t wd, wr;
    cuzk_cs_abc_t abc;
    CHECK(cuzk_cs_groth16_witness(dir, &wd, NULL) == CUZK_OK);
    CHECK(cuzk_cs_record_witness(&wr, &abc, &rec, wit, 2, NULL) == CUZK_OK);
    size_t m = cc.num_constraints, differ = 0, bad = 0;
    for (size_t k = 0; k < m; k++) {
        differ += !fr_eq(&wd.a[k], &wr.a[k]) || !fr_eq(&wd.b[k], &wr.b[k]) || !fr_eq(&wd.c[k], &wr.c[k]);
        fr ab;
        fr_mul(&ab, &wd.a[k], &wd.b[k]);
        bad += !fr_eq(&ab, &wd.c[k]);
    }
    CHECK_MSG(differ == 0, "%s: %zu rows of record + witness differ from direct", name, differ);
    CHECK_MSG(bad == 0, "%s: %zu rows with a·b != c", name, bad);
    cuzk_cs_abc_free(&abc);
    cuzk_cs_record_free(&rec);

    int64_t first = -2;
    CHECK(cuzk_cs_test_unsatisfied(tst, &first, NULL) == CUZK_OK);
    CHECK_MSG(first == -1, "%s: constraint %lld unsatisfied", name, (long long)first);
    char h[65];
    CHECK(cuzk_cs_test_hash(tst, h, NULL) == CUZK_OK);
    if (hash)
        memcpy(hash, h, 65);
    cuzk_cs_free(cnt), cuzk_cs_free(wit), cuzk_cs_free(rcs), cuzk_cs_free(dir), cuzk_cs_free(tst);
}

void gh_check_all_strategies(const char *name, gh_synth_fn f, const void *params, cuzk_cs_counts_t *counts,
                             char hash[65])
{
    char h0[65], h[65];
    cuzk_cs_counts_t c0, c;
    for (int s = 0; s < CUZK_LC_STRATEGY_COUNT; s++) {
        gh_check_backends(name, f, params, (cuzk_lc_strategy)s, s ? &c : &c0, s ? h : h0);
        if (s)
            CHECK_MSG(counts_eq(&c, &c0) && strcmp(h, h0) == 0, "%s: the %s strategy changes the system", name,
                      cuzk_lc_strategy_name((cuzk_lc_strategy)s));
    }
    if (counts)
        *counts = c0;
    if (hash)
        memcpy(hash, h0, 65);
}

bool gh_satisfied(const cuzk_cs_t *cs)
{
    int64_t first = -2;
    CHECK(cuzk_cs_test_unsatisfied(cs, &first, NULL) == CUZK_OK);
    return first == -1;
}

bool gh_breaks(cuzk_cs_t *cs, cuzk_var_t v, const fr *value)
{
    fr old;
    CHECK(cuzk_cs_get_value(cs, v, &old));
    CHECK(cuzk_cs_set_value(cs, v, value, NULL) == CUZK_OK);
    bool broken = !gh_satisfied(cs);
    CHECK(cuzk_cs_set_value(cs, v, &old, NULL) == CUZK_OK);
    return broken;
}

bool gh_breaks_changed(cuzk_cs_t *cs, cuzk_var_t v, bool flip_bit)
{
    fr old, nv;
    CHECK(cuzk_cs_get_value(cs, v, &old));
    if (flip_bit)
        nv = fr_is_zero(&old) ? FR_ONE : FR_ZERO;
    else
        fr_add(&nv, &old, &FR_ONE);
    return gh_breaks(cs, v, &nv);
}

void gh_hash(const cuzk_cs_t *cs, char hex[65])
{
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_cs_test_hash(cs, hex, &err) == CUZK_OK, "%s", err.msg);
}

void gh_openssl_sha256(const uint8_t *m, size_t n, uint8_t out[32])
{
    unsigned len = 0;
    CHECK(EVP_Digest(m, n, out, &len, EVP_sha256(), NULL) == 1 && len == 32);
}

void gh_alloc_message(cuzk_cs_t *cs, const uint8_t *m, size_t n, cuzk_boolean_t *bits)
{
    for (size_t i = 0; i < 8 * n; i++)
        bits[i] = cuzk_boolean_from_bit(cuzk_bit_alloc(cs, (m[i / 8] >> (7 - i % 8)) & 1));
}

bool gh_digest_bytes(const cuzk_boolean_t bits[256], uint8_t out[32])
{
    memset(out, 0, 32);
    for (int i = 0; i < 256; i++) {
        if (!bits[i].has_value)
            return false;
        out[i / 8] |= (uint8_t)(bits[i].value << (7 - i % 8));
    }
    return true;
}
