/* The PoRep product path through the public headers alone (cuzk/porep.h, cuzk/seal.h), as a program linking
 * libcuzk uses it: a 2KiB sector sealed, its C1 loaded in both forms (bare JSON and Curio's wrapper, from a
 * buffer and from a file) with the same answers, the sector checks (a C1 whose ticket or wrapper SectorNum
 * was changed is not the sector's: the replica id is recomputed), the C1 file's bounds (a multi-gigabyte
 * sparse file, /dev/zero, a directory, a binary file, a read error: refused at once), refusals of a damaged
 * C1 naming the first bad challenge, challenges that are not the seed's, the partition calls' argument
 * checks, and the parameter files' names. With --slow [DIR] (the slow suite: a development setup of the 2KiB circuit takes
 * minutes, unless DIR holds one) also partition 0 proved through the partition calls and the whole sector
 * through cuzk_porep_prove, verified, and refused with a tampered proof or another sector's C1. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/file.h"
#include "cuzk/groth16.h"
#include "cuzk/porep.h"
#include "cuzk/seal.h"
#include "test_util.h"

#define MINER 1000
#define SECTOR 7

typedef struct {
    char *json, *wrapper;
    size_t json_len, wrapper_len;
    uint8_t comm_d[32], comm_r[32], ticket[32], seed[32];
} sealed_t;

/* A random 2KiB sector sealed and its C1 made for a random seed, in both forms. */
static void seal_2kib(sealed_t *out)
{
    memset(out, 0, sizeof *out);
    cuzk_err_t err = {{0}};
    cuzk_porep_registered_proof_t p;
    CHECK(cuzk_porep_registered_proof_parse(&p, "StackedDrg2KiBV1_1", &err) == CUZK_OK);
    static uint8_t data[2032];
    test_rand_bytes(data, sizeof data);
    cuzk_seal_request_t req = {.proof_id = p.id, .miner_id = MINER, .sector_num = SECTOR, .data = data,
                               .data_len = sizeof data, .threads = 1};
    test_rand_bytes(req.ticket, 32);
    test_rand_bytes(out->seed, 32);
    memcpy(out->ticket, req.ticket, 32);
    cuzk_sealed_sector_t *s = NULL;
    CHECK_MSG(cuzk_seal_precommit(&s, &req, &err) == CUZK_OK, "%s", err.msg);
    cuzk_seal_commitments(s, out->comm_d, out->comm_r);
    CHECK_MSG(cuzk_seal_commit1(&out->json, &out->json_len, s, out->seed, &err) == CUZK_OK, "%s", err.msg);
    cuzk_seal_free(s);
    CHECK(cuzk_porep_c1_wrap(&out->wrapper, &out->wrapper_len, out->json, out->json_len, SECTOR, 2048, &err) ==
          CUZK_OK);
    /* the sealer refuses data of the wrong length and sizes it cannot seal */
    req.data_len--;
    CHECK(cuzk_seal_precommit(&s, &req, &err) == CUZK_ERR_INVALID_ARG && s == NULL);
    CHECK(cuzk_porep_registered_proof_parse(&p, "StackedDrg32GiBV1_1", &err) == CUZK_OK);
    req.proof_id = p.id;
    req.data = NULL;
    CHECK(cuzk_seal_precommit(&s, &req, &err) == CUZK_ERR_UNSUPPORTED && s == NULL);
}

static void test_registered_proofs(void)
{
    cuzk_err_t err = {{0}};
    cuzk_porep_registered_proof_t p, q;
    CHECK(cuzk_porep_registered_proof(&p, 5, &err) == CUZK_OK && strcmp(p.name, "StackedDrg2KiBV1_1") == 0 &&
          p.sector_size == 2048 && p.partitions == 1 && p.challenges_per_partition == 2 &&
          p.api == CUZK_POREP_API_V1_1 && p.challenges == CUZK_POREP_CHALLENGES_INTERACTIVE);
    CHECK(cuzk_porep_registered_proof_parse(&q, "RegisteredSealProof_StackedDrg2KiBV1_1", &err) == CUZK_OK &&
          q.id == 5);
    CHECK(cuzk_porep_registered_proof_parse(&q, "8", &err) == CUZK_OK && strcmp(q.size_name, "32GiB") == 0 &&
          q.partitions == 10);
    CHECK(cuzk_porep_registered_proof_parse(&q, "StackedDrg2KiBV9", &err) == CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "StackedDrg2KiBV9"));
    uint64_t n = 0, ni = 0;
    while (cuzk_porep_registered_proof(&q, n, NULL) == CUZK_OK) {
        CHECK(q.id == n);
        ni += q.challenges == CUZK_POREP_CHALLENGES_NON_INTERACTIVE;
        n++;
    }
    CHECK(n == 20 && ni == 5);
    CHECK(cuzk_porep_registered_proof(&q, 1ull << 40, &err) == CUZK_ERR_INVALID_ARG);
}

