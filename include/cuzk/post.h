/* Fallback Proof-of-Spacetime: Winning PoSt (a block's election: one sector, 66 challenges, seconds to
 * answer) and Window PoSt (every sector, every 24 hours: up to 2349 sectors of 10 challenges per
 * partition), from the vanilla proofs Curio and filecoin-ffi hand over (one bincode
 * FallbackPoStSectorProof per sector) to Groth16 proofs the chain accepts, and their verification.
 *
 *   cuzk_post_vanilla_t *v;  cuzk_post_keys_t *keys;
 *   cuzk_post_vanilla_load(&v, "sector.vproof", &err);
 *   const cuzk_post_vanilla_t *sectors[1] = {v};
 *   cuzk_post_request_t req = {.proof_id = 3, .miner_id = 1000, .vanilla = sectors, .n_vanilla = 1};
 *   memcpy(req.randomness, randomness, 32);
 *   cuzk_post_keys_load(&keys, dir, req.proof_id, true, 0, &err);
 *   cuzk_post_prove(&proof, &req, cuzk_post_keys_pk(keys), NULL, NULL, &err);
 *   cuzk_post_verify(&valid, &req, cuzk_post_keys_vk(keys), &proof, &err);
 *
 * The circuit is storage-proofs-post's FallbackPoStCircuit (src/fallback/circuit.rs, compound.rs), built
 * with the same variables, constraints and linear combinations in the same order: per sector comm_r as
 * a public input, comm_r = Poseidon2(comm_c, comm_r_last), then per challenge a Poseidon inclusion proof
 * into tree R (private root comm_r_last) whose path bits are the challenged leaf, a public input.
 * A Winning PoSt circuit has 66 "sectors" of one challenge each (the one sector's 66 challenges); a
 * Window PoSt circuit has the partition's sectors of 10 challenges, the last repeated to fill it.
 *
 * Ownership: vanilla proofs, keys and partitions are opaque and the caller's (their _free calls accept
 * NULL); witnesses own their arrays from _init to _free. A request only points at the caller's vanilla
 * proofs. Threading: vanilla proofs and keys are immutable once made and may be shared by any number of
 * threads; a partition belongs to one thread at a time.
 * Errors: every call that can fail returns a cuzk_status and, when err is not NULL, a message naming
 * what was wrong (sector, challenge, field, file). Bad input never aborts. */
