/* Insertion, selection and pick (storage-proofs-core insertion.rs tests, docs/REFERENCE.md §2): for sizes
 * 2, 4, 8, 16 and every position, select costs size − 1 constraints and insert 2 / 8 / 22 / 240
 * after the log2(size) bit constraints, with the right values; tampering; the pick row; misuse;
 * the constraint.rs / encode.rs helpers (values of 100 random add / sub as in their tests, rows);
 * backends; recorded hashes. */
#include <string.h>
#include "gadget_harness.h"
#include "gadgets/constraint.h"
#include "gadgets/insertion.h"
#include "test_util.h"

static cuzk_cs_t *new_cs(cuzk_cs_backend b)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, b, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    return cs;
}

static size_t constraints(const cuzk_cs_t *cs)
{
    cuzk_cs_counts_t c;
    cuzk_cs_counts(cs, &c);
    return c.num_constraints;
}

/* elements, then the position bits (allocated, least significant first), as the Rust tests do */
static void setup(cuzk_cs_t *cs, size_t nelem, size_t index, unsigned log_size, fr *vals, cuzk_num_t *el,
                  cuzk_boolean_t *bits)
{
    for (size_t i = 0; i < nelem; i++) {
        test_rand_fr(&vals[i]);
        el[i] = cuzk_num_alloc(cs, &vals[i]);
    }
    for (unsigned i = 0; i < log_size; i++)
        bits[i] = cuzk_boolean_from_bit(cuzk_bit_alloc(cs, (int)((index >> i) & 1)));
}

static void select_all(void)
{
    for (unsigned log_size = 1; log_size < 5; log_size++) {
        size_t size = (size_t)1 << log_size;
        for (size_t index = 0; index < size; index++) {
            cuzk_cs_t *cs = new_cs(CUZK_CS_TEST);
            fr vals[16];
            cuzk_num_t el[16];
            cuzk_boolean_t bits[4];
            setup(cs, size, index, log_size, vals, el, bits);
            CHECK(constraints(cs) == log_size);
            cuzk_num_t r = cuzk_insertion_select(cs, el, bits, log_size);
            CHECK(gh_satisfied(cs));
            CHECK_MSG(r.has_value && fr_eq(&r.value, &vals[index]), "select %zu of %zu", index, size);
            CHECK_MSG(constraints(cs) - log_size == size - 1, "select of %zu: %zu constraints", size,
                      constraints(cs) - log_size);
            CHECK(gh_breaks_changed(cs, r.var, false));
            CHECK(gh_breaks_changed(cs, bits[0].var, true));
            cuzk_cs_free(cs);
        }
    }
}

static void insert_all(void)
{
    for (unsigned log_size = 1; log_size <= 4; log_size++) {
        size_t size = (size_t)1 << log_size;
        size_t expected = size == 8 ? 22 : size == 4 ? 8 : size * (size - 1);
        for (size_t index = 0; index < size; index++) {
            cuzk_cs_t *cs = new_cs(CUZK_CS_TEST);
            fr vals[16], x;
            cuzk_num_t el[16], out[16];
            cuzk_boolean_t bits[4];
            setup(cs, size - 1, 0, 0, vals, el, bits);
            test_rand_fr(&x);
            cuzk_num_t elem = cuzk_num_alloc(cs, &x);
            for (unsigned i = 0; i < log_size; i++)
                bits[i] = cuzk_boolean_from_bit(cuzk_bit_alloc(cs, (int)((index >> i) & 1)));
            CHECK(constraints(cs) == log_size);
            cuzk_insertion_insert(cs, &elem, bits, log_size, el, out);
            CHECK(cuzk_cs_status(cs, NULL) == CUZK_OK && gh_satisfied(cs));
            CHECK_MSG(constraints(cs) - log_size == expected, "insert into %zu: %zu constraints, expected %zu", size,
                      constraints(cs) - log_size, expected);
            bool ok = out[index].has_value && fr_eq(&out[index].value, &x);
            for (size_t i = 0, j = 0; i < size; i++)
                if (i != index)
                    ok = ok && out[i].has_value && fr_eq(&out[i].value, &vals[j++]);
            CHECK_MSG(ok, "insert at %zu of %zu: values", index, size);
            /* every output is pinned */
            bool pinned = true;
            for (size_t i = 0; i < size; i++)
                pinned = pinned && gh_breaks_changed(cs, out[i].var, false);
            CHECK_MSG(pinned, "insert at %zu of %zu: an output can change", index, size);
            cuzk_cs_free(cs);
        }
    }
}

