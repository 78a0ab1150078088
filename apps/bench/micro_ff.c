/* Micro benchmarks of the field arithmetic: fp-mul, fr-mul. */
#include <stdio.h>
#include "bench.h"

int micro_fp_mul(const micro_args *a) { (void)a; fprintf(stderr, "fp-mul: not built yet\n"); return 1; }
int micro_fr_mul(const micro_args *a) { (void)a; fprintf(stderr, "fr-mul: not built yet\n"); return 1; }
