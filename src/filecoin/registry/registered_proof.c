/* The registered seal proof table (rust-filecoin-proofs-api src/registry.rs; sizes, layers, partitions and
 * minimum challenges from filecoin-proofs src/constants.rs). */
#include "filecoin/registry/registered_proof.h"
#include "filecoin/registry/proof_name.h"
#include <string.h>

#define KIB (1ull << 10)
#define MIB (1ull << 20)
#define GIB (1ull << 30)

/* One sector size's settings as macro arguments (a static initialiser needs constants): name, bytes,
 * layers, tree arities, interactive minimum challenges and partitions, NI minimum and partitions. */
#define S_2K "2KiB", 2 * KIB, 2, 8, 0, 0, 2, 1, 26, 13
#define S_8M "8MiB", 8 * MIB, 2, 8, 0, 0, 2, 1, 26, 13
#define S_512M "512MiB", 512 * MIB, 2, 8, 0, 0, 2, 1, 26, 13
#define S_32G "32GiB", 32 * GIB, 11, 8, 8, 0, 176, 10, 2253, 126
#define S_64G "64GiB", 64 * GIB, 11, 8, 8, 2, 176, 10, 2253, 126

#define IS_NI(KIND) ((KIND) == CUZK_FC_CHALLENGES_NON_INTERACTIVE)
#define ROW_(ID, NAME, API, KIND, SN, SZ, L, B, SB, T, MINI, PI, MINN, PN)                            \
    {(ID), (NAME), (SN), (API), (KIND), (SZ), (SZ) / CUZK_FC_NODE_SIZE, (L), (B), (SB), (T),          \
     IS_NI(KIND) ? (MINN) : (MINI), IS_NI(KIND) ? (PN) : (PI),                                        \
     IS_NI(KIND) ? ((MINN) + (PN) - 1) / (PN) : ((MINI) + (PI) - 1) / (PI)}
#define ROW(ID, NAME, SIZE, API, KIND) ROW_(ID, NAME, API, KIND, SIZE)

static const cuzk_fc_seal_proof_t TABLE[CUZK_FC_SEAL_PROOF_COUNT] = {
    ROW(0, "StackedDrg2KiBV1", S_2K, CUZK_FC_API_V1_0, CUZK_FC_CHALLENGES_INTERACTIVE),
    ROW(1, "StackedDrg8MiBV1", S_8M, CUZK_FC_API_V1_0, CUZK_FC_CHALLENGES_INTERACTIVE),
    ROW(2, "StackedDrg512MiBV1", S_512M, CUZK_FC_API_V1_0, CUZK_FC_CHALLENGES_INTERACTIVE),
    ROW(3, "StackedDrg32GiBV1", S_32G, CUZK_FC_API_V1_0, CUZK_FC_CHALLENGES_INTERACTIVE),
    ROW(4, "StackedDrg64GiBV1", S_64G, CUZK_FC_API_V1_0, CUZK_FC_CHALLENGES_INTERACTIVE),
    ROW(5, "StackedDrg2KiBV1_1", S_2K, CUZK_FC_API_V1_1, CUZK_FC_CHALLENGES_INTERACTIVE),
    ROW(6, "StackedDrg8MiBV1_1", S_8M, CUZK_FC_API_V1_1, CUZK_FC_CHALLENGES_INTERACTIVE),
    ROW(7, "StackedDrg512MiBV1_1", S_512M, CUZK_FC_API_V1_1, CUZK_FC_CHALLENGES_INTERACTIVE),
    ROW(8, "StackedDrg32GiBV1_1", S_32G, CUZK_FC_API_V1_1, CUZK_FC_CHALLENGES_INTERACTIVE),
    ROW(9, "StackedDrg64GiBV1_1", S_64G, CUZK_FC_API_V1_1, CUZK_FC_CHALLENGES_INTERACTIVE),
    /* The synthetic variants carry "V1_1" in their published names but run at API version 1.2. */
    ROW(10, "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", S_2K, CUZK_FC_API_V1_2, CUZK_FC_CHALLENGES_SYNTHETIC),
    ROW(11, "StackedDrg8MiBV1_1_Feat_SyntheticPoRep", S_8M, CUZK_FC_API_V1_2, CUZK_FC_CHALLENGES_SYNTHETIC),
    ROW(12, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep", S_512M, CUZK_FC_API_V1_2,
        CUZK_FC_CHALLENGES_SYNTHETIC),
    ROW(13, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep", S_32G, CUZK_FC_API_V1_2, CUZK_FC_CHALLENGES_SYNTHETIC),
    ROW(14, "StackedDrg64GiBV1_1_Feat_SyntheticPoRep", S_64G, CUZK_FC_API_V1_2, CUZK_FC_CHALLENGES_SYNTHETIC),
    ROW(15, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", S_2K, CUZK_FC_API_V1_2,
        CUZK_FC_CHALLENGES_NON_INTERACTIVE),
    ROW(16, "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", S_8M, CUZK_FC_API_V1_2,
        CUZK_FC_CHALLENGES_NON_INTERACTIVE),
    ROW(17, "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", S_512M, CUZK_FC_API_V1_2,
        CUZK_FC_CHALLENGES_NON_INTERACTIVE),
    ROW(18, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", S_32G, CUZK_FC_API_V1_2,
        CUZK_FC_CHALLENGES_NON_INTERACTIVE),
    ROW(19, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", S_64G, CUZK_FC_API_V1_2,
        CUZK_FC_CHALLENGES_NON_INTERACTIVE),
};

const cuzk_fc_seal_proof_t *cuzk_fc_seal_proofs(void)
{
    return TABLE;
}

cuzk_status cuzk_fc_seal_proof_by_id(const cuzk_fc_seal_proof_t **out, uint64_t id, cuzk_err_t *err)
{
    if (!out)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "seal proof lookup: no output pointer");
    *out = NULL;
    if (id >= CUZK_FC_SEAL_PROOF_COUNT)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "unknown registered seal proof id %llu (known: 0..%d)",
                            (unsigned long long)id, CUZK_FC_SEAL_PROOF_COUNT - 1);
    *out = &cuzk_fc_seal_proofs()[id];
    return CUZK_OK;
}

