/* The emulated build of the IFMA point kernels: the same source as build_avx512.c over the portable
 * simd512.h emulation. It is the tests' bridge between the scalar oracle and the real kernels, and
 * is never selected for speed. */
#define EC_IFMA_OPS_NAME ec_ifma_ops_emulated
#include "ec/ifma/kernels.h"
