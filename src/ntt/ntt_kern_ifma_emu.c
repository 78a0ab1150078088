/* The emulated build of the IFMA NTT kernels: the same source as ntt_kern_ifma.c over the
 * portable simd512.h emulation, so that tests check the algorithm on any CPU. Never selected
 * for speed. */
#include "ntt/ntt_internal.h"

#define NTT_IFMA_SET ntt_kernels_ifma_emulated
#define NTT_IFMA_NAME "ifma-emulated"
#define NTT_IFMA_FALLBACK ntt_kernels_portable
#include "ntt/ntt_kern_ifma.h"
