/* circom and snarkjs interoperability: circom's .r1cs and .wtns files, snarkjs's Groth16 .zkey
 * (BLS12-381 only), proving from zkey + witness with snarkjs's H semantics, and the snarkjs JSON files
 * (proof.json, public.json, verification_key.json). Formats: docs/FORMATS.md, "circom and snarkjs files".
 *
 * Ownership: every reader fills a caller's struct whose arrays it allocated: release them with the
 * matching free function (cuzk_circom_r1cs_free, cuzk_wtns_free, cuzk_zkey_free, cuzk_interop_vk_free,
 * cuzk_zkey_witness_free; *inputs of cuzk_snarkjs_public_read with free()); on failure nothing is
 * allocated. The key inside a cuzk_zkey_t is lent by it (never cuzk_groth16_pk_free it). The _json
 * functions return malloc'd strings the caller frees. Every _free function accepts NULL.
 * Threading: no shared mutable state: calls on distinct objects may run concurrently, and a loaded
 * zkey may be read by several provers at once; calls with a threads argument join their workers
 * before returning.
 * Errors: as listed with each call; every reader also returns CUZK_ERR_INVALID_ARG for NULL
 * required arguments (the snarkjs JSON readers: their arguments must not be NULL), CUZK_ERR_IO when
 * the file cannot be read and CUZK_ERR_NO_MEMORY; the writers CUZK_ERR_IO (no partial file) and
 * CUZK_ERR_NO_MEMORY; cuzk_zkey_prove returns what cuzk_zkey_witness and cuzk_groth16_prove return.
 */
#ifndef CUZK_INTEROP_H
#define CUZK_INTEROP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/curve.h"
#include "cuzk/field.h"
#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- circom .r1cs ----------------------------------------------------------------------------------
 * circom numbers wires 0 = ONE, then the public outputs, the public inputs, the private inputs and the
 * internal signals. The first 1 + n_outputs + n_pub_inputs wires are the Groth16 inputs, the rest are
 * aux, so a wire index is directly a column of cuzk_r1cs_t (input i = wire i, aux j = wire
 * num_inputs + j). circom's constraint A·B − C = 0 is the row A·z ∘ B·z = C·z. Repeated wires in one
 * linear combination are merged (coefficients added) and zero coefficients dropped; columns within a
 * row are sorted by wire. */
typedef struct {
    cuzk_r1cs_t r1cs;      /* num_inputs = 1 + n_outputs + n_pub_inputs, num_aux = n_wires − num_inputs */
    uint32_t n_wires;
    uint32_t n_outputs, n_pub_inputs, n_prv_inputs;
    uint64_t n_labels;
} cuzk_circom_r1cs_t;

/* Reads a circom .r1cs file (version 1, BLS12-381 scalar field). Errors: CUZK_ERR_IO (cannot open or
 * map), CUZK_ERR_FORMAT (bad magic, version, section table or sizes, wire index out of range, custom
 * gates), CUZK_ERR_MISMATCH (built for another curve), CUZK_ERR_NOT_CANONICAL (coefficient >= r),
 * CUZK_ERR_NO_MEMORY. *out is written only on success; free it with cuzk_circom_r1cs_free. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_circom_r1cs_read(cuzk_circom_r1cs_t *out, const char *path, cuzk_err_t *err);
CUZK_API void cuzk_circom_r1cs_free(cuzk_circom_r1cs_t *r);

/* ---- circom / snarkjs .wtns ------------------------------------------------------------------------ */
typedef struct {
    cuzk_fr_t *values;    /* Montgomery form; values[0] is the ONE wire */
    size_t n;
} cuzk_wtns_t;

/* Reads a .wtns file (version <= 2, BLS12-381 scalar field). Non-canonical values (>= r) are
 * CUZK_ERR_NOT_CANONICAL, another prime CUZK_ERR_MISMATCH, a broken file CUZK_ERR_FORMAT. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_wtns_read(cuzk_wtns_t *out, const char *path, cuzk_err_t *err);
CUZK_API void cuzk_wtns_free(cuzk_wtns_t *w);

/* ---- snarkjs Groth16 .zkey ------------------------------------------------------------------------- */

