/* bincode of storage-proofs-core's MerkleProof (merkle/proof.rs), read and written: the one layout every
 * vanilla proof of Filecoin embeds (PoSt sector proofs, SnapDeals partition proofs). serde's derives under
 * bincode 1's default options: little-endian fixed-width integers, u64 sequence lengths, u32 enum tags.
 *   MerkleProof = u32 kind; 0 Single: root, leaf, path; 1 Sub: base path, sub path, root, leaf;
 *                 2 Top: base path, sub path, top path, root, leaf
 *   path = u64 n_levels, n_levels × { u64 n_siblings, n_siblings × [32], u64 index }
 * The readers bound every length by the bytes left, so no length field can ask for more memory or work
 * than the input itself holds. */
#ifndef CUZK_FILECOIN_MERKLE_BINCODE_H
#define CUZK_FILECOIN_MERKLE_BINCODE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/merkle.h"

/* MerkleProof's variants (ProofData), the u32 tag before each path. */
enum { CUZK_FC_MERKLE_PROOF_SINGLE = 0, CUZK_FC_MERKLE_PROOF_SUB = 1, CUZK_FC_MERKLE_PROOF_TOP = 2 };

/* A cursor over bincode bytes. who prefixes every message ("post vproof", "snap vproof"). */
typedef struct {
    const uint8_t *buf;
    size_t len, pos;
    const char *who;
    cuzk_err_t *err;
} cuzk_fc_bincode_reader_t;

/* n bytes at the cursor (*p points into buf). CUZK_ERR_FORMAT "truncated at byte <pos> reading <what>". */
cuzk_status cuzk_fc_bincode_take(cuzk_fc_bincode_reader_t *r, const uint8_t **p, size_t n, const char *what);
cuzk_status cuzk_fc_bincode_u32(cuzk_fc_bincode_reader_t *r, uint32_t *v, const char *what);
cuzk_status cuzk_fc_bincode_u64(cuzk_fc_bincode_reader_t *r, uint64_t *v, const char *what);
/* A 32-byte domain value (copied to out unless out is NULL). */
cuzk_status cuzk_fc_bincode_domain(cuzk_fc_bincode_reader_t *r, uint8_t *out, const char *what);

/* One MerkleProof. hash: the tree's hash (SHA-256 paths must have arity 2 at every level). path NULL: the
 * bytes are checked and *n_sib grows by the path's sibling count (a counting pass). Otherwise path is
 * filled (hash, levels, steps, leaf, root; siblings = *sib) and the siblings are copied to *sib, which is
 * advanced past them. A level's arity (n_siblings + 1) must be 2, 4, 8 or 16, its index below the arity,
 * the whole path at most CUZK_FC_MERKLE_MAX_LEVELS levels. CUZK_ERR_FORMAT naming the byte offset and the
 * field. */
cuzk_status cuzk_fc_bincode_merkle_proof(cuzk_fc_bincode_reader_t *r, cuzk_fc_merkle_hash_t hash,
                                         cuzk_fc_merkle_path_t *path, uint8_t **sib, size_t *n_sib);

/* The variant a path is written as: Top when it has top levels, else Sub when it has sub levels, else
 * Single, as the tree shape decides in rust-fil-proofs (8-0-0 and tree D: Single, 8-8-0: Sub, 8-8-2:
 * Top). A decoded Sub or Top proof with an empty sub / top path (no Filecoin tree makes one) is written
 * as the variant its levels imply, so it does not round-trip. */
uint32_t cuzk_fc_bincode_merkle_proof_kind(const cuzk_fc_merkle_path_t *p);

/* Bytes of p's encoding (p well formed: cuzk_fc_merkle_path_check). */
size_t cuzk_fc_bincode_merkle_proof_len(const cuzk_fc_merkle_path_t *p);

/* Writers: each puts its value at w and returns the byte after it. The caller sized the buffer. */
uint8_t *cuzk_fc_bincode_put_u32(uint8_t *w, uint32_t x);
uint8_t *cuzk_fc_bincode_put_u64(uint8_t *w, uint64_t x);
uint8_t *cuzk_fc_bincode_put_bytes(uint8_t *w, const uint8_t *b, size_t n);
/* p's MerkleProof (cuzk_fc_bincode_merkle_proof_len(p) bytes; p well formed, with its siblings). */
uint8_t *cuzk_fc_bincode_put_merkle_proof(uint8_t *w, const cuzk_fc_merkle_path_t *p);

#endif