/* What both forms must say alike. */
static void check_info(const cuzk_porep_c1_t *c1, const sealed_t *s, bool wrapped)
{
    cuzk_porep_c1_info_t info;
    cuzk_porep_c1_info(&info, c1);
    CHECK(info.proof.id == 5 && info.partitions == 1 && info.circuit.nodes == 64 && info.circuit.challenges == 2);
    CHECK(memcmp(info.comm_d, s->comm_d, 32) == 0 && memcmp(info.comm_r, s->comm_r, 32) == 0);
    CHECK(memcmp(info.ticket, s->ticket, 32) == 0 && memcmp(info.seed, s->seed, 32) == 0);
    CHECK(info.wrapped == wrapped && info.sector_num == (wrapped ? SECTOR : 0));
}

static void test_forms(const sealed_t *s)
{
    cuzk_err_t err = {{0}};
    cuzk_porep_c1_t *raw = NULL, *wrapped = NULL, *file = NULL;
    CHECK_MSG(cuzk_porep_c1_parse(&raw, s->json, s->json_len, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(cuzk_porep_c1_parse(&wrapped, s->wrapper, s->wrapper_len, &err) == CUZK_OK, "%s", err.msg);
    char path[256];
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/test_porep_api.%ld.json", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    CHECK(cuzk_atomic_write_file(path, s->wrapper, s->wrapper_len, &err) == CUZK_OK);
    CHECK_MSG(cuzk_porep_c1_load(&file, path, &err) == CUZK_OK, "%s", err.msg);
    unlink(path);
    if (!raw || !wrapped || !file)
        return;
    check_info(raw, s, false);
    check_info(wrapped, s, true);
    check_info(file, s, true);
    cuzk_porep_c1_free(file);
    CHECK(cuzk_porep_c1_load(&file, path, &err) == CUZK_ERR_IO && file == NULL && strstr(err.msg, path));

    /* the same public inputs from either form: 3 + 18 * 2 of them */
    cuzk_scalar_t a[64], b[64];
    size_t na = 0, nb = 0;
    CHECK(cuzk_porep_public_inputs(a, 64, &na, raw, 0, &err) == CUZK_OK && na == 39);
    CHECK(cuzk_porep_public_inputs(b, 64, &nb, wrapped, 0, &err) == CUZK_OK && nb == 39);
    CHECK(memcmp(a, b, sizeof a[0] * 39) == 0);
    CHECK(cuzk_porep_public_inputs(a, 38, NULL, raw, 0, &err) == CUZK_ERR_BAD_LENGTH);
    CHECK(cuzk_porep_public_inputs(a, 64, NULL, raw, 1, &err) == CUZK_ERR_INVALID_ARG);

    /* the sector checks */
    CHECK(cuzk_porep_c1_check_challenges(raw, &err) == CUZK_OK);
    cuzk_porep_c1_expect_t any = {0}, ok = {.sector_size = 2048, .has_sector_num = true, .sector_num = SECTOR,
                                            .has_miner_id = true, .miner_id = MINER};
    CHECK(cuzk_porep_c1_check(raw, &any, &err) == CUZK_OK);
    CHECK_MSG(cuzk_porep_c1_check(raw, &ok, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(cuzk_porep_c1_check(wrapped, &ok, &err) == CUZK_OK, "%s", err.msg);
    cuzk_porep_c1_expect_t e = ok;
    e.miner_id = MINER + 1;
    CHECK(cuzk_porep_c1_check(raw, &e, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "replica_id"));
    e = ok;
    e.sector_num = SECTOR + 1;
    CHECK(cuzk_porep_c1_check(raw, &e, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "replica_id"));
    e.has_miner_id = false; /* the wrapper's number alone */
    CHECK(cuzk_porep_c1_check(raw, &e, &err) == CUZK_OK);
    CHECK(cuzk_porep_c1_check(wrapped, &e, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "SectorNum"));
    e = ok;
    e.sector_size = 8 << 20;
    CHECK(cuzk_porep_c1_check(raw, &e, &err) == CUZK_ERR_MISMATCH);

    /* the witness and the partition calls: argument checks, and a synthesis stopped by its caller */
    cuzk_porep_witness_t w;
    CHECK(cuzk_porep_c1_witness(&w, raw, 1, &err) == CUZK_ERR_INVALID_ARG);
    CHECK_MSG(cuzk_porep_c1_witness(&w, raw, 0, &err) == CUZK_OK, "%s", err.msg);
    CHECK(w.num_challenges == 2 && w.has_comm_r);
    cuzk_porep_witness_free(&w);
    cuzk_porep_partition_t *part = (cuzk_porep_partition_t *)&part;
    CHECK(cuzk_porep_partition_synthesize(&part, raw, 1, NULL, &err) == CUZK_ERR_INVALID_ARG && part == NULL);
    test_stop_counter polls = {.stop_at = 1}; /* stop at the first poll: before the first challenge */
    cuzk_porep_prove_opts_t stop = {.should_stop = test_stop_after, .stop_arg = &polls};
    CHECK(cuzk_porep_partition_synthesize(&part, raw, 0, &stop, &err) == CUZK_ERR_CANCELLED && part == NULL);
    cuzk_porep_partition_free(NULL);
    cuzk_groth16_proof_t proof;
    cuzk_groth16_pk_t pk;
    memset(&pk, 0, sizeof pk);
    CHECK(cuzk_porep_prove(&proof, 0, raw, &pk, NULL, NULL, &err) == CUZK_ERR_BAD_LENGTH);

    /* a proof count other than the partitions' is simply not valid */
    bool valid = true;
    cuzk_groth16_vk_t vk;
    memset(&vk, 0, sizeof vk);
    CHECK(cuzk_porep_verify(&valid, raw, &vk, NULL, 2, &err) == CUZK_OK && !valid);

    cuzk_porep_c1_free(raw);
    cuzk_porep_c1_free(wrapped);
    cuzk_porep_c1_free(NULL);
}

/* The position just after the n-th (0-based) occurrence of key in s, or NULL. */
static char *after(char *s, const char *key, int n)
{
    for (char *p = s; (p = strstr(p, key)) != NULL; p += strlen(key))
        if (n-- == 0)
            return p + strlen(key);
    return NULL;
}

/* Flips the low bit of the byte (a JSON integer 0..255) at p, in place: v ^ 1 has as many digits as v. */
static void flip_byte(char *p)
{
    CHECK(p != NULL);
    if (!p)
        return;
    char *end;
    long v = strtol(p, &end, 10);
    char digits[8];
    int n = snprintf(digits, sizeof digits, "%ld", v ^ 1);
    CHECK(n == end - p);
    memcpy(p, digits, (size_t)n);
}

/* Changes the first byte of challenge i's encoding proof's first parent label. */
static void damage_encoding(char *json, int i)
{
    flip_byte(after(json, "\"encoding_proof\":{\"parents\":[[", i));
}

/* Parses json (and its wrapper) and expects the refusal of the C1 check, naming partition 0 challenge i. */
static void expect_refused(const char *json, size_t len, int i)
{
    cuzk_err_t err = {{0}};
    char want[64];
    snprintf(want, sizeof want, "partition 0 challenge %d: encoding_proof", i);
    cuzk_porep_c1_t *c1 = (cuzk_porep_c1_t *)&c1;
    cuzk_status st = cuzk_porep_c1_parse(&c1, json, len, &err);
    CHECK_MSG(st == CUZK_ERR_MISMATCH && c1 == NULL && strstr(err.msg, want), "status %d: %s", st, err.msg);
    char *wrapper = NULL;
    size_t wlen = 0;
    CHECK(cuzk_porep_c1_wrap(&wrapper, &wlen, json, len, SECTOR, 2048, &err) == CUZK_OK);
    st = cuzk_porep_c1_parse(&c1, wrapper, wlen, &err);
    CHECK_MSG(st == CUZK_ERR_MISMATCH && c1 == NULL && strstr(err.msg, want), "wrapped: status %d: %s", st, err.msg);
    free(wrapper);
}

/* Filecoin's verify_seal recomputes the replica id from the prover id, sector number, ticket, comm_d and
 * porep id: a C1 whose ticket was changed, or a wrapper whose SectorNum was, parses and proves as before
 * (nothing in its own paths depends on them) but is not the sector's. */
static void test_sector_binding(const sealed_t *s)
{
    cuzk_err_t err = {{0}};
    cuzk_porep_c1_expect_t sector = {.has_sector_num = true, .sector_num = SECTOR, .has_miner_id = true,
                                     .miner_id = MINER};
    char *bad = malloc(s->json_len + 1);
    CHECK(bad != NULL);
    if (!bad)
        return;
    memcpy(bad, s->json, s->json_len + 1);
    flip_byte(after(bad, "\"ticket\":[", 0));
    cuzk_porep_c1_t *c1 = NULL;
    CHECK_MSG(cuzk_porep_c1_parse(&c1, bad, s->json_len, &err) == CUZK_OK, "ticket changed: %s", err.msg);
    if (c1) {
        CHECK(cuzk_porep_c1_check_challenges(c1, &err) == CUZK_OK); /* its challenges are its replica id's */
        CHECK_MSG(cuzk_porep_c1_check(c1, &sector, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "replica_id"),
                  "ticket changed: %s", err.msg);
    }
    cuzk_porep_c1_free(c1);

    /* the wrapper's SectorNum changed: the number checked alone, then with the miner */
    char *w = NULL;
    size_t wl = 0;
    CHECK(cuzk_porep_c1_wrap(&w, &wl, s->json, s->json_len, SECTOR + 1, 2048, &err) == CUZK_OK);
    c1 = NULL;
    CHECK_MSG(w && cuzk_porep_c1_parse(&c1, w, wl, &err) == CUZK_OK, "%s", err.msg);
    if (c1) {
        cuzk_porep_c1_expect_t e = {.has_sector_num = true, .sector_num = SECTOR};
        CHECK(cuzk_porep_c1_check(c1, &e, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "SectorNum"));
        e.sector_num = SECTOR + 1; /* the wrapper's own number: not the miner's sector SECTOR + 1 */
        e.has_miner_id = true;
        e.miner_id = MINER;
        CHECK_MSG(cuzk_porep_c1_check(c1, &e, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "replica_id"), "%s",
                  err.msg);
    }
    cuzk_porep_c1_free(c1);
    free(w);

    /* the true values are accepted; the registered proof is held to the C1's */
    CHECK(cuzk_porep_c1_parse(&c1, s->wrapper, s->wrapper_len, &err) == CUZK_OK);
    if (c1) {
        cuzk_porep_c1_expect_t e = sector;
        e.has_proof_id = true;
        e.proof_id = 5;
        CHECK_MSG(cuzk_porep_c1_check(c1, &e, &err) == CUZK_OK, "%s", err.msg);
        e.proof_id = 0; /* StackedDrg2KiBV1: the same size, another proof */
        CHECK(cuzk_porep_c1_check(c1, &e, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "(StackedDrg2KiBV1)"));
        e.proof_id = UINT64_MAX;
        CHECK(cuzk_porep_c1_check(c1, &e, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "unknown"));
    }
    cuzk_porep_c1_free(c1);
    free(bad);
}

/* cuzk_porep_c1_load on what is not a C1 file: an error naming the path, at once and in little memory
 * (a 2 GB sparse file and /dev/zero were once read whole or without end). */
static void expect_load_refused(const char *path, cuzk_status want, const char *needle)
{
    cuzk_err_t err = {{0}};
    cuzk_porep_c1_t *c1 = (cuzk_porep_c1_t *)&c1;
    double t0 = test_thread_cpu_s();
    struct rusage r0, r1;
    getrusage(RUSAGE_SELF, &r0);
    cuzk_status st = cuzk_porep_c1_load(&c1, path, &err);
    getrusage(RUSAGE_SELF, &r1);
    CHECK_MSG(st == want && c1 == NULL && strstr(err.msg, path) && strstr(err.msg, needle), "%s: status %d: %s", path,
              st, err.msg);
    CHECK_MSG(test_thread_cpu_s() - t0 < 0.5, "%s: %.2f s of CPU", path, test_thread_cpu_s() - t0);
    CHECK_MSG(r1.ru_maxrss - r0.ru_maxrss < 64 * 1024, "%s: peak RSS grew by %ld KiB", path,
              r1.ru_maxrss - r0.ru_maxrss);
}

static void test_load_bounds(void)
{
    char dir[] = "/tmp/test_porep_api-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/sparse.json", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)2 << 30) == 0); /* 2 GiB of holes: larger than any C1 */
    if (fd >= 0)
        close(fd);
    expect_load_refused(path, CUZK_ERR_FORMAT, "larger than any C1 output");
    fd = open(path, O_WRONLY | O_TRUNC);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)900 << 20) == 0); /* under the bound, but no JSON */
    if (fd >= 0)
        close(fd);
    expect_load_refused(path, CUZK_ERR_FORMAT, "not a C1 output");
    unlink(path);
    expect_load_refused("/dev/zero", CUZK_ERR_IO, "not a regular file");
    expect_load_refused(dir, CUZK_ERR_IO, "a directory");
    expect_load_refused("/proc/self/mem", CUZK_ERR_IO, "read error"); /* reading its page 0 fails: EIO */
    rmdir(dir);
}

