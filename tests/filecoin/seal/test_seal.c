/* Sealing a 2KiB sector against slow, independent oracles: the published zero comm_d, replica_id, labels and
 * challenges recomputed with libcrypto's one-shot SHA-256 and parents from the checked-in 2KiB parent table,
 * tree C / tree R roots with the textbook Poseidon and GMP for the encoding; then the vanilla proofs must
 * verify and a damaged one must not. CUZK_SEAL_8MIB=1 also seals an 8MiB sector (slow label). */
#include <gmp.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ff/fr.h"
#include "filecoin/vanilla/c1.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/seal/seal.h"
#include "test_util.h"

static const char *R_HEX = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

static void sha(uint8_t out[32], const void *a, size_t n)
{
    unsigned len = 32;
    EVP_Digest(a, n, out, &len, EVP_sha256(), NULL);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The 2KiB porep_id 5 parent table (node: 6 DRG | 8 expander), independent of graph.c. */
static int load_parents(uint32_t par[64][14])
{
    size_t len;
    char *t = test_read_file("tests/vectors/filecoin/parents-2KiB-porepid5-v1_1.txt", &len);
    if (!t)
        return 0;
    int rows = 0;
    for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        unsigned v[15];
        if (sscanf(line, "%u : %u %u %u %u %u %u | %u %u %u %u %u %u %u %u", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                   &v[6], &v[7], &v[8], &v[9], &v[10], &v[11], &v[12], &v[13], &v[14]) == 15 && v[0] < 64) {
            for (int i = 0; i < 14; i++)
                par[v[0]][i] = v[1 + i];
            rows++;
        }
    }
    free(t);
    return rows == 64;
}

/* label(L, v) straight from the formula: one buffer, one digest. */
static void oracle_label(uint8_t out[32], const cuzk_fc_sealed_t *s, uint32_t layer, uint32_t v, uint32_t par[64][14])
{
    uint8_t buf[64 + 37 * 32] = {0};
    memcpy(buf, s->replica_id, 32);
    buf[35] = (uint8_t)layer;
    buf[43] = (uint8_t)v;
    size_t len = 64;
    if (v > 0) {
        for (int j = 0; j < 37; j++) {
            int np = layer == 1 ? 6 : 14, q = j % np;
            uint32_t lay = q < 6 ? layer : layer - 1;
            memcpy(buf + 64 + 32 * j, s->labels + ((lay - 1) * 64ull + par[v][q]) * 32, 32);
        }
        len += 37 * 32;
    }
    sha(out, buf, len);
    out[31] &= 0x3f;
}

static void textbook(uint8_t out[32], unsigned arity, const uint8_t *in)
{
    fr x[16], tag, h;
    for (unsigned i = 0; i < arity; i++)
        CHECK(fr_from_bytes_le(&x[i], in + 32 * i));
    cuzk_poseidon_tag_merkle(&tag, arity);
    cuzk_poseidon_hash_textbook(&h, cuzk_poseidon_constants(arity), &tag, x);
    fr_to_bytes_le(out, &h);
}

/* Root of a 64-leaf octree with the textbook permutation. */
static void octree_root(uint8_t out[32], const uint8_t leaves[64][32])
{
    uint8_t mid[8][32];
    for (int i = 0; i < 8; i++)
        textbook(mid[i], 8, leaves[8 * i]);
    textbook(out, 8, mid[0]);
}

static void le_to_mpz(mpz_t z, const uint8_t b[32]) { mpz_import(z, 32, -1, 1, 0, 0, b); }

