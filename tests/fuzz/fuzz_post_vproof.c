/* libFuzzer target for the PoSt vanilla proof (bincode FallbackPoStSectorProof, the bytes Curio sends
 * for WINNING_POST and WINDOW_POST_PARTITION): cuzk_fc_post_vproof_decode with strict bounds, then the
 * prover's checks. Checked on every input: a refusal comes with a message and leaves nothing allocated;
 * an accepted input encodes back (cuzk_fc_post_vproof_encode) to exactly its own bytes, and the checks
 * under the 2KiB and 32GiB Window PoSt parameters answer without crashing. Seeds: curio's real 32GiB
 * Window PoSt vproof and synthetic 2KiB Window and Winning ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/vanilla/post_vproof.h"
#include "filecoin/vanilla/post_vproof_write.h"
#include "fuzz_util.h"
#include "testkit/post_synthetic.h"

static const uint8_t RANDOMNESS[32] = {7};

static void params_for(cuzk_fc_post_params_t *pp, const char *name)
{
    const cuzk_fc_post_proof_t *p = NULL;
    cuzk_err_t err = {{0}};
    REQUIRE(cuzk_fc_post_proof_parse(&p, name, &err) == CUZK_OK);
    cuzk_fc_post_params_of_proof(pp, p, 0, RANDOMNESS);
}

static void seed_synthetic(const char *dir, const char *name, const char *proof)
{
    cuzk_fc_post_params_t pp;
    params_for(&pp, proof);
    uint64_t id = 5;
    uint8_t seed[32] = {9};
    cuzk_fc_post_synthetic_t s = {0};
    cuzk_err_t err = {{0}};
    REQUIRE(cuzk_fc_post_synthetic(&s, &pp, &id, 1, seed, 1, &err) == CUZK_OK);
    fz_seed(dir, name, s.data, s.len);
    cuzk_fc_post_synthetic_free(&s, 1);
}

static void write_seeds(const char *dir)
{
    FILE *f = fopen(CUZK_SOURCE_DIR "/tests/vectors/filecoin/curio-32GiB-window-post.vproof", "rb");
    REQUIRE(f != NULL);
    static uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    REQUIRE(n > 0 && n < sizeof buf);
    fz_seed(dir, "curio-32gib-window", buf, n);
    seed_synthetic(dir, "window-2kib", "StackedDrgWindow2KiBV1_2");
    seed_synthetic(dir, "winning-2kib", "StackedDrgWinning2KiBV1");
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *dir = getenv("CUZK_FUZZ_SEEDS");
    if (dir && *dir) {
        write_seeds(dir);
        exit(0);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_fc_post_vproof_t v;
    cuzk_err_t err = {{0}};
    if (cuzk_fc_post_vproof_decode(&v, data, size, NULL, &err) != CUZK_OK) {
        REQUIRE(err.msg[0] != 0 && v.storage == NULL && v.sectors == NULL);
        return 0;
    }
    uint8_t *back = NULL;
    size_t len = 0;
    REQUIRE(cuzk_fc_post_vproof_encode(&back, &len, &v, &err) == CUZK_OK);
    REQUIRE(len == size && memcmp(back, data, size) == 0);
    free(back);
    static const char *const proofs[] = {"StackedDrgWindow2KiBV1_2", "StackedDrgWindow32GiBV1_2"};
    for (size_t i = 0; i < 2; i++) {
        cuzk_fc_post_params_t pp;
        params_for(&pp, proofs[i]);
        cuzk_err_t e2 = {{0}};
        if (cuzk_fc_post_vproof_verify(&v, &pp, &e2) != CUZK_OK)
            REQUIRE(e2.msg[0] != 0);
    }
    cuzk_fc_post_vproof_free(&v);
    return 0;
}
