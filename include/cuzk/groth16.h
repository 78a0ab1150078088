/* Groth16 over BLS12-381, bellperson-compatible: keys, prover, verifier, development setup.
 * Facts: bellperson src/groth16/{prover,verifier,generator}.rs (see docs/FORMATS.md).
 *
 * Ownership: keys made by cuzk_groth16_setup are the caller's (cuzk_groth16_pk_free, and
 * cuzk_groth16_vk_free for a verifying key alone); keys lent by a cuzk_params_t or a cuzk_zkey_t
 * die with their owner and are never freed here. A prepared key (cuzk_groth16_pvk_new) copies what
 * it needs from the vk and is freed with cuzk_groth16_pvk_free. Witnesses, proofs and inputs are the
 * caller's and only read (proofs written). Every _free function accepts NULL.
 * Threading: a key, a prepared key and a witness are only read by prove and verify, so any number
 * of proofs and verifications may run at once on shared keys; each call joins its worker threads
 * before it returns; should_stop is called from the calling thread only.
 * Errors, besides those listed with each call: CUZK_ERR_INVALID_ARG for NULL arrays, negative
 * threads or unknown options; CUZK_ERR_NO_MEMORY; CUZK_ERR_IO when the system's random source
 * (getrandom) fails (prove, verify_batch, setup); cuzk_groth16_prove also CUZK_ERR_UNSUPPORTED for a
 * circuit larger than the largest domain (2^27 rows) and CUZK_ERR_CANCELLED; cuzk_groth16_verify
 * and _verify_batch CUZK_ERR_MISMATCH when the number of public inputs differs from the key's and
 * CUZK_ERR_NOT_CANONICAL for an input >= r (an invalid proof is CUZK_OK with *valid false);
 * cuzk_groth16_setup CUZK_ERR_UNSUPPORTED for a circuit larger than the largest domain.
 */
#ifndef CUZK_GROTH16_H
#define CUZK_GROTH16_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/curve.h"
#include "cuzk/field.h"
#include "cuzk/r1cs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_GROTH16_PROOF_BYTES 192 /* compressed a (48) || b (96) || c (48) */

typedef struct {
    cuzk_g1_affine_t alpha_g1, beta_g1;
    cuzk_g2_affine_t beta_g2, gamma_g2;
    cuzk_g1_affine_t delta_g1;
    cuzk_g2_affine_t delta_g2;
    cuzk_g1_affine_t *ic; /* one per input, ONE included: (β·u_i + α·v_i + w_i)/γ */
    size_t ic_len;
} cuzk_groth16_vk_t;

/* A decoded proving key (bellperson's Parameters). The a / b_g1 / b_g2 arrays are compact as in
 * bellperson: only variables with a non-zero A (resp. B) polynomial have a point, inputs first.
 * The arrays are owned by the key (cuzk_groth16_pk_free) unless the loader says otherwise. */
typedef struct {
    cuzk_groth16_vk_t vk;
    cuzk_g1_affine_t *h;    /* h_len = m − 1 (bellperson) or m (snarkjs), m = domain size */
    cuzk_g1_affine_t *l;    /* one per aux variable */
    cuzk_g1_affine_t *a;
    cuzk_g1_affine_t *b_g1;
    cuzk_g2_affine_t *b_g2;
    size_t h_len, l_len, a_len, b_g1_len, b_g2_len;
} cuzk_groth16_pk_t;

/* Frees every array of the key and zeroes it (NULL-safe). */
CUZK_API void cuzk_groth16_pk_free(cuzk_groth16_pk_t *pk);
CUZK_API void cuzk_groth16_vk_free(cuzk_groth16_vk_t *vk);

/* An opened .params file (cuzk/params.h). */
typedef struct cuzk_params cuzk_params_t;

typedef struct {
    cuzk_g1_affine_t a;
    cuzk_g2_affine_t b;
    cuzk_g1_affine_t c;
} cuzk_groth16_proof_t;

/* 192 bytes: compressed a, b, c (bellperson Proof::write). */
CUZK_API void cuzk_groth16_proof_write(uint8_t out[CUZK_GROTH16_PROOF_BYTES], const cuzk_groth16_proof_t *p);
/* Checked decode (on curve, in subgroup); the point at infinity is rejected as bellperson does
 * (CUZK_ERR_FORMAT). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_groth16_proof_read(cuzk_groth16_proof_t *p, const uint8_t in[CUZK_GROTH16_PROOF_BYTES],
                                    cuzk_err_t *err);

/* Several proofs (the partitions of one sector, in partition order) are their encodings one after
 * the other (bellperson MultiProof::write): n·192 bytes. */
