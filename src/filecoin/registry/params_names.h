/* Filecoin's v28 parameter file names (storage-proofs-core parameter_cache.rs): "v28-<cache prefix>-<hex
 * sha256(identifier)>", where the identifier is the public parameters' identifier() string. Every circuit
 * Filecoin publishes parameters for: PoRep (all versions and kinds of a size share one file), Winning and
 * Window PoSt, SnapDeals and its Poseidon variant. The stem itself comes from cuzk_params_file_stem. */
#ifndef CUZK_FILECOIN_PARAMS_NAMES_H
#define CUZK_FILECOIN_PARAMS_NAMES_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/registry/registered_proof.h"

/* The PoRep circuit's identifier (StackedDrg PublicParams::identifier), its cache prefix
 * "stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher" and the file stem
 * (add ".params" / ".vk" / ".meta"). CUZK_ERR_BAD_LENGTH when out is too small (256 bytes always
 * suffice for the stem and prefix, 512 for the identifier). */
cuzk_status cuzk_fc_porep_params_identifier(char *out, size_t out_len, const cuzk_fc_seal_proof_t *p);
cuzk_status cuzk_fc_porep_params_prefix(char *out, size_t out_len, const cuzk_fc_seal_proof_t *p);
cuzk_status cuzk_fc_porep_params_stem(char *out, size_t out_len, const cuzk_fc_seal_proof_t *p);

typedef enum {
    CUZK_FC_CIRCUIT_POREP = 0,
    CUZK_FC_CIRCUIT_WINNING_POST = 1,   /* 66 challenges as 66 one-challenge "sectors" */
    CUZK_FC_CIRCUIT_WINDOW_POST = 2,    /* 10 challenges × 2 / 2349 (32GiB) / 2300 (64GiB) sectors */
    CUZK_FC_CIRCUIT_SNAP = 3,           /* empty sector update */
    CUZK_FC_CIRCUIT_SNAP_POSEIDON = 4,  /* Poseidon variant; published for 32GiB and 64GiB only */
} cuzk_fc_circuit_t;

/* The stem of a circuit's parameter files for a published sector size (2KiB, 8MiB, 512MiB, 32GiB,
 * 64GiB). CUZK_ERR_INVALID_ARG naming the size or circuit when there is no such circuit;
 * CUZK_ERR_BAD_LENGTH when out is too small (256 bytes suffice). */
cuzk_status cuzk_fc_params_stem(char *out, size_t out_len, cuzk_fc_circuit_t circuit, uint64_t sector_size,
                                cuzk_err_t *err);

#endif
