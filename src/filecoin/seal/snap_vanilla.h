/* SnapDeals vanilla partition proofs of an updated sector, as filecoin-ffi's generate_partition_proofs makes
 * them (filecoin-proofs api/update.rs, storage-proofs-update vanilla.rs prove_all_partitions /
 * prove_inner): per partition k, its apex leaves read from tree D new, the challenges of comm_r_new and k,
 * and for each the inclusion paths into tree R old (the sector key's files, as the PoSt vanilla proofs read
 * them), tree D new and tree R new (the update directory's files); written as bincode Vec<PartitionProof>
 * and every partition checked by the vanilla verifier before it is returned. The public call is
 * cuzk/seal.h's cuzk_seal_snap_vanilla. */
#ifndef CUZK_FILECOIN_SEAL_SNAP_VANILLA_H
#define CUZK_FILECOIN_SEAL_SNAP_VANILLA_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"

/* The proofs of the update directory update_dir (cuzk_seal_snap_info's checks on its update.json and
 * p_aux) over the sector key in key_dir (NULL: the directory update.json names), whose comm_r must be the
 * update's comm_r_old and comm_c its comm_c. Trees: the sector key's replica and tree R file, the update's
 * `update`, its tree R file (root: p_aux's) and tree D file ((2·nodes − 1)·32 bytes, root comm_d_new).
 * threads: the checks (0 = every online CPU). On success *out (malloc'd, *out_len bytes) is the caller's;
 * on error NULL. Errors: those of cuzk_seal_snap_info and cuzk_seal_sector_info (the sector key),
 * CUZK_ERR_MISMATCH (a sector key of another sector, files that disagree: naming them),
 * CUZK_ERR_IO (a missing or unreadable file: its path), CUZK_ERR_FORMAT (a file of the wrong size),
 * CUZK_ERR_NOT_CANONICAL (a stored node that is not an Fr), CUZK_ERR_NO_MEMORY. */
cuzk_status cuzk_fc_snap_vanilla_from_dir(uint8_t **out, size_t *out_len, const char *update_dir, const char *key_dir,
                                          int threads, cuzk_err_t *err);

#endif
