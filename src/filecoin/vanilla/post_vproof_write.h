/* The bincode encoder of filecoin-proofs' FallbackPoStSectorProof, the inverse of post_vproof.h's decoder:
 * what filecoin-ffi's generate_single_vanilla_proof returns and Curio hands to a prover, byte for byte
 * (serde's derive over storage-proofs-post SectorProof and storage-proofs-core MerkleProof, bincode 1 with
 * its default options: little-endian fixed-width integers, u64 sequence lengths, u32 enum tags). */
#ifndef CUZK_FILECOIN_POST_VPROOF_WRITE_H
#define CUZK_FILECOIN_POST_VPROOF_WRITE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/post_vproof.h"

/* Which MerkleProof variant (ProofData) a path is written as: Top when it has top levels, else Sub when it
 * has sub levels, else Single, as the tree shape decides in rust-fil-proofs (8-0-0: Single, 8-8-0: Sub,
 * 8-8-2: Top). A decoded proof whose Sub or Top variant carries an empty sub / top path (no Filecoin tree
 * makes one) is written as the variant its levels imply, so it does not round-trip. */
uint32_t cuzk_fc_post_vproof_path_kind(const cuzk_fc_merkle_path_t *p);

/* Bytes of v's encoding; 0 when v cannot be encoded (see cuzk_fc_post_vproof_encode). */
size_t cuzk_fc_post_vproof_encoded_len(const cuzk_fc_post_vproof_t *v);

/* Encodes v into buf (cap bytes; *len gets the bytes written). Every path must be a well-formed Poseidon
 * path (cuzk_fc_merkle_path_check) with siblings. CUZK_ERR_INVALID_ARG (NULL, a SHA-256 path, a path that
 * fails the check: the message names the sector proof and the path), CUZK_ERR_BAD_LENGTH when cap is too
 * small (nothing useful is left in buf then). */
cuzk_status cuzk_fc_post_vproof_encode_into(uint8_t *buf, size_t cap, size_t *len, const cuzk_fc_post_vproof_t *v,
                                            cuzk_err_t *err);

/* The same into a new malloc'd buffer *out of *out_len bytes, which the caller frees; on error *out is
 * NULL. Also CUZK_ERR_NO_MEMORY. */
cuzk_status cuzk_fc_post_vproof_encode(uint8_t **out, size_t *out_len, const cuzk_fc_post_vproof_t *v,
                                       cuzk_err_t *err);

#endif
