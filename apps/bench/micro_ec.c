/* Micro benchmarks of the curve arithmetic: g1-add. */
#include <stdio.h>
#include "bench.h"

int micro_g1_add(const micro_args *a) { (void)a; fprintf(stderr, "g1-add: not built yet\n"); return 1; }
