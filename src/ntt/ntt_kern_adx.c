/* The NTT kernels on the x86-64 MULX/ADCX/ADOX Montgomery multiplication (ntt_arith.h). */
#if defined(__x86_64__)
#define NTT_MUL ntt_mul_adx
#define NTT_KSFX(name) name##_adx
#define NTT_KNAME "adx"
#include "ntt/ntt_kern.h"
#else
typedef int ntt_kern_adx_unused; /* ISO C forbids an empty translation unit */
#endif