#ifndef CUZK_POST_H
#define CUZK_POST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/api.h"
#include "cuzk/cs.h"
#include "cuzk/field.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/porep.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Registered PoSt proofs ------------------------------------------------------------------------
 * Filecoin's RegisteredPoStProof (rust-filecoin-proofs-api src/registry.rs): Winning 0–4 and Window 5–9
 * (V1), Window 10–14 (V1_1 in Filecoin's Go types; filecoin-proofs-api runs them under API V1_2). Ids
 * are dense from 0; lookups are pure (any thread). */

typedef enum {
    CUZK_POST_WINNING = 0,
    CUZK_POST_WINDOW = 1,
} cuzk_post_kind;

typedef struct {
    uint32_t id;                 /* the RegisteredPoStProof number */
    const char *name;            /* as filecoin-proofs-api names it: "StackedDrgWindow32GiBV1_2", whose
                                  * Go name is StackedDrgWindow32GiBV1_1 (static storage) */
    const char *size_name;       /* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (static storage) */
    uint64_t sector_size;        /* bytes */
    cuzk_post_kind kind;
    cuzk_porep_api_version api;  /* the version filecoin-proofs-api runs it under (challenge indexes) */
    uint32_t sector_count;       /* circuit sectors per partition: Winning 66, Window 2 / 2349 / 2300 */
    uint32_t challenge_count;    /* challenges per circuit sector: Winning 1, Window 10 */
    uint32_t vanilla_sectors;    /* sectors one proof covers: Winning 1, Window sector_count */
    uint32_t vanilla_challenges; /* inclusion paths in one sector's vanilla proof: Winning 66, Window 10 */
} cuzk_post_registered_proof_t;

/* The registered proof numbered id. CUZK_ERR_INVALID_ARG naming the id when none is. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_post_registered_proof(cuzk_post_registered_proof_t *out, uint64_t id, cuzk_err_t *err);
/* The same by name: "StackedDrgWinning32GiBV1", "StackedDrgWindow32GiBV1_2", the Go names (ids 10..14 end
 * in V1_1 there: "StackedDrgWindow32GiBV1_1"), either with the prefix "RegisteredPoStProof_", or the number
 * as decimal text. CUZK_ERR_INVALID_ARG naming the name. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_post_registered_proof_parse(cuzk_post_registered_proof_t *out, const char *name, cuzk_err_t *err);
/* The proof Filecoin registers today for a kind and sector size: Winning V1, Window V1_1 (what `cuzk
 * params generate --kind winning-post` means by a size). CUZK_ERR_INVALID_ARG for another size. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_post_registered_proof_for_size(cuzk_post_registered_proof_t *out, cuzk_post_kind kind,
                                                uint64_t sector_size, cuzk_err_t *err);
/* The proof of a kind a caller names: by name or number (cuzk_post_registered_proof_parse) when name is not
 * NULL, else the kind's proof for sector_size (cuzk_post_registered_proof_for_size); a named proof must be
 * of kind and, when sector_size is not 0, of that sector size. CUZK_ERR_INVALID_ARG naming the proof and
 * what differs. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_post_registered_proof_select(cuzk_post_registered_proof_t *out, cuzk_post_kind kind,
                                              const char *name, uint64_t sector_size, cuzk_err_t *err);

/* ---- The circuit --------------------------------------------------------------------------------- */

typedef struct {
    uint64_t nodes;             /* leaves of tree R: sector size / 32 */
    uint32_t sector_count;      /* circuit sectors per partition */
    uint32_t challenge_count;   /* challenges per circuit sector */
    uint32_t base_arity, sub_arity, top_arity; /* tree R: 8-0-0, 8-8-0, 8-8-2 (0: none) */
} cuzk_post_config_t;

/* The circuit of a registered PoSt proof. CUZK_ERR_INVALID_ARG for an unknown id. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_post_config_for_proof(cuzk_post_config_t *cfg, uint64_t proof_id, cuzk_err_t *err);
/* CUZK_ERR_INVALID_ARG naming the field the circuit cannot be built for. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_post_config_check(const cuzk_post_config_t *cfg, cuzk_err_t *err);
/* Public inputs of a partition, ONE included: 1 + sector_count·(1 + challenge_count). */
CUZK_API size_t cuzk_post_num_inputs(const cuzk_post_config_t *cfg);
/* Path elements and sibling hashes of a tree-R path. */
CUZK_API uint32_t cuzk_post_tree_levels(const cuzk_post_config_t *cfg);
CUZK_API size_t cuzk_post_tree_siblings(const cuzk_post_config_t *cfg);

/* One circuit sector: comm_r, comm_c, comm_r_last and one tree-R path per challenge (leaf: the
 * challenged replica node; root: comm_r_last). Values are optional as in cuzk_porep_witness_t. */
typedef struct {
    cuzk_fr_t comm_r, comm_c, comm_r_last;
    bool has_comms;          /* the three commitments are set */
    cuzk_porep_path_t *paths; /* cfg.challenge_count of them, arrays in place */
} cuzk_post_sector_witness_t;

typedef struct {
    cuzk_post_config_t cfg;
    cuzk_post_sector_witness_t *sectors; /* cfg.sector_count */
    void *storage_;                      /* internal: one allocation behind every array */
} cuzk_post_witness_t;

/* Allocates a witness for cfg with every array in place and every value absent. Errors of
 * cuzk_post_config_check, CUZK_ERR_NO_MEMORY. Free with cuzk_post_witness_free (also after a failed
 * init, and twice). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_post_witness_init(cuzk_post_witness_t *w, const cuzk_post_config_t *cfg, cuzk_err_t *err);
CUZK_API void cuzk_post_witness_free(cuzk_post_witness_t *w);

/* FallbackPoStCircuit::synthesize into cs (a fresh system: ONE only); w NULL: the blank circuit. Public
 * inputs in allocation order: per sector comm_r, then each challenge's leaf index. threads <= 1: one
 * sector after the other (synthesize_default). threads > 1: the sectors in chunks of a few, each
 * synthesized into a system of its own by a pool of that many threads and appended in order
 * (cuzk_cs_extend), as synthesize_extendable does — the same system as sequential synthesis; the hash
 * backend, which cuzk_cs_extend does not join, is synthesized sequentially. cs's stop request is polled
 * before each sector (with threads, from the pool's threads, one call at a time). A backend that keeps
 * values needs every value of w: the first sector or challenge without fails cs, named.
 * CUZK_ERR_INVALID_ARG for a bad config or a witness of another config; otherwise the system's
 * failure (cuzk_cs_status: a missing value, out of memory, CUZK_ERR_CANCELLED). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_post_synthesize(cuzk_cs_t *cs, const cuzk_post_config_t *cfg, const cuzk_post_witness_t *w,
                                 int threads, cuzk_err_t *err);

/* Shape figures of the blank circuit, as cuzk_porep_circuit_info gives them: the count backend, joined
 * from chunks on every CPU (a 32GiB Window partition in seconds, tens of MB); with_hash also the
 * TestConstraintSystem hash, streamed by the hash backend in constant memory (one thread: minutes at
 * 32GiB). Errors of cuzk_post_config_check, CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_post_circuit_info(cuzk_circuit_info_t *out, const cuzk_post_config_t *cfg, bool with_hash,
                                   cuzk_err_t *err);

/* ---- Vanilla proofs --------------------------------------------------------------------------------
 * One sector's vanilla proof as filecoin-ffi's generate_single_vanilla_proof returns it: the bincode
 * encoding of filecoin-proofs' FallbackPoStSectorProof (sector_id, comm_r, the sector proofs: one
 * inclusion path into tree R per challenge, comm_c, comm_r_last). Layout: docs/FORMATS.md. */
typedef struct cuzk_post_vanilla cuzk_post_vanilla_t;

/* Decodes buf, which must hold exactly one proof (a truncated one, trailing bytes: CUZK_ERR_FORMAT
 * naming the byte offset and field). Shapes are checked against a registered proof later
 * (cuzk_post_check). CUZK_ERR_NO_MEMORY. On success *out is new; on error NULL. buf is not kept. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_post_vanilla_parse(cuzk_post_vanilla_t **out, const void *buf, size_t len, cuzk_err_t *err);
/* Reads the file at path and parses it; also CUZK_ERR_IO naming path (missing, unreadable, not a regular
 * file) and CUZK_ERR_FORMAT naming path for a file larger than 16 MiB (no vanilla proof is). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_post_vanilla_load(cuzk_post_vanilla_t **out, const char *path, cuzk_err_t *err);
CUZK_API void cuzk_post_vanilla_free(cuzk_post_vanilla_t *v);

typedef struct {
    uint64_t sector_id;
    uint8_t comm_r[32];          /* as the proof gives it (little-endian Fr) */
    uint32_t n_sector_proofs;    /* 1 from filecoin-ffi */
    uint32_t n_paths;            /* paths of the first sector proof */
    uint32_t path_levels;        /* levels of its first path */
} cuzk_post_vanilla_info_t;
CUZK_API CUZK_NONNULL(1, 2) void cuzk_post_vanilla_info(cuzk_post_vanilla_info_t *out, const cuzk_post_vanilla_t *v);

