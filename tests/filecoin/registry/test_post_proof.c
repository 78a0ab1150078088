/* Registered PoSt proofs: the table against the values written out from rust-filecoin-proofs-api
 * src/registry.rs (names, ids, RegisteredPoStProof::version), go-state-types abi (the Go names),
 * filecoin-proofs src/constants.rs (66 Winning challenges, 10 Window challenges, WINDOW_POST_SECTOR_COUNT)
 * and src/parameters.rs (winning_post_setup_params: 66 circuit sectors of 1 challenge); parsing of every
 * spelling, refusals, the lookup by size, the circuit configurations and their public-input counts
 * (133 Winning, 23 Window 2KiB, 25,840 Window 32GiB: rust-fil-proofs PR #1325 and the polka-storage
 * 2KiB Window PoSt vk's 23 IC points, docs/REFERENCE.md). */
#include <string.h>
#include "cuzk/post.h"
#include "filecoin/registry/post_proof.h"
#include "filecoin/registry/registered_proof.h"
#include "test_util.h"

#define WIN CUZK_POST_WINNING
#define WND CUZK_POST_WINDOW
#define V1_0 CUZK_POREP_API_V1_0
#define V1_2 CUZK_POREP_API_V1_2
#define K2 2048ull
#define M8 8388608ull
#define M512 536870912ull
#define G32 34359738368ull
#define G64 68719476736ull

/* id, Rust name, Go name, kind, API version, bytes, size name, tree R, circuit sectors × challenges, vanilla
 * sectors × challenges, public inputs */
static const struct {
    uint32_t id;
    const char *rust, *go;
    cuzk_post_kind kind;
    cuzk_porep_api_version api;
    uint64_t bytes;
    const char *size;
    uint32_t base, sub, top;
    uint32_t circuit_sectors, circuit_challenges, vanilla_sectors, vanilla_challenges;
    size_t inputs;
} WANT[15] = {
    {0, "StackedDrgWinning2KiBV1", "StackedDrgWinning2KiBV1", WIN, V1_0, K2, "2KiB", 8, 0, 0, 66, 1, 1, 66, 133},
    {1, "StackedDrgWinning8MiBV1", "StackedDrgWinning8MiBV1", WIN, V1_0, M8, "8MiB", 8, 0, 0, 66, 1, 1, 66, 133},
    {2, "StackedDrgWinning512MiBV1", "StackedDrgWinning512MiBV1", WIN, V1_0, M512, "512MiB", 8, 0, 0, 66, 1, 1, 66, 133},
    {3, "StackedDrgWinning32GiBV1", "StackedDrgWinning32GiBV1", WIN, V1_0, G32, "32GiB", 8, 8, 0, 66, 1, 1, 66, 133},
    {4, "StackedDrgWinning64GiBV1", "StackedDrgWinning64GiBV1", WIN, V1_0, G64, "64GiB", 8, 8, 2, 66, 1, 1, 66, 133},
    {5, "StackedDrgWindow2KiBV1", "StackedDrgWindow2KiBV1", WND, V1_0, K2, "2KiB", 8, 0, 0, 2, 10, 2, 10, 23},
    {6, "StackedDrgWindow8MiBV1", "StackedDrgWindow8MiBV1", WND, V1_0, M8, "8MiB", 8, 0, 0, 2, 10, 2, 10, 23},
    {7, "StackedDrgWindow512MiBV1", "StackedDrgWindow512MiBV1", WND, V1_0, M512, "512MiB", 8, 0, 0, 2, 10, 2, 10, 23},
    {8, "StackedDrgWindow32GiBV1", "StackedDrgWindow32GiBV1", WND, V1_0, G32, "32GiB", 8, 8, 0, 2349, 10, 2349, 10, 25840},
    {9, "StackedDrgWindow64GiBV1", "StackedDrgWindow64GiBV1", WND, V1_0, G64, "64GiB", 8, 8, 2, 2300, 10, 2300, 10, 25301},
    {10, "StackedDrgWindow2KiBV1_2", "StackedDrgWindow2KiBV1_1", WND, V1_2, K2, "2KiB", 8, 0, 0, 2, 10, 2, 10, 23},
    {11, "StackedDrgWindow8MiBV1_2", "StackedDrgWindow8MiBV1_1", WND, V1_2, M8, "8MiB", 8, 0, 0, 2, 10, 2, 10, 23},
    {12, "StackedDrgWindow512MiBV1_2", "StackedDrgWindow512MiBV1_1", WND, V1_2, M512, "512MiB", 8, 0, 0, 2, 10, 2, 10, 23},
    {13, "StackedDrgWindow32GiBV1_2", "StackedDrgWindow32GiBV1_1", WND, V1_2, G32, "32GiB", 8, 8, 0, 2349, 10, 2349, 10, 25840},
    {14, "StackedDrgWindow64GiBV1_2", "StackedDrgWindow64GiBV1_1", WND, V1_2, G64, "64GiB", 8, 8, 2, 2300, 10, 2300, 10, 25301},
};

