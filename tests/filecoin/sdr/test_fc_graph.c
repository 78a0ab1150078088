/* SDR graph: the ChaCha core against libcrypto's ChaCha20, the short BLAKE2b against libcrypto's, the
 * Feistel permutation's bijectivity, the full 2KiB parent tables (tests/vectors/filecoin, from an
 * independent re-implementation whose caches hash to the official digests), the parent cache SHA-256
 * against rust-fil-proofs' parent_cache.json for 2KiB (ids 0, 5) and 8MiB (ids 1, 6), the manifest names
 * of all ten caches, the file writer, and on-demand parents of 32GiB / 64GiB graphs. */
#include <dirent.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "filecoin/fc_vectors.h"
#include "filecoin/hash/blake2b.h"
#include "filecoin/hash/chacha8.h"
#include "filecoin/sdr/feistel.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/parent_cache.h"
#include "test_util.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ChaCha with 20 rounds must be libcrypto's (IETF) ChaCha20: IETF's 32-bit counter is our counter's
 * low word, its 96-bit nonce our counter's high word and the 64-bit stream id. */
static void test_chacha_core(void)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    for (int iter = 0; iter < 50; iter++) {
        uint8_t key[32], iv[16], zeros[64] = {0}, ks[64];
        test_rand_bytes(key, 32);
        uint64_t counter = test_rand64(), stream = test_rand64();
        if (iter % 2)
            counter &= 0xffffffffull; /* rand_chacha's case: small counters */
        if (iter % 4 == 1)
            stream = 0;
        uint32_t k[8], out[16];
        for (int i = 0; i < 8; i++)
            k[i] = (uint32_t)key[4 * i] | (uint32_t)key[4 * i + 1] << 8 | (uint32_t)key[4 * i + 2] << 16 |
                   (uint32_t)key[4 * i + 3] << 24;
        uint32_t ivw[4] = {(uint32_t)counter, (uint32_t)(counter >> 32), (uint32_t)stream,
                           (uint32_t)(stream >> 32)};
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                iv[4 * i + j] = (uint8_t)(ivw[i] >> (8 * j));
        int outl = 0;
        CHECK(EVP_EncryptInit_ex2(ctx, EVP_chacha20(), key, iv, NULL) == 1);
        CHECK(EVP_EncryptUpdate(ctx, ks, &outl, zeros, 64) == 1 && outl == 64);
        cuzk_fc_chacha_block(out, k, counter, stream, 20);
        int same = 1;
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 4; j++)
                same &= ks[4 * i + j] == (uint8_t)(out[i] >> (8 * j));
        CHECK_MSG(same, "ChaCha20 block, counter %llx", (unsigned long long)counter);
    }
    EVP_CIPHER_CTX_free(ctx);
    /* The word stream crosses blocks without a gap. */
    uint8_t seed[32];
    test_rand_bytes(seed, 32);
    uint32_t w[40], k[8], b1[16];
    cuzk_fc_chacha8_words(w, 40, seed);
    memcpy(k, seed, 32);
    cuzk_fc_chacha_block(b1, k, 1, 0, 8);
    CHECK(memcmp(w + 16, b1, 64) == 0);
}

/* The short BLAKE2b-512 against libcrypto's for every single-block length. */
static void test_blake2b(void)
{
    uint8_t in[128], a[64], b[64];
    for (size_t len = 0; len <= 128; len++) {
        test_rand_bytes(in, len);
        unsigned int l = 0;
        CHECK(EVP_Digest(in, len, a, &l, EVP_blake2b512(), NULL) == 1 && l == 64);
        cuzk_fc_blake2b512_short(b, in, len);
        CHECK_MSG(memcmp(a, b, 64) == 0, "BLAKE2b-512 of %zu bytes", len);
    }
}

static void test_feistel(void)
{
    for (int iter = 0; iter < 3; iter++) {
        uint64_t keys[4] = {test_rand64(), test_rand64(), test_rand64(), test_rand64()};
        uint64_t n = iter == 0 ? 16 : 300 + test_rand_below(1500);
        cuzk_fc_feistel_t f;
        cuzk_fc_feistel_init(&f, n, keys);
        uint8_t *seen = calloc(n, 1);
        int ok = 1;
        for (uint64_t i = 0; i < n && ok; i++) {
            uint64_t p = cuzk_fc_feistel_permute(&f, i);
            ok &= p < n && !seen[p];
            if (ok)
                seen[p] = 1;
            ok &= cuzk_fc_feistel_invert(&f, p) == i;
        }
        CHECK_MSG(ok, "Feistel on %llu elements is not a bijection", (unsigned long long)n);
        CHECK(cuzk_fc_feistel_permute(&f, n) == n);
        free(seen);
    }
    /* Half widths: the smallest power of four covering n. */
    uint64_t keys[4] = {1, 2, 3, 4};
    cuzk_fc_feistel_t f;
    cuzk_fc_feistel_init(&f, 512, keys);
    CHECK(f.half_bits == 5 && f.right_mask == 31 && f.left_mask == 31u << 5);
    cuzk_fc_feistel_init(&f, 1u << 24, keys);
    CHECK(f.half_bits == 12);
}

