/* CUZK_TIMING lines: see timing.h. */
#include "util/timing.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/dispatch.h"
#include "util/timer.h"

bool cuzk_timing_from_env(void)
{
    const char *v = getenv("CUZK_TIMING");
    return v && *v && strcmp(v, "0") != 0;
}

bool cuzk_timing_enabled(void) { return cuzk_dispatch()->timing; }

void cuzk_timing_report(const char *phase, uint64_t start_ns)
{
    if (!cuzk_timing_enabled())
        return;
    double ms = (double)(cuzk_now_ns() - start_ns) / 1e6;
    char line[160];
    int len = snprintf(line, sizeof line, "CUZK_TIMING: phase=%s ms=%.3f\n", phase, ms);
    if (len > 0)
        fputs(line, stderr);   /* one call: lines from concurrent phases do not interleave */
}
