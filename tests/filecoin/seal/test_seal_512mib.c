/* Sealing a whole 512MiB sector (StackedDrg512MiBV1_1, zero data, miner 1000, sector 1, ticket 01…01,
 * seed 02…02), the size the pipeline's threads and lanes are built for, against independent oracles:
 * the published zero comm_d; labels of sampled nodes of both layers from the formula (libcrypto's one-shot
 * SHA-256, node-by-node scalar parents); column hashes and replica nodes of sampled groups and sampled
 * inner nodes of trees C and R with the textbook Poseidon (GMP for the encoding); then the C1 through its
 * JSON and the strict parser (every Merkle path re-hashed with the scalar Poseidon) and the challenge
 * check; comm_r and the C1 JSON's SHA-256 against what the scalar implementation of the previous release
 * produced (`cuzk seal --sector-size 512MiB --data /dev/null --ticket 01…01 --seed 02…02`, 16 minutes).
 * Minutes of CPU: skipped (exit 77) unless CUZK_TEST_SLOW=1. */
#include <gmp.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ff/fr.h"
#include "filecoin/vanilla/c1.h"
#include "filecoin/vanilla/c1_json.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/seal/seal.h"
#include "test_util.h"

/* Published: the zero-data comm_d of a 512MiB sector (go-commp-utils zerocomm.go; docs/REFERENCE.md §6). */
static const char *ZERO_COMM_D = "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06";
/* From the scalar implementation (tree hashing one Poseidon at a time, parents one node at a time). */
static const char *COMM_R = "98b98e34605627364e42db3b7e1d901c88475424814eef731f772e59eccb0430";
static const char *C1_SHA256 = "efc6660271e1eb2ff7f23acb4fa96faa2a81803d75510e1e10fb623600627f51";
static const char *R_HEX = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void sha(uint8_t out[32], const void *a, size_t n)
{
    unsigned len = 32;
    EVP_Digest(a, n, out, &len, EVP_sha256(), NULL);
}

static const uint8_t *label(const cuzk_fc_sealed_t *s, uint32_t layer, uint64_t v)
{
    return s->labels + ((uint64_t)(layer - 1) * s->nodes + v) * 32;
}

