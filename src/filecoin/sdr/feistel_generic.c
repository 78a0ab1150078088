/* The portable build of the 16-lane Feistel encode (feistel_lanes.h): the same source as the AVX-512
 * build, compiled for the baseline CPU, so that the lane algorithm is tested everywhere. */
#include "filecoin/sdr/feistel_kernels.h"

#define FEISTEL_LANES_FN encode_lanes
#include "filecoin/sdr/feistel_lanes.h"

void cuzk_fc_feistel_encode_lanes_generic(const cuzk_fc_feistel_t *f, uint64_t *v, size_t n) { encode_lanes(f, v, n); }