static void test_refusals(const sealed_t *s)
{
    char *bad = malloc(s->json_len + 1);
    CHECK(bad != NULL);
    if (!bad)
        return;
    memcpy(bad, s->json, s->json_len + 1);
    damage_encoding(bad, 1);
    expect_refused(bad, s->json_len, 1);
    damage_encoding(bad, 0); /* both damaged: the first is named */
    expect_refused(bad, s->json_len, 0);

    /* another seed: the vanilla proofs still check, their challenges are not the seed's */
    memcpy(bad, s->json, s->json_len + 1);
    flip_byte(after(bad, "\"seed\":[", 0));
    cuzk_err_t err = {{0}};
    cuzk_porep_c1_t *c1 = NULL;
    CHECK_MSG(cuzk_porep_c1_parse(&c1, bad, s->json_len, &err) == CUZK_OK, "%s", err.msg);
    if (c1) {
        CHECK(cuzk_porep_c1_check_challenges(c1, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "partition 0"));
        cuzk_groth16_proof_t proof;
        cuzk_groth16_pk_t pk;
        memset(&pk, 0, sizeof pk);
        CHECK(cuzk_porep_prove(&proof, 1, c1, &pk, NULL, NULL, &err) == CUZK_ERR_MISMATCH);
    }
    cuzk_porep_c1_free(c1);

    /* not JSON at all; a wrapper that does not hold a C1 */
    CHECK(cuzk_porep_c1_parse(&c1, "{\"x\":1}", 7, &err) == CUZK_ERR_FORMAT && c1 == NULL);
    static const char w[] = "{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":2048}";
    CHECK(cuzk_porep_c1_parse(&c1, w, sizeof w - 1, &err) == CUZK_ERR_FORMAT && c1 == NULL);
    free(bad);
}

