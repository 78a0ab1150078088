/* cuzk-bench: the benchmarks and the client of cuzk-daemon.
 *   cuzk-bench micro <name> [--log2 N] [--threads T] [--iters K] [--impl portable|adx|ifma]
 *                   [--window BITS]
 *   cuzk-bench synth-only [--kind porep|snap] (--c1 FILE | --sector-size SIZE) [--partition N] [-i ITER]
 *                   [--mode M] [--lc S] [--threads T]
 *   cuzk-bench [-a ADDR] single|batch|submit|await|cancel|status|preload|evict|metrics [options]
 *                   (single/batch/submit: a PoRep --c1, or --kind winning|window with --vanilla files)
 *   cuzk-bench gen-vanilla porep|winning|window|snap [options]
 *   cuzk-bench c1-check --sector-size SIZE [--registered-proof NAME] [--iters K] [--threads T]  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "cli_opts.h"
#include "bench/c1_bench.h"
#include "bench/client.h"
#include "bench/synth_only.h"
#include "cli_impl.h"
#include "cli_util.h"
#include "cuzk/cuzk.h"

typedef struct {
    const char *name;
    int (*run)(const micro_args *);
    bool threaded; /* false: runs on one thread whatever --threads says */
    const char *what;
} micro_entry;

static const micro_entry micros[] = {
    {"fp-mul", micro_fp_mul, false, "Fp (381-bit) Montgomery multiplication, dependent chain"},
    {"fp-inv", micro_fp_inv, false, "Fp (381-bit) inversion, constant and variable time"},
    {"fr-mul", micro_fr_mul, false, "Fr (255-bit) Montgomery multiplication, dependent chain"},
    {"g1-add", micro_g1_add, false, "G1 Jacobian + affine (mixed) addition"},
    {"g1-batch-add", micro_g1_batch_add, false, "the MSM's 8-lane batch-affine G1 addition, 1,024 pairs per call, 2^log2 buckets"},
    {"pairing", micro_pairing, false, "optimal ate pairing, Miller loop, final exponentiation, multi-pairing"},
    {"msm-g1", micro_msm_g1, true, "G1 MSM, 2^log2 random points and 255-bit scalars"},
    {"msm-g2", micro_msm_g2, true, "G2 MSM, 2^log2 random points and 255-bit scalars"},
    {"msm-g1-bits", micro_msm_g1_bits, true, "G1 MSM, 2^log2 points and random 0/1 scalars"},
    {"ntt", micro_ntt, true, "forward NTT over Fr of size 2^log2"},
    {"groth16-prove", micro_groth16_prove, true, "Groth16 proof of a 2^log2-row squaring chain (full-width witness)"},
    {"groth16-verify", micro_groth16_verify, true, "Groth16 verification, single and batch of 8"},
    {"params-load", micro_params_load, true, ".params loading (5 sections of 2^log2 points) at each check level"},
    {"synth", micro_synth, true, "synthesis of a 2^log2-constraint Filecoin-shaped circuit per backend and LC storage"},
};
#define N_MICROS (sizeof micros / sizeof micros[0])

/* The benchmark list (after micro's options). */
static void micro_list(FILE *f)
{
    fprintf(f, "\nmicro benchmarks:\n");
    for (size_t i = 0; i < N_MICROS; i++)
        fprintf(f, "  %-15s %s\n", micros[i].name, micros[i].what);
}

/* The commands (after the global options). */
static void commands(FILE *f)
{
    fprintf(f, "\ncommands:\n"
               "  micro <name> [options]   a micro benchmark ('cuzk-bench micro --help' lists them)\n"
               "  synth-only [options]     PoRep C2 or SnapDeals synthesis alone (real C1, all-zero witness,\n"
               "                           synthetic SnapDeals sector)\n"
               "  c1-check [options]       C1 parse and check times (synthetic C1, any sector size)\n\n");
    bench_client_usage(f);
    fprintf(f, "\n'cuzk-bench <command> --help' describes a command's options.\n");
}

