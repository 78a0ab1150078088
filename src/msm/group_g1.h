/* Template parameters for G1 (over Fp): included before a *_tmpl.h file of src/msm/, undone by
 * group_undef.h. GP(name) names the G1 instance of a templated function or type. */
#include "cuzk/curve.h"
#include "ec/ifma/ec_ifma.h"
#include "msm/fe_inline.h"
#define FE fp
#define FE_(op) msm_fp_##op
#define FE_ONE FP_ONE
#define AFF cuzk_g1_affine_t
#define JAC cuzk_g1_jac_t
#define GP(name) msm_g1_##name
#define GROUP_ID MSM_G1
#define GROUP_BATCH_KERNEL 1   /* G1 may flush through ec_ifma_ops.g1_batch_add */
#define GROUP_KERNEL_ADD g1_batch_add                              /* its ec_ifma_ops entry */
#define GROUP_KERNEL_SCRATCH ec_ifma_g1_batch_add_scratch_bytes    /* and scratch size */
#define GROUP_KERNEL_SKIP g1_batch_add_skip   /* equal x left to the caller: ba_add reads no bucket */
