/* SnapDeals (empty sector update) through the engine, on a real 2KiB update: a CC sector sealed and kept,
 * random data encoded into it and its vanilla partition proof made from the files (cuzk/seal.h), sent as
 * Curio sends it (one bincode PartitionProof per partition, the three commitments raw):
 * - submission refuses a bad request with CUZK_ERR_INVALID_ARG naming what is wrong, and queues nothing: a
 *   number that is no update proof, another sector size, a C1 or randomness in the request, each commitment
 *   of the wrong length or not a field element, no or two partition proofs, an empty one, truncated
 *   bincode, a changed byte in the proof, each commitment another sector's (the whole request is checked
 *   there);
 * - a good request is queued at NORMAL priority (the TIMELINE), and without parameters fails when it starts,
 *   naming the missing file; the failure is counted under proof_kind="snap_update";
 * - with --prove DIR (the slow suite; DIR holds the 2KiB development parameters): preload of snap-2k charged
 *   to the budget, the job completes, its proof (192 bytes: one partition) verifies with cuzk_snap_verify and
 *   the .vk read from DIR and not for another comm_r_new; counted as completed.
 * Usage: test_engine_snap [--prove <params dir>]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/seal.h"
#include "cuzk/snap.h"
#include "post_fixture.h"
#include "test_util.h"

static char dir[64];
static cuzk_seal_snap_info_t info;
static uint8_t *vfile; /* the sector's Vec<PartitionProof> */
static size_t vlen;
static const uint8_t *part; /* its one partition proof */
static size_t part_len;

/* The 2KiB update and its partition proof. */
static bool make_update(void)
{
    snprintf(dir, sizeof dir, "/tmp/cuzk-engine-snap-XXXXXX");
    if (!mkdtemp(dir))
        return false;
    char cc[128], up[128];
    snprintf(cc, sizeof cc, "%s/cc", dir);
    snprintf(up, sizeof up, "%s/up", dir);
    cuzk_err_t err = {{0}};
    cuzk_porep_registered_proof_t sp;
    CHECK(cuzk_porep_registered_proof_parse(&sp, "StackedDrg2KiBV1_1", &err) == CUZK_OK);
    cuzk_seal_request_t req = {.proof_id = sp.id, .miner_id = FX_MINER, .sector_num = 21};
    test_rand_bytes(req.ticket, 32);
    cuzk_sealed_sector_t *s = NULL;
    cuzk_status st = cuzk_seal_precommit(&s, &req, &err);
    if (st == CUZK_OK)
        st = cuzk_seal_write_sector(s, cc, &err);
    cuzk_seal_free(s);
    static uint8_t data[2032];
    test_rand_bytes(data, sizeof data);
    if (st == CUZK_OK)
        st = cuzk_seal_snap_encode(cc, data, sizeof data, up, 1, &info, &err);
    if (st == CUZK_OK)
        st = cuzk_seal_snap_vanilla(&vfile, &vlen, up, NULL, 1, &err);
    CHECK_MSG(st == CUZK_OK, "the 2KiB update: %s", err.msg);
    /* bincode Vec<PartitionProof>: u64 count 1, then the proof */
    CHECK(st != CUZK_OK || (vlen > 8 && vfile[0] == 1 && !memcmp(vfile + 1, "\0\0\0\0\0\0\0", 7)));
    part = vfile + 8;
    part_len = vlen - 8;
    return st == CUZK_OK;
}

static void remove_update(void)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* A SnapDeals request of the engine over the given partition proofs and commitments (32 bytes each). */
typedef struct {
    cuzk_job_bytes_t v[2];
    uint8_t r_old[32], d_new[32], r_new[32];
    cuzk_job_request_t r;
} snap_req_t;

static void snap_request(snap_req_t *q, const char *id, const uint8_t *p, size_t len, size_t n)
{
    memset(q, 0, sizeof *q);
    q->v[0] = q->v[1] = (cuzk_job_bytes_t){p, len};
    memcpy(q->r_old, info.comm_r_old, 32);
    memcpy(q->d_new, info.comm_d_new, 32);
    memcpy(q->r_new, info.comm_r_new, 32);
    q->r = (cuzk_job_request_t){.request_id = id, .kind = CUZK_KIND_SNAP_DEALS_UPDATE, .registered_proof = 0,
                                .vanilla_proofs = q->v, .n_vanilla_proofs = n, .comm_r_old = q->r_old,
                                .comm_d_new = q->d_new, .comm_r_new = q->r_new, .comm_r_old_len = 32,
                                .comm_d_new_len = 32, .comm_r_new_len = 32};
}

static cuzk_status submit(cuzk_engine_t *e, const snap_req_t *q, cuzk_err_t *err)
{
    char job[CUZK_JOB_ID_MAX];
    uint32_t pos;
    return cuzk_engine_submit(e, &q->r, job, &pos, err);
}

