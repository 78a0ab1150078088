/* The real build of the lane recoding: this file alone is compiled with AVX-512 flags, and nothing
 * in it may run unless msm_recode_real() (recode.c) returned it. Without compiler support for those
 * flags the pointer stays NULL. */
#include "msm/recode.h"

#if defined(__AVX512F__) && defined(__AVX512IFMA__)
#define IFMA_REAL 1
#define MSM_RECODE_NAME msm_recode_avx512
#include "msm/recode_lanes.h"

msm_recode_fn *const msm_recode_avx512_built = msm_recode_avx512;
#else
msm_recode_fn *const msm_recode_avx512_built = NULL;
#endif
