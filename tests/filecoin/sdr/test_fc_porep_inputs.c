/* PoRep partition public inputs: all 39 inputs of polka-storage's real 2KiB proof (pallets/proofs; the
 * list in tests/vectors/filecoin verified that Groth16 proof under its verifying key), the shape of every
 * kind, and bad input. */
#include <stdlib.h>
#include <string.h>
#include "ff/fr.h"
#include "filecoin/fc_vectors.h"
#include "filecoin/sdr/porep_inputs.h"
#include "test_util.h"

/* The "## PoRep" section of the polka file: 39 lines "<64 hex LE> <decimal>". */
static int read_polka_porep(uint8_t inputs[39][32])
{
    char *text = test_read_file(FC_VECTORS "polka-storage-2KiB-public-inputs.txt", NULL);
    if (!text)
        return 0;
    char *s = strstr(text, "## PoRep");
    int n = 0;
    for (char *line = s ? strchr(s, '\n') : NULL; line && n < 39; line = strchr(line, '\n')) {
        line++;
        if (*line == '#' || !*line)
            break;
        if (!fc_hex32_at(inputs[n], line))
            break;
        n++;
    }
    free(text);
    return n == 39;
}

static void test_polka(void)
{
    uint8_t want[39][32];
    CHECK_MSG(read_polka_porep(want), "cannot read the polka-storage PoRep inputs");
    const cuzk_fc_seal_proof_t *p = NULL;
    CHECK(cuzk_fc_seal_proof_parse(&p, "StackedDrg2KiBV1_1", NULL) == CUZK_OK);
    cuzk_fc_porep_config_t cfg;
    cuzk_fc_porep_config_from_proof(&cfg, p);
    CHECK(cfg.porep_id[0] == 5);
    memset(cfg.porep_id, 0, 32); /* polka-storage maps this proof to porep id 0, keeping the V1_1 order */
    CHECK(cuzk_fc_porep_public_input_count(&cfg) == 39);

    uint8_t prover[32] = {0}, ticket[32], seed[32], rid[32];
    memset(ticket, 12, 32), memset(seed, 13, 32);
    const uint8_t *comm_d = want[1], *comm_r = want[2];
    cuzk_fc_replica_id(rid, prover, 77, ticket, comm_d, cfg.porep_id);
    CHECK(memcmp(rid, want[0], 32) == 0);

    cuzk_fr_t in[39];
    cuzk_err_t err;
    CHECK(cuzk_fc_porep_public_inputs(in, 39, &cfg, rid, comm_d, comm_r, seed, 0, &err) == CUZK_OK);
    int same = 0;
    for (int i = 0; i < 39; i++) {
        uint8_t b[32];
        fr_to_bytes_le(b, &in[i]);
        int eq = memcmp(b, want[i], 32) == 0;
        CHECK_MSG(eq, "input %d differs", i);
        same += eq;
    }
    printf("polka-storage 2KiB PoRep: %d of 39 public inputs equal\n", same);

    /* With the registered id 5 the parents change: the id matters. */
    cuzk_fc_porep_config_from_proof(&cfg, p);
    CHECK(cuzk_fc_porep_public_inputs(in, 39, &cfg, rid, comm_d, comm_r, seed, 0, NULL) == CUZK_OK);
    int differ = 0;
    for (int i = 3; i < 39; i++) {
        uint8_t b[32];
        fr_to_bytes_le(b, &in[i]);
        differ += memcmp(b, want[i], 32) != 0;
    }
    CHECK(differ > 0);
}

