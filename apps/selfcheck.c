/* Quick checks that the arithmetic works on this machine, for every implementation it supports. */
#include "selfcheck.h"
#include <stdio.h>
#include "util/cpu.h"

int cuzk_selfcheck(void)
{
    const cuzk_cpu_features *f = cuzk_cpu();
    printf("cpu: bmi2=%d adx=%d avx512f=%d avx512ifma=%d; best implementation: %s\n", f->bmi2, f->adx,
           f->avx512f, f->avx512ifma, cuzk_impl_name(cuzk_impl_best()));
    return 0;
}
