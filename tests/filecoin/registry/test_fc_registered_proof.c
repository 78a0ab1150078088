/* Registered seal proofs: the table against the values written out from rust-filecoin-proofs-api
 * registry.rs and filecoin-proofs constants.rs, parsing, porep_id, and the v28 parameter file stems of
 * every circuit against rust-fil-proofs' parameters.json (tests/vectors/filecoin) and the identifier
 * asserted in params.rs. */
#include <stdlib.h>
#include <string.h>
#include "filecoin/fc_vectors.h"
#include "filecoin/registry/params_names.h"
#include "filecoin/registry/registered_proof.h"
#include "test_util.h"

/* Per sector size: bytes, layers, tree, interactive partitions/challenges, NI partitions/challenges,
 * and the hash part of the PoRep parameter file stem. */
static const struct {
    const char *size;
    uint64_t bytes;
    uint32_t layers;
    const char *tree;
    uint32_t parts, cpp, ni_parts, ni_cpp;
    const char *stem_hash;
} SIZES[5] = {
    {"2KiB", 2048, 2, "8-0-0", 1, 2, 13, 2,
     "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"},
    {"8MiB", 8388608, 2, "8-0-0", 1, 2, 13, 2,
     "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb"},
    {"512MiB", 536870912, 2, "8-0-0", 1, 2, 13, 2,
     "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472"},
    {"32GiB", 34359738368ull, 11, "8-8-0", 10, 18, 126, 18,
     "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820"},
    {"64GiB", 68719476736ull, 11, "8-8-2", 10, 18, 126, 18,
     "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2"},
};

static void test_table(void)
{
    static const char *suffix[4] = {"V1", "V1_1", "V1_1_Feat_SyntheticPoRep",
                                    "V1_2_Feat_NonInteractivePoRep"};
    const cuzk_fc_seal_proof_t *t = cuzk_fc_seal_proofs();
    for (uint32_t id = 0; id < 20; id++) {
        const cuzk_fc_seal_proof_t *p = &t[id];
        int s = id % 5, v = id / 5;
        char name[96], tree[16];
        snprintf(name, sizeof name, "StackedDrg%s%s", SIZES[s].size, suffix[v]);
        snprintf(tree, sizeof tree, "%u-%u-%u", p->base_arity, p->sub_arity, p->top_arity);
        CHECK(p->id == id);
        CHECK_MSG(strcmp(p->name, name) == 0, "id %u: %s vs %s", id, p->name, name);
        CHECK(strcmp(p->size_name, SIZES[s].size) == 0);
        CHECK(p->sector_size == SIZES[s].bytes);
        CHECK(p->nodes == SIZES[s].bytes / 32);
        CHECK(p->layers == SIZES[s].layers);
        CHECK_MSG(strcmp(tree, SIZES[s].tree) == 0, "id %u tree %s", id, tree);
        CHECK(p->api == (v == 0 ? CUZK_FC_API_V1_0 : v == 1 ? CUZK_FC_API_V1_1 : CUZK_FC_API_V1_2));
        CHECK(p->challenges == (v == 2 ? CUZK_FC_CHALLENGES_SYNTHETIC
                                : v == 3 ? CUZK_FC_CHALLENGES_NON_INTERACTIVE
                                         : CUZK_FC_CHALLENGES_INTERACTIVE));
        CHECK_MSG(p->partitions == (v == 3 ? SIZES[s].ni_parts : SIZES[s].parts), "id %u partitions %u", id,
                  p->partitions);
        CHECK_MSG(p->challenges_per_partition == (v == 3 ? SIZES[s].ni_cpp : SIZES[s].cpp),
                  "id %u cpp %u", id, p->challenges_per_partition);
        /* Enough challenges in total, and the circuits' maximum of 18 per partition respected. */
        CHECK(p->partitions * p->challenges_per_partition >= p->min_challenges);
        CHECK(p->challenges_per_partition <= 18);
    }
    CHECK(t[3].min_challenges == 176 && t[18].min_challenges == 2253 && t[15].min_challenges == 26);
}

static void test_porep_id(void)
{
    uint8_t id[32], want[32] = {0};
    cuzk_fc_porep_id(id, 8);
    want[0] = 8;
    CHECK(memcmp(id, want, 32) == 0);
    cuzk_fc_porep_id(id, 0x0102030405060708ull);
    CHECK(id[0] == 8 && id[7] == 1 && id[8] == 0 && id[31] == 0);
}

