/* SnapDeals challenges, phi and rho. The challenges against all 24 vectors of storage-proofs-update
 * src/challenges.rs test_challenges_against_hardcoded (comm_r_new: the first Fr::random of TEST_SEED,
 * re-created with the testkit's XorShift), every partition's whole list against a slow oracle (the
 * textbook Poseidon permutation with the tag 2^40 written here, bits read from the canonical limbs) and
 * inside its partition's node range (test_challenge_bucketing); phi and rho against the same oracle
 * (rho's input: the node's h high bits, shifted here by the sizes' own numbers), the batched rho tables
 * and their inverses against single values; the refusals. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/snap.h"
#include "ff/fr.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/vanilla/snap_challenges.h"
#include "test_util.h"
#include "testkit/xorshift.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

/* challenges.rs test_challenges_against_hardcoded: (sector nodes, k) → the first five challenges. */
static const struct {
    uint64_t nodes;
    uint32_t k;
    uint64_t c[5];
} VECTORS[24] = {
    {1 << 5, 0, {21, 7, 3, 31, 0}},
    {1 << 6, 0, {53, 51, 56, 3, 0}},
    {1 << 7, 0, {117, 25, 62, 0, 72}},
    {1 << 8, 0, {245, 140, 15, 128, 28}},
    {1 << 9, 0, {245, 140, 15, 128, 28}},
    {1 << 9, 1, {286, 308, 493, 510, 508}},
    {1 << 10, 0, {245, 454, 3, 400, 193}},
    {1 << 10, 1, {542, 666, 955, 927, 911}},
    {1 << 18, 0, {36085, 32783, 44060, 10950, 3731}},
    {1 << 18, 1, {78878, 130797, 112892, 93994, 78379}},
    {1 << 19, 0, {101621, 16391, 109319, 25944, 41193}},
    {1 << 19, 1, {209950, 163702, 175679, 224741, 197410}},
    {1 << 24, 0, {1019125, 116736, 706220, 59698, 799498}},
    {1 << 24, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
    {1 << 24, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
    {1 << 24, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
    {1ull << 30, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
    {1ull << 30, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
    {1ull << 30, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
    {1ull << 30, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
    {1ull << 31, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
    {1ull << 31, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
    {1ull << 31, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
    {1ull << 31, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
};

/* ---- the oracle ---- */

/* Poseidon2 with the custom tag 1·2^40 by the textbook permutation. */
static fr oracle_hash2(const fr *a, const fr *b)
{
    uint64_t l[4] = {1ull << 40, 0, 0, 0};
    fr tag, out, in[2] = {*a, *b};
    fr_to_mont(&tag, l);
    cuzk_poseidon_hash_textbook(&out, cuzk_poseidon_constants(2), &tag, in);
    return out;
}

static unsigned ilog2(uint64_t v)
{
    unsigned n = 0;
    while (v >>= 1)
        n++;
    return n;
}

/* The partition's challenges from the definition: bits b·j .. b·j + b − 1 (least significant first) of
 * digest d = H(comm_r_new, k·D + i / per) for challenge i, j = i mod per, b = log2 nodes − log2 partitions,
 * per = 254 / b, D = ceil(count / per); the partition index above them. */
static void oracle_challenges(uint64_t *out, const cuzk_snap_config_t *c, const fr *comm, uint32_t k)
{
    unsigned b = ilog2(c->nodes) - ilog2(c->partition_count), per = 254 / b;
    unsigned digests = (c->challenge_count + per - 1) / per;
    for (uint32_t i = 0; i < c->challenge_count; i++) {
        fr idx;
        fr_from_u64(&idx, (uint64_t)k * digests + i / per);
        fr d = oracle_hash2(comm, &idx);
        uint64_t limbs[4];
        fr_from_mont(limbs, &d);
        unsigned at = (i % per) * b;
        /* b <= 31 bits starting at `at`, possibly across two limbs */
        unsigned __int128 w = limbs[at / 64];
        if (at / 64 < 3)
            w |= (unsigned __int128)limbs[at / 64 + 1] << 64;
        out[i] = (uint64_t)(w >> (at % 64)) & ((1ull << b) - 1);
        out[i] |= (uint64_t)k << b;
    }
}

/* ---- tests ---- */

static void comm_r_new_of_seed(uint8_t out[32])
{
    cuzk_fc_xorshift_t rng;
    cuzk_fr_t x;
    cuzk_fc_xorshift_seed(&rng, CUZK_FC_TEST_SEED);
    cuzk_fc_xorshift_fr(&rng, &x);
    fr_to_bytes_le(out, &x);
    uint8_t be[32], want[32];
    fr_to_bytes_be(be, &x);
    CHECK(test_hex_decode("6c0740d6edb22eb13054f4587d6d2dcbc688f796c303c7044f60429c4bbe1c10", want, 32) == 32 &&
          memcmp(be, want, 32) == 0);
}

static void test_hardcoded(void)
{
    uint8_t comm[32];
    comm_r_new_of_seed(comm);
    int matched = 0;
    for (int v = 0; v < 24; v++) {
        cuzk_snap_config_t c;
        cuzk_err_t err = {{0}};
        CHECK(cuzk_snap_config_for_size(&c, VECTORS[v].nodes * 32, &err) == CUZK_OK);
        uint64_t got[86];
        CHECK_MSG(cuzk_snap_challenges(got, &c, comm, VECTORS[v].k, &err) == CUZK_OK, "%s", err.msg);
        bool ok = memcmp(got, VECTORS[v].c, sizeof VECTORS[v].c) == 0;
        CHECK_MSG(ok, "nodes %llu k %u: %llu %llu %llu %llu %llu", (unsigned long long)VECTORS[v].nodes, VECTORS[v].k,
                  (unsigned long long)got[0], (unsigned long long)got[1], (unsigned long long)got[2],
                  (unsigned long long)got[3], (unsigned long long)got[4]);
        matched += ok;
    }
    printf("challenges.rs hard-coded vectors: %d of 24 reproduced\n", matched);
}

/* Every partition of every allowed size, for a random comm_r_new: the oracle's list, in range. */
static void test_oracle_and_buckets(void)
{
    static const uint64_t sizes[11] = {1 * KIB, 2 * KIB,  4 * KIB,   8 * KIB,  16 * KIB, 32 * KIB,
                                       8 * MIB, 16 * MIB, 512 * MIB, 32 * GIB, 64 * GIB};
    for (int s = 0; s < 11; s++) {
        cuzk_snap_config_t c;
        CHECK(cuzk_snap_config_for_size(&c, sizes[s], NULL) == CUZK_OK);
        fr comm;
        test_rand_fr(&comm);
        uint8_t cb[32];
        fr_to_bytes_le(cb, &comm);
        uint64_t per_partition = c.nodes / c.partition_count;
        for (uint32_t k = 0; k < c.partition_count; k++) {
            uint64_t got[86], want[86];
            cuzk_err_t err = {{0}};
            CHECK(cuzk_snap_challenges(got, &c, cb, k, &err) == CUZK_OK);
            oracle_challenges(want, &c, &comm, k);
            CHECK_MSG(memcmp(got, want, sizeof(uint64_t) * c.challenge_count) == 0, "%llu bytes, partition %u",
                      (unsigned long long)sizes[s], k);
            bool in = true;
            for (uint32_t i = 0; i < c.challenge_count; i++)
                in &= got[i] >= k * per_partition && got[i] < (k + 1) * per_partition;
            CHECK_MSG(in, "%llu bytes, partition %u: a challenge outside the partition", (unsigned long long)sizes[s],
                      k);
        }
    }
}

static void test_phi_rho(void)
{
    static const struct {
        uint64_t bytes;
        unsigned shift; /* log2 nodes − h, by hand: 2KiB h 1, 8MiB / 32GiB h 10 */
    } cases[3] = {{2 * KIB, 5}, {8 * MIB, 8}, {32 * GIB, 20}};
    for (int rep = 0; rep < 4; rep++) {
        fr d, r, want;
        test_rand_fr(&d);
        test_rand_fr(&r);
        uint8_t db[32], rb[32], phi[32], wb[32];
        fr_to_bytes_le(db, &d);
        fr_to_bytes_le(rb, &r);
        cuzk_err_t err = {{0}};
        CHECK(cuzk_snap_phi(phi, db, rb, &err) == CUZK_OK);
        want = oracle_hash2(&d, &r);
        fr_to_bytes_le(wb, &want);
        CHECK_MSG(memcmp(phi, wb, 32) == 0, "phi differs from the textbook hash");
        fr phi_fr = want;
        for (int s = 0; s < 3; s++) {
            cuzk_snap_config_t c;
            CHECK(cuzk_snap_config_for_size(&c, cases[s].bytes, NULL) == CUZK_OK);
            for (int t = 0; t < 8; t++) {
                uint64_t node = test_rand_below(c.nodes);
                if (t == 0)
                    node = 0;
                if (t == 1)
                    node = c.nodes - 1;
                fr rho, high, o;
                cuzk_snap_rho(&rho, &c, &phi_fr, node);
                fr_from_u64(&high, node >> cases[s].shift);
                o = oracle_hash2(&phi_fr, &high);
                CHECK_MSG(fr_eq(&rho, &o), "rho of node %llu (%llu bytes)", (unsigned long long)node,
                          (unsigned long long)cases[s].bytes);
            }
            /* the whole table at once and inverted, against single values */
            size_t n = (size_t)1 << (c.h);
            fr *tab = malloc(sizeof(fr) * n), *inv = malloc(sizeof(fr) * n);
            CHECK(tab && inv && cuzk_fc_snap_rhos(tab, &phi_fr, 0, n, false, &err) == CUZK_OK &&
                  cuzk_fc_snap_rhos(inv, &phi_fr, 0, n, true, &err) == CUZK_OK);
            bool ok = true;
            for (size_t i = 0; tab && inv && i < n; i++) {
                fr one, single;
                cuzk_snap_rho(&single, &c, &phi_fr, (uint64_t)i << cases[s].shift);
                fr_mul(&one, &tab[i], &inv[i]);
                ok &= fr_eq(&single, &tab[i]) && fr_eq(&one, &FR_ONE);
            }
            CHECK_MSG(ok, "%llu bytes: the rho table differs from single rho values",
                      (unsigned long long)cases[s].bytes);
            /* an offset window of the table (2KiB's has two entries: the window is its second) */
            fr part[3];
            size_t w = n < 3 ? 1 : 3;
            CHECK(cuzk_fc_snap_rhos(part, &phi_fr, n - w, w, false, &err) == CUZK_OK && tab &&
                  fr_eq(&part[0], &tab[n - w]) && fr_eq(&part[w - 1], &tab[n - 1]));
            free(tab);
            free(inv);
        }
    }
}

static void test_refusals(void)
{
    cuzk_snap_config_t c;
    CHECK(cuzk_snap_config_for_size(&c, 8 * MIB, NULL) == CUZK_OK);
    uint8_t good[32], bad[32], phi[32];
    test_rand_fr_bytes(good);
    memset(bad, 0xff, 32);
    uint64_t out[86];
    cuzk_err_t err = {{0}};
    CHECK(cuzk_snap_challenges(out, &c, bad, 0, &err) == CUZK_ERR_NOT_CANONICAL && strstr(err.msg, "comm_r_new"));
    CHECK(cuzk_snap_challenges(out, &c, good, 4, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "partition 4"));
    cuzk_snap_config_t d = c;
    d.challenge_count = 86;
    CHECK(cuzk_snap_challenges(out, &d, good, 0, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "challenge_count"));
    memset(phi, 1, 32);
    CHECK(cuzk_snap_phi(phi, bad, good, &err) == CUZK_ERR_NOT_CANONICAL && strstr(err.msg, "comm_d_new"));
    CHECK(cuzk_snap_phi(phi, good, bad, &err) == CUZK_ERR_NOT_CANONICAL && strstr(err.msg, "comm_r_old"));
    static const uint8_t zero[32];
    CHECK(memcmp(phi, zero, 32) == 0); /* nothing left behind */
}

int main(void)
{
    test_init("test_snap_challenges");
    test_hardcoded();
    test_oracle_and_buckets();
    test_phi_rho();
    test_refusals();
    return test_finish();
}
