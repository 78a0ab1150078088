/* The PoRep product path: a sector's commit-phase-1 output (C1, SealCommitPhase1Output) in, its
 * Groth16 proofs (C2: one 192-byte proof per partition) out, and their verification; with the
 * partition-level calls a pipelining prover needs (synthesize partition k, directly or against the
 * circuit's record, prove it, free it) and the parameter files of a directory laid out as Filecoin's (v28
 * names, parameters.json).
 *
 *   cuzk_porep_c1_t *c1;  cuzk_porep_keys_t *keys;
 *   cuzk_porep_c1_load(&c1, "c1.json", &err);                       bare C1 JSON or Curio's wrapper
 *   cuzk_porep_c1_info(&info, c1);
 *   cuzk_porep_keys_load(&keys, dir, info.proof.id, true, 0, &err);
 *   cuzk_porep_prove(proofs, info.partitions, c1, cuzk_porep_keys_pk(keys), NULL, NULL, &err);
 *   cuzk_porep_verify(&valid, c1, cuzk_porep_keys_vk(keys), proofs, info.partitions, &err);
 *
 * The circuit itself (configuration, witness, synthesis into any constraint system, shape figures)
 * is cuzk/filecoin.h; sealing small sectors into C1 outputs is cuzk/seal.h.
 *
 * Errors: every call that can fail returns a cuzk_status and, when err is not NULL, a message naming
 * what was wrong (file, partition, challenge, field). Bad input never aborts. */
#ifndef CUZK_POREP_H
#define CUZK_POREP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/api.h"
#include "cuzk/field.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Registered seal proofs ----------------------------------------------------------------------
 * Filecoin's RegisteredSealProof (rust-filecoin-proofs-api src/registry.rs): the number Filecoin uses,
 * its name and what follows from it. Numbers are dense from 0; lookups are pure (any thread). */

typedef enum {
    CUZK_POREP_API_V1_0 = 0, /* the predecessor is the last DRG parent */
    CUZK_POREP_API_V1_1 = 1,
    CUZK_POREP_API_V1_2 = 2,
} cuzk_porep_api_version;

typedef enum {
    CUZK_POREP_CHALLENGES_INTERACTIVE = 0,     /* from the seed */
    CUZK_POREP_CHALLENGES_SYNTHETIC = 1,       /* from comm_r and the seed */
    CUZK_POREP_CHALLENGES_NON_INTERACTIVE = 2, /* from comm_r */
} cuzk_porep_challenge_kind;

typedef struct {
    uint32_t id;                       /* the RegisteredSealProof number */
    const char *name;                  /* "StackedDrg32GiBV1_1" (static storage) */
    const char *size_name;             /* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (static storage) */
    uint64_t sector_size;              /* bytes */
    cuzk_porep_api_version api;
    cuzk_porep_challenge_kind challenges;
    uint32_t partitions;               /* Groth16 proofs per sector */
    uint32_t challenges_per_partition;
} cuzk_porep_registered_proof_t;

/* The registered proof numbered id. CUZK_ERR_INVALID_ARG naming the id when none is (ids are dense:
 * iterate from 0 until this error to list them all). *out is untouched on error. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_porep_registered_proof(cuzk_porep_registered_proof_t *out, uint64_t id, cuzk_err_t *err);

/* The same by name: "StackedDrg2KiBV1_1", the Go form "RegisteredSealProof_StackedDrg2KiBV1_1" or the
 * number as decimal text ("5"); names compare exactly. CUZK_ERR_INVALID_ARG naming the name. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_porep_registered_proof_parse(cuzk_porep_registered_proof_t *out, const char *name,
                                              cuzk_err_t *err);

/* ---- C1 outputs ----------------------------------------------------------------------------------
 * A C1 output as filecoin-ffi's seal_commit_phase1 returns it (serde JSON of rust-filecoin-proofs-api's
 * SealCommitPhase1Output, its fields in declaration order) or wrapped by Curio ({"SectorNum":n,
 * "Phase1Out":"<base64 of that JSON>","SectorSize":bytes}, fields in any order).
 *
 * A cuzk_porep_c1_t is immutable once made: any number of threads may use one at the same time (info,
 * checks, synthesis of distinct or equal partitions, proving, verification). Free it once, after the
 * last use, with cuzk_porep_c1_free. */
typedef struct cuzk_porep_c1 cuzk_porep_c1_t;

