/* Kernel template: the ec_ifma_ops table of one build of the point kernels, over ff's 8-lane Fp
 * arithmetic. A build file defines EC_IFMA_OPS_NAME (and IFMA_REAL for the AVX-512 build), then
 * includes this file once. */
#ifndef CUZK_EC_IFMA_KERNELS_H
#define CUZK_EC_IFMA_KERNELS_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "ec/ifma/ec_ifma.h"
#include "ff/ifma/simd512.h"
#include "ff/ifma/fp8_ops.h"
#include "ec/ifma/g1_batch_add.h"
#include "ec/ifma/g2_batch_add.h"
#include "ec/ifma/on_curve.h"

const ec_ifma_ops EC_IFMA_OPS_NAME = {
#if defined(IFMA_REAL)
    .name = "avx512-ifma",
#else
    .name = "emulated",
#endif
    .g1_batch_add = g1_batch_add_kernel,
    .g1_batch_add_skip = g1_batch_add_skip_kernel,
    .g2_batch_add = g2_batch_add_kernel,
    .g1_on_curve_n = k_g1_on_curve_n,
    .g2_on_curve_n = k_g2_on_curve_n,
    .fp_to_mont_n = k_fp_to_mont_n,
};

#endif