CUZK_API void cuzk_groth16_proofs_write(uint8_t *out, const cuzk_groth16_proof_t *proofs, size_t n);
/* Decodes exactly len bytes into n = len/192 proofs (len not a multiple of 192, or n > max:
 * CUZK_ERR_BAD_LENGTH); each is checked as cuzk_groth16_proof_read, the message names the first bad
 * one. *n_out is set on success. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_groth16_proofs_read(cuzk_groth16_proof_t *proofs, size_t max, size_t *n_out,
                                     const uint8_t *in, size_t len, cuzk_err_t *err);

/* What the prover needs from one synthesized circuit. The values are Montgomery Fr elements.
 * a, b, c hold A·z, B·z, C·z for the num_constraints synthesized rows (the prover appends the
 * input rows a = input[i], b = c = 0 itself). A density bitmap has bit j set (word j/64, bit j%64)
 * when variable j has a non-zero coefficient in some row of that matrix; NULL means every bit set
 * (used for keys whose arrays are not compact, e.g. snarkjs's). */
typedef struct {
    size_t num_inputs; /* including ONE; input[0] must be 1 */
    size_t num_aux;
    size_t num_constraints;
    const cuzk_fr_t *a, *b; /* A·z, B·z per constraint */
    const cuzk_fr_t *c;     /* C·z, or NULL: A·z ∘ B·z, what C·z is on a satisfying assignment (the
                             * direct backend's cuzk_cs_omit_c) */
    const cuzk_fr_t *input;
    const cuzk_fr_t *aux;
    const uint64_t *a_aux_density;   /* num_aux bits */
    const uint64_t *b_input_density; /* num_inputs bits */
    const uint64_t *b_aux_density;   /* num_aux bits */
} cuzk_groth16_witness_t;

typedef enum {
    /* bellperson: H = ((a·b − c)/Z) on the coset 7·D, h_len = m − 1 */
    CUZK_GROTH16_H_COSET = 0,
    /* snarkjs: a·b − c evaluated on the odd powers of the 2m-th root of unity, no division
     * (the key's h points absorb Z = −2), h_len = m */
    CUZK_GROTH16_H_ODD_ROOTS = 1,
} cuzk_groth16_h_mode;

typedef struct {
    int threads;                   /* >= 0; 0 = every online CPU */
    cuzk_groth16_h_mode h_mode;
    /* Optional: domain position of each row (num_constraints + num_inputs entries, a permutation
     * of part of 0..m−1), for keys built over another choice of root of unity; NULL = row k at
     * position k. */
    const uint32_t *row_position;
    /* Optional: for keys whose h points are in another order, point i of pk->h multiplies the H
     * value at position h_source[i] (a permutation of 0..h_len−1); NULL = point i with value i. */
    const uint32_t *h_source;
    /* Optional: polled before each phase of each proof (H, each MSM); when it returns true the
     * prover stops there with CUZK_ERR_CANCELLED (discard the proofs array then). Called from the
     * calling thread only. NULL = never stop. */
    bool (*should_stop)(void *stop_arg);
    void *stop_arg;
    /* Optional: the opened parameter file pk is (cuzk_params_key of it). A section whose array is
     * NULL in pk is then decoded from the file piece by piece during its MSM, each piece's file pages
     * dropped from the process once decoded, so that the key's points are never in memory whole
     * (no cuzk_params_load needed; the file may have been opened with any check level). Decoding
     * errors are the loader's (cuzk_params_load). NULL = every array of pk must be set. The object
     * is only read through its lock: several proofs may stream from one cuzk_params_t at once. */
    cuzk_params_t *params;
    /* Scalars per piece when streaming from params (0 = 2^24). A piece takes no more bases than fill
     * the bytes of that many G1 points (1.5 GiB at 2^24; half as many of b_g2's G2 points): see
     * cuzk_groth16_stream_piece_bytes. Smaller pieces hold less memory and make the MSMs a little slower. */
    size_t stream_points;
} cuzk_groth16_prove_opts;

/* The most bytes one streamed piece of a key holds decoded (the prover's buffer for it, beside the
 * witness), for stream_points as in cuzk_groth16_prove_opts (0: the default), G1 sections of at most
 * g1_points bases and a b_g2 section of g2_points: what a memory budget counts for streaming. Pure. */
CUZK_API uint64_t cuzk_groth16_stream_piece_bytes(size_t stream_points, uint64_t g1_points, uint64_t g2_points);