static void test_kinds(void)
{
    uint8_t rid[32], comm_d[32], comm_r[32], seed[32];
    test_rand_bytes(rid, 32), test_rand_bytes(comm_d, 32);
    test_rand_bytes(comm_r, 32), test_rand_bytes(seed, 32);
    rid[31] &= 0x3f, comm_d[31] &= 0x3f, comm_r[31] &= 0x3f;
    /* A synthetic and a non-interactive 2KiB partition, and the last NI partition of 32GiB (parents of
     * a 2^30-node graph on demand). */
    static const uint32_t ids[3] = {10, 15, 18};
    for (int t = 0; t < 3; t++) {
        const cuzk_fc_seal_proof_t *p = NULL;
        CHECK(cuzk_fc_seal_proof_by_id(&p, ids[t], NULL) == CUZK_OK);
        cuzk_fc_porep_config_t cfg;
        cuzk_fc_porep_config_from_proof(&cfg, p);
        size_t n = cuzk_fc_porep_public_input_count(&cfg);
        CHECK(n == 3 + 18 * (size_t)p->challenges_per_partition);
        cuzk_fr_t *in = malloc(n * sizeof *in);
        uint32_t k = p->partitions - 1;
        CHECK(cuzk_fc_porep_public_inputs(in, n, &cfg, rid, comm_d, comm_r, seed, k, NULL) == CUZK_OK);
        uint64_t ch[18];
        CHECK(cuzk_fc_porep_challenges(ch, &cfg, rid, comm_r, seed, k, NULL) == CUZK_OK);
        int ok = 1;
        for (uint32_t i = 0; i < p->challenges_per_partition; i++) {
            cuzk_fr_t c;
            fr_from_u64(&c, ch[i]);
            const cuzk_fr_t *blk = in + 3 + 18 * i;
            ok &= ch[i] >= 1 && ch[i] < p->nodes;
            ok &= fr_eq(&blk[0], &c) && fr_eq(&blk[15], &c) && fr_eq(&blk[16], &c) && fr_eq(&blk[17], &c);
        }
        CHECK_MSG(ok, "%s: challenge slots", p->name);
        free(in);
    }
}

static void test_bad_input(void)
{
    const cuzk_fc_seal_proof_t *p = NULL;
    CHECK(cuzk_fc_seal_proof_by_id(&p, 5, NULL) == CUZK_OK);
    cuzk_fc_porep_config_t cfg;
    cuzk_fc_porep_config_from_proof(&cfg, p);
    uint8_t ok32[32] = {1}, bad[32];
    memset(bad, 0xff, 32);
    cuzk_fr_t in[39];
    cuzk_err_t err;
    CHECK(cuzk_fc_porep_public_inputs(in, 39, &cfg, ok32, ok32, ok32, ok32, 1, &err) ==
              CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "partition"));
    CHECK(cuzk_fc_porep_public_inputs(in, 38, &cfg, ok32, ok32, ok32, ok32, 0, &err) == CUZK_ERR_BAD_LENGTH);
    CHECK(cuzk_fc_porep_public_inputs(in, 39, &cfg, ok32, ok32, bad, ok32, 0, &err) ==
              CUZK_ERR_NOT_CANONICAL &&
          strstr(err.msg, "comm_r"));
    CHECK(cuzk_fc_porep_public_inputs(in, 39, &cfg, bad, ok32, ok32, ok32, 0, &err) ==
              CUZK_ERR_NOT_CANONICAL &&
          strstr(err.msg, "replica_id"));
    CHECK(cuzk_fc_porep_public_inputs(in, 39, &cfg, ok32, ok32, ok32, NULL, 0, &err) == CUZK_ERR_INVALID_ARG);
    cfg.challenges_per_partition = 19;
    uint64_t ch[19];
    CHECK(cuzk_fc_porep_challenges(ch, &cfg, ok32, ok32, ok32, 0, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_fc_porep_config_from_proof(&cfg, p);
    cfg.challenges = CUZK_FC_CHALLENGES_NON_INTERACTIVE;
    CHECK(cuzk_fc_porep_challenges(ch, &cfg, ok32, NULL, ok32, 0, &err) == CUZK_ERR_INVALID_ARG);
    cfg.nodes = 1;
    CHECK(cuzk_fc_porep_public_inputs(in, 39, &cfg, ok32, ok32, ok32, ok32, 0, &err) == CUZK_ERR_INVALID_ARG);
}

int main(void)
{
    test_init("test_fc_porep_inputs");
    test_polka();
    test_kinds();
    test_bad_input();
    return test_finish();
}
