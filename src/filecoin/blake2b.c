/* BLAKE2b, one final block: parameter block for a 64-byte digest, no key, byte counter = len, final-block
 * flag set, 12 rounds of the G mixing function over the message schedule. */
#include "filecoin/blake2b.h"
#include <string.h>

/* The SHA-512 initial hash values, as RFC 7693 specifies for BLAKE2b. */
static const uint64_t IV[8] = {
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};

/* Message word order per round (rounds 10 and 11 reuse rows 0 and 1). */
static const uint8_t SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

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
    memcpy(h, IV, sizeof h);
    h[0] ^= 0x01010000ull | 64; /* depth 1, fanout 1, no key, 64-byte digest */
    uint64_t v[16];
    memcpy(v, h, sizeof h);
    memcpy(v + 8, IV, sizeof IV);
    v[12] ^= (uint64_t)len; /* low word of the byte counter */
    v[14] = ~v[14];         /* last block */
    /* Fully unrolled, the schedule indexes are constants and v[] and m[] stay in registers. */
#pragma GCC unroll 12
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = SIGMA[r];
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
