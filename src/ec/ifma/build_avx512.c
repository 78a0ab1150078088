/* The real build of the IFMA point kernels: this file alone is compiled with -mavx512f
 * -mavx512ifma, and nothing in it may run unless ec_ifma_ops_real() returned it (see ec_ifma.c).
 * Without compiler support for those flags it builds an empty table and ec_ifma_ops_real() stays
 * NULL. */
#include "ec/ifma/ec_ifma.h"

#if defined(__AVX512F__) && defined(__AVX512IFMA__)
#define IFMA_REAL 1
#define EC_IFMA_OPS_NAME ec_ifma_ops_avx512
#include "ec/ifma/kernels.h"

const bool ec_ifma_compiled = true;
#else
const bool ec_ifma_compiled = false;
const ec_ifma_ops ec_ifma_ops_avx512 = {.name = "avx512-ifma (not compiled)"};
#endif
