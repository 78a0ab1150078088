/* The SnapDeals circuit's gadgets and shapes (storage-proofs-update src/gadgets.rs, tests/circuit.rs;
 * docs/REFERENCE.md):
 *  - gen_challenge_bits costs 568 (1KiB..16MiB), 4,544 (512MiB), 5,680 (32GiB, 64GiB) constraints for every
 *    partition of every allowed size (test_gen_challenge_bits_gadget), and the challenges its bits spell
 *    (random bits, then the partition's) are challenges.rs' — the 24 vectors of
 *    test_challenges_against_hardcoded (comm_r_new the first Fr::random of TEST_SEED) and
 *    cuzk_snap_challenges for every challenge of every partition; the gadget is satisfied;
 *  - apex_por costs 317,654 (8 apex leaves, 1KiB..8KiB), 5,808,515 (128 leaves, 16KiB / 32KiB), 771,448
 *    (16KiB as 4 partitions of 16) and 453,797 (8 of 8) on real tree-D rows (test_apex_por_gadget_*), is
 *    satisfied there and not with an apex leaf changed;
 *  - tests/circuit.rs' six shapes (H_SELECT = 1 << 2): 1,248,389 / 1,705,039 / 2,165,109 / 2,620,359 /
 *    6,300,021 / 6,760,091 constraints with 5 inputs (ONE included); production 2KiB 1,705,039 and 8MiB
 *    10,007,503 (512MiB, 32GiB 81,049,499 and 64GiB 85,006,101 in test_snap_circuit_slow); each count also
 *    against the closed-form cost model written here from the published gadget counts;
 *  - por_no_challenge_input refuses a bit count other than its path's and a shape it does not take. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/snap.h"
#include "ff/fr.h"
#include "filecoin/hash/sha256_tree.h"
#include "filecoin/snap/snap_gadgets.h"
#include "gadgets/boolean.h"
#include "gadgets/num.h"
#include "gadgets/por_no_challenge.h"
#include "cs/cs_test_backends.h"
#include "snap_fixture.h"
#include "test_util.h"
#include "testkit/xorshift.h"

/* ---- helpers ---------------------------------------------------------------------------------------- */

static unsigned log2u64(uint64_t x) { return (unsigned)__builtin_ctzll(x); }

/* ---- the closed-form cost model ------------------------------------------------------------------------
 * From published gadget counts (docs/REFERENCE.md): Poseidon 311 (arity 2) / 377 (4) / 505 (8) (neptune
 * test_poseidon_hash), insert 2 / 8 / 22, one SHA-256 tree level 45,379 with its two to_bits_le (so 45,381
 * with the binary insert), to_bits_le and allocated bits 256, pack 1, equality 1. */
static size_t model(const cuzk_snap_config_t *cfg)
{
    size_t pbits = log2u64(cfg->partition_count), abits = log2u64(cfg->apex_leaf_count);
    size_t cbits = log2u64(cfg->nodes), apex = cfg->apex_leaf_count, ch = cfg->challenge_count;
    /* k_and_h_select (inputize 1, pbits + 6 bits, decomposition 1), partition pack 1, three inputized
     * commitments 3, phi 311, comm_r_old / comm_r_new: Poseidon 311 + equality 1 each */
    size_t head = 1 + (pbits + 6) + 1 + 1 + 3 + 311 + 2 * (311 + 1);
    /* the apex tree, its path up to comm_d_new, the root equality */
    size_t apex_por = (apex - 1) * 45379 + pbits * 45381 + 1;
    /* per digest: digest index 1, Poseidon 311, 255 bits + decomposition */
    size_t per_digest = (254 / (cbits - pbits));
    size_t digests = (ch + per_digest - 1) / per_digest;
    size_t gen = digests * (1 + 311 + 256);
    /* per challenge: high bits 6·(pack + product) + sum, rho 311, label 2, two tree-R paths (each level
     * insert + Poseidon) with their root equalities, apex select apex − 1, the SHA-256 path and equality */
    size_t tree = 0;
    uint64_t per_tree = (uint64_t)(cfg->sub_arity ? cfg->sub_arity : 1) * (cfg->top_arity ? cfg->top_arity : 1);
    for (uint64_t b = cfg->nodes / per_tree; b > 1; b /= cfg->base_arity)
        tree += 527;
    if (cfg->sub_arity)
        tree += cfg->sub_arity == 8 ? 527 : cfg->sub_arity == 4 ? 385 : 313;
    if (cfg->top_arity)
        tree += cfg->top_arity == 8 ? 527 : cfg->top_arity == 4 ? 385 : 313;
    size_t n_sha = cbits - pbits - abits;
    size_t per_challenge = (6 * 2 + 1) + 311 + 2 + 2 * (tree + 1) + (apex - 1) + n_sha * 45381 + 1;
    return head + apex_por + gen + ch * per_challenge;
}

