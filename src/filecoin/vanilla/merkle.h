/* Out-of-circuit Merkle inclusion proofs of Filecoin's trees (storage-proofs-core merkle/proof.rs): tree D
 * (binary SHA-256, trimmed nodes) and the Poseidon trees R / C of shape base-sub-top (8-0-0, 8-8-0, 8-8-2).
 * A vanilla proof's paths are checked with these before a circuit is synthesized from them. */
#ifndef CUZK_FILECOIN_MERKLE_H
#define CUZK_FILECOIN_MERKLE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"

typedef enum {
    CUZK_FC_MERKLE_SHA256 = 0,  /* tree D: node = trim(sha256(left ‖ right)), arity 2 only */
    CUZK_FC_MERKLE_POSEIDON = 1, /* trees R and C: node = Poseidon MerkleTree hash of arity 2, 4, 8 or 16 */
} cuzk_fc_merkle_hash_t;

/* Levels a path can have: enough for 2^64 leaves of a binary tree. */
#define CUZK_FC_MERKLE_MAX_LEVELS 64

/* One level of a path, leaf first: the node's position among its `arity` siblings. */
typedef struct {
    uint8_t arity;
    uint8_t index;
} cuzk_fc_merkle_step_t;

/* A path from a leaf to a root, as rust-fil-proofs' MerkleProof holds it (ProofData Single / Sub / Top):
 * n_base levels of the base tree, then n_sub levels of the sub-tree layer, then n_top of the top layer
 * (Filecoin's shapes have 0 or 1 of each of the last two). The leaf's node at level i is inserted at
 * steps[i].index among that level's arity − 1 siblings and the arity nodes are hashed into the next
 * level's node (InclusionPath::root). siblings holds every level's siblings in order, 32 bytes each
 * (32-byte little-endian Fr representations for Poseidon), Σ (arity − 1) of them; it is borrowed, the
 * caller owns the memory. root is the root the proof claims. */
typedef struct {
    cuzk_fc_merkle_hash_t hash;
    uint32_t n_base, n_sub, n_top;
    cuzk_fc_merkle_step_t steps[CUZK_FC_MERKLE_MAX_LEVELS];
    const uint8_t *siblings;
    uint8_t leaf[32];
    uint8_t root[32];
} cuzk_fc_merkle_path_t;

/* n_base + n_sub + n_top. */
uint32_t cuzk_fc_merkle_levels(const cuzk_fc_merkle_path_t *p);
/* Σ (arity − 1) over the levels: how many 32-byte siblings p->siblings must hold. */
size_t cuzk_fc_merkle_sibling_count(const cuzk_fc_merkle_path_t *p);

/* Checks that the path is well formed: at most CUZK_FC_MERKLE_MAX_LEVELS levels, every arity supported by
 * the hash (SHA-256: 2; Poseidon: 2, 4, 8, 16), every index < its arity, the product of the arities below
 * 2^64, siblings present when needed. CUZK_ERR_FORMAT naming the level otherwise, CUZK_ERR_INVALID_ARG for
 * a NULL path or an unknown hash. */
cuzk_status cuzk_fc_merkle_path_check(const cuzk_fc_merkle_path_t *p, cuzk_err_t *err);

/* Checks the path against a tree of `leaves` leaves and shape base-sub-top (sub / top arity 0 = no such
 * layer; Filecoin's registered_proof.h arities, or 2-0-0 for tree D): n_sub = (sub != 0), n_top =
 * (top != 0), every base level has arity `base`, the sub / top level arity `sub` / `top`, and
 * leaves = base^n_base · sub · top (storage-proofs-core compound_path_length). CUZK_ERR_MISMATCH saying
 * what differs; the errors of cuzk_fc_merkle_path_check first. */
cuzk_status cuzk_fc_merkle_path_check_shape(const cuzk_fc_merkle_path_t *p, unsigned base, unsigned sub,
                                            unsigned top, uint64_t leaves, cuzk_err_t *err);

/* The challenged leaf's index: the steps' indices as mixed-radix digits, least significant first
 * (Σ index_i · Π_{j<i} arity_j), which is rust-fil-proofs' path_index for Single, Sub and Top proofs.
 * Errors of cuzk_fc_merkle_path_check. */
cuzk_status cuzk_fc_merkle_leaf_index(uint64_t *out, const cuzk_fc_merkle_path_t *p, cuzk_err_t *err);

/* The root that the leaf and the siblings hash to (out may alias p->leaf or p->root). Errors of
 * cuzk_fc_merkle_path_check; for Poseidon, CUZK_ERR_NOT_CANONICAL naming the level and the node when the
 * leaf or a sibling is not a canonical Fr (rust-fil-proofs panics there). */
cuzk_status cuzk_fc_merkle_compute_root(uint8_t out[32], const cuzk_fc_merkle_path_t *p, cuzk_err_t *err);

/* Verifies the path: the computed root equals p->root (MerkleProof::verify). CUZK_ERR_MISMATCH when it
 * does not, the errors of cuzk_fc_merkle_compute_root otherwise. */
cuzk_status cuzk_fc_merkle_verify(const cuzk_fc_merkle_path_t *p, cuzk_err_t *err);

/* The last step of cuzk_fc_merkle_verify for a root computed elsewhere (e.g. in a batch over many paths):
 * CUZK_ERR_MISMATCH with cuzk_fc_merkle_verify's message when computed differs from p->root. */
cuzk_status cuzk_fc_merkle_check_root(const cuzk_fc_merkle_path_t *p, const uint8_t computed[32], cuzk_err_t *err);

#endif
