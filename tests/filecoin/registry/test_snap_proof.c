/* Registered update proofs and SnapDeals shapes: the table against the values written out from
 * rust-filecoin-proofs-api src/registry.rs (RegisteredUpdateProof names and numbers) and go-state-types
 * abi (the Go names, the seal proof → update proof map); every allowed sector size's shape against
 * storage-proofs-update src/constants.rs (partition_count, challenge_count, apex_leaf_count, hs and
 * h_default, validate_tree_r_shape), with path lengths worked out by hand; each update proof's v28
 * parameter stem against rust-fil-proofs' parameters.json (tests/vectors/filecoin); parsing of every
 * spelling and the refusals. */
#include <string.h>
#include "cuzk/snap.h"
#include "filecoin/fc_vectors.h"
#include "filecoin/registry/params_names.h"
#include "filecoin/registry/registered_proof.h"
#include "filecoin/registry/snap_proof.h"
#include "test_util.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

/* The five registered update proofs: id, name, size, partitions, challenges per partition, and the hash
 * part of the parameter stem (parameters.json). */
static const struct {
    uint32_t id;
    const char *name, *size;
    uint64_t bytes;
    uint32_t partitions, challenges;
    const char *tree, *stem_hash;
} PROOFS[5] = {
    {0, "StackedDrg2KiBV1", "2KiB", 2 * KIB, 1, 10, "8-0-0",
     "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194"},
    {1, "StackedDrg8MiBV1", "8MiB", 8 * MIB, 4, 10, "8-0-0",
     "92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63"},
    {2, "StackedDrg512MiBV1", "512MiB", 512 * MIB, 16, 86, "8-0-0",
     "61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c"},
    {3, "StackedDrg32GiBV1", "32GiB", 32 * GIB, 16, 86, "8-8-0",
     "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18"},
    {4, "StackedDrg64GiBV1", "64GiB", 64 * GIB, 16, 86, "8-8-2",
     "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7"},
};

/* constants.rs per ALLOWED_SECTOR_SIZES entry: partitions, challenges, apex leaves, h_default, tree R
 * arities; tree-R path elements and siblings counted by hand (base levels = log8 of a base tree's
 * leaves, each with 7 siblings, then arity − 1 siblings for the sub and the top level). */
static const struct {
    uint64_t bytes;
    uint32_t partitions, challenges, apex, h, base, sub, top, r_levels, r_siblings, d_levels;
} SHAPES[11] = {
    {1 * KIB, 1, 10, 8, 1, 8, 4, 0, 2, 10, 5},      /* 8 leaves per base tree: 1 + 1 levels, 7 + 3 */
    {2 * KIB, 1, 10, 8, 1, 8, 0, 0, 2, 14, 6},      /* 64: 2 levels */
    {4 * KIB, 1, 10, 8, 1, 8, 2, 0, 3, 15, 7},      /* 64 per base tree: 2 + 1, 14 + 1 */
    {8 * KIB, 1, 10, 8, 1, 8, 4, 0, 3, 17, 8},      /* 64: 2 + 1, 14 + 3 */
    {16 * KIB, 2, 10, 128, 1, 8, 8, 0, 3, 21, 9},   /* 64: 2 + 1, 14 + 7 */
    {32 * KIB, 2, 10, 128, 1, 8, 8, 2, 4, 22, 10},  /* 64: 2 + 1 + 1, 14 + 7 + 1 */
    {8 * MIB, 4, 10, 128, 10, 8, 0, 0, 6, 42, 18},  /* 2^18: 6 levels */
    {16 * MIB, 4, 10, 128, 10, 8, 2, 0, 7, 43, 19}, /* 2^18 per base tree: 6 + 1 */
    {512 * MIB, 16, 86, 128, 10, 8, 0, 0, 8, 56, 24},
    {32 * GIB, 16, 86, 128, 10, 8, 8, 0, 10, 70, 30}, /* 2^27 per base tree: 9 + 1, 63 + 7 */
    {64 * GIB, 16, 86, 128, 10, 8, 8, 2, 11, 71, 31}, /* 9 + 1 + 1, 63 + 7 + 1 */
};

static bool same(const cuzk_snap_registered_proof_t *a, const cuzk_snap_registered_proof_t *b)
{
    return a->id == b->id && a->name == b->name && a->size_name == b->size_name && a->sector_size == b->sector_size &&
           a->partitions == b->partitions && a->challenges_per_partition == b->challenges_per_partition;
}

