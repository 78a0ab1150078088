/* XYZZ point arithmetic for G1 and G2 (msm_g1_xyzz_*, msm_g2_xyzz_*): the coordinates used for
 * Pippenger's spill buckets, bucket reduction and window combination. Formulas: xyzz_tmpl.h. */
#ifndef CUZK_MSM_XYZZ_H
#define CUZK_MSM_XYZZ_H
#include <stdbool.h>
#include <string.h>

#include "msm/group_g1.h"
#include "msm/xyzz_tmpl.h"
#include "msm/group_undef.h"

#include "msm/group_g2.h"
#include "msm/xyzz_tmpl.h"
#include "msm/group_undef.h"

#endif