/* Parses buf (either form: a JSON object whose first key is SectorNum, Phase1Out or SectorSize is a
 * wrapper) and checks it as a prover must before synthesis, every failure naming partition, challenge
 * and field: the shapes of the registered proof, every Merkle path against its root, the roots'
 * agreement and comm_r = Poseidon(comm_c, comm_r_last), each challenge's column indexes against the
 * graph's parents, the labels and the encoding. It does not check that the challenges are the seed's
 * (cuzk_porep_c1_check_challenges) nor which sector it is (cuzk_porep_c1_check).
 * Errors: CUZK_ERR_FORMAT ("c1 json: byte <offset>: <field>: ...", "c1 wrapper: ..."),
 * CUZK_ERR_MISMATCH (a path or value that does not check; a wrapper's SectorSize other than the
 * proof's), CUZK_ERR_NOT_CANONICAL, CUZK_ERR_NO_MEMORY. On success *out is a new C1 the caller
 * frees; on error it is NULL. buf is not kept. Parsing and checking use every online CPU. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_porep_c1_parse(cuzk_porep_c1_t **out, const void *buf, size_t len, cuzk_err_t *err);

/* The largest C1 file cuzk_porep_c1_load reads: the largest registered proof's C1 (64GiB NI-PoRep, about
 * 0.7 GB as a wrapper; a 32GiB interactive C1 is about 52 MB) with room to spare. */
#define CUZK_POREP_C1_MAX_BYTES ((size_t)1 << 30)

/* Reads the file at path and parses it as cuzk_porep_c1_parse does. The file must be a regular file of at
 * most CUZK_POREP_C1_MAX_BYTES whose first bytes open a JSON object: anything else is refused before it
 * is read whole (a multi-gigabyte or binary file named by mistake costs no more than a stat and one small
 * read). Also CUZK_ERR_IO naming path (missing, unreadable, a directory or device, a read error) and
 * CUZK_ERR_FORMAT naming path (too large, not JSON). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_porep_c1_load(cuzk_porep_c1_t **out, const char *path, cuzk_err_t *err);

/* Frees a C1 (NULL-safe). */
CUZK_API void cuzk_porep_c1_free(cuzk_porep_c1_t *c1);

typedef struct {
    cuzk_porep_registered_proof_t proof;
    cuzk_porep_config_t circuit; /* what each partition's circuit is built for (cuzk/filecoin.h) */
    uint32_t partitions;         /* proofs a whole sector needs: proof.partitions */
    uint8_t comm_d[32], comm_r[32], replica_id[32], ticket[32], seed[32]; /* as the C1 gives them */
    bool wrapped;                /* it came in Curio's wrapper, which named the sector: */
    uint64_t sector_num;         /*   its SectorNum (0 when not wrapped) */
} cuzk_porep_c1_info_t;

/* What a C1 is for. Never fails. */
CUZK_API CUZK_NONNULL(1, 2) void cuzk_porep_c1_info(cuzk_porep_c1_info_t *out, const cuzk_porep_c1_t *c1);

/* What a request says of the sector a C1 should be for. The C1 binds its sector only through its
 * replica_id, so the miner is checked only together with a sector number. */
typedef struct {
    uint64_t sector_size; /* bytes; 0: any */
    bool has_sector_num;  /* sector_num is given: it must equal a wrapper's SectorNum */
    uint64_t sector_num;
    bool has_miner_id;    /* with has_sector_num: the replica id must be that of miner_id's sector */
    uint64_t miner_id;
    bool has_proof_id;    /* proof_id is given: the C1 must be for that registered seal proof */
    uint64_t proof_id;
} cuzk_porep_c1_expect_t;

