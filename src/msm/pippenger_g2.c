/* G2 instance of the Pippenger driver (pippenger_tmpl.h): defines msm_g2_run. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "msm/digits.h"
#include "msm/msm_internal.h"
#include "msm/xyzz.h"
#include "util/parallel.h"

#include "msm/group_g2.h"

/* No vector kernel for G2 (yet): the scalar flush. */
static const void *msm_g2_batch_kernel(void)
{
    return NULL;
}

#include "msm/bucket_tmpl.h"
#include "msm/pippenger_tmpl.h"

#include "msm/group_undef.h"
