/* Filecoin's registered seal proofs (rust-filecoin-proofs-api RegisteredSealProof): the numeric id, the
 * name Filecoin prints, and every setting that follows from it (sector size, graph, layers, tree shape,
 * challenges and partitions, porep_id, API version). Parameter file names: params_names.h. */
#ifndef CUZK_FILECOIN_REGISTERED_PROOF_H
#define CUZK_FILECOIN_REGISTERED_PROOF_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"

/* storage-proofs-core ApiVersion. The version decides the DRG parent order (V1_0: the predecessor is
 * the last DRG parent; later: the first) and how expander parents are narrowed to u32. */
typedef enum {
    CUZK_FC_API_V1_0 = 0,
    CUZK_FC_API_V1_1 = 1,
    CUZK_FC_API_V1_2 = 2,
} cuzk_fc_api_t;

/* Which challenge derivation a seal proof uses (filecoin-proofs parameters.rs select_challenges). */
typedef enum {
    CUZK_FC_CHALLENGES_INTERACTIVE = 0,
    CUZK_FC_CHALLENGES_SYNTHETIC = 1,
    CUZK_FC_CHALLENGES_NON_INTERACTIVE = 2,
} cuzk_fc_challenge_kind_t;

#define CUZK_FC_SEAL_PROOF_COUNT 20
#define CUZK_FC_NODE_SIZE 32
#define CUZK_FC_DRG_DEGREE 6   /* BASE_DEGREE */
#define CUZK_FC_EXP_DEGREE 8   /* EXP_DEGREE */
#define CUZK_FC_PARENTS 14     /* DRG + expander parents of a node */
#define CUZK_FC_LABEL_PARENTS 37

typedef struct {
    uint32_t id;                  /* RegisteredSealProof number, the first 8 bytes (LE) of porep_id */
    const char *name;             /* as serde prints it: "StackedDrg32GiBV1_1" */
    const char *size_name;        /* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" */
    cuzk_fc_api_t api;
    cuzk_fc_challenge_kind_t challenges;
    uint64_t sector_size;         /* bytes */
    uint64_t nodes;               /* sector_size / 32 */
    uint32_t layers;
    uint8_t base_arity, sub_arity, top_arity;   /* tree R / tree C shape: 8-0-0, 8-8-0, 8-8-2 */
    uint32_t min_challenges;      /* minimum total challenges of this kind */
    uint32_t partitions;          /* Groth16 proofs per sector (NI: proofs aggregated later) */
    uint32_t challenges_per_partition; /* ceil(min_challenges / partitions) */
} cuzk_fc_seal_proof_t;

/* The whole table in id order (CUZK_FC_SEAL_PROOF_COUNT entries). */
const cuzk_fc_seal_proof_t *cuzk_fc_seal_proofs(void);

/* Looks a proof up by its number. CUZK_ERR_INVALID_ARG naming the id when it is not registered. */
cuzk_status cuzk_fc_seal_proof_by_id(const cuzk_fc_seal_proof_t **out, uint64_t id, cuzk_err_t *err);
/* Looks a proof up by name: the serde name ("StackedDrg2KiBV1_1"), the same with the Go prefix
 * "RegisteredSealProof_", or the decimal number ("5"). Names compare exactly. */
cuzk_status cuzk_fc_seal_proof_parse(const cuzk_fc_seal_proof_t **out, const char *name,
                                     cuzk_err_t *err);

/* porep_id = u64_le(id) ‖ u64_le(nonce = 0) ‖ 16 zero bytes (registry.rs porep_id). */
void cuzk_fc_porep_id(uint8_t out[32], uint64_t id);

/* "V1_0", "V1_1", "V1_2" and "interactive", "synthetic", "non-interactive". */
const char *cuzk_fc_api_str(cuzk_fc_api_t api);
const char *cuzk_fc_challenge_kind_str(cuzk_fc_challenge_kind_t kind);

#endif