/* Checks c1 against expect. CUZK_ERR_MISMATCH saying which: another registered proof, another sector
 * size, a sector number other than the wrapper's, a replica id that is not the sector's (recomputed as
 * Filecoin's verify_seal does: from the prover id, derived from the miner id as filecoin-ffi does, the
 * sector number, the C1's ticket and comm_d, and the registered proof's porep id). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_porep_c1_check(const cuzk_porep_c1_t *c1, const cuzk_porep_c1_expect_t *expect, cuzk_err_t *err);

/* Checks that every partition's challenges are the ones the registered proof's challenge kind derives
 * from the C1's replica id, seed and comm_r. CUZK_ERR_MISMATCH naming the first differing partition and
 * challenge. cuzk_porep_prove makes this check itself; a pipelining prover makes it before the first
 * cuzk_porep_partition_synthesize. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_porep_c1_check_challenges(const cuzk_porep_c1_t *c1, cuzk_err_t *err);

/* Partition k's public inputs (ONE excluded: 3 + 18·challenges of them) as canonical scalars, computed
 * from the C1's replica id, comm_d, comm_r and seed (never from its vanilla proofs' claims). *n_out (may
 * be NULL) gets their number. Errors: CUZK_ERR_BAD_LENGTH (out_len too small), CUZK_ERR_INVALID_ARG (k
 * out of range), CUZK_ERR_NOT_CANONICAL, CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 4)
cuzk_status cuzk_porep_public_inputs(cuzk_scalar_t *out, size_t out_len, size_t *n_out, const cuzk_porep_c1_t *c1,
                                     uint32_t k, cuzk_err_t *err);

/* Partition k as the circuit's witness (cuzk/filecoin.h), for synthesis into a constraint system of the
 * caller's choice: *w is initialized here and freed with cuzk_porep_witness_free (on error it is
 * already freed). Errors: CUZK_ERR_INVALID_ARG (k out of range), CUZK_ERR_NO_MEMORY, and for a C1 whose
 * shapes do not fit its circuit CUZK_ERR_FORMAT / CUZK_ERR_MISMATCH / CUZK_ERR_NOT_CANONICAL naming
 * the challenge and field. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_porep_c1_witness(cuzk_porep_witness_t *w, const cuzk_porep_c1_t *c1, uint32_t k, cuzk_err_t *err);

/* Curio's wrapper around C1 JSON bytes (any JSON: they are base64-encoded as they are), into a
 * malloc'd NUL-terminated buffer *out (*out_len bytes without the NUL) that the caller frees with
 * free(). CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_porep_c1_wrap(char **out, size_t *out_len, const char *c1_json, size_t c1_len, uint64_t sector_num,
                               uint64_t sector_size, cuzk_err_t *err);

/* ---- Parameters ----------------------------------------------------------------------------------
 * The Groth16 parameters of a registered proof's circuit in a directory laid out as Filecoin's
 * (storage-proofs-core parameter_cache.rs): <stem>.params, <stem>.vk with the v28 stem, the
 * directory's parameters.json, and the marker <stem>.cuzk-dev that `cuzk params generate` leaves
 * beside development parameters (a random setup, NOT a trusted one). Every registered version and kind
 * of a sector size shares one circuit and one set of files. */

typedef struct {
    char stem[256];    /* "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-<hex>" */
    char params[4096]; /* <dir>/<stem>.params */
    char vk[4096];     /* <dir>/<stem>.vk */
    char dev[4096];    /* <dir>/<stem>.cuzk-dev */
    char manifest[4096]; /* <dir>/parameters.json */
} cuzk_porep_params_paths_t;

/* The file names of proof_id's parameters in dir (nothing is opened). CUZK_ERR_INVALID_ARG when the
 * proof is not registered or the directory name is too long. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_porep_params_paths(cuzk_porep_params_paths_t *out, const char *dir, uint64_t proof_id,
                                    cuzk_err_t *err);

/* A registered proof's keys, loaded from a directory. Immutable once loaded: any number of threads may
 * prove and verify with one at the same time. */
typedef struct cuzk_porep_keys cuzk_porep_keys_t;

