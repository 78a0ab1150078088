/* Real 2KiB PoRep proofs through the engine (slow: a few proofs of 2^22-point MSMs): preload and
 * evict, jobs queued together finish in priority order, every proof verifies offline with the .vk,
 * timings are filled, a running job can be cancelled, parameters in use cannot be evicted, a wrong
 * miner id fails before proving, and the budget's peak stays within the total. Then a Winning PoSt
 * (CRITICAL) submitted into a queue of PoRep jobs while one PoRep partition is being proved and the
 * next is synthesized and waiting: in the TIMELINE no PoRep partition starts between its SUBMIT and
 * its PROVE_START, and its proof verifies.
 * Usage: test_engine_prove_slow <cuzk tool> <params dir> (development parameters made when missing). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "filecoin/vanilla/c1_json.h"
#include "filecoin/fc_seal_test.h"
#include "filecoin/porep/porep_keys.h"
#include "filecoin/porep/porep_prove.h"
#include "post_fixture.h"
#include "test_util.h"

typedef struct {
    cuzk_fc_sealed_t sealed;
    cuzk_fc_c1_t c1;
    char *json;
    size_t len;
} sector_t;

static bool make_sector(sector_t *s)
{
    cuzk_err_t err = {{0}};
    memset(s, 0, sizeof *s);
    return fc_test_seal_2kib(&s->sealed, &s->c1, NULL) &&
           cuzk_fc_c1_json_write(&s->json, &s->len, &s->c1, &err) == CUZK_OK;
}

static void free_sector(sector_t *s)
{
    cuzk_fc_c1_free(&s->c1);
    cuzk_fc_sealed_free(&s->sealed);
    free(s->json);
}

static void submit(cuzk_engine_t *e, const char *id, cuzk_priority p, const sector_t *s, uint64_t miner)
{
    cuzk_job_request_t r = {.request_id = id, .kind = CUZK_KIND_POREP_SEAL_COMMIT, .priority = p,
                            .sector_size = 2048, .vanilla_proof = (const uint8_t *)s->json,
                            .vanilla_proof_len = s->len, .sector_number = 7, .miner_id = miner,
                            .has_sector_and_miner = true};
    char job[CUZK_JOB_ID_MAX];
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_engine_submit(e, &r, job, NULL, &err) == CUZK_OK, "%s: %s", id, err.msg);
}

static bool verifies(const cuzk_groth16_vk_t *vk, const sector_t *s, const cuzk_job_result_t *r)
{
    cuzk_groth16_proof_t proof;
    size_t n = 0;
    bool valid = false;
    cuzk_err_t err = {{0}};
    return r->proof_len == CUZK_GROTH16_PROOF_BYTES &&
           cuzk_groth16_proofs_read(&proof, 1, &n, r->proof, r->proof_len, &err) == CUZK_OK &&
           cuzk_porep_verify_c1(&valid, &s->c1, vk, &proof, n, &err) == CUZK_OK && valid;
}

/* Waits until /status shows the job running (its C1 checked, its parameters acquired). */
static bool wait_running(cuzk_engine_t *e, const char *id, int seconds)
{
    for (int i = 0; i < seconds * 20; i++) {
        char *json = cuzk_engine_status_json(e);
        json_t *doc = json ? json_loads(json, 0, NULL) : NULL;
        json_t *p;
        size_t k;
        bool hit = false;
        json_array_foreach(json_object_get(doc, "pipelines"), k, p) hit =
            hit || (strcmp(json_string_value(json_object_get(p, "job_id")), id) == 0 &&
                    strcmp(json_string_value(json_object_get(p, "state")), "running") == 0);
        json_decref(doc);
        free(json);
        if (hit)
            return true;
        usleep(50000);
    }
    return false;
}

static void one_of_each(cuzk_engine_config_t *c)
{
    c->synthesis_workers = 1;
    c->prover_workers = 1;
    c->pipeline_depth = 1;
}

