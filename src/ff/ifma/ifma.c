/* Run-time gate of the IFMA kernels: whether the real build exists and this CPU can run it.
 * Compiled without AVX-512 flags, so it is safe to call anywhere. */
#include "ff/ifma/ifma.h"
#include "util/cpu.h"

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

size_t ifma_g1_batch_add_scratch_bytes(size_t n)
{
    size_t rows = (n + 7) / 8;
    return rows > 1 ? (rows - 1) * sizeof(ifma_fp8) : 0;
}

/* The prefix products of all rows but the last, then the norms of all rows (g2_batch_add.h). */
size_t ifma_g2_batch_add_scratch_bytes(size_t n)
{
    size_t rows = (n + 7) / 8;
    return rows > 0 ? (2 * rows - 1) * sizeof(ifma_fp8) : 0;
}
