/* Internal helpers shared by the Groth16 prover, verifier and setup. */
#ifndef CUZK_GROTH16_INTERNAL_H
#define CUZK_GROTH16_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/groth16.h"
#include "ff/fr.h"

/* cuzk_groth16_prove with the blinding (r, s) given instead of drawn from getrandom (both or neither:
 * NULL, NULL is cuzk_groth16_prove itself): for known-answer tests against other provers. */
cuzk_status g16_prove_blinded(cuzk_groth16_proof_t *proofs, const cuzk_groth16_pk_t *pk,
                              const cuzk_groth16_witness_t *witnesses, size_t n, const cuzk_groth16_prove_opts *opts,
                              const fr *fixed_r, const fr *fixed_s, cuzk_err_t *err);

/* A uniformly random Fr element from the OS CSPRNG (getrandom), by rejection sampling. */
cuzk_status g16_random_fr(fr *out, cuzk_err_t *err);

/* Overwrites n bytes with zeros in a way the compiler cannot drop (for secrets). */
void g16_wipe(void *p, size_t n);

/* log2 of the smallest power of two >= rows (rows >= 1); 0 when rows is 1. */
unsigned g16_log2_ceil(size_t rows);

/* Number of set bits among the first nbits of a bitmap. */
size_t g16_popcount(const uint64_t *bits, size_t nbits);

/* Converts n Montgomery elements to canonical scalars, threaded (out may alias in). */
void g16_to_scalars(cuzk_scalar_t *out, const fr *in, size_t n, int threads);
/* out[i] = in[source[i]] as scalars (source NULL: in[i]); out must not overlap in unless source is NULL. */
void g16_to_scalars_gather(cuzk_scalar_t *out, const fr *in, const uint32_t *source, size_t n, int threads);

/* Computes the H polynomial of one witness in a (size 2^log_m; b and c are scratch of the same
 * size): bellperson's coefficients of (A·B − C)/Z (CUZK_GROTH16_H_COSET, entries 0..m−2 used) or
 * snarkjs's evaluations of A·B − C on the odd 2m-th roots (CUZK_GROTH16_H_ODD_ROOTS, all m).
 * row_position as in cuzk_groth16_prove_opts (already validated). */
cuzk_status g16_h_compute(fr *a, fr *b, fr *c, unsigned log_m, const cuzk_groth16_witness_t *w,
                          cuzk_groth16_h_mode mode, const uint32_t *row_position, int threads);

#endif
