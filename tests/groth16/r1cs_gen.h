/* Random satisfiable R1CS instances for the Groth16 tests, built directly as matrices (independent
 * of the constraint-system layer), with a dense evaluator used as the tests' reference. */
#ifndef CUZK_TEST_R1CS_GEN_H
#define CUZK_TEST_R1CS_GEN_H
#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"

typedef struct {
    cuzk_r1cs_t r1cs;
    cuzk_fr_t *z;                   /* inputs then aux; z[0] = 1 */
    cuzk_fr_t *a, *b, *c;           /* A·z, B·z, C·z per row */
    uint64_t *a_aux, *b_in, *b_aux; /* densities */
    cuzk_groth16_witness_t w;       /* points into the arrays above */
} test_circuit;

/* num_inputs includes ONE. Every aux is constrained; some appear only in A, only in B, only in C. */
void test_circuit_random(test_circuit *tc, size_t num_inputs, size_t num_aux, size_t num_constraints);
void test_circuit_free(test_circuit *tc);

#endif
