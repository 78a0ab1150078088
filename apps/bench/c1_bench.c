/* cuzk-bench c1-check: how long a prover takes to read and check a C1 output, for any sector size. A synthetic
 * C1 (c1_synthetic.h: passes every check, describes no real sector) is made once and written as JSON and as
 * Curio's wrapper; then each iteration times the parse alone, cuzk_fc_c1_verify, the challenge check, the
 * wrapper's parse alone (its JSON, base64 and the C1 JSON without checks), the whole cuzk_fc_c1_parse_any
 * of the wrapper, and cuzk_fc_c1_load of the wrapper from a file (in the page cache: written just before).
 * Results are checked outside the timed regions. */
#include "bench/c1_bench.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cli_opts.h"
#include "cli_util.h"
#include "cuzk/cuzk.h"
#include "filecoin/vanilla/c1_json.h"
#include "testkit/c1_synthetic.h"
#include "util/parallel.h"
#include "util/timer.h"

/* The V1_1 (interactive) proof of a sector size: what Curio seals with by default. */
static const cuzk_fc_seal_proof_t *default_proof(uint64_t bytes)
{
    const cuzk_fc_seal_proof_t *t = cuzk_fc_seal_proofs();
    for (int i = 0; i < CUZK_FC_SEAL_PROOF_COUNT; i++)
        if (t[i].sector_size == bytes && t[i].api == CUZK_FC_API_V1_1 &&
            t[i].challenges == CUZK_FC_CHALLENGES_INTERACTIVE)
            return &t[i];
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static bench_stats stats(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    bench_stats st = {t[0], n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]), t[n - 1]};
    return st;
}

enum { PARSE, VERIFY, CHALLENGES, UNWRAP, PARSE_ANY, LOAD, STAGES };

typedef struct {
    const cuzk_fc_c1_t *c1;
    const char *json, *wrapper;
    size_t json_len, wrapper_len;
    char wrapper_path[64]; /* the wrapper as a file, or "" */
    bool challenges_hold; /* false for kinds whose challenges a synthetic C1 cannot meet */
} job_t;

static double secs_since(uint64_t t0)
{
    return (double)(cuzk_now_ns() - t0) * 1e-9;
}

/* One iteration of every stage into t[stage]; 0, or -1 after printing what failed. */
static int iteration(const job_t *j, double t[STAGES])
{
    cuzk_err_t err = {{0}};
    cuzk_fc_c1_t b;
    uint64_t t0 = cuzk_now_ns();
    cuzk_status st = cuzk_fc_c1_json_parse(&b, j->json, j->json_len, CUZK_FC_C1_PARSE_NO_VERIFY, &err);
    t[PARSE] = secs_since(t0);
    int bad = st != CUZK_OK || cuzk_fc_c1_compare(&b, j->c1) != 0;
    cuzk_fc_c1_free(&b);
    if (bad) {
        fprintf(stderr, "cuzk-bench c1-check: parse: %s\n", st != CUZK_OK ? err.msg : "the model differs");
        return -1;
    }
    t0 = cuzk_now_ns();
    st = cuzk_fc_c1_verify(j->c1, &err);
    t[VERIFY] = secs_since(t0);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk-bench c1-check: verify: %s\n", err.msg);
        return -1;
    }
    cuzk_fc_c1_wrapper_info_t info;
    t0 = cuzk_now_ns();
    st = cuzk_fc_c1_parse_any(&b, &info, j->wrapper, j->wrapper_len, CUZK_FC_C1_PARSE_NO_VERIFY, &err);
    t[UNWRAP] = secs_since(t0);
    bad = st != CUZK_OK || !info.wrapped || cuzk_fc_c1_compare(&b, j->c1) != 0;
    cuzk_fc_c1_free(&b);
    if (bad) {
        fprintf(stderr, "cuzk-bench c1-check: unwrap: %s\n", st != CUZK_OK ? err.msg : "the model differs");
        return -1;
    }
    if (!j->challenges_hold)
        return 0;
    t0 = cuzk_now_ns();
    st = cuzk_fc_c1_check_challenges(j->c1, &err);
    t[CHALLENGES] = secs_since(t0);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk-bench c1-check: challenges: %s\n", err.msg);
        return -1;
    }
    t0 = cuzk_now_ns();
    st = cuzk_fc_c1_parse_any(&b, &info, j->wrapper, j->wrapper_len, 0, &err);
    t[PARSE_ANY] = secs_since(t0);
    bad = st != CUZK_OK || !info.wrapped || cuzk_fc_c1_compare(&b, j->c1) != 0;
    cuzk_fc_c1_free(&b);
    if (bad) {
        fprintf(stderr, "cuzk-bench c1-check: parse_any: %s\n", st != CUZK_OK ? err.msg : "the model differs");
        return -1;
    }
    t0 = cuzk_now_ns();
    st = cuzk_fc_c1_load(&b, &info, j->wrapper_path, 0, &err);
    t[LOAD] = secs_since(t0);
    bad = st != CUZK_OK || !info.wrapped || cuzk_fc_c1_compare(&b, j->c1) != 0;
    cuzk_fc_c1_free(&b);
    if (bad) {
        fprintf(stderr, "cuzk-bench c1-check: load: %s\n", st != CUZK_OK ? err.msg : "the model differs");
        return -1;
    }
    return 0;
}

