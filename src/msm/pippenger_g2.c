/* G2 instance of the Pippenger driver (pippenger_tmpl.h): defines msm_g2_run. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "msm/digits.h"
#include "msm/msm_internal.h"
#include "msm/xyzz.h"
#include "util/bigmem.h"
#include "util/parallel.h"

#include "msm/group_g2.h"

static const ec_ifma_ops *forced_kernel;
static bool kernel_forced;

void msm_g2_force_kernel(const void *ops, bool force)
{
    forced_kernel = ops;
    kernel_forced = force;
}

/* The 8-lane batch add of the dispatch table's point kernels (NULL: the scalar flush). */
static const void *msm_g2_batch_kernel(void)
{
    if (kernel_forced)
        return forced_kernel;
    return ec_lanes();
}

#include "msm/bucket_tmpl.h"
#include "msm/pippenger_tmpl.h"

#include "msm/group_undef.h"
