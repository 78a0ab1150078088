/* The PoRep C2 circuit's pieces and shape (storage-proofs-porep tests; docs/REFERENCE.md §2, §3):
 *  - create_label_circuit as storage-proofs-porep create_label.rs test_create_label builds it
 *    (XorShift TEST_SEED inputs, porep_id [32; 32], layer 3, node 22, 38·256 allocated bits):
 *    532,025 constraints, satisfied, label = trim(sha256(the same bytes)) computed by OpenSSL;
 *  - the column hashes (hash.rs): arity 2 → 311, arity 11 → 598, value = the out-of-circuit hash;
 *  - the stacked test circuits in count mode (tests/stacked_circuit.rs): 8 nodes base-8 1,199,620,
 *    base-2 1,206,212, 8-4 (32 nodes) 1,296,576, 8-4-2 (64 nodes) 1,346,982, 22 inputs each;
 *  - 2KiB / 8MiB / 512MiB production circuits in count mode against the cost model of
 *    docs/REFERENCE.md §3.2, which is re-evaluated here from its formula for every configuration (an
 *    oracle independent of the circuit code), and the input count against porep_inputs.h;
 *  - configuration and witness errors. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/filecoin.h"
#include "ff/fr.h"
#include "filecoin/porep/create_label_circuit.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "testkit/xorshift.h"
#include "gadgets/bits.h"
#include "gadgets/poseidon.h"
#include "test_util.h"

static cuzk_cs_t *new_cs(cuzk_cs_backend b)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, b, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    return cs;
}

static bool satisfied(const cuzk_cs_t *cs)
{
    int64_t first = -2;
    return cuzk_cs_test_unsatisfied(cs, &first, NULL) == CUZK_OK && first == -1;
}

static void hash_of(const cuzk_cs_t *cs, char hex[65])
{
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_cs_test_hash(cs, hex, &err) == CUZK_OK, "%s", err.msg);
}

/* ---- create_label (create_label.rs test_create_label) ---- */

/* our own recorded TestConstraintSystem hash (regression value; no Rust run published one) */
static const char CREATE_LABEL_HASH[] = "0759ddd2645a276700fad35fe3125ec00ac1c96ee74bdab68cc2edc81f8d301e";