static void test_submit_checks(void)
{
    fx_engine_t x;
    if (!fx_start(&x, "snap-submit", "/nonexistent-params", NULL))
        return;
    cuzk_engine_pause(x.e, true);
    uint8_t *cut = malloc(part_len), *flip = malloc(part_len);
    memcpy(flip, part, part_len);
    flip[part_len / 2] ^= 1; /* inside a challenge's paths */
    memcpy(cut, part, part_len);
    static const uint8_t empty[1];
    struct {
        const char *what, *needle;
        snap_req_t q;
    } cases[24];
    size_t n = 0;
#define CASE(w, nd) (cases[n].what = (w), cases[n].needle = (nd), &cases[n++].q)
    snap_req_t *q;
    q = CASE("no update proof", "not a registered update proof");
    snap_request(q, "s1", part, part_len, 1);
    q->r.registered_proof = 5;
    q = CASE("the 8MiB proof: four partitions", "takes 4");
    snap_request(q, "s2", part, part_len, 1);
    q->r.registered_proof = 1;
    q = CASE("another sector size", "sector_size 4096");
    snap_request(q, "s3", part, part_len, 1);
    q->r.sector_size = 4096;
    q = CASE("a C1", "vanilla_proof is the PoRep C1");
    snap_request(q, "s4", part, part_len, 1);
    q->r.vanilla_proof = (const uint8_t *)"{}";
    q->r.vanilla_proof_len = 2;
    q = CASE("randomness", "randomness is a PoSt field");
    snap_request(q, "s5", part, part_len, 1);
    q->r.randomness = q->r_old;
    q->r.randomness_len = 32;
    q = CASE("a 31-byte comm_r_old", "comm_r_old is 31 bytes");
    snap_request(q, "s6", part, part_len, 1);
    q->r.comm_r_old_len = 31;
    q = CASE("no comm_d_new", "comm_d_new is 0 bytes");
    snap_request(q, "s7", part, part_len, 1);
    q->r.comm_d_new = NULL;
    q = CASE("a 33-byte comm_r_new", "comm_r_new is 33 bytes");
    snap_request(q, "s8", part, part_len, 1);
    q->r.comm_r_new_len = 33;
    q = CASE("no partition proof", "0 vanilla_proofs");
    snap_request(q, "s9", part, part_len, 0);
    q = CASE("two partition proofs", "2 vanilla_proofs");
    snap_request(q, "s10", part, part_len, 2);
    q = CASE("an empty partition proof", "vanilla_proofs[0] is empty");
    snap_request(q, "s11", empty, 0, 1);
    q = CASE("truncated bincode", "vanilla_proofs[0]");
    snap_request(q, "s12", cut, part_len - 1, 1);
    q = CASE("a changed byte", "partition 0");
    snap_request(q, "s13", flip, part_len, 1);
    q = CASE("another comm_r_old", "partition 0");
    snap_request(q, "s14", part, part_len, 1);
    q->r_old[0] ^= 1;
    q = CASE("another comm_d_new", "partition 0");
    snap_request(q, "s15", part, part_len, 1);
    q->d_new[0] ^= 1;
    q = CASE("another comm_r_new", "partition 0");
    snap_request(q, "s16", part, part_len, 1);
    q->r_new[0] ^= 1;
    q = CASE("comm_r_new not a field element", "comm_r_new");
    snap_request(q, "s17", part, part_len, 1);
    memset(q->r_new, 0xff, 32);
#undef CASE
    for (size_t i = 0; i < n; i++) {
        cuzk_err_t err = {{0}};
        cuzk_status st = submit(x.e, &cases[i].q, &err);
        CHECK_MSG(st == CUZK_ERR_INVALID_ARG && strstr(err.msg, cases[i].needle), "%s: status %d, '%s'",
                  cases[i].what, (int)st, err.msg);
    }
    cuzk_engine_status_t s;
    cuzk_engine_status(x.e, &s);
    CHECK(s.pending_by_kind[CUZK_KIND_SNAP_DEALS_UPDATE] == 0);
    /* a good one is queued, NORMAL by default; without parameters it fails when it starts */
    snap_req_t ok;
    cuzk_err_t err = {{0}};
    snap_request(&ok, "snap", part, part_len, 1);
    ok.r.sector_size = 2048;
    CHECK_MSG(submit(x.e, &ok, &err) == CUZK_OK, "%s", err.msg);
    cuzk_engine_status(x.e, &s);
    CHECK(s.pending_by_kind[CUZK_KIND_SNAP_DEALS_UPDATE] == 1);
    cuzk_engine_pause(x.e, false);
    cuzk_job_result_t r;
    cuzk_engine_await(x.e, "snap", 0, &r, NULL, NULL);
    CHECK_MSG(r.status == CUZK_JOB_FAILED && strstr(r.error, "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0") &&
                  !r.proof,
              "%d %s", (int)r.status, r.error);
    cuzk_job_result_free(&r);
    char *log = fx_log(&x);
    CHECK_MSG(strstr(log, ",SUBMIT,snap,snap_update priority 2 "), "default priority:\n%s", log);
    free(log);
    char *m = cuzk_engine_metrics_text(x.e);
    CHECK(m && strstr(m, "cuzk_proofs_failed{proof_kind=\"snap_update\"} 1\n"));
    free(m);
    bool already;
    uint64_t ms;
    CHECK(cuzk_engine_preload(x.e, "snap-2k", &already, &ms, &err) == CUZK_ERR_IO &&
          strstr(err.msg, "v28-empty-sector-update"));
    CHECK(cuzk_engine_preload(x.e, "snap-4k", &already, &ms, &err) == CUZK_ERR_INVALID_ARG);
    free(cut);
    free(flip);
    fx_stop(&x);
}

