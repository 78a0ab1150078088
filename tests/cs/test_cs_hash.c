/* TestConstraintSystem hash: known answers (empty system, bellpepper's test_cs example with and
 * without "eq", one AllocatedBit; computed from bellpepper's byte layout by an independent
 * implementation, not by Rust) and random systems hashed a second way (GMP + OpenSSL here). */
#include <gmp.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/cs.h"
#include "ff/fr.h"
#include "test_util.h"

static const char *R_HEX = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

static cuzk_cs_t *new_test_cs(cuzk_lc_strategy s)
{
    cuzk_cs_t *cs = NULL;
    cuzk_err_t err;
    CHECK(cuzk_cs_new(&cs, CUZK_CS_TEST, s, &err) == CUZK_OK);
    return cs;
}

static void check_hash(cuzk_cs_t *cs, const char *want, const char *what)
{
    char hex[65];
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_cs_get_backend(cs) == CUZK_CS_HASH ? cuzk_cs_hash_finish(cs, hex, &err)
                                                             : cuzk_cs_test_hash(cs, hex, &err);
    CHECK_MSG(st == CUZK_OK, "%s: %s", what, err.msg);
    CHECK_MSG(strcmp(hex, want) == 0, "%s: got %s want %s", what, hex, want);
}

static int64_t unsat(cuzk_cs_t *cs)
{
    int64_t first = -2;
    CHECK(cuzk_cs_test_unsatisfied(cs, &first, NULL) == CUZK_OK);
    return first;
}

static void u64_fr(fr *x, uint64_t v) { fr_from_u64(x, v); }

/* bellpepper util_cs/test_cs.rs test_cs, and boolean.rs AllocatedBit::alloc. */
static void known_answers(cuzk_lc_strategy s)
{
    cuzk_cs_t *cs = new_test_cs(s);
    check_hash(cs, "958191931feaed50efb8195a7e9084aba2c230e2886c2f11a2cff90a9117095e", "empty");
    CHECK(unsat(cs) == -1);
    fr v10, v4, v40, v16;
    u64_fr(&v10, 10), u64_fr(&v4, 4), u64_fr(&v40, 40), u64_fr(&v16, 16);
    cuzk_var_t a = cuzk_cs_alloc(cs, &v10), b = cuzk_cs_alloc(cs, &v4), p = cuzk_cs_alloc(cs, &v40);
    cuzk_lc_t la, lb, lc;
    cuzk_lc_init(&la, cs), cuzk_lc_init(&lb, cs), cuzk_lc_init(&lc, cs);
    cuzk_lc_add(&la, a), cuzk_lc_add(&lb, b), cuzk_lc_add(&lc, p);
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);
    CHECK(unsat(cs) == -1);
    check_hash(cs, "85b87cd6cd6b828612bccc9d4a2dad373914e8c9ed53925bcac9e7ad58701975", "mult");
    CHECK(cuzk_cs_set_value(cs, a, &v4, NULL) == CUZK_OK);
    cuzk_lc_add(&la, a), cuzk_lc_add(&lb, cuzk_cs_one()), cuzk_lc_add(&lc, b);
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);
    CHECK(unsat(cs) == 0); /* "mult" fails first, as in the Rust test */
    check_hash(cs, "8b389ffe65b2e50b4e96ff2cbc647e9491243d70817b91fff62e2574e30c8c7e", "mult+eq");
    fr got;
    CHECK(cuzk_cs_get_value(cs, p, &got) && fr_eq(&got, &v40));
    CHECK(cuzk_cs_set_value(cs, p, &v16, NULL) == CUZK_OK);
    CHECK(unsat(cs) == -1);
    cuzk_cs_free(cs);

    cs = new_test_cs(s);
    cuzk_var_t bit = cuzk_cs_alloc(cs, &FR_ONE);
    cuzk_lc_init(&la, cs), cuzk_lc_init(&lb, cs), cuzk_lc_init(&lc, cs);
    cuzk_lc_add(&la, cuzk_cs_one()), cuzk_lc_sub(&la, bit), cuzk_lc_add(&lb, bit);
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);
    check_hash(cs, "98d0daed948fd105b316b92d3bf903dd814f4f6d765d62d1e26c596ebd48e141", "AllocatedBit");
    CHECK(unsat(cs) == -1);
    fr two;
    u64_fr(&two, 2);
    CHECK(cuzk_cs_set_value(cs, bit, &two, NULL) == CUZK_OK);
    CHECK(unsat(cs) == 0);
    cuzk_cs_free(cs);
}

/* ---- the independent layout: raw terms, GMP accumulation, bytes laid out here ---- */

typedef struct {
    int is_aux;
    unsigned idx;
    uint64_t c[4]; /* canonical coefficient, < r */
} raw_term;

static mpz_t R;

