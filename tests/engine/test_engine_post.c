/* Winning and Window PoSt through the engine, on real 2KiB sectors sealed here (their vanilla proofs made
 * from the sectors' files) and 2KiB development parameters (`cuzk params generate` when the directory
 * lacks them):
 * - submission refuses what needs no parsing (registered proof of the wrong kind or no PoSt proof at all,
 *   sector size, randomness length, vanilla count, empty vanilla, Winning's partition index, fields of
 *   the other kind) with CUZK_ERR_INVALID_ARG naming the field, and queues nothing;
 * - activation fails the job with the reason and returns nothing for a truncated bincode, a path that
 *   does not check, randomness the vanilla proofs were not made for and randomness that is not a field
 *   element;
 * - preload / evict of winning-2k and wpost-2k (charged to the budget, listed in the status);
 * - Winning and Window (2 sectors, and 1 sector padded) proofs complete, and each verifies with
 *   cuzk_post_verify and the .vk read from the directory, and not under other randomness;
 * - a CRITICAL Winning job submitted while LOW jobs (Window PoSt, the cheaper proof) fill the pipeline
 *   (one being proved, one synthesized and waiting) waits for the partition being proved only: no LOW
 *   partition starts (synthesis or proof) between its SUBMIT and its PROVE_START in the TIMELINE.
 * Usage: test_engine_post <cuzk tool> <params dir>. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "post_fixture.h"
#include "test_util.h"

static const char *params_dir;
static char sector_a[512], sector_b[512];
static uint8_t rnd[32];
static uint8_t *win_v; /* Winning 2KiB vanilla of sector A for rnd (sector index 0) */
static size_t win_len;
static uint8_t *wnd_v[2]; /* Window 2KiB (V1_1) vanilla of sectors A and B for rnd */
static size_t wnd_len[2];

static void await_result(cuzk_engine_t *e, const char *id, cuzk_job_result_t *r)
{
    cuzk_engine_await(e, id, 0, r, NULL, NULL); /* the test's own timeout (CTest) bounds it */
}

