/* Groth16 parameter files in bellperson's formats: the verifying key (.vk, VerifyingKey::write) and
 * the proving parameters (.params, Parameters::write), plus the parameters.json manifest (digests)
 * and Filecoin's v28 file names. Byte layouts and reading rules: docs/FORMATS.md "Parameter files".
 *
 * Ownership: cuzk_params_vk_read / _decode give the caller a vk whose ic array it frees with
 * cuzk_groth16_vk_free. A cuzk_params_t (cuzk_params_open / _open_buffer) owns its mapping and every
 * decoded array; the key cuzk_params_key / cuzk_params_get return is lent by it and dies with
 * cuzk_params_close (never cuzk_groth16_pk_free it). cuzk_params_close accepts NULL. A buffer given
 * to cuzk_params_open_buffer stays the caller's and must outlive the cuzk_params_t.
 * Threading: cuzk_params_load (and cuzk_params_get) may be called from several threads on one
 * cuzk_params_t (one decodes, the others wait), as may the read-only accessors; cuzk_params_unload
 * and cuzk_params_close must not run while another thread uses the sections concerned (close: any
 * of them). Functions on distinct objects and files are independent.
 * Errors: as listed with each call, plus CUZK_ERR_INVALID_ARG for NULL required arguments,
 * CUZK_ERR_NO_MEMORY, and CUZK_ERR_IO for a file that cannot be opened, mapped, read or written
 * (the writers leave no partial file); cuzk_params_digest and cuzk_params_file_stem return
 * CUZK_ERR_UNSUPPORTED when libcrypto lacks the hash.
 */
#ifndef CUZK_PARAMS_H
#define CUZK_PARAMS_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/groth16.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Verifying key (.vk) ------------------------------------------------------------------------
 * alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2 (uncompressed), ic_len (u32 BE), ic[ic_len]
 * (uncompressed G1): exactly cuzk_params_vk_size(ic_len) = 868 + 96·ic_len bytes.
 *
 * Reading is checked as bellperson's VerifyingKey::read: every point canonical, on the curve and in
 * its subgroup; the six fixed points may be the point at infinity (bellperson accepts it there), an
 * ic point may not (CUZK_ERR_FORMAT). A point error returns the decoder's status (CUZK_ERR_BAD_FLAGS,
 * _NOT_CANONICAL, _NOT_ON_CURVE, _NOT_IN_SUBGROUP) with a message naming the field and byte offset;
 * a wrong size is CUZK_ERR_FORMAT. On success vk->ic is malloc'ed: release it with
 * cuzk_groth16_vk_free. On failure *vk is untouched and nothing is allocated. */

#define CUZK_PARAMS_VK_FIXED_BYTES 868 /* the six points and ic_len */

CUZK_API size_t cuzk_params_vk_size(size_t ic_len);
/* Writes the encoding into out (out_len >= cuzk_params_vk_size(vk->ic_len), else
 * CUZK_ERR_BAD_LENGTH); CUZK_ERR_INVALID_ARG when ic_len does not fit in a u32. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_vk_encode(uint8_t *out, size_t out_len, const cuzk_groth16_vk_t *vk,
                                  cuzk_err_t *err);
/* Decodes exactly len bytes (a shorter or longer buffer than the ic_len field implies is
 * CUZK_ERR_FORMAT). */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_vk_decode(cuzk_groth16_vk_t *vk, const uint8_t *in, size_t len,
                                  cuzk_err_t *err);
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_vk_read(cuzk_groth16_vk_t *vk, const char *path, cuzk_err_t *err);
/* Writes path.tmp.<pid> and renames it over path: no partial file on any error. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_vk_write(const char *path, const cuzk_groth16_vk_t *vk, cuzk_err_t *err);

/* ---- Proving parameters (.params) ---------------------------------------------------------------
 * The verifying key as above, then five sections h, l, a, b_g1 (G1) and b_g2 (G2), each a u32 BE
 * count followed by that many uncompressed points. Nothing follows b_g2. */

