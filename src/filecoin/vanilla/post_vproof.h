/* A Fallback PoSt (Winning / Window) vanilla proof of one sector, as curio and filecoin-ffi hand it over:
 * the bincode encoding of filecoin-proofs' FallbackPoStSectorProof, decoded with strict bounds checks,
 * and the checks a prover makes before synthesis (paths, comm_r, challenged leaves). */
#ifndef CUZK_FILECOIN_POST_VPROOF_H
#define CUZK_FILECOIN_POST_VPROOF_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/merkle.h"
#include "filecoin/vanilla/merkle_bincode.h"
#include "filecoin/registry/post_proof.h"
#include "filecoin/registry/registered_proof.h"

/* storage-proofs-post fallback SectorProof: one Poseidon inclusion path per challenge, all into tree R
 * (root comm_r_last), and comm_c. */
typedef struct {
    size_t n_paths;
    cuzk_fc_merkle_path_t *paths; /* hash = POSEIDON; siblings point into the vproof's storage */
    uint8_t comm_c[32];
    uint8_t comm_r_last[32];
} cuzk_fc_post_sector_proof_t;

/* filecoin-proofs FallbackPoStSectorProof: sector_id, comm_r, then the vanilla proof's sector proofs
 * (one for a single sector). Every 32-byte value is a little-endian Fr representation, unchecked here. */
typedef struct {
    uint64_t sector_id;
    uint8_t comm_r[32];
    size_t n_sectors;
    cuzk_fc_post_sector_proof_t *sectors;
    void *storage; /* the one allocation behind sectors, paths and siblings */
} cuzk_fc_post_vproof_t;

/* MerkleProof's variants (merkle_bincode.h), the u32 tag before each path. */
enum {
    CUZK_FC_POST_PATH_SINGLE = CUZK_FC_MERKLE_PROOF_SINGLE,
    CUZK_FC_POST_PATH_SUB = CUZK_FC_MERKLE_PROOF_SUB,
    CUZK_FC_POST_PATH_TOP = CUZK_FC_MERKLE_PROOF_TOP
};

/* Decodes the bincode layout (integers little-endian, sequences prefixed by a u64 length):
 *   u64 sector_id, comm_r[32], u64 n_sectors, n_sectors × {
 *     u64 n_paths, n_paths × MerkleProof, comm_c[32], comm_r_last[32] }
 *   MerkleProof = u32 kind; 0 Single: root, leaf, path; 1 Sub: base path, sub path, root, leaf;
 *                 2 Top: base path, sub path, top path, root, leaf
 *   path = u64 n_levels, n_levels × { u64 n_siblings, n_siblings × [32], u64 index }
 * A level's arity is n_siblings + 1 and must be 2, 4, 8 or 16, its index below the arity, a path at most
 * CUZK_FC_MERKLE_MAX_LEVELS levels. With consumed == NULL the proof must fill buf exactly; otherwise
 * *consumed is set to its length and the bytes after it are left alone. On error (CUZK_ERR_FORMAT naming the
 * byte offset and the field, CUZK_ERR_NO_MEMORY) *out is zeroed and nothing is left allocated. */
cuzk_status cuzk_fc_post_vproof_decode(cuzk_fc_post_vproof_t *out, const uint8_t *buf, size_t len,
                                       size_t *consumed, cuzk_err_t *err);

/* Frees what decode allocated and zeroes *v (NULL-safe). */
void cuzk_fc_post_vproof_free(cuzk_fc_post_vproof_t *v);

/* What the PoSt's public parameters fix about one sector's proof. */
typedef struct {
    uint64_t sector_size;             /* bytes; the tree has sector_size / 32 leaves */
    unsigned base_arity, sub_arity, top_arity; /* tree R shape (registered_proof.h), e.g. 8-8-0 */
    uint32_t challenge_count;         /* per sector: 10 for Window PoSt, 66 for Winning */
    cuzk_fc_api_t api;                /* selects the challenge index rule (challenges.h) */
    uint64_t sector_index;            /* the sector's position among the proven sectors */
    uint8_t randomness[32];
} cuzk_fc_post_params_t;

/* The parameters registered PoSt proof p fixes (sector size, tree shape, the vanilla proof's challenge
 * count, API version), for the sector at sector_index and the randomness. */
void cuzk_fc_post_params_of_proof(cuzk_fc_post_params_t *pp, const cuzk_fc_post_proof_t *p, uint64_t sector_index,
                                  const uint8_t randomness[32]);

/* The checks of storage-proofs-post fallback vanilla verification for this sector, with comm_r from the
 * proof itself: every sector proof has challenge_count paths of the tree's shape; each path's claimed
 * root is the sector proof's comm_r_last and the path hashes to it; Poseidon2(comm_c, comm_r_last) =
 * comm_r; path n opens leaf cuzk_fc_post_leaf_challenge(randomness, sector_id, challenge index n).
 * CUZK_ERR_MISMATCH naming the sector proof, the path and what differs; CUZK_ERR_NOT_CANONICAL for a
 * value that is not an Fr; CUZK_ERR_FORMAT for a path that cannot be used. */
cuzk_status cuzk_fc_post_vproof_verify(const cuzk_fc_post_vproof_t *v, const cuzk_fc_post_params_t *params,
                                       cuzk_err_t *err);

#endif