/* Refused at submission: INVALID_ARG with the field named, nothing queued. */
static void test_submit_checks(void)
{
    fx_engine_t x;
    if (!fx_start(&x, "submit", "/nonexistent-params", NULL))
        return;
    cuzk_engine_pause(x.e, true);
    uint8_t *one[1] = {win_v}, *two[2] = {wnd_v[0], wnd_v[1]}, *three[3] = {wnd_v[0], wnd_v[1], wnd_v[0]};
    size_t l1[1] = {win_len}, l2[2] = {wnd_len[0], wnd_len[1]}, l3[3] = {wnd_len[0], wnd_len[1], wnd_len[0]};
    static const uint8_t empty[1];
    struct {
        const char *what, *needle;
        fx_request_t q;
    } cases[16];
    size_t n = 0;
#define CASE(w, nd) (cases[n].what = (w), cases[n].needle = (nd), &cases[n++].q)
    fx_request_t *q;
    q = CASE("a Window number for a Winning job", "is a Window PoSt proof");
    fx_request(q, "c1", CUZK_KIND_WINNING_POST, FX_WINDOW_2K, rnd, one, l1, 1);
    q = CASE("a Winning number for a Window job", "is a Winning PoSt proof");
    fx_request(q, "c2", CUZK_KIND_WINDOW_POST_PARTITION, FX_WINNING_2K, rnd, two, l2, 2);
    /* seal proof 18 (a NI-PoRep 32GiB) is no PoSt proof at all */
    q = CASE("a seal proof number", "not a registered PoSt proof");
    fx_request(q, "c3", CUZK_KIND_WINNING_POST, 18, rnd, one, l1, 1);
    q = CASE("31 bytes of randomness", "randomness is 31 bytes");
    fx_request(q, "c4", CUZK_KIND_WINNING_POST, FX_WINNING_2K, rnd, one, l1, 1);
    q->r.randomness_len = 31;
    q = CASE("no randomness", "randomness is 0 bytes");
    fx_request(q, "c5", CUZK_KIND_WINDOW_POST_PARTITION, FX_WINDOW_2K, NULL, two, l2, 2);
    q = CASE("two sectors for a Winning PoSt", "takes exactly 1");
    fx_request(q, "c6", CUZK_KIND_WINNING_POST, FX_WINNING_2K, rnd, two, l2, 2);
    q = CASE("three sectors for a 2KiB Window partition", "takes 1 to 2");
    fx_request(q, "c7", CUZK_KIND_WINDOW_POST_PARTITION, FX_WINDOW_2K, rnd, three, l3, 3);
    q = CASE("no vanilla proof", "0 vanilla_proofs");
    fx_request(q, "c8", CUZK_KIND_WINDOW_POST_PARTITION, FX_WINDOW_2K, rnd, NULL, NULL, 0);
    q = CASE("an empty vanilla proof", "vanilla_proofs[1] is empty");
    fx_request(q, "c9", CUZK_KIND_WINDOW_POST_PARTITION, FX_WINDOW_2K, rnd, two, l2, 2);
    q->v[1] = (cuzk_job_bytes_t){empty, 0};
    q = CASE("another sector size", "sector_size 4096");
    fx_request(q, "c10", CUZK_KIND_WINNING_POST, FX_WINNING_2K, rnd, one, l1, 1);
    q->r.sector_size = 4096;
    q = CASE("a Winning partition index", "partition_index 1");
    fx_request(q, "c11", CUZK_KIND_WINNING_POST, FX_WINNING_2K, rnd, one, l1, 1);
    q->r.partition_index = 1;
    q = CASE("a C1 in a PoSt request", "vanilla_proof is the PoRep C1");
    fx_request(q, "c12", CUZK_KIND_WINNING_POST, FX_WINNING_2K, rnd, one, l1, 1);
    q->r.vanilla_proof = (const uint8_t *)"{}";
    q->r.vanilla_proof_len = 2;
    q = CASE("PoSt fields in a PoRep request", "vanilla_proofs is a PoSt field");
    fx_request(q, "c13", CUZK_KIND_POREP_SEAL_COMMIT, 0, rnd, one, l1, 1);
    q->r.vanilla_proof = (const uint8_t *)"{}";
    q->r.vanilla_proof_len = 2;
#undef CASE
    for (size_t i = 0; i < n; i++) {
        cuzk_err_t err = {{0}};
        cuzk_status st = fx_submit(x.e, &cases[i].q, &err);
        CHECK_MSG(st == CUZK_ERR_INVALID_ARG && strstr(err.msg, cases[i].needle), "%s: status %d, '%s'",
                  cases[i].what, (int)st, err.msg);
    }
    cuzk_engine_status_t s;
    cuzk_engine_status(x.e, &s);
    CHECK(s.pending_by_kind[CUZK_KIND_WINNING_POST] == 0 && s.pending_by_kind[CUZK_KIND_WINDOW_POST_PARTITION] == 0);
    /* the well-formed ones are queued with their kind's default priority */
    fx_request_t ok;
    cuzk_err_t err = {{0}};
    fx_request(&ok, "win", CUZK_KIND_WINNING_POST, FX_WINNING_2K, rnd, one, l1, 1);
    CHECK(fx_submit(x.e, &ok, &err) == CUZK_OK);
    fx_request(&ok, "wnd", CUZK_KIND_WINDOW_POST_PARTITION, FX_WINDOW_2K, rnd, two, l2, 2);
    CHECK(fx_submit(x.e, &ok, &err) == CUZK_OK);
    cuzk_engine_status(x.e, &s);
    CHECK(s.pending_by_kind[CUZK_KIND_WINNING_POST] == 1 && s.pending_by_kind[CUZK_KIND_WINDOW_POST_PARTITION] == 1);
    char *log = fx_log(&x);
    CHECK_MSG(strstr(log, ",SUBMIT,win,winning_post priority 4 ") && strstr(log, ",SUBMIT,wnd,window_post priority 3 "),
              "default priorities:\n%s", log);
    free(log);
    fx_stop(&x);
}

