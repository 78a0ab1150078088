/* Development keys and key checks of a circuit given by its synthesis function (circuit_keys.h). */
#include "groth16/circuit_keys.h"

#include <string.h>

#include "cuzk/params.h"

cuzk_status cuzk_groth16_setup_circuit(cuzk_groth16_pk_t *pk,
                                       cuzk_status (*synthesize)(cuzk_cs_t *cs, const void *arg, cuzk_err_t *err),
                                       const void *arg, int threads, cuzk_err_t *err)
{
    memset(pk, 0, sizeof *pk);
    cuzk_cs_t *cs = NULL;
    cuzk_cs_record_t rec;
    memset(&rec, 0, sizeof rec);
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_RECORD, CUZK_LC_DEFAULT, err);
    if (st == CUZK_OK)
        st = synthesize(cs, arg, err);
    if (st == CUZK_OK)
        st = cuzk_cs_take_record(cs, &rec, err);
    cuzk_cs_free(cs);
    if (st == CUZK_OK)
        st = cuzk_groth16_setup(pk, &rec.r1cs, threads, err);
    cuzk_cs_record_free(&rec);
    return st;
}

cuzk_status cuzk_groth16_check_key_shape(const cuzk_groth16_pk_t *pk, const cuzk_circuit_info_t *info,
                                         cuzk_err_t *err)
{
    return cuzk_params_check_circuit(pk, info->num_inputs, info->num_aux, info->num_constraints,
                                     info->a_aux_density, info->b_input_density, info->b_aux_density, err);
}