/* Reads the verifying key (its input count must be the circuit's), checks both files' digests against
 * the directory's parameters.json when it has one, and with with_params opens and decodes the .params
 * file too — every point checked on the curve unless the manifest vouched for the file — and checks its
 * lengths against the circuit's. threads: decoding threads (0 = every online CPU).
 * Errors name the file: CUZK_ERR_IO (a missing file: the message says how to make development
 * parameters), CUZK_ERR_INVALID_ARG (proof_id not registered), CUZK_ERR_MISMATCH (another circuit's
 * key, a digest that differs from the manifest's), CUZK_ERR_FORMAT, CUZK_ERR_NOT_ON_CURVE,
 * CUZK_ERR_NO_MEMORY. On success *out is new keys the caller frees; on error it is NULL. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_porep_keys_load(cuzk_porep_keys_t **out, const char *dir, uint64_t proof_id, bool with_params,
                                 int threads, cuzk_err_t *err);

/* The same with the proving parameters opened but not decoded: their points stay in the file and each
 * proof decodes them piece by piece as its MSMs need them (give cuzk_porep_keys_params to the proving
 * calls' opts->params), so that a 32GiB sector's 47 GB of parameters never sit in memory. The file is
 * checked as cuzk_porep_keys_load checks it, its points as they are decoded (on the curve, unless the
 * directory's parameters.json vouched for the file); cuzk_porep_keys_pk then returns a key whose point
 * arrays are NULL. The same errors. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_porep_keys_load_streamed(cuzk_porep_keys_t **out, const char *dir, uint64_t proof_id, int threads,
                                          cuzk_err_t *err);

/* Whether proving with proof_id's keys in dir should stream the .params file (cuzk_porep_keys_load_streamed)
 * rather than decode it whole (cuzk_porep_keys_load): true when the file is larger than half of the memory
 * this machine has available now (the kernel's MemAvailable), the rule the engine applies to its budget; the
 * rest of that memory holds a partition's own buffers (32GiB: about 17 GB beside a 47 GB file).
 * *params_bytes is the file's size. A file that cannot be examined gives false and 0 (the load that follows
 * reports it). Errors: those of cuzk_porep_params_paths. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_porep_keys_should_stream(bool *stream, uint64_t *params_bytes, const char *dir, uint64_t proof_id,
                                          cuzk_err_t *err);

/* Frees keys and everything their accessors returned (NULL-safe). */
CUZK_API void cuzk_porep_keys_free(cuzk_porep_keys_t *keys);

/* The verifying key; the proving key (NULL unless loaded with_params); the files' names; whether they
 * are development parameters (proofs made with them are worthless on chain: say so to the user). The
 * pointers live as long as keys. */
CUZK_API CUZK_NONNULL(1) const cuzk_groth16_vk_t *cuzk_porep_keys_vk(const cuzk_porep_keys_t *keys);
CUZK_API CUZK_NONNULL(1) const cuzk_groth16_pk_t *cuzk_porep_keys_pk(const cuzk_porep_keys_t *keys);
CUZK_API CUZK_NONNULL(1) const cuzk_porep_params_paths_t *cuzk_porep_keys_paths(const cuzk_porep_keys_t *keys);
CUZK_API CUZK_NONNULL(1) bool cuzk_porep_keys_dev(const cuzk_porep_keys_t *keys);
/* The opened .params file (NULL unless loaded with the proving parameters), for opts->params. */
CUZK_API CUZK_NONNULL(1) cuzk_params_t *cuzk_porep_keys_params(const cuzk_porep_keys_t *keys);

/* Development parameters for cfg's circuit: the blank circuit recorded, then cuzk_groth16_setup (fresh
 * random toxic waste from getrandom: NOT a trusted setup). Minutes for 2KiB; free *pk with
 * cuzk_groth16_pk_free (on error it is empty). Errors of cuzk_porep_config_check, of synthesis and of
 * the setup (CUZK_ERR_NO_MEMORY). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_porep_dev_setup(cuzk_groth16_pk_t *pk, const cuzk_porep_config_t *cfg, int threads,
                                 cuzk_err_t *err);

/* Progress of a streamed setup: the phase ("count", "qap pass 1", "h", "l", "qap pass 2", "a", "b_g1",
 * "b_g2", "sync"), its units done of total (constraints or points; total 0 while unknown), the estimated
 * fraction of the whole run done, and seconds since the start. */
typedef void (*cuzk_porep_setup_progress_fn)(void *arg, const char *phase, uint64_t done, uint64_t total,
                                             double fraction, double elapsed_s);
typedef struct {
    int threads;                           /* 0: every online CPU */
    cuzk_porep_setup_progress_fn progress; /* on the calling thread, at each phase and ~1/s; NULL: none */
    void *progress_arg;
    bool (*should_stop)(void *stop_arg);   /* polled between chunks and challenges; true: CUZK_ERR_CANCELLED */
    void *stop_arg;
} cuzk_porep_setup_opts_t;