/* Fails when it starts, with the reason: nothing comes back. */
static void test_activation_failures(void)
{
    fx_engine_t x;
    if (!fx_start(&x, "activation", params_dir, NULL))
        return;
    uint8_t *trunc = malloc(win_len), *tampered = malloc(win_len);
    memcpy(trunc, win_v, win_len);
    memcpy(tampered, win_v, win_len);
    tampered[win_len / 2] ^= 1; /* inside a path: a sibling hash changes */
    uint8_t other[32], ff[32];
    test_rand_fr_bytes(other);
    memset(ff, 0xff, sizeof ff);
    struct {
        const char *id, *needle;
        uint8_t *v;
        size_t len;
        const uint8_t *rnd;
    } cases[] = {
        {"truncated", "vanilla_proofs[0]", trunc, win_len - 1, rnd},
        {"tampered-path", "sector", tampered, win_len, rnd},
        {"other-randomness", "challenge", win_v, win_len, other},
        {"randomness-not-fr", "randomness", win_v, win_len, ff},
    };
    size_t n = sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < n; i++) {
        fx_request_t q;
        cuzk_err_t err = {{0}};
        fx_request(&q, cases[i].id, CUZK_KIND_WINNING_POST, FX_WINNING_2K, cases[i].rnd, &cases[i].v, &cases[i].len,
                   1);
        CHECK_MSG(fx_submit(x.e, &q, &err) == CUZK_OK, "%s: %s", cases[i].id, err.msg);
    }
    for (size_t i = 0; i < n; i++) {
        cuzk_job_result_t r;
        await_result(x.e, cases[i].id, &r);
        CHECK_MSG(r.status == CUZK_JOB_FAILED && strstr(r.error, cases[i].needle) && !r.proof && !r.proof_len,
                  "%s: status %d, '%s'", cases[i].id, (int)r.status, r.error);
        printf("  %s: %s\n", cases[i].id, r.error);
        cuzk_job_result_free(&r);
    }
    cuzk_engine_status_t s;
    cuzk_engine_status(x.e, &s);
    CHECK(s.failed_by_kind[CUZK_KIND_WINNING_POST] == n && s.completed == 0);
    free(trunc);
    free(tampered);
    fx_stop(&x);
}

static bool srs_listed(cuzk_engine_t *e, const char *id, uint64_t *bytes)
{
    cuzk_engine_status_t s;
    cuzk_engine_status(e, &s);
    for (size_t i = 0; i < s.n_srs; i++)
        if (strcmp(s.srs[i].circuit_id, id) == 0) {
            if (bytes)
                *bytes = s.srs[i].size_bytes;
            return true;
        }
    return false;
}