/* The wrapper into a fresh temporary file (TMPDIR or /tmp); 0, or -1 after printing why not. */
static int write_wrapper_file(job_t *j)
{
    const char *dir = getenv("TMPDIR");
    snprintf(j->wrapper_path, sizeof j->wrapper_path, "%s/cuzk-c1-check-XXXXXX",
             dir && *dir && strlen(dir) < 30 ? dir : "/tmp");
    int fd = mkstemp(j->wrapper_path);
    size_t done = 0;
    while (fd >= 0 && done < j->wrapper_len) {
        ssize_t w = write(fd, j->wrapper + done, j->wrapper_len - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    if (fd < 0 || done < j->wrapper_len || close(fd) != 0) {
        fprintf(stderr, "cuzk-bench c1-check: cannot write %s\n", j->wrapper_path);
        if (fd >= 0)
            unlink(j->wrapper_path);
        j->wrapper_path[0] = 0;
        return -1;
    }
    return 0;
}

/* The synthetic C1 of p, its JSON and its wrapper; 0, or -1 after printing why not. */
static int prepare(job_t *j, cuzk_fc_c1_t *c1, char **json, char **wrapper, const cuzk_fc_seal_proof_t *p,
                   const uint8_t seed[32], int threads, const char *out)
{
    cuzk_err_t err = {{0}};
    unsigned flags = j->challenges_hold ? 0 : CUZK_FC_C1_SYNTH_ANY_CHALLENGES;
    uint64_t t0 = cuzk_now_ns();
    if (cuzk_fc_c1_synthetic(c1, p, 1000, 1, seed, flags, threads, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench c1-check: %s\n", err.msg);
        return -1;
    }
    double t_make = secs_since(t0);
    t0 = cuzk_now_ns();
    if (cuzk_fc_c1_json_write(json, &j->json_len, c1, &err) != CUZK_OK ||
        cuzk_fc_c1_wrapper_write(wrapper, &j->wrapper_len, *json, j->json_len, 1, p->sector_size, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench c1-check: writing JSON: %s\n", err.msg);
        return -1;
    }
    double t_write = secs_since(t0);
    if (out && cuzk_fc_c1_save(out, *json, j->json_len, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench c1-check: %s\n", err.msg);
        return -1;
    }
    j->c1 = c1;
    j->json = *json;
    j->wrapper = *wrapper;
    if (j->challenges_hold && write_wrapper_file(j) != 0)
        return -1;
    printf("c1-check %s (synthetic: miner 1000, sector 1): %u partitions x %u challenges, json %zu bytes "
           "(%.1f MB), wrapper %zu bytes (%.1f MB); made in %.3fs with %d threads, written in %.3fs%s%s\n",
           p->name, c1->n_partitions, c1->challenges_per_partition, j->json_len, (double)j->json_len / 1e6,
           j->wrapper_len, (double)j->wrapper_len / 1e6, t_make, threads, t_write, out ? "; saved to " : "",
           out ? out : "");
    if (!j->challenges_hold)
        printf("note: %s derives its %s challenges from comm_r, which a synthetic C1 cannot meet: its challenges "
               "are the seed's interactive ones, so check-challenges, parse-any and load (which run it) are skipped\n",
               p->name, cuzk_fc_challenge_kind_str(p->challenges));
    fflush(stdout);
    return 0;
}

static int run(const cuzk_fc_seal_proof_t *p, const uint8_t seed[32], int iters, int threads, const char *out)
{
    job_t j = {.challenges_hold = p->challenges == CUZK_FC_CHALLENGES_INTERACTIVE};
    cuzk_fc_c1_t c1;
    memset(&c1, 0, sizeof c1);
    char *json = NULL, *wrapper = NULL;
    double *t = calloc((size_t)iters * STAGES, sizeof *t), *col = calloc((size_t)iters, sizeof *col);
    int rc = t && col ? prepare(&j, &c1, &json, &wrapper, p, seed, threads, out) : -1;
    for (int it = 0; it < iters && rc == 0; it++)
        rc = iteration(&j, t + (size_t)it * STAGES);
    if (rc == 0) {
        static const char *names[STAGES] = {"c1-parse-noverify", "c1-verify", "c1-check-challenges",
                                            "c1-parse-any-noverify", "c1-parse-any", "c1-load"};
        size_t n_ch = (size_t)c1.n_partitions * c1.challenges_per_partition;
        micro_args a = {.threads = cuzk_cpu_count(), .iters = iters, .impl = cuzk_impl_active()};
        for (int s = 0; s < STAGES; s++) {
            if (!j.challenges_hold && (s == CHALLENGES || s == PARSE_ANY || s == LOAD))
                continue;
            for (int it = 0; it < iters; it++)
                col[it] = t[(size_t)it * STAGES + s];
            char name[96];
            snprintf(name, sizeof name, "%s %s", names[s], p->size_name);
            if (s == VERIFY || s == CHALLENGES)
                bench_print(name, &a, stats(col, iters), (double)n_ch, "challenges");
            else
                bench_print(name, &a, stats(col, iters),
                            (double)(s >= UNWRAP ? j.wrapper_len : j.json_len) / 1e6, "MB");
        }
    }
    if (j.wrapper_path[0])
        unlink(j.wrapper_path);
    free(t);
    free(col);
    free(json);
    free(wrapper);
    cuzk_fc_c1_free(&c1);
    return rc ? 1 : 0;
}

int bench_c1_check(int argc, char **argv)
{
    static const char *prog = "cuzk-bench c1-check";
    const char *size = NULL, *name = NULL, *out = NULL;
    int iters_i = 5, threads_i = cuzk_cpu_count();
    uint8_t seed[32] = {0};
    const cli_opt table[] = {
        CLI_STR_OPT("sector-size", 0, &size, "SIZE", "2KiB, 8MiB, 512MiB, 32GiB or 64GiB"),
        CLI_STR_OPT("registered-proof", 0, &name, "NAME", "the registered seal proof (default StackedDrg<SIZE>V1_1)"),
        CLI_INT_OPT("iters", 0, &iters_i, "K", 1, 100000, "timed iterations (default 5)"),
        CLI_INT_OPT("threads", 0, &threads_i, "T", 1, 1024,
                    "threads making the C1 (verify uses every online CPU; default: every CPU)"),
        CLI_HEX32_OPT("seed", 0, seed, "the bytes the C1 is made from (default: zero)"),
        CLI_STR_OPT("out", 0, &out, "FILE", "also write the C1's bare JSON there"),
        CLI_END};
    const cli_cmd c = {prog, NULL,
                       "Parse and check times of a SYNTHETIC C1 output (it passes every check, but no such sector\n"
                       "exists). The wrapper goes to a temporary file in TMPDIR (or /tmp) for the load stage, removed\n"
                       "at the end.\n",
                       table, 0, 0, NULL};
    int parsed = cli_parse(&c, argc, argv, NULL, NULL);
    if (parsed != CLI_CONTINUE)
        return parsed;
    long iters = iters_i, threads = threads_i;
    const cuzk_fc_seal_proof_t *p = NULL;
    cuzk_err_t err = {{0}};
    if (name && cuzk_fc_seal_proof_parse(&p, name, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench c1-check: --registered-proof: %s\n", err.msg);
        return 2;
    }
    uint64_t bytes = size ? cli_parse_sector_size(size) : 0;
    if (size && !p && !(p = default_proof(bytes)))
        return cli_usage_error(prog, "--sector-size: bad value '%s' (expects 2KiB, 8MiB, 512MiB, 32GiB or 64GiB)",
                               size);
    if (!p || (size && bytes != p->sector_size))
        return cli_usage_error(prog, "%s",
                               p ? "--sector-size and --registered-proof disagree" : "give --sector-size or --registered-proof");
    int rc = run(p, seed, (int)iters, (int)threads, out);
    if (rc)
        fprintf(stderr, "cuzk-bench c1-check: result check FAILED\n");
    return rc;
}
