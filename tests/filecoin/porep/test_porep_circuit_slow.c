/* The PoRep circuit at production scale and with real witnesses of every tree shape (slow: about five
 * minutes and up to ~1.5 GiB):
 *  - 32GiB in count mode against the published R1CS statistics (docs/REFERENCE.md §3.1: rust-fil-proofs
 *    PR #1325, curio's recorder of the real circuit): 130,278,541 constraints (130,278,869 with the
 *    328 input rows), 328 inputs, 130,169,893 aux, nnz A 309,405,051 / B 130,327,340 / C 282,656,500
 *    (A includes one term per input row: ours + 328), a_aux density 129,753,292, b_input 1, b_aux
 *    33,112,281;
 *  - 64GiB in count mode against the cost model (docs/REFERENCE.md §3.2, derived): 131,185,849, 328 inputs;
 *  - TestConstraintSystem hashes of the other test circuits and of 8MiB / 512MiB / 32GiB / 64GiB (our
 *    own recorded values; the production ones take a few minutes);
 *  - real witnesses (sectors sealed by the test builder) for 2KiB (2 challenges, porep id 5), the
 *    base-2, 8-4 and 8-4-2 test circuits, and 11-layer circuits with 8-8-0 and 8-8-2 trees: every row
 *    holds and the public inputs are porep_inputs.h's. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuzk/filecoin.h"
#include "ff/fr.h"
#include "filecoin/registry/registered_proof.h"
#include "testkit/xorshift.h"
#include "test_porep_circuit_replica.h"
#include "test_util.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void production(void)
{
    cuzk_porep_config_t cfg;
    cuzk_circuit_info_t i;
    CHECK(cuzk_porep_config_for_sector_size(&cfg, NULL, 32ull << 30, NULL) == CUZK_OK);
    double t = now();
    CHECK(cuzk_porep_circuit_info(&i, &cfg, false, NULL) == CUZK_OK);
    printf("32GiB: constraints=%zu inputs=%zu aux=%zu nnz_a=%zu nnz_b=%zu nnz_c=%zu densities %zu/%zu/%zu (%.1f s)\n",
           i.num_constraints, i.num_inputs, i.num_aux, i.nnz_a, i.nnz_b, i.nnz_c, i.a_aux_density,
           i.b_input_density, i.b_aux_density, now() - t);
    CHECK(i.num_constraints == 130278541 && i.num_constraints + i.num_inputs == 130278869);
    CHECK(i.num_inputs == 328 && i.num_aux == 130169893);
    CHECK(i.nnz_a + i.num_inputs == 309405051 && i.nnz_b == 130327340 && i.nnz_c == 282656500);
    CHECK(i.nnz_a + i.num_inputs + i.nnz_b + i.nnz_c == 722388891);
    CHECK(i.a_aux_density == 129753292 && i.b_input_density == 1 && i.b_aux_density == 33112281);
    /* the key check's figures: from the counts of one and two challenges, the same as the full count */
    cuzk_circuit_info_t s;
    t = now();
    CHECK(cuzk_porep_circuit_shape(&s, &cfg, NULL) == CUZK_OK);
    printf("32GiB shape from 1 and 2 challenges: %.1f s\n", now() - t);
    CHECK(s.num_constraints == i.num_constraints && s.num_inputs == i.num_inputs && s.num_aux == i.num_aux);
    CHECK(s.nnz_a == i.nnz_a && s.nnz_b == i.nnz_b && s.nnz_c == i.nnz_c);
    CHECK(s.a_aux_density == i.a_aux_density && s.b_input_density == i.b_input_density &&
          s.b_aux_density == i.b_aux_density);

    CHECK(cuzk_porep_config_for_sector_size(&cfg, NULL, 64ull << 30, NULL) == CUZK_OK);
    t = now();
    CHECK(cuzk_porep_circuit_info(&i, &cfg, false, NULL) == CUZK_OK);
    printf("64GiB: constraints=%zu inputs=%zu aux=%zu nnz_a=%zu nnz_b=%zu nnz_c=%zu (%.1f s)\n", i.num_constraints,
           i.num_inputs, i.num_aux, i.nnz_a, i.nnz_b, i.nnz_c, now() - t);
    CHECK(i.num_constraints == 131185849 && i.num_inputs == 328);
    cuzk_circuit_info_t s64;
    CHECK(cuzk_porep_circuit_shape(&s64, &cfg, NULL) == CUZK_OK);
    CHECK(s64.num_constraints == i.num_constraints && s64.num_inputs == i.num_inputs && s64.num_aux == i.num_aux &&
          s64.nnz_a == i.nnz_a && s64.nnz_b == i.nnz_b && s64.nnz_c == i.nnz_c &&
          s64.a_aux_density == i.a_aux_density && s64.b_input_density == i.b_input_density &&
          s64.b_aux_density == i.b_aux_density);
}

