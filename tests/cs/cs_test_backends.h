/* Helpers of the circuit tests that run one synthesis on every backend: a fresh system, the test
 * backend's first unsatisfied constraint, the constraint count, and one backend's finished system checked
 * against the test backend's (TestConstraintSystem, the reference every other backend must agree with).
 * Test-only, static; shared by the PoSt and SnapDeals circuit and gadget tests. */
#ifndef CUZK_TESTS_CS_TEST_BACKENDS_H
#define CUZK_TESTS_CS_TEST_BACKENDS_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "cuzk/cs.h"
#include "ff/fr.h"
#include "test_util.h"

/* The backends a circuit test compares with the test backend. */
static const cuzk_cs_backend cs_test_other_backends[] = {CUZK_CS_COUNT, CUZK_CS_WITNESS, CUZK_CS_RECORD,
                                                         CUZK_CS_DIRECT, CUZK_CS_CHECK};
#define CS_TEST_OTHER_BACKENDS (sizeof cs_test_other_backends / sizeof cs_test_other_backends[0])

/* Whether backend b keeps the assignment (count and record do not). */
static inline bool cs_test_backend_has_values(cuzk_cs_backend b)
{
    return b != CUZK_CS_COUNT && b != CUZK_CS_RECORD;
}

static inline cuzk_cs_t *cs_test_new(cuzk_cs_backend b)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, b, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    return cs;
}

/* The first unsatisfied constraint of a test or check system, -1 when satisfied (-2 when it cannot say). */
static inline int64_t cs_test_unsatisfied(const cuzk_cs_t *cs)
{
    int64_t u = -2;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_cs_test_unsatisfied(cs, &u, &err) == CUZK_OK, "%s", err.msg);
    return u;
}

static inline size_t cs_test_num_constraints(const cuzk_cs_t *cs)
{
    cuzk_cs_counts_t c;
    cuzk_cs_counts(cs, &c);
    return c.num_constraints;
}

/* cs, a satisfied synthesis on one of cs_test_other_backends, against tst, the same on the test backend:
 * the same counts, densities where cs keeps them, the same assignment where it keeps one, every direct row
 * A·z ∘ B·z = C·z, and a check system satisfied. name says which circuit in a failure. */
static inline void cs_test_agrees_with_test(const char *name, cuzk_cs_t *cs, const cuzk_cs_t *tst)
{
    cuzk_cs_backend b = cuzk_cs_get_backend(cs);
    cuzk_cs_counts_t c, ct;
    cuzk_cs_counts(cs, &c);
    cuzk_cs_counts(tst, &ct);
    CHECK_MSG(c.num_inputs == ct.num_inputs && c.num_aux == ct.num_aux && c.num_constraints == ct.num_constraints,
              "%s: backend %d counts", name, (int)b);
    if (c.has_density)
        CHECK_MSG(c.a_aux_density == ct.a_aux_density && c.b_input_density == ct.b_input_density &&
                      c.b_aux_density == ct.b_aux_density && c.nnz_a == ct.nnz_a && c.nnz_b == ct.nnz_b &&
                      c.nnz_c == ct.nnz_c,
                  "%s: backend %d densities", name, (int)b);
    if (cs_test_backend_has_values(b))
        CHECK_MSG(memcmp(cuzk_cs_aux(cs), cuzk_cs_aux(tst), c.num_aux * sizeof(fr)) == 0 &&
                      memcmp(cuzk_cs_inputs(cs), cuzk_cs_inputs(tst), c.num_inputs * sizeof(fr)) == 0,
                  "%s: backend %d values", name, (int)b);
    if (b == CUZK_CS_DIRECT) {
        cuzk_groth16_witness_t gw;
        CHECK(cuzk_cs_groth16_witness(cs, &gw, NULL) == CUZK_OK);
        bool hold = true;
        for (size_t r = 0; r < gw.num_constraints && hold; r++) {
            fr ab;
            fr_mul(&ab, &gw.a[r], &gw.b[r]);
            hold = fr_eq(&ab, &gw.c[r]);
        }
        CHECK_MSG(hold, "%s: direct rows", name);
    }
    if (b == CUZK_CS_CHECK)
        CHECK_MSG(cs_test_unsatisfied(cs) == -1, "%s: check backend", name);
}

#endif