static void porep_id_byte(uint8_t id[32], uint8_t first)
{
    memset(id, 0, 32);
    id[0] = first;
}

static void test_2kib_tables(void)
{
    static const struct {
        const char *file;
        uint8_t id;
        cuzk_fc_api_t api;
    } v[] = {
        {"parents-2KiB-porepid0-legacy.txt", 0, CUZK_FC_API_V1_0},
        {"parents-2KiB-porepid5-v1_1.txt", 5, CUZK_FC_API_V1_1},
        {"parents-2KiB-porepid0-v1_1-polka.txt", 0, CUZK_FC_API_V1_1},
    };
    for (size_t t = 0; t < sizeof v / sizeof *v; t++) {
        fc_parent_table *tab = malloc(sizeof *tab);
        CHECK_MSG(fc_read_parent_table(tab, v[t].file), "cannot read %s", v[t].file);
        uint8_t id[32];
        porep_id_byte(id, v[t].id);
        cuzk_fc_graph_t g;
        CHECK(cuzk_fc_graph_init(&g, 64, id, v[t].api, NULL) == CUZK_OK);
        int rows_ok = 0;
        for (int node = 0; node < 64; node++) {
            uint32_t p[14];
            CHECK(cuzk_fc_graph_parents(&g, (uint64_t)node, p) == CUZK_OK);
            rows_ok += memcmp(p, tab->parents[node], sizeof p) == 0;
        }
        CHECK_MSG(rows_ok == 64, "%s: %d of 64 rows match", v[t].file, rows_ok);
        uint32_t all[64 * 14];
        CHECK(cuzk_fc_parent_cache_fill(&g, 0, 64, all, 2, NULL) == CUZK_OK);
        CHECK(memcmp(all, tab->parents, sizeof all) == 0);
        uint8_t digest[32];
        CHECK(cuzk_fc_parent_cache_digest(&g, digest, 2, NULL) == CUZK_OK);
        CHECK_MSG(memcmp(digest, tab->digest, 32) == 0, "%s: cache digest", v[t].file);
        free(tab);
    }
}

/* The registered proof of each manifest entry, by sector size and version: V1 ids 0..4 use the V1_0
 * order, V1_1 ids 5..9 the new one. Names do not depend on the API version. */
