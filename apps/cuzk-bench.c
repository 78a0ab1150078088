/* cuzk-bench: the benchmarks and the client of cuzk-daemon.
 *   cuzk-bench micro <name> [--log2 N] [--threads T] [--iters K] [--impl portable|adx|ifma]
 *                   [--window BITS]
 *   cuzk-bench synth-only (--c1 FILE | --sector-size SIZE) [--partition N] [-i ITER] [--mode M] [--lc S]
 *                   [--threads T]
 *   cuzk-bench [-a ADDR] single|batch|submit|await|cancel|status|preload|evict|metrics [options]
 *   cuzk-bench gen-vanilla porep [options]
 *   cuzk-bench c1-check --sector-size SIZE [--registered-proof NAME] [--iters K] [--threads T]  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "bench/c1_bench.h"
#include "bench/client.h"
#include "bench/synth_only.h"
#include "ff/ff_impl.h"
#include "util/parallel.h"

typedef struct {
    const char *name;
    int (*run)(const micro_args *);
    const char *what;
} micro_entry;

static const micro_entry micros[] = {
    {"fp-mul", micro_fp_mul, "Fp (381-bit) Montgomery multiplication, dependent chain"},
    {"fr-mul", micro_fr_mul, "Fr (255-bit) Montgomery multiplication, dependent chain"},
    {"g1-add", micro_g1_add, "G1 Jacobian + affine (mixed) addition"},
    {"pairing", micro_pairing, "optimal ate pairing, Miller loop, final exponentiation, multi-pairing"},
    {"msm-g1", micro_msm_g1, "G1 MSM, 2^log2 random points and 255-bit scalars"},
    {"msm-g2", micro_msm_g2, "G2 MSM, 2^log2 random points and 255-bit scalars"},
    {"msm-g1-bits", micro_msm_g1_bits, "G1 MSM, 2^log2 points and random 0/1 scalars"},
    {"ntt", micro_ntt, "forward NTT over Fr of size 2^log2"},
    {"groth16-prove", micro_groth16_prove, "Groth16 proof of a 2^log2-row squaring chain (full-width witness)"},
    {"groth16-verify", micro_groth16_verify, "Groth16 verification, single and batch of 8"},
    {"params-load", micro_params_load, ".params loading (5 sections of 2^log2 points) at each check level"},
    {"synth", micro_synth, "synthesis of a 2^log2-constraint Filecoin-shaped circuit per backend and LC storage"},
};
#define N_MICROS (sizeof micros / sizeof micros[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk-bench micro <name> [--log2 N] [--threads T] [--iters K] "
               "[--impl portable|adx|ifma]\n"
               "                  [--backend count|witness|record|direct|all] "
               "[--lc heap|inline1|inline2|inline4|arena|default|all]   (synth)\n"
               "                  [--window BITS]   (msm-*: instead of the automatic window)\n\nmicro benchmarks:\n");
    for (size_t i = 0; i < N_MICROS; i++)
        fprintf(f, "  %-15s %s\n", micros[i].name, micros[i].what);
    fprintf(f, "\n       cuzk-bench synth-only --help   PoRep C2 synthesis alone (real C1 or all-zero witness)\n"
               "       cuzk-bench c1-check --help     C1 parse and check times (synthetic C1, any sector size)\n\n"
               "       cuzk-bench [-a ADDR] [--log-level L] <client command> [options]\n");
    bench_client_usage(f);
}

static int parse_int(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi) {
        fprintf(stderr, "cuzk-bench: %s expects an integer in [%ld, %ld], got '%s'\n", opt, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

static bool one_of(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

static int cmd_micro(int argc, char **argv)
{
    if (argc < 1) {
        usage(stderr);
        return 2;
    }
    const micro_entry *m = NULL;
    for (size_t i = 0; i < N_MICROS; i++)
        if (strcmp(argv[0], micros[i].name) == 0)
            m = &micros[i];
    if (!m) {
        fprintf(stderr, "cuzk-bench: unknown micro benchmark '%s'\n", argv[0]);
        usage(stderr);
        return 2;
    }
    micro_args a = {.log2 = 0, .threads = cuzk_cpu_count(), .iters = 5, .impl = ff_get_impl()};
    for (int i = 1; i < argc; i++) {
        long v;
        const char *opt = argv[i];
        if (i + 1 >= argc) {
            fprintf(stderr, "cuzk-bench: option %s needs a value\n", opt);
            return 2;
        }
        const char *val = argv[++i];
        if (strcmp(opt, "--log2") == 0) {
            if (parse_int(opt, val, 1, 30, &v))
                return 2;
            a.log2 = (unsigned)v, a.log2_set = true;
        } else if (strcmp(opt, "--threads") == 0) {
            if (parse_int(opt, val, 1, 1024, &v))
                return 2;
            a.threads = (int)v;
        } else if (strcmp(opt, "--iters") == 0) {
            if (parse_int(opt, val, 1, 1000000, &v))
                return 2;
            a.iters = (int)v;
        } else if (strcmp(opt, "--window") == 0) {
            if (parse_int(opt, val, 1, 20, &v))
                return 2;
            a.window = (unsigned)v;
        } else if (strcmp(opt, "--impl") == 0) {
            if (!cuzk_impl_parse(val, &a.impl)) {
                fprintf(stderr, "cuzk-bench: --impl expects portable, adx or ifma, got '%s'\n", val);
                return 2;
            }
            if (ff_set_impl(a.impl) != CUZK_OK) {
                fprintf(stderr, "cuzk-bench: implementation '%s' is not supported by this CPU\n", val);
                return 2;
            }
        } else if (strcmp(opt, "--backend") == 0) {
            static const char *const ok[] = {"count", "witness", "record", "direct", "all"};
            if (!one_of(val, ok, sizeof ok / sizeof ok[0])) {
                fprintf(stderr, "cuzk-bench: --backend expects count, witness, record, direct or all, got '%s'\n", val);
                return 2;
            }
            a.backend = val;
        } else if (strcmp(opt, "--lc") == 0) {
            static const char *const ok[] = {"heap", "inline1", "inline2", "inline4", "arena", "default", "all"};
            if (!one_of(val, ok, sizeof ok / sizeof ok[0])) {
                fprintf(stderr, "cuzk-bench: --lc expects heap, inline1, inline2, inline4, arena, default or all, "
                                "got '%s'\n", val);
                return 2;
            }
            a.lc = val;
        } else {
            fprintf(stderr, "cuzk-bench: unknown option '%s'\n", opt);
            return 2;
        }
    }
    int rc = m->run(&a);
    if (rc)
        fprintf(stderr, "cuzk-bench: %s: result check FAILED\n", m->name);
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    /* the client's global options come before the command */
    const char *addr = "http://127.0.0.1:9820";
    int i = 1;
    while (i + 1 < argc && (strcmp(argv[i], "-a") == 0 || strcmp(argv[i], "--addr") == 0 ||
                            strcmp(argv[i], "--log-level") == 0)) {
        if (argv[i][1] == 'a' || argv[i][2] == 'a')
            addr = argv[i + 1];
        i += 2;
    }
    argc -= i - 1;
    argv += i - 1;
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (bench_client_command(argv[1]))
        return bench_client(addr, argv[1], argc - 2, argv + 2);
    if (strcmp(argv[1], "gen-vanilla") == 0)
        return bench_gen_vanilla(argc - 2, argv + 2);
    if (strcmp(argv[1], "micro") == 0)
        return cmd_micro(argc - 2, argv + 2);
    if (strcmp(argv[1], "synth-only") == 0)
        return bench_synth_only(argc - 2, argv + 2);
    if (strcmp(argv[1], "c1-check") == 0)
        return bench_c1_check(argc - 2, argv + 2);
    fprintf(stderr, "cuzk-bench: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
