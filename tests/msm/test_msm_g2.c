/* G2 MSM against (Σ k_i·a_i)·G, a naive point-by-point sum and the @noble/curves vectors; the
 * batch-affine flush forced through the IFMA kernel (emulated, real) and the scalar code. */
#include "ec/ec.h"
#include "ec/ifma/ec_ifma.h"
#include "msm/msm_internal.h"

#define T_AFF g2_aff
#define T_JAC g2_jac
#define T_(name) g2_##name
#define T_MSM cuzk_msm_g2
#define T_MSM_DENSITY cuzk_msm_g2_density
#define T_NAME "g2"
#define T_KAT_TAG "g2_mul"
#define T_UNCOMP_BYTES 192
#define T_DESERIALIZE cuzk_g2_deserialize
#define T_POINTWISE_N 100
#define T_SWEEP_N 80
#define T_SWEEP_MAX_WINDOW 16
#define T_SHAPES_N 600
#define T_DENSITY_N 500
#define T_RANDOM_ROUNDS 5
#define T_RANDOM_MAX_N 1500
#define T_KERNEL 1
#define T_KERNEL_ALL 1
#define T_KERNEL_N 600
#include "msm_test_tmpl.h"

int main(void) { return t_main("test_msm_g2"); }