cuzk_status cuzk_fc_seal_proof_parse(const cuzk_fc_seal_proof_t **out, const char *name,
                                     cuzk_err_t *err)
{
    if (!out || !name)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "seal proof lookup: NULL argument");
    *out = NULL;
    const char *s;
    uint64_t v;
    cuzk_fc_proof_name_t k = cuzk_fc_proof_name_split(name, "RegisteredSealProof_", CUZK_FC_SEAL_PROOF_COUNT, &v, &s);
    if (k == CUZK_FC_PROOF_NAME_ID)
        return cuzk_fc_seal_proof_by_id(out, v, err);
    if (k == CUZK_FC_PROOF_NAME_BAD_ID)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "unknown registered seal proof \"%.64s\" (known ids: 0..%d)",
                            name, CUZK_FC_SEAL_PROOF_COUNT - 1);
    const cuzk_fc_seal_proof_t *t = cuzk_fc_seal_proofs();
    for (int i = 0; i < CUZK_FC_SEAL_PROOF_COUNT; i++)
        if (strcmp(t[i].name, s) == 0) {
            *out = &t[i];
            return CUZK_OK;
        }
    return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                        "unknown registered seal proof \"%.64s\" (expected a name such as "
                        "StackedDrg32GiBV1_1 or a number 0..%d)",
                        name, CUZK_FC_SEAL_PROOF_COUNT - 1);
}

void cuzk_fc_porep_id(uint8_t out[32], uint64_t id)
{
    memset(out, 0, 32);
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(id >> (8 * i));
    /* bytes 8..15: the nonce, 0 for every registered proof */
}

const char *cuzk_fc_api_str(cuzk_fc_api_t api)
{
    switch (api) {
    case CUZK_FC_API_V1_0: return "V1_0";
    case CUZK_FC_API_V1_1: return "V1_1";
    case CUZK_FC_API_V1_2: return "V1_2";
    }
    return "?";
}

const char *cuzk_fc_challenge_kind_str(cuzk_fc_challenge_kind_t kind)
{
    switch (kind) {
    case CUZK_FC_CHALLENGES_INTERACTIVE: return "interactive";
    case CUZK_FC_CHALLENGES_SYNTHETIC: return "synthetic";
    case CUZK_FC_CHALLENGES_NON_INTERACTIVE: return "non-interactive";
    }
    return "?";
}
