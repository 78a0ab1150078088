/* BLAKE2b, one final block: parameter block for a 64-byte digest, no key, byte counter = len, final-block
 * flag set, 12 rounds of the G mixing function over the message schedule. */
#include "filecoin/hash/blake2b.h"
#include <string.h>

static inline uint64_t rotr64(uint64_t x, int k) { return (x >> k) | (x << (64 - k)); }

#define G(a, b, c, d, x, y)                                                                        \
    do {                                                                                           \
        a = a + b + (x), d = rotr64(d ^ a, 32);                                                    \
        c = c + d, b = rotr64(b ^ c, 24);                                                          \
        a = a + b + (y), d = rotr64(d ^ a, 16);                                                    \
        c = c + d, b = rotr64(b ^ c, 63);                                                          \
    } while (0)

void cuzk_fc_blake2b512_short(uint8_t out[64], const uint8_t *in, size_t len)
{
    uint8_t block[128] = {0};
    if (len > 128)
        len = 128;
    memcpy(block, in, len);
    uint64_t m[16];
    for (int i = 0; i < 16; i++) {
        uint64_t w = 0;
        for (int j = 7; j >= 0; j--)
            w = w << 8 | block[8 * i + j];
        m[i] = w;
    }
    uint64_t h[8];
    memcpy(h, CUZK_BLAKE2B_IV, sizeof h);
    h[0] ^= 0x01010000ull | 64; /* depth 1, fanout 1, no key, 64-byte digest */
    uint64_t v[16];
    memcpy(v, h, sizeof h);
    memcpy(v + 8, CUZK_BLAKE2B_IV, sizeof CUZK_BLAKE2B_IV);
    v[12] ^= (uint64_t)len; /* low word of the byte counter */
    v[14] = ~v[14];         /* last block */
    /* Fully unrolled, the schedule indexes are constants and v[] and m[] stay in registers. */
#pragma GCC unroll 12
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = CUZK_BLAKE2B_SIGMA[r];
        G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
        G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
        G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
        G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
        G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
        G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
        G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
        G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++) {
        uint64_t w = h[i] ^ v[i] ^ v[i + 8];
        for (int j = 0; j < 8; j++)
            out[8 * i + j] = (uint8_t)(w >> (8 * j));
    }
}