/* ---- gen_challenge_bits ------------------------------------------------------------------------------ */

/* challenges.rs test_challenges_against_hardcoded: (sector nodes, k) → the first five challenges. */
static const struct {
    uint64_t nodes;
    uint32_t k;
    uint32_t c[5];
} HARDCODED[24] = {
    {1u << 5, 0, {21, 7, 3, 31, 0}},
    {1u << 6, 0, {53, 51, 56, 3, 0}},
    {1u << 7, 0, {117, 25, 62, 0, 72}},
    {1u << 8, 0, {245, 140, 15, 128, 28}},
    {1u << 9, 0, {245, 140, 15, 128, 28}},
    {1u << 9, 1, {286, 308, 493, 510, 508}},
    {1u << 10, 0, {245, 454, 3, 400, 193}},
    {1u << 10, 1, {542, 666, 955, 927, 911}},
    {1u << 18, 0, {36085, 32783, 44060, 10950, 3731}},
    {1u << 18, 1, {78878, 130797, 112892, 93994, 78379}},
    {1u << 19, 0, {101621, 16391, 109319, 25944, 41193}},
    {1u << 19, 1, {209950, 163702, 175679, 224741, 197410}},
    {1u << 24, 0, {1019125, 116736, 706220, 59698, 799498}},
    {1u << 24, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
    {1u << 24, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
    {1u << 24, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
    {1u << 30, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
    {1u << 30, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
    {1u << 30, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
    {1u << 30, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
    {1ull << 31, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
    {1ull << 31, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
    {1ull << 31, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
    {1ull << 31, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
};

static const uint64_t ALLOWED_NODES[11] = {1u << 5,  1u << 6,  1u << 7,  1u << 8,  1u << 9,   1u << 10,
                                           1u << 18, 1u << 19, 1u << 24, 1u << 30, 1ull << 31};

/* gen_challenge_bits for partition k on the check backend, as the reference's test sets it up (comm_r_new
 * and k allocated, k's bits allocated and decomposed first): the gadget's constraint count; out[c] the
 * challenges its bits spell with the partition bits above them; satisfied. */
static size_t gen_bits(const cuzk_snap_config_t *cfg, const fr *comm_r_new, uint32_t k, uint64_t *out)
{
    unsigned cbits = log2u64(cfg->nodes), pbits = log2u64(cfg->partition_count), rbits = cbits - pbits;
    cuzk_cs_t *cs = cs_test_new(CUZK_CS_CHECK);
    fr fk;
    fr_from_u64(&fk, k);
    cuzk_num_t crn = cuzk_num_alloc(cs, comm_r_new), part = cuzk_num_alloc(cs, &fk);
    cuzk_bit_t kbits[255];
    cuzk_snap_num_to_bits(cs, &part, kbits);
    size_t before = cs_test_num_constraints(cs);
    cuzk_bit_t *bits = malloc((size_t)cfg->challenge_count * rbits * sizeof *bits);
    cuzk_snap_gen_challenge_bits(cs, &crn, &part, cfg->challenge_count, rbits, bits);
    size_t n = cs_test_num_constraints(cs) - before;
    CHECK(cuzk_cs_status(cs, NULL) == CUZK_OK && cs_test_unsatisfied(cs) == -1);
    for (uint32_t c = 0; c < cfg->challenge_count; c++) {
        uint64_t v = 0;
        for (unsigned i = 0; i < cbits; i++) {
            cuzk_bit_t b = i < rbits ? bits[(size_t)c * rbits + i] : kbits[i - rbits];
            CHECK(b.has_value);
            v |= (uint64_t)b.value << i;
        }
        out[c] = v;
    }
    free(bits);
    cuzk_cs_free(cs);
    return n;
}

static void gen_challenge_bits(void)
{
    /* gadgets.rs test_gen_challenge_bits_gadget: a new comm_r_new from the XorShift stream per size */
    static const size_t want[11] = {568, 568, 568, 568, 568, 568, 568, 568, 4544, 5680, 5680};
    cuzk_fc_xorshift_t rng;
    cuzk_fc_xorshift_seed(&rng, CUZK_FC_TEST_SEED);
    uint64_t got[86], lib[86];
    for (int s = 0; s < 11; s++) {
        cuzk_snap_config_t cfg = snap_fixture_config(ALLOWED_NODES[s] * 32, 3);
        fr crn;
        cuzk_fc_xorshift_fr(&rng, &crn);
        uint8_t crn_b[32];
        fr_to_bytes_le(crn_b, &crn);
        for (uint32_t k = 0; k < cfg.partition_count; k++) {
            size_t n = gen_bits(&cfg, &crn, k, got);
            CHECK_MSG(n == want[s], "%llu nodes, k %u: %zu constraints", (unsigned long long)cfg.nodes, k, n);
            cuzk_err_t err = {{0}};
            CHECK_MSG(cuzk_snap_challenges(lib, &cfg, crn_b, k, &err) == CUZK_OK, "%s", err.msg);
            CHECK_MSG(memcmp(got, lib, cfg.challenge_count * sizeof *got) == 0,
                      "%llu nodes, k %u: the circuit's challenges are not challenges.rs'", (unsigned long long)cfg.nodes,
                      k);
        }
    }
    /* the hard-coded vectors: comm_r_new is the stream's first value */
    cuzk_fc_xorshift_seed(&rng, CUZK_FC_TEST_SEED);
    fr crn;
    cuzk_fc_xorshift_fr(&rng, &crn);
    for (int v = 0; v < 24; v++) {
        cuzk_snap_config_t cfg = snap_fixture_config(HARDCODED[v].nodes * 32, 3);
        gen_bits(&cfg, &crn, HARDCODED[v].k, got);
        for (int i = 0; i < 5; i++)
            CHECK_MSG(got[i] == HARDCODED[v].c[i], "%llu nodes, k %u, challenge %d: %llu, expected %u",
                      (unsigned long long)HARDCODED[v].nodes, HARDCODED[v].k, i, (unsigned long long)got[i],
                      HARDCODED[v].c[i]);
    }
}

/* ---- apex_por ------------------------------------------------------------------------------------------ */

/* gadgets.rs test_apex_por_gadget: tree D over `nodes` random leaves; per partition its apex leaves, bits and
 * path allocated, then apex_por's count (count backend) — and, with satisfy, the same on the check backend
 * for every partition: satisfied, and for the last one unsatisfied with one apex leaf changed. */
static void apex_por_case(uint64_t nodes, uint32_t partitions, uint32_t apex, size_t want, bool satisfy)
{
    /* a tree D of random leaves */
    unsigned height = log2u64(nodes), pbits = log2u64(partitions), abits = log2u64(apex);
    fr *lv[33];
    lv[0] = malloc(nodes * sizeof(fr));
    for (uint64_t i = 0; i < nodes; i++)
        test_rand_fr(&lv[0][i]);
    for (unsigned l = 0; l < height; l++) {
        lv[l + 1] = malloc((nodes >> (l + 1)) * sizeof(fr));
        for (uint64_t j = 0; j < nodes >> (l + 1); j++) {
            uint8_t a[32], b[32], h[32];
            fr_to_bytes_le(a, &lv[l][2 * j]);
            fr_to_bytes_le(b, &lv[l][2 * j + 1]);
            cuzk_fc_sha256_node(h, a, b);
            fr_from_bytes_le(&lv[l + 1][j], h);
        }
    }
    unsigned roots_row = height - pbits, leaves_row = roots_row - abits;
    /* the count does not see k: with satisfy every partition also on the check backend, else partition 0 */
    for (uint32_t k = 0; k < (satisfy ? partitions : 1); k++) {
        int runs = satisfy ? (k == partitions - 1 ? 3 : 2) : 1;
        for (int run = 0; run < runs; run++) {
            cuzk_cs_t *cs = cs_test_new(run ? CUZK_CS_CHECK : CUZK_CS_COUNT);
            bool vals = run > 0;
            cuzk_num_t comm_d = cuzk_num_alloc(cs, vals ? &lv[height][0] : NULL);
            cuzk_bit_t pb[8];
            for (unsigned i = 0; i < pbits; i++)
                pb[i] = cuzk_bit_alloc(cs, vals ? (int)((k >> i) & 1) : CUZK_BIT_UNKNOWN);
            cuzk_num_t *leaves = malloc(apex * sizeof *leaves), path[8];
            for (uint32_t i = 0; i < apex; i++) {
                fr v = lv[leaves_row][(uint64_t)k * apex + i];
                if (run == 2 && i == apex / 2)
                    fr_add(&v, &v, &FR_ONE);
                leaves[i] = cuzk_num_alloc(cs, vals ? &v : NULL);
            }
            for (unsigned i = 0; i < pbits; i++)
                path[i] = cuzk_num_alloc(cs, vals ? &lv[roots_row + i][(k >> i) ^ 1] : NULL);
            size_t before = cs_test_num_constraints(cs);
            cuzk_snap_apex_por(cs, leaves, apex, pb, pbits, path, &comm_d);
            size_t n = cs_test_num_constraints(cs) - before;
            CHECK_MSG(cuzk_cs_status(cs, NULL) == CUZK_OK && n == want, "apex_por %llu nodes, %u x %u, k %u: %zu",
                      (unsigned long long)nodes, partitions, apex, k, n);
            if (run == 1)
                CHECK_MSG(cs_test_unsatisfied(cs) == -1, "apex_por %u x %u, k %u: not satisfied", partitions, apex, k);
            if (run == 2)
                CHECK_MSG(cs_test_unsatisfied(cs) >= 0, "apex_por %u x %u: a changed apex leaf satisfies", partitions, apex);
            free(leaves);
            cuzk_cs_free(cs);
        }
    }
    for (unsigned l = 0; l <= height; l++)
        free(lv[l]);
}

static void apex_por(void)
{
    /* test_apex_por_gadget_small_sector_sizes */
    for (unsigned s = 5; s <= 8; s++)
        apex_por_case(1u << s, 1, 8, 317654, true);
    apex_por_case(1u << 9, 2, 128, 5808515, false);
    apex_por_case(1u << 10, 2, 128, 5808515, false);
    /* test_apex_por_gadget_16kib_4_8_partitions */
    apex_por_case(1u << 9, 4, 16, 771448, true);
    apex_por_case(1u << 9, 8, 8, 453797, true);
}

/* ---- counts -------------------------------------------------------------------------------------------- */

static void counts(void)
{
    /* tests/circuit.rs, H_SELECT = 1 << 2: h = hs[2] */
    static const struct {
        uint64_t size;
        uint32_t base, sub, top;
        size_t constraints;
    } shapes[6] = {
        {1024, 8, 4, 0, 1248389},  {2048, 8, 0, 0, 1705039},  {4096, 8, 2, 0, 2165109},
        {8192, 8, 4, 0, 2620359},  {16384, 8, 8, 0, 6300021}, {32768, 8, 8, 2, 6760091},
    };
    for (int i = 0; i < 6; i++) {
        cuzk_snap_config_t cfg = snap_fixture_config(shapes[i].size, 2);
        CHECK(cfg.base_arity == shapes[i].base && cfg.sub_arity == shapes[i].sub && cfg.top_arity == shapes[i].top);
        CHECK_MSG(model(&cfg) == shapes[i].constraints, "model %zu for %llu bytes", model(&cfg),
                  (unsigned long long)shapes[i].size);
        cuzk_circuit_info_t info;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_snap_circuit_info(&info, &cfg, false, &err) == CUZK_OK, "%s", err.msg);
        CHECK_MSG(info.num_constraints == shapes[i].constraints && info.num_inputs == CUZK_SNAP_NUM_INPUTS,
                  "%llu bytes: %zu constraints, %zu inputs", (unsigned long long)shapes[i].size, info.num_constraints,
                  info.num_inputs);
        CHECK(!info.has_hash && info.b_input_density == 1);
    }
    /* production: the registered proofs; the model for each (published 2KiB 1,705,039 and 32GiB 81,049,499,
     * derived 8MiB, 512MiB, 64GiB) */
    static const size_t prod[5] = {1705039, 10007503, 57450479, 81049499, 85006101};
    for (uint32_t id = 0; id < 5; id++) {
        cuzk_snap_config_t cfg;
        CHECK(cuzk_snap_config_for_proof(&cfg, id, NULL) == CUZK_OK);
        CHECK_MSG(model(&cfg) == prod[id], "proof %u: model %zu", id, model(&cfg));
        if (id > 1)
            continue; /* test_snap_circuit_slow */
        cuzk_circuit_info_t info;
        CHECK(cuzk_snap_circuit_info(&info, &cfg, false, NULL) == CUZK_OK);
        CHECK_MSG(info.num_constraints == prod[id] && info.num_inputs == CUZK_SNAP_NUM_INPUTS, "proof %u: %zu", id,
                  info.num_constraints);
    }
}

/* por_no_challenge_input's refusals (the reference's assertions): a bit count that is not the path's, a
 * shape the gadget does not take. */
static void por_refusals(void)
{
    cuzk_por_shape_t shapes[2] = {{.hasher = CUZK_POR_POSEIDON, .base_arity = 8, .base_levels = 2},
                                  {.hasher = CUZK_POR_SHA256, .base_arity = 3, .base_levels = 1}};
    size_t nbits[2] = {5, 1};
    for (int i = 0; i < 2; i++) {
        cuzk_cs_t *cs = cs_test_new(CUZK_CS_COUNT);
        cuzk_num_t nums[16];
        for (int j = 0; j < 16; j++)
            nums[j] = cuzk_num_alloc(cs, NULL);
        cuzk_bit_t bits[8];
        for (int j = 0; j < 8; j++)
            bits[j] = cuzk_bit_alloc(cs, CUZK_BIT_UNKNOWN);
        cuzk_err_t err = {{0}};
        CHECK(cuzk_por_no_challenge_input(cs, &shapes[i], bits, nbits[i], &nums[0], &nums[1], &nums[15]) ==
              CUZK_ERR_INVALID_ARG);
        CHECK(cuzk_cs_status(cs, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "por_no_challenge_input"));
        cuzk_cs_free(cs);
    }
}

int main(void)
{
    test_init("test_snap_gadgets");
    por_refusals();
    gen_challenge_bits();
    apex_por();
    counts();
    return test_finish();
}