static void test_table(void)
{
    char *json = test_read_file(FC_VECTORS "parameters.json", NULL);
    CHECK_MSG(json != NULL, "cannot read parameters.json");
    for (uint32_t i = 0; i < 5; i++) {
        cuzk_snap_registered_proof_t p;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_snap_registered_proof(&p, i, &err) == CUZK_OK, "%u: %s", i, err.msg);
        CHECK(p.id == PROOFS[i].id && strcmp(p.name, PROOFS[i].name) == 0 && strcmp(p.size_name, PROOFS[i].size) == 0);
        CHECK(p.sector_size == PROOFS[i].bytes);
        CHECK_MSG(p.partitions == PROOFS[i].partitions && p.challenges_per_partition == PROOFS[i].challenges,
                  "%u: %u partitions of %u challenges", i, p.partitions, p.challenges_per_partition);
        CHECK(cuzk_fc_snap_proofs()[i].id == i && cuzk_fc_snap_proofs()[i].sector_size == PROOFS[i].bytes);

        /* every spelling finds the same entry */
        char go[96], num[8];
        snprintf(go, sizeof go, "RegisteredUpdateProof_%s", PROOFS[i].name);
        snprintf(num, sizeof num, "%u", i);
        const char *names[3] = {PROOFS[i].name, go, num};
        for (int k = 0; k < 3; k++) {
            cuzk_snap_registered_proof_t q;
            CHECK_MSG(cuzk_snap_registered_proof_parse(&q, names[k], &err) == CUZK_OK && same(&p, &q), "%s: %s",
                      names[k], err.msg);
        }
        cuzk_snap_registered_proof_t q;
        CHECK(cuzk_snap_registered_proof_for_size(&q, PROOFS[i].bytes, NULL) == CUZK_OK && same(&p, &q));

        /* the configuration of the proof is the size's production shape */
        cuzk_snap_config_t a, b;
        CHECK(cuzk_snap_config_for_proof(&a, i, &err) == CUZK_OK);
        CHECK(cuzk_snap_config_for_size(&b, PROOFS[i].bytes, &err) == CUZK_OK && memcmp(&a, &b, sizeof a) == 0);
        CHECK(a.partition_count == p.partitions && a.challenge_count == p.challenges_per_partition);
        char tree[16];
        snprintf(tree, sizeof tree, "%u-%u-%u", a.base_arity, a.sub_arity, a.top_arity);
        CHECK_MSG(strcmp(tree, PROOFS[i].tree) == 0, "%u: tree %s", i, tree);

        /* the parameter stem: the v28 name published for the size, present in parameters.json */
        char stem[256], want[256], key[300];
        CHECK(cuzk_fc_params_stem(stem, sizeof stem, CUZK_FC_CIRCUIT_SNAP, p.sector_size, &err) == CUZK_OK);
        snprintf(want, sizeof want, "v28-empty-sector-update-merkletree-poseidon_hasher-%s-%s", PROOFS[i].tree,
                 PROOFS[i].stem_hash);
        CHECK_MSG(strcmp(stem, want) == 0, "%u: %s", i, stem);
        for (int ext = 0; json && ext < 2; ext++) {
            snprintf(key, sizeof key, "\"%s.%s\": {", want, ext ? "vk" : "params");
            const char *at = strstr(json, key);
            char size[64];
            snprintf(size, sizeof size, "\"sector_size\": %llu", (unsigned long long)p.sector_size);
            const char *end = at ? strchr(at, '}') : NULL, *sz = at ? strstr(at, size) : NULL;
            CHECK_MSG(at && end && sz && sz < end, "%s not in parameters.json for %s", key, p.size_name);
        }
    }
    free(json);
}

/* Every seal proof updates with its size's update proof (go-state-types SealProofInfos' UpdateProof). */
static void test_for_seal(void)
{
    const cuzk_fc_seal_proof_t *t = cuzk_fc_seal_proofs();
    for (uint32_t id = 0; id < CUZK_FC_SEAL_PROOF_COUNT; id++) {
        cuzk_snap_registered_proof_t p;
        cuzk_err_t err = {{0}};
        uint32_t want = id % 5; /* each block of five runs 2KiB, 8MiB, 512MiB, 32GiB, 64GiB */
        CHECK_MSG(cuzk_snap_registered_proof_for_seal(&p, id, &err) == CUZK_OK && p.id == want &&
                      p.sector_size == t[id].sector_size,
                  "seal proof %u (%s): %s", id, t[id].name, err.msg);
    }
    cuzk_snap_registered_proof_t p;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_snap_registered_proof_for_seal(&p, 20, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "20") &&
          p.name == NULL);
}

