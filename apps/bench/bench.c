/* Timing loop and summary printing shared by every micro benchmark. */
#include "bench.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include "util/timer.h"
#include "cli_opts.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

bench_stats bench_time(int iters, void (*fn)(void *ctx), void *ctx)
{
    if (iters < 1)
        iters = 1;
    double *t = malloc(sizeof(double) * (size_t)iters);
    for (int i = 0; i < iters; i++) {
        uint64_t t0 = cuzk_now_ns();
        fn(ctx);
        t[i] = (double)(cuzk_now_ns() - t0) * 1e-9;
    }
    qsort(t, (size_t)iters, sizeof(double), cmp_double);
    bench_stats st = {t[0], iters % 2 ? t[iters / 2] : 0.5 * (t[iters / 2 - 1] + t[iters / 2]),
                      t[iters - 1]};
    free(t);
    return st;
}

const char *bench_fmt_time(char *buf, size_t cap, double s)
{
    if (s < 1e-6)
        snprintf(buf, cap, "%.2fns", s * 1e9);
    else if (s < 1e-3)
        snprintf(buf, cap, "%.2fus", s * 1e6);
    else if (s < 1.0)
        snprintf(buf, cap, "%.2fms", s * 1e3);
    else
        snprintf(buf, cap, "%.3fs", s);
    return buf;
}

void bench_print(const char *name, const micro_args *a, bench_stats st, double work_per_call,
                 const char *rate_unit)
{
    char b0[32], b1[32], b2[32], b3[32];
    printf("%s", name);
    if (a->log2_set)
        printf(" log2=%u", a->log2);
    printf(" threads=%d impl=%s iters=%d: min=%s median=%s max=%s", a->threads,
           cuzk_impl_name(a->impl), a->iters, bench_fmt_time(b0, sizeof b0, st.min),
           bench_fmt_time(b1, sizeof b1, st.median), bench_fmt_time(b2, sizeof b2, st.max));
    if (rate_unit)
        printf(" rate=%.3g %s/s", work_per_call / st.median, rate_unit);
    else if (work_per_call > 1)
        printf(" per-op=%s", bench_fmt_time(b3, sizeof b3, st.median / work_per_call));
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        printf(" peak_rss=%.2fGiB", (double)ru.ru_maxrss / (1 << 20));
    printf("\n");
    fflush(stdout);
}

int micro_bad_arg(const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_usage_error("cuzk-bench micro", "%s", msg);
    return MICRO_BAD_ARG;
}
