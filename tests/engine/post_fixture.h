/* PoSt fixtures of the engine tests, through the public API only: real 2KiB sectors sealed into a
 * temporary directory and their Fallback PoSt vanilla proofs (made as filecoin-ffi makes them, from
 * the sector's files), 2KiB development parameters of a PoSt circuit (made when the directory lacks
 * them), an engine logging its TIMELINE to a file that the test reads while it runs, and the checks a
 * proof returned by the engine must pass: decoded, verified by cuzk_post_verify with the .vk read from
 * the directory, and refused once the request differs. Test-only, static. */
#ifndef CUZK_TESTS_ENGINE_POST_FIXTURE_H
#define CUZK_TESTS_ENGINE_POST_FIXTURE_H
#include <ftw.h> /* nftw: the including file defines _GNU_SOURCE first */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/file.h"
#include "cuzk/params.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/seal.h"
#include "test_util.h"

/* rust-filecoin-proofs-api src/registry.rs: RegisteredPoStProof StackedDrgWinning2KiBV1 = 0,
 * StackedDrgWindow2KiBV1_1 = 10; RegisteredSealProof StackedDrg2KiBV1_1 = 5. */
#define FX_WINNING_2K 0
#define FX_WINDOW_2K 10
#define FX_MINER 1000

static char fx_root[256]; /* the temporary directory of the run */

static int fx_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static bool fx_init(void)
{
    snprintf(fx_root, sizeof fx_root, "/tmp/cuzk-engine-post-XXXXXX");
    CHECK_MSG(mkdtemp(fx_root) != NULL, "mkdtemp %s", fx_root);
    return fx_root[0] != 0;
}

static void fx_cleanup(void) { nftw(fx_root, fx_rm, 16, FTW_DEPTH | FTW_PHYS); }

/* Seals a 2KiB sector with random data and ticket and keeps it in <root>/sector-<n>; dir gets the path. */
static bool fx_sector(char dir[512], uint64_t sector_num)
{
    cuzk_porep_registered_proof_t sp;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_porep_registered_proof_parse(&sp, "StackedDrg2KiBV1_1", &err) == CUZK_OK);
    uint8_t data[2032];
    test_rand_bytes(data, sizeof data);
    cuzk_seal_request_t req = {.proof_id = sp.id, .miner_id = FX_MINER, .sector_num = sector_num, .data = data,
                               .data_len = sizeof data, .threads = 1};
    test_rand_bytes(req.ticket, sizeof req.ticket);
    cuzk_sealed_sector_t *s = NULL;
    snprintf(dir, 512, "%s/sector-%llu", fx_root, (unsigned long long)sector_num);
    bool ok = cuzk_seal_precommit(&s, &req, &err) == CUZK_OK && cuzk_seal_write_sector(s, dir, &err) == CUZK_OK;
    CHECK_MSG(ok, "sealing sector %llu: %s", (unsigned long long)sector_num, err.msg);
    cuzk_seal_free(s);
    return ok;
}

/* The sector's vanilla proof for a PoSt proof, randomness and sector index (malloc'd, or NULL). */
static uint8_t *fx_vanilla(size_t *len, const char *dir, uint64_t post_proof, const uint8_t rnd[32], uint64_t index)
{
    uint8_t *out = NULL;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_seal_post_vanilla(&out, len, dir, post_proof, rnd, index, &err);
    CHECK_MSG(st == CUZK_OK, "vanilla proof of %s: %s", dir, err.msg);
    return st == CUZK_OK ? out : NULL;
}

/* Development parameters of a PoSt proof's circuit in dir: reused when they load and fit the circuit,
 * otherwise a fresh random setup written there (with the .cuzk-dev marker). */
static bool fx_params(const char *dir, uint64_t proof_id)
{
    cuzk_err_t err = {{0}};
    cuzk_post_config_t cfg;
    CHECK(cuzk_post_config_for_proof(&cfg, proof_id, &err) == CUZK_OK);
    cuzk_post_keys_t *keys = NULL;
    if (cuzk_post_keys_load(&keys, dir, proof_id, true, 0, &err) == CUZK_OK &&
        cuzk_post_check_key(cuzk_post_keys_pk(keys), &cfg, &err) == CUZK_OK) {
        cuzk_post_keys_free(keys);
        return true;
    }
    cuzk_post_keys_free(keys);
    mkdir(dir, 0777);
    cuzk_post_params_paths_t pp;
    cuzk_groth16_pk_t pk;
    memset(&pk, 0, sizeof pk);
    static const char marker[] = "development parameters for the engine tests: random setup, NOT trusted\n";
    bool ok = cuzk_post_params_paths(&pp, dir, proof_id, &err) == CUZK_OK &&
              cuzk_post_dev_setup(&pk, &cfg, 0, &err) == CUZK_OK &&
              cuzk_params_write(pp.params, &pk, 0, &err) == CUZK_OK &&
              cuzk_params_vk_write(pp.vk, &pk.vk, &err) == CUZK_OK &&
              cuzk_atomic_write_file(pp.dev, marker, sizeof marker - 1, &err) == CUZK_OK;
    CHECK_MSG(ok, "development parameters of PoSt proof %llu: %s", (unsigned long long)proof_id, err.msg);
    cuzk_groth16_pk_free(&pk);
    return ok;
}

