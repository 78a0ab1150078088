/* Unkeyed BLAKE2b-512 (RFC 7693) of a message that fits one 128-byte block, without allocation. The
 * Feistel expander hashes 16 bytes ~50 times per SDR node; libcrypto 3.0 allocates a context on every
 * EVP digest initialisation (one malloc per hash) and costs twice as much, so this short form is ours.
 * The tests check it against libcrypto's BLAKE2b-512 for every length. */
#ifndef CUZK_FILECOIN_BLAKE2B_H
#define CUZK_FILECOIN_BLAKE2B_H
#include <stddef.h>
#include <stdint.h>

/* out = BLAKE2b-512(in[0..len)), len <= 128. */
void cuzk_fc_blake2b512_short(uint8_t out[64], const uint8_t *in, size_t len);

#endif
