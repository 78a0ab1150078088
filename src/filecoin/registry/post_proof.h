/* Filecoin's registered PoSt proofs (rust-filecoin-proofs-api RegisteredPoStProof): the numeric id, the
 * names the Rust API and Filecoin's Go types give it, and every setting that follows from it (sector
 * size, tree shape, kind, API version, the circuit's sectors and challenges, the vanilla proof's). */
#ifndef CUZK_FILECOIN_POST_PROOF_H
#define CUZK_FILECOIN_POST_PROOF_H
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/registry/registered_proof.h"

#define CUZK_FC_POST_PROOF_COUNT 15
#define CUZK_FC_WINNING_POST_CHALLENGES 66 /* WINNING_POST_CHALLENGE_COUNT */
#define CUZK_FC_WINDOW_POST_CHALLENGES 10  /* WINDOW_POST_CHALLENGE_COUNT */

typedef enum {
    CUZK_FC_POST_WINNING = 0,
    CUZK_FC_POST_WINDOW = 1,
} cuzk_fc_post_kind_t;

typedef struct {
    uint32_t id;               /* RegisteredPoStProof number */
    const char *name;          /* as the Rust API's serde prints it: "StackedDrgWindow32GiBV1_2" */
    const char *go_name;       /* go-state-types abi, without "RegisteredPoStProof_": "StackedDrgWindow32GiBV1_1" */
    const char *size_name;     /* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" */
    uint64_t sector_size;      /* bytes */
    cuzk_fc_post_kind_t kind;
    cuzk_fc_api_t api;         /* RegisteredPoStProof::version: V1_0 (ids 0..9) or V1_2 (10..14) */
    uint8_t base_arity, sub_arity, top_arity; /* tree R, as the seal proofs of the size */
    uint32_t sector_count;     /* circuit sectors (winning_post_setup_params / window_post_setup_params) */
    uint32_t challenge_count;  /* challenges per circuit sector */
    uint32_t vanilla_sectors;  /* sectors one proof covers (PoStConfig.sector_count) */
    uint32_t vanilla_challenges; /* paths in one sector's vanilla proof (PoStConfig.challenge_count) */
} cuzk_fc_post_proof_t;

/* The whole table in id order (CUZK_FC_POST_PROOF_COUNT entries). */
const cuzk_fc_post_proof_t *cuzk_fc_post_proofs(void);

/* By number. CUZK_ERR_INVALID_ARG naming the id when it is not registered. */
cuzk_status cuzk_fc_post_proof_by_id(const cuzk_fc_post_proof_t **out, uint64_t id, cuzk_err_t *err);
/* By name: the Rust name ("StackedDrgWindow32GiBV1_2"), the Go name ("StackedDrgWindow32GiBV1_1"), either
 * with the prefix "RegisteredPoStProof_", or the decimal number ("13"). Names compare exactly. */
cuzk_status cuzk_fc_post_proof_parse(const cuzk_fc_post_proof_t **out, const char *name, cuzk_err_t *err);
/* The proof Filecoin registers today for a kind and size: Winning V1 (ids 0..4), Window V1_1 (10..14).
 * CUZK_ERR_INVALID_ARG for another size. */
cuzk_status cuzk_fc_post_proof_for_size(const cuzk_fc_post_proof_t **out, cuzk_fc_post_kind_t kind,
                                        uint64_t sector_size, cuzk_err_t *err);

#endif
