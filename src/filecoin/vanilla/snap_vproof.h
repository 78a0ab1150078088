/* A SnapDeals vanilla partition proof, as filecoin-ffi's generate_partition_proofs returns it and Curio hands
 * it over: the bincode encoding of storage-proofs-update's PartitionProof (vanilla.rs), decoded with strict
 * bounds checks; the checks a prover makes before synthesis (vanilla.rs EmptySectorUpdate::verify, made
 * stricter where the circuit is: see cuzk_fc_snap_vproof_verify) and the circuit's witness values taken
 * from it. cuzk/snap.h's opaque cuzk_snap_vanilla_t is defined here for the areas above (the circuit). */
#ifndef CUZK_FILECOIN_SNAP_VPROOF_H
#define CUZK_FILECOIN_SNAP_VPROOF_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/snap.h"
#include "cuzk/status.h"
#include "filecoin/vanilla/merkle.h"

/* ChallengeProof: the challenged node's inclusion paths into tree R old (Poseidon, the sector's
 * base-sub-top shape), tree D new (binary SHA-256) and tree R new. Siblings point into the proof's
 * storage. */
typedef struct {
    cuzk_fc_merkle_path_t r_old, d_new, r_new;
} cuzk_fc_snap_challenge_proof_t;

/* PartitionProof. Every 32-byte value is a little-endian field element representation, unchecked here. */
typedef struct {
    uint8_t comm_c[32];
    size_t n_apex;
    const uint8_t *apex;   /* n_apex × 32 bytes: the partition's apex leaves (tree D nodes), in order */
    size_t n_challenges;
    cuzk_fc_snap_challenge_proof_t *challenges;
    void *storage;         /* the one allocation behind apex, challenges and siblings */
} cuzk_fc_snap_vproof_t;

/* cuzk/snap.h's handle: one decoded partition proof. */
struct cuzk_snap_vanilla {
    cuzk_fc_snap_vproof_t v;
};

/* Decodes the bincode layout (integers little-endian, sequences prefixed by a u64 length):
 *   comm_c[32], u64 n_apex, n_apex × [32], u64 n_challenges, n_challenges × {
 *     MerkleProof tree R old, MerkleProof tree D new, MerkleProof tree R new }
 * MerkleProof as merkle_bincode.h lays it out; tree D's paths must be binary. With consumed == NULL the
 * proof must fill buf exactly; otherwise *consumed is set to its length and the bytes after it are left
 * alone. On error (CUZK_ERR_FORMAT naming the byte offset, the field, the challenge and the path;
 * CUZK_ERR_NO_MEMORY) *out is zeroed and nothing is left allocated. */
cuzk_status cuzk_fc_snap_vproof_decode(cuzk_fc_snap_vproof_t *out, const uint8_t *buf, size_t len, size_t *consumed,
                                       cuzk_err_t *err);

/* Frees what decode allocated and zeroes *v (NULL-safe). */
void cuzk_fc_snap_vproof_free(cuzk_fc_snap_vproof_t *v);

/* A sector's proofs, bincode Vec<PartitionProof> (u64 count, then each), exactly filling buf: up to max of
 * them into out[0..*n). CUZK_ERR_BAD_LENGTH when the count is above max; the decoder's errors, prefixed
 * with the partition proof's number; CUZK_ERR_FORMAT for trailing bytes. On error every out[i] is zeroed
 * and *n is 0. */
cuzk_status cuzk_fc_snap_vproof_list_decode(cuzk_fc_snap_vproof_t *out, size_t max, size_t *n, const uint8_t *buf,
                                            size_t len, cuzk_err_t *err);

/* "tree R old", "tree D new", "tree R new" for path 0, 1, 2 of a challenge proof. */
const char *cuzk_fc_snap_path_name(int which);

/* The proof's shape against cfg (cuzk_snap_config_check'ed here) and partition k: k < partition_count,
 * cfg->apex_leaf_count apex leaves, cfg->challenge_count challenge proofs, every tree-R path of the
 * base-sub-top shape over cfg->nodes leaves, every tree-D path binary over cfg->nodes leaves.
 * CUZK_ERR_INVALID_ARG (a bad cfg, k out of range), CUZK_ERR_MISMATCH naming the partition, the
 * challenge and the path. */
cuzk_status cuzk_fc_snap_vproof_check_shape(const cuzk_fc_snap_vproof_t *v, const cuzk_snap_config_t *cfg,
                                            uint32_t k, cuzk_err_t *err);

/* Partition k's proof against the sector's public commitments, as vanilla.rs' verify checks it, after
 * cuzk_fc_snap_vproof_check_shape:
 *   - root_r_old / root_r_new = the roots of the first challenge's tree-R paths; Poseidon2(comm_c,
 *     root_r_old) = comm_r_old and Poseidon2(comm_c, root_r_new) = comm_r_new;
 *   - challenge i is cuzk_snap_challenges(cfg, comm_r_new, k)[i]: each of its three paths opens that node,
 *     claims its tree's root (root_r_old, comm_d_new, root_r_new) and hashes to it;
 *   - the encoding: leaf_r_new = leaf_r_old + leaf_d_new · rho(node), rho from phi(comm_d_new, comm_r_old);
 *   - the apex leaves: the tree-D path's node at the apex-leaf row (log2 nodes − log2 partitions −
 *     log2 apex leaves above the leaves) is the apex leaf its position names, and its siblings up the
 *     apex tree are the apex tree's nodes (vanilla.rs only asks that each such sibling appear somewhere in
 *     its apex-tree row; the circuit needs these exact nodes, so this check is the circuit's).
 * Every value the circuit takes must be a canonical Fr (tree D's leaves and apex leaves included).
 * Challenges are checked on `threads` threads (0: every online CPU); the error reported is the first
 * challenge's that fails. CUZK_ERR_MISMATCH naming the partition, the challenge (and its node) and the
 * path; CUZK_ERR_NOT_CANONICAL likewise; the errors of check_shape; CUZK_ERR_NO_MEMORY. */
cuzk_status cuzk_fc_snap_vproof_verify(const cuzk_fc_snap_vproof_t *v, const cuzk_snap_config_t *cfg, uint32_t k,
                                       const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                       const uint8_t comm_r_new[32], int threads, cuzk_err_t *err);

/* The circuit's values of partition k from its proof into w, a witness initialized for cfg
 * (cuzk_snap_witness_init): k, the three commitments, comm_c, the two tree-R roots (the first challenge's
 * paths'), the apex leaves, each challenge's three leaves and siblings; then w->has_values = true. The
 * shape is checked (check_shape against w->cfg); the values are not verified (the caller runs
 * cuzk_fc_snap_vproof_verify first). CUZK_ERR_INVALID_ARG (an uninitialized witness), the errors of
 * check_shape, CUZK_ERR_NOT_CANONICAL naming the value. On error w->has_values is false. */
cuzk_status cuzk_fc_snap_vproof_witness(cuzk_snap_witness_t *w, const cuzk_fc_snap_vproof_t *v, uint32_t k,
                                        const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                        const uint8_t comm_r_new[32], cuzk_err_t *err);

#endif