static void test_proofs(void)
{
    fx_engine_t x;
    if (!fx_start(&x, "proofs", params_dir, NULL))
        return;
    cuzk_err_t err = {{0}};
    bool already, was;
    uint64_t ms, freed, listed = 0, used0, used1;
    cuzk_engine_status_t s;
    cuzk_engine_status(x.e, &s);
    used0 = s.budget_used;
    CHECK_MSG(cuzk_engine_preload(x.e, "winning-2k", &already, &ms, &err) == CUZK_OK && !already, "%s", err.msg);
    CHECK(cuzk_engine_preload(x.e, "winning-2k", &already, &ms, &err) == CUZK_OK && already && ms == 0);
    CHECK(srs_listed(x.e, "winning-2k", &listed) && listed > 0);
    cuzk_engine_status(x.e, &s);
    used1 = s.budget_used;
    CHECK_MSG(used1 - used0 == listed, "the budget charged %llu bytes for %llu bytes of parameters",
              (unsigned long long)(used1 - used0), (unsigned long long)listed);
    CHECK(cuzk_engine_evict(x.e, "winning-2k", &was, &freed, &err) == CUZK_OK && was && freed == listed);
    CHECK(!srs_listed(x.e, "winning-2k", NULL));
    CHECK_MSG(cuzk_engine_preload(x.e, "wpost-2k", &already, &ms, &err) == CUZK_OK && !already, "%s", err.msg);

    fx_request_t win, wnd2, wnd1;
    uint8_t *one[1] = {win_v}, *two[2] = {wnd_v[0], wnd_v[1]};
    size_t l1[1] = {win_len}, l2[2] = {wnd_len[0], wnd_len[1]}, lw1[1] = {wnd_len[0]};
    fx_request(&win, "winning", CUZK_KIND_WINNING_POST, FX_WINNING_2K, rnd, one, l1, 1);
    win.r.sector_size = 2048;
    fx_request(&wnd2, "window-2", CUZK_KIND_WINDOW_POST_PARTITION, FX_WINDOW_2K, rnd, two, l2, 2);
    fx_request(&wnd1, "window-1", CUZK_KIND_WINDOW_POST_PARTITION, FX_WINDOW_2K, rnd, two, lw1, 1);
    fx_request_t *all[] = {&win, &wnd2, &wnd1};
    for (int i = 0; i < 3; i++)
        CHECK_MSG(fx_submit(x.e, all[i], &err) == CUZK_OK, "%s: %s", all[i]->r.request_id, err.msg);
    for (int i = 0; i < 3; i++) {
        cuzk_job_result_t r;
        await_result(x.e, all[i]->r.request_id, &r);
        CHECK_MSG(r.status == CUZK_JOB_COMPLETED, "%s: %d %s", all[i]->r.request_id, (int)r.status, r.error);
        if (r.status == CUZK_JOB_COMPLETED)
            CHECK(fx_verify(params_dir, all[i], r.proof, r.proof_len));
        CHECK(r.synthesis_ms + r.prove_ms <= r.total_ms + 2);
        printf("  %s: queue %llu ms, srs %llu ms, synthesis %llu ms, prove %llu ms, total %llu ms\n",
               all[i]->r.request_id, (unsigned long long)r.queue_wait_ms, (unsigned long long)r.srs_load_ms,
               (unsigned long long)r.synthesis_ms, (unsigned long long)r.prove_ms, (unsigned long long)r.total_ms);
        cuzk_job_result_free(&r);
    }
    cuzk_engine_status(x.e, &s);
    CHECK(s.completed_by_kind[CUZK_KIND_WINNING_POST] == 1 &&
          s.completed_by_kind[CUZK_KIND_WINDOW_POST_PARTITION] == 2);
    CHECK(srs_listed(x.e, "winning-2k", NULL) && srs_listed(x.e, "wpost-2k", NULL));
    char *m = cuzk_engine_metrics_text(x.e);
    CHECK(m && strstr(m, "cuzk_proofs_completed{proof_kind=\"winning_post\"} 1\n") &&
          strstr(m, "cuzk_proofs_completed{proof_kind=\"window_post\"} 2\n"));
    free(m);
    fx_stop(&x);
}

/* ---- scheduling ---- */

static void one_of_each(cuzk_engine_config_t *c)
{
    c->synthesis_workers = 1;
    c->prover_workers = 1;
    c->pipeline_depth = 1;
    c->prover_threads = 1; /* slower proofs: the moment the pipeline is full lasts */
    c->synthesis_threads = 1;
}

#define NFILL 4

/* Fillers of priority LOW (two-sector Window PoSt jobs) keep one worker of each kind busy; the CRITICAL
 * Winning job (its parameters resident, as the fillers' are) is submitted when filler k is being proved
 * and filler k+1 is synthesized and waiting. Returns whether the moment was caught (filler k's proof
 * still running at the submission: the check is not vacuous). */
