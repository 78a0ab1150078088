/* Shape figures of the PoRep circuit synthesized blank: counts, non-zeros and densities from the
 * count backend, and optionally the TestConstraintSystem hash from the hash backend (no values, no
 * matrices: constant memory, so production sizes work too; cuzk_cs_blank_shape). */
#include "cs/shape.h"
#include "filecoin/porep/porep_circuit.h"

static cuzk_status blank(cuzk_cs_t *cs, const void *cfg, cuzk_err_t *err)
{
    return cuzk_porep_synthesize(cs, cfg, NULL, err);
}

cuzk_status cuzk_porep_circuit_info(cuzk_circuit_info_t *out, const cuzk_porep_config_t *cfg, bool with_hash,
                                    cuzk_err_t *err)
{
    return cuzk_cs_blank_shape(out, with_hash, blank, cfg, err);
}
