/* The request side of the PoSt product path (cuzk/post.h): the vanilla proof behind cuzk_post_vanilla_t,
 * what a request's registered proof fixes, the checks a prover makes before synthesis, and the partition's
 * public inputs, derived as storage-proofs-post's fallback compound.rs generate_public_inputs derives them
 * (the derivation also serves the tests of third-party proofs). */
#ifndef CUZK_FILECOIN_POST_REQUEST_H
#define CUZK_FILECOIN_POST_REQUEST_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/field.h"
#include "cuzk/post.h"
#include "cuzk/status.h"
#include "filecoin/registry/registered_proof.h"
#include "filecoin/vanilla/post_vproof.h"

/* The public cuzk_post_vanilla_t is this structure: one decoded FallbackPoStSectorProof. */
struct cuzk_post_vanilla {
    cuzk_fc_post_vproof_t v;
};

/* What a partition's public inputs depend on: storage-proofs-post fallback PublicParams as the circuit
 * sees them (Winning: 66 sectors of 1 challenge; Window: sector_count sectors of 10). */
typedef struct {
    uint64_t sector_size;     /* bytes; sector_size / 32 leaves */
    uint32_t sector_count;    /* circuit sectors per partition */
    uint32_t challenge_count; /* challenges per circuit sector */
    cuzk_fc_api_t api;        /* the challenge index rule (post_challenges.h) */
} cuzk_post_inputs_shape_t;

/* sector_count·(1 + challenge_count): the inputs of a partition, ONE excluded. */
size_t cuzk_post_inputs_count(const cuzk_post_inputs_shape_t *shape);

/* compound.rs generate_public_inputs for partition `partition` whose public sectors are the n given
 * (1 <= n <= sector_count; sector i has id sector_ids[i] and comm_r comm_r[i], a 32-byte LE Fr): per
 * sector comm_r, then per challenge n' the challenged leaf (the PoR's packed path bits) of
 * sector_index = partition·sector_count + i and challenge index get_challenge_index(api, sector_index,
 * challenge_count, n'); then the last sector's inputs repeated up to sector_count sectors. Montgomery Fr
 * into out[out_len]. CUZK_ERR_INVALID_ARG (n), CUZK_ERR_BAD_LENGTH (out_len below
 * cuzk_post_inputs_count), CUZK_ERR_NOT_CANONICAL naming the randomness or the sector's comm_r. */
cuzk_status cuzk_post_inputs_derive(cuzk_fr_t *out, size_t out_len, const cuzk_post_inputs_shape_t *shape,
                                    const uint64_t *sector_ids, const uint8_t (*comm_r)[32], size_t n,
                                    const uint8_t randomness[32], uint32_t partition, cuzk_err_t *err);

/* A request's registered proof, its circuit and its inputs' shape. */
typedef struct {
    cuzk_post_registered_proof_t proof;
    cuzk_post_config_t cfg;
    cuzk_post_inputs_shape_t shape;
} cuzk_post_plan_t;

/* The checks of a request that need no vanilla path: the proof id, the number of vanilla proofs (Winning 1,
 * Window 1..sector_count, none NULL), the partition index (Winning: 0), the randomness a canonical Fr.
 * CUZK_ERR_INVALID_ARG, CUZK_ERR_NOT_CANONICAL. */
cuzk_status cuzk_post_request_plan(cuzk_post_plan_t *plan, const cuzk_post_request_t *req, cuzk_err_t *err);

/* cuzk_post_check with the sectors checked on `threads` threads (<= 0: every online CPU); the message
 * names the first bad sector whatever the thread count. */
cuzk_status cuzk_post_check_threads(const cuzk_post_request_t *req, int threads, cuzk_err_t *err);

#endif
