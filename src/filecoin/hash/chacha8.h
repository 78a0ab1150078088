/* ChaCha8 as rand_chacha's ChaCha8Rng uses it (the DRG's per-node random stream): the 32-byte seed is the
 * key, the block counter is 64 bits (state words 12-13) starting at 0, the stream id (words 14-15) is 0.
 * next_u32 reads keystream words in order; next_u64 = two consecutive words, the low one first. */
#ifndef CUZK_FILECOIN_CHACHA8_H
#define CUZK_FILECOIN_CHACHA8_H
#include <stddef.h>
#include <stdint.h>

/* The 16 output words of block `counter`: rounds/2 double rounds (8 here; 20 gives the ChaCha20 that
 * libcrypto implements, which the tests use to check this code), then the input added. */
void cuzk_fc_chacha_block(uint32_t out[16], const uint32_t key[8], uint64_t counter, uint64_t stream,
                          int rounds);

/* The first nwords keystream words of ChaCha8Rng::from_seed(seed), stream 0. */
void cuzk_fc_chacha8_words(uint32_t *out, size_t nwords, const uint8_t seed[32]);

#endif
