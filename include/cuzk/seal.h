/* Sealing small sectors into real PoRep C1 outputs, as rust-fil-proofs' seal_pre_commit_phase1/2 and
 * seal_commit_phase1 do, all in memory: Fr32 padding, tree D and comm_d, the replica id, the SDR labels of
 * every layer, tree C, the replica and tree R, comm_r (precommit); then the vanilla proofs of the seed's
 * challenges (commit phase 1), written as the C1 JSON filecoin-ffi returns. For tests, benchmarks and
 * development: only sectors whose trees are base-only (2KiB, 8MiB, 512MiB) are sealed.
 *
 * The C1 JSON is what cuzk/porep.h takes (cuzk_porep_c1_parse; cuzk_porep_c1_wrap makes Curio's wrapper
 * of it). A sealed sector is immutable once made: any number of threads may make commit-phase-1 outputs
 * from one at the same time. A sealed sector can also be kept on disk (the replica, tree R, p_aux, ...),
 * from which Window and Winning PoSt vanilla proofs are made as filecoin-ffi makes them. */
#ifndef CUZK_SEAL_H
#define CUZK_SEAL_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/api.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What precommit needs. */
typedef struct {
    uint64_t proof_id;      /* the registered seal proof (cuzk/porep.h: cuzk_porep_registered_proof_parse) */
    uint64_t miner_id;      /* the prover id is derived from it as filecoin-ffi does (the ID address f0<id>) */
    uint64_t sector_num;
    uint8_t ticket[32];
    const uint8_t *data;    /* the sector's unpadded bytes (sector_size·127/128 of them), or NULL: all zero */
    size_t data_len;        /* exactly sector_size·127/128 when data is not NULL */
    int threads;            /* >= 0; 0 = every online CPU */
} cuzk_seal_request_t;

/* A sector sealed in memory: its data, labels and trees (about 32·(layers + 3) bytes per node). */
typedef struct cuzk_sealed_sector cuzk_sealed_sector_t;

/* Precommit. One thread labels, the others compute parents and trees beside it; memory while it runs:
 * (32·(layers + 2) + 56 + 64/7) bytes per node (3.2 GB at 512MiB). Errors: CUZK_ERR_INVALID_ARG (proof not
 * registered, data_len wrong, threads < 0), CUZK_ERR_UNSUPPORTED (a sector size whose trees are not
 * base-only: 32GiB, 64GiB), CUZK_ERR_NO_MEMORY. On success *out is a new sealed sector the caller frees;
 * on error it is NULL. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_seal_precommit(cuzk_sealed_sector_t **out, const cuzk_seal_request_t *req, cuzk_err_t *err);

/* comm_d and comm_r (32-byte little-endian field elements, as the C1 JSON and Filecoin's CIDs hold them).
 * Never fails. */
CUZK_API CUZK_NONNULL(1, 2, 3)
void cuzk_seal_commitments(const cuzk_sealed_sector_t *s, uint8_t comm_d[32], uint8_t comm_r[32]);

/* Commit phase 1: the registered proof's challenges for seed (interactive, synthetic or non-interactive, by
 * the proof) and each one's vanilla proof, checked as cuzk_porep_c1_parse checks a C1, then written as C1
 * JSON (serde's form, exactly the bytes filecoin-ffi writes) into a malloc'd NUL-terminated buffer *json
 * (*json_len bytes without the NUL) that the caller frees with free(); on error *json is NULL.
 * Errors: CUZK_ERR_NO_MEMORY, and the check's (which would mean a sealing bug). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3, 4)
cuzk_status cuzk_seal_commit1(char **json, size_t *json_len, const cuzk_sealed_sector_t *s, const uint8_t seed[32],
                              cuzk_err_t *err);

/* Frees a sealed sector (NULL-safe). */
CUZK_API void cuzk_seal_free(cuzk_sealed_sector_t *s);

/* ---- The sector directory: what a later PoSt needs ----------------------------------------------------
 * A sealed sector kept on disk as filecoin-ffi keeps one (docs/FORMATS.md "Sector directory"), in one
 * directory:
 *   sealed                      the replica: sector_size bytes, node i = data_i + last layer's label_i mod r
 *                               (32-byte little-endian), as filecoin-ffi's sealed file
 *   sc-02-data-tree-r-last.dat  tree R's rows above the ones filecoin-proofs discards (its LevelCacheStore)
 *   p_aux                       bincode PersistentAux: comm_c ‖ comm_r_last (64 bytes)
 *   t_aux                       bincode TemporaryAux: the store configs filecoin-proofs writes (the label,
 *                               tree-d and tree-c files it names are not kept)
 *   sector.json                 the registered seal proof, miner id, sector number, ticket, comm_d, comm_r
 * Writing and reading a directory may happen from any thread; a directory is not locked. */

