/* Real 2KiB PoRep proofs through the engine by both synthesis paths (slow: sixteen proofs),
 * each proof verified offline with the .vk and each job's path checked where the engine reports it (the
 * result, the TIMELINE's SYNTH_MODE line, /status):
 * - auto with a budget that holds the record: a non-interactive sector (13 partitions) is proved by record,
 *   the record is listed under "pce", and a following one-partition sector of the same circuit uses the
 *   resident record;
 * - direct and record configured: a one-partition sector each way.
 * Usage: test_engine_record_slow <cuzk tool> <params dir> (development parameters made when missing). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuzk/engine.h"
#include "cuzk/porep.h"
#include "engine/engine_internal.h"
#include "filecoin/porep/porep_keys.h"
#include "filecoin/porep/porep_prove.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/seal/seal.h"
#include "filecoin/vanilla/c1_json.h"
#include "test_util.h"

typedef struct {
    cuzk_fc_sealed_t sealed;
    cuzk_fc_c1_t c1;
    char *json;
    size_t len;
} sector_t;

static bool make_sector(sector_t *s, const char *proof_name)
{
    const cuzk_fc_seal_proof_t *p = NULL;
    uint8_t prover_id[32], ticket[32], seed[32], raw[2032];
    cuzk_err_t err = {{0}};
    memset(s, 0, sizeof *s);
    CHECK(cuzk_fc_seal_proof_parse(&p, proof_name, NULL) == CUZK_OK);
    cuzk_fc_prover_id_from_miner(prover_id, 1000);
    test_rand_bytes(ticket, 32);
    test_rand_bytes(seed, 32);
    test_rand_bytes(raw, sizeof raw);
    bool ok = p && cuzk_fc_seal_precommit(&s->sealed, p, prover_id, 7, ticket, raw, 1, &err) == CUZK_OK &&
              cuzk_fc_seal_commit1(&s->c1, &s->sealed, seed, &err) == CUZK_OK &&
              cuzk_fc_c1_json_write(&s->json, &s->len, &s->c1, &err) == CUZK_OK;
    CHECK_MSG(ok, "sealing a %s sector: %s", proof_name, err.msg);
    return ok;
}

static void free_sector(sector_t *s)
{
    cuzk_fc_c1_free(&s->c1);
    cuzk_fc_sealed_free(&s->sealed);
    free(s->json);
}

typedef struct {
    cuzk_engine_t *e;
    FILE *log;
    char *buf;
    size_t len;
} engine_t;

static bool start(engine_t *x, const char *params, uint64_t budget, cuzk_engine_synth_mode mode, int depth)
{
    memset(x, 0, sizeof *x);
    x->log = open_memstream(&x->buf, &x->len);
    cuzk_engine_config_t cfg;
    cuzk_engine_config_defaults(&cfg);
    cfg.param_cache = params;
    cfg.total_budget = budget;
    cfg.prover_threads = 2;
    cfg.synthesis_threads = 1;
    cfg.synthesis_mode = mode;
    cfg.pipeline_depth = depth;
    cfg.log = x->log;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_engine_new(&x->e, &cfg, &err) == CUZK_OK, "%s", err.msg);
    return x->e != NULL;
}

static void stop(engine_t *x)
{
    cuzk_engine_free(x->e);
    fclose(x->log);
    free(x->buf);
}

/* Proves s through the engine: the job completes by the expected path, reported as such in the result and
 * in its TIMELINE SYNTH_MODE line (which holds `why`), and its proofs verify offline. */
