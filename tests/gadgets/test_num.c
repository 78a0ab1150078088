/* AllocatedNum and Num against bellpepper-core's num.rs: values (GMP for the bit decomposition and
 * the powers of two), the exact rows of inputize, to_bits_le, add, mul, square, assert_nonzero and
 * conditionally_reverse (hand-written), bellpepper's test cases (r − 1 + 1 = 0, 3² = 9, 12·10 =
 * 120, reversal under constant conditions, zero has no inverse), tampering, the backend agreement
 * and a recorded hash. */
#include <gmp.h>
#include <string.h>
#include "gadget_harness.h"
#include "gadgets/num.h"
#include "test_util.h"

static cuzk_cs_t *new_cs(cuzk_cs_backend b)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, b, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    return cs;
}

static void num_fr(fr *out, uint64_t v) { fr_from_u64(out, v); }

/* 2^i mod r by GMP */
static void pow2_gmp(fr *out, unsigned i)
{
    mpz_t z, r;
    mpz_inits(z, r, NULL);
    mpz_import(r, 4, -1, 8, 0, 0, FR_MODULUS);
    mpz_set_ui(z, 1);
    mpz_mul_2exp(z, z, i);
    mpz_mod(z, z, r);
    uint64_t l[4] = {0};
    mpz_export(l, NULL, -1, 8, 0, 0, z);
    fr_to_mont(out, l);
    mpz_clears(z, r, NULL);
}

/* The single row k of a record system: terms of matrix m as (column, coeff) pairs, checked
 * against want (n entries, column = input index or num_inputs + aux index). */
static bool row_eq(const cuzk_cs_record_t *rec, int m, size_t k, const uint32_t *cols, const fr *coeffs, size_t n)
{
    const cuzk_csr_t *mat = m == 0 ? &rec->r1cs.a : m == 1 ? &rec->r1cs.b : &rec->r1cs.c;
    uint64_t s = mat->row_start[k], e = mat->row_start[k + 1];
    if (e - s != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        for (uint64_t j = s; j < e; j++)
            found = found || (mat->col[j] == cols[i] && fr_eq(&mat->coeff[j], &coeffs[i]));
        if (!found)
            return false;
    }
    return true;
}

static fr MONE; /* −1 */

static void bellpepper_cases(void)
{
    /* test_num_addition: (r − 1) + 1 = 0; a wrong sum is caught */
    cuzk_cs_t *cs = new_cs(CUZK_CS_TEST);
    fr rm1 = MONE, v;
    cuzk_num_t a = cuzk_num_alloc(cs, &rm1), b = cuzk_num_alloc(cs, &FR_ONE);
    cuzk_num_t c = cuzk_num_add(cs, &a, &b);
    CHECK(c.has_value && fr_is_zero(&c.value) && gh_satisfied(cs));
    CHECK(cuzk_cs_get_value(cs, c.var, &v) && fr_is_zero(&v));
    CHECK(gh_breaks(cs, c.var, &FR_ONE));
    cuzk_cs_free(cs);

    /* test_num_squaring, test_num_multiplication */
    cs = new_cs(CUZK_CS_TEST);
    fr three, nine, twelve, ten, onetwenty, x;
    num_fr(&three, 3), num_fr(&nine, 9), num_fr(&twelve, 12), num_fr(&ten, 10), num_fr(&onetwenty, 120);
    cuzk_num_t n = cuzk_num_alloc(cs, &three);
    cuzk_num_t n2 = cuzk_num_square(cs, &n);
    CHECK(n2.has_value && fr_eq(&n2.value, &nine) && gh_satisfied(cs));
    num_fr(&x, 10);
    CHECK(gh_breaks(cs, n2.var, &x));
    cuzk_num_t p = cuzk_num_alloc(cs, &twelve), q = cuzk_num_alloc(cs, &ten);
    cuzk_num_t pq = cuzk_num_mul(cs, &p, &q);
    CHECK(pq.has_value && fr_eq(&pq.value, &onetwenty) && gh_satisfied(cs));
    num_fr(&x, 121);
    CHECK(gh_breaks(cs, pq.var, &x));
    cuzk_cs_free(cs);

    /* test_num_conditional_reversal with constant conditions, and allocated ones */
    for (int kind = 0; kind < 4; kind++) {
        cs = new_cs(CUZK_CS_TEST);
        fr va, vb;
        test_rand_fr(&va), test_rand_fr(&vb);
        cuzk_num_t na = cuzk_num_alloc(cs, &va), nb = cuzk_num_alloc(cs, &vb), nc, nd;
        bool cond = kind & 1;
        cuzk_boolean_t cb = kind < 2 ? cuzk_boolean_constant(cond) : cuzk_boolean_from_bit(cuzk_bit_alloc(cs, cond));
        cuzk_num_conditionally_reverse(cs, &na, &nb, cb, &nc, &nd);
        CHECK(gh_satisfied(cs));
        CHECK(fr_eq(&nc.value, cond ? &vb : &va) && fr_eq(&nd.value, cond ? &va : &vb));
        CHECK(gh_breaks_changed(cs, nc.var, false) && gh_breaks_changed(cs, nd.var, false));
        if (kind >= 2)
            CHECK(gh_breaks_changed(cs, cb.var, true));
        cuzk_cs_free(cs);
    }

    /* test_num_nonzero */
    cs = new_cs(CUZK_CS_TEST);
    n = cuzk_num_alloc(cs, &three);
    cuzk_num_assert_nonzero(cs, &n);
    CHECK(gh_satisfied(cs) && cuzk_cs_status(cs, NULL) == CUZK_OK);
    CHECK(gh_breaks(cs, cuzk_var_aux(1), &three));
    cuzk_cs_free(cs);
    cs = new_cs(CUZK_CS_TEST);
    n = cuzk_num_alloc(cs, &FR_ZERO);
    cuzk_num_assert_nonzero(cs, &n);
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_status(cs, &err) != CUZK_OK && strstr(err.msg, "division by zero"));
    cuzk_cs_free(cs);
    cs = new_cs(CUZK_CS_COUNT); /* no values: nothing to divide */
    n = cuzk_num_alloc(cs, NULL);
    cuzk_num_assert_nonzero(cs, &n);
    CHECK(cuzk_cs_status(cs, NULL) == CUZK_OK && !n.has_value);
    cuzk_cs_free(cs);
}

