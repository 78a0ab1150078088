/* C1 output → PoRep circuit: a 2KiB sector sealed by the sealing code (seal.h, checked there against
 * its own oracles) with random data, its C1 output (cuzk_fc_c1_verify passes), partition 0 turned into
 * the circuit's witness: every row of the synthesized system holds and its public inputs are
 * porep_inputs.h's for the C1's replica_id, comm_d, comm_r and seed. A tampered parent label breaks
 * it; bad C1 data is refused with the right status. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/filecoin.h"
#include "ff/fr.h"
#include "filecoin/porep/porep_circuit_c1.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/porep/porep_prove.h"
#include "filecoin/seal/seal.h"
#include "filecoin/fc_porep_test.h"
#include "filecoin/fc_seal_test.h"
#include "test_util.h"

/* A partition's synthesis polls its stop request before each challenge and stops at the one that
 * says so (CUZK_ERR_CANCELLED, nothing kept); never saying so gives a satisfied system. */
static void test_synthesis_stop(const cuzk_fc_c1_t *c1)
{
    cuzk_porep_config_t cfg;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_porep_c1_config(&cfg, c1, &err) == CUZK_OK, "%s", err.msg);
    cuzk_porep_partition_t part;
    for (int k = 1; k <= 2; k++) {
        test_stop_counter c = {0, k};
        err.msg[0] = 0;
        CHECK(cuzk_porep_synthesize_partition(&part, c1, &cfg, 0, test_stop_after, &c, &err) == CUZK_ERR_CANCELLED);
        CHECK_MSG(c.polls == k && strstr(err.msg, "cancelled") && part.cs == NULL, "stop at %d: %d polls, '%s'", k,
                  c.polls, err.msg);
    }
    test_stop_counter never = {0, 0};
    CHECK_MSG(cuzk_porep_synthesize_partition(&part, c1, &cfg, 0, test_stop_after, &never, &err) == CUZK_OK, "%s",
              err.msg);
    CHECK_MSG(never.polls == 2, "%d polls for 2 challenges", never.polls);
    /* the provers' system omits C·z (cuzk_cs_omit_c): its A·z and B·z are those of the whole direct
     * system, whose rows all hold */
    CHECK(part.gw.num_constraints > 0 && part.gw.c == NULL);
    cuzk_porep_witness_t w;
    cuzk_cs_t *cs = NULL;
    cuzk_groth16_witness_t full;
    CHECK_MSG(cuzk_porep_witness_from_c1(&w, c1, 0, &err) == CUZK_OK, "%s", err.msg);
    CHECK(cuzk_cs_new(&cs, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    CHECK(cuzk_porep_synthesize(cs, &cfg, &w, &err) == CUZK_OK && cuzk_cs_groth16_witness(cs, &full, NULL) == CUZK_OK);
    size_t m = full.num_constraints;
    CHECK_MSG(m == part.gw.num_constraints && fc_test_rows_hold(&full) &&
                  memcmp(full.a, part.gw.a, m * sizeof(fr)) == 0 && memcmp(full.b, part.gw.b, m * sizeof(fr)) == 0,
              "the partition synthesized with a stop hook does not satisfy the circuit");
    cuzk_cs_free(cs);
    cuzk_porep_witness_free(&w);
    cuzk_porep_partition_clear(&part);
}

int main(void)
{
    test_init("test_porep_circuit_c1");
    cuzk_fc_sealed_t s;
    cuzk_fc_c1_t c1;
    cuzk_err_t err = {{0}};
    fc_test_seal_2kib(&s, &c1, NULL);
    CHECK_MSG(cuzk_fc_c1_verify(&c1, &err) == CUZK_OK, "%s", err.msg);

    cuzk_porep_witness_t w;
    CHECK_MSG(cuzk_porep_witness_from_c1(&w, &c1, 0, &err) == CUZK_OK, "%s", err.msg);
    CHECK(w.num_challenges == 2 && w.cfg.nodes == 64);
    fr in[40], want[39];
    CHECK_MSG(fc_test_porep_holds(&w.cfg, &w, in, 40, true),
              "the sealed sector's partition does not satisfy the circuit");
    cuzk_fc_porep_config_t pc;
    cuzk_fc_porep_config_from_proof(&pc, c1.proof);
    CHECK(cuzk_fc_porep_public_inputs(want, 39, &pc, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, 0, NULL) ==
          CUZK_OK);
    CHECK(fr_eq(&in[0], &FR_ONE));
    for (int i = 0; i < 39; i++)
        CHECK_MSG(fr_eq(&in[i + 1], &want[i]), "public input %d differs from porep_inputs.h", i + 1);

    /* an exp parent's label in layer 1 feeds the challenged node's layer-2 label */
    fr_add(&w.challenges[1].exp_parents[2].rows[0], &w.challenges[1].exp_parents[2].rows[0], &FR_ONE);
    CHECK_MSG(!fc_test_porep_holds(&w.cfg, &w, NULL, 0, true), "a tampered parent label still satisfies");
    cuzk_porep_witness_free(&w);

    /* bad C1 data */
    CHECK(cuzk_porep_witness_from_c1(&w, &c1, 1, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_fc_c1_vproof_t *v = cuzk_fc_c1_vproof(&c1, 0, 1);
    uint8_t save[32];
    memcpy(save, v->c_x.path.root, 32);
    v->c_x.path.root[0] ^= 1;
    CHECK(cuzk_porep_witness_from_c1(&w, &c1, 0, &err) == CUZK_ERR_MISMATCH);
    memcpy(v->c_x.path.root, save, 32);
    v->drg[4].path.steps[0].arity = 4;
    CHECK(cuzk_porep_witness_from_c1(&w, &c1, 0, &err) == CUZK_ERR_FORMAT);
    v->drg[4].path.steps[0].arity = 8;
    uint8_t *row = v->exp[1].rows[1];
    memcpy(save, row, 32);
    memset(row, 0xff, 32);
    CHECK(cuzk_porep_witness_from_c1(&w, &c1, 0, &err) == CUZK_ERR_NOT_CANONICAL);
    memcpy(row, save, 32);
    CHECK(cuzk_porep_witness_from_c1(&w, &c1, 0, &err) == CUZK_OK);
    cuzk_porep_witness_free(&w);

    test_synthesis_stop(&c1);
    cuzk_fc_c1_free(&c1);
    cuzk_fc_sealed_free(&s);
    return test_finish();
}
