/* The real AVX-512 IFMA build of the NTT kernels (ntt_kern_ifma.h). This file alone is compiled
 * with -mavx512f -mavx512ifma; ntt.c selects its table only after ifma_available() and
 * ntt_kernels_ifma_compiled said yes. Without compiler support it holds a placeholder that is
 * never selected. */
#include <stdbool.h>
#include "ntt/ntt_internal.h"

#if defined(__AVX512F__) && defined(__AVX512IFMA__) && defined(__x86_64__)
#define IFMA_REAL 1
#define NTT_IFMA_SET ntt_kernels_ifma
#define NTT_IFMA_NAME "ifma"
#define NTT_IFMA_FALLBACK ntt_kernels_adx /* IFMA implies ADX and BMI2 (cuzk_impl_supported) */
#include "ntt/ntt_kern_ifma.h"
const bool ntt_kernels_ifma_compiled = true;
#else
const bool ntt_kernels_ifma_compiled = false;
const ntt_kernels ntt_kernels_ifma = {.name = "ifma (not compiled)"};
#endif
