/* SHA-256 functions and tree D: zero-data comm_d for every published size (filecoin-proofs tests/pieces.rs
 * for 128 B and 2KiB, curio's 32GiB and 64GiB piece CIDs, go-commp-utils zerocomm.go for all of them:
 * docs/REFERENCE.md §6),
 * comm_d of real buffers against a level-by-level oracle over libcrypto's EVP one-shot digest, and the
 * FIPS 180-2 "abc" digest. */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include "filecoin/hash/sha256_tree.h"
#include "test_util.h"

static void hex32(uint8_t out[32], const char *hex)
{
    long n = test_hex_decode(hex, out, 32);
    if (n != 32)
        fprintf(stderr, "bad hex %s\n", hex);
}

static void evp_sha256(uint8_t out[32], const void *in, size_t len)
{
    unsigned int l = 0;
    EVP_Digest(in, len, out, &l, EVP_sha256(), NULL);
}

static void test_digests(void)
{
    uint8_t h[32], want[32];
    cuzk_fc_span_t abc = {"abc", 3};
    cuzk_fc_sha256(h, &abc, 1);
    hex32(want, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(memcmp(h, want, 32) == 0);
    /* Concatenation of pieces = digest of the joined bytes; trimmed differs only in bits 254, 255. */
    uint8_t buf[300];
    test_rand_bytes(buf, sizeof buf);
    for (int iter = 0; iter < 50; iter++) {
        size_t a = (size_t)test_rand_below(150), b = (size_t)test_rand_below(150);
        cuzk_fc_span_t parts[3] = {{buf, a}, {buf + a, 0}, {buf + a, b}};
        uint8_t t[32];
        cuzk_fc_sha256(h, parts, 3);
        evp_sha256(want, buf, a + b);
        CHECK(memcmp(h, want, 32) == 0);
        cuzk_fc_sha256_trimmed(t, parts, 3);
        CHECK(memcmp(t, want, 31) == 0 && t[31] == (want[31] & 0x3f));
    }
    uint8_t l[32], r[32], lr[64];
    test_rand_bytes(l, 32), test_rand_bytes(r, 32);
    memcpy(lr, l, 32), memcpy(lr + 32, r, 32);
    cuzk_fc_sha256_node(h, l, r);
    evp_sha256(want, lr, 64);
    want[31] &= 0x3f;
    CHECK(memcmp(h, want, 32) == 0);
}

static void test_zero_comm_d(void)
{
    static const struct {
        uint64_t size;
        const char *hex;
    } v[] = {
        {128, "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333"},
        {2048, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"},
        {8ull << 20, "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c"},
        {512ull << 20, "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06"},
        {32ull << 30, "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e"},
        {64ull << 30, "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02"},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        uint8_t got[32], want[32];
        hex32(want, v[i].hex);
        CHECK(cuzk_fc_zero_comm_d(got, v[i].size, NULL) == CUZK_OK);
        CHECK_MSG(memcmp(got, want, 32) == 0, "zero comm_d of %llu bytes", (unsigned long long)v[i].size);
    }
    uint8_t z[32], zero[32] = {0};
    CHECK(cuzk_fc_zero_comm_d(z, 32, NULL) == CUZK_OK && memcmp(z, zero, 32) == 0);
    cuzk_err_t err;
    CHECK(cuzk_fc_zero_comm_d(z, 3000, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "3000"));
    CHECK(cuzk_fc_zero_comm_d(z, 16, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_zero_comm_d(z, 0, NULL) == CUZK_ERR_INVALID_ARG);

    /* The tree over actual zero buffers gives the same roots (2KiB and 8MiB, 1 and 2 threads). */
    uint8_t *buf = calloc(8 << 20, 1);
    for (int threads = 1; threads <= 2; threads++) {
        uint8_t got[32], want[32];
        hex32(want, v[1].hex);
        CHECK(cuzk_fc_comm_d(got, buf, 2048, threads, NULL) == CUZK_OK && memcmp(got, want, 32) == 0);
        hex32(want, v[2].hex);
        CHECK(cuzk_fc_comm_d(got, buf, 8 << 20, threads, NULL) == CUZK_OK && memcmp(got, want, 32) == 0);
    }
    free(buf);
}

/* Oracle: hash level by level into a fresh array with EVP. */
static void oracle_root(uint8_t out[32], const uint8_t *data, size_t leaves)
{
    uint8_t *cur = malloc(32 * leaves);
    memcpy(cur, data, 32 * leaves);
    while (leaves > 1) {
        for (size_t i = 0; i < leaves / 2; i++) {
            uint8_t h[32];
            evp_sha256(h, cur + 64 * i, 64);
            h[31] &= 0x3f;
            memcpy(cur + 32 * i, h, 32);
        }
        leaves /= 2;
    }
    memcpy(out, cur, 32);
    free(cur);
}

static void test_comm_d_random(void)
{
    for (int lg = 0; lg <= 14; lg++) {
        size_t leaves = (size_t)1 << lg;
        uint8_t *d = malloc(32 * leaves);
        test_rand_bytes(d, 32 * leaves);
        for (size_t i = 0; i < leaves; i++)
            d[32 * i + 31] &= 0x3f;
        uint8_t a[32], b[32];
        oracle_root(a, d, leaves);
        int threads = 1 + (int)test_rand_below(3);
        CHECK(cuzk_fc_comm_d(b, d, 32 * leaves, threads, NULL) == CUZK_OK);
        CHECK_MSG(memcmp(a, b, 32) == 0, "comm_d of %zu leaves, %d threads", leaves, threads);
        free(d);
    }
    uint8_t x[32], d[96] = {0};
    CHECK(cuzk_fc_comm_d(x, d, 96, 1, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_comm_d(x, d, 16, 1, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_comm_d(x, NULL, 64, 1, NULL) == CUZK_ERR_INVALID_ARG);
}

int main(void)
{
    test_init("test_fc_sha256");
    test_digests();
    test_zero_comm_d();
    test_comm_d_random();
    return test_finish();
}