static void rand_canonical(uint64_t c[4])
{
    switch (test_rand_below(6)) {
    case 0: c[0] = 1, c[1] = c[2] = c[3] = 0; return;
    case 1: c[0] = c[1] = c[2] = c[3] = 0; return;
    case 2: { /* r − 1 */
        mpz_t t;
        mpz_init(t);
        mpz_sub_ui(t, R, 1);
        memset(c, 0, 32);
        mpz_export(c, NULL, -1, 8, 0, 0, t);
        mpz_clear(t);
        return;
    }
    default:
        for (;;) {
            for (int i = 0; i < 4; i++)
                c[i] = test_rand64();
            c[3] &= 0x7fffffffffffffffULL;
            mpz_t t;
            mpz_init(t);
            mpz_import(t, 4, -1, 8, 0, 0, c);
            int ok = mpz_cmp(t, R) < 0;
            mpz_clear(t);
            if (ok)
                return;
        }
    }
}

static void put_be64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (56 - 8 * i));
}

/* Appends hash_lc's bytes for these raw terms: sums per variable mod r, zero sums dropped,
 * inputs then aux by index; each term 'I'/'A', u64 BE index, 32-byte BE coefficient. */
static void oracle_lc(const raw_term *t, size_t n, unsigned ni, unsigned na, uint8_t **buf, size_t *len)
{
    mpz_t *acc = malloc(sizeof(mpz_t) * (ni + na));
    for (unsigned i = 0; i < ni + na; i++)
        mpz_init(acc[i]);
    mpz_t x;
    mpz_init(x);
    for (size_t k = 0; k < n; k++) {
        mpz_import(x, 4, -1, 8, 0, 0, t[k].c);
        unsigned slot = t[k].is_aux ? ni + t[k].idx : t[k].idx;
        mpz_add(acc[slot], acc[slot], x);
        mpz_mod(acc[slot], acc[slot], R);
    }
    size_t cnt = 0;
    for (unsigned i = 0; i < ni + na; i++)
        cnt += mpz_sgn(acc[i]) != 0;
    *buf = realloc(*buf, *len + 8 + 41 * cnt);
    put_be64(*buf + *len, cnt);
    *len += 8;
    for (unsigned i = 0; i < ni + na; i++) {
        if (!mpz_sgn(acc[i]))
            continue;
        uint8_t *q = *buf + *len;
        q[0] = i < ni ? 'I' : 'A';
        put_be64(q + 1, i < ni ? i : i - ni);
        uint8_t be[32] = {0};
        size_t cnt_b;
        uint8_t tmp[32];
        mpz_export(tmp, &cnt_b, 1, 1, 1, 0, acc[i]);
        memcpy(be + 32 - cnt_b, tmp, cnt_b);
        memcpy(q + 9, be, 32);
        *len += 41;
    }
    mpz_clear(x);
    for (unsigned i = 0; i < ni + na; i++)
        mpz_clear(acc[i]);
    free(acc);
}

/* stream: the same system on the hash backend, which hashes while the constraints are enforced. */
static void random_layout(cuzk_lc_strategy s, bool stream)
{
    unsigned ni = 1 + (unsigned)test_rand_below(4), na = (unsigned)test_rand_below(8);
    size_t ncons = test_rand_below(12);
    cuzk_cs_t *cs = NULL;
    if (stream) {
        CHECK(cuzk_cs_new(&cs, CUZK_CS_HASH, s, NULL) == CUZK_OK);
        CHECK(cuzk_cs_hash_begin(cs, ni, na, ncons, NULL) == CUZK_OK);
    } else {
        cs = new_test_cs(s);
    }
    for (unsigned i = 1; i < ni; i++)
        cuzk_cs_alloc_input(cs, &FR_ONE);
    for (unsigned j = 0; j < na; j++)
        cuzk_cs_alloc(cs, &FR_ONE);
    uint8_t *buf = malloc(24);
    size_t len = 24;
    put_be64(buf, ni), put_be64(buf + 8, na), put_be64(buf + 16, ncons);
    for (size_t k = 0; k < ncons; k++) {
        cuzk_lc_t lc[3];
        for (int m = 0; m < 3; m++) {
            cuzk_lc_init(&lc[m], cs);
            raw_term t[24];
            size_t n = test_rand_below(12);
            for (size_t i = 0; i < n; i++) {
                t[i].is_aux = na && test_rand_below(2);
                t[i].idx = (unsigned)test_rand_below(t[i].is_aux ? na : ni);
                rand_canonical(t[i].c);
                if (i && test_rand_below(4) == 0) { /* repeat a variable, sometimes cancelling it */
                    t[i].is_aux = t[i - 1].is_aux, t[i].idx = t[i - 1].idx;
                    if (test_rand_below(2)) {
                        mpz_t a;
                        mpz_init(a);
                        mpz_import(a, 4, -1, 8, 0, 0, t[i - 1].c);
                        mpz_sub(a, R, a);
                        mpz_mod(a, a, R);
                        memset(t[i].c, 0, 32);
                        mpz_export(t[i].c, NULL, -1, 8, 0, 0, a);
                        mpz_clear(a);
                    }
                }
                fr c;
                fr_to_mont(&c, t[i].c);
                cuzk_lc_add_term(&lc[m], t[i].is_aux ? cuzk_var_aux(t[i].idx) : cuzk_var_input(t[i].idx), &c);
            }
            oracle_lc(t, n, ni, na, &buf, &len);
        }
        cuzk_cs_enforce_free(cs, &lc[0], &lc[1], &lc[2]);
    }
    uint8_t d[32];
    unsigned dl = 0;
    EVP_Digest(buf, len, d, &dl, EVP_blake2s256(), NULL);
    char want[65];
    for (int i = 0; i < 32; i++)
        snprintf(want + 2 * i, 3, "%02x", d[i]);
    check_hash(cs, want, stream ? "random layout, hash backend" : "random layout");
    free(buf);
    cuzk_cs_free(cs);
}