static void to_bits(void)
{
    for (int it = 0; it < 6; it++) {
        fr x;
        if (it == 0)
            x = MONE;
        else if (it == 1)
            x = FR_ZERO;
        else
            test_rand_fr(&x);
        cuzk_cs_t *cs = new_cs(CUZK_CS_TEST);
        cuzk_num_t n = cuzk_num_alloc(cs, &x);
        cuzk_boolean_t bits[255];
        cuzk_num_to_bits_le(cs, &n, bits);
        CHECK(gh_satisfied(cs));
        uint64_t l[4];
        fr_from_mont(l, &x);
        mpz_t z;
        mpz_init(z);
        mpz_import(z, 4, -1, 8, 0, 0, l);
        bool ok = true;
        for (int i = 0; i < 255; i++)
            ok = ok && bits[i].kind == CUZK_BOOLEAN_IS && bits[i].has_value &&
                 bits[i].value == (bool)mpz_tstbit(z, (mp_bitcnt_t)i) && bits[i].var.id == cuzk_var_aux(1 + i).id;
        CHECK_MSG(ok, "to_bits_le: bits differ from GMP's");
        mpz_clear(z);
        cuzk_cs_counts_t c;
        cuzk_cs_counts(cs, &c);
        CHECK(c.num_constraints == 256 && c.num_aux == 256);
        /* a flipped bit breaks its boolean constraint only if not 0/1, and the packing always */
        CHECK(gh_breaks_changed(cs, bits[it * 40].var, true));
        CHECK(gh_breaks_changed(cs, n.var, false));
        cuzk_cs_free(cs);
    }
    /* the rows: 255 boolean constraints, then 0·0 = Σ 2^i·b_i − x */
    cuzk_cs_t *cs = new_cs(CUZK_CS_RECORD);
    cuzk_num_t n = cuzk_num_alloc(cs, NULL);
    cuzk_boolean_t bits[255];
    cuzk_num_to_bits_le(cs, &n, bits);
    cuzk_cs_record_t rec;
    CHECK(cuzk_cs_take_record(cs, &rec, NULL) == CUZK_OK);
    uint32_t cols[256];
    fr coeffs[256];
    for (unsigned i = 0; i < 255; i++) {
        cols[i] = 1 + 1 + i;
        pow2_gmp(&coeffs[i], i);
    }
    cols[255] = 1;
    coeffs[255] = MONE;
    CHECK(row_eq(&rec, 0, 255, NULL, NULL, 0) && row_eq(&rec, 1, 255, NULL, NULL, 0));
    CHECK(row_eq(&rec, 2, 255, cols, coeffs, 256));
    fr one_m1[2] = {FR_ONE, MONE};
    uint32_t c0[2] = {0, 2};
    CHECK(row_eq(&rec, 0, 0, c0, one_m1, 2) && row_eq(&rec, 1, 0, c0 + 1, one_m1, 1) &&
          row_eq(&rec, 2, 0, NULL, NULL, 0));
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(cs);
}

