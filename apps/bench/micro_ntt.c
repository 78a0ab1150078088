/* Micro benchmark of the NTT. */
#include <stdio.h>
#include "bench.h"

int micro_ntt(const micro_args *a) { (void)a; fprintf(stderr, "ntt: not built yet\n"); return 1; }