static bool same(const cuzk_post_registered_proof_t *a, const cuzk_post_registered_proof_t *b)
{
    return a->id == b->id && a->name == b->name && a->sector_size == b->sector_size && a->kind == b->kind &&
           a->api == b->api && a->sector_count == b->sector_count && a->challenge_count == b->challenge_count;
}

static void table(void)
{
    for (uint32_t i = 0; i < 15; i++) {
        cuzk_post_registered_proof_t p;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_post_registered_proof(&p, i, &err) == CUZK_OK, "%u: %s", i, err.msg);
        CHECK(p.id == WANT[i].id);
        CHECK_MSG(strcmp(p.name, WANT[i].rust) == 0, "%u: %s", i, p.name);
        CHECK(strcmp(p.size_name, WANT[i].size) == 0);
        CHECK(p.sector_size == WANT[i].bytes);
        CHECK(p.kind == WANT[i].kind);
        CHECK_MSG(p.api == WANT[i].api, "%u: api %d", i, (int)p.api);
        CHECK_MSG(p.sector_count == WANT[i].circuit_sectors && p.challenge_count == WANT[i].circuit_challenges,
                  "%u: %u x %u", i, p.sector_count, p.challenge_count);
        CHECK(p.vanilla_sectors == WANT[i].vanilla_sectors && p.vanilla_challenges == WANT[i].vanilla_challenges);
        /* a circuit covers exactly the challenges of the vanilla proofs it is made from */
        CHECK(p.sector_count * p.challenge_count == p.vanilla_sectors * p.vanilla_challenges);

        const cuzk_fc_post_proof_t *fp;
        CHECK(cuzk_fc_post_proof_by_id(&fp, i, NULL) == CUZK_OK && strcmp(fp->go_name, WANT[i].go) == 0);

        /* every spelling finds the same entry */
        char buf[96];
        const char *names[4] = {WANT[i].rust, WANT[i].go, buf, NULL};
        snprintf(buf, sizeof buf, "RegisteredPoStProof_%s", WANT[i].go);
        char num[8];
        snprintf(num, sizeof num, "%u", i);
        names[3] = num;
        for (int k = 0; k < 4; k++) {
            cuzk_post_registered_proof_t q;
            CHECK_MSG(cuzk_post_registered_proof_parse(&q, names[k], &err) == CUZK_OK && same(&p, &q), "%s: %s",
                      names[k], err.msg);
        }

        /* the configuration: tree R as the seal proofs of the same size, the counts of the table */
        cuzk_post_config_t cfg;
        CHECK(cuzk_post_config_for_proof(&cfg, i, &err) == CUZK_OK);
        CHECK(cfg.nodes == WANT[i].bytes / 32);
        CHECK(cfg.base_arity == WANT[i].base && cfg.sub_arity == WANT[i].sub && cfg.top_arity == WANT[i].top);
        CHECK(cfg.sector_count == WANT[i].circuit_sectors && cfg.challenge_count == WANT[i].circuit_challenges);
        CHECK(cuzk_post_config_check(&cfg, NULL) == CUZK_OK);
        CHECK_MSG(cuzk_post_num_inputs(&cfg) == WANT[i].inputs, "%u: %zu inputs", i, cuzk_post_num_inputs(&cfg));
        bool seal_found = false;
        const cuzk_fc_seal_proof_t *sp = cuzk_fc_seal_proofs();
        for (int s = 0; s < CUZK_FC_SEAL_PROOF_COUNT; s++)
            if (sp[s].sector_size == WANT[i].bytes) {
                seal_found = true;
                CHECK(sp[s].base_arity == cfg.base_arity && sp[s].sub_arity == cfg.sub_arity &&
                      sp[s].top_arity == cfg.top_arity);
            }
        CHECK(seal_found);
        /* tree R paths: log8 of the base tree's leaves, then the sub and top levels */
        uint32_t levels = WANT[i].bytes == 2048        ? 2
                          : WANT[i].bytes == 8388608   ? 6
                          : WANT[i].bytes == 536870912 ? 8
                                                       : 10;
        if (WANT[i].top)
            levels = 11;
        CHECK_MSG(cuzk_post_tree_levels(&cfg) == levels, "%u: %u levels", i, cuzk_post_tree_levels(&cfg));
        CHECK(cuzk_post_tree_siblings(&cfg) == (size_t)7 * (levels - (WANT[i].top ? 1 : 0)) + (WANT[i].top ? 1 : 0));
    }
}