static void test_2kib(int zero)
{
    const cuzk_fc_seal_proof_t *p;
    CHECK(cuzk_fc_seal_proof_parse(&p, "StackedDrg2KiBV1_1", NULL) == CUZK_OK);
    uint8_t raw[2032], prover[32], ticket[32], seed[32];
    test_rand_bytes(raw, sizeof raw);
    test_rand_bytes(ticket, 32);
    test_rand_bytes(seed, 32);
    cuzk_fc_prover_id_from_miner(prover, 1000);
    uint64_t sector = test_rand64() % 100000;
    cuzk_fc_sealed_t s;
    cuzk_err_t err;
    CHECK_MSG(cuzk_fc_seal_precommit(&s, p, prover, sector, ticket, zero ? NULL : raw, 2, &err) == CUZK_OK, "%s", err.msg);
    if (!s.data)
        return;
    if (zero) {
        uint8_t want[32];
        test_hex_decode("fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833", want, 32);
        CHECK_MSG(memcmp(s.comm_d, want, 32) == 0, "zero 2KiB comm_d (published)");
    } else {
        /* Fr32: node i's bits are raw bits 254·i .. 254·i + 253, LSB first. */
        for (int i = 0; i < 64; i++)
            for (int bit = 0; bit < 256; bit++) {
                int got = s.data[32 * i + bit / 8] >> (bit % 8) & 1;
                int want = 0;
                if (bit < 254) {
                    int rb = 254 * i + bit;
                    want = raw[rb / 8] >> (rb % 8) & 1;
                }
                if (got != want) {
                    CHECK_MSG(0, "Fr32 node %d bit %d", i, bit);
                    i = 64;
                    break;
                }
            }
    }
    /* tree D root by plain recursion over the data. */
    uint8_t lvl[64][32];
    memcpy(lvl, s.data, sizeof lvl);
    for (int w = 64; w > 1; w /= 2)
        for (int j = 0; j < w / 2; j++) {
            sha(lvl[j], lvl[2 * j], 64);
            lvl[j][31] &= 0x3f;
        }
    CHECK(memcmp(lvl[0], s.comm_d, 32) == 0);

    /* replica_id = trim(sha256(prover_id ‖ u64_be(sector) ‖ ticket ‖ comm_d ‖ porep_id)). */
    uint8_t rb[136] = {0}, rid[32];
    memcpy(rb, prover, 32);
    for (int i = 0; i < 8; i++)
        rb[32 + i] = (uint8_t)(sector >> (56 - 8 * i));
    memcpy(rb + 40, ticket, 32);
    memcpy(rb + 72, s.comm_d, 32);
    rb[104] = 5;
    sha(rid, rb, sizeof rb);
    rid[31] &= 0x3f;
    CHECK(memcmp(rid, s.replica_id, 32) == 0);

    uint32_t par[64][14];
    CHECK(load_parents(par));
    uint8_t lab[32];
    int bad = 0;
    for (uint32_t layer = 1; layer <= 2; layer++)
        for (uint32_t v = 0; v < 64; v++) {
            oracle_label(lab, &s, layer, v, par);
            bad += memcmp(lab, s.labels + ((layer - 1) * 64ull + v) * 32, 32) != 0;
        }
    CHECK_MSG(bad == 0, "%d labels differ from the formula", bad);

    /* tree C: textbook Poseidon2 of (layer 1, layer 2) per node, then the octree. */
    uint8_t cols[64][32], repl[64][32], root[32], two[64];
    for (int v = 0; v < 64; v++) {
        memcpy(two, s.labels + v * 32, 32);
        memcpy(two + 32, s.labels + (64 + v) * 32, 32);
        textbook(cols[v], 2, two);
    }
    octree_root(root, (const uint8_t(*)[32])cols);
    CHECK(memcmp(root, s.comm_c, 32) == 0);
    /* tree R over data + key mod r (GMP). */
    mpz_t r, a, b;
    mpz_inits(r, a, b, NULL);
    mpz_set_str(r, R_HEX, 16);
    for (int v = 0; v < 64; v++) {
        le_to_mpz(a, s.data + 32 * v);
        le_to_mpz(b, s.labels + (64 + v) * 32);
        mpz_add(a, a, b);
        mpz_mod(a, a, r);
        memset(repl[v], 0, 32);
        mpz_export(repl[v], NULL, -1, 1, 0, 0, a);
    }
    octree_root(root, (const uint8_t(*)[32])repl);
    CHECK(memcmp(root, s.comm_r_last, 32) == 0);
    memcpy(two, s.comm_c, 32);
    memcpy(two + 32, s.comm_r_last, 32);
    textbook(root, 2, two);
    CHECK(memcmp(root, s.comm_r, 32) == 0);

    /* Commit 1: challenges (LE(sha256(replica_id ‖ seed ‖ u32_le(i))) mod 63) + 1, and proofs that verify. */
    cuzk_fc_c1_t c1;
    CHECK_MSG(cuzk_fc_seal_commit1(&c1, &s, seed, &err) == CUZK_OK, "%s", err.msg);
    for (uint32_t i = 0; i < 2; i++) {
        uint8_t cb[68], d[32];
        memcpy(cb, s.replica_id, 32);
        memcpy(cb + 32, seed, 32);
        cb[64] = (uint8_t)i;
        cb[65] = cb[66] = cb[67] = 0;
        sha(d, cb, 68);
        le_to_mpz(a, d);
        unsigned long want = mpz_fdiv_ui(a, 63) + 1;
        CHECK_MSG(cuzk_fc_c1_vproof(&c1, 0, i)->labeling[0].node == want, "challenge %u", i);
        CHECK(memcmp(cuzk_fc_c1_vproof(&c1, 0, i)->comm_r_last.leaf, repl[want], 32) == 0);
        CHECK(memcmp(cuzk_fc_c1_vproof(&c1, 0, i)->c_x.path.leaf, cols[want], 32) == 0);
    }
    mpz_clears(r, a, b, NULL);
    CHECK_MSG(cuzk_fc_c1_verify(&c1, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(cuzk_fc_c1_check_challenges(&c1, &err) == CUZK_OK, "%s", err.msg);

    /* Damage: each must be caught, with the field named. */
    cuzk_fc_c1_vproof_t *v = cuzk_fc_c1_vproof(&c1, 0, 1);
    ((uint8_t *)v->comm_r_last.siblings)[5] ^= 1;
    CHECK(cuzk_fc_c1_verify(&c1, &err) != CUZK_OK && strstr(err.msg, "comm_r_last_proof") && strstr(err.msg, "challenge 1"));
    ((uint8_t *)v->comm_r_last.siblings)[5] ^= 1;
    v->labeling[1].parents[20][0] ^= 1;
    CHECK(cuzk_fc_c1_verify(&c1, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "labeling_proofs[1]"));
    v->labeling[1].parents[20][0] ^= 1;
    v->exp[3].rows[0][1] ^= 1;
    CHECK(cuzk_fc_c1_verify(&c1, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "exp_parents[3]"));
    v->exp[3].rows[0][1] ^= 1;
    v->encoding.parents[0][0] ^= 1;
    CHECK(cuzk_fc_c1_verify(&c1, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "encoding_proof"));
    v->encoding.parents[0][0] ^= 1;
    c1.comm_r[0] ^= 1;
    CHECK(cuzk_fc_c1_verify(&c1, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "comm_r"));
    c1.comm_r[0] ^= 1;
    c1.seed[0] ^= 1;
    CHECK(cuzk_fc_c1_check_challenges(&c1, &err) == CUZK_ERR_MISMATCH);
    c1.seed[0] ^= 1;
    CHECK(cuzk_fc_c1_verify(&c1, &err) == CUZK_OK);
    cuzk_fc_c1_free(&c1);
    cuzk_fc_sealed_free(&s);
}

static void test_prover_id(void)
{
    uint8_t id[32], want[32] = {0xe8, 0x07};
    cuzk_fc_prover_id_from_miner(id, 1000);
    CHECK(memcmp(id, want, 32) == 0);
    cuzk_fc_prover_id_from_miner(id, 0);
    CHECK(id[0] == 0 && id[1] == 0);
    cuzk_fc_prover_id_from_miner(id, 127);
    CHECK(id[0] == 127 && id[1] == 0);
    cuzk_fc_prover_id_from_miner(id, UINT64_MAX);
    CHECK(id[8] == 0xff && id[9] == 0x01 && id[10] == 0);
}

static void test_8mib(void)
{
    const char *e = getenv("CUZK_SEAL_8MIB");
    if (!e || strcmp(e, "1") != 0)
        return;
    const cuzk_fc_seal_proof_t *p;
    CHECK(cuzk_fc_seal_proof_parse(&p, "StackedDrg8MiBV1_1", NULL) == CUZK_OK);
    uint8_t prover[32] = {0}, ticket[32] = {1}, seed[32] = {2};
    cuzk_fc_sealed_t s;
    cuzk_err_t err;
    double t0 = now();
    CHECK_MSG(cuzk_fc_seal_precommit(&s, p, prover, 1, ticket, NULL, 0, &err) == CUZK_OK, "%s", err.msg);
    double t1 = now();
    uint8_t want[32];
    test_hex_decode("65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c", want, 32);
    CHECK(memcmp(s.comm_d, want, 32) == 0);
    cuzk_fc_c1_t c1;
    CHECK(cuzk_fc_seal_commit1(&c1, &s, seed, &err) == CUZK_OK);
    CHECK_MSG(cuzk_fc_c1_verify(&c1, &err) == CUZK_OK, "%s", err.msg);
    printf("8MiB precommit %.2f s, commit1 + verify %.3f s\n", t1 - t0, now() - t1);
    cuzk_fc_c1_free(&c1);
    cuzk_fc_sealed_free(&s);
}

int main(void)
{
    test_init("test_seal");
    test_prover_id();
    double t0 = now();
    test_2kib(1);
    test_2kib(0);
    printf("2KiB seal + checks (x2): %.3f s\n", now() - t0);
    test_8mib();
    return test_finish();
}