static int cmd_micro(int argc, char **argv)
{
    static const char *const backends[] = {"count", "witness", "record", "direct", "all", NULL};
    static const char *const lcs[] = {"heap", "inline1", "inline2", "inline4", "arena", "default", "all", NULL};
    static const char *prog = "cuzk-bench micro";
    micro_args a = {.log2 = 0, .threads = cli_cpu_count(), .iters = 5, .impl = cuzk_impl_active()};
    static const char *const mixes[] = {"dense", "porep", NULL};
    int log2 = 0, window = 0, backend = -1, lc = -1, mix = 0;
    bool threads_set = false;
    const char *impl = NULL, *name = NULL;
    const cli_opt table[] = {
        CLI_INT_OPT("log2", 0, &log2, "N", 1, 30, "problem size 2^N (each benchmark has its default)",
                    .seen = &a.log2_set),
        CLI_INT_OPT("threads", 0, &a.threads, "T", 1, 1024, "threads (default: every CPU)", .seen = &threads_set),
        CLI_INT_OPT("iters", 0, &a.iters, "K", 1, 1000000, "timed repetitions (default 5)"),
        CLI_STR_OPT("impl", 0, &impl, "portable|adx|ifma", "the arithmetic implementation (default: the best)"),
        CLI_INT_OPT("window", 0, &window, "BITS", 1, 20, "msm-*: the widest Pippenger window (the scalars' bits split evenly) instead of the automatic one"),
        CLI_CHOICE_OPT("backend", 0, &backend, backends, "synth: the constraint system (default all)"),
        CLI_CHOICE_OPT("lc", 0, &lc, lcs, "synth: the LC storage (default all)"),
        CLI_CHOICE_OPT("scalars", 0, &mix, mixes,
                       "msm-g1, msm-g2: random 255-bit scalars (dense, the default) or PoRep's witness mix\n"
                       "(porep: mostly 0 and 1 with a dense tail, as a 32GiB partition's a (G1) and b (G2) MSMs)"),
        CLI_END};
    const cli_cmd c = {prog, "<name>",
                       "One micro benchmark: min, median and max over the repetitions, its result checked outside\n"
                       "the timed region (exit 1 when wrong; 2 for a size or option it refuses).\n",
                       table, 1, 1, micro_list};
    int n, rc = cli_parse(&c, argc, argv, &name, &n);
    if (rc != CLI_CONTINUE)
        return rc;
    const micro_entry *m = NULL;
    for (size_t i = 0; i < N_MICROS; i++)
        if (strcmp(name, micros[i].name) == 0)
            m = &micros[i];
    if (!m)
        return cli_usage_error(prog, "unknown micro benchmark '%s'", name);
    a.log2 = (unsigned)log2;
    a.window = (unsigned)window;
    a.backend = backend >= 0 ? backends[backend] : NULL;
    a.lc = lc >= 0 ? lcs[lc] : NULL;
    a.porep_mix = mix == 1;
    (void)impl; /* listed for --help: cli_impl_init took --impl off the command line and chose it */
    if (!m->threaded) {
        if (threads_set && a.threads != 1)
            fprintf(stderr, "%s: %s runs on one thread; --threads %d ignored\n", prog, m->name, a.threads);
        a.threads = 1; /* what its result line then says */
    }
    switch (m->run(&a)) {
    case MICRO_OK:
        return 0;
    case MICRO_WRONG:
        fprintf(stderr, "cuzk-bench: %s: result check FAILED\n", m->name);
        return 1;
    case MICRO_BAD_ARG: /* it said why, in the usage style */
        return CLI_EXIT_USAGE;
    default:
        fprintf(stderr, "cuzk-bench: %s: could not run (above)\n", m->name);
        return 1;
    }
}

int main(int argc, char **argv)
{
    static const char *prog = "cuzk-bench";
    int irc = cli_impl_init(prog, &argc, argv); /* --impl, CUZK_IMPL: before any command */
    if (irc)
        return irc;
    /* the client's global options come before the command */
    const char *addr = "http://127.0.0.1:9820", *log_level = NULL;
    const cli_opt table[] = {
        CLI_STR_OPT("addr", 'a', &addr, "ADDR", "the daemon of the client commands (default http://127.0.0.1:9820)"),
        CLI_STR_OPT("log-level", 0, &log_level, "LEVEL", "accepted as the original tool does; no effect here"),
        CLI_END};
    const cli_cmd c = {prog, NULL,
                       "cuzk-bench [global options] <command> [options]: the benchmarks, and the client of\n"
                       "cuzk-daemon.\n",
                       table, 0, 0, commands};
    int rest, rc = cli_parse_prefix(&c, argc, argv, &rest);
    if (rc != CLI_CONTINUE)
        return rc;
    (void)log_level;
    if (rest >= argc)
        return cli_usage_error(prog, "expected a command");
    const char *cmd = argv[rest];
    argc -= rest;
    argv += rest; /* argv[0]: the command */
    if (bench_client_command(cmd))
        return bench_client(addr, argc, argv);
    if (strcmp(cmd, "gen-vanilla") == 0)
        return bench_gen_vanilla(argc, argv);
    if (strcmp(cmd, "micro") == 0)
        return cmd_micro(argc, argv);
    if (strcmp(cmd, "synth-only") == 0)
        return bench_synth_only(argc, argv);
    if (strcmp(cmd, "c1-check") == 0)
        return bench_c1_check(argc, argv);
    return cli_usage_error(prog, "unknown command '%s'", cmd);
}
