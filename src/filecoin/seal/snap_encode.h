/* SnapDeals encoding of a committed-capacity sector kept on disk (storage-proofs-update vanilla.rs
 * encode_into / decode_from, filecoin-proofs api/update.rs): the update directory's files made in memory so
 * that the caller writes them all or none, its update.json and p_aux read back with strict checks, and the
 * data recovered from the new replica. The public calls are cuzk/seal.h's "SnapDeals encoding". */
#ifndef CUZK_FILECOIN_SNAP_ENCODE_H
#define CUZK_FILECOIN_SNAP_ENCODE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/seal.h"
#include "cuzk/status.h"
#include "filecoin/seal/sector_files.h"

#define CUZK_FC_SNAP_UPDATE "update"               /* the new replica (filecoin-ffi's update file) */
#define CUZK_FC_SNAP_TREE_D "sc-02-data-tree-d.dat" /* tree D new: StoreConfig::data_path(cache, "tree-d") */
#define CUZK_FC_SNAP_JSON "update.json"            /* ours: the update's public description */
#define CUZK_FC_SNAP_FILES 5

/* The update directory's files for data (len unpadded bytes, the rest zero) encoded into the CC sector of
 * sector_dir, in the order they are renamed into place: update, sc-02-data-tree-r-last.dat,
 * sc-02-data-tree-d.dat, p_aux, update.json (last: it says the directory is an update). info gets what
 * update.json and p_aux say; info->sector_key_dir is key_dir (the absolute form of sector_dir). Errors as
 * cuzk_seal_snap_encode's; on error every entry is empty. Free with cuzk_fc_sector_files_free. */
cuzk_status cuzk_fc_snap_encode_files(cuzk_fc_sector_file_t out[CUZK_FC_SNAP_FILES], cuzk_seal_snap_info_t *info,
                                      const char *sector_dir, const char *key_dir, const uint8_t *data, size_t len,
                                      int threads, cuzk_err_t *err);

/* update.json's text for info, NUL-terminated, malloc'd; NULL when out of memory. */
char *cuzk_fc_snap_update_json(const cuzk_seal_snap_info_t *info, size_t *len);

/* Reads dir/update.json and dir/p_aux (cuzk_seal_snap_info's checks). *out is zeroed on error. */
cuzk_status cuzk_fc_snap_update_read(cuzk_seal_snap_info_t *out, const char *dir, cuzk_err_t *err);

#endif