/* A Winning PoSt into a queue of PoRep jobs (each one partition at 2KiB). */
static void priority(const char *tool, const char *params, const sector_t *s)
{
    char dir[512];
    uint8_t rnd[32], *v = NULL;
    size_t len = 0;
    test_rand_fr_bytes(rnd);
    fx_engine_t x;
    if (!fx_init() || !fx_sector(dir, 21) || !(v = fx_vanilla(&len, dir, FX_WINNING_2K, rnd, 0)) ||
        !fx_params(tool, params, "winning-post") || !fx_start(&x, "porep-priority", params, one_of_each)) {
        free(v);
        fx_cleanup();
        return;
    }
    cuzk_err_t err = {{0}};
    bool already;
    uint64_t ms;
    CHECK(cuzk_engine_preload(x.e, "winning-2k", &already, &ms, &err) == CUZK_OK);
    char ids[4][16];
    for (int i = 0; i < 4; i++) {
        snprintf(ids[i], sizeof ids[i], "porep-%c", (char)('0' + i));
        submit(x.e, ids[i], CUZK_PRIORITY_NORMAL, &s[i % 3], 1000);
    }
    CHECK_MSG(fx_wait_full(x.e, ids, 4, 120), "the pipeline never showed a PoRep partition proving and one waiting");
    fx_request_t q;
    uint8_t *one[1] = {v};
    fx_request(&q, "winning", CUZK_KIND_WINNING_POST, FX_WINNING_2K, rnd, one, &len, 1);
    CHECK_MSG(fx_submit(x.e, &q, &err) == CUZK_OK, "%s", err.msg);
    cuzk_job_result_t r;
    cuzk_engine_await(x.e, "winning", 0, &r, NULL, NULL);
    CHECK_MSG(r.status == CUZK_JOB_COMPLETED, "%d %s", (int)r.status, r.error);
    if (r.status == CUZK_JOB_COMPLETED)
        CHECK(fx_verify(params, &q, r.proof, r.proof_len));
    cuzk_job_result_free(&r);
    for (int i = 0; i < 4; i++) {
        bool found, running;
        cuzk_engine_cancel(x.e, ids[i], &found, &running);
        cuzk_engine_await(x.e, ids[i], 0, &r, NULL, NULL);
        cuzk_job_result_free(&r);
    }
    fx_stop(&x);
    CHECK_MSG(fx_priority_check(&x, "winning", "porep-", 0), "no PoRep proof was running when the Winning job came");
    free(v);
    fx_cleanup();
}

