/* SnapDeals' randomness (storage-proofs-update challenges.rs and vanilla.rs phi / rho): Poseidon of
 * arity 2 with the custom domain tag 2^40 (HashType::Custom(CType::Arbitrary(1))) over (comm_r_new,
 * digest index) for the challenges, (comm_d_new, comm_r_old) for phi and (phi, high bits of a node) for
 * rho. The public calls are cuzk/snap.h's; the encoder and the vanilla checks share the batched rho
 * tables below. */
#ifndef CUZK_FILECOIN_SNAP_CHALLENGES_H
#define CUZK_FILECOIN_SNAP_CHALLENGES_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/snap.h"
#include "cuzk/status.h"
#include "ff/fr.h"

/* Poseidon2 with the gen-randomness tag over (a, b). */
void cuzk_fc_snap_hash2(fr *out, const fr *a, const fr *b);

/* rho for the high values first_high .. first_high + n − 1 into out[0..n) (rho(node) = out[(node >>
 * cuzk_fc_snap_high_shift(cfg)) − first_high]); with invert, their inverses (decoding). Hashes in batches
 * (the IFMA lanes where the CPU has them). CUZK_ERR_NO_MEMORY. */
cuzk_status cuzk_fc_snap_rhos(fr *out, const fr *phi, uint64_t first_high, size_t n, bool invert, cuzk_err_t *err);

/* The challenge iterator's parameters for cfg (challenges.rs Challenges::new): random bits per challenge
 * (log2 nodes − log2 partitions), challenges per digest (254 / those bits) and digests per partition
 * (ceil(challenge_count / challenges per digest)). */
typedef struct {
    uint32_t random_bits, per_digest, digests_per_partition;
} cuzk_fc_snap_challenge_shape_t;
void cuzk_fc_snap_challenge_shape(cuzk_fc_snap_challenge_shape_t *out, const cuzk_snap_config_t *cfg);

#endif
