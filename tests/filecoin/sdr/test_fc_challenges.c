/* PoRep challenge derivations: polka-storage's real 2KiB PoRep (pallets/proofs tests: replica_id,
 * challenges 37 and 29), rust-fil-proofs' hardcoded synthetic challenges (challenges.rs), and the
 * interactive / non-interactive formulas recomputed with libcrypto's EVP SHA-256 and GMP as the big-integer
 * oracle. */
#include <gmp.h>
#include <string.h>
#include "ff/fr.h"
#include "filecoin/sdr/challenges.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/porep_inputs.h"
#include "test_util.h"

static void fill(uint8_t b[32], uint8_t v) { memset(b, v, 32); }

/* (LE256(h) mod (nodes − 1)) + 1 with GMP. */
static uint64_t gmp_reduce(const uint8_t h[32], uint64_t nodes)
{
    mpz_t x;
    mpz_init(x);
    mpz_import(x, 32, -1, 1, 0, 0, h);
    uint64_t r = mpz_fdiv_ui(x, (unsigned long)(nodes - 1)) + 1;
    mpz_clear(x);
    return r;
}

static void test_reduce(void)
{
    for (int i = 0; i < 2000; i++) {
        uint8_t h[32];
        test_rand_bytes(h, 32);
        uint64_t nodes = i % 3 == 0 ? 64 : i % 3 == 1 ? (1ull << 30) : 2 + test_rand_below(1ull << 32);
        CHECK(cuzk_fc_challenge_reduce(h, nodes) == gmp_reduce(h, nodes));
    }
    uint8_t ff[32];
    fill(ff, 0xff);
    CHECK(cuzk_fc_challenge_reduce(ff, 2) == 1);
    CHECK(cuzk_fc_challenge_reduce(ff, 1ull << 32) == gmp_reduce(ff, 1ull << 32));
}

static void test_polka_porep(void)
{
    uint8_t prover[32], ticket[32], seed[32], porep_id[32], comm_d[32], rid[32], want[32];
    fill(prover, 0), fill(ticket, 12), fill(seed, 13), fill(porep_id, 0);
    static const char comm_d_hex[] = "129c7562bb0c189544f5dccd365feaec2141eab458097a5ca8429c109d154421";
    static const char rid_hex[] = "b9a46849a25004df1345838204c76a324d7adb7bbb100cdf323d7996a5ac9b34";
    CHECK(test_hex_decode(comm_d_hex, comm_d, 32) == 32);
    CHECK(test_hex_decode(rid_hex, want, 32) == 32);
    cuzk_fc_replica_id(rid, prover, 77, ticket, comm_d, porep_id);
    CHECK(memcmp(rid, want, 32) == 0);
    uint64_t ch[2];
    CHECK(cuzk_fc_challenges_interactive(ch, 2, 64, rid, seed, 0, NULL) == CUZK_OK);
    CHECK_MSG(ch[0] == 37 && ch[1] == 29, "challenges %llu %llu", (unsigned long long)ch[0],
              (unsigned long long)ch[1]);
    /* Their parents in polka-storage's graph (porep id 0, V1_1 order). */
    static const uint32_t want37[14] = {36, 31, 35, 36, 11, 36, 20, 54, 46, 50, 16, 17, 9, 27};
    static const uint32_t want29[14] = {28, 27, 28, 27, 11, 28, 14, 21, 31, 58, 41, 12, 62, 55};
    cuzk_fc_graph_t g;
    uint32_t p[14];
    CHECK(cuzk_fc_graph_init(&g, 64, porep_id, CUZK_FC_API_V1_1, NULL) == CUZK_OK);
    CHECK(cuzk_fc_graph_parents(&g, 37, p) == CUZK_OK && memcmp(p, want37, sizeof p) == 0);
    CHECK(cuzk_fc_graph_parents(&g, 29, p) == CUZK_OK && memcmp(p, want29, sizeof p) == 0);
}