/* our own recorded TestConstraintSystem hashes (regression values) */
static void hashes(void)
{
    static const struct {
        const char *name;
        cuzk_porep_config_t cfg;
        const char *hash;
    } cases[] = {
        {"base-2", {8, 2, 1, 2, 0, 0}, "e933e8bea2e68a3569205187f61c428770f083c7e7d2113babedb204b9429bc3"},
        {"8-4", {32, 2, 1, 8, 4, 0}, "2bb32fe1d16325b1afe3f67f42148047406233e23eae86605f53247273706615"},
        {"8-4-2", {64, 2, 1, 8, 4, 2}, "c9b69c85139ae04bac789fecb881052900c660c6337ab4b520eaa0c9f7293f75"},
        {"8MiB", {1u << 18, 2, 2, 8, 0, 0}, "b1fe5a4629fb8fc6684d6c90d6f8d6d32e5bccf6bc9439e4e8a9758e579328db"},
        {"512MiB", {1u << 24, 2, 2, 8, 0, 0}, "c7ade8c93707968e967cce4507669258eab20ff010e6dc1827d55544ee671cbb"},
        /* production partitions, streamed by the hash backend (about 2 minutes each, constant memory) */
        {"32GiB", {1ull << 30, 11, 18, 8, 8, 0}, "a790207ea0435359e7d5f286563586e3f9a3a286c97af2440f65a4a18063d9cb"},
        {"64GiB", {1ull << 31, 11, 18, 8, 8, 2}, "7686117961498d7849ede7429233254b20e3b149011eca8674ca8e9ab0655af6"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cuzk_circuit_info_t i;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_porep_circuit_info(&i, &cases[k].cfg, true, &err) == CUZK_OK, "%s: %s", cases[k].name,
                  err.msg);
        printf("%s: constraints=%zu hash=%s\n", cases[k].name, i.num_constraints, i.hash);
        CHECK_MSG(i.has_hash && strcmp(i.hash, cases[k].hash) == 0, "%s: hash changed", cases[k].name);
    }
}

/* A sealed sector of cfg, partition 0's witness on the direct backend: every row a·b = c, inputs equal
 * porep_inputs.h's. */
static void real_witness(const char *name, const cuzk_porep_config_t *cfg, const uint8_t porep_id[32])
{
    double t = now();
    tpr_replica_t *r = malloc(sizeof *r);
    CHECK(tpr_build(r, cfg, porep_id, CUZK_FC_TEST_SEED));
    uint64_t ch[CUZK_POREP_MAX_CHALLENGES];
    CHECK(tpr_challenges(r, ch));
    cuzk_porep_witness_t w;
    CHECK(cuzk_porep_witness_init(&w, cfg, NULL) == CUZK_OK);
    tpr_fill_witness(&w, r, ch);
    cuzk_cs_t *cs = NULL;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_new(&cs, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    CHECK_MSG(cuzk_porep_synthesize(cs, cfg, &w, &err) == CUZK_OK, "%s: %s", name, err.msg);
    cuzk_groth16_witness_t gw;
    size_t bad = 0;
    if (cuzk_cs_groth16_witness(cs, &gw, NULL) == CUZK_OK) {
        for (size_t k = 0; k < gw.num_constraints; k++) {
            fr ab;
            fr_mul(&ab, &gw.a[k], &gw.b[k]);
            bad += !fr_eq(&ab, &gw.c[k]);
        }
        size_t np = 3 + 18 * (size_t)cfg->challenges;
        fr *pub = malloc(np * sizeof *pub);
        CHECK(tpr_public_inputs(r, pub, np));
        CHECK(gw.num_inputs == np + 1);
        for (size_t i = 0; i < np && i + 1 < gw.num_inputs; i++)
            CHECK_MSG(fr_eq(&gw.input[i + 1], &pub[i]), "%s: public input %zu differs", name, i + 1);
        free(pub);
        printf("%s: %zu constraints, %zu rows fail (%.1f s)\n", name, gw.num_constraints, bad, now() - t);
    } else {
        CHECK_MSG(false, "%s: no witness", name);
    }
    CHECK_MSG(bad == 0, "%s: %zu rows with a·b != c", name, bad);
    cuzk_cs_free(cs);
    cuzk_porep_witness_free(&w);
    tpr_free(r);
    free(r);
}

int main(void)
{
    test_init("test_porep_circuit_slow");
    production();
    hashes();
    uint8_t id44[32], id5[32];
    memset(id44, 44, 32);
    cuzk_fc_porep_id(id5, 5);
    cuzk_porep_config_t c2k;
    CHECK(cuzk_porep_config_for_proof(&c2k, NULL, "StackedDrg2KiBV1_1", NULL) == CUZK_OK);
    real_witness("2KiB, porep id 5", &c2k, id5);
    static const cuzk_porep_config_t shapes[] = {
        {8, 2, 1, 2, 0, 0}, {32, 2, 1, 8, 4, 0}, {64, 2, 1, 8, 4, 2}, {64, 11, 1, 8, 8, 0}, {128, 11, 1, 8, 8, 2},
    };
    static const char *names[] = {"base-2 test circuit", "8-4 test circuit", "8-4-2 test circuit",
                                  "11 layers, 8-8-0", "11 layers, 8-8-2"};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        real_witness(names[k], &shapes[k], id44);
    return test_finish();
}