/* label(L, v) from the formula, its parents from the graph node by node. */
static void oracle_label(uint8_t out[32], const cuzk_fc_sealed_t *s, const cuzk_fc_graph_t *g, uint32_t layer,
                         uint64_t v)
{
    uint8_t buf[64 + 37 * 32] = {0};
    memcpy(buf, s->replica_id, 32);
    for (int i = 0; i < 4; i++)
        buf[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        buf[36 + i] = (uint8_t)(v >> (56 - 8 * i));
    size_t len = 64;
    if (v > 0) {
        uint32_t par[14];
        CHECK(cuzk_fc_graph_parents(g, v, par) == CUZK_OK);
        for (int j = 0; j < 37; j++) {
            int np = layer == 1 ? 6 : 14, q = j % np;
            memcpy(buf + 64 + 32 * j, label(s, q < 6 ? layer : layer - 1, par[q]), 32);
        }
        len += 37 * 32;
    }
    sha(out, buf, len);
    out[31] &= 0x3f;
}

static void textbook(uint8_t out[32], unsigned arity, const uint8_t *in)
{
    fr x[8], tag, h;
    for (unsigned i = 0; i < arity; i++)
        CHECK(fr_from_bytes_le(&x[i], in + 32 * i));
    cuzk_poseidon_tag_merkle(&tag, arity);
    cuzk_poseidon_hash_textbook(&h, cuzk_poseidon_constants(arity), &tag, x);
    fr_to_bytes_le(out, &h);
}

static void le_to_mpz(mpz_t z, const uint8_t b[32]) { mpz_import(z, 32, -1, 1, 0, 0, b); }

/* column hash (tree C's leaf) and replica node (tree R's leaf) of node v by the oracles */
static void oracle_leaves(uint8_t col[32], uint8_t rep[32], const cuzk_fc_sealed_t *s, uint64_t v, mpz_t r)
{
    uint8_t two[64];
    memcpy(two, label(s, 1, v), 32);
    memcpy(two + 32, label(s, 2, v), 32);
    textbook(col, 2, two);
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    le_to_mpz(a, s->data + v * 32);
    le_to_mpz(b, label(s, 2, v));
    mpz_add(a, a, b);
    mpz_mod(a, a, r);
    memset(rep, 0, 32);
    mpz_export(rep, NULL, -1, 1, 0, 0, a);
    mpz_clears(a, b, NULL);
}

/* Sampled nodes of both layers; for sampled groups of eight the column hashes and replica nodes hashed
 * into their level-1 nodes of trees C and R; sampled inner nodes above against their children. (The
 * stored trees start at level 1.) */
static void check_samples(const cuzk_fc_sealed_t *s, const cuzk_fc_graph_t *g)
{
    const uint64_t n = s->nodes;
    uint64_t v[24] = {0, 1, 2, 4095, 4096, n - 1};
    for (int i = 6; i < 24; i++)
        v[i] = test_rand_below(n);
    int bad_label = 0, bad_c = 0, bad_r = 0;
    mpz_t r;
    mpz_init_set_str(r, R_HEX, 16);
    for (int i = 0; i < 24; i++) {
        uint8_t want[32], cols[8][32], reps[8][32];
        for (uint32_t l = 1; l <= 2; l++) {
            oracle_label(want, s, g, l, v[i]);
            bad_label += memcmp(want, label(s, l, v[i]), 32) != 0;
        }
        uint64_t grp = v[i] / 8;
        for (int k = 0; k < 8; k++)
            oracle_leaves(cols[k], reps[k], s, 8 * grp + (uint64_t)k, r);
        textbook(want, 8, cols[0]);
        bad_c += memcmp(want, s->tree_c + grp * 32, 32) != 0;
        textbook(want, 8, reps[0]);
        bad_r += memcmp(want, s->tree_r + grp * 32, 32) != 0;
    }
    mpz_clear(r);
    CHECK_MSG(bad_label == 0, "%d sampled labels differ from the formula", bad_label);
    CHECK_MSG(bad_c == 0, "%d sampled tree C level-1 nodes differ from the textbook column hashes", bad_c);
    CHECK_MSG(bad_r == 0, "%d sampled tree R level-1 nodes differ from the replica", bad_r);
    int bad_tree = 0, checked = 0;
    for (int t = 0; t < 2; t++) {
        const uint8_t *tree = t ? s->tree_r : s->tree_c;
        uint64_t off = 0, w = n / 8;
        while (w > 1) {
            for (int k = 0; k < 6; k++) {
                uint64_t p = k == 0 ? 0 : k == 1 ? w / 8 - 1 : test_rand_below(w / 8);
                uint8_t want[32];
                textbook(want, 8, tree + (off + 8 * p) * 32);
                bad_tree += memcmp(want, tree + (off + w + p) * 32, 32) != 0;
                checked++;
            }
            off += w;
            w /= 8;
        }
    }
    CHECK_MSG(bad_tree == 0, "%d of %d sampled inner tree nodes differ from the textbook Poseidon", bad_tree,
              checked);
}

static void hex32(char out[65], const uint8_t b[32])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

int main(void)
{
    const char *slow = getenv("CUZK_TEST_SLOW");
    if (!slow || strcmp(slow, "1") != 0) {
        printf("test_seal_512mib: skipped (set CUZK_TEST_SLOW=1)\n");
        return 77;
    }
    test_init("test_seal_512mib");
    const cuzk_fc_seal_proof_t *p;
    cuzk_fc_graph_t g;
    CHECK(cuzk_fc_seal_proof_parse(&p, "StackedDrg512MiBV1_1", NULL) == CUZK_OK);
    CHECK(cuzk_fc_graph_init_proof(&g, p, NULL) == CUZK_OK);
    uint8_t prover[32], ticket[32], seed[32], want[32];
    cuzk_fc_prover_id_from_miner(prover, 1000);
    memset(ticket, 1, 32);
    memset(seed, 2, 32);
    cuzk_fc_sealed_t s;
    cuzk_err_t err = {{0}};
    double t0 = now();
    CHECK_MSG(cuzk_fc_seal_precommit(&s, p, prover, 1, ticket, NULL, 0, &err) == CUZK_OK, "%s", err.msg);
    double t1 = now();
    if (!s.data)
        return test_finish();
    printf("512MiB precommit: %.1f s\n", t1 - t0);
    test_hex_decode(ZERO_COMM_D, want, 32);
    CHECK_MSG(memcmp(s.comm_d, want, 32) == 0, "zero 512MiB comm_d (published)");
    check_samples(&s, &g);
    char hex[65];
    hex32(hex, s.comm_r);
    CHECK_MSG(strcmp(hex, COMM_R) == 0, "comm_r %s, the scalar implementation's %s", hex, COMM_R);

    cuzk_fc_c1_t c1, back;
    CHECK_MSG(cuzk_fc_seal_commit1(&c1, &s, seed, &err) == CUZK_OK, "%s", err.msg);
    char *json = NULL;
    size_t jl = 0;
    CHECK(cuzk_fc_c1_json_write(&json, &jl, &c1, &err) == CUZK_OK);
    uint8_t digest[32];
    sha(digest, json, jl);
    hex32(hex, digest);
    CHECK_MSG(strcmp(hex, C1_SHA256) == 0, "c1.json sha256 %s, the scalar implementation's %s", hex, C1_SHA256);
    /* what `cuzk porep prove` does with a C1 file: strict parse, Merkle checks, the challenges */
    CHECK_MSG(cuzk_fc_c1_json_parse(&back, json, jl, 0, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(cuzk_fc_c1_check_challenges(&back, &err) == CUZK_OK, "%s", err.msg);
    CHECK(cuzk_fc_c1_compare(&c1, &back) == 0);
    printf("512MiB checks after sealing: %.1f s\n", now() - t1);
    free(json);
    cuzk_fc_c1_free(&back);
    cuzk_fc_c1_free(&c1);
    cuzk_fc_sealed_free(&s);
    return test_finish();
}
