/* A PoSt circuit's Groth16 keys from a parameter directory laid out as Filecoin's (v28 file names): the .vk
 * always, the .params when proving, the directory's parameters.json digests when it has one, and the
 * development marker `cuzk params generate` leaves beside its files — the same rules as the PoRep keys
 * (porep/porep_keys.h), so that one directory serves both. */
#ifndef CUZK_FILECOIN_POST_KEYS_H
#define CUZK_FILECOIN_POST_KEYS_H
#include <stdbool.h>
#include <stdint.h>
#include "cuzk/groth16.h"
#include "cuzk/params.h"
#include "cuzk/post.h"
#include "cuzk/status.h"

/* The public cuzk_post_keys_t (post.h) is this structure, allocated by cuzk_post_keys_load. */
struct cuzk_post_keys {
    cuzk_post_params_paths_t paths;
    cuzk_groth16_vk_t vk;
    cuzk_params_t *params;       /* NULL unless opened with the proving parameters */
    const cuzk_groth16_pk_t *pk; /* every section decoded; lives in params */
    bool dev;                    /* development parameters (NOT a trusted setup) */
    bool manifest_checked;       /* the files' digests matched parameters.json */
    uint64_t params_bytes;       /* size of the .params file */
};

/* Reads the verifying key (its input count must be the circuit's), checks the manifest's digests when the
 * directory has one, and with with_params opens and decodes the .params file — every point checked on the
 * curve unless the manifest vouched for it — and checks its lengths against the circuit's. Errors name the
 * file: a missing file says how to make development parameters. On error *keys is empty. threads: decoding
 * threads (0 = every online CPU). */
cuzk_status cuzk_post_keys_open(cuzk_post_keys_t *keys, const char *dir, uint64_t proof_id, bool with_params,
                                int threads, cuzk_err_t *err);
void cuzk_post_keys_close(cuzk_post_keys_t *keys);
#endif