/* inputize, add, mul, square, assert_nonzero, conditionally_reverse: the rows */
static void rows(void)
{
    cuzk_cs_t *cs = new_cs(CUZK_CS_RECORD);
    cuzk_num_t a = cuzk_num_alloc(cs, NULL), b = cuzk_num_alloc(cs, NULL); /* aux 0, 1 */
    cuzk_num_inputize(cs, &a);                                              /* input 1; row 0 */
    cuzk_num_add(cs, &a, &b);                                               /* aux 2; row 1 */
    cuzk_num_mul(cs, &a, &b);                                               /* aux 3; row 2 */
    cuzk_num_square(cs, &b);                                                /* aux 4; row 3 */
    cuzk_num_assert_nonzero(cs, &a);                                        /* aux 5; row 4 */
    cuzk_bit_t cb = cuzk_bit_alloc(cs, 0);                                  /* aux 6; row 5 */
    cuzk_num_t c, d;
    /* aux 7, 8; rows 6, 7 */
    cuzk_num_conditionally_reverse(cs, &a, &b, cuzk_boolean_not(cuzk_boolean_from_bit(cb)), &c, &d);
    cuzk_cs_record_t rec;
    CHECK(cuzk_cs_take_record(cs, &rec, NULL) == CUZK_OK);
    CHECK(rec.r1cs.num_inputs == 2 && rec.r1cs.num_constraints == 8);
    const uint32_t ONE = 0, IN1 = 1, A = 2, B = 3;
    fr o[3] = {FR_ONE, FR_ONE, FR_ONE}, om[2] = {FR_ONE, MONE}, mo[2] = {MONE, FR_ONE}, mm[1] = {MONE};
    (void)mm;
    /* inputize: input·ONE = a */
    CHECK(row_eq(&rec, 0, 0, (uint32_t[]){IN1}, o, 1) && row_eq(&rec, 1, 0, (uint32_t[]){ONE}, o, 1) &&
          row_eq(&rec, 2, 0, (uint32_t[]){A}, o, 1));
    /* add: (a + b)·ONE = s */
    CHECK(row_eq(&rec, 0, 1, (uint32_t[]){A, B}, o, 2) && row_eq(&rec, 1, 1, (uint32_t[]){ONE}, o, 1) &&
          row_eq(&rec, 2, 1, (uint32_t[]){2 + 2}, o, 1));
    /* mul: a·b = p; square: b·b = q */
    CHECK(row_eq(&rec, 0, 2, (uint32_t[]){A}, o, 1) && row_eq(&rec, 1, 2, (uint32_t[]){B}, o, 1) &&
          row_eq(&rec, 2, 2, (uint32_t[]){2 + 3}, o, 1));
    CHECK(row_eq(&rec, 0, 3, (uint32_t[]){B}, o, 1) && row_eq(&rec, 1, 3, (uint32_t[]){B}, o, 1) &&
          row_eq(&rec, 2, 3, (uint32_t[]){2 + 4}, o, 1));
    /* nonzero: a·inv = ONE */
    CHECK(row_eq(&rec, 0, 4, (uint32_t[]){A}, o, 1) && row_eq(&rec, 1, 4, (uint32_t[]){2 + 5}, o, 1) &&
          row_eq(&rec, 2, 4, (uint32_t[]){ONE}, o, 1));
    /* reversal with condition ¬cb: (a − b)·(ONE − cb) = a − c, then (b − a)·(ONE − cb) = b − d */
    CHECK(row_eq(&rec, 0, 6, (uint32_t[]){A, B}, om, 2) && row_eq(&rec, 1, 6, (uint32_t[]){ONE, 2 + 6}, om, 2) &&
          row_eq(&rec, 2, 6, (uint32_t[]){A, 2 + 7}, om, 2));
    CHECK(row_eq(&rec, 0, 7, (uint32_t[]){A, B}, mo, 2) && row_eq(&rec, 1, 7, (uint32_t[]){ONE, 2 + 6}, om, 2) &&
          row_eq(&rec, 2, 7, (uint32_t[]){B, 2 + 8}, om, 2));
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(cs);

    /* inputize on a values backend: the input holds the value; a wrong input breaks it */
    cs = new_cs(CUZK_CS_TEST);
    fr v;
    test_rand_fr(&v);
    a = cuzk_num_alloc(cs, &v);
    cuzk_num_inputize(cs, &a);
    fr got;
    CHECK(cuzk_cs_get_value(cs, cuzk_var_input(1), &got) && fr_eq(&got, &v) && gh_satisfied(cs));
    CHECK(gh_breaks_changed(cs, cuzk_var_input(1), false));
    cuzk_num_t in = cuzk_num_alloc_input(cs, &v), back = cuzk_num_from_var(cs, in.var);
    CHECK(cuzk_var_is_input(in.var) && back.has_value && fr_eq(&back.value, &v));
    cuzk_cs_free(cs);
}

