/* The files of a sealed sector's directory (sector_layout.h), made in memory from a sector sealed here so
 * that the caller writes them all or none (cuzk/file.h's atomic writer), and read back: sector.json and
 * p_aux, checked against each other. */
#ifndef CUZK_FILECOIN_SECTOR_FILES_H
#define CUZK_FILECOIN_SECTOR_FILES_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/registry/registered_proof.h"
#include "filecoin/seal/seal.h"
#include "filecoin/seal/sector_layout.h"

#define CUZK_FC_SECTOR_FILES 5

typedef struct {
    const char *name;  /* the file's name in the directory (static storage) */
    uint8_t *data;     /* malloc'd */
    size_t len;
} cuzk_fc_sector_file_t;

/* The directory's files, in the order they should be renamed into place (sector.json, which says the
 * directory is a sector, last): sealed, sc-02-data-tree-r-last.dat, p_aux, t_aux, sector.json.
 * cache_dir is the path t_aux's store configs name (filecoin-proofs replaces it with the directory it
 * reads t_aux from). Only base-only trees are sealed here, so there is one tree-r-last file.
 * CUZK_ERR_INVALID_ARG (a tree shape with several base trees), CUZK_ERR_NO_MEMORY; on error every entry is empty. Free with cuzk_fc_sector_files_free. */
cuzk_status cuzk_fc_sector_files(cuzk_fc_sector_file_t out[CUZK_FC_SECTOR_FILES], const cuzk_fc_sealed_t *s,
                                 uint64_t miner_id, const char *cache_dir, int threads, cuzk_err_t *err);
void cuzk_fc_sector_files_free(cuzk_fc_sector_file_t f[CUZK_FC_SECTOR_FILES]);

/* What sector.json and p_aux say about a sector. */
typedef struct {
    const cuzk_fc_seal_proof_t *proof; /* the registered seal proof: sector size and tree shape */
    uint64_t miner_id, sector_num;
    uint8_t ticket[32], comm_d[32], comm_r[32];
    uint8_t comm_c[32], comm_r_last[32]; /* p_aux */
} cuzk_fc_sector_meta_t;

/* dir as an absolute path where one can be made (t_aux and update.json name it), else as given; malloc'd,
 * NULL when out of memory. */
char *cuzk_fc_sector_abs_dir(const char *dir);
/* mkdir -p: dir and its missing parents (0755). CUZK_ERR_IO naming the component that cannot be made, or
 * dir when it is not a directory; CUZK_ERR_INVALID_ARG for an empty path. */
cuzk_status cuzk_fc_sector_make_dirs(const char *dir, cuzk_err_t *err);

/* Helpers of the directories' readers and writers (sector.json, update.json). 32 bytes as 64 lowercase hex
 * digits and a NUL. */
void cuzk_fc_hex32(char out[65], const uint8_t b[32]);
/* dir/p_aux (storage-proofs-porep PersistentAux: 64 bytes, comm_c then a second root: comm_r_last of a
 * sealed sector, the root of tree R new of an updated one), both canonical Fr, with Poseidon2(comm_c,
 * second) = comm_r. what ("sector" / "update"), second_name and comm_r_name (the file and key comm_r came
 * from) word the messages. CUZK_ERR_IO (p_aux missing or unreadable: its path), CUZK_ERR_FORMAT (its
 * size), CUZK_ERR_NOT_CANONICAL, CUZK_ERR_MISMATCH, CUZK_ERR_NO_MEMORY; the outputs are written only on
 * success. */
cuzk_status cuzk_fc_p_aux_read(uint8_t comm_c[32], uint8_t second[32], const char *dir, const uint8_t comm_r[32],
                              const char *what, const char *second_name, const char *comm_r_name, cuzk_err_t *err);
/* obj's member key as a non-negative integer / as 64 hex digits; CUZK_ERR_FORMAT naming path and key. */
struct json_t;
cuzk_status cuzk_fc_json_u64(uint64_t *out, struct json_t *obj, const char *key, const char *path, cuzk_err_t *err);
cuzk_status cuzk_fc_json_hex32(uint8_t out[32], struct json_t *obj, const char *key, const char *path,
                               cuzk_err_t *err);

/* sector.json's text for meta (without comm_c / comm_r_last), NUL-terminated, malloc'd; NULL when out of
 * memory. */
char *cuzk_fc_sector_json(const cuzk_fc_sector_meta_t *meta, size_t *len);

/* Reads dir/sector.json and dir/p_aux: every field present and of its type, version 1, a registered seal
 * proof, its sector size in "sector_size", 32-byte hex values, p_aux of 64 bytes holding two canonical
 * Fr, and Poseidon2(comm_c, comm_r_last) = comm_r. CUZK_ERR_IO (a file missing or unreadable: its path),
 * CUZK_ERR_FORMAT (naming the file and the field), CUZK_ERR_NOT_CANONICAL, CUZK_ERR_MISMATCH (comm_r).
 * *out is zeroed on error. */
cuzk_status cuzk_fc_sector_meta_read(cuzk_fc_sector_meta_t *out, const char *dir, cuzk_err_t *err);

#endif
