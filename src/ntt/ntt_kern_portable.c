/* The NTT kernels on the portable (unsigned __int128) Montgomery multiplication: the reference
 * the other instances are tested against, and the code used off x86-64. */
#define NTT_MUL ntt_mul_portable
#define NTT_KSFX(name) name##_portable
#define NTT_KNAME "portable"
#include "ntt/ntt_kern.h"
