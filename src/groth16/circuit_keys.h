/* Keys for a circuit given by its synthesis function, shared by the Filecoin circuits (PoRep, PoSt,
 * SnapDeals): a development setup from the circuit's recorded matrices, and the check that a key fits the
 * circuit's shape. */
#ifndef CUZK_GROTH16_CIRCUIT_KEYS_H
#define CUZK_GROTH16_CIRCUIT_KEYS_H
#include "cuzk/cs.h"
#include "cuzk/groth16.h"
#include "cuzk/status.h"

/* Synthesizes the blank circuit (synthesize(cs, arg, err) on a fresh record system), then runs
 * cuzk_groth16_setup on its matrices with threads. *pk is zeroed first. Errors of synthesize, of the
 * record backend and of the setup. */
cuzk_status cuzk_groth16_setup_circuit(cuzk_groth16_pk_t *pk,
                                       cuzk_status (*synthesize)(cuzk_cs_t *cs, const void *arg, cuzk_err_t *err),
                                       const void *arg, int threads, cuzk_err_t *err);

/* cuzk_params_check_circuit with the lengths and densities of info (a circuit's blank shape). */
cuzk_status cuzk_groth16_check_key_shape(const cuzk_groth16_pk_t *pk, const cuzk_circuit_info_t *info,
                                         cuzk_err_t *err);

#endif
