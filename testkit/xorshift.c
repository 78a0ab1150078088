/* XorShift128 (Marsaglia) in rand_xorshift's layout, and rejection sampling of Fr from it. */
#include "testkit/xorshift.h"
#include "ff/fr.h"

const uint8_t CUZK_FC_TEST_SEED[16] = {0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                       0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void cuzk_fc_xorshift_seed(cuzk_fc_xorshift_t *r, const uint8_t seed[16])
{
    r->x = le32(seed), r->y = le32(seed + 4), r->z = le32(seed + 8), r->w = le32(seed + 12);
    /* An all-zero state is a fixed point; rand_xorshift substitutes this constant seed for it. */
    if (!(r->x | r->y | r->z | r->w))
        r->x = 0x0BAD5EED, r->y = 0x0BAD5EED, r->z = 0x0BAD5EED, r->w = 0x0BAD5EED;
}

uint32_t cuzk_fc_xorshift_next_u32(cuzk_fc_xorshift_t *r)
{
    uint32_t t = r->x ^ (r->x << 11);
    r->x = r->y, r->y = r->z, r->z = r->w;
    r->w = r->w ^ (r->w >> 19) ^ t ^ (t >> 8);
    return r->w;
}

uint64_t cuzk_fc_xorshift_next_u64(cuzk_fc_xorshift_t *r)
{
    uint64_t lo = cuzk_fc_xorshift_next_u32(r);
    uint64_t hi = cuzk_fc_xorshift_next_u32(r);
    return lo | hi << 32;
}

void cuzk_fc_xorshift_fr(cuzk_fc_xorshift_t *r, cuzk_fr_t *out)
{
    for (;;) {
        uint64_t limbs[4];
        for (int i = 0; i < 4; i++)
            limbs[i] = cuzk_fc_xorshift_next_u64(r);
        limbs[3] &= 0x7fffffffffffffffull;
        /* Canonical iff below the modulus, compared from the top limb down. */
        int below = 0;
        for (int i = 3; i >= 0; i--)
            if (limbs[i] != FR_MODULUS[i]) {
                below = limbs[i] < FR_MODULUS[i];
                break;
            }
        if (below) {
            fr_to_mont(out, limbs);
            return;
        }
    }
}