static void test_parse(void)
{
    const cuzk_fc_seal_proof_t *p = NULL;
    cuzk_err_t err;
    CHECK(cuzk_fc_seal_proof_parse(&p, "StackedDrg32GiBV1_1", &err) == CUZK_OK && p && p->id == 8);
    CHECK(cuzk_fc_seal_proof_parse(&p, "RegisteredSealProof_StackedDrg2KiBV1", &err) == CUZK_OK &&
          p->id == 0);
    CHECK(cuzk_fc_seal_proof_parse(&p, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", &err) == CUZK_OK &&
          p->id == 19);
    CHECK(cuzk_fc_seal_proof_parse(&p, "12", &err) == CUZK_OK && p->id == 12 &&
          strcmp(p->name, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep") == 0);
    CHECK(cuzk_fc_seal_proof_by_id(&p, 19, &err) == CUZK_OK && p->id == 19);
    /* Every name round-trips. */
    for (int i = 0; i < CUZK_FC_SEAL_PROOF_COUNT; i++) {
        const cuzk_fc_seal_proof_t *q = NULL;
        CHECK(cuzk_fc_seal_proof_parse(&q, cuzk_fc_seal_proofs()[i].name, NULL) == CUZK_OK && q &&
              q->id == (uint32_t)i);
    }

    static const char *bad[] = {"", "StackedDrg2KiBV2", "stackeddrg2kibv1", "StackedDrg2KiBV1 ", "20", "-1",
                                "5x", "99999999999999999999999", "0x5", "RegisteredSealProof_", "1_1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        p = (const cuzk_fc_seal_proof_t *)1;
        memset(&err, 0, sizeof err);
        cuzk_status st = cuzk_fc_seal_proof_parse(&p, bad[i], &err);
        CHECK_MSG(st == CUZK_ERR_INVALID_ARG && p == NULL, "\"%s\" accepted", bad[i]);
        CHECK_MSG(strstr(err.msg, "unknown registered seal proof") != NULL, "message: %s", err.msg);
    }
    CHECK(cuzk_fc_seal_proof_by_id(&p, 20, &err) == CUZK_ERR_INVALID_ARG && p == NULL &&
          strstr(err.msg, "20") != NULL);
    CHECK(cuzk_fc_seal_proof_by_id(&p, UINT64_MAX, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_seal_proof_parse(&p, NULL, NULL) == CUZK_ERR_INVALID_ARG);
}

static void test_params_names(void)
{
    const cuzk_fc_seal_proof_t *t = cuzk_fc_seal_proofs();
    char buf[512];
    /* storage-proofs-porep params.rs test_public_params_identifier (32GiB). */
    CHECK(cuzk_fc_porep_params_identifier(buf, sizeof buf, &t[8]) == CUZK_OK);
    CHECK_MSG(strcmp(buf, "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{"
                          "expansion_degree: 8 base_graph: drgraph::BucketGraph{size: 1073741824; degree: 6; "
                          "hasher: poseidon_hasher} }, challenges: LayerChallenges { layers: 11, "
                          "max_count: 18 }, tree: merkletree-poseidon_hasher-8-8-0 }") == 0,
              "%s", buf);
    CHECK(cuzk_fc_porep_params_stem(buf, sizeof buf, &t[0]) == CUZK_OK);
    CHECK_MSG(strcmp(buf, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
                          "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f") == 0,
              "%s", buf);
    for (int id = 0; id < CUZK_FC_SEAL_PROOF_COUNT; id++) {
        int s = id % 5;
        char want[256];
        snprintf(want, sizeof want,
                 "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-%s-sha256_hasher-%s",
                 SIZES[s].tree, SIZES[s].stem_hash);
        CHECK(cuzk_fc_porep_params_stem(buf, sizeof buf, &t[id]) == CUZK_OK);
        CHECK_MSG(strcmp(buf, want) == 0, "id %d: %s", id, buf);
    }
    CHECK(cuzk_fc_porep_params_stem(buf, 20, &t[0]) == CUZK_ERR_BAD_LENGTH && buf[0] == 0);
    CHECK(cuzk_fc_porep_params_identifier(buf, 10, &t[0]) == CUZK_ERR_BAD_LENGTH);
    CHECK(strcmp(cuzk_fc_api_str(CUZK_FC_API_V1_2), "V1_2") == 0);
    /* The manifest's 44 entries are exactly .params and .vk of the 22 published circuit/size stems. */
    char *json = test_read_file(FC_VECTORS "parameters.json", NULL);
    CHECK_MSG(json != NULL, "cannot read parameters.json");
    int found = 0, entries = 0;
    for (const char *q = json; json && (q = strstr(q, "\"v28-")); q++)
        entries++;
    for (int c = 0; json && c <= CUZK_FC_CIRCUIT_SNAP_POSEIDON; c++)
        for (int s = 0; s < 5; s++) {
            int published = c != CUZK_FC_CIRCUIT_SNAP_POSEIDON || s >= 3;
            char stem[256], key[300];
            cuzk_err_t err;
            cuzk_status st =
                cuzk_fc_params_stem(stem, sizeof stem, (cuzk_fc_circuit_t)c, SIZES[s].bytes, &err);
            CHECK(st == CUZK_OK);
            for (int ext = 0; ext < 2; ext++) {
                snprintf(key, sizeof key, "\"%s.%s\": {", stem, ext ? "vk" : "params");
                const char *at = strstr(json, key);
                CHECK_MSG((at != NULL) == published, "circuit %d %s: %s", c, SIZES[s].size, key);
                if (at) {
                    char size[64];
                    snprintf(size, sizeof size, "\"sector_size\": %llu", (unsigned long long)SIZES[s].bytes);
                    const char *end = strchr(at, '}'), *sz = strstr(at, size);
                    CHECK(end && sz && sz < end);
                    found++;
                }
            }
        }
    CHECK_MSG(found == 44 && entries == 44, "%d of %d manifest entries explained", found, entries);
    free(json);
    cuzk_err_t err;
    CHECK(cuzk_fc_params_stem(buf, sizeof buf, CUZK_FC_CIRCUIT_POREP, 4096, &err) == CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "4096"));
    CHECK(cuzk_fc_params_stem(buf, sizeof buf, (cuzk_fc_circuit_t)9, 2048, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_params_stem(buf, 30, CUZK_FC_CIRCUIT_SNAP, 2048, &err) == CUZK_ERR_BAD_LENGTH);
    CHECK(strcmp(cuzk_fc_challenge_kind_str(CUZK_FC_CHALLENGES_SYNTHETIC), "synthetic") == 0);
}

int main(void)
{
    test_init("test_fc_registered_proof");
    test_table();
    test_porep_id();
    test_parse();
    test_params_names();
    return test_finish();
}
