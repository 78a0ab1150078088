/* Unkeyed BLAKE2b-512 (RFC 7693) of a message that fits one 128-byte block, without allocation. The
 * Feistel expander hashes 16 bytes ~50 times per SDR node; libcrypto 3.0 allocates a context on every
 * EVP digest initialisation (one malloc per hash) and costs twice as much, so this short form is ours.
 * The tests check it against libcrypto's BLAKE2b-512 for every length. */
#ifndef CUZK_FILECOIN_BLAKE2B_H
#define CUZK_FILECOIN_BLAKE2B_H
#include <stddef.h>
#include <stdint.h>

/* The SHA-512 initial hash values, as RFC 7693 specifies for BLAKE2b. */
static const uint64_t CUZK_BLAKE2B_IV[8] = {
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};

/* Message word order per round (rounds 10 and 11 reuse rows 0 and 1). Constant tables in the header,
 * so that the scalar and the lane code (feistel_lanes.h) fold them at compile time. */
static const uint8_t CUZK_BLAKE2B_SIGMA[12][16] = {
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

/* out = BLAKE2b-512(in[0..len)), len <= 128. */
void cuzk_fc_blake2b512_short(uint8_t out[64], const uint8_t *in, size_t len);

#endif
