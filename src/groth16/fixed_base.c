/* Fixed-base comb multiplication for G1 and G2 (see fixed_base.h). */
#include <stdlib.h>
#include "groth16/fixed_base.h"
#include "groth16/groth16_internal.h"
#include "util/parallel.h"

#define FB_WINDOWS 32   /* 8-bit windows over 256 bits */
#define FB_CHUNK 64     /* products converted to affine together (one shared inversion) */

#define FB_PREFIX g1
#define FB_AFF g1_aff
#define FB_JAC g1_jac
#include "groth16/fixed_base_tmpl.h"
#undef FB_PREFIX
#undef FB_AFF
#undef FB_JAC

#define FB_PREFIX g2
#define FB_AFF g2_aff
#define FB_JAC g2_jac
#include "groth16/fixed_base_tmpl.h"
