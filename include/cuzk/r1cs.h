/* A rank-1 constraint system as sparse matrices: A·z ∘ B·z = C·z, z = (inputs, aux).
 * The record constraint system produces it, circom's .r1cs reader produces it, and the Groth16
 * setup consumes it; cuzk_r1cs_eval turns it plus an assignment into the prover's a, b, c.
 *
 * Ownership: the arrays of a cuzk_r1cs_t are malloc'd by whoever produced it (the record backend,
 * the .r1cs reader) and belong to the holder of the struct, who releases them with cuzk_r1cs_free
 * (or the producer's own free function). Threading: an r1cs is only read once built, and may then
 * be read by several threads at once. Errors: none (cuzk_r1cs_free cannot fail).
 */
#ifndef CUZK_R1CS_H
#define CUZK_R1CS_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/field.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One matrix in compressed sparse rows. Row k's terms are col[row_start[k] .. row_start[k+1]).
 * A column is a variable index in z: inputs 0 .. num_inputs−1 (0 is ONE), then aux j at
 * num_inputs + j. Within a row the columns are distinct and no coefficient is zero (bellpepper's
 * merged, zero-dropped linear combination), in the order bellpepper keeps them. */
typedef struct {
    uint64_t *row_start; /* rows + 1 entries, row_start[0] = 0 */
    uint32_t *col;
    cuzk_fr_t *coeff;    /* Montgomery form */
} cuzk_csr_t;

/* The constraints a circuit enforced, in enforce order. The Groth16 input constraints
 * (Input(i)·0 = 0, one per input) are NOT rows here: setup and prover append them. */
typedef struct {
    size_t num_inputs;      /* including ONE */
    size_t num_aux;
    size_t num_constraints; /* rows of a, b and c */
    cuzk_csr_t a, b, c;
} cuzk_r1cs_t;

/* Frees the matrices' arrays and zeroes *r1cs (NULL-safe). */
CUZK_API void cuzk_r1cs_free(cuzk_r1cs_t *r1cs);

#ifdef __cplusplus
}
#endif
#endif
