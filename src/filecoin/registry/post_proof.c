/* The registered PoSt proof table (rust-filecoin-proofs-api src/registry.rs RegisteredPoStProof; the Go
 * names of go-state-types abi; challenge and sector counts from filecoin-proofs src/constants.rs, the
 * circuit's from src/parameters.rs winning_post_setup_params / window_post_setup_params). */
#include "filecoin/registry/post_proof.h"
#include "filecoin/registry/proof_name.h"
#include <string.h>

#define KIB (1ull << 10)
#define MIB (1ull << 20)
#define GIB (1ull << 30)

/* One sector size as macro arguments: name, bytes, tree R arities (those of the seal proofs of the size),
 * Window PoSt sectors per partition (WINDOW_POST_SECTOR_COUNT). */
#define S_2K "2KiB", 2 * KIB, 8, 0, 0, 2
#define S_8M "8MiB", 8 * MIB, 8, 0, 0, 2
#define S_512M "512MiB", 512 * MIB, 8, 0, 0, 2
#define S_32G "32GiB", 32 * GIB, 8, 8, 0, 2349
#define S_64G "64GiB", 64 * GIB, 8, 8, 2, 2300

/* Winning PoSt proves one sector with 66 challenges; winning_post_setup_params turns that into a circuit of
 * 66 sectors of one challenge. Window PoSt: sector_count sectors of 10 challenges, as proven. */
#define WIN_(ID, NAME, GO, SN, SZ, B, S, T, WS)                                                                \
    {(ID), (NAME), (GO), (SN), (SZ), CUZK_FC_POST_WINNING, CUZK_FC_API_V1_0, (B), (S), (T),                   \
     CUZK_FC_WINNING_POST_CHALLENGES, 1, 1, CUZK_FC_WINNING_POST_CHALLENGES}
#define WND_(ID, NAME, GO, API, SN, SZ, B, S, T, WS)                                                           \
    {(ID), (NAME), (GO), (SN), (SZ), CUZK_FC_POST_WINDOW, (API), (B), (S), (T), (WS),                          \
     CUZK_FC_WINDOW_POST_CHALLENGES, (WS), CUZK_FC_WINDOW_POST_CHALLENGES}
#define WIN(ID, NAME, SIZE) WIN_(ID, NAME, NAME, SIZE)
#define WND(ID, NAME, GO, API, SIZE) WND_(ID, NAME, GO, API, SIZE)

static const cuzk_fc_post_proof_t TABLE[CUZK_FC_POST_PROOF_COUNT] = {
    WIN(0, "StackedDrgWinning2KiBV1", S_2K),
    WIN(1, "StackedDrgWinning8MiBV1", S_8M),
    WIN(2, "StackedDrgWinning512MiBV1", S_512M),
    WIN(3, "StackedDrgWinning32GiBV1", S_32G),
    WIN(4, "StackedDrgWinning64GiBV1", S_64G),
    WND(5, "StackedDrgWindow2KiBV1", "StackedDrgWindow2KiBV1", CUZK_FC_API_V1_0, S_2K),
    WND(6, "StackedDrgWindow8MiBV1", "StackedDrgWindow8MiBV1", CUZK_FC_API_V1_0, S_8M),
    WND(7, "StackedDrgWindow512MiBV1", "StackedDrgWindow512MiBV1", CUZK_FC_API_V1_0, S_512M),
    WND(8, "StackedDrgWindow32GiBV1", "StackedDrgWindow32GiBV1", CUZK_FC_API_V1_0, S_32G),
    WND(9, "StackedDrgWindow64GiBV1", "StackedDrgWindow64GiBV1", CUZK_FC_API_V1_0, S_64G),
    /* The grinding fix: the Go types call these V1_1, the Rust API V1_2 and runs them at API version 1.2
     * (challenge indexes no longer depend on the sector's position; filecoin-ffi maps the one to the
     * other). */
    WND(10, "StackedDrgWindow2KiBV1_2", "StackedDrgWindow2KiBV1_1", CUZK_FC_API_V1_2, S_2K),
    WND(11, "StackedDrgWindow8MiBV1_2", "StackedDrgWindow8MiBV1_1", CUZK_FC_API_V1_2, S_8M),
    WND(12, "StackedDrgWindow512MiBV1_2", "StackedDrgWindow512MiBV1_1", CUZK_FC_API_V1_2, S_512M),
    WND(13, "StackedDrgWindow32GiBV1_2", "StackedDrgWindow32GiBV1_1", CUZK_FC_API_V1_2, S_32G),
    WND(14, "StackedDrgWindow64GiBV1_2", "StackedDrgWindow64GiBV1_1", CUZK_FC_API_V1_2, S_64G),
};

const cuzk_fc_post_proof_t *cuzk_fc_post_proofs(void) { return TABLE; }

cuzk_status cuzk_fc_post_proof_by_id(const cuzk_fc_post_proof_t **out, uint64_t id, cuzk_err_t *err)
{
    *out = NULL;
    if (id >= CUZK_FC_POST_PROOF_COUNT)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "unknown registered PoSt proof id %llu (known: 0..%d)",
                            (unsigned long long)id, CUZK_FC_POST_PROOF_COUNT - 1);
    *out = &TABLE[id];
    return CUZK_OK;
}

cuzk_status cuzk_fc_post_proof_parse(const cuzk_fc_post_proof_t **out, const char *name, cuzk_err_t *err)
{
    *out = NULL;
    const char *s;
    uint64_t v;
    cuzk_fc_proof_name_t k = cuzk_fc_proof_name_split(name, "RegisteredPoStProof_", CUZK_FC_POST_PROOF_COUNT, &v, &s);
    if (k == CUZK_FC_PROOF_NAME_ID)
        return cuzk_fc_post_proof_by_id(out, v, err);
    if (k == CUZK_FC_PROOF_NAME_TEXT)
        for (int i = 0; i < CUZK_FC_POST_PROOF_COUNT; i++)
            if (strcmp(TABLE[i].name, s) == 0 || strcmp(TABLE[i].go_name, s) == 0) {
                *out = &TABLE[i];
                return CUZK_OK;
            }
    return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                        "unknown registered PoSt proof \"%.64s\" (expected a name such as StackedDrgWindow32GiBV1_2, "
                        "its Go form StackedDrgWindow32GiBV1_1, or a number 0..%d)",
                        name, CUZK_FC_POST_PROOF_COUNT - 1);
}

cuzk_status cuzk_fc_post_proof_for_size(const cuzk_fc_post_proof_t **out, cuzk_fc_post_kind_t kind,
                                        uint64_t sector_size, cuzk_err_t *err)
{
    *out = NULL;
    /* Winning PoSt has V1 only; Window PoSt's current proofs are the V1_1 (Go) ones, ids 10..14. */
    int first = kind == CUZK_FC_POST_WINNING ? 0 : 10;
    for (int i = first; i < first + 5; i++)
        if (TABLE[i].sector_size == sector_size && TABLE[i].kind == kind) {
            *out = &TABLE[i];
            return CUZK_OK;
        }
    return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "no registered %s PoSt proof has sectors of %llu bytes",
                        kind == CUZK_FC_POST_WINNING ? "Winning" : "Window", (unsigned long long)sector_size);
}
