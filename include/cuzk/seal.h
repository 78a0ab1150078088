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

/* ---- SnapDeals encoding ---------------------------------------------------------------------------------
 * A committed-capacity sector kept by cuzk_seal_write_sector (all-zero data: sector.json's comm_d is the zero
 * comm_d of its size) takes new data without resealing, as filecoin-proofs' encode_into does
 * (storage-proofs-update vanilla.rs): node i of the new replica = old replica node i + data node i · rho(i)
 * (cuzk/snap.h), h = the size's production h (10, or 1 up to 32KiB). The update directory, one per updated
 * sector (docs/FORMATS.md "Update directory"):
 *   update                      the new replica: sector_size bytes, 32-byte little-endian Fr nodes
 *   sc-02-data-tree-r-last.dat  tree R over the new replica, the rows the sector's own file keeps
 *   sc-02-data-tree-d.dat       tree D over the new (Fr32-padded) data: every level, leaves first
 *                               ((2·nodes − 1)·32 bytes, filecoin-proofs' DiskStore)
 *   p_aux                       bincode comm_c ‖ root of the new tree R (64 bytes)
 *   update.json                 the update proof, sector size, h, the sector key directory (absolute),
 *                               comm_r_old, comm_d_new, comm_r_new (lowercase hex of the 32 bytes)
 * The new data is not kept: cuzk_seal_snap_decode recovers it from `update` and the sector key's `sealed`.
 * Commitments are 32-byte little-endian Fr, the byte order Curio sends. Any thread may encode, decode or
 * read directories; a directory is not locked. */

#define CUZK_SEAL_SNAP_PATH_MAX 4096

/* What an update directory says (update.json and p_aux). */
typedef struct {
    uint64_t update_proof_id;  /* the registered update proof (cuzk/snap.h) */
    uint64_t sector_size;      /* bytes */
    uint32_t h;                /* the encoding's high bits (cuzk_snap_config_t.h) */
    char sector_key_dir[CUZK_SEAL_SNAP_PATH_MAX]; /* the sealed CC sector's directory, absolute */
    uint8_t comm_r_old[32];    /* the sector key's comm_r */
    uint8_t comm_d_new[32];    /* the root of tree D over the new data */
    uint8_t comm_r_new[32];    /* Poseidon2(comm_c, root_r_new) */
    uint8_t comm_c[32], root_r_new[32]; /* p_aux */
} cuzk_seal_snap_info_t;

/* Encodes data (data_len unpadded bytes, at most sector_size·127/128; the rest of the sector is zero; data
 * may be NULL when data_len is 0) into the CC sector of directory sector_dir and writes the update
 * directory out_dir (created, with its parents, when missing) with the atomic writer: every file is written
 * and synced before the first is renamed into place, update.json last, so a failure leaves none of them
 * changed. The sector key's replica is checked against its tree R file on the way. info (may be NULL) gets
 * what update.json and p_aux say. threads: padding, encoding and both trees (0 = every online CPU).
 * Memory: about 4.2·sector_size bytes. Errors: CUZK_ERR_INVALID_ARG (data longer than the sector holds,
 * threads < 0), CUZK_ERR_MISMATCH ("not a committed-capacity sector"; a replica that disagrees with the
 * sector's tree R), the errors of cuzk_seal_sector_info, CUZK_ERR_IO (a missing or unreadable file, an
 * output that cannot be written: its path), CUZK_ERR_FORMAT (a replica of the wrong size),
 * CUZK_ERR_NOT_CANONICAL (a replica node that is not an Fr: its index), CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 4)
cuzk_status cuzk_seal_snap_encode(const char *sector_dir, const uint8_t *data, size_t data_len, const char *out_dir,
                                  int threads, cuzk_seal_snap_info_t *info, cuzk_err_t *err);

/* Reads and checks an update directory's update.json and p_aux: every field present and of its type, a
 * registered update proof with its sector size, an h the size allows, canonical commitments, p_aux of 64
 * bytes holding two canonical Fr and Poseidon2(comm_c, root_r_new) = comm_r_new. Errors: CUZK_ERR_IO (a
 * missing or unreadable file: its path), CUZK_ERR_FORMAT (naming the file and the field),
 * CUZK_ERR_NOT_CANONICAL, CUZK_ERR_MISMATCH (comm_r_new). *out is zeroed on error. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_seal_snap_info(cuzk_seal_snap_info_t *out, const char *update_dir, cuzk_err_t *err);

/* The data of an update directory: (new − old)·rho⁻¹ node by node, from its `update` and the sector key's
 * `sealed`, checked (each node an Fr32 node, their tree D root comm_d_new) and unpadded into a malloc'd
 * buffer *data of *data_len = sector_size·127/128 bytes that the caller frees (the data encode was given,
 * followed by zeros). info (may be NULL) gets the directory's info. Errors: those of cuzk_seal_snap_info
 * and cuzk_seal_sector_info (the sector key), CUZK_ERR_MISMATCH (a sector key whose comm_r or comm_c is not
 * the update's; data that does not hash to comm_d_new), CUZK_ERR_IO, CUZK_ERR_FORMAT (a file of the wrong
 * size), CUZK_ERR_NOT_CANONICAL (a node that is not an Fr: the file and index), CUZK_ERR_INVALID_ARG
 * (threads < 0), CUZK_ERR_NO_MEMORY. On error *data is NULL. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_seal_snap_decode(uint8_t **data, size_t *data_len, const char *update_dir, int threads,
                                  cuzk_seal_snap_info_t *info, cuzk_err_t *err);

/* A sector's SnapDeals vanilla partition proofs from its update directory, as filecoin-ffi's
 * generate_partition_proofs returns them: bincode Vec<PartitionProof> (u64 count, then one PartitionProof per
 * partition, in order), the file form cuzk_snap_vanilla_load_all (cuzk/snap.h) reads. Per partition: its
 * apex leaves from tree D, the challenges of comm_r_new, and each challenge's paths into tree R old (the
 * sector key's replica and tree R file), tree D and tree R new (the update's files). Every partition is
 * checked as cuzk_snap_check checks it before anything is returned. sector_key_dir: the sealed CC sector
 * (NULL: the directory update.json names); its comm_r must be the update's comm_r_old. threads: the checks
 * (0 = every online CPU). On success *out is malloc'd (*out_len bytes) and the caller frees it; on error it
 * is NULL. Errors: those of cuzk_seal_snap_info and cuzk_seal_sector_info, CUZK_ERR_INVALID_ARG (threads
 * < 0), CUZK_ERR_MISMATCH (a sector key of another sector; files that disagree with each other or with
 * update.json: naming them), CUZK_ERR_IO (a missing or unreadable file: its path), CUZK_ERR_FORMAT (a file
 * of the wrong size), CUZK_ERR_NOT_CANONICAL (a stored node that is not an Fr), CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_seal_snap_vanilla(uint8_t **out, size_t *out_len, const char *update_dir, const char *sector_key_dir,
                                   int threads, cuzk_err_t *err);

#ifdef __cplusplus
}
#endif
#endif