static void test_interactive_oracle(void)
{
    uint8_t rid[32], seed[32];
    test_rand_bytes(rid, 32), test_rand_bytes(seed, 32);
    rid[31] &= 0x3f;
    uint64_t one[180], parts[180];
    /* Partitioning: 10 partitions of 18 = one partition of 180 (challenges.rs equivalence test). */
    CHECK(cuzk_fc_challenges_interactive(one, 180, 1ull << 30, rid, seed, 0, NULL) == CUZK_OK);
    for (uint32_t k = 0; k < 10; k++)
        CHECK(cuzk_fc_challenges_interactive(parts + 18 * k, 18, 1ull << 30, rid, seed, k, NULL) == CUZK_OK);
    CHECK(memcmp(one, parts, sizeof one) == 0);
    for (int i = 0; i < 180; i++) {
        uint8_t j[4] = {(uint8_t)i, 0, 0, 0}, h[32];
        const uint8_t *p[3] = {rid, seed, j};
        size_t l[3] = {32, 32, 4};
        test_sha256_parts(h, p, l, 3);
        CHECK(one[i] == gmp_reduce(h, 1ull << 30) && one[i] >= 1 && one[i] < (1ull << 30));
    }
    cuzk_err_t err;
    CHECK(cuzk_fc_challenges_interactive(one, 1, 1, rid, seed, 0, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_challenges_interactive(one, 1, (1ull << 32) + 1, rid, seed, 0, &err) ==
          CUZK_ERR_INVALID_ARG);
}

static void test_ni_oracle(void)
{
    static const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
    uint8_t rid[32], comm_r[32];
    test_rand_bytes(rid, 32), test_rand_bytes(comm_r, 32);
    uint32_t k = (uint32_t)test_rand_below(126);
    uint64_t ch[18];
    CHECK(cuzk_fc_challenges_ni(ch, 18, 1ull << 31, rid, comm_r, k, NULL) == CUZK_OK);
    for (uint32_t i = 0; i < 18; i++) {
        uint32_t jv = 18 * k + i;
        uint8_t j[4] = {(uint8_t)jv, (uint8_t)(jv >> 8), 0, 0}, h[32];
        const uint8_t *p[4] = {(const uint8_t *)tag, rid, comm_r, j};
        size_t l[4] = {sizeof tag - 1, 32, 32, 4};
        test_sha256_parts(h, p, l, 4);
        CHECK(ch[i] == gmp_reduce(h, 1ull << 31));
    }
}

static void fr_bytes(uint8_t out[32], uint64_t v)
{
    cuzk_fr_t x;
    fr_from_u64(&x, v);
    fr_to_bytes_le(out, &x);
}

/* storage-proofs-porep challenges.rs test_synth_challenges_against_hardcoded. */
static void test_synthetic(void)
{
    static const uint64_t synth[21] = {178, 297, 869, 211, 875, 477, 94, 781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
    static const uint64_t porep[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    uint8_t rid[32], comm_r[32], rand[32];
    fr_bytes(rid, 55), fr_bytes(comm_r, 101), fill(rand, 1);
    uint64_t got[21];
    CHECK(cuzk_fc_synth_challenges(got, 0, 21, 21, 1024, rid, comm_r, NULL) == CUZK_OK);
    CHECK(memcmp(got, synth, sizeof synth) == 0);
    /* Seeking: each member alone, in reverse. */
    for (int i = 20; i >= 0; i--) {
        uint64_t one;
        CHECK(cuzk_fc_synth_challenges(&one, (uint64_t)i, 1, 21, 1024, rid, comm_r, NULL) == CUZK_OK);
        CHECK(one == synth[i]);
    }
    uint64_t pc[10];
    CHECK(cuzk_fc_challenges_synthetic(pc, 10, 21, 1024, rid, comm_r, rand, 0, NULL) == CUZK_OK);
    CHECK(memcmp(pc, porep, sizeof porep) == 0);
    /* Partitions of 5: the same 10 (the selection stream is indexed by cpp·k + i). */
    uint64_t p2[10];
    CHECK(cuzk_fc_challenges_synthetic(p2, 5, 21, 1024, rid, comm_r, rand, 0, NULL) == CUZK_OK);
    CHECK(cuzk_fc_challenges_synthetic(p2 + 5, 5, 21, 1024, rid, comm_r, rand, 1, NULL) == CUZK_OK);
    CHECK(memcmp(p2, porep, sizeof porep) == 0);
    /* A large set read across many keystream blocks equals member-by-member reads. */
    uint64_t big[100];
    CHECK(cuzk_fc_synth_challenges(big, 1000, 100, 1u << 18, 1u << 30, rid, comm_r, NULL) == CUZK_OK);
    for (int i = 0; i < 100; i += 7) {
        uint64_t one;
        CHECK(cuzk_fc_synth_challenges(&one, 1000 + (uint64_t)i, 1, 1u << 18, 1u << 30, rid, comm_r, NULL) ==
              CUZK_OK);
        CHECK(one == big[i]);
    }
    CHECK(cuzk_fc_synth_default_count(64) == 64 && cuzk_fc_synth_default_count(1ull << 30) == (1u << 18));
    cuzk_err_t err;
    CHECK(cuzk_fc_synth_challenges(got, 20, 2, 21, 1024, rid, comm_r, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_synth_indexes(got, 2, 0, rid, rand, 0, &err) == CUZK_ERR_INVALID_ARG);
}

int main(void)
{
    test_init("test_fc_challenges");
    test_reduce();
    test_polka_porep();
    test_interactive_oracle();
    test_ni_oracle();
    test_synthetic();
    return test_finish();
}