/* ---- A proof request: one partition ---------------------------------------------------------------- */
typedef struct {
    uint64_t proof_id;            /* registered PoSt proof */
    uint8_t randomness[32];       /* the challenge seed as filecoin-ffi takes it: a canonical Fr (LE) */
    uint64_t miner_id;            /* the miner (actor); the proof does not depend on it: the circuit never
                                   * synthesizes the prover id, which is no public input */
    uint32_t partition_index;     /* Window PoSt: the partition of the deadline's sectors; Winning: 0 */
    const cuzk_post_vanilla_t *const *vanilla; /* Winning: 1 sector; Window: 1..sector_count, in order */
    size_t n_vanilla;
} cuzk_post_request_t;

/* Checks a request as a prover must before synthesis, and as storage-proofs-post's vanilla verifier
 * does: the proof id and its kind, the number of sectors, each vanilla proof's shape (sector proofs,
 * paths, tree shape and size), every path against its comm_r_last, comm_r = Poseidon2(comm_c,
 * comm_r_last), and each challenged leaf against the randomness, sector id and challenge index.
 * CUZK_ERR_INVALID_ARG (unknown proof, wrong sector count, partition index), CUZK_ERR_NOT_CANONICAL
 * (randomness or a value that is not an Fr), CUZK_ERR_FORMAT / CUZK_ERR_MISMATCH naming the first bad
 * sector (its position and id) and challenge. The sectors are checked on every online CPU. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_post_check(const cuzk_post_request_t *req, cuzk_err_t *err);

/* The partition's public inputs (ONE excluded: sector_count·(1 + challenge_count)) as canonical
 * scalars, computed from the sectors' ids and comm_r, the randomness and the partition index, never
 * from the vanilla paths. *n_out (may be NULL) gets their number. CUZK_ERR_BAD_LENGTH (out_len too
 * small) and the request errors of cuzk_post_check that do not need the paths. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 4)
cuzk_status cuzk_post_public_inputs(cuzk_scalar_t *out, size_t out_len, size_t *n_out, const cuzk_post_request_t *req,
                                    cuzk_err_t *err);

/* The request as the circuit's witness (cuzk_post_synthesize): *w is initialized here and freed with
 * cuzk_post_witness_free (on error it is already freed). Errors of cuzk_post_check's shape checks,
 * CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_post_request_witness(cuzk_post_witness_t *w, const cuzk_post_request_t *req, cuzk_err_t *err);

/* ---- Parameters -------------------------------------------------------------------------------------
 * As for PoRep (cuzk/porep.h): <dir>/<v28 stem>.params and .vk, parameters.json digests when the
 * directory has one, <stem>.cuzk-dev beside development parameters. */
