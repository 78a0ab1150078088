/* The emulated build of the IFMA kernels: the same source as build_avx512.c over the portable
 * simd512.h emulation. It is the tests' bridge between the scalar oracle and the real kernels,
 * and is never selected for speed. */
#define IFMA_OPS_NAME ifma_ops_emulated
#include "ff/ifma/kernels.h"
