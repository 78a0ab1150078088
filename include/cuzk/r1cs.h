/* A rank-1 constraint system as sparse matrices: A·z ∘ B·z = C·z, z = (inputs, aux), in two forms:
 * compressed sparse rows with full coefficients (cuzk_r1cs_t: circom's .r1cs reader produces it, the
 * Groth16 setup consumes it, cuzk_r1cs_eval evaluates it) and the compact form the record backend
 * builds (cuzk_r1cs_compact_t: coefficient tables, cuzk_r1cs_compact_eval), which expands to the first.
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

/* ---- The compact form the record backend builds ------------------------------------------------
 * The same matrices with each coefficient an index into a table of the matrix's distinct values
 * (most are ±1 or small powers of two; Poseidon's constants are a bounded set) and row lengths in a
 * byte: about 4 + 2 (or 1) + 1.1/(terms per row) bytes per non-zero instead of 36 + 8/(terms per row),
 * so that a 32GiB PoRep partition (722 million non-zeros) is recorded in about 5 GB instead of 26.
 *
 * Rows: row r has row_len[r] terms, or, when row_len[r] is CUZK_CMAT_LONG_ROW, the length given by
 * the pair (r, length) of long_rows (pairs sorted by row, one for each such row and no other; length
 * >= CUZK_CMAT_LONG_ROW). Terms are stored row after row; block_start[i] is the index of the first term
 * of row CUZK_CMAT_BLOCK·i, so that threads start at any block, and block_start[blocks] = nnz, with
 * blocks = ceil(rows / CUZK_CMAT_BLOCK). A term is a column (as cuzk_csr_t: strictly increasing within a
 * row, below num_inputs + num_aux) and an index into table: idx8 when table_len <= 256, else idx16
 * (the other pointer is NULL). table[0] = 1 and table[1] = −1 always (the evaluation adds or subtracts
 * those without a multiplication), then the other values in the order first met; every entry is
 * canonical Montgomery form, non-zero, and distinct. A matrix with more than CUZK_CMAT_MAX_TABLE distinct
 * values cannot be recorded (the record backend fails with CUZK_ERR_UNSUPPORTED, naming the matrix):
 * then prove by the direct backend. Ownership, threading: as cuzk_r1cs_t (cuzk_r1cs_compact_free). */
#define CUZK_CMAT_BLOCK 64
#define CUZK_CMAT_LONG_ROW 255
#define CUZK_CMAT_MAX_TABLE 65536

typedef struct {
    uint64_t nnz;
    uint64_t *block_start; /* blocks + 1 entries */
    uint8_t *row_len;      /* rows entries */
    uint64_t *long_rows;   /* 2·num_long entries: row, length */
    size_t num_long;
    uint32_t *col;         /* nnz entries */
    uint8_t *idx8;         /* nnz entries when table_len <= 256, else NULL */
    uint16_t *idx16;       /* nnz entries when table_len > 256, else NULL */
    cuzk_fr_t *table;      /* table_len entries, Montgomery form */
    size_t table_len;      /* 2 .. CUZK_CMAT_MAX_TABLE */
} cuzk_cmat_t;

typedef struct {
    size_t num_inputs; /* including ONE */
    size_t num_aux;
    size_t num_constraints;
    cuzk_cmat_t a, b, c;
} cuzk_r1cs_compact_t;

/* Frees the arrays and zeroes *m (NULL-safe). */
CUZK_API void cuzk_r1cs_compact_free(cuzk_r1cs_compact_t *m);
/* Bytes the arrays of m hold (what a memory budget charges for it). */
CUZK_API size_t cuzk_r1cs_compact_bytes(const cuzk_r1cs_compact_t *m);
/* The same matrices in compressed sparse rows, into a fresh *out (the caller's: cuzk_r1cs_free), for
 * consumers of the full form (the Groth16 setup, small circuits: 36 bytes per non-zero).
 * CUZK_ERR_NO_MEMORY (nothing allocated). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_r1cs_compact_expand(const cuzk_r1cs_compact_t *m, cuzk_r1cs_t *out, cuzk_err_t *err);
/* A·z, B·z, C·z for every row (z = input ‖ aux), blocks of rows split over `threads` threads (1: the
 * caller's only; <= 0: every online CPU); ±1 coefficients cost an addition or a subtraction. a, b and c
 * have num_constraints entries each; any of them may be NULL (that product is skipped: the prover that
 * rebuilds C·z as A·z ∘ B·z needs only a and b, written straight into its domain-sized buffers). */
CUZK_API void cuzk_r1cs_compact_eval(const cuzk_r1cs_compact_t *m, const cuzk_fr_t *input, const cuzk_fr_t *aux,
                                     cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c, int threads);

#ifdef __cplusplus
}
#endif
#endif