typedef cuzk_porep_params_paths_t cuzk_post_params_paths_t;

CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_post_params_paths(cuzk_post_params_paths_t *out, const char *dir, uint64_t proof_id,
                                   cuzk_err_t *err);

typedef struct cuzk_post_keys cuzk_post_keys_t;

/* As cuzk_porep_keys_load, for a registered PoSt proof's circuit. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_post_keys_load(cuzk_post_keys_t **out, const char *dir, uint64_t proof_id, bool with_params,
                                int threads, cuzk_err_t *err);
CUZK_API void cuzk_post_keys_free(cuzk_post_keys_t *keys);
CUZK_API CUZK_NONNULL(1) const cuzk_groth16_vk_t *cuzk_post_keys_vk(const cuzk_post_keys_t *keys);
CUZK_API CUZK_NONNULL(1) const cuzk_groth16_pk_t *cuzk_post_keys_pk(const cuzk_post_keys_t *keys);
CUZK_API CUZK_NONNULL(1) const cuzk_post_params_paths_t *cuzk_post_keys_paths(const cuzk_post_keys_t *keys);
CUZK_API CUZK_NONNULL(1) bool cuzk_post_keys_dev(const cuzk_post_keys_t *keys);

/* Development parameters for cfg's circuit (a random setup, NOT a trusted one), as cuzk_porep_dev_setup. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_post_dev_setup(cuzk_groth16_pk_t *pk, const cuzk_post_config_t *cfg, int threads, cuzk_err_t *err);
/* CUZK_ERR_MISMATCH naming the first length of pk that is not cfg's circuit's. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_post_check_key(const cuzk_groth16_pk_t *pk, const cuzk_post_config_t *cfg, cuzk_err_t *err);

/* ---- Proving and verifying ------------------------------------------------------------------------ */
typedef struct {
    int threads;                 /* synthesis chunks and proving threads, >= 0; 0 = every online CPU */
    bool (*should_stop)(void *stop_arg); /* polled before each sector and each proving phase; NULL: never */
    void *stop_arg;
    bool checked;                /* cuzk_post_prove: the caller already ran cuzk_post_check on this request
                                  * (before loading the parameters, say): not repeated */
} cuzk_post_prove_opts_t;

typedef struct {
    double check_ms, synth_ms, prove_ms;
    uint64_t constraints;
} cuzk_post_timings_t;

/* The partition's proof: cuzk_post_check (unless opts->checked), synthesis (direct backend, parallel
 * chunks), Groth16. Not
 * verified here: verify with cuzk_post_verify before handing it out. With CUZK_TIMING=1 `post_check`,
 * `post_synth` and `post_prove` phase lines on stderr. opts and timings may be NULL. Errors of
 * cuzk_post_check, CUZK_ERR_MISMATCH (a key of another circuit), CUZK_ERR_CANCELLED,
 * CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_post_prove(cuzk_groth16_proof_t *proof, const cuzk_post_request_t *req, const cuzk_groth16_pk_t *pk,
                            const cuzk_post_prove_opts_t *opts, cuzk_post_timings_t *timings, cuzk_err_t *err);

/* *valid is true when proof verifies under vk with the request's public inputs (cuzk_post_public_inputs).
 * Errors (with *valid false): CUZK_ERR_MISMATCH (a vk with another input count), errors of
 * cuzk_post_public_inputs, CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3, 4)
cuzk_status cuzk_post_verify(bool *valid, const cuzk_post_request_t *req, const cuzk_groth16_vk_t *vk,
                             const cuzk_groth16_proof_t *proof, cuzk_err_t *err);

/* The partition synthesized, ready to prove, for a pipelining prover (the engine). It does not check the
 * request as cuzk_post_check does: the caller makes that check first (as PoRep's partition calls leave
 * the challenge check to cuzk_porep_c1_check_challenges). Errors of cuzk_post_request_witness,
 * CUZK_ERR_CANCELLED, CUZK_ERR_NO_MEMORY. On success *out is new; on error NULL. It borrows nothing from
 * the request. */
typedef struct cuzk_post_partition cuzk_post_partition_t;
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_post_partition_synthesize(cuzk_post_partition_t **out, const cuzk_post_request_t *req,
                                           const cuzk_post_prove_opts_t *opts, cuzk_err_t *err);
/* Its Groth16 proof (opts: threads, should_stop); the partition is left as it was. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_post_partition_prove(cuzk_groth16_proof_t *proof, const cuzk_post_partition_t *part,
                                      const cuzk_groth16_pk_t *pk, const cuzk_post_prove_opts_t *opts,
                                      cuzk_err_t *err);
CUZK_API void cuzk_post_partition_free(cuzk_post_partition_t *part);

#ifdef __cplusplus
}
#endif
#endif