static void num_lc(void)
{
    cuzk_cs_t *cs = new_cs(CUZK_CS_TEST);
    fr va, three, k;
    test_rand_fr(&va);
    num_fr(&three, 3);
    test_rand_fr(&k);
    cuzk_num_t a = cuzk_num_alloc(cs, &va);
    cuzk_bit_t bit = cuzk_bit_alloc(cs, 1);
    cuzk_num_lc_t n, m;
    cuzk_num_lc_zero(&n, cs);
    CHECK(n.has_value && fr_is_zero(&n.value));
    cuzk_num_lc_add_bool_with_coeff(&n, cuzk_boolean_from_bit(bit), &three);              /* +3 */
    cuzk_num_lc_add_bool_with_coeff(&n, cuzk_boolean_not(cuzk_boolean_from_bit(bit)), &k); /* +0 */
    cuzk_num_lc_add_bool_with_coeff(&n, cuzk_boolean_constant(true), &three);              /* +3 */
    cuzk_num_lc_from_num(&m, cs, &a);
    cuzk_num_lc_add(&n, &m);    /* + a */
    cuzk_num_lc_scale(&n, &k);  /* ·k */
    fr want;
    fr_add(&want, &three, &three);
    fr_add(&want, &want, &va);
    fr_mul(&want, &want, &k);
    CHECK(n.has_value && fr_eq(&n.value, &want));
    /* the LC evaluates to the value: (2·n)·ONE = 2·want */
    cuzk_num_t s = cuzk_num_alloc(cs, &want);
    cuzk_lc_t la, lb, lc;
    cuzk_lc_init(&la, cs), cuzk_lc_init(&lb, cs), cuzk_lc_init(&lc, cs);
    fr two;
    num_fr(&two, 2);
    cuzk_num_lc_add_to(&n, &two, &la);
    cuzk_lc_add(&lb, cuzk_cs_one());
    cuzk_lc_add_term(&lc, s.var, &two);
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);
    CHECK(gh_satisfied(cs));
    CHECK(gh_breaks_changed(cs, a.var, false));
    cuzk_num_lc_free(&n);
    cuzk_num_lc_free(&m);
    cuzk_cs_free(cs);
    /* bellpepper test_num_partial_addition: an unknown term makes the sum unknown */
    cs = new_cs(CUZK_CS_COUNT);
    cuzk_num_lc_zero(&n, cs);
    cuzk_num_lc_add_bool_with_coeff(&n, cuzk_boolean_from_bit(cuzk_bit_alloc(cs, 1)), &three);
    CHECK(!n.has_value);
    cuzk_num_lc_zero(&m, cs);
    cuzk_num_lc_add(&m, &n);
    CHECK(!m.has_value);
    cuzk_num_lc_free(&n);
    cuzk_num_lc_zero(&n, cs);
    cuzk_num_lc_add_bool_with_coeff(&n, cuzk_boolean_constant(true), &three);
    CHECK(n.has_value && fr_eq(&n.value, &three));
    cuzk_num_lc_free(&n);
    cuzk_num_lc_free(&m);
    cuzk_cs_free(cs);
}

typedef struct {
    fr x, y;
    bool cond;
} circ_params;

static void circuit(cuzk_cs_t *cs, const void *vp)
{
    const circ_params *p = vp;
    cuzk_num_t x = cuzk_num_alloc(cs, &p->x), y = cuzk_num_alloc_input(cs, &p->y);
    cuzk_num_inputize(cs, &x);
    cuzk_boolean_t bits[255];
    cuzk_num_to_bits_le(cs, &x, bits);
    cuzk_num_t s = cuzk_num_add(cs, &x, &y), m = cuzk_num_mul(cs, &s, &y), q = cuzk_num_square(cs, &m), c, d;
    cuzk_num_assert_nonzero(cs, &q);
    cuzk_num_conditionally_reverse(cs, &q, &x, cuzk_boolean_from_bit(cuzk_bit_alloc(cs, p->cond)), &c, &d);
    cuzk_num_conditionally_reverse(cs, &c, &d, bits[3], &c, &d);
}

int main(void)
{
    test_init("test_num");
    fr_neg(&MONE, &FR_ONE);
    bellpepper_cases();
    to_bits();
    rows();
    num_lc();
    for (int it = 0; it < 3; it++) {
        circ_params p;
        test_rand_fr(&p.x), test_rand_fr(&p.y);
        p.cond = it & 1;
        gh_check_all_strategies("num circuit", circuit, &p, NULL, NULL);
    }
    /* our own recorded value (not a published one); independent of the values */
    circ_params p = {FR_ONE, FR_ONE, false};
    char h[65];
    gh_check_backends("num circuit", circuit, &p, CUZK_LC_DEFAULT, NULL, h);
    printf("num circuit hash %s\n", h);
    CHECK_MSG(strcmp(h, "e47bb3441b514930ed5f34e19171edbe3da89213749e91f1977ade1b33c12ef9") == 0,
              "num circuit hash changed: %s", h);
    return test_finish();
}