/* A decoded zkey, ready for cuzk_groth16_prove:
 *   pk.vk       α, β (G1 and G2), γ, δ (G1 and G2) and IC (n_public + 1 points);
 *   pk.a, pk.b_g1, pk.b_g2   one point per wire (not compact: prove with NULL densities);
 *   pk.l        the zkey's C points, one per aux wire;
 *   pk.h        domain_size points in the zkey's order; h_source[i] is the position in cuzk's
 *               odd-root order of the H value that point i multiplies (see row_position);
 *   a, b        the zkey's A and B coefficients as rows (columns = wires, Montgomery coefficients;
 *               a column may repeat within a row: evaluation sums); C is not stored: snarkjs proves
 *               with c = a ∘ b;
 *   row_position  where row k sits in cuzk's evaluation domain (num_constraints + n_public + 1 entries):
 *               ffjavascript's root of unity is ω^K for our ω and a fixed odd K, so row k (at ω'^k in
 *               snarkjs) is at position K·k mod domain_size, and H point i (odd power 2i+1 of ω'_2m)
 *               is stored at index j with 2j + 1 ≡ K·(2i + 1) mod 2m.
 * The file is read whole into memory of its own (not mapped: a file that shrinks while in use must not
 * fault its readers). The point arrays are checked at load, then used where they lie in that copy when its
 * layout allows (the usual case: the coordinates are stored exactly as cuzk's structs hold them), else
 * copied; the copy lives until cuzk_zkey_free. */
typedef struct {
    cuzk_groth16_pk_t pk;
    uint32_t n_vars;          /* wires, ONE included */
    uint32_t n_public;        /* public outputs + public inputs (ONE excluded) */
    uint32_t domain_size;     /* m: a power of two, > num_constraints + n_public */
    size_t num_constraints;   /* circuit rows; the n_public + 1 input rows the zkey lists are not in a/b */
    cuzk_csr_t a, b;
    uint32_t *row_position;
    uint32_t *h_source;       /* domain_size entries */
    const void *map;          /* the file's bytes in memory, kept for the in-place arrays */
    size_t map_size;
    bool a_in_place, b_g1_in_place, b_g2_in_place, l_in_place, h_in_place; /* not owned: in map */
} cuzk_zkey_t;

enum {
    /* Check every point of the key for subgroup membership (slow for big keys). Without it the
     * arrays are checked for canonical coordinates and curve membership only; the verifying-key
     * points are always checked fully. */
    CUZK_ZKEY_CHECK_SUBGROUP = 1u << 0,
};

/* Reads a snarkjs Groth16 zkey over BLS12-381 (threads: >= 0, 0 = every CPU). Errors:
 * CUZK_ERR_IO, CUZK_ERR_FORMAT (layout, sizes, coefficient entries out of range, missing input
 * rows), CUZK_ERR_MISMATCH (another curve, e.g. bn128), CUZK_ERR_UNSUPPORTED (not Groth16),
 * CUZK_ERR_NOT_CANONICAL / NOT_ON_CURVE / NOT_IN_SUBGROUP (a point or coefficient, message naming the
 * section and index), CUZK_ERR_NO_MEMORY. Free with cuzk_zkey_free. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_zkey_read(cuzk_zkey_t *out, const char *path, int threads, unsigned flags,
                           cuzk_err_t *err);
CUZK_API void cuzk_zkey_free(cuzk_zkey_t *zk);

/* Reads only the verifying key of a zkey (header and IC; the whole section table is still checked),
 * beta_g1 and delta_g1 included. Free with cuzk_interop_vk_free. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_zkey_read_vk(cuzk_groth16_vk_t *vk, const char *path, cuzk_err_t *err);
CUZK_API void cuzk_interop_vk_free(cuzk_groth16_vk_t *vk);

/* The prover's input for a zkey and a full witness (n values, wire order): a = A·w, b = B·w and
 * c = a ∘ b over the circuit rows, inputs = w[0 .. n_public], aux = the rest, NULL densities.
 * The arrays point into `buf` (owned) and into `wtns` (borrowed: keep it alive). Errors:
 * CUZK_ERR_MISMATCH (n != n_vars, w[0] != 1). Free with cuzk_zkey_witness_free. */
