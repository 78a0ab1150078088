/* The library side of PoRep C2 without parameters (the proof itself runs in the slow suite): a sealed 2KiB
 * sector's public inputs as porep_prove.h gives them are the inputs the circuit allocates when synthesized
 * from the C1 (an independent path: the circuit's own gadgets), another seed gives other inputs, a key of
 * another shape is refused, proofs of the wrong count are not valid, and bad C1 data is refused. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/filecoin.h"
#include "ff/fr.h"
#include "filecoin/porep/porep_circuit_c1.h"
#include "filecoin/porep/porep_prove.h"
#include "filecoin/seal/seal.h"
#include "filecoin/fc_seal_test.h"
#include "test_util.h"

/* The circuit's input assignment for partition 0 (ONE first) by the witness backend. */
static size_t circuit_inputs(fr *out, size_t cap, const cuzk_fc_c1_t *c1)
{
    cuzk_porep_witness_t w;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_porep_witness_from_c1(&w, c1, 0, &err) == CUZK_OK, "%s", err.msg);
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, CUZK_CS_WITNESS, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    CHECK_MSG(cuzk_porep_synthesize(cs, &w.cfg, &w, &err) == CUZK_OK, "%s", err.msg);
    cuzk_cs_counts_t n;
    cuzk_cs_counts(cs, &n);
    size_t k = n.num_inputs < cap ? n.num_inputs : cap;
    memcpy(out, cuzk_cs_inputs(cs), k * sizeof *out);
    cuzk_cs_free(cs);
    cuzk_porep_witness_free(&w);
    return n.num_inputs;
}

int main(void)
{
    test_init("test_porep_e2e_lib");
    uint8_t seed[32];
    cuzk_fc_sealed_t s;
    cuzk_fc_c1_t c1, c1b;
    memset(&c1b, 0, sizeof c1b);
    cuzk_err_t err = {{0}};
    fc_test_seal_2kib(&s, &c1, seed);
    seed[0] ^= 1;
    CHECK_MSG(cuzk_fc_seal_commit1(&c1b, &s, seed, &err) == CUZK_OK, "%s", err.msg);

    cuzk_porep_config_t cfg;
    CHECK(cuzk_porep_c1_config(&cfg, &c1, &err) == CUZK_OK && cfg.nodes == 64 && cfg.challenges == 2);
    cuzk_scalar_t in[64];
    size_t n = 0;
    CHECK_MSG(cuzk_porep_c1_public_inputs(in, 64, &n, &c1, 0, &err) == CUZK_OK, "%s", err.msg);
    CHECK(n == 39);
    fr circ[64];
    CHECK(circuit_inputs(circ, 64, &c1) == 40);
    CHECK(fr_eq(&circ[0], &FR_ONE));
    for (size_t i = 0; i < n; i++) {
        cuzk_scalar_t want;
        fr_to_scalar(&want, &circ[i + 1]);
        CHECK_MSG(memcmp(&want, &in[i], sizeof want) == 0, "public input %zu differs from the circuit's", i);
    }
    /* another seed: other challenges, other inputs (the replica part stays) */
    cuzk_scalar_t inb[64];
    CHECK(cuzk_porep_c1_public_inputs(inb, 64, &n, &c1b, 0, &err) == CUZK_OK);
    CHECK(memcmp(inb, in, 3 * sizeof in[0]) == 0 && memcmp(inb, in, n * sizeof in[0]) != 0);
    CHECK(cuzk_porep_c1_public_inputs(in, 38, &n, &c1, 0, &err) == CUZK_ERR_BAD_LENGTH);
    CHECK(cuzk_porep_c1_public_inputs(in, 64, &n, &c1, 1, &err) == CUZK_ERR_INVALID_ARG);

    /* a key of the 2KiB circuit's lengths passes, one off by one anywhere is refused */
    cuzk_circuit_info_t info;
    CHECK(cuzk_porep_circuit_info(&info, &cfg, false, &err) == CUZK_OK);
    CHECK(info.num_constraints == 2687921 && info.num_inputs == 40); /* 2KiB counts, docs/REFERENCE.md §3.2 */
    cuzk_groth16_pk_t pk;
    memset(&pk, 0, sizeof pk);
    pk.vk.ic_len = info.num_inputs;
    pk.l_len = info.num_aux;
    pk.h_len = (1u << 22) - 1;
    pk.a_len = info.num_inputs + info.a_aux_density;
    pk.b_g1_len = pk.b_g2_len = info.b_input_density + info.b_aux_density;
    CHECK_MSG(cuzk_porep_check_key(&pk, &cfg, &err) == CUZK_OK, "%s", err.msg);
    size_t *lens[] = {&pk.vk.ic_len, &pk.l_len, &pk.h_len, &pk.a_len, &pk.b_g1_len, &pk.b_g2_len};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        (*lens[i])++;
        CHECK_MSG(cuzk_porep_check_key(&pk, &cfg, &err) == CUZK_ERR_MISMATCH, "length %zu", i);
        (*lens[i])--;
    }

    /* the number of proofs must be the partition count; nothing is read before that check */
    bool valid = true;
    cuzk_groth16_vk_t vk;
    memset(&vk, 0, sizeof vk);
    CHECK(cuzk_porep_verify_c1(&valid, &c1, &vk, NULL, 2, &err) == CUZK_OK && !valid);

    /* C1 whose challenges are not the seed's: the prover refuses before any work */
    cuzk_fc_c1_vproof(&c1b, 0, 0)->labeling[0].node ^= 1;
    cuzk_groth16_proof_t proof;
    CHECK(cuzk_porep_prove_c1(&proof, &c1b, &pk, NULL, NULL, &err) != CUZK_OK);

    cuzk_fc_c1_free(&c1);
    cuzk_fc_c1_free(&c1b);
    cuzk_fc_sealed_free(&s);
    return test_finish();
}
