/* Run-time gate of the lane recoding. Compiled without AVX-512 flags, so it is safe to call anywhere. */
#include "msm/recode.h"
#include "cuzk/cuzk.h"

extern const msm_recode_fn msm_recode_avx512_built;

msm_recode_fn msm_recode_real(void)
{
    return msm_recode_avx512_built && cuzk_impl_supported(CUZK_IMPL_IFMA) ? msm_recode_avx512_built : NULL;
}