int main(void)
{
    test_init("test_cs_hash");
    mpz_init_set_str(R, R_HEX, 16);
    fr m1;
    fr_neg(&m1, &FR_ONE);
    CHECK(fr_eq(&cuzk_lc_coeff_one, &FR_ONE));
    CHECK(fr_eq(&cuzk_lc_coeff_minus_one, &m1));
    for (int s = 0; s < CUZK_LC_STRATEGY_COUNT; s++) {
        known_answers((cuzk_lc_strategy)s);
        for (int it = 0; it < 60; it++)
            random_layout((cuzk_lc_strategy)s, it & 1);
    }
    /* The hash backend's contract: begin on a fresh system only, before any constraint; the counts it
     * promised must be the circuit's; the stream is finished once. */
    {
        cuzk_cs_t *h = NULL;
        char hx[65];
        cuzk_err_t e = {{0}};
        fr one = FR_ONE;
        CHECK(cuzk_cs_new(&h, CUZK_CS_HASH, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
        CHECK(!cuzk_cs_wants_values(h) && cuzk_cs_wants_lcs(h));
        cuzk_var_t v = cuzk_cs_alloc(h, NULL);
        CHECK(cuzk_cs_hash_begin(h, 1, 1, 1, &e) == CUZK_ERR_INVALID_ARG && e.msg[0]); /* not fresh */
        cuzk_lc_t a, b, c;
        cuzk_lc_init(&a, h), cuzk_lc_init(&b, h), cuzk_lc_init(&c, h);
        cuzk_lc_add_term(&a, v, &one);
        cuzk_cs_enforce_free(h, &a, &b, &c); /* no stream: the system fails */
        CHECK(cuzk_cs_hash_finish(h, hx, &e) == CUZK_ERR_INVALID_ARG);
        cuzk_cs_free(h);
        CHECK(cuzk_cs_new(&h, CUZK_CS_HASH, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
        CHECK(cuzk_cs_hash_begin(h, 1, 2, 0, NULL) == CUZK_OK);
        CHECK(cuzk_cs_hash_begin(h, 1, 2, 0, &e) == CUZK_ERR_INVALID_ARG); /* twice */
        cuzk_cs_alloc(h, NULL);
        CHECK(cuzk_cs_hash_finish(h, hx, &e) == CUZK_ERR_MISMATCH && e.msg[0]); /* 1 aux, 2 promised */
        cuzk_cs_free(h);
        CHECK(cuzk_cs_new(&h, CUZK_CS_HASH, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
        CHECK(cuzk_cs_hash_begin(h, 1, 0, 0, NULL) == CUZK_OK);
        CHECK(cuzk_cs_hash_finish(h, hx, NULL) == CUZK_OK);
        CHECK_MSG(strcmp(hx, "958191931feaed50efb8195a7e9084aba2c230e2886c2f11a2cff90a9117095e") == 0,
                  "empty system, hash backend: %s", hx); /* docs/REFERENCE.md §1 */
        CHECK(cuzk_cs_hash_finish(h, hx, &e) == CUZK_ERR_INVALID_ARG); /* finished */
        CHECK(cuzk_cs_test_hash(h, hx, &e) == CUZK_ERR_INVALID_ARG && e.msg[0]); /* not the test backend */
        cuzk_cs_free(h);
    }
    /* Only the test backend (and, with its own call, the hash backend) hashes. */
    cuzk_cs_t *cs = NULL;
    char hex[65];
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_new(&cs, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    CHECK(cuzk_cs_test_hash(cs, hex, &err) == CUZK_ERR_INVALID_ARG && err.msg[0]);
    cuzk_cs_free(cs);
    mpz_clear(R);
    return test_finish();
}
