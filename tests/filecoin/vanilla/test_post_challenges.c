/* Fallback PoSt challenges: the leaves of curio's golden 32GiB Window PoSt (lib/proof/testgolden) and of
 * polka-storage's real 2KiB Window PoSt (pallets/proofs tests), the challenge index of each API version, and
 * the sector selection recomputed with libcrypto's EVP SHA-256. */
#include <string.h>
#include "filecoin/vanilla/post_challenges.h"
#include "test_util.h"

static void fill(uint8_t b[32], uint8_t v) { memset(b, v, 32); }

static void test_post(void)
{
    /* curio lib/proof/testgolden (32GiB sector 1, zero randomness): leaves of challenges 0..9. */
    static const uint64_t curio[10] = {707914199, 439148358, 967788220, 548708700, 1061661429,
                                       6202012,   1055504637, 389535735, 1000069704, 600088878};
    uint8_t zero[32];
    fill(zero, 0);
    for (uint64_t n = 0; n < 10; n++) {
        uint64_t idx = cuzk_fc_post_challenge_index(CUZK_FC_API_V1_0, 0, 10, n);
        CHECK(cuzk_fc_post_leaf_challenge(zero, 1, idx, 32ull << 30) == curio[n]);
    }
    /* polka-storage Window PoSt 2KiB: sector 77, randomness [1; 32], challenge index n (V1_2). */
    static const uint64_t polka[10] = {62, 13, 30, 16, 21, 30, 30, 34, 28, 40};
    uint8_t one[32];
    fill(one, 1);
    for (uint64_t n = 0; n < 10; n++) {
        uint64_t idx = cuzk_fc_post_challenge_index(CUZK_FC_API_V1_2, 1, 10, n);
        CHECK(idx == n);
        CHECK(cuzk_fc_post_leaf_challenge(one, 77, idx, 2048) == polka[n]);
    }
    CHECK(cuzk_fc_post_challenge_index(CUZK_FC_API_V1_1, 3, 10, 4) == 34);
    CHECK(cuzk_fc_post_leaf_challenge(one, 77, 0, 16) == 0);
    /* Sector selection against the formula. */
    uint8_t prover[32], h[32];
    test_rand_bytes(prover, 32);
    uint8_t nb[8] = {5};
    const uint8_t *p[3] = {prover, one, nb};
    size_t l[3] = {32, 32, 8};
    test_sha256_parts(h, p, l, 3);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | h[i];
    CHECK(cuzk_fc_post_sector_challenge(one, prover, 5, 2349) == v % 2349);
    CHECK(cuzk_fc_post_sector_challenge(one, prover, 5, 0) == 0);
}

int main(void)
{
    test_init("test_post_challenges");
    test_post();
    return test_finish();
}
