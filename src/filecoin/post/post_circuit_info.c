/* Shape figures of the Fallback PoSt circuit synthesized blank: counts, non-zeros and densities from the
 * count backend (in parallel chunks), and optionally the TestConstraintSystem hash from the hash backend
 * (no values, no matrices: constant memory, so a 32GiB Window PoSt partition works too;
 * cuzk_cs_blank_shape). */
#include "cs/shape.h"
#include "cuzk/post.h"
#include "util/parallel.h"

/* Counting joins in parallel for the same figures (a 32GiB Window partition on every CPU); the hash
 * backend, which does not join, is synthesized sequentially whatever the threads. */
static cuzk_status blank(cuzk_cs_t *cs, const void *cfg, cuzk_err_t *err)
{
    return cuzk_post_synthesize(cs, cfg, NULL, cuzk_cpu_count(), err);
}

cuzk_status cuzk_post_circuit_info(cuzk_circuit_info_t *out, const cuzk_post_config_t *cfg, bool with_hash,
                                   cuzk_err_t *err)
{
    return cuzk_cs_blank_shape(out, with_hash, blank, cfg, err);
}