#define CUZK_SEAL_SECTOR_FILES 5

/* The directory's files in memory, in the order they are renamed into place (sector.json last). */
typedef struct {
    size_t n;
    const char *names[CUZK_SEAL_SECTOR_FILES]; /* file names in the directory (static storage) */
    uint8_t *data[CUZK_SEAL_SECTOR_FILES];     /* malloc'd; freed by cuzk_seal_sector_files_free */
    size_t lens[CUZK_SEAL_SECTOR_FILES];
} cuzk_seal_sector_files_t;

/* The files of sealed sector s for directory dir (the path t_aux names: absolute where it can be made
 * so). Memory: sector_size bytes for the replica, little more. Errors: CUZK_ERR_NO_MEMORY; *out is empty
 * on error. Free with cuzk_seal_sector_files_free (also after an error, and twice). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_seal_sector_files(cuzk_seal_sector_files_t *out, const cuzk_sealed_sector_t *s, const char *dir,
                                   cuzk_err_t *err);
CUZK_API void cuzk_seal_sector_files_free(cuzk_seal_sector_files_t *f);

/* Writes s's files into dir (created, with its parents, when missing) with the atomic writer: every file
 * is written and synced before the first is renamed into place, so a failure leaves none of them
 * changed. Errors: CUZK_ERR_IO naming the path, CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_seal_write_sector(const cuzk_sealed_sector_t *s, const char *dir, cuzk_err_t *err);

/* What a sector directory says about its sector (sector.json and p_aux). */
typedef struct {
    uint64_t seal_proof_id;   /* the registered seal proof */
    uint64_t sector_size;     /* bytes */
    uint64_t miner_id, sector_num;
    uint8_t ticket[32], comm_d[32], comm_r[32];
    uint8_t comm_c[32], comm_r_last[32];
} cuzk_seal_sector_info_t;

/* Reads and checks dir's sector.json and p_aux (every field present and well formed, a registered seal
 * proof, Poseidon2(comm_c, comm_r_last) = comm_r). Errors: CUZK_ERR_IO (a missing or unreadable file: its
 * path), CUZK_ERR_FORMAT (naming the file and the field), CUZK_ERR_NOT_CANONICAL, CUZK_ERR_MISMATCH. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_seal_sector_info(cuzk_seal_sector_info_t *out, const char *dir, cuzk_err_t *err);

/* One sector's Fallback PoSt vanilla proof from its directory, as filecoin-ffi's
 * generate_single_vanilla_proof returns it for the challenges generate_fallback_sector_challenges gives
 * that sector: the bincode FallbackPoStSectorProof that cuzk_post_vanilla_parse (cuzk/post.h) reads.
 * post_proof_id: the registered PoSt proof (cuzk/post.h), whose sector size must be the sector's;
 * randomness: the challenge seed, a canonical Fr (little-endian) as filecoin-ffi requires; sector_index:
 * the sector's position in the list of sectors the challenges were generated for (Window PoSt:
 * partition_index · sector_count + its place in the partition; Winning: its place among the challenged
 * sectors, usually 0) — it changes the challenges of the V1 proofs (ids 0–9) only.
 * The challenged leaves' paths are read from the directory's files (the discarded rows recomputed from
 * the replica and checked against the kept ones) and the proof is verified as cuzk_post_check verifies a
 * sector before it is returned. On success *out is malloc'd (*out_len bytes) and the caller frees it;
 * on error it is NULL. Errors: CUZK_ERR_INVALID_ARG (unknown PoSt proof), CUZK_ERR_NOT_CANONICAL
 * (randomness, or a stored value), CUZK_ERR_MISMATCH (a sector of another size; files that disagree with
 * each other: naming them), CUZK_ERR_IO (a missing or unreadable file: its path), CUZK_ERR_FORMAT (a
 * file of the wrong size or content: its path), CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3, 5)
cuzk_status cuzk_seal_post_vanilla(uint8_t **out, size_t *out_len, const char *dir, uint64_t post_proof_id,
                                   const uint8_t randomness[32], uint64_t sector_index, cuzk_err_t *err);

#ifdef __cplusplus
}
#endif
#endif
