/* A random 2KiB sector (StackedDrg2KiBV1_1, miner 1000, sector 7, random data, ticket and seed) sealed
 * and its C1 made, for the tests that need real vanilla proofs. Test-only, static. */
#ifndef CUZK_TESTS_FC_SEAL_TEST_H
#define CUZK_TESTS_FC_SEAL_TEST_H
#include <string.h>
#include "filecoin/vanilla/c1.h"
#include "filecoin/registry/registered_proof.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/seal/seal.h"
#include "test_util.h"

/* Seals into *s and writes partition proofs for a random seed into *c1 (seed_out may be NULL); false
 * with a CHECK failure when any step fails. */
static inline bool fc_test_seal_2kib(cuzk_fc_sealed_t *s, cuzk_fc_c1_t *c1, uint8_t seed_out[32])
{
    const cuzk_fc_seal_proof_t *p = NULL;
    uint8_t prover_id[32], ticket[32], seed[32], raw[2032];
    cuzk_err_t err = {{0}};
    memset(c1, 0, sizeof *c1);
    CHECK(cuzk_fc_seal_proof_parse(&p, "StackedDrg2KiBV1_1", NULL) == CUZK_OK);
    cuzk_fc_prover_id_from_miner(prover_id, 1000);
    test_rand_bytes(ticket, 32);
    test_rand_bytes(seed, 32);
    test_rand_bytes(raw, sizeof raw);
    bool ok = p && cuzk_fc_seal_precommit(s, p, prover_id, 7, ticket, raw, 1, &err) == CUZK_OK &&
              cuzk_fc_seal_commit1(c1, s, seed, &err) == CUZK_OK;
    CHECK_MSG(ok, "sealing a 2KiB sector: %s", err.msg);
    if (seed_out)
        memcpy(seed_out, seed, 32);
    return ok;
}

#endif
