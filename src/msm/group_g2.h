/* Template parameters for G2 (over Fp2): included before a *_tmpl.h file of src/msm/, undone by
 * group_undef.h. GP(name) names the G2 instance of a templated function or type. */
#include "cuzk/curve.h"
#include "ec/ifma/ec_ifma.h"
#include "msm/fe_inline.h"
#define FE fp2
#define FE_(op) msm_fp2_##op
#define FE_ONE FP2_ONE
#define AFF cuzk_g2_affine_t
#define JAC cuzk_g2_jac_t
#define GP(name) msm_g2_##name
#define GROUP_ID MSM_G2
#define GROUP_BATCH_KERNEL 1   /* G2 may flush through ec_ifma_ops.g2_batch_add */
#define GROUP_KERNEL_ADD g2_batch_add                              /* its ec_ifma_ops entry */
#define GROUP_KERNEL_SCRATCH ec_ifma_g2_batch_add_scratch_bytes    /* and scratch size */
