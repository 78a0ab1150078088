/* The figures of a circuit synthesized blank, shared by the circuit-info calls of the circuits
 * (cuzk_porep_circuit_info, cuzk_post_circuit_info). */
#ifndef CUZK_CS_SHAPE_H
#define CUZK_CS_SHAPE_H
#include "cuzk/cs.h"

/* synthesize(cs, arg, err) with no values on the count backend for *out's counts, non-zeros and
 * densities and, with with_hash, again on the hash backend for the TestConstraintSystem hash: streamed in
 * constant memory, its header from the counts of the first run. *out is zero unless the count run
 * succeeded; has_hash is set only when both did. Errors of synthesize and of the backends. */
cuzk_status cuzk_cs_blank_shape(cuzk_circuit_info_t *out, bool with_hash,
                                cuzk_status (*synthesize)(cuzk_cs_t *cs, const void *arg, cuzk_err_t *err),
                                const void *arg, cuzk_err_t *err);

#endif