static void pick_and_misuse(void)
{
    /* pick: (b − a)·cond = b − c */
    cuzk_cs_t *cs = new_cs(CUZK_CS_RECORD);
    cuzk_num_t a = cuzk_num_alloc(cs, NULL), b = cuzk_num_alloc(cs, NULL);
    cuzk_bit_t c = cuzk_bit_alloc(cs, 0);
    cuzk_insertion_pick(cs, cuzk_boolean_not(cuzk_boolean_from_bit(c)), &a, &b);
    cuzk_cs_record_t rec;
    CHECK(cuzk_cs_take_record(cs, &rec, NULL) == CUZK_OK && rec.r1cs.num_constraints == 2);
    fr m1;
    fr_neg(&m1, &FR_ONE);
    const cuzk_csr_t *A = &rec.r1cs.a, *B = &rec.r1cs.b, *C = &rec.r1cs.c;
    /* columns: ONE 0, a 1, b 2, c 3, result 4 */
    CHECK(A->row_start[2] - A->row_start[1] == 2 && A->col[A->row_start[1]] == 1 &&
          fr_eq(&A->coeff[A->row_start[1]], &m1) && A->col[A->row_start[1] + 1] == 2 &&
          fr_eq(&A->coeff[A->row_start[1] + 1], &FR_ONE));
    CHECK(B->row_start[2] - B->row_start[1] == 2 && B->col[B->row_start[1]] == 0 && B->col[B->row_start[1] + 1] == 3 &&
          fr_eq(&B->coeff[B->row_start[1] + 1], &m1));
    CHECK(C->row_start[2] - C->row_start[1] == 2 && C->col[C->row_start[1]] == 2 && C->col[C->row_start[1] + 1] == 4 &&
          fr_eq(&C->coeff[C->row_start[1] + 1], &m1));
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(cs);

    /* size 8 needs allocated, unnegated low bits */
    cs = new_cs(CUZK_CS_COUNT);
    cuzk_num_t el[7], out[8];
    for (int i = 0; i < 7; i++)
        el[i] = cuzk_num_alloc(cs, NULL);
    cuzk_boolean_t bits[3] = {cuzk_boolean_from_bit(cuzk_bit_alloc(cs, 0)),
                              cuzk_boolean_not(cuzk_boolean_from_bit(cuzk_bit_alloc(cs, 0))),
                              cuzk_boolean_from_bit(cuzk_bit_alloc(cs, 0))};
    cuzk_insertion_insert(cs, &el[0], bits, 3, el, out);
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_status(cs, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "unnegated"));
    cuzk_cs_free(cs);
    cs = new_cs(CUZK_CS_COUNT);
    cuzk_insertion_select(cs, el, bits, 40);
    CHECK(cuzk_cs_status(cs, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(cs);
    /* a select of one element is that element, for free */
    cs = new_cs(CUZK_CS_TEST);
    fr v;
    test_rand_fr(&v);
    a = cuzk_num_alloc(cs, &v);
    cuzk_num_t r = cuzk_insertion_select(cs, &a, NULL, 0);
    CHECK(r.var.id == a.var.id && constraints(cs) == 0);
    cuzk_cs_free(cs);
}

static void constraint_helpers(void)
{
    /* storage-proofs-core constraint.rs tests: 100 random add / sub */
    for (int it = 0; it < 100; it++) {
        cuzk_cs_t *cs = new_cs(CUZK_CS_TEST);
        fr va, vb, want;
        test_rand_fr(&va), test_rand_fr(&vb);
        cuzk_num_t a = cuzk_num_alloc(cs, &va), b = cuzk_num_alloc(cs, &vb);
        cuzk_num_t s = cuzk_constraint_add(cs, &a, &b), d = cuzk_constraint_sub(cs, &a, &b);
        fr_add(&want, &va, &vb);
        CHECK(s.has_value && fr_eq(&s.value, &want));
        fr_sub(&want, &va, &vb);
        CHECK(d.has_value && fr_eq(&d.value, &want));
        cuzk_num_t e = cuzk_encode(cs, &a, &b), back = cuzk_decode(cs, &a, &e);
        CHECK(back.has_value && fr_eq(&back.value, &vb));
        cuzk_constraint_equal(cs, &back, &b);
        CHECK(gh_satisfied(cs) && constraints(cs) == 5);
        if (it < 5) {
            CHECK(gh_breaks_changed(cs, s.var, false) && gh_breaks_changed(cs, d.var, false));
            CHECK(gh_breaks_changed(cs, back.var, false));
        }
        cuzk_cs_free(cs);
    }
    /* rows: equal a·ONE = b; sum (a + b)·ONE = s; difference (d + b)·ONE = a */
    cuzk_cs_t *cs = new_cs(CUZK_CS_RECORD);
    cuzk_num_t a = cuzk_num_alloc(cs, NULL), b = cuzk_num_alloc(cs, NULL), c = cuzk_num_alloc(cs, NULL);
    cuzk_constraint_equal(cs, &a, &b);
    cuzk_constraint_sum(cs, &a, &b, &c);
    cuzk_constraint_difference(cs, &a, &b, &c);
    cuzk_cs_record_t rec;
    CHECK(cuzk_cs_take_record(cs, &rec, NULL) == CUZK_OK);
    const cuzk_csr_t *A = &rec.r1cs.a, *B = &rec.r1cs.b, *C = &rec.r1cs.c;
    CHECK(A->row_start[1] == 1 && A->col[0] == 1 && C->col[C->row_start[0]] == 2);
    CHECK(A->row_start[2] - A->row_start[1] == 2 && A->col[1] == 1 && A->col[2] == 2 && C->col[C->row_start[1]] == 3);
    CHECK(A->row_start[3] - A->row_start[2] == 2 && A->col[3] == 2 && A->col[4] == 3 && C->col[C->row_start[2]] == 1);
    for (int k = 0; k < 3; k++)
        CHECK(B->row_start[k + 1] - B->row_start[k] == 1 && B->col[B->row_start[k]] == 0);
    for (uint64_t t = 0; t < A->row_start[3]; t++)
        CHECK(fr_eq(&A->coeff[t], &FR_ONE));
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(cs);
}

typedef struct {
    unsigned log_size;
    size_t index;
    fr vals[16];
} ins_params;

static void ins_circuit(cuzk_cs_t *cs, const void *vp)
{
    const ins_params *p = vp;
    size_t size = (size_t)1 << p->log_size;
    cuzk_num_t el[16], out[16];
    for (size_t i = 0; i + 1 < size; i++)
        el[i] = cuzk_num_alloc(cs, &p->vals[i]);
    cuzk_num_t x = cuzk_num_alloc(cs, &p->vals[15]);
    cuzk_boolean_t bits[4];
    for (unsigned i = 0; i < p->log_size; i++)
        bits[i] = cuzk_boolean_from_bit(cuzk_bit_alloc(cs, (int)((p->index >> i) & 1)));
    cuzk_insertion_insert(cs, &x, bits, p->log_size, el, out);
    cuzk_num_t s = cuzk_insertion_select(cs, out, bits, p->log_size);
    cuzk_constraint_equal(cs, &s, &x);
}

int main(void)
{
    test_init("test_insertion");
    select_all();
    insert_all();
    pick_and_misuse();
    constraint_helpers();
    /* Our own recorded hashes (not published ones) of insert + select + equal, by size. */
    static const char *const want[5] = {NULL, "b84e24c9773a88702917fd5b3a14b8c71d5096e7bee78c636c3fcb66a4d6494d",
                                        "31e8b1e1a1c01d95def64f31a1b2b4e776e0c5b0905c5bffe2a49497d19b9ab4",
                                        "0f31aed2e61c1c343ec9d9b40c27bcb42e7f8cd806b947d6a65ef91c52489f46",
                                        "8c2ac1916cd57674652847f3f429eaa6873710180e5b844da5e95b95e73f0196"};
    for (unsigned ls = 1; ls <= 4; ls++) {
        ins_params p = {ls, test_rand_below((uint64_t)1 << ls), {{{0}}}};
        for (int i = 0; i < 16; i++)
            test_rand_fr(&p.vals[i]);
        cuzk_cs_counts_t c;
        char h[65];
        if (ls == 3)
            gh_check_all_strategies("insert-8", ins_circuit, &p, &c, h);
        else
            gh_check_backends("insert", ins_circuit, &p, CUZK_LC_DEFAULT, &c, h);
        printf("insert-%u hash %s\n", 1u << ls, h);
        CHECK_MSG(strcmp(h, want[ls]) == 0, "insert-%u hash changed: %s", 1u << ls, h);
    }
    return test_finish();
}
