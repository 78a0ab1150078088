/* parameters.json support: BLAKE2b-512 known answers (RFC 7693 appendix A "abc", the empty input, and
 * a 5 MiB file digested with Python's hashlib.blake2b), the 32-hex truncation, manifest lookups and
 * checks with their errors, and the v28 file names against the real manifest (an excerpt of
 * rust-fil-proofs parameters.json in tests/vectors/params/). */
#include "cuzk/params.h"
#include "test_params_util.h"

static void hex_of(char *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", in[i]);
}

static void test_digest(void)
{
    static const char *ABC = "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                             "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923";
    static const char *EMPTY = "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
                               "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce";
    /* bytes (7·i + (i >> 13)) mod 256 for i < 5 MiB + 17: crosses the reader's chunk boundary */
    static const char *BIG = "b64990334ec3f33d465a608e7357d3682deb4963d989f72b1a62fc9aaca53469"
                             "890ef497ad80dade69a2904f0335c9e386a440ede5b32b2c2f1ac376288bff8d";
    uint8_t full[64];
    char hex[129], h32[33];
    cuzk_err_t err;

    const char *p = tp_path("abc.bin");
    CHECK(tp_write_file(p, "abc", 3) == 0);
    CHECK(cuzk_params_digest(p, full, h32, &err) == CUZK_OK);
    hex_of(hex, full, 64);
    CHECK_MSG(strcmp(hex, ABC) == 0, "BLAKE2b-512(abc) = %s", hex);
    CHECK_MSG(strcmp(h32, "ba80a53f981c4d0d6a2797b69f12f6e9") == 0, "truncated: %s", h32);
    CHECK(cuzk_params_digest(p, NULL, h32, &err) == CUZK_OK && strlen(h32) == 32);
    CHECK(cuzk_params_digest(p, full, NULL, &err) == CUZK_OK);

    p = tp_path("empty.bin");
    CHECK(tp_write_file(p, "", 0) == 0);
    CHECK(cuzk_params_digest(p, full, h32, &err) == CUZK_OK);
    hex_of(hex, full, 64);
    CHECK_MSG(strcmp(hex, EMPTY) == 0, "BLAKE2b-512() = %s", hex);

    size_t n = 5u * 1024 * 1024 + 17;
    uint8_t *big = tp_xmalloc(n);
    for (size_t i = 0; i < n; i++)
        big[i] = (uint8_t)(7 * i + (i >> 13));
    p = tp_path("big.bin");
    CHECK(tp_write_file(p, big, n) == 0);
    free(big);
    CHECK(cuzk_params_digest(p, full, h32, &err) == CUZK_OK);
    hex_of(hex, full, 64);
    CHECK_MSG(strcmp(hex, BIG) == 0, "BLAKE2b-512(5 MiB pattern) = %s", hex);
    CHECK(strncmp(h32, BIG, 32) == 0);

    CHECK(cuzk_params_digest(tp_path("missing.bin"), full, h32, &err) == CUZK_ERR_IO &&
          strstr(err.msg, "missing.bin"));
}

static void test_manifest(void)
{
    cuzk_err_t err;
    const char *m = tp_path("parameters.json");
    const char *json =
        "{\n"
        "  \"x.params\": {\"cid\": \"QmTest\", \"digest\": \"ba80a53f981c4d0d6a2797b69f12f6e9\", "
        "\"sector_size\": 2048},\n"
        "  \"upper.vk\": {\"cid\": \"QmUp\", \"digest\": \"BA80A53F981C4D0D6A2797B69F12F6E9\", "
        "\"sector_size\": 34359738368},\n"
        "  \"short.params\": {\"cid\": \"QmS\", \"digest\": \"ba80a53f\", \"sector_size\": 1},\n"
        "  \"nocid.params\": {\"digest\": \"ba80a53f981c4d0d6a2797b69f12f6e9\", \"sector_size\": 1},\n"
        "  \"neg.params\": {\"cid\": \"Q\", \"digest\": \"ba80a53f981c4d0d6a2797b69f12f6e9\", "
        "\"sector_size\": -1},\n"
        "  \"list.params\": [1, 2]\n"
        "}\n";
    CHECK(tp_write_file(m, json, strlen(json)) == 0);
    const char *x = tp_path("x.params");
    CHECK(tp_write_file(x, "abc", 3) == 0);

    cuzk_params_manifest_entry_t e;
    CHECK(cuzk_params_manifest_check(m, x, NULL, &e, &err) == CUZK_OK);
    CHECK(strcmp(e.cid, "QmTest") == 0 && e.sector_size == 2048 &&
          strcmp(e.digest, "ba80a53f981c4d0d6a2797b69f12f6e9") == 0);
    /* upper-case digests compare equal */
    CHECK(cuzk_params_manifest_check(m, x, "upper.vk", &e, &err) == CUZK_OK &&
          e.sector_size == 34359738368ull && strcmp(e.digest, "ba80a53f981c4d0d6a2797b69f12f6e9") == 0);

    /* a changed file */
    CHECK(tp_write_file(x, "abd", 3) == 0);
    CHECK(cuzk_params_manifest_check(m, x, NULL, NULL, &err) == CUZK_ERR_MISMATCH &&
          strstr(err.msg, "digest mismatch") && strstr(err.msg, "ba80a53f981c4d0d6a2797b69f12f6e9"));
    /* no entry */
    const char *y = tp_path("y.params");
    CHECK(tp_write_file(y, "abc", 3) == 0);
    CHECK(cuzk_params_manifest_check(m, y, NULL, NULL, &err) == CUZK_ERR_MISMATCH &&
          strstr(err.msg, "no entry for y.params"));
    /* malformed entries */
    CHECK(cuzk_params_manifest_entry(&e, m, "short.params", &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "digest"));
    CHECK(cuzk_params_manifest_entry(&e, m, "nocid.params", &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "cid"));
    CHECK(cuzk_params_manifest_entry(&e, m, "neg.params", &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "sector_size"));
    CHECK(cuzk_params_manifest_entry(&e, m, "list.params", &err) == CUZK_ERR_FORMAT);
    /* the file checked is missing; the manifest is missing, not JSON, not an object */
    CHECK(cuzk_params_manifest_check(m, tp_path("x.vk"), "x.params", NULL, &err) == CUZK_ERR_IO);
    CHECK(cuzk_params_manifest_entry(&e, tp_path("none.json"), "x.params", &err) == CUZK_ERR_IO);
    const char *bad = tp_path("bad.json");
    CHECK(tp_write_file(bad, "{\"x.params\": {", 14) == 0);
    CHECK(cuzk_params_manifest_entry(&e, bad, "x.params", &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "bad.json"));
    CHECK(tp_write_file(bad, "[1]", 3) == 0);
    CHECK(cuzk_params_manifest_entry(&e, bad, "x.params", &err) == CUZK_ERR_FORMAT);
}