/* The proof the engine returned, verified with the .vk of params. */
static int verifies(const char *params, const uint8_t r_new[32], const uint8_t *proof, size_t len)
{
    cuzk_err_t err = {{0}};
    cuzk_snap_keys_t *keys = NULL;
    cuzk_groth16_proof_t p;
    size_t got = 0;
    bool valid = false;
    cuzk_snap_request_t q = {.proof_id = 0};
    memcpy(q.comm_r_old, info.comm_r_old, 32);
    memcpy(q.comm_d_new, info.comm_d_new, 32);
    memcpy(q.comm_r_new, r_new, 32);
    int res = -1;
    if (len == CUZK_GROTH16_PROOF_BYTES && cuzk_snap_keys_load(&keys, params, 0, false, 0, &err) == CUZK_OK &&
        cuzk_groth16_proofs_read(&p, 1, &got, proof, len, &err) == CUZK_OK && got == 1 &&
        cuzk_snap_verify(&valid, &q, cuzk_snap_keys_vk(keys), &p, 1, &err) == CUZK_OK)
        res = valid;
    else
        fprintf(stderr, "verify: %s\n", err.msg);
    cuzk_snap_keys_free(keys);
    return res;
}

static void test_prove(const char *params)
{
    fx_engine_t x;
    if (!fx_start(&x, "snap-prove", params, NULL))
        return;
    cuzk_err_t err = {{0}};
    bool already;
    uint64_t ms;
    cuzk_engine_status_t s0, s1;
    cuzk_engine_status(x.e, &s0);
    CHECK_MSG(cuzk_engine_preload(x.e, "snap-2k", &already, &ms, &err) == CUZK_OK && !already, "%s", err.msg);
    cuzk_engine_status(x.e, &s1);
    CHECK(s1.n_srs == 1 && strcmp(s1.srs[0].circuit_id, "snap-2k") == 0 &&
          s1.budget_used - s0.budget_used == s1.srs[0].size_bytes);
    snap_req_t q;
    snap_request(&q, "update", part, part_len, 1);
    CHECK_MSG(submit(x.e, &q, &err) == CUZK_OK, "%s", err.msg);
    cuzk_job_result_t r;
    cuzk_engine_await(x.e, "update", 0, &r, NULL, NULL);
    CHECK_MSG(r.status == CUZK_JOB_COMPLETED && r.proof_len == CUZK_GROTH16_PROOF_BYTES, "%d %s", (int)r.status,
              r.error);
    if (r.status == CUZK_JOB_COMPLETED) {
        CHECK(verifies(params, info.comm_r_new, r.proof, r.proof_len) == 1);
        uint8_t other[32];
        memcpy(other, info.comm_r_new, 32);
        other[0] ^= 1;
        CHECK(verifies(params, other, r.proof, r.proof_len) == 0);
    }
    printf("  update: queue %llu ms, srs %llu ms, synthesis %llu ms, prove %llu ms, total %llu ms\n",
           (unsigned long long)r.queue_wait_ms, (unsigned long long)r.srs_load_ms, (unsigned long long)r.synthesis_ms,
           (unsigned long long)r.prove_ms, (unsigned long long)r.total_ms);
    cuzk_job_result_free(&r);
    char *m = cuzk_engine_metrics_text(x.e);
    CHECK(m && strstr(m, "cuzk_proofs_completed{proof_kind=\"snap_update\"} 1\n"));
    free(m);
    char *log = fx_log(&x);
    CHECK_MSG(strstr(log, ",SRS_READY,update,snap-2k ") && strstr(log, ",COMPLETED,update,"), "%s", log);
    free(log);
    fx_stop(&x);
}

int main(int argc, char **argv)
{
    test_init("test_engine_snap");
    const char *params = argc == 3 && strcmp(argv[1], "--prove") == 0 ? argv[2] : NULL;
    if (!fx_init())
        return test_finish();
    if (make_update()) {
        if (params)
            test_prove(params);
        else
            test_submit_checks();
    }
    free(vfile);
    remove_update();
    fx_cleanup();
    return test_finish();
}
