/* The PoRep circuit's Groth16 keys from a parameter directory laid out as Filecoin's (v28 file names):
 * the .vk always, the .params when proving, the directory's parameters.json digests when it has one,
 * and the development marker `cuzk params generate` leaves beside its files — by the rules every
 * circuit's keys follow (registry/params_names.h). Shared by the offline tool and the engine, so both
 * accept exactly the same directories. */
#ifndef CUZK_FILECOIN_POREP_KEYS_H
#define CUZK_FILECOIN_POREP_KEYS_H
#include <stdbool.h>
#include "cuzk/porep.h"
#include "cuzk/status.h"
#include "filecoin/registry/params_names.h"
#include "filecoin/registry/registered_proof.h"

/* The public cuzk_porep_keys_t (porep.h) is cuzk_fc_keys_t (params_names.h), allocated by
 * cuzk_porep_keys_load; the calls below fill one in the caller's storage. */

/* cuzk_fc_keys_open for proof's circuit: the .vk's input count and the .params' lengths are the
 * circuit's. On error *keys is empty. threads: decoding threads (0 = every online CPU). */
cuzk_status cuzk_porep_keys_open(cuzk_porep_keys_t *keys, const char *dir, const cuzk_fc_seal_proof_t *proof,
                                 bool with_params, int threads, cuzk_err_t *err);
/* The same with the .params opened but not decoded (cuzk_porep_keys_load_streamed). */
cuzk_status cuzk_porep_keys_open_streamed(cuzk_porep_keys_t *keys, const char *dir, const cuzk_fc_seal_proof_t *proof,
                                          int threads, cuzk_err_t *err);
void cuzk_porep_keys_close(cuzk_porep_keys_t *keys);
#endif
