/* PoSt fixtures of the engine tests (post_fixture.h). */
#define _GNU_SOURCE /* nftw */
#include "post_fixture.h"

#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/porep.h"
#include "cuzk/seal.h"
#include "test_util.h"

static char fx_root[256]; /* the temporary directory of the run */

static int fx_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

bool fx_init(void)
{
    snprintf(fx_root, sizeof fx_root, "/tmp/cuzk-engine-post-XXXXXX");
    CHECK_MSG(mkdtemp(fx_root) != NULL, "mkdtemp %s", fx_root);
    return fx_root[0] != 0;
}

void fx_cleanup(void) { nftw(fx_root, fx_rm, 16, FTW_DEPTH | FTW_PHYS); }

bool fx_sector(char dir[512], uint64_t sector_num)
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

uint8_t *fx_vanilla(size_t *len, const char *dir, uint64_t post_proof, const uint8_t rnd[32], uint64_t index)
{
    uint8_t *out = NULL;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_seal_post_vanilla(&out, len, dir, post_proof, rnd, index, &err);
    CHECK_MSG(st == CUZK_OK, "vanilla proof of %s: %s", dir, err.msg);
    return st == CUZK_OK ? out : NULL;
}

bool fx_params(const char *tool, const char *dir, const char *kind)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' params generate --kind %s --sector-size 2KiB --out '%s' >/dev/null", tool, kind,
             dir);
    int rc = system(cmd);
    CHECK_MSG(rc == 0, "%s: exit %d", cmd, rc);
    return rc == 0;
}

bool fx_start(fx_engine_t *x, const char *name, const char *params, void (*tune)(cuzk_engine_config_t *))
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

void fx_stop(fx_engine_t *x)
{
    cuzk_engine_free(x->e);
    if (x->log)
        fclose(x->log);
    x->e = NULL;
    x->log = NULL;
}

char *fx_log(const fx_engine_t *x)
{
    size_t len = 0;
    char *text = test_read_file(x->log_path, &len);
    return text ? text : calloc(1, 1);
}

void fx_request(fx_request_t *q, const char *id, cuzk_proof_kind kind, uint64_t proof, const uint8_t rnd[32],
                       uint8_t *const *vanilla, const size_t *lens, size_t n)
{
    memset(q, 0, sizeof *q);
    for (size_t i = 0; i < n && i < 4; i++)
        q->v[i] = (cuzk_job_bytes_t){vanilla[i], lens[i]};
    q->r = (cuzk_job_request_t){.request_id = id, .kind = kind, .registered_proof = proof, .miner_id = FX_MINER,
                                .vanilla_proofs = q->v, .n_vanilla_proofs = n, .randomness = rnd,
                                .randomness_len = 32};
}

cuzk_status fx_submit(cuzk_engine_t *e, const fx_request_t *q, cuzk_err_t *err)
{
    char job[CUZK_JOB_ID_MAX];
    uint32_t pos;
    return cuzk_engine_submit(e, &q->r, job, &pos, err);
}

bool fx_verify(const char *params, const fx_request_t *q, const uint8_t *proof, size_t len)
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

bool fx_wait_full(cuzk_engine_t *e, char (*ids)[16], int n, int seconds)
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

bool fx_priority_check(const fx_engine_t *x, const char *crit, const char *others, int round)
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