/* How much a query point is checked while decoding. Every level checks the flag bits and that each
 * coordinate is canonical, and rejects the point at infinity (bellperson's readers do), all-zero
 * coordinates and, in G1, x = 0 (blst's deserializer rejects (0, ±2), the only such curve points).
 * bellperson's production reader (build_mapped_parameters(path, false), blst deserialization)
 * corresponds to CUZK_PARAMS_CHECK_CURVE; CUZK_PARAMS_CHECK_NONE skips the curve equation and is
 * meant for files whose digest was verified against parameters.json. The verifying key inside a
 * .params file is always fully checked, as bellperson does. */
typedef enum {
    CUZK_PARAMS_CHECK_NONE = 0,
    CUZK_PARAMS_CHECK_CURVE = 1,    /* + on the curve */
    CUZK_PARAMS_CHECK_SUBGROUP = 2, /* + in the prime-order subgroup (slow: one scalar mult/point) */
} cuzk_params_check;

/* Section bits for cuzk_params_load / cuzk_params_unload. */
enum {
    CUZK_PARAMS_SEC_H = 1u << 0,
    CUZK_PARAMS_SEC_L = 1u << 1,
    CUZK_PARAMS_SEC_A = 1u << 2,
    CUZK_PARAMS_SEC_B_G1 = 1u << 3,
    CUZK_PARAMS_SEC_B_G2 = 1u << 4,
    CUZK_PARAMS_SEC_ALL = 0x1f,
};

/* Bytes that cuzk_params_write produces for pk. */
CUZK_API uint64_t cuzk_params_file_size(const cuzk_groth16_pk_t *pk);
/* Writes pk byte-for-byte as bellperson's Parameters::write (infinity points are written as the
 * infinity encoding, though readers reject them in a query) through path.tmp.<pid> + rename.
 * threads: 0 = every online CPU. CUZK_ERR_INVALID_ARG when a length does not fit in a u32 or an
 * array is NULL with a non-zero length; CUZK_ERR_IO on a write error (the temp file is removed). */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_write(const char *path, const cuzk_groth16_pk_t *pk, int threads,
                              cuzk_err_t *err);

/* An opened .params file: the file is mapped, its section table parsed and checked against the
 * file size (a truncated or over-long file, or a count that does not fit, is CUZK_ERR_FORMAT naming
 * the section and offset, before anything is decoded or allocated), and the verifying key decoded.
 * The query sections are decoded on first use into arrays the object owns. */
typedef struct cuzk_params cuzk_params_t;

/* threads: decoding threads, 0 = every online CPU. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_open(cuzk_params_t **out, const char *path, cuzk_params_check check,
                             int threads, cuzk_err_t *err);
/* The same over bytes in memory, which must stay valid and unchanged until cuzk_params_close. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_open_buffer(cuzk_params_t **out, const void *buf, size_t len,
                                    cuzk_params_check check, int threads, cuzk_err_t *err);
/* Unmaps the file and frees every decoded array (NULL-safe). Keys returned by cuzk_params_key die
 * with it: never pass them to cuzk_groth16_pk_free. */
CUZK_API void cuzk_params_close(cuzk_params_t *p);

/* Decodes the sections named in `sections` that are not decoded yet (multi-threaded). Safe to call
 * from several threads: one decodes, the others wait. On a bad point: the decoder's status
 * (CUZK_ERR_BAD_FLAGS, _NOT_CANONICAL, _NOT_ON_CURVE, _NOT_IN_SUBGROUP), or CUZK_ERR_FORMAT for the
 * point at infinity, with a message naming the first bad point (section, index, byte offset); that
 * section stays undecoded. CUZK_ERR_NO_MEMORY when the array cannot be allocated. CUZK_ERR_IO when the
 * file shrank since it was opened (the message names it: "changed size while in use") or a read of it
 * failed: the process is not killed (no SIGBUS), the section stays undecoded, and the same object loads
 * it if the file is whole again. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_load(cuzk_params_t *p, unsigned sections, cuzk_err_t *err);
/* Frees the decoded arrays of `sections` (they are decoded again on the next load). The caller must
 * make sure no one still uses them. */