static bool priority_round(int round)
{
    fx_engine_t x;
    char name[32];
    snprintf(name, sizeof name, "priority-%d", round);
    if (!fx_start(&x, name, params_dir, one_of_each))
        return true;
    uint8_t *one[1] = {win_v}, *two[2] = {wnd_v[0], wnd_v[1]};
    size_t l1[1] = {win_len}, l2[2] = {wnd_len[0], wnd_len[1]};
    char ids[NFILL][16];
    cuzk_err_t err = {{0}};
    bool already;
    uint64_t ms;
    CHECK_MSG(cuzk_engine_preload(x.e, "winning-2k", &already, &ms, &err) == CUZK_OK, "%s", err.msg);
    for (int i = 0; i < NFILL; i++) {
        fx_request_t q;
        snprintf(ids[i], sizeof ids[i], "low-%d", i);
        fx_request(&q, ids[i], CUZK_KIND_WINDOW_POST_PARTITION, FX_WINDOW_2K, rnd, two, l2, 2);
        q.r.priority = CUZK_PRIORITY_LOW;
        CHECK(fx_submit(x.e, &q, &err) == CUZK_OK);
    }
    /* wait for: some filler proving, the next one synthesized and waiting */
    CHECK_MSG(fx_wait_full(x.e, ids, NFILL, 12), "the pipeline never showed a LOW partition proving and one waiting");
    fx_request_t crit;
    fx_request(&crit, "critical", CUZK_KIND_WINNING_POST, FX_WINNING_2K, rnd, one, l1, 1);
    CHECK(fx_submit(x.e, &crit, &err) == CUZK_OK);
    cuzk_job_result_t r;
    await_result(x.e, "critical", &r);
    CHECK_MSG(r.status == CUZK_JOB_COMPLETED, "%d %s", (int)r.status, r.error);
    if (r.status == CUZK_JOB_COMPLETED)
        CHECK(fx_verify(params_dir, &crit, r.proof, r.proof_len));
    cuzk_job_result_free(&r);
    for (int i = 0; i < NFILL; i++) { /* what is left of them is of no interest */
        bool found, running;
        cuzk_engine_cancel(x.e, ids[i], &found, &running);
        await_result(x.e, ids[i], &r);
        CHECK_MSG(r.status == CUZK_JOB_COMPLETED || r.status == CUZK_JOB_CANCELLED, "%s: %d %s", ids[i],
                  (int)r.status, r.error);
        cuzk_job_result_free(&r);
    }
    fx_stop(&x);

    bool caught = fx_priority_check(&x, "critical", "low-", round);
    return caught;
}

int main(int argc, char **argv)
{
    test_init("test_engine_post");
    if (argc != 3) {
        fprintf(stderr, "usage: test_engine_post <cuzk tool> <params dir>\n");
        return 2;
    }
    params_dir = argv[2];
    if (!fx_init())
        return test_finish();
    test_rand_fr_bytes(rnd);
    bool ok = fx_sector(sector_a, 11) && fx_sector(sector_b, 12) &&
              (win_v = fx_vanilla(&win_len, sector_a, FX_WINNING_2K, rnd, 0)) &&
              (wnd_v[0] = fx_vanilla(&wnd_len[0], sector_a, FX_WINDOW_2K, rnd, 0)) &&
              (wnd_v[1] = fx_vanilla(&wnd_len[1], sector_b, FX_WINDOW_2K, rnd, 1));
    if (ok) {
        test_submit_checks();
        test_activation_failures();
        ok = fx_params(argv[1], params_dir, "winning-post") && fx_params(argv[1], params_dir, "window-post");
    }
    if (ok) {
        test_proofs();
        bool caught = false;
        for (int round = 0; round < 3 && !caught; round++)
            caught = priority_round(round);
        CHECK_MSG(caught, "three rounds without a LOW proof running when the CRITICAL job came: nothing was tested");
    }
    free(win_v);
    free(wnd_v[0]);
    free(wnd_v[1]);
    fx_cleanup();
    return test_finish();
}
