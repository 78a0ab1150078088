/* G2 instance of the Pippenger driver (pippenger_tmpl.h): defines msm_g2_run. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "msm/digits.h"
#include "msm/msm_internal.h"
#include "msm/recode.h"
#include "msm/xyzz.h"
#include "util/bigmem.h"
#include "util/parallel.h"

#include "msm/group_g2.h"

/* The 8-lane batch add of the dispatch table's point kernels (NULL: the scalar flush). */
static const void *msm_g2_batch_kernel(void) { return ec_lanes(); }

#include "msm/bucket_tmpl.h"
#include "msm/pippenger_tmpl.h"

#include "msm/group_undef.h"