static void create_label_kat(void)
{
    enum { SIZE = 64, LAYER = 3, NODE = 22 };
    cuzk_fc_xorshift_t rng;
    cuzk_fc_xorshift_seed(&rng, CUZK_FC_TEST_SEED);
    fr id_fr;
    cuzk_fc_xorshift_fr(&rng, &id_fr);
    static uint8_t data[2 * SIZE][32];
    for (int i = 0; i < 2 * SIZE; i++) {
        fr v;
        cuzk_fc_xorshift_fr(&rng, &v);
        fr_to_bytes_le(data[i], &v);
    }
    uint8_t porep_id[32], id[32];
    memset(porep_id, 32, sizeof porep_id);
    fr_to_bytes_le(id, &id_fr);
    cuzk_fc_graph_t g;
    CHECK(cuzk_fc_graph_init(&g, SIZE, porep_id, CUZK_FC_API_V1_1, NULL) == CUZK_OK);
    uint32_t parents[14];
    CHECK(cuzk_fc_graph_parents(&g, NODE, parents) == CUZK_OK);
    /* base parents read the layer's labels (data[0..64]), expander parents the previous layer's */
    const uint8_t *raw[14], *hashed[CUZK_LABEL_PARENTS];
    for (int i = 0; i < 14; i++)
        raw[i] = data[(i < 6 ? 0 : SIZE) + parents[i]];
    for (int i = 0; i < CUZK_LABEL_PARENTS; i++)
        hashed[i] = raw[i < 28 ? i % 14 : i - 28];

    cuzk_cs_t *cs = new_cs(CUZK_CS_TEST);
    static cuzk_boolean_t pbits[CUZK_LABEL_PARENTS][256];
    const cuzk_boolean_t *pp[CUZK_LABEL_PARENTS];
    for (int i = 0; i < CUZK_LABEL_PARENTS; i++) {
        cuzk_bits_alloc_bytes_be(cs, hashed[i], 256, pbits[i]);
        pp[i] = pbits[i];
    }
    cuzk_boolean_t idbits[256];
    cuzk_bits_alloc_bytes_be(cs, id, 256, idbits);
    cuzk_u32_t layer;
    cuzk_u64_t node;
    cuzk_u32_constant(&layer, LAYER);
    cuzk_u64_constant(&node, NODE);
    cuzk_num_t out = cuzk_create_label_circuit(cs, idbits, 256, pp, 256, &layer, &node);
    CHECK(cuzk_cs_status(cs, NULL) == CUZK_OK);
    cuzk_cs_counts_t c;
    cuzk_cs_counts(cs, &c);
    CHECK_MSG(c.num_constraints == 532025, "create_label: %zu constraints, want 532,025", c.num_constraints);
    CHECK(c.num_inputs == 1);
    CHECK(satisfied(cs));

    /* create_label_exp out of circuit: OpenSSL SHA-256 of the same 39·32 bytes, trimmed */
    uint8_t hdr[64] = {0}, label[32];
    memcpy(hdr, id, 32);
    hdr[32 + 3] = LAYER;
    hdr[36 + 7] = NODE;
    cuzk_fc_span_t parts[1 + CUZK_LABEL_PARENTS];
    parts[0] = (cuzk_fc_span_t){hdr, 64};
    for (int i = 0; i < CUZK_LABEL_PARENTS; i++)
        parts[1 + i] = (cuzk_fc_span_t){hashed[i], 32};
    cuzk_fc_sha256_trimmed(label, parts, 1 + CUZK_LABEL_PARENTS);
    fr want;
    CHECK(fr_from_bytes_le(&want, label));
    CHECK_MSG(out.has_value && fr_eq(&out.value, &want), "create_label: circuit and out-of-circuit labels differ");

    char h[65];
    hash_of(cs, h);
    printf("create_label: constraints %zu aux %zu hash %s\n", c.num_constraints, c.num_aux, h);
    if (CREATE_LABEL_HASH[0])
        CHECK_MSG(strcmp(h, CREATE_LABEL_HASH) == 0, "create_label hash changed");

    /* a parent bit flipped: the label changes, so the packed output no longer matches */
    cuzk_var_t v = pbits[5][17].var;
    fr old, flip;
    CHECK(cuzk_cs_get_value(cs, v, &old));
    flip = fr_is_zero(&old) ? FR_ONE : FR_ZERO;
    CHECK(cuzk_cs_set_value(cs, v, &flip, NULL) == CUZK_OK);
    CHECK(!satisfied(cs));
    cuzk_cs_free(cs);

    /* bad sizes fail the system */
    cs = new_cs(CUZK_CS_COUNT);
    cuzk_create_label_circuit(cs, idbits, 16, pp, 256, &layer, &node);
    CHECK(cuzk_cs_status(cs, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(cs);
    cs = new_cs(CUZK_CS_COUNT);
    cuzk_create_label_circuit(cs, idbits, 256, pp, 257, &layer, &node);
    CHECK(cuzk_cs_status(cs, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(cs);
}

/* ---- column hashes (hash.rs test_hash2_circuit, test_hash_single_column_circuit) ---- */

static void column_hashes(void)
{
    cuzk_fc_xorshift_t rng;
    cuzk_fc_xorshift_seed(&rng, CUZK_FC_TEST_SEED);
    static const struct {
        unsigned arity;
        size_t constraints;
    } cases[] = {{2, 311}, {11, 598}};
    for (int k = 0; k < 2; k++) {
        unsigned a = cases[k].arity;
        fr vals[11], want;
        cuzk_num_t nums[11], out;
        cuzk_cs_t *cs = new_cs(CUZK_CS_TEST);
        for (unsigned i = 0; i < a; i++) {
            cuzk_fc_xorshift_fr(&rng, &vals[i]);
            nums[i] = cuzk_num_alloc(cs, &vals[i]);
        }
        CHECK(cuzk_poseidon_circuit(cs, &out, a, nums) == CUZK_OK);
        cuzk_cs_counts_t c;
        cuzk_cs_counts(cs, &c);
        CHECK_MSG(c.num_constraints == cases[k].constraints, "column hash of %u: %zu constraints", a,
                  c.num_constraints);
        CHECK(satisfied(cs));
        CHECK(cuzk_poseidon_hash(&want, a, vals, NULL) == CUZK_OK);
        CHECK(out.has_value && fr_eq(&out.value, &want));
        cuzk_cs_free(cs);
    }
}

/* ---- the cost model of docs/REFERENCE.md §3.2, evaluated from its formula ---- */

static uint64_t log2u64(uint64_t n)
{
    uint64_t l = 0;
    while (n > 1)
        n >>= 1, l++;
    return l;
}

static uint64_t model_level(unsigned arity) { return arity == 8 ? 530 : arity == 4 ? 387 : 314; }

static uint64_t model_constraints(const cuzk_porep_config_t *cfg)
{
    uint64_t per = (uint64_t)(cfg->sub_arity ? cfg->sub_arity : 1) * (cfg->top_arity ? cfg->top_arity : 1);
    uint64_t base_levels = log2u64(cfg->nodes / per) / log2u64(cfg->base_arity);
    uint64_t P = base_levels * model_level(cfg->base_arity) + (cfg->sub_arity ? model_level(cfg->sub_arity) : 0) +
                 (cfg->top_arity ? model_level(cfg->top_arity) : 0);
    uint64_t L = cfg->layers, H = L == 2 ? 311 : 598;
    uint64_t K = 2 + 14 * (H + 2) + 65 + 256 * (6 + 14 * (L - 1)) + 522269 * L + 5 + H;
    return 571 + cfg->challenges * (K + log2u64(cfg->nodes) * 45382 + 16 * P);
}

/* ---- the stacked test circuits and the small production sizes, count mode ---- */

static void counts(void)
{
    static const struct {
        const char *name;
        cuzk_porep_config_t cfg;
        size_t constraints; /* stacked_circuit.rs (SOURCE) */
    } tests[] = {
        {"base-8, 8 nodes", {8, 2, 1, 8, 0, 0}, 1199620},
        {"base-2, 8 nodes", {8, 2, 1, 2, 0, 0}, 1206212},
        {"8-4, 32 nodes", {32, 2, 1, 8, 4, 0}, 1296576},
        {"8-4-2, 64 nodes", {64, 2, 1, 8, 4, 2}, 1346982},
    };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        cuzk_circuit_info_t info;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_porep_circuit_info(&info, &tests[i].cfg, false, &err) == CUZK_OK, "%s: %s", tests[i].name,
                  err.msg);
        CHECK_MSG(info.num_constraints == tests[i].constraints && info.num_inputs == 22 && !info.has_hash,
                  "%s: %zu constraints %zu inputs", tests[i].name, info.num_constraints, info.num_inputs);
        CHECK(model_constraints(&tests[i].cfg) == tests[i].constraints);
        printf("%-16s constraints=%zu inputs=%zu aux=%zu nnz_a=%zu nnz_b=%zu nnz_c=%zu\n", tests[i].name,
               info.num_constraints, info.num_inputs, info.num_aux, info.nnz_a, info.nnz_b, info.nnz_c);
    }

    /* production sizes with 2 layers: docs/REFERENCE.md §3.2, derived: 2,687,921 / 3,844,929 / 4,423,433,
     * 40 inputs */
    static const struct {
        uint64_t size;
        size_t constraints;
    } prod[] = {{2048, 2687921}, {8u << 20, 3844929}, {512u << 20, 4423433}};
    for (size_t i = 0; i < 3; i++) {
        cuzk_porep_config_t cfg;
        uint32_t parts = 0;
        CHECK(cuzk_porep_config_for_sector_size(&cfg, &parts, prod[i].size, NULL) == CUZK_OK);
        CHECK(parts == 1 && cfg.layers == 2 && cfg.challenges == 2 && cfg.base_arity == 8);
        cuzk_circuit_info_t info;
        CHECK(cuzk_porep_circuit_info(&info, &cfg, false, NULL) == CUZK_OK);
        CHECK_MSG(info.num_constraints == prod[i].constraints && info.num_inputs == 40,
                  "sector %llu: %zu constraints %zu inputs", (unsigned long long)prod[i].size, info.num_constraints,
                  info.num_inputs);
        CHECK(model_constraints(&cfg) == prod[i].constraints);
        CHECK(info.b_input_density == 1 && info.nnz_b >= info.num_constraints);
        /* the vanilla side's public input vector has the same length (ONE excluded) */
        const cuzk_fc_seal_proof_t *p;
        cuzk_fc_porep_config_t pc;
        CHECK(cuzk_fc_seal_proof_parse(&p, "StackedDrg2KiBV1_1", NULL) == CUZK_OK);
        cuzk_fc_porep_config_from_proof(&pc, p);
        CHECK(cuzk_fc_porep_public_input_count(&pc) + 1 == info.num_inputs);
        CHECK(cuzk_porep_num_inputs(&cfg) == info.num_inputs);
    }
    /* 32GiB / 64GiB shapes (the counts themselves: test_porep_circuit_slow) */
    cuzk_porep_config_t cfg;
    uint32_t parts;
    CHECK(cuzk_porep_config_for_proof(&cfg, &parts, "StackedDrg32GiBV1_1", NULL) == CUZK_OK);
    CHECK(parts == 10 && cfg.layers == 11 && cfg.challenges == 18 && cuzk_porep_tree_levels(&cfg) == 10 &&
          cuzk_porep_tree_d_levels(&cfg) == 30 && cuzk_porep_tree_siblings(&cfg) == 70 &&
          cuzk_porep_num_inputs(&cfg) == 328);
    CHECK(model_constraints(&cfg) == 130278541);
    CHECK(cuzk_porep_config_for_proof(&cfg, &parts, "RegisteredSealProof_StackedDrg64GiBV1", NULL) == CUZK_OK);
    CHECK(cfg.top_arity == 2 && cuzk_porep_tree_levels(&cfg) == 11);
}

/* ---- configuration and witness errors ---- */

static void misuse(void)
{
    cuzk_err_t err = {{0}};
    cuzk_porep_config_t bad[] = {
        {6, 2, 1, 8, 0, 0},  {8, 3, 1, 8, 0, 0},  {8, 2, 0, 8, 0, 0},  {8, 2, 19, 8, 0, 0},
        {8, 2, 1, 3, 0, 0},  {8, 2, 1, 8, 0, 2},  {16, 2, 1, 8, 0, 0}, {8, 2, 1, 8, 4, 0},
        {1, 2, 1, 8, 0, 0},  {8, 2, 1, 32, 0, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_MSG(cuzk_porep_config_check(&bad[i], &err) == CUZK_ERR_INVALID_ARG, "bad config %zu accepted", i);
        cuzk_cs_t *cs = new_cs(CUZK_CS_COUNT);
        CHECK(cuzk_porep_synthesize(cs, &bad[i], NULL, NULL) == CUZK_ERR_INVALID_ARG);
        cuzk_cs_free(cs);
        cuzk_porep_witness_t w;
        CHECK(cuzk_porep_witness_init(&w, &bad[i], NULL) == CUZK_ERR_INVALID_ARG);
        cuzk_porep_witness_free(&w);
    }
    cuzk_porep_config_t cfg;
    CHECK(cuzk_porep_config_for_proof(&cfg, NULL, "StackedDrg3KiBV1", &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_porep_config_for_sector_size(&cfg, NULL, 4096, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_porep_config_check(NULL, &err) == CUZK_ERR_INVALID_ARG);

    /* a witness of another configuration; a value backend without values */
    cuzk_porep_config_t a = {8, 2, 1, 8, 0, 0}, b = {8, 2, 1, 2, 0, 0};
    cuzk_porep_witness_t w;
    CHECK(cuzk_porep_witness_init(&w, &a, NULL) == CUZK_OK);
    CHECK(w.num_challenges == 1 && w.challenges[0].comm_d_path.siblings && w.challenges[0].exp_parents[7].rows &&
          w.challenges[0].c_x.path.positions);
    cuzk_cs_t *cs = new_cs(CUZK_CS_COUNT);
    CHECK(cuzk_porep_synthesize(cs, &b, &w, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(cs);
    cs = new_cs(CUZK_CS_WITNESS);
    CHECK(cuzk_porep_synthesize(cs, &a, &w, &err) != CUZK_OK);
    cuzk_cs_free(cs);
    cs = new_cs(CUZK_CS_WITNESS);
    CHECK(cuzk_porep_synthesize(cs, &a, NULL, &err) != CUZK_OK);
    cuzk_cs_free(cs);
    cuzk_porep_witness_free(&w);
    cuzk_porep_witness_free(&w);
}

/* Every figure of the circuit's shape from the counts of one and two challenges equals the full count
 * (the production sizes: test_porep_circuit_slow.c). */
static bool same_shape(const cuzk_circuit_info_t *a, const cuzk_circuit_info_t *b)
{
    return a->num_constraints == b->num_constraints && a->num_inputs == b->num_inputs && a->num_aux == b->num_aux &&
           a->nnz_a == b->nnz_a && a->nnz_b == b->nnz_b && a->nnz_c == b->nnz_c &&
           a->a_aux_density == b->a_aux_density && a->b_input_density == b->b_input_density &&
           a->b_aux_density == b->b_aux_density;
}

static void shapes(void)
{
    static const cuzk_porep_config_t cfgs[] = {
        {8, 2, 3, 2, 0, 0}, {32, 2, 5, 8, 4, 0}, {64, 2, 4, 8, 4, 2}, {512, 2, 7, 8, 0, 0}, {8, 11, 3, 8, 0, 0},
    };
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        cuzk_circuit_info_t full, shape;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_porep_circuit_info(&full, &cfgs[i], false, &err) == CUZK_OK, "%s", err.msg);
        CHECK_MSG(cuzk_porep_circuit_shape(&shape, &cfgs[i], &err) == CUZK_OK, "%s", err.msg);
        CHECK_MSG(same_shape(&full, &shape), "config %zu: shape %zu constraints %zu aux, count %zu / %zu", i,
                  shape.num_constraints, shape.num_aux, full.num_constraints, full.num_aux);
    }
    cuzk_porep_config_t bad = {8, 2, 0, 2, 0, 0};
    cuzk_circuit_info_t info;
    CHECK(cuzk_porep_circuit_shape(&info, &bad, NULL) == CUZK_ERR_INVALID_ARG);
}

int main(void)
{
    test_init("test_porep_circuit");
    shapes();
    create_label_kat();
    column_hashes();
    counts();
    misuse();
    return test_finish();
}
