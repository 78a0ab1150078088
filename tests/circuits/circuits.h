/* Example circuits written against cuzk/cs.h, shared by the tests of several areas (list the .c
 * files in cuzk_add_test). Each runs on every backend: values are computed only when the system
 * wants them, linear combinations are inert when it does not build them. */
#ifndef CUZK_TEST_CIRCUITS_H
#define CUZK_TEST_CIRCUITS_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"

/* x³ + x + 5 = out, out the one public input. aux: x, x², x³; 3 constraints:
 *   x · x = x²,  x² · x = x³,  (x³ + x + 5·ONE) · ONE = out. */
typedef struct {
    cuzk_fr_t x; /* Montgomery form */
} circuit_cubic_params;
void circuit_cubic_synthesize(cuzk_cs_t *cs, const circuit_cubic_params *p);

/* Bit decomposition of a public value: input 1 = value; aux b_0..b_{n−1} (bit i of value), then
 * an aux z = 0 that only ever appears with a zero coefficient. Constraints: n boolean constraints
 * (ONE − b_i)·b_i = 0 (bellpepper AllocatedBit), the packing (Σ 2^i·b_i + 0·z)·ONE = value with
 * every term added in two pieces and in descending order (duplicates merge, middle inserts), and
 * b_0·(value − value + ONE) = b_0 (value cancels out of B). Densities: a_aux = b_aux = n,
 * b_input = 1 (ONE only). */
typedef struct {
    uint64_t value;
    unsigned nbits; /* 1..64; bits of value above nbits are ignored */
} circuit_bits_params;
void circuit_bits_synthesize(cuzk_cs_t *cs, const circuit_bits_params *p);

/* A seeded random satisfiable circuit. Public inputs: half allocated first, the rest after half
 * of the constraints (so inputs and constraints interleave); input 1 never appears in B. aux:
 * num_aux free variables, then aux_only_a / _b / _c (each used in exactly that matrix) and
 * aux_unused (never used), then one fresh aux w_k per constraint k. Constraint k: random A and B
 * (up to max_terms terms each, with random, one, minus-one and zero coefficients, repeated
 * variables and cancelling pairs) and C = w_k + random terms, w_k solved so that it holds. The
 * structure depends only on the seed, never on whether values are computed. */
typedef struct {
    uint64_t seed;
    size_t num_inputs; /* public inputs besides ONE, >= 1 */
    size_t num_aux;    /* free aux variables, >= 1 */
    size_t num_constraints;
    unsigned max_terms; /* >= 1 */
} circuit_random_params;
void circuit_random_synthesize(cuzk_cs_t *cs, const circuit_random_params *p);
/* Indices of the special aux variables of that circuit. */
static inline size_t circuit_random_aux_only_a(const circuit_random_params *p) { return p->num_aux; }
static inline size_t circuit_random_aux_only_b(const circuit_random_params *p) { return p->num_aux + 1; }
static inline size_t circuit_random_aux_only_c(const circuit_random_params *p) { return p->num_aux + 2; }
static inline size_t circuit_random_aux_unused(const circuit_random_params *p) { return p->num_aux + 3; }
/* Every aux variable of that circuit: the free ones, the four special ones, one w_k per constraint. */
static inline size_t circuit_random_num_aux(const circuit_random_params *p)
{
    return p->num_aux + 4 + p->num_constraints;
}

#endif