/* Identifier strings of rust-fil-proofs' public parameters and the v28 names they must give. */
static void test_file_names(void)
{
#define POREP                                                                                      \
    "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 "         \
    "base_graph: drgraph::BucketGraph{size: %s; degree: 6; hasher: poseidon_hasher} }, challenges: "  \
    "LayerChallenges { layers: %s, max_count: %s }, tree: merkletree-poseidon_hasher-%s }"
#define POST "FallbackPoSt::PublicParams{sector_size: %s, challenge_count: %s, sector_count: %s}"
#define SNAP "empty_sector_update::PublicParams{ sector_nodes: %s }"
    static const struct {
        const char *fmt, *a, *b, *c, *d, *prefix, *name;
        uint64_t sector_size;
    } cases[] = {
        {POREP, "64", "2", "2", "8-0-0", "stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher",
         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
         "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f",
         2048},
        {POREP, "262144", "2", "2", "8-0-0",
         "stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher",
         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
         "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb",
         8388608},
        {POREP, "1073741824", "11", "18", "8-8-0",
         "stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher",
         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
         "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820",
         34359738368ull},
        {POREP, "2147483648", "11", "18", "8-8-2",
         "stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher",
         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
         "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2",
         68719476736ull},
        {POST, "2048", "1", "66", NULL, "proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0",
         "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
         "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e",
         2048},
        {POST, "2048", "10", "2", NULL, "proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0",
         "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
         "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0",
         2048},
        {POST, "34359738368", "1", "66", NULL, "proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0",
         "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
         "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e",
         34359738368ull},
        {POST, "34359738368", "10", "2349", NULL,
         "proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0",
         "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
         "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc",
         34359738368ull},
        {SNAP, "64", NULL, NULL, NULL, "empty-sector-update-merkletree-poseidon_hasher-8-0-0",
         "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
         "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194",
         2048},
        {SNAP, "1073741824", NULL, NULL, NULL, "empty-sector-update-merkletree-poseidon_hasher-8-8-0",
         "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
         "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18",
         34359738368ull},
        {SNAP, "1073741824", NULL, NULL, NULL, "empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-0",
         "v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-0-"
         "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18",
         34359738368ull},
    };
    const char *manifest = "tests/vectors/params/parameters-excerpt.json";
    cuzk_err_t err;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char id[512], stem[256], file[300];
        snprintf(id, sizeof id, cases[i].fmt, cases[i].a, cases[i].b, cases[i].c, cases[i].d);
        CHECK(cuzk_params_file_stem(stem, sizeof stem, cases[i].prefix, id) == CUZK_OK);
        CHECK_MSG(strcmp(stem, cases[i].name) == 0, "case %zu: %s", i, stem);
        /* both files of the pair are in the real manifest, with the right sector size */
        static const char *const ext[2] = {".params", ".vk"};
        for (int k = 0; k < 2; k++) {
            snprintf(file, sizeof file, "%s%s", stem, ext[k]);
            cuzk_params_manifest_entry_t e;
            cuzk_status st = cuzk_params_manifest_entry(&e, manifest, file, &err);
            CHECK_MSG(st == CUZK_OK && e.sector_size == cases[i].sector_size && strlen(e.digest) == 32 &&
                          strncmp(e.cid, "Qm", 2) == 0,
                      "%s: %s", file, err.msg);
        }
    }
    char small[20];
    CHECK(cuzk_params_file_stem(small, sizeof small, "p", "x") == CUZK_ERR_BAD_LENGTH && small[0] == 0);
    char exact[4 + 2 + 64 + 1];
    CHECK(cuzk_params_file_stem(exact, sizeof exact, "p", "") == CUZK_OK &&
          strcmp(exact, "v28-p-e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") == 0);
    CHECK(cuzk_params_file_stem(exact, sizeof exact - 1, "p", "") == CUZK_ERR_BAD_LENGTH);
}

int main(void)
{
    test_init("test_params_manifest");
    tp_init();
    test_digest();
    test_manifest();
    test_file_names();
    tp_cleanup();
    return test_finish();
}
