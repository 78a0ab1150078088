/* The random inputs of rust-fil-proofs' tests, re-created: rand_xorshift's XorShiftRng seeded with a
 * 16-byte seed (storage-proofs-core TEST_SEED) and blstrs' Fr::random drawing from it. Known-answer tests
 * that the reference fills with "random" domains need exactly this stream. */
#ifndef CUZK_FILECOIN_XORSHIFT_H
#define CUZK_FILECOIN_XORSHIFT_H
#include <stdint.h>
#include "cuzk/field.h"

typedef struct {
    uint32_t x, y, z, w;
} cuzk_fc_xorshift_t;

/* storage-proofs-core TEST_SEED. */
extern const uint8_t CUZK_FC_TEST_SEED[16];

/* x, y, z, w = the four little-endian u32 of seed (rand_xorshift 0.3 from_seed; an all-zero seed is
 * replaced as the reference does). */
void cuzk_fc_xorshift_seed(cuzk_fc_xorshift_t *r, const uint8_t seed[16]);
uint32_t cuzk_fc_xorshift_next_u32(cuzk_fc_xorshift_t *r);
/* Two u32 draws, the first one low. */
uint64_t cuzk_fc_xorshift_next_u64(cuzk_fc_xorshift_t *r);
/* blstrs Scalar::random: four u64 draws as little-endian limbs, bit 255 cleared, redrawn while >= r.
 * Output in Montgomery form. */
void cuzk_fc_xorshift_fr(cuzk_fc_xorshift_t *r, cuzk_fr_t *out);

#endif
