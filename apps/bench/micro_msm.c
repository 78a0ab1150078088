/* Micro benchmarks of the multi-scalar multiplications: msm-g1, msm-g2, msm-g1-bits. */
#include <stdio.h>
#include "bench.h"

int micro_msm_g1(const micro_args *a) { (void)a; fprintf(stderr, "msm-g1: not built yet\n"); return 1; }
int micro_msm_g2(const micro_args *a) { (void)a; fprintf(stderr, "msm-g2: not built yet\n"); return 1; }
int micro_msm_g1_bits(const micro_args *a) { (void)a; fprintf(stderr, "msm-g1-bits: not built yet\n"); return 1; }