/* Development parameters for cfg's circuit written straight to params_path (.params) and vk_path (.vk),
 * streamed: the QAP at τ evaluated while the blank circuit is synthesized (three synthesis runs: a count,
 * then two passes) and each section written as its fixed-base products are made, so memory is two Fr
 * arrays per aux variable (8.3 GB for 32GiB) instead of the whole key; the key is the one
 * cuzk_porep_dev_setup would make with the same random toxic waste (fresh from getrandom: NOT a trusted
 * setup). Both files appear only when the whole run succeeded (temporary files renamed at the end); on any
 * error or a stop neither is created. opts may be NULL. Errors: CUZK_ERR_IO (the files), CUZK_ERR_CANCELLED,
 * CUZK_ERR_NO_MEMORY, CUZK_ERR_INVALID_ARG, and those of cuzk_porep_config_check and of synthesis. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_porep_dev_setup_write(const cuzk_porep_config_t *cfg, const char *params_path, const char *vk_path,
                                       const cuzk_porep_setup_opts_t *opts, cuzk_err_t *err);

/* Checks that pk's lengths are those of cfg's circuit (cuzk_params_check_circuit with the figures of
 * cuzk_porep_circuit_shape): CUZK_ERR_MISMATCH naming the first difference; errors of
 * cuzk_porep_circuit_info. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_porep_check_key(const cuzk_groth16_pk_t *pk, const cuzk_porep_config_t *cfg, cuzk_err_t *err);

/* ---- Proving and verifying ---------------------------------------------------------------------- */

/* How a partition's a, b, c are produced: the direct backend computes them while synthesizing; record
 * synthesizes the matrices once (blank circuit, compact: 4.7 GB at 32GiB) and evaluates A·z and B·z into
 * the prover's buffers after each partition's witness-only synthesis. Both give the same proof inputs.
 * Record is faster per partition once the matrices exist (docs/PERF.md: 32GiB about 18 s against 30 s,
 * 512MiB 0.30 s against 0.57 s) but holds the matrices on top of the proof's memory; direct needs nothing
 * kept, hence the default. */
typedef enum {
    CUZK_POREP_SYNTH_DIRECT = 0,
    CUZK_POREP_SYNTH_RECORD = 1,
} cuzk_porep_synth_mode;

/* Options of the proving calls. A NULL options pointer means all defaults (every field 0). */
typedef struct {
    int threads;                 /* proving threads, >= 0; 0 = every online CPU */
    cuzk_porep_synth_mode synth; /* cuzk_porep_prove only; the partition calls choose by the call
                                  * (cuzk_porep_partition_synthesize or _synthesize_record) */
    /* Optional: polled before each challenge's synthesis and before each phase of each proof; when it
     * returns true the call stops there with CUZK_ERR_CANCELLED. Called from the calling thread only.
     * NULL = never stop. */
    bool (*should_stop)(void *stop_arg);
    void *stop_arg;
    /* Optional: the parameter file the key comes from (cuzk_porep_keys_params): the key's sections that
     * are not decoded are streamed from it (cuzk_groth16_prove_opts.params). NULL = the key is whole. */
    cuzk_params_t *params;
} cuzk_porep_prove_opts_t;

/* Milliseconds spent, summed over the partitions. */
typedef struct {
    double synth_ms;      /* witness + synthesis (+ record evaluation) */
    double prove_ms;      /* Groth16 */
    uint64_t constraints; /* per partition */
} cuzk_porep_timings_t;

