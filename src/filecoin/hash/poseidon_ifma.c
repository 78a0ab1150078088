/* The real AVX-512 IFMA build of the 8-lane Poseidon (poseidon_ifma_kern.h). Only this file is compiled
 * with -mavx512f -mavx512ifma; poseidon.c uses its table only after ifma_available(). Without compiler
 * support it holds a placeholder that is never selected. */
#include <stdbool.h>
#include "filecoin/hash/poseidon_ifma.h"

#if defined(__AVX512F__) && defined(__AVX512IFMA__) && defined(__x86_64__)
#define IFMA_REAL 1
#define PL_KERNELS cuzk_pl_kernels_ifma
#define PL_NAME "ifma"
#include "filecoin/hash/poseidon_ifma_kern.h"
const bool cuzk_pl_kernels_ifma_compiled = true;
#else
const bool cuzk_pl_kernels_ifma_compiled = false;
const cuzk_pl_kernels_t cuzk_pl_kernels_ifma = {.name = "ifma (not compiled)"};
#endif
