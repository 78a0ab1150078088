/* The emulated build of the lane recoding: the same source as recode_avx512.c over the portable
 * simd512.h emulation, for the tests; never selected for speed. */
#define MSM_RECODE_NAME msm_recode_emulated
#include "msm/recode_lanes.h"
