/* Shape figures of the SnapDeals circuit synthesized blank: counts, non-zeros and densities from the count
 * backend, and optionally the TestConstraintSystem hash from the hash backend (no values, no matrices:
 * constant memory, so a 32GiB partition works too; cuzk_cs_blank_shape). */
#include "cs/shape.h"
#include "cuzk/snap.h"

static cuzk_status blank(cuzk_cs_t *cs, const void *cfg, cuzk_err_t *err)
{
    return cuzk_snap_synthesize(cs, cfg, NULL, 1, err);
}

cuzk_status cuzk_snap_circuit_info(cuzk_circuit_info_t *out, const cuzk_snap_config_t *cfg, bool with_hash,
                                   cuzk_err_t *err)
{
    return cuzk_cs_blank_shape(out, with_hash, blank, cfg, err);
}
