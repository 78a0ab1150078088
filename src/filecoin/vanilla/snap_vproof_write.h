/* The bincode encoder of storage-proofs-update's PartitionProof, the inverse of snap_vproof.h's decoder:
 * what filecoin-ffi's generate_partition_proofs returns for one partition, byte for byte (serde's derive
 * over PartitionProof, ChallengeProof and storage-proofs-core MerkleProof; bincode 1's default options),
 * and the file form of a sector's proofs, bincode Vec<PartitionProof> (u64 count, then each). */
#ifndef CUZK_FILECOIN_SNAP_VPROOF_WRITE_H
#define CUZK_FILECOIN_SNAP_VPROOF_WRITE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/snap_vproof.h"

/* Bytes of v's encoding; 0 when v cannot be encoded (see cuzk_fc_snap_vproof_encode). */
size_t cuzk_fc_snap_vproof_encoded_len(const cuzk_fc_snap_vproof_t *v);

/* Encodes v into buf (cap bytes; *len gets the bytes written). Every path must be well formed
 * (cuzk_fc_merkle_path_check) with its siblings; tree R's paths Poseidon, tree D's SHA-256.
 * CUZK_ERR_INVALID_ARG (NULL, a path of the wrong hash or that fails the check: the message names the
 * challenge and the path), CUZK_ERR_BAD_LENGTH when cap is too small (nothing useful is left in buf). */
cuzk_status cuzk_fc_snap_vproof_encode_into(uint8_t *buf, size_t cap, size_t *len, const cuzk_fc_snap_vproof_t *v,
                                            cuzk_err_t *err);

/* The same into a new malloc'd buffer *out of *out_len bytes, which the caller frees; on error *out is
 * NULL. Also CUZK_ERR_NO_MEMORY. */
cuzk_status cuzk_fc_snap_vproof_encode(uint8_t **out, size_t *out_len, const cuzk_fc_snap_vproof_t *v,
                                       cuzk_err_t *err);

/* bincode Vec<PartitionProof> from n encoded partition proofs (parts[i], lens[i] bytes each; taken as
 * they are): the u64 count, then each. *out is malloc'd (the caller frees it); on error NULL.
 * CUZK_ERR_INVALID_ARG (NULL), CUZK_ERR_NO_MEMORY. */
cuzk_status cuzk_fc_snap_vproof_list_join(uint8_t **out, size_t *out_len, const uint8_t *const *parts,
                                          const size_t *lens, size_t n, cuzk_err_t *err);

#endif