static void prove(engine_t *x, const char *id, const sector_t *s, const cuzk_groth16_vk_t *vk,
                  cuzk_engine_synth_mode want, const char *why)
{
    cuzk_job_request_t r = {.request_id = id, .kind = CUZK_KIND_POREP_SEAL_COMMIT,
                            .vanilla_proof = (const uint8_t *)s->json, .vanilla_proof_len = s->len,
                            .sector_number = 7, .miner_id = 1000, .has_sector_and_miner = true};
    char job[CUZK_JOB_ID_MAX];
    cuzk_err_t err = {{0}};
    cuzk_job_result_t res;
    CHECK_MSG(cuzk_engine_prove(x->e, &r, job, &res, NULL, NULL, NULL, &err) == CUZK_OK, "%s: %s", id, err.msg);
    CHECK_MSG(res.status == CUZK_JOB_COMPLETED, "%s: %d %s", id, (int)res.status, res.error);
    CHECK_MSG(res.synthesis_mode == want, "%s: synthesized %s, not %s", id,
              cuzk_engine_synth_mode_name(res.synthesis_mode), cuzk_engine_synth_mode_name(want));
    size_t n = 0;
    bool valid = false;
    cuzk_groth16_proof_t proofs[16];
    CHECK(cuzk_groth16_proofs_read(proofs, 16, &n, res.proof, res.proof_len, &err) == CUZK_OK &&
          n == s->c1.n_partitions);
    CHECK(cuzk_porep_verify_c1(&valid, &s->c1, vk, proofs, n, &err) == CUZK_OK && valid);
    CHECK_MSG(valid, "%s: the proof does not verify offline", id);
    printf("%s: %u partition(s) by %s, synthesis %llu ms, prove %llu ms\n", id, s->c1.n_partitions,
           cuzk_engine_synth_mode_name(res.synthesis_mode), (unsigned long long)res.synthesis_ms,
           (unsigned long long)res.prove_ms);
    cuzk_job_result_free(&res);
    fflush(x->log);
    char line[256];
    snprintf(line, sizeof line, ",SYNTH_MODE,%s,%s", id, cuzk_engine_synth_mode_name(want));
    const char *at = strstr(x->buf, line), *end = at ? strchr(at, '\n') : NULL;
    char found[600] = "";
    if (at && end)
        snprintf(found, sizeof found, "%.*s", (int)(end - at), at);
    CHECK_MSG(strstr(found, why), "%s: no %s line saying '%s' in\n%s", id, line, why, x->buf);
}

/* The resident records /status lists under "pce". */
static size_t pce_entries(engine_t *x)
{
    char *json = cuzk_engine_status_json(x->e);
    json_t *doc = json ? json_loads(json, 0, NULL) : NULL;
    size_t n = json_array_size(json_object_get(json_object_get(doc, "allocations"), "pce"));
    json_decref(doc);
    free(json);
    return n;
}

int main(int argc, char **argv)
{
    test_init("test_engine_record_slow");
    if (argc != 3 || !getenv("CUZK_TEST_SLOW")) {
        printf("test_engine_record_slow: skipped (slow suite: make test-slow)\n");
        return 77;
    }
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' params generate --kind porep --sector-size 2KiB --out '%s' >/dev/null", argv[1],
             argv[2]);
    CHECK_MSG(system(cmd) == 0, "%s", cmd);
    const cuzk_fc_seal_proof_t *proof = NULL;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_fc_seal_proof_parse(&proof, "StackedDrg2KiBV1_1", NULL) == CUZK_OK);
    cuzk_porep_keys_t keys;
    CHECK_MSG(cuzk_porep_keys_open(&keys, argv[2], proof, false, 0, &err) == CUZK_OK, "%s", err.msg);

    sector_t ni, one;
    if (!make_sector(&ni, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep") || !make_sector(&one, "StackedDrg2KiBV1_1"))
        return test_finish();
    CHECK(ni.c1.n_partitions == 13 && one.c1.n_partitions == 1);

    engine_t x;
    if (start(&x, argv[2], 8ull << 30, CUZK_ENGINE_SYNTH_AUTO, 1)) {
        CHECK(pce_entries(&x) == 0);
        prove(&x, "auto-ni", &ni, &keys.vk, CUZK_ENGINE_SYNTH_RECORD, "fits beside");
        CHECK(pce_entries(&x) == 1);
        prove(&x, "auto-resident", &one, &keys.vk, CUZK_ENGINE_SYNTH_RECORD, "resident");
        stop(&x);
    }
    /* auto with a budget too small for the record beside the partitions is the fast test's case
     * (test_engine_record.c: the choice from the budget's figures, and the cache's refusal keeping
     * nothing): a second 13-partition run here would double this test's time for the same wiring */
    if (start(&x, argv[2], 8ull << 30, CUZK_ENGINE_SYNTH_DIRECT, 1)) {
        prove(&x, "direct", &one, &keys.vk, CUZK_ENGINE_SYNTH_DIRECT, "configured");
        stop(&x);
    }
    if (start(&x, argv[2], 8ull << 30, CUZK_ENGINE_SYNTH_RECORD, 1)) {
        prove(&x, "record", &one, &keys.vk, CUZK_ENGINE_SYNTH_RECORD, "configured");
        stop(&x);
    }
    free_sector(&ni);
    free_sector(&one);
    cuzk_porep_keys_close(&keys);
    return test_finish();
}