/* An engine whose log is <root>/<name>.log (read back with fx_log while it runs). */
typedef struct {
    cuzk_engine_t *e;
    FILE *log;
    char log_path[512];
} fx_engine_t;

static bool fx_start(fx_engine_t *x, const char *name, const char *params, void (*tune)(cuzk_engine_config_t *))
{
    memset(x, 0, sizeof *x);
    snprintf(x->log_path, sizeof x->log_path, "%s/%s.log", fx_root, name);
    x->log = fopen(x->log_path, "w");
    cuzk_engine_config_t cfg;
    cuzk_engine_config_defaults(&cfg);
    cfg.param_cache = params;
    cfg.total_budget = 4ull << 30;
    cfg.prover_threads = 2;
    cfg.synthesis_threads = 2;
    cfg.log = x->log;
    if (tune)
        tune(&cfg);
    cuzk_err_t err = {{0}};
    CHECK_MSG(x->log && cuzk_engine_new(&x->e, &cfg, &err) == CUZK_OK, "%s", err.msg);
    return x->e != NULL;
}

static void fx_stop(fx_engine_t *x)
{
    cuzk_engine_free(x->e);
    if (x->log)
        fclose(x->log);
    x->e = NULL;
    x->log = NULL;
}

/* The log so far (malloc'd). */
static char *fx_log(const fx_engine_t *x)
{
    size_t len = 0;
    char *text = test_read_file(x->log_path, &len);
    return text ? text : calloc(1, 1);
}

/* A PoSt request of the engine over vanilla proofs (the bytes stay the caller's). */
typedef struct {
    cuzk_job_bytes_t v[4];
    cuzk_job_request_t r;
} fx_request_t;

static void fx_request(fx_request_t *q, const char *id, cuzk_proof_kind kind, uint64_t proof, const uint8_t rnd[32],
                       uint8_t *const *vanilla, const size_t *lens, size_t n)
{
    memset(q, 0, sizeof *q);
    for (size_t i = 0; i < n && i < 4; i++)
        q->v[i] = (cuzk_job_bytes_t){vanilla[i], lens[i]};
    q->r = (cuzk_job_request_t){.request_id = id, .kind = kind, .registered_proof = proof, .miner_id = FX_MINER,
                                .vanilla_proofs = q->v, .n_vanilla_proofs = n, .randomness = rnd,
                                .randomness_len = 32};
}

static cuzk_status fx_submit(cuzk_engine_t *e, const fx_request_t *q, cuzk_err_t *err)
{
    char job[CUZK_JOB_ID_MAX];
    uint32_t pos;
    return cuzk_engine_submit(e, &q->r, job, &pos, err);
}

/* Whether proof (the engine's bytes) is a valid proof of the request, verified with the .vk of the
 * parameter directory, and no longer valid for other randomness (the check can fail). */
static bool fx_verify(const char *params, const fx_request_t *q, const uint8_t *proof, size_t len)
{
    cuzk_err_t err = {{0}};
    cuzk_post_vanilla_t *v[4] = {0};
    cuzk_post_keys_t *keys = NULL;
    cuzk_groth16_proof_t p;
    size_t n = 0;
    bool valid = false, other = true;
    cuzk_post_request_t req = {.proof_id = q->r.registered_proof, .miner_id = q->r.miner_id,
                               .partition_index = q->r.partition_index,
                               .vanilla = (const cuzk_post_vanilla_t *const *)v, .n_vanilla = q->r.n_vanilla_proofs};
    memcpy(req.randomness, q->r.randomness, 32);
    bool ok = len == CUZK_GROTH16_PROOF_BYTES && cuzk_groth16_proofs_read(&p, 1, &n, proof, len, &err) == CUZK_OK &&
              cuzk_post_keys_load(&keys, params, q->r.registered_proof, false, 0, &err) == CUZK_OK;
    for (size_t i = 0; ok && i < q->r.n_vanilla_proofs; i++)
        ok = cuzk_post_vanilla_parse(&v[i], q->v[i].data, q->v[i].len, &err) == CUZK_OK;
    ok = ok && cuzk_post_verify(&valid, &req, cuzk_post_keys_vk(keys), &p, &err) == CUZK_OK;
    CHECK_MSG(ok && valid, "%s: the engine's proof does not verify (%s)", q->r.request_id, err.msg);
    if (ok && valid) { /* the same proof under other randomness: its public inputs differ */
        test_rand_fr_bytes(req.randomness);
        CHECK(cuzk_post_verify(&other, &req, cuzk_post_keys_vk(keys), &p, &err) == CUZK_OK);
        CHECK_MSG(!other, "%s: the proof also verifies for other randomness", q->r.request_id);
    }
    for (size_t i = 0; i < 4; i++)
        cuzk_post_vanilla_free(v[i]);
    cuzk_post_keys_free(keys);
    return ok && valid && !other;
}