typedef struct {
    cuzk_groth16_witness_t w;
    cuzk_fr_t *buf;
} cuzk_zkey_witness_t;
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_zkey_witness(cuzk_zkey_witness_t *out, const cuzk_zkey_t *zk, const cuzk_fr_t *wtns,
                              size_t n, int threads, cuzk_err_t *err);
CUZK_API void cuzk_zkey_witness_free(cuzk_zkey_witness_t *w);

/* Proves with snarkjs's semantics (H on the odd roots, zkey's row order) through
 * cuzk_groth16_prove. opts may be NULL; its threads and should_stop are honoured, h_mode, row_position
 * and h_source are set here. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_zkey_prove(cuzk_groth16_proof_t *proof, const cuzk_zkey_t *zk, const cuzk_fr_t *wtns,
                            size_t n, const cuzk_groth16_prove_opts *opts, cuzk_err_t *err);

/* ffjavascript's 2^32-th root of unity, 5^((r−1)/2^32), is ω^K for cuzk's ω = 7^((r−1)/2^32);
 * returns that K (odd), found by Pohlig–Hellman in the 2^32-element subgroup. */
CUZK_API uint32_t cuzk_interop_ffjs_root_log(void);

/* ---- snarkjs JSON ---------------------------------------------------------------------------------
 * Written byte for byte as the snarkjs CLI writes them (bfj, one-space indent, no final newline;
 * points as projective decimal strings [x, y, "1"], infinity as G1 ["0","1","0"]). The _json functions
 * return a malloc'd NUL-terminated string (NULL when out of memory); the _write functions write
 * <path>.tmp.<pid> and rename it onto path. Readers accept what snarkjs accepts for these files:
 * decimal strings (or JSON integers), Jacobian coordinates (x/z², y/z³) with z = 0 for infinity. */
CUZK_API char *cuzk_snarkjs_proof_json(const cuzk_groth16_proof_t *proof);
CUZK_API char *cuzk_snarkjs_public_json(const cuzk_scalar_t *inputs, size_t n);
/* vk_alphabeta_12 = e(α, β) is computed here; beta_g1 and delta_g1 are not part of the file. */
CUZK_API char *cuzk_snarkjs_vk_json(const cuzk_groth16_vk_t *vk);

/* Writes several files all-or-nothing as far as the file system allows: every content goes to a
 * temp file first, and only when all are written are they renamed into place. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_interop_write_files(const char *const *paths, const char *const *contents, size_t n,
                                     cuzk_err_t *err);

/* Readers. Shape errors are CUZK_ERR_FORMAT; a coordinate >= p is CUZK_ERR_NOT_CANONICAL; a point off
 * the curve or outside the subgroup CUZK_ERR_NOT_ON_CURVE / CUZK_ERR_NOT_IN_SUBGROUP; a protocol or curve
 * other than groth16 / bls12381 CUZK_ERR_MISMATCH. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snarkjs_proof_read(cuzk_groth16_proof_t *proof, const char *path, cuzk_err_t *err);
/* *inputs is malloc'd (n may be 0). A value >= r is CUZK_ERR_NOT_CANONICAL. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_snarkjs_public_read(cuzk_scalar_t **inputs, size_t *n, const char *path, cuzk_err_t *err);
/* beta_g1 and delta_g1 are set to infinity (the file does not carry them); vk_alphabeta_12 is not
 * checked. Free with cuzk_interop_vk_free. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snarkjs_vk_read(cuzk_groth16_vk_t *vk, const char *path, cuzk_err_t *err);

#ifdef __cplusplus
}
#endif
#endif
