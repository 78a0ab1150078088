/* Filecoin's v28 parameter file names (storage-proofs-core parameter_cache.rs): "v28-<cache prefix>-<hex
 * sha256(identifier)>", where the identifier is the public parameters' identifier() string. Every circuit
 * Filecoin publishes parameters for: PoRep (all versions and kinds of a size share one file), Winning and
 * Window PoSt, SnapDeals and its Poseidon variant. The stem itself comes from cuzk_params_file_stem.
 * And a circuit's key files found by those names in a parameter directory, by the same rules for every
 * circuit (the PoRep and PoSt keys both open theirs here). */
#ifndef CUZK_FILECOIN_PARAMS_NAMES_H
#define CUZK_FILECOIN_PARAMS_NAMES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/groth16.h"
#include "cuzk/params.h"
#include "cuzk/porep.h"
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

/* ---- a circuit's keys in a parameter directory ---------------------------------------------------------
 * <dir>/<stem>.params and .vk, the directory's parameters.json and the marker <stem>.cuzk-dev that
 * `cuzk params generate` leaves beside development parameters (cuzk/porep.h's Parameters). */

/* The file names of stem in dir (nothing is opened). CUZK_ERR_INVALID_ARG when the directory name is too
 * long or stem does not fit. */
cuzk_status cuzk_fc_params_paths(cuzk_porep_params_paths_t *out, const char *dir, const char *stem, cuzk_err_t *err);

/* What a circuit's key files must fit. */
typedef struct {
    const char *name;  /* the registered proof, for messages */
    size_t num_inputs; /* the circuit's public inputs, ONE excluded: the .vk has num_inputs + 1 IC points */
    /* the .params' lengths against the circuit's (CUZK_ERR_MISMATCH naming the first that differs) */
    cuzk_status (*check_key)(const cuzk_groth16_pk_t *pk, const void *arg, cuzk_err_t *err);
    const void *arg;
} cuzk_fc_key_circuit_t;

/* A circuit's keys. The public cuzk_porep_keys_t (porep.h) is this structure; cuzk_post_keys_t (post.h)
 * holds one. */
typedef struct cuzk_porep_keys cuzk_fc_keys_t;
struct cuzk_porep_keys {
    cuzk_porep_params_paths_t paths;
    cuzk_groth16_vk_t vk;
    cuzk_params_t *params;       /* NULL unless opened with the proving parameters */
    const cuzk_groth16_pk_t *pk; /* every section decoded; lives in params */
    bool dev;                    /* development parameters (NOT a trusted setup) */
};

/* Opens the keys at paths (cuzk_fc_params_paths): reads the verifying key (its input count must be the
 * circuit's), checks the manifest's digests when the directory has one, and with with_params opens and
 * decodes the .params file — every point checked on the curve unless the manifest vouched for it — and
 * checks it with circuit->check_key. Errors name the file: a missing file says how to make development
 * parameters. On error *keys is empty. threads: decoding threads (0 = every online CPU). */
cuzk_status cuzk_fc_keys_open(cuzk_fc_keys_t *keys, const cuzk_porep_params_paths_t *paths,
                              const cuzk_fc_key_circuit_t *circuit, bool with_params, int threads, cuzk_err_t *err);
/* Frees what keys hold and zeroes them. */
void cuzk_fc_keys_close(cuzk_fc_keys_t *keys);

#endif