static void test_shapes(void)
{
    const uint64_t *allowed = cuzk_fc_snap_allowed_nodes();
    for (int i = 0; i < 11; i++) {
        cuzk_snap_config_t c;
        cuzk_err_t err = {{0}};
        uint64_t bytes = SHAPES[i].bytes;
        CHECK(allowed[i] == bytes / 32);
        CHECK_MSG(cuzk_snap_config_for_size(&c, bytes, &err) == CUZK_OK, "%llu: %s", (unsigned long long)bytes,
                  err.msg);
        CHECK(c.nodes == bytes / 32);
        CHECK_MSG(c.partition_count == SHAPES[i].partitions && c.challenge_count == SHAPES[i].challenges &&
                      c.apex_leaf_count == SHAPES[i].apex && c.h == SHAPES[i].h,
                  "%llu bytes: %u partitions, %u challenges, %u apex leaves, h %u", (unsigned long long)bytes,
                  c.partition_count, c.challenge_count, c.apex_leaf_count, c.h);
        CHECK(c.base_arity == SHAPES[i].base && c.sub_arity == SHAPES[i].sub && c.top_arity == SHAPES[i].top);
        CHECK_MSG(cuzk_snap_tree_r_levels(&c) == SHAPES[i].r_levels &&
                      cuzk_snap_tree_r_siblings(&c) == SHAPES[i].r_siblings &&
                      cuzk_snap_tree_d_levels(&c) == SHAPES[i].d_levels,
                  "%llu bytes: tree R %u levels %zu siblings, tree D %u levels", (unsigned long long)bytes,
                  cuzk_snap_tree_r_levels(&c), cuzk_snap_tree_r_siblings(&c), cuzk_snap_tree_d_levels(&c));
        CHECK(cuzk_snap_config_check(&c, &err) == CUZK_OK);
        /* hs: [1;6] up to 32KiB, else [7..12]; h_select of h_default = hs[3] is bit 3 there, bit 0 below (the
         * first index holding 1) */
        uint32_t hs[CUZK_SNAP_H_CHOICES];
        cuzk_snap_hs(c.nodes, hs);
        for (uint32_t k = 0; k < CUZK_SNAP_H_CHOICES; k++)
            CHECK(hs[k] == (bytes <= 32 * KIB ? 1 : 7 + k));
        CHECK(cuzk_fc_snap_h_select(&c) == (bytes <= 32 * KIB ? 1u : 8u));
        CHECK(cuzk_fc_snap_partition_bits(&c) == (uint32_t)__builtin_ctz(SHAPES[i].partitions));
        CHECK(cuzk_fc_snap_high_shift(&c) == SHAPES[i].d_levels - c.h);
        /* every h of hs is allowed, another is not */
        for (uint32_t k = 0; k < CUZK_SNAP_H_CHOICES; k++) {
            cuzk_snap_config_t d = c;
            d.h = hs[k];
            CHECK(cuzk_snap_config_check(&d, NULL) == CUZK_OK &&
                  cuzk_fc_snap_h_select(&d) == 1ull << (hs[0] == 1 ? 0 : k));
        }
    }
}

/* A configuration with one field changed is refused, naming that field. */
static void refused(const cuzk_snap_config_t *c, const char *what)
{
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_snap_config_check(c, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, what), "%s: %s", what,
              err.msg);
}

static void test_refusals(void)
{
    cuzk_snap_config_t good, c;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_snap_config_for_size(&good, 32 * GIB, NULL) == CUZK_OK);
    c = good, c.nodes = 1ull << 29;
    refused(&c, "nodes");
    c = good, c.nodes = 0;
    refused(&c, "nodes");
    c = good, c.partition_count = 8;
    refused(&c, "partition_count");
    c = good, c.challenge_count = 10;
    refused(&c, "challenge_count");
    c = good, c.apex_leaf_count = 8;
    refused(&c, "apex_leaf_count");
    c = good, c.base_arity = 4;
    refused(&c, "base_arity");
    c = good, c.sub_arity = 0;
    refused(&c, "sub_arity");
    c = good, c.top_arity = 2;
    refused(&c, "top_arity");
    c = good, c.h = 6;
    refused(&c, "h 6");
    c = good, c.h = 13;
    refused(&c, "h 13");
    CHECK(cuzk_snap_config_check(NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_snap_config_for_size(&c, 2 * GIB, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "2147483648") &&
          c.nodes == 0);
    CHECK(cuzk_snap_config_for_size(&c, 2048 + 16, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_snap_config_for_proof(&c, 5, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "5"));

    cuzk_snap_registered_proof_t p;
    CHECK(cuzk_snap_registered_proof(&p, 5, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "5") && p.name == NULL);
    CHECK(cuzk_snap_registered_proof_for_size(&p, 16 * MIB, &err) == CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "16777216"));
    static const char *bad[] = {"",
                                "5",
                                "-1",
                                " 3",
                                "3 ",
                                "+3",
                                "99999999999999999999",
                                "StackedDrg32GiBV1_1",
                                "stackeddrg32gibv1",
                                "RegisteredUpdateProof_",
                                "RegisteredSealProof_StackedDrg2KiBV1",
                                "StackedDrgWindow2KiBV1",
                                "RegisteredUpdateProof_StackedDrg32GiBV1x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.msg[0] = 0;
        CHECK_MSG(cuzk_snap_registered_proof_parse(&p, bad[i], &err) == CUZK_ERR_INVALID_ARG && p.name == NULL &&
                      strstr(err.msg, "update proof"),
                  "\"%s\" accepted", bad[i]);
    }
}

int main(void)
{
    test_init("test_snap_proof");
    test_table();
    test_for_seal();
    test_shapes();
    test_refusals();
    return test_finish();
}
