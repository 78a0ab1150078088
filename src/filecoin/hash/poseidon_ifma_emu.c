/* The emulated build of the 8-lane Poseidon: the same source as poseidon_ifma.c over simd512.h's
 * portable emulation, so that the lane algorithm is tested on any CPU. Never selected for speed. */
#include "filecoin/hash/poseidon_ifma.h"

#define PL_KERNELS cuzk_pl_kernels_emulated
#define PL_NAME "ifma-emulated"
#include "filecoin/hash/poseidon_ifma_kern.h"