static void lookups(void)
{
    cuzk_post_registered_proof_t p;
    cuzk_err_t err = {{0}};
    /* by size: Winning V1, Window V1_1 (Go) = V1_2 (Rust) */
    static const uint64_t sizes[5] = {2048, 8388608, 536870912, 34359738368ull, 68719476736ull};
    for (int s = 0; s < 5; s++) {
        CHECK(cuzk_post_registered_proof_for_size(&p, CUZK_POST_WINNING, sizes[s], NULL) == CUZK_OK &&
              p.id == (uint32_t)s);
        CHECK(cuzk_post_registered_proof_for_size(&p, CUZK_POST_WINDOW, sizes[s], NULL) == CUZK_OK &&
              p.id == (uint32_t)(10 + s));
    }
    CHECK(cuzk_post_registered_proof_for_size(&p, CUZK_POST_WINDOW, 4096, &err) == CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "4096"));
    CHECK(cuzk_post_registered_proof_for_size(&p, (cuzk_post_kind)2, 2048, NULL) == CUZK_ERR_INVALID_ARG);

    static const char *bad[] = {"",
                                "15",
                                "-1",
                                " 3",
                                "3 ",
                                "+3",
                                "99999999999999999999",
                                "StackedDrgWindow32GiBV1_3",
                                "stackeddrgwindow32gibv1_2",
                                "RegisteredPoStProof_",
                                "RegisteredSealProof_StackedDrg2KiBV1",
                                "StackedDrg2KiBV1",
                                "RegisteredPoStProof_StackedDrgWindow32GiBV1_2x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.msg[0] = 0;
        CHECK_MSG(cuzk_post_registered_proof_parse(&p, bad[i], &err) == CUZK_ERR_INVALID_ARG && p.name == NULL &&
                      strstr(err.msg, "PoSt proof"),
                  "\"%s\" accepted", bad[i]);
    }
    CHECK(cuzk_post_registered_proof(&p, 15, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "15"));
    cuzk_post_config_t cfg;
    CHECK(cuzk_post_config_for_proof(&cfg, 1ull << 40, &err) == CUZK_ERR_INVALID_ARG);
}

int main(void)
{
    test_init("test_post_proof");
    table();
    lookups();
    return test_finish();
}
