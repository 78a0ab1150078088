/* Sealing small sectors into real PoRep C1 outputs, as rust-fil-proofs' seal_pre_commit_phase1/2 and
 * seal_commit_phase1 do, all in memory: Fr32 padding, tree D and comm_d, the replica id, the SDR labels of
 * every layer, tree C, the replica and tree R, comm_r (precommit); then the vanilla proofs of the seed's
 * challenges (commit phase 1), written as the C1 JSON filecoin-ffi returns. For tests, benchmarks and
 * development: only sectors whose trees are base-only (2KiB, 8MiB, 512MiB) are sealed.
 *
 * The C1 JSON is what cuzk/porep.h takes (cuzk_porep_c1_parse; cuzk_porep_c1_wrap makes Curio's wrapper
 * of it). A sealed sector is immutable once made: any number of threads may make commit-phase-1 outputs
 * from one at the same time. */
#ifndef CUZK_SEAL_H
#define CUZK_SEAL_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/api.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What precommit needs. */
typedef struct {
    uint64_t proof_id;      /* the registered seal proof (cuzk/porep.h: cuzk_porep_registered_proof_parse) */
    uint64_t miner_id;      /* the prover id is derived from it as filecoin-ffi does (the ID address f0<id>) */
    uint64_t sector_num;
    uint8_t ticket[32];
    const uint8_t *data;    /* the sector's unpadded bytes (sector_size·127/128 of them), or NULL: all zero */
    size_t data_len;        /* exactly sector_size·127/128 when data is not NULL */
    int threads;            /* >= 0; 0 = every online CPU */
} cuzk_seal_request_t;

/* A sector sealed in memory: its data, labels and trees (about 32·(layers + 3) bytes per node). */
typedef struct cuzk_sealed_sector cuzk_sealed_sector_t;

/* Precommit. One thread labels, the others compute parents and trees beside it; memory while it runs:
 * (32·(layers + 2) + 56 + 64/7) bytes per node (3.2 GB at 512MiB). Errors: CUZK_ERR_INVALID_ARG (proof not
 * registered, data_len wrong, threads < 0), CUZK_ERR_UNSUPPORTED (a sector size whose trees are not
 * base-only: 32GiB, 64GiB), CUZK_ERR_NO_MEMORY. On success *out is a new sealed sector the caller frees;
 * on error it is NULL. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_seal_precommit(cuzk_sealed_sector_t **out, const cuzk_seal_request_t *req, cuzk_err_t *err);

/* comm_d and comm_r (32-byte little-endian field elements, as the C1 JSON and Filecoin's CIDs hold them).
 * Never fails. */
CUZK_API CUZK_NONNULL(1, 2, 3)
void cuzk_seal_commitments(const cuzk_sealed_sector_t *s, uint8_t comm_d[32], uint8_t comm_r[32]);

/* Commit phase 1: the registered proof's challenges for seed (interactive, synthetic or non-interactive, by
 * the proof) and each one's vanilla proof, checked as cuzk_porep_c1_parse checks a C1, then written as C1
 * JSON (serde's form, exactly the bytes filecoin-ffi writes) into a malloc'd NUL-terminated buffer *json
 * (*json_len bytes without the NUL) that the caller frees with free(); on error *json is NULL.
 * Errors: CUZK_ERR_NO_MEMORY, and the check's (which would mean a sealing bug). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3, 4)
cuzk_status cuzk_seal_commit1(char **json, size_t *json_len, const cuzk_sealed_sector_t *s, const uint8_t seed[32],
                              cuzk_err_t *err);

/* Frees a sealed sector (NULL-safe). */
CUZK_API void cuzk_seal_free(cuzk_sealed_sector_t *s);

#ifdef __cplusplus
}
#endif
#endif