/* Proves every partition of c1, one after the other (one partition's synthesis in memory at a time):
 * proofs[k] for partition k; proofs has room for max_proofs of them. First checks that the challenges
 * are the seed's (cuzk_porep_c1_check_challenges). The proofs are not verified here: do it with
 * cuzk_porep_verify before handing them out. With CUZK_TIMING=1 in the environment, `porep_synth` and
 * `porep_prove` phase lines on stderr per partition (and `porep_record` once, first, in record mode; its
 * time is part of synth_ms). timings may be NULL.
 * Errors: CUZK_ERR_BAD_LENGTH (max_proofs below the partition count), CUZK_ERR_MISMATCH (challenges that
 * are not the seed's, a key of another circuit), CUZK_ERR_CANCELLED, CUZK_ERR_NO_MEMORY, errors of
 * cuzk_porep_c1_witness; the proofs array then holds nothing usable. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 3, 4)
cuzk_status cuzk_porep_prove(cuzk_groth16_proof_t *proofs, size_t max_proofs, const cuzk_porep_c1_t *c1,
                             const cuzk_groth16_pk_t *pk, const cuzk_porep_prove_opts_t *opts,
                             cuzk_porep_timings_t *timings, cuzk_err_t *err);

/* Partition k's proof alone: cuzk_porep_partition_synthesize, cuzk_porep_partition_prove and
 * cuzk_porep_partition_free in one call (the challenges are not checked here). The same errors. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 4)
cuzk_status cuzk_porep_prove_partition(cuzk_groth16_proof_t *proof, const cuzk_porep_c1_t *c1, uint32_t k,
                                       const cuzk_groth16_pk_t *pk, const cuzk_porep_prove_opts_t *opts,
                                       cuzk_err_t *err);

/* *valid is true when n equals c1's partition count and proofs[k] verifies under vk with partition k's
 * public inputs (cuzk_porep_public_inputs) for every k. The public inputs come from the C1's replica id:
 * to verify as Filecoin's verify_seal does, for a sector named by its miner and number, first hold the
 * C1 to them with cuzk_porep_c1_check (has_miner_id and has_sector_num: the replica id recomputed from
 * the prover id, sector number, the C1's ticket and comm_d and the proof's porep id); a proof for a C1
 * that fails that check is not a proof of that sector. A proof of another count is simply not valid
 * (CUZK_OK, *valid false; proofs may then be NULL). Errors (with *valid false): CUZK_ERR_MISMATCH (a vk
 * with another input count), CUZK_ERR_NO_MEMORY, errors of cuzk_porep_public_inputs. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_porep_verify(bool *valid, const cuzk_porep_c1_t *c1, const cuzk_groth16_vk_t *vk,
                              const cuzk_groth16_proof_t *proofs, size_t n, cuzk_err_t *err);

/* ---- Partitions, for a pipelining prover ---------------------------------------------------------
 * Partitions are independent circuits: one may be synthesized while another is proved, on other
 * threads. A partition belongs to one thread at a time; it borrows nothing from its C1. */
typedef struct cuzk_porep_partition cuzk_porep_partition_t;

/* Partition k of c1 synthesized by the direct backend, ready to prove (single-threaded; opts may be NULL:
 * only should_stop is read, polled before each challenge). Errors: CUZK_ERR_INVALID_ARG (k out of range),
 * CUZK_ERR_CANCELLED, CUZK_ERR_NO_MEMORY, errors of cuzk_porep_c1_witness. On success *out is a new
 * partition the caller frees; on error it is NULL. Its memory is that of the circuit's a, b, c and
 * assignment: about 32·(3·constraints + variables) bytes. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_porep_partition_synthesize(cuzk_porep_partition_t **out, const cuzk_porep_c1_t *c1, uint32_t k,
                                            const cuzk_porep_prove_opts_t *opts, cuzk_err_t *err);

/* The Groth16 proof of a synthesized partition (opts may be NULL: threads and should_stop are read).
 * The partition is left as it was (it may be proved again, or freed). Errors: CUZK_ERR_MISMATCH (a key
 * of another circuit), CUZK_ERR_CANCELLED, CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_porep_partition_prove(cuzk_groth16_proof_t *proof, const cuzk_porep_partition_t *part,
                                       const cuzk_groth16_pk_t *pk, const cuzk_porep_prove_opts_t *opts,
                                       cuzk_err_t *err);

/* The same in the partition's own memory (cuzk_groth16_prove_consume): its A·z, B·z and assignment
 * become the prover's buffers, so that a 32GiB partition peaks at about 14.4 GB (three 4.3 GB domain
 * arrays, C·z's in the assignment's memory, and one 1.6 GB piece of a streamed key) instead of 30.
 * Afterwards the partition holds no witness, whatever the result: only cuzk_porep_partition_free is left
 * to do with it. The same errors. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_porep_partition_prove_consume(cuzk_groth16_proof_t *proof, cuzk_porep_partition_t *part,
                                               const cuzk_groth16_pk_t *pk, const cuzk_porep_prove_opts_t *opts,
                                               cuzk_err_t *err);

/* Frees a partition (NULL-safe). */
CUZK_API void cuzk_porep_partition_free(cuzk_porep_partition_t *part);

