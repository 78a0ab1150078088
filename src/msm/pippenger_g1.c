/* G1 instance of the Pippenger driver (pippenger_tmpl.h): defines msm_g1_run. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "msm/digits.h"
#include "msm/msm_internal.h"
#include "msm/xyzz.h"
#include "util/bigmem.h"
#include "util/parallel.h"

#include "ff/ff_impl.h"
#include "msm/group_g1.h"

static const ifma_ops *forced_kernel;
static bool kernel_forced;

void msm_g1_force_kernel(const void *ops, bool force)
{
    forced_kernel = ops;
    kernel_forced = force;
}

/* The 8-lane IFMA batch add when the CPU has it and the implementation switch selects it. */
static const void *msm_g1_batch_kernel(void)
{
    if (kernel_forced)
        return forced_kernel;
    return ff_get_impl() == CUZK_IMPL_IFMA ? ifma_ops_real() : NULL;
}

#include "msm/bucket_tmpl.h"
#include "msm/pippenger_tmpl.h"

#include "msm/group_undef.h"