static void test_manifest(void)
{
    char *json = test_read_file(FC_VECTORS "parent_cache.json", NULL);
    CHECK_MSG(json != NULL, "cannot read parent_cache.json");
    if (!json)
        return;
    const cuzk_fc_seal_proof_t *t = cuzk_fc_seal_proofs();
    for (int id = 0; id < 10; id++) {
        cuzk_fc_graph_t g;
        CHECK(cuzk_fc_graph_init_proof(&g, &t[id], NULL) == CUZK_OK);
        char name[96];
        CHECK(cuzk_fc_parent_cache_name(name, sizeof name, &g) == CUZK_OK);
        uint64_t size = 0;
        uint8_t digest[32];
        int found = fc_manifest_entry(json, name, &size, digest);
        CHECK_MSG(found && size == t[id].sector_size, "id %d: %s not in the manifest", id, name);
        /* 2KiB and 8MiB: generate the whole cache and compare its digest with the manifest's. The
         * sanitizer build checks one 8MiB cache (the V1_1 one) to stay within its time budget. */
        int check = found && t[id].sector_size <= (8u << 20);
#ifdef CUZK_SANITIZE
        check &= id != 1;
#endif
        if (check) {
            uint8_t got[32];
            double t0 = now_s();
            CHECK(cuzk_fc_parent_cache_digest(&g, got, 0, NULL) == CUZK_OK);
            double dt = now_s() - t0;
            CHECK_MSG(memcmp(got, digest, 32) == 0, "id %d: parent cache digest differs from the manifest",
                      id);
            printf("parent cache %s id %d: %.3f s\n", t[id].size_name, id, dt);
        }
    }
    char small[16];
    cuzk_fc_graph_t g;
    CHECK(cuzk_fc_graph_init_proof(&g, &t[0], NULL) == CUZK_OK);
    CHECK(cuzk_fc_parent_cache_name(small, sizeof small, &g) == CUZK_ERR_BAD_LENGTH);
    free(json);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void test_write(void)
{
    const char *base = getenv("TMPDIR");
    char dir[512], path[600], bad[700];
    snprintf(dir, sizeof dir, "%s/cuzk-fc-XXXXXX", base && *base ? base : P_tmpdir);
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/v28-sdr-parent-test.cache", dir);
    cuzk_fc_graph_t g;
    uint8_t id[32];
    porep_id_byte(id, 5);
    CHECK(cuzk_fc_graph_init(&g, 64, id, CUZK_FC_API_V1_1, NULL) == CUZK_OK);
    uint8_t digest[32], again[32];
    CHECK(cuzk_fc_parent_cache_write(&g, path, digest, 1, NULL) == CUZK_OK);
    size_t len = 0;
    char *bytes = test_read_file(path, &len);
    uint32_t want[64 * 14];
    CHECK(cuzk_fc_parent_cache_fill(&g, 0, 64, want, 1, NULL) == CUZK_OK);
    CHECK(bytes && len == sizeof want && memcmp(bytes, want, sizeof want) == 0);
    unsigned int l = 0;
    if (bytes)
        EVP_Digest(bytes, len, again, &l, EVP_sha256(), NULL);
    CHECK(memcmp(digest, again, 32) == 0);
    free(bytes);
    CHECK(count_entries(dir) == 1); /* no temporary file left */

    /* A directory that does not exist: an I/O error naming the path, nothing created. */
    cuzk_err_t err;
    snprintf(bad, sizeof bad, "%s/missing/x.cache", dir);
    CHECK(cuzk_fc_parent_cache_write(&g, bad, NULL, 1, &err) == CUZK_ERR_IO && strstr(err.msg, "missing"));
    CHECK(count_entries(dir) == 1);
    unlink(path);
    rmdir(dir);
}

static void test_big_graphs(void)
{
    const cuzk_fc_seal_proof_t *t = cuzk_fc_seal_proofs();
    /* 32GiB (id 8) and 64GiB (id 9) at their last nodes and random ones: parents in range, DRG parents
     * before the node, the predecessor first; the same porep_id with V1_0 order rotates the DRG slots
     * and keeps the expander parents modulo 2^29 (V1_0 narrows node·8 + i to u32 before dividing). */
    for (int id = 8; id <= 9; id++) {
        cuzk_fc_graph_t g, legacy;
        CHECK(cuzk_fc_graph_init_proof(&g, &t[id], NULL) == CUZK_OK);
        CHECK(cuzk_fc_graph_init(&legacy, g.nodes, g.porep_id, CUZK_FC_API_V1_0, NULL) == CUZK_OK);
        int ok = 1, truncated = 0;
        for (int iter = 0; iter < 40; iter++) {
            uint64_t node = iter == 0 ? g.nodes - 1 : iter == 1 ? 2 : 2 + test_rand_below(g.nodes - 2);
            uint32_t p[14], q[14];
            ok &= cuzk_fc_graph_parents(&g, node, p) == CUZK_OK;
            ok &= cuzk_fc_graph_parents(&legacy, node, q) == CUZK_OK;
            ok &= p[0] == node - 1 && q[5] == node - 1;
            for (int i = 0; i < 6; i++)
                ok &= p[i] < node && p[i] == q[(i + 5) % 6];
            for (int i = 6; i < 14; i++) {
                ok &= p[i] < g.nodes && q[i] == (p[i] & ((1u << 29) - 1));
                truncated += q[i] != p[i];
            }
        }
        CHECK_MSG(ok, "%s parents on demand", t[id].name);
        CHECK(truncated > 0); /* the V1_0 narrowing is visible at these sizes */
    }
}

static void test_bad_input(void)
{
    uint8_t id[32] = {0};
    cuzk_fc_graph_t g;
    cuzk_err_t err;
    CHECK(cuzk_fc_graph_init(&g, 1, id, CUZK_FC_API_V1_1, &err) == CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "1 nodes"));
    CHECK(cuzk_fc_graph_init(&g, (1ull << 32) + 1, id, CUZK_FC_API_V1_1, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_graph_init(&g, 64, id, (cuzk_fc_api_t)7, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_graph_init_proof(&g, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_graph_init(&g, 64, id, CUZK_FC_API_V1_1, NULL) == CUZK_OK);
    uint32_t p[14];
    CHECK(cuzk_fc_graph_parents(&g, 64, p) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_graph_drg_parents(&g, UINT64_MAX, p) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_parent_cache_fill(&g, 60, 5, p, 1, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(strstr(err.msg, "outside") != NULL);
    CHECK(cuzk_fc_parent_cache_fill(&g, UINT64_MAX, 2, p, 1, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_parent_cache_digest(&g, NULL, 1, NULL) == CUZK_ERR_INVALID_ARG);
}

int main(void)
{
    test_init("test_fc_graph");
    test_chacha_core();
    test_blake2b();
    test_feistel();
    test_2kib_tables();
    test_manifest();
    test_write();
    test_big_graphs();
    test_bad_input();
    return test_finish();
}
