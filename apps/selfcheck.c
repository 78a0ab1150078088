/* `cuzk selfcheck`: prints the library's known-answer checks of the arithmetic (cuzk/selfcheck.h),
 * one line per check and implementation. */
#include "selfcheck.h"
#include <stdio.h>
#include "cuzk/selfcheck.h"

int selfcheck_run(void)
{
    cuzk_selfcheck_report_t r;
    unsigned failures = cuzk_selfcheck(&r);
    printf("cpu: bmi2=%d adx=%d avx2=%d avx512f=%d avx512ifma=%d; best implementation: %s\n", r.bmi2, r.adx,
           r.avx2, r.avx512f, r.avx512ifma, r.best);
    for (size_t i = 0; i < r.n; i++)
        printf("  [%s] %-44s %s\n", r.results[i].impl, r.results[i].check, r.results[i].ok ? "ok" : "FAILED");
    printf("selfcheck: %s\n", failures ? "FAILED" : "all checks passed");
    return (int)failures;
}
