/* Run-time gate of the IFMA point kernels: whether the real build exists and this CPU can run it,
 * and the scratch sizes. Compiled without AVX-512 flags, so it is safe to call anywhere. */
#include "ec/ifma/ec_ifma.h"
#include "cuzk/cuzk.h"
#include "ff/ifma/ifma.h"

extern const bool ec_ifma_compiled;
extern const ec_ifma_ops ec_ifma_ops_avx512;

const ec_ifma_ops *ec_ifma_ops_real(void)
{
    return ec_ifma_compiled && cuzk_impl_supported(CUZK_IMPL_IFMA) ? &ec_ifma_ops_avx512 : NULL;
}

const void *ec_lanes_variant(cuzk_variant v)
{
    return v == CUZK_VARIANT_IFMA ? ec_ifma_ops_real() : NULL;
}

/* Per row of 8 pairs, what the forward pass keeps for the backward one (g1_scratch_row in
 * g1_batch_add.h: the prefix product, x1, x1 + x2, x2 - x1), then one byte per row (its equal-x lanes);
 * 63 bytes more, so that the kernel can start the rows on a cache line whatever the caller's alignment. */
size_t ec_ifma_g1_batch_add_scratch_bytes(size_t n)
{
    size_t rows = (n + 15) / 16 * 2; /* rows go in pairs (g1_batch_add.h) */
    return rows * (4 * sizeof(ifma_fp8) + 1) + 63;
}

/* The prefix products of all rows but the last, then the norms of all rows (g2_batch_add.h). */
size_t ec_ifma_g2_batch_add_scratch_bytes(size_t n)
{
    size_t rows = (n + 7) / 8;
    return rows > 0 ? (2 * rows - 1) * sizeof(ifma_fp8) : 0;
}
