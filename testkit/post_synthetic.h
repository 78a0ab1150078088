/* SYNTHETIC Fallback PoSt vanilla proofs of any sector size, for benchmarks and tests only: bincode
 * FallbackPoStSectorProofs that pass every check a prover makes (cuzk_fc_post_vproof_verify: the tree
 * shape, each path to comm_r_last, comm_r = Poseidon2(comm_c, comm_r_last), the challenged leaves of the
 * randomness, sector and challenge index) but describe sectors that were never sealed. A Window PoSt
 * partition of 2349 32GiB sectors is made in seconds instead of needing 75 TiB of sealed replicas. */
#ifndef CUZK_TESTKIT_POST_SYNTHETIC_H
#define CUZK_TESTKIT_POST_SYNTHETIC_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/post_vproof.h"

/* One synthetic proof: the bincode bytes (malloc'd). */
typedef struct {
    uint8_t *data;
    size_t len;
} cuzk_fc_post_synthetic_t;

/* The proofs of n sectors for PoSt parameters pp (post_vproof.h: sector size, tree shape, challenge
 * count, API version, randomness): sector i has number sector_ids[i] and sector index
 * pp->sector_index + i (its place in the challenged list, as generate_fallback_sector_challenges counts
 * it). Each sector's tree R is a sparse tree (sparse_tree.h) over sector_size / 32 leaves whose leaves
 * are one value (from seed_bytes) except the challenged ones, which get values of their own (from
 * seed_bytes, the sector number and the leaf); comm_c is drawn the same way and comm_r =
 * Poseidon2(comm_c, comm_r_last). The same arguments give the same bytes. threads: 0 = every online CPU
 * (sectors in parallel). Errors: CUZK_ERR_INVALID_ARG (NULL, a shape that does not fill the sector, no
 * challenges), CUZK_ERR_NOT_CANONICAL (the randomness), CUZK_ERR_NO_MEMORY; on error every out[i] is
 * empty. Free with cuzk_fc_post_synthetic_free. */
cuzk_status cuzk_fc_post_synthetic(cuzk_fc_post_synthetic_t *out, const cuzk_fc_post_params_t *pp,
                                   const uint64_t *sector_ids, size_t n, const uint8_t seed_bytes[32], int threads,
                                   cuzk_err_t *err);

/* Frees n proofs' bytes and empties them (NULL-safe). */
void cuzk_fc_post_synthetic_free(cuzk_fc_post_synthetic_t *out, size_t n);

#endif
