/* The AVX-512F build of the 16-lane Feistel encode (feistel_lanes.h). Only this file is compiled with
 * -mavx512f; feistel.c calls it only after the CPU check. Without compiler support it holds a stub
 * that is never selected. */
#include "filecoin/sdr/feistel_kernels.h"

#if defined(__AVX512F__) && defined(__x86_64__)
#define FEISTEL_LANES_FN encode_lanes
#include "filecoin/sdr/feistel_lanes.h"
const bool cuzk_fc_feistel_avx512_compiled = true;
void cuzk_fc_feistel_encode_lanes_avx512(const cuzk_fc_feistel_t *f, uint64_t *v, size_t n) { encode_lanes(f, v, n); }
#else
const bool cuzk_fc_feistel_avx512_compiled = false;
void cuzk_fc_feistel_encode_lanes_avx512(const cuzk_fc_feistel_t *f, uint64_t *v, size_t n)
{
    (void)f, (void)v, (void)n;
}
#endif
