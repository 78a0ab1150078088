/* G1 MSM against (Σ k_i·a_i)·G, a naive point-by-point sum and the @noble/curves vectors. */
#include "ec/ec.h"
#include "ec/ifma/ec_ifma.h"
#include "msm/msm_internal.h"

#define T_AFF g1_aff
#define T_JAC g1_jac
#define T_(name) g1_##name
#define T_MSM cuzk_msm_g1
#define T_MSM_DENSITY cuzk_msm_g1_density
#define T_NAME "g1"
#define T_KAT_TAG "g1_mul"
#define T_UNCOMP_BYTES 96
#define T_DESERIALIZE cuzk_g1_deserialize
#define T_POINTWISE_N 300
#define T_SWEEP_N 150
#define T_SWEEP_MAX_WINDOW 16
#define T_SHAPES_N 1200
#define T_DENSITY_N 1000
#define T_RANDOM_ROUNDS 8
#define T_RANDOM_MAX_N 3000
#define T_KERNEL 1
#define T_KERNEL_N 1500
#define T_GLV 1
#include "msm_test_tmpl.h"

int main(void) { return t_main("test_msm_g1"); }
