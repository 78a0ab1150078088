/* Fr32 padding: the fr32 crate's reader.rs test vectors, a bit-by-bit oracle written from the
 * layout description on random data, unpadding, the streaming padder, the byte-offset maps, and the
 * LE bytes <-> Fr conversions. */
#include <stdlib.h>
#include <string.h>
#include "ff/fr.h"
#include "filecoin/hash/fr32.h"
#include "filecoin/fc_fr32_oracle.h"
#include "test_util.h"

static void test_reader_vectors(void)
{
    uint8_t in[127], out[128];
    memset(in, 255, 32);
    CHECK(cuzk_fr32_padded_len(32) == 64);
    cuzk_fr32_pad(out, in, 32);
    CHECK(memcmp(out, in, 31) == 0 && out[31] == 0x3f && out[32] == 0x03);
    for (int i = 33; i < 64; i++)
        CHECK(out[i] == 0);

    memset(in, 255, 127);
    CHECK(cuzk_fr32_padded_len(127) == 128);
    cuzk_fr32_pad(out, in, 127);
    CHECK(memcmp(out, in, 31) == 0 && out[31] == 0x3f && out[32] == 0xff);
    /* Every element holds 254 ones. */
    for (int e = 0; e < 4; e++) {
        int ones = 0;
        for (int i = 0; i < 32; i++)
            ones += __builtin_popcount(out[32 * e + i]);
        CHECK(ones == 254 && out[32 * e + 31] == 0x3f);
    }

    memset(in, 3, 30);
    CHECK(cuzk_fr32_padded_len(30) == 32);
    cuzk_fr32_pad(out, in, 30);
    CHECK(memcmp(out, in, 30) == 0 && out[30] == 0 && out[31] == 0);
}

static void test_random(void)
{
    for (int iter = 0; iter < 300; iter++) {
        size_t n = iter < 260 ? (size_t)iter : (size_t)test_rand_below(5000);
        size_t plen = (size_t)cuzk_fr32_padded_len(n);
        uint8_t *in = malloc(n + 1), *a = malloc(plen + 1), *b = malloc(plen + 1), *back = malloc(n + 1);
        test_rand_bytes(in, n);
        fc_test_fr32_pad(a, in, n);
        cuzk_fr32_pad(b, in, n);
        CHECK_MSG(memcmp(a, b, plen) == 0, "pad n=%zu", n);
        /* Unpadding reads no further than to_padded_bytes(n): give it exactly that many bytes. */
        size_t need = (size_t)cuzk_fr32_to_padded_bytes(n);
        CHECK(need <= plen);
        uint8_t *exact = malloc(need + 1);
        memcpy(exact, b, need);
        cuzk_fr32_unpad(back, exact, n);
        CHECK_MSG(memcmp(back, in, n) == 0, "unpad n=%zu", n);
        /* Streaming in random pieces gives the same bytes. */
        cuzk_fr32_padder_t p;
        cuzk_fr32_padder_init(&p);
        uint8_t *c = malloc(plen + 256);
        size_t off = 0, w = 0;
        while (off < n) {
            size_t piece = 1 + (size_t)test_rand_below(300);
            if (piece > n - off)
                piece = n - off;
            w += cuzk_fr32_padder_update(&p, c + w, in + off, piece);
            off += piece;
        }
        w += cuzk_fr32_padder_finish(&p, c + w);
        CHECK_MSG(w == plen && memcmp(c, a, plen) == 0, "stream n=%zu w=%zu", n, w);
        /* Every element is a canonical field element. */
        for (size_t e = 0; e < plen / 32; e++)
            CHECK(cuzk_fr32_is_canonical(b + 32 * e));
        free(in), free(a), free(b), free(back), free(exact), free(c);
    }
    /* Block paths against the general one. */
    size_t blocks = 37;
    uint8_t *in = malloc(127 * blocks), *a = malloc(128 * blocks), *b = malloc(128 * blocks),
            *back = malloc(127 * blocks);
    test_rand_bytes(in, 127 * blocks);
    cuzk_fr32_pad_blocks(a, in, blocks);
    fc_test_fr32_pad(b, in, 127 * blocks);
    CHECK(memcmp(a, b, 128 * blocks) == 0);
    cuzk_fr32_unpad_blocks(back, a, blocks);
    CHECK(memcmp(back, in, 127 * blocks) == 0);
    free(in), free(a), free(b), free(back);
}

static void test_offsets(void)
{
    /* 127 <-> 128 per block; partial: 32 raw bytes = 256 bits = 254 + 2 -> 258 bits -> 33 bytes. */
    CHECK(cuzk_fr32_to_padded_bytes(127) == 128 && cuzk_fr32_to_unpadded_bytes(128) == 127);
    CHECK(cuzk_fr32_to_padded_bytes(127 * 1024) == 128 * 1024);
    CHECK(cuzk_fr32_to_unpadded_bytes(32ull << 30) == (32ull << 30) / 128 * 127);
    CHECK(cuzk_fr32_to_padded_bytes(32) == 33);
    CHECK(cuzk_fr32_to_padded_bytes(31) == 31);
    CHECK(cuzk_fr32_to_unpadded_bytes(32) == 31); /* 256 bits -> 254 -> 31 whole bytes */
    CHECK(cuzk_fr32_to_unpadded_bytes(33) == 32);
    for (uint64_t n = 0; n < 2000; n++)
        CHECK(cuzk_fr32_to_unpadded_bytes(cuzk_fr32_to_padded_bytes(n)) == n);
}

static void test_fr_bytes(void)
{
    uint8_t r[32], b[32];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            r[8 * i + j] = (uint8_t)(FR_MODULUS[i] >> (8 * j));
    cuzk_fr_t x;
    cuzk_err_t err;
    CHECK(!cuzk_fr32_is_canonical(r));
    CHECK(cuzk_fr32_to_fr(&x, r, &err) == CUZK_ERR_NOT_CANONICAL && strlen(err.msg) > 0);
    r[0] -= 1; /* r − 1 */
    CHECK(cuzk_fr32_to_fr(&x, r, &err) == CUZK_OK);
    cuzk_fr32_from_fr(b, &x);
    CHECK(memcmp(b, r, 32) == 0);
    cuzk_fr_t one;
    fr_from_u64(&one, 1);
    fr_add(&x, &x, &one);
    CHECK(fr_is_zero(&x));
    /* Trimming makes any 32 bytes canonical and keeps the low 254 bits. */
    for (int i = 0; i < 100; i++) {
        test_rand_bytes(b, 32);
        uint8_t t[32];
        memcpy(t, b, 32);
        cuzk_fr32_trim(t);
        CHECK(cuzk_fr32_is_canonical(t) && memcmp(t, b, 31) == 0 && t[31] == (b[31] & 0x3f));
    }
}

int main(void)
{
    test_init("test_fc_fr32");
    test_reader_vectors();
    test_random();
    test_offsets();
    test_fr_bytes();
    return test_finish();
}