static void test_params_paths(void)
{
    cuzk_err_t err = {{0}};
    cuzk_porep_params_paths_t pp;
    CHECK(cuzk_porep_params_paths(&pp, "/nonexistent", 5, &err) == CUZK_OK);
    static const char prefix[] = "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-";
    CHECK_MSG(strncmp(pp.stem, prefix, sizeof prefix - 1) == 0 && strlen(pp.stem) == sizeof prefix - 1 + 64, "%s",
              pp.stem);
    char want[600];
    snprintf(want, sizeof want, "/nonexistent/%s.params", pp.stem);
    CHECK(strcmp(pp.params, want) == 0 && strcmp(pp.manifest, "/nonexistent/parameters.json") == 0);
    cuzk_porep_params_paths_t pp0;
    CHECK(cuzk_porep_params_paths(&pp0, "/nonexistent", 0, &err) == CUZK_OK && strcmp(pp0.stem, pp.stem) == 0);
    CHECK(cuzk_porep_params_paths(&pp0, "/nonexistent", 99, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_porep_keys_t *keys = (cuzk_porep_keys_t *)&keys;
    CHECK(cuzk_porep_keys_load(&keys, "/nonexistent", 5, false, 1, &err) == CUZK_ERR_IO && keys == NULL &&
          strstr(err.msg, ".vk") && strstr(err.msg, "cuzk params generate"));
    CHECK(cuzk_porep_keys_load(&keys, "/nonexistent", 99, false, 1, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_porep_keys_free(NULL);
}

/* Partition 0 through the partition calls, the sector through cuzk_porep_prove, on the development
 * parameters of dir when it has them (`cuzk params generate` makes them), else of a setup made here. */
static void test_prove(const sealed_t *s, const char *dir)
{
    cuzk_err_t err = {{0}};
    cuzk_porep_c1_t *c1 = NULL;
    CHECK_MSG(cuzk_porep_c1_parse(&c1, s->wrapper, s->wrapper_len, &err) == CUZK_OK, "%s", err.msg);
    if (!c1)
        return;
    cuzk_porep_c1_info_t info;
    cuzk_porep_c1_info(&info, c1);
    cuzk_porep_keys_t *keys = NULL;
    cuzk_groth16_pk_t own;
    memset(&own, 0, sizeof own);
    const cuzk_groth16_pk_t *pk = &own;
    const cuzk_groth16_vk_t *vk = &own.vk;
    if (dir && cuzk_porep_keys_load(&keys, dir, info.proof.id, true, 0, &err) == CUZK_OK) {
        pk = cuzk_porep_keys_pk(keys);
        vk = cuzk_porep_keys_vk(keys);
        printf("parameters: %s%s\n", cuzk_porep_keys_paths(keys)->params,
               cuzk_porep_keys_dev(keys) ? " (development)" : "");
    } else {
        double t0 = test_thread_cpu_s();
        CHECK_MSG(cuzk_porep_dev_setup(&own, &info.circuit, 0, &err) == CUZK_OK, "%s", err.msg);
        printf("development setup: %.1f s of this thread's CPU\n", test_thread_cpu_s() - t0);
    }
    CHECK_MSG(pk && cuzk_porep_check_key(pk, &info.circuit, &err) == CUZK_OK, "%s", err.msg);

    cuzk_porep_partition_t *part = NULL;
    cuzk_groth16_proof_t proofs[2];
    CHECK(cuzk_porep_c1_check_challenges(c1, &err) == CUZK_OK);
    CHECK_MSG(cuzk_porep_partition_synthesize(&part, c1, 0, NULL, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(part && cuzk_porep_partition_prove(&proofs[0], part, pk, NULL, &err) == CUZK_OK, "%s", err.msg);
    cuzk_porep_partition_free(part);
    bool valid = false;
    CHECK(cuzk_porep_verify(&valid, c1, vk, proofs, 1, &err) == CUZK_OK && valid);

    cuzk_porep_timings_t tm;
    cuzk_porep_prove_opts_t opts = {.threads = 0, .synth = CUZK_POREP_SYNTH_RECORD};
    CHECK_MSG(cuzk_porep_prove(&proofs[1], 1, c1, pk, &opts, &tm, &err) == CUZK_OK, "%s", err.msg);
    CHECK(tm.constraints > 0 && tm.prove_ms > 0);
    CHECK(cuzk_porep_verify(&valid, c1, vk, &proofs[1], 1, &err) == CUZK_OK && valid);
    CHECK_MSG(cuzk_porep_prove_partition(&proofs[1], c1, 0, pk, NULL, &err) == CUZK_OK, "%s", err.msg);
    CHECK(cuzk_porep_verify(&valid, c1, vk, &proofs[1], 1, &err) == CUZK_OK && valid);

    /* a tampered proof, and a proof for another sector's C1, are not valid */
    cuzk_groth16_proof_t t = proofs[0];
    t.c = proofs[1].c;
    CHECK(cuzk_porep_verify(&valid, c1, vk, &t, 1, &err) == CUZK_OK && !valid);
    sealed_t other;
    seal_2kib(&other);
    cuzk_porep_c1_t *c2 = NULL;
    CHECK(cuzk_porep_c1_parse(&c2, other.json, other.json_len, &err) == CUZK_OK);
    CHECK(c2 && cuzk_porep_verify(&valid, c2, vk, proofs, 1, &err) == CUZK_OK && !valid);
    cuzk_porep_c1_free(c2);
    free(other.json);
    free(other.wrapper);
    cuzk_groth16_pk_free(&own);
    cuzk_porep_keys_free(keys);
    cuzk_porep_c1_free(c1);
}

int main(int argc, char **argv)
{
    test_init("test_porep_api");
    bool slow = argc > 1 && strcmp(argv[1], "--slow") == 0;
    test_registered_proofs();
    sealed_t s;
    seal_2kib(&s);
    if (slow)
        test_prove(&s, argc > 2 ? argv[2] : NULL);
    else {
        test_forms(&s);
        test_sector_binding(&s);
        test_load_bounds();
        test_refusals(&s);
        test_params_paths();
    }
    free(s.json);
    free(s.wrapper);
    return test_finish();
}
