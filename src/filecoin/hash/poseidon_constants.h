/* Poseidon constants as neptune derives them for BLS12-381 Fr (Strength::Standard): round numbers,
 * Grain LFSR round constants, the Cauchy MDS matrix, and the optimized schedule (compressed round
 * constants, pre-sparse and sparse matrices) that neptune's hash and legacy circuit consume. */
#ifndef CUZK_FILECOIN_POSEIDON_CONSTANTS_H
#define CUZK_FILECOIN_POSEIDON_CONSTANTS_H
#include <stdbool.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "ff/fr.h"

/* neptune implements arities 1..36 (typenum U1..U36); Filecoin uses 2, 4, 8, 11, 16, 24 and 36. */
#define CUZK_POSEIDON_MAX_ARITY 36u
#define CUZK_POSEIDON_MAX_WIDTH (CUZK_POSEIDON_MAX_ARITY + 1u)

/* Everything for one arity; matrices are row-major (m[i·width + j] is row i, column j).
 * Built once per arity and never freed: callers keep the pointer for the process lifetime. */
typedef struct {
    unsigned arity, width;               /* width t = arity + 1 */
    unsigned full_rounds;                /* R_F (8 for every arity) */
    unsigned half_full_rounds;           /* R_F / 2 */
    unsigned partial_rounds;             /* R_P */
    fr merkle_tag;                       /* HashType::MerkleTree domain tag: 2^arity − 1 */
    const fr *round_constants;           /* (R_F + R_P)·t Grain constants, t per round */
    const fr *mds;                       /* t×t Cauchy matrix, M[i][j] = 1/(i + t + j) */
    const fr *mds_inv;                   /* M⁻¹ */
    const fr *compressed_round_constants; /* R_F·t + R_P, neptune's OptimizedStatic order */
    const fr *pre_sparse;                /* t×t, used after the last initial full round */
    const fr *sparse_w_hat;              /* R_P rows of t: first column of each sparse matrix */
    const fr *sparse_v_rest;             /* R_P rows of t − 1: rest of each first row */
} cuzk_poseidon_constants_t;

/* neptune's calc_round_numbers(t, security_margin = true): 128-bit security, 256-bit prime length,
 * evaluated in single precision as the reference does. */
void cuzk_poseidon_round_numbers(unsigned width, unsigned *full_rounds, unsigned *partial_rounds);

/* The (full_rounds + partial_rounds)·width Grain LFSR constants (field 1, S-box x^5, 255-bit field
 * size) into out, Montgomery form. */
void cuzk_poseidon_grain_constants(fr *out, unsigned width, unsigned full_rounds, unsigned partial_rounds);

/* The constants of an arity, computed on first use (thread-safe) and cached. CUZK_ERR_INVALID_ARG for
 * an arity outside 1..36, CUZK_ERR_NO_MEMORY. */
cuzk_status cuzk_poseidon_constants_get(const cuzk_poseidon_constants_t **out, unsigned arity, cuzk_err_t *err);
/* The same, NULL on failure: for callers that have validated the arity already. */
const cuzk_poseidon_constants_t *cuzk_poseidon_constants(unsigned arity);

/* Domain tags (neptune hash_type.rs). MerkleTree: 2^arity − 1 (arity 1..36). Custom(id): id·2^40,
 * id in 1..256 (SnapDeals uses id 1); CUZK_ERR_INVALID_ARG outside that range. */
void cuzk_poseidon_tag_merkle(fr *tag, unsigned arity);
cuzk_status cuzk_poseidon_tag_custom(fr *tag, uint64_t id, cuzk_err_t *err);

#endif
