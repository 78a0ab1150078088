/* Feistel permutation with BLAKE2b-512 round functions (the short single-block BLAKE2b: the expander
 * calls it ~6 times per parent). */
#include "filecoin/feistel.h"
#include "filecoin/blake2b.h"

void cuzk_fc_feistel_init(cuzk_fc_feistel_t *f, uint64_t num_elements, const uint64_t keys[4])
{
    /* Smallest power of four >= num_elements (at least 4): both halves get the same bit width. */
    uint64_t next_pow4 = 4;
    unsigned log4 = 1;
    while (next_pow4 < num_elements) {
        next_pow4 *= 4;
        log4++;
    }
    f->num_elements = num_elements;
    for (int i = 0; i < 4; i++)
        f->keys[i] = keys[i];
    f->right_mask = (1ull << log4) - 1;
    f->left_mask = f->right_mask << log4;
    f->half_bits = log4;
}

static uint64_t round_fn(uint64_t right, uint64_t key, uint64_t mask)
{
    uint8_t data[16], h[64];
    for (int i = 0; i < 8; i++) {
        data[i] = (uint8_t)(right >> (56 - 8 * i));
        data[8 + i] = (uint8_t)(key >> (56 - 8 * i));
    }
    cuzk_fc_blake2b512_short(h, data, 16);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | h[i];
    return v & mask;
}

static uint64_t encode(const cuzk_fc_feistel_t *f, uint64_t index)
{
    uint64_t left = (index & f->left_mask) >> f->half_bits, right = index & f->right_mask;
    for (int r = 0; r < CUZK_FC_FEISTEL_ROUNDS; r++) {
        uint64_t t = left ^ round_fn(right, f->keys[r], f->right_mask);
        left = right;
        right = t;
    }
    return (left << f->half_bits) | right;
}

static uint64_t decode(const cuzk_fc_feistel_t *f, uint64_t index)
{
    uint64_t left = (index & f->left_mask) >> f->half_bits, right = index & f->right_mask;
    for (int r = CUZK_FC_FEISTEL_ROUNDS - 1; r >= 0; r--) {
        uint64_t t = right ^ round_fn(left, f->keys[r], f->right_mask);
        right = left;
        left = t;
    }
    return (left << f->half_bits) | right;
}

/* Cycle walking: the network permutes [0, 4^k); re-applying it until the value lands below n gives a
 * permutation of [0, n). */
uint64_t cuzk_fc_feistel_permute(const cuzk_fc_feistel_t *f, uint64_t index)
{
    if (index >= f->num_elements)
        return index;
    uint64_t u = encode(f, index);
    while (u >= f->num_elements)
        u = encode(f, u);
    return u;
}

uint64_t cuzk_fc_feistel_invert(const cuzk_fc_feistel_t *f, uint64_t index)
{
    if (index >= f->num_elements)
        return index;
    uint64_t u = decode(f, index);
    while (u >= f->num_elements)
        u = decode(f, u);
    return u;
}