/* Proves n circuits that share one key: proofs[k] from witnesses[k]. Every witness must match
 * the key (lengths, density counts against the compact arrays): otherwise CUZK_ERR_MISMATCH with
 * a message naming the first difference, and no proof is written. r and s are drawn per proof
 * from getrandom and wiped after use. With CUZK_TIMING=1 in the environment each phase prints a
 * `CUZK_TIMING: phase=<name> ms=<value>` line on stderr. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_groth16_prove(cuzk_groth16_proof_t *proofs, const cuzk_groth16_pk_t *pk,
                               const cuzk_groth16_witness_t *witnesses, size_t n,
                               const cuzk_groth16_prove_opts *opts, cuzk_err_t *err);

/* A witness whose memory the prover may take over (cuzk_groth16_prove_consume): the same
 * values as cuzk_groth16_witness_t with C·z omitted (a satisfying assignment's A·z ∘ B·z), but a
 * and b are arrays of `capacity` elements (at least the domain size: the power of two >=
 * num_constraints + num_inputs) that become the prover's domain buffers, and aux becomes the MSMs'
 * scalars in place. When aux has room for the domain too (aux_capacity elements, 0 when unknown),
 * C·z is computed in it once those MSMs are done, instead of in an array of the prover's own. a, b
 * and aux must be anonymous memory (malloc, anonymous mmap): the prover releases their pages with
 * madvise(MADV_DONTNEED) as soon as it is done with them, which zeroes them; their allocations stay
 * the caller's to free. */
typedef struct {
    size_t num_inputs; /* including ONE; input[0] must be 1 */
    size_t num_aux;
    size_t num_constraints;
    cuzk_fr_t *a, *b; /* A·z, B·z per constraint, then room up to capacity */
    size_t capacity;
    const cuzk_fr_t *input;
    cuzk_fr_t *aux;
    const uint64_t *a_aux_density;   /* num_aux bits */
    const uint64_t *b_input_density; /* num_inputs bits */
    const uint64_t *b_aux_density;   /* num_aux bits */
    size_t aux_capacity;             /* aux's elements, >= num_aux; 0: num_aux */
} cuzk_groth16_witness_consumable_t;

/* cuzk_groth16_prove of one circuit in the memory of its witness. The MSMs over the assignment (b_g1,
 * b_g2, l, a) run first, on aux's scalars; then H: C·z over the domain (32·2^log_m bytes) goes into
 * aux's memory when aux_capacity holds the domain, else into a buffer of the prover's own allocated
 * after aux's pages are released; C·z's and B·z's pages are released right after the pointwise
 * product, and A·z's buffer becomes H for the last MSM. Peak memory: a and b with aux and one
 * streamed piece of the key (with opts->params; else the whole key), or a and b with C·z, whichever
 * is larger. The same checks and errors as cuzk_groth16_prove, and CUZK_ERR_INVALID_ARG for a NULL
 * a or b, a capacity below the domain size, an aux_capacity below num_aux (other than 0) or a
 * row_position in opts (rows are placed where they are: row k at position k); a call refused by
 * these checks leaves the witness as it was. Once they pass, whatever the call returns (a
 * cancellation, an MSM error), the contents of w->a, w->b and w->aux are gone (zeroed or
 * meaningless): the witness cannot be proved again. w->input and the densities are only read. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_groth16_prove_consume(cuzk_groth16_proof_t *proof, const cuzk_groth16_pk_t *pk,
                                       cuzk_groth16_witness_consumable_t *w,
                                       const cuzk_groth16_prove_opts *opts, cuzk_err_t *err);

/* A verifying key prepared for verification: e(α, β) and the G2 line coefficients of −γ and −δ. */
typedef struct cuzk_groth16_pvk cuzk_groth16_pvk_t;
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_groth16_pvk_new(cuzk_groth16_pvk_t **pvk, const cuzk_groth16_vk_t *vk);
CUZK_API void cuzk_groth16_pvk_free(cuzk_groth16_pvk_t *pvk);

/* Checks e(A,B) = e(α,β)·e(Σ ic_i·x_i, γ)·e(C,δ), x_0 = 1 and x_i = inputs[i−1]. *valid is set
 * on CUZK_OK; an error status (wrong input count, non-canonical input) leaves it false. The proof's
 * points must be in their subgroups, as cuzk_groth16_proof_read (or the prover) guarantees. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_groth16_verify(bool *valid, const cuzk_groth16_pvk_t *pvk,
                                const cuzk_groth16_proof_t *proof, const cuzk_scalar_t *inputs,
                                size_t n_inputs, cuzk_err_t *err);
/* Batch verification of n proofs under one key (random linear combination, one multi-pairing).
 * inputs holds n × n_inputs scalars, proof k's at inputs + k·n_inputs. *valid is true only if
 * every proof is valid (false positives with probability about n/2^128). */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_groth16_verify_batch(bool *valid, const cuzk_groth16_pvk_t *pvk,
                                      const cuzk_groth16_proof_t *proofs, const cuzk_scalar_t *inputs,
                                      size_t n_inputs, size_t n, cuzk_err_t *err);

/* Fresh random parameters for r1cs (τ, α, β, γ, δ from getrandom, then wiped). FOR TESTS AND
 * DEVELOPMENT ONLY: whoever runs it knows the toxic waste; this is not a trusted setup. The key
 * has bellperson's layout (compact a / b arrays, h_len = m − 1). */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_groth16_setup(cuzk_groth16_pk_t *pk, const cuzk_r1cs_t *r1cs, int threads,
                               cuzk_err_t *err);

#ifdef __cplusplus
}
#endif
#endif
