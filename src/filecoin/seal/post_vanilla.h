/* A Fallback PoSt vanilla proof of one sector from its directory (sector_layout.h), as filecoin-ffi's
 * generate_single_vanilla_proof makes it (filecoin-proofs api/post_util.rs, storage-proofs-post
 * fallback/vanilla.rs): the challenges generate_fallback_sector_challenges derives for the sector, one
 * tree-R inclusion path per challenge read from the sector's files, comm_c and comm_r_last from p_aux,
 * written as bincode FallbackPoStSectorProof and checked by the vanilla verifier before it is returned. */
#ifndef CUZK_FILECOIN_SEAL_POST_VANILLA_H
#define CUZK_FILECOIN_SEAL_POST_VANILLA_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/post_vproof.h"

/* The proof of the sector in dir for PoSt parameters pp (pp->sector_size, tree shape, challenge_count,
 * api, sector_index, randomness: post_vproof.h): the sector's size and shape must be pp's. The leaf of
 * challenge n is cuzk_fc_post_leaf_challenge(randomness, sector number, challenge index) with the index of
 * cuzk_fc_post_challenge_index(api, sector_index, challenge_count, n): sector_index is the sector's
 * position in the list of sectors generate_fallback_sector_challenges was given (Window:
 * partition · sector_count + position in the partition; it does not matter under API V1_2).
 * On success *out (malloc'd, *out_len bytes) is the caller's; on error NULL. Errors:
 * CUZK_ERR_NOT_CANONICAL (randomness or a stored value), CUZK_ERR_MISMATCH (a sector of another size or
 * shape; files that disagree), the errors of cuzk_fc_sector_meta_read and cuzk_fc_tree_r_store_open /
 * _path (CUZK_ERR_IO, CUZK_ERR_FORMAT naming the file), CUZK_ERR_NO_MEMORY. */
cuzk_status cuzk_fc_post_vanilla_from_dir(uint8_t **out, size_t *out_len, const char *dir,
                                          const cuzk_fc_post_params_t *pp, cuzk_err_t *err);

/* The same core over explicit parts, for trees the seal cannot make (several base trees): sector number
 * sector_id, comm_c / comm_r_last / comm_r as stored, tree R in dir (replica at replica_path, NULL:
 * dir/sealed) of pp's size and shape. */
cuzk_status cuzk_fc_post_vanilla_from_tree(uint8_t **out, size_t *out_len, const char *dir, const char *replica_path,
                                           uint64_t sector_id, const uint8_t comm_c[32], const uint8_t comm_r_last[32],
                                           const uint8_t comm_r[32], const cuzk_fc_post_params_t *pp, cuzk_err_t *err);

#endif