/* ---- priority: the TIMELINE of a CRITICAL job submitted into a full pipeline ---- */

/* The state of job id's first partition in /status ("" when it is not running). */
static void fx_part_state(cuzk_engine_t *e, const char *id, char out[32])
{
    out[0] = 0;
    char *json = cuzk_engine_status_json(e);
    json_t *doc = json ? json_loads(json, 0, NULL) : NULL, *p;
    size_t k;
    json_array_foreach(json_object_get(doc, "pipelines"), k, p)
    {
        if (strcmp(json_string_value(json_object_get(p, "job_id")), id) != 0)
            continue;
        json_t *part = json_array_get(json_object_get(p, "partitions"), 0);
        const char *st = json_string_value(json_object_get(part, "state"));
        snprintf(out, 32, "%s", st ? st : "");
    }
    json_decref(doc);
    free(json);
}

/* Waits (up to seconds) until one of the n jobs ids[] is being proved ("gpu") and the next one is
 * synthesized and waiting for the prover ("synth_done"): a pipeline of depth 1 is full. */
static bool fx_wait_full(cuzk_engine_t *e, char (*ids)[16], int n, int seconds)
{
    for (int t = 0; t < seconds * 500; t++) {
        for (int i = 0; i + 1 < n; i++) {
            char a[32], b[32];
            fx_part_state(e, ids[i], a);
            fx_part_state(e, ids[i + 1], b);
            if (strcmp(a, "gpu") == 0 && strcmp(b, "synth_done") == 0)
                return true;
        }
        usleep(2000);
    }
    return false;
}

/* Whether the TIMELINE line at line is event for a job whose id starts with job_prefix. */
static bool fx_line_is(const char *line, const char *event, const char *job_prefix)
{
    char want[96];
    snprintf(want, sizeof want, ",%s,%s", event, job_prefix);
    size_t n = strcspn(line, "\n");
    const char *hit = strstr(line, want);
    return hit && hit < line + n;
}

/* The engine's TIMELINE (the engine stopped) against the rule: no partition of the other jobs (ids
 * starting with others) starts, synthesis or proof, between the SUBMIT and the PROVE_START of job crit.
 * Returns whether one of theirs was being proved when crit came (the check was not vacuous); prints the
 * lines from crit's submission to its result then. */
static bool fx_priority_check(const fx_engine_t *x, const char *crit, const char *others, int round)
{
    char *log = fx_log(x), key[96];
    snprintf(key, sizeof key, ",SUBMIT,%s,", crit);
    const char *submit = strstr(log, key);
    snprintf(key, sizeof key, ",PROVE_START,%s,", crit);
    const char *prove = submit ? strstr(submit, key) : NULL;
    CHECK_MSG(submit && prove, "no SUBMIT / PROVE_START of %s:\n%s", crit, log);
    bool caught = false;
    int started = 0;
    for (const char *l = log; submit && prove && *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
        if (l > submit && l < prove && (fx_line_is(l, "SYNTH_START", others) || fx_line_is(l, "PROVE_START", others)))
            started++;
        if (l < submit && fx_line_is(l, "PROVE_START", others)) { /* still being proved at the submission? */
            char job[64], end[96];
            if (sscanf(strstr(l, ",PROVE_START,") + 13, "%63[^,]", job) == 1) {
                snprintf(end, sizeof end, ",PROVE_END,%s,", job);
                const char *e = strstr(l, end);
                caught = !e || e > submit;
            }
        }
    }
    CHECK_MSG(started == 0, "%d partition(s) of %s* started between %s's SUBMIT and PROVE_START:\n%s", started,
              others, crit, log);
    snprintf(key, sizeof key, ",COMPLETED,%s,", crit);
    const char *done = prove ? strstr(prove, key) : NULL;
    if (submit && done && caught) {
        const char *from = submit, *to = strchr(done, '\n');
        while (from > log && from[-1] != '\n')
            from--;
        printf("  round %d:\n%.*s", round, (int)(to ? to - from + 1 : (long)strlen(from)), from);
    }
    free(log);
    return caught;
}

#endif