/* ---- Records: a circuit's matrices, for partitions synthesized witness-only ----------------------
 * Every partition of a configuration is the same circuit: its A, B, C matrices can be recorded once (the
 * blank circuit through the record backend, compact form: cuzk/r1cs.h) and each partition then needs only
 * a witness-only synthesis and the matrices' evaluation, straight into the prover's domain buffers. That
 * is faster per partition than the direct backend (docs/PERF.md: 32GiB about 18 s against 30 s on one
 * core, 512MiB 0.30 s against 0.57 s) and gives the same proof inputs bit for bit, but the record stays
 * in memory (4.68 GB at 32GiB) and making it costs about one direct synthesis: it pays for repeated
 * partitions of one circuit when memory allows (the engine decides with cuzk_porep_record_estimate).
 *
 * A cuzk_porep_record_t is immutable once made: any number of threads may synthesize partitions against
 * one at the same time. A partition synthesized against it keeps nothing of it (it may be freed first).
 * Free it once, after its last use, with cuzk_porep_record_free. */
typedef struct cuzk_porep_record cuzk_porep_record_t;

/* Records cfg's blank circuit (about one direct synthesis of a partition, single-threaded; opts may be
 * NULL: only should_stop is read, polled before each challenge). Errors of cuzk_porep_config_check
 * (CUZK_ERR_INVALID_ARG), CUZK_ERR_CANCELLED, CUZK_ERR_NO_MEMORY, CUZK_ERR_UNSUPPORTED (a matrix with more
 * distinct coefficients than the compact form holds: prove directly). On success *out is a new record the
 * caller frees; on error it is NULL. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_porep_record_new(cuzk_porep_record_t **out, const cuzk_porep_config_t *cfg,
                                  const cuzk_porep_prove_opts_t *opts, cuzk_err_t *err);

/* Frees a record (NULL-safe). */
CUZK_API void cuzk_porep_record_free(cuzk_porep_record_t *rec);

/* The bytes a record holds: its compact matrices (cuzk_r1cs_compact_bytes) and density bitmaps, what a
 * memory budget charges for it. */
CUZK_API CUZK_NONNULL(1) uint64_t cuzk_porep_record_bytes(const cuzk_porep_record_t *rec);

/* The configuration the record was made for (lives as long as rec). */
CUZK_API CUZK_NONNULL(1) const cuzk_porep_config_t *cuzk_porep_record_config(const cuzk_porep_record_t *rec);

/* The bytes cuzk_porep_record_bytes will give for a circuit of this shape (cuzk_porep_circuit_info,
 * without the hash: the count backend, seconds at 32GiB), before recording it. An upper bound: what the
 * counts cannot tell is taken at its most (16-bit coefficient indices, full coefficient tables, a long row
 * every 255 terms), so the estimate is at least the real size and above it by at most one byte per
 * non-zero of each matrix that has 256 distinct coefficients or fewer, 16/255 of a byte per non-zero and
 * 6 MiB (2KiB: 10% above, B's 2.7 M non-zeros being the first term; tests/filecoin/porep/
 * test_porep_record.c holds it to that bound). Pure; any thread. */
CUZK_API CUZK_NONNULL(1) uint64_t cuzk_porep_record_estimate(const cuzk_circuit_info_t *shape);

/* Partition k of c1 synthesized against rec: the witness-only backend, then A·z and B·z evaluated from the
 * record into the proof's domain buffers on opts->threads threads (0: every online CPU). The partition is
 * proved, freed and behaves as one from cuzk_porep_partition_synthesize (cuzk_porep_partition_prove,
 * _prove_consume, _free) and gives the same proof inputs (A·z, B·z, assignment, densities) bit for bit;
 * its memory is the same but for the linear combinations it never builds. opts may be NULL: threads,
 * should_stop (polled before each challenge) are read. Errors: CUZK_ERR_INVALID_ARG (k out of range),
 * CUZK_ERR_MISMATCH (rec is the record of another circuit than c1's, both named), CUZK_ERR_CANCELLED,
 * CUZK_ERR_NO_MEMORY, errors of cuzk_porep_c1_witness. On success *out is a new partition the caller
 * frees; on error it is NULL. The challenges are not checked here (cuzk_porep_c1_check_challenges). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 4)
cuzk_status cuzk_porep_partition_synthesize_record(cuzk_porep_partition_t **out, const cuzk_porep_c1_t *c1,
                                                   uint32_t k, const cuzk_porep_record_t *rec,
                                                   const cuzk_porep_prove_opts_t *opts, cuzk_err_t *err);

#ifdef __cplusplus
}
#endif
#endif
