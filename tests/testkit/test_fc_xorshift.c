/* XorShiftRng and Fr::random from storage-proofs-core's TEST_SEED: the first field element is the
 * comm_r_new of storage-proofs-update's hardcoded challenge test (src/challenges.rs), whose 24
 * challenge vectors reproduce with it. */
#include <string.h>
#include "ff/fr.h"
#include "testkit/xorshift.h"
#include "test_util.h"

int main(void)
{
    test_init("test_fc_xorshift");
    cuzk_fc_xorshift_t r;
    cuzk_fc_xorshift_seed(&r, CUZK_FC_TEST_SEED);
    cuzk_fr_t x;
    cuzk_fc_xorshift_fr(&r, &x);
    uint8_t be[32], want[32];
    fr_to_bytes_be(be, &x);
    static const char first[] = "6c0740d6edb22eb13054f4587d6d2dcbc688f796c303c7044f60429c4bbe1c10";
    CHECK(test_hex_decode(first, want, 32) == 32);
    CHECK(memcmp(be, want, 32) == 0);

    /* The generator itself, stepped by hand from the seed words (Marsaglia's xor128 recurrence). */
    cuzk_fc_xorshift_seed(&r, CUZK_FC_TEST_SEED);
    uint32_t s[4] = {0x5dbe6259u, 0x8d313d76u, 0x3237db17u, 0xe5bc0654u};
    for (int i = 0; i < 1000; i++) {
        uint32_t t = s[0] ^ (s[0] << 11);
        s[0] = s[1], s[1] = s[2], s[2] = s[3];
        s[3] = s[3] ^ (s[3] >> 19) ^ t ^ (t >> 8);
        CHECK(cuzk_fc_xorshift_next_u32(&r) == s[3]);
    }
    /* next_u64: the first draw is the low half. */
    cuzk_fc_xorshift_t a, b;
    cuzk_fc_xorshift_seed(&a, CUZK_FC_TEST_SEED);
    cuzk_fc_xorshift_seed(&b, CUZK_FC_TEST_SEED);
    uint64_t lo = cuzk_fc_xorshift_next_u32(&b), hi = cuzk_fc_xorshift_next_u32(&b);
    CHECK(cuzk_fc_xorshift_next_u64(&a) == (lo | hi << 32));
    /* An all-zero seed is replaced by rand_xorshift's fixed state instead of sticking at zero. */
    uint8_t zero[16] = {0};
    cuzk_fc_xorshift_seed(&a, zero);
    CHECK(a.x == 0x0BAD5EED && cuzk_fc_xorshift_next_u32(&a) != 0);
    return test_finish();
}