int main(int argc, char **argv)
{
    test_init("test_engine_prove_slow");
    if (argc != 3 || !getenv("CUZK_TEST_SLOW")) {
        printf("test_engine_prove_slow: skipped (slow suite: make test-slow)\n");
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

    char *logbuf = NULL;
    size_t loglen = 0;
    FILE *log = open_memstream(&logbuf, &loglen);
    cuzk_engine_config_t cfg;
    cuzk_engine_config_defaults(&cfg);
    cfg.param_cache = argv[2];
    cfg.total_budget = 8ull << 30;
    cfg.prover_threads = 2;
    cfg.log = log;
    cuzk_engine_t *e = NULL;
    CHECK_MSG(cuzk_engine_new(&e, &cfg, &err) == CUZK_OK, "%s", err.msg);

    bool already, was;
    uint64_t ms, freed;
    CHECK_MSG(cuzk_engine_preload(e, "porep-2k", &already, &ms, &err) == CUZK_OK, "%s", err.msg);
    CHECK(!already);
    CHECK(cuzk_engine_preload(e, "porep-2k", &already, &ms, &err) == CUZK_OK && already && ms == 0);
    CHECK(cuzk_engine_evict(e, "porep-2k", &was, &freed, &err) == CUZK_OK && was && freed > (100u << 20));
    CHECK(cuzk_engine_preload(e, "porep-2k", &already, &ms, &err) == CUZK_OK && !already);

    sector_t s[3];
    for (int i = 0; i < 3; i++)
        CHECK(make_sector(&s[i]));
    /* queued together: HIGH, then NORMAL, then LOW, whatever the submission order */
    cuzk_engine_pause(e, true);
    submit(e, "low", CUZK_PRIORITY_LOW, &s[0], 1000);
    submit(e, "normal", CUZK_PRIORITY_NORMAL, &s[1], 1000);
    submit(e, "high", CUZK_PRIORITY_HIGH, &s[2], 1000);
    submit(e, "wrong-miner", CUZK_PRIORITY_CRITICAL, &s[0], 1001);
    cuzk_engine_pause(e, false);
    static const char *ids[] = {"low", "normal", "high"};
    for (int i = 0; i < 3; i++) {
        cuzk_job_result_t r;
        cuzk_engine_await(e, ids[i], 0, &r, NULL, NULL);
        CHECK_MSG(r.status == CUZK_JOB_COMPLETED, "%s: %d %s", ids[i], r.status, r.error);
        CHECK_MSG(verifies(&keys.vk, &s[i], &r), "%s: the proof does not verify offline", ids[i]);
        CHECK(r.synthesis_ms > 0 && r.prove_ms > 0 && r.total_ms >= r.prove_ms && r.srs_load_ms == 0);
        printf("%s: queue %llu ms, synthesis %llu ms, prove %llu ms, total %llu ms\n", ids[i],
               (unsigned long long)r.queue_wait_ms, (unsigned long long)r.synthesis_ms,
               (unsigned long long)r.prove_ms, (unsigned long long)r.total_ms);
        cuzk_job_result_free(&r);
    }
    cuzk_job_result_t r;
    cuzk_engine_await(e, "wrong-miner", 0, &r, NULL, NULL);
    CHECK_MSG(r.status == CUZK_JOB_FAILED && strstr(r.error, "replica_id"), "%s", r.error);
    fflush(log);
    const char *h = strstr(logbuf, ",COMPLETED,high,"), *n = strstr(logbuf, ",COMPLETED,normal,"),
               *l = strstr(logbuf, ",COMPLETED,low,");
    CHECK_MSG(h && n && l && h < n && n < l, "completion order is not high, normal, low");

    /* a running job: the parameters cannot be evicted under it, and it can be cancelled */
    submit(e, "to-cancel", CUZK_PRIORITY_NORMAL, &s[1], 1000);
    CHECK(wait_running(e, "to-cancel", 60));
    CHECK(cuzk_engine_evict(e, "porep-2k", &was, &freed, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "in use"));
    bool found, running;
    cuzk_engine_cancel(e, "to-cancel", &found, &running);
    CHECK(found && running);
    cuzk_engine_await(e, "to-cancel", 0, &r, NULL, NULL);
    CHECK_MSG(r.status == CUZK_JOB_CANCELLED, "%d %s", r.status, r.error);

    char *json = cuzk_engine_status_json(e);
    json_error_t jerr;
    json_t *doc = json ? json_loads(json, 0, &jerr) : NULL;
    json_t *mem = json_object_get(doc, "memory");
    json_int_t peak = json_integer_value(json_object_get(mem, "peak_bytes")),
               total = json_integer_value(json_object_get(mem, "total_bytes"));
    CHECK_MSG(peak > 0 && peak <= total, "peak %lld of %lld", (long long)peak, (long long)total);
    CHECK(json_integer_value(json_object_get(json_object_get(doc, "counters"), "total_completed")) == 3);
    json_decref(doc);
    free(json);

    cuzk_engine_free(e);
    fclose(log);
    free(logbuf);
    priority(argv[1], argv[2], s);
    for (int i = 0; i < 3; i++)
        free_sector(&s[i]);
    cuzk_porep_keys_close(&keys);
    return test_finish();
}
