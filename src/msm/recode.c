/* The scalar recoding and the run-time gate of the lane one. Compiled without AVX-512 flags, so it is
 * safe to call anywhere. */
#include "msm/recode.h"
#include "cuzk/cuzk.h"

extern msm_recode_fn *const msm_recode_avx512_built;

msm_recode_fn *msm_recode_real(void)
{
    return msm_recode_avx512_built && cuzk_impl_supported(CUZK_IMPL_IFMA) ? msm_recode_avx512_built : NULL;
}

void msm_recode_scalar(uint32_t *codes, const cuzk_scalar_t *scalars, const uint32_t *sidx, size_t lo,
                       size_t n, const msm_window *win)
{
    for (size_t j = 0; j < n; j++) {
        uint64_t t[4];
        uint32_t neg = msm_scalar_fold(t, &scalars[sidx ? sidx[lo + j] : lo + j]);
        int32_t d = msm_digit(t, win);
        uint32_t sgn = (uint32_t)d >> 31; /* branch-free |d|: the sign is a coin toss */
        uint32_t mag = ((uint32_t)d ^ (0u - sgn)) + sgn;
        codes[j] = mag ? (mag << 1) | (neg ^ sgn) : 0;
    }
}
