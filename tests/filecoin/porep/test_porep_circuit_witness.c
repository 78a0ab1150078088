/* The PoRep circuit with a real witness: a whole sector of the reference's base-8 test circuit (8
 * nodes, 2 layers, 1 challenge, porep_id [44; 32], API V1_1; tests/stacked_circuit.rs) sealed out of
 * circuit by the test's own builder, one partition's vanilla proofs put in the witness. The system is
 * satisfied, its public inputs equal porep_inputs.h's for the same replica_id, comm_d, comm_r and seed
 * (as the Rust test checks against generate_public_inputs), its counts and TestConstraintSystem hash
 * are the blank circuit's; a wrong public input, parent label, data node or sibling breaks it. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/filecoin.h"
#include "ff/fr.h"
#include "testkit/xorshift.h"
#include "filecoin/fc_porep_test.h"
#include "test_porep_circuit_replica.h"
#include "test_util.h"

/* our own recorded TestConstraintSystem hash of the base-8 test circuit (regression value) */
static const char BASE8_HASH[] = "b9e22ee377bc73c4e08f679252c4f87948f5812be8c95358a6bf87a7279a785f";

static void bump(fr *x) { fr_add(x, x, &FR_ONE); }
static void unbump(fr *x) { fr_sub(x, x, &FR_ONE); }

int main(void)
{
    test_init("test_porep_circuit_witness");
    cuzk_porep_config_t cfg = {8, 2, 1, 8, 0, 0};
    uint8_t porep_id[32];
    memset(porep_id, 44, sizeof porep_id);
    tpr_replica_t *r = malloc(sizeof *r);
    CHECK(tpr_build(r, &cfg, porep_id, CUZK_FC_TEST_SEED));
    uint64_t ch[CUZK_POREP_MAX_CHALLENGES];
    CHECK(tpr_challenges(r, ch));
    CHECK(ch[0] >= 1 && ch[0] < cfg.nodes);
    cuzk_porep_witness_t w;
    CHECK(cuzk_porep_witness_init(&w, &cfg, NULL) == CUZK_OK);
    tpr_fill_witness(&w, r, ch);

    /* the real witness on the test backend */
    cuzk_cs_t *cs = NULL;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_new(&cs, CUZK_CS_TEST, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    CHECK_MSG(cuzk_porep_synthesize(cs, &cfg, &w, &err) == CUZK_OK, "%s", err.msg);
    int64_t first = -2;
    CHECK(cuzk_cs_test_unsatisfied(cs, &first, NULL) == CUZK_OK);
    CHECK_MSG(first == -1, "real witness: constraint %lld unsatisfied", (long long)first);
    cuzk_cs_counts_t c;
    cuzk_cs_counts(cs, &c);
    CHECK(c.num_constraints == 1199620 && c.num_inputs == 22);
    fr pub[3 + 18 * CUZK_POREP_MAX_CHALLENGES];
    size_t np = 3 + 18 * (size_t)cfg.challenges;
    CHECK(tpr_public_inputs(r, pub, np));
    const fr *in = cuzk_cs_inputs(cs);
    CHECK(np + 1 == c.num_inputs && fr_eq(&in[0], &FR_ONE));
    for (size_t i = 0; i < np && i + 1 < c.num_inputs; i++)
        CHECK_MSG(fr_eq(&in[i + 1], &pub[i]), "public input %zu differs from porep_inputs.h", i + 1);
    char h[65];
    CHECK(cuzk_cs_test_hash(cs, h, NULL) == CUZK_OK);
    printf("base-8 test circuit, real witness: hash %s\n", h);
    CHECK_MSG(strcmp(h, BASE8_HASH) == 0, "base-8 hash changed");
    /* a public input that disagrees with the witness */
    fr bad = in[1];
    bump(&bad);
    CHECK(cuzk_cs_set_value(cs, cuzk_var_input(1), &bad, NULL) == CUZK_OK);
    CHECK(cuzk_cs_test_unsatisfied(cs, &first, NULL) == CUZK_OK && first >= 0);
    cuzk_cs_free(cs);

    /* the blank circuit has the same shape (and BASE8_HASH was recorded from it) */
    cuzk_circuit_info_t info;
    CHECK(cuzk_porep_circuit_info(&info, &cfg, false, NULL) == CUZK_OK);
    CHECK(info.num_constraints == c.num_constraints && info.num_aux == c.num_aux && info.nnz_a == c.nnz_a &&
          info.nnz_b == c.nnz_b && info.nnz_c == c.nnz_c && !info.has_hash);

    /* tampering, checked row by row on the direct backend */
    cuzk_porep_challenge_t *q = &w.challenges[0];
    bump(&q->drg_parents[3].rows[1]); /* a label the circuit hashes into the challenged label */
    CHECK_MSG(!fc_test_porep_holds(&cfg, &w, NULL, 0, false), "a wrong parent label still satisfies");
    unbump(&q->drg_parents[3].rows[1]);
    bump(&q->comm_d_path.leaf);
    CHECK_MSG(!fc_test_porep_holds(&cfg, &w, NULL, 0, false), "a wrong data node still satisfies");
    unbump(&q->comm_d_path.leaf);
    bump(&q->comm_r_last_path.siblings[2]);
    CHECK_MSG(!fc_test_porep_holds(&cfg, &w, NULL, 0, false), "a wrong tree-R sibling still satisfies");
    unbump(&q->comm_r_last_path.siblings[2]);
    CHECK_MSG(fc_test_porep_holds(&cfg, &w, NULL, 0, false), "the restored witness fails on the direct backend");

    cuzk_porep_witness_free(&w);
    tpr_free(r);
    free(r);
    return test_finish();
}