CUZK_API void cuzk_params_unload(cuzk_params_t *p, unsigned sections);
/* The key: vk and every *_len are always set; h, l, a, b_g1 and b_g2 are NULL until their section
 * is loaded. */
CUZK_API const cuzk_groth16_pk_t *cuzk_params_key(const cuzk_params_t *p);
/* cuzk_params_load(p, CUZK_PARAMS_SEC_ALL) and then the key. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_get(const cuzk_groth16_pk_t **pk, cuzk_params_t *p, cuzk_err_t *err);
/* Bytes held by decoded arrays (verifying key included), for memory budgets; the mapping of the
 * file itself is not counted. */
CUZK_API size_t cuzk_params_decoded_bytes(const cuzk_params_t *p);

/* bellperson's length rules for a circuit with num_inputs inputs (ONE included), num_aux aux
 * variables, num_constraints synthesized constraints (input rows excluded), a_aux_count aux
 * variables with a non-zero A column, b_input_count / b_aux_count inputs / aux with a non-zero B
 * column: ic_len = num_inputs, l_len = num_aux, h_len = m − 1 with m the least power of two >=
 * num_constraints + num_inputs, a_len = num_inputs + a_aux_count, b_g1_len = b_g2_len =
 * b_input_count + b_aux_count. CUZK_ERR_MISMATCH naming the first difference. Only the lengths of
 * pk are read (the arrays may be unloaded). */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_check_circuit(const cuzk_groth16_pk_t *pk, size_t num_inputs, size_t num_aux,
                                      size_t num_constraints, size_t a_aux_count,
                                      size_t b_input_count, size_t b_aux_count, cuzk_err_t *err);

/* ---- parameters.json and file names -------------------------------------------------------------- */

/* BLAKE2b-512 of the whole file: the 64-byte digest in full (may be NULL) and the first 32 hex
 * characters, lower case, as parameters.json records it (hex32 may be NULL). */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_digest(const char *path, uint8_t full[64], char hex32[33], cuzk_err_t *err);

typedef struct {
    char cid[128];
    char digest[33];
    uint64_t sector_size;
} cuzk_params_manifest_entry_t;

/* The entry `name` (a file name such as "v28-….params") of a parameters.json manifest: an object
 * keyed by file name whose values hold "cid" (string), "digest" (32 hex characters) and
 * "sector_size" (integer). CUZK_ERR_IO when the manifest cannot be read, CUZK_ERR_FORMAT when it is
 * not such an object or the entry is malformed, CUZK_ERR_MISMATCH when there is no entry `name`. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_manifest_entry(cuzk_params_manifest_entry_t *entry, const char *manifest_path,
                                       const char *name, cuzk_err_t *err);
/* Checks the file at path against its manifest entry, found under `name` (NULL = the last path
 * component of path): the entry must exist and its digest equal the file's (CUZK_ERR_MISMATCH
 * "digest mismatch" naming both digests otherwise). entry may be NULL. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_manifest_check(const char *manifest_path, const char *path, const char *name,
                                       cuzk_params_manifest_entry_t *entry, cuzk_err_t *err);

/* rust-fil-proofs' parameter_cache VERSION: bump it and every file name changes. */
#define CUZK_PARAMS_VERSION 28
/* The file stem "v28-<cache_prefix>-<hex SHA-256 of identifier>" (add ".params", ".vk" or ".meta").
 * cache_prefix is e.g. "stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher"
 * and identifier the public parameters' identifier() string. CUZK_ERR_BAD_LENGTH when out_len is too
 * small for the stem and its NUL. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_params_file_stem(char *out, size_t out_len, const char *cache_prefix,
                                  const char *identifier);

#ifdef __cplusplus
}
#endif
#endif
