/* ChaCha with 8 rounds (libcrypto has only ChaCha20). Scalar code: the DRG needs two blocks per node,
 * far less work than the node's BLAKE2b expander hashes. */
#include "filecoin/hash/chacha8.h"
#include <string.h>

static inline uint32_t rotl32(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

#define QR(a, b, c, d)                                                                             \
    do {                                                                                           \
        a += b, d ^= a, d = rotl32(d, 16);                                                         \
        c += d, b ^= c, b = rotl32(b, 12);                                                         \
        a += b, d ^= a, d = rotl32(d, 8);                                                          \
        c += d, b ^= c, b = rotl32(b, 7);                                                          \
    } while (0)

void cuzk_fc_chacha_block(uint32_t out[16], const uint32_t key[8], uint64_t counter, uint64_t stream,
                          int rounds)
{
    /* "expand 32-byte k" */
    uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    memcpy(in + 4, key, 32);
    in[12] = (uint32_t)counter, in[13] = (uint32_t)(counter >> 32);
    in[14] = (uint32_t)stream, in[15] = (uint32_t)(stream >> 32);
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (int r = 0; r < rounds; r += 2) {
        QR(x[0], x[4], x[8], x[12]);
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]);
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++)
        out[i] = x[i] + in[i];
}

void cuzk_fc_chacha8_words(uint32_t *out, size_t nwords, const uint8_t seed[32])
{
    uint32_t key[8];
    for (int i = 0; i < 8; i++)
        key[i] = (uint32_t)seed[4 * i] | (uint32_t)seed[4 * i + 1] << 8 |
                 (uint32_t)seed[4 * i + 2] << 16 | (uint32_t)seed[4 * i + 3] << 24;
    uint32_t block[16];
    for (uint64_t ctr = 0; nwords; ctr++) {
        cuzk_fc_chacha_block(block, key, ctr, 0, 8);
        size_t n = nwords < 16 ? nwords : 16;
        memcpy(out, block, n * sizeof *out);
        out += n, nwords -= n;
    }
}
