/* Run-time gate of the IFMA kernels: whether the real build exists and this CPU can run it.
 * Compiled without AVX-512 flags, so it is safe to call anywhere. */
#include "ff/ifma/ifma.h"
#include "cuzk/cuzk.h"

extern const bool ifma_compiled;
extern const ifma_ops ifma_ops_avx512;

bool ifma_available(void)
{
    return ifma_compiled && cuzk_impl_supported(CUZK_IMPL_IFMA);
}

const ifma_ops *ifma_ops_real(void)
{
    return ifma_available() ? &ifma_ops_avx512 : NULL;
}
