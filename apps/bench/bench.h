/* Benchmark harness for cuzk-bench: repeated timing with min / median / max, printed as one line; and the
 * micro benchmarks (cuzk_benchkit: they measure internal kernels). Public types only, for cuzk-bench.c. */
#ifndef CUZK_BENCH_H
#define CUZK_BENCH_H
#include <stdbool.h>
#include <stddef.h>
#include "cuzk/cuzk.h"

typedef struct {
    unsigned log2;     /* problem size 2^log2 (where the benchmark has a size) */
    bool log2_set;
    int threads;       /* explicit thread count */
    int iters;         /* timed repetitions */
    cuzk_impl_t impl;  /* arithmetic implementation in use */
    const char *backend; /* --backend (micro synth); NULL: all */
    const char *lc;      /* --lc: LC storage strategy (micro synth); NULL: all */
    unsigned window;     /* --window: MSM window bits (micro msm-*); 0: the automatic choice */
    bool porep_mix;      /* --scalars porep (micro msm-g1, msm-g2): PoRep's witness mix, not dense */
} micro_args;

typedef struct {
    double min, median, max; /* seconds */
} bench_stats;

/* Times `iters` calls of fn(ctx); each call is one sample. */
bench_stats bench_time(int iters, void (*fn)(void *ctx), void *ctx);
/* Prints "<name> [params]: min=<t> median=<t> max=<t> <rate> peak_rss=<GiB>" where the rate is
 * `work_per_call` units of `rate_unit` per second at the median (or per-op time if rate_unit is NULL and
 * work_per_call > 1), and the peak RSS is the process's so far (inputs and checks included). */
void bench_print(const char *name, const micro_args *a, bench_stats st, double work_per_call,
                 const char *rate_unit);
/* Formats seconds with a unit (ns, us, ms or s) into buf. */
const char *bench_fmt_time(char *buf, size_t cap, double seconds);

/* What a micro benchmark returns: its result checked and right, or wrong, or an argument it refuses, or
 * no result (out of memory, a setup step that failed); in the last two cases it has said why on stderr. */
enum { MICRO_OK = 0, MICRO_WRONG = 1, MICRO_BAD_ARG = 2, MICRO_ERROR = 3 };

/* An argument a micro benchmark refuses: the message in the tools' one error style (cli_usage_error,
 * as "cuzk-bench micro: <message>" and the try line); returns MICRO_BAD_ARG. */
int micro_bad_arg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The micro benchmarks; each returns a MICRO_* value. */
int micro_fp_mul(const micro_args *a);
int micro_fp_inv(const micro_args *a);
int micro_fr_mul(const micro_args *a);
int micro_g1_add(const micro_args *a);
int micro_g1_batch_add(const micro_args *a);
int micro_pairing(const micro_args *a);
int micro_msm_g1(const micro_args *a);
int micro_msm_g2(const micro_args *a);
int micro_msm_g1_bits(const micro_args *a);
int micro_ntt(const micro_args *a);
int micro_groth16_prove(const micro_args *a);
int micro_groth16_verify(const micro_args *a);
int micro_params_load(const micro_args *a);
int micro_synth(const micro_args *a);

#endif
