/* SnapDeals (empty sector update): a committed-capacity sector sealed by PoRep takes new data without
 * resealing. The data is encoded into the old replica (new = old + data·rho), tree D over the new data
 * gives comm_d_new, tree R over the new replica gives comm_r_new = Poseidon2(comm_c, root_r_new); the
 * proof is one Groth16 proof per partition (1, 4 or 16) of storage-proofs-update's
 * EmptySectorUpdateCircuit, made from the vanilla partition proofs Curio and filecoin-ffi hand over (one
 * bincode PartitionProof each).
 *
 *   cuzk_snap_vanilla_t *parts[16];  cuzk_snap_keys_t *keys;
 *   cuzk_snap_vanilla_load_all(parts, 16, &n, "sector.snap-vproof", &err);
 *   cuzk_snap_request_t req = {.proof_id = 3, .vanilla = parts, .n_vanilla = n};
 *   memcpy(req.comm_r_old, ..., 32); memcpy(req.comm_d_new, ...); memcpy(req.comm_r_new, ...);
 *   cuzk_snap_keys_load(&keys, dir, req.proof_id, true, 0, &err);
 *   cuzk_snap_prove(proofs, 16, &req, cuzk_snap_keys_pk(keys), NULL, NULL, &err);
 *   cuzk_snap_verify(&valid, &req, cuzk_snap_keys_vk(keys), proofs, n, &err);
 *
 * Sources (rust-fil-proofs): storage-proofs-update src/constants.rs (shapes), challenges.rs, vanilla.rs
 * (encoding, partition proofs), gadgets.rs and circuit.rs (the circuit), compound.rs; filecoin-proofs
 * src/api/update.rs. The circuit is built with the same variables, constraints and linear combinations in
 * the same order as circuit.rs.
 *
 * Ownership: vanilla proofs, keys and partitions are opaque and the caller's (their _free calls accept
 * NULL); witnesses own their arrays from _init to _free. A request only points at the caller's vanilla
 * proofs. Threading: vanilla proofs and keys are immutable once made and may be shared by any number of
 * threads; a partition belongs to one thread at a time.
 * Errors: every call that can fail returns a cuzk_status and, when err is not NULL, a message naming
 * what was wrong (partition, challenge, field, file). Bad input never aborts. */
#ifndef CUZK_SNAP_H
#define CUZK_SNAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/api.h"
#include "cuzk/cs.h"
#include "cuzk/field.h"
#include "cuzk/groth16.h"
#include "cuzk/porep.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Registered update proofs ----------------------------------------------------------------------
 * Filecoin's RegisteredUpdateProof (rust-filecoin-proofs-api src/registry.rs): StackedDrg2KiBV1 = 0,
 * 8MiB 1, 512MiB 2, 32GiB 3, 64GiB 4. Ids are dense from 0; lookups are pure (any thread). */

#define CUZK_SNAP_MAX_PARTITIONS 16
#define CUZK_SNAP_H_CHOICES 6 /* hs: the encoding's allowed high-bit counts, selected one-hot */

typedef struct {
    uint32_t id;                 /* the RegisteredUpdateProof number */
    const char *name;            /* "StackedDrg32GiBV1" (static storage) */
    const char *size_name;       /* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (static storage) */
    uint64_t sector_size;        /* bytes */
    uint32_t partitions;         /* Groth16 proofs per sector: 1, 4, 16, 16, 16 */
    uint32_t challenges_per_partition; /* 10 up to 16MiB, else 86 */
} cuzk_snap_registered_proof_t;

/* The registered proof numbered id. CUZK_ERR_INVALID_ARG naming the id when none is. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_snap_registered_proof(cuzk_snap_registered_proof_t *out, uint64_t id, cuzk_err_t *err);
/* By name: "StackedDrg32GiBV1", the Go name "RegisteredUpdateProof_StackedDrg32GiBV1", or the number as
 * decimal text. CUZK_ERR_INVALID_ARG naming the name. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snap_registered_proof_parse(cuzk_snap_registered_proof_t *out, const char *name, cuzk_err_t *err);
/* The update proof of a sector size. CUZK_ERR_INVALID_ARG for another size. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_snap_registered_proof_for_size(cuzk_snap_registered_proof_t *out, uint64_t sector_size,
                                                cuzk_err_t *err);
/* The update proof for a sealed sector's registered seal proof (cuzk/porep.h ids; any API version and
 * challenge kind of a size maps to that size's update proof). CUZK_ERR_INVALID_ARG naming the seal proof. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_snap_registered_proof_for_seal(cuzk_snap_registered_proof_t *out, uint64_t seal_proof_id,
                                                cuzk_err_t *err);

/* ---- The circuit's shape (constants.rs) ------------------------------------------------------------ */

typedef struct {
    uint64_t nodes;             /* leaves of trees D and R: sector size / 32; one of constants.rs'
                                 * ALLOWED_SECTOR_SIZES (1KiB..32KiB test sizes, 8MiB, 16MiB, 512MiB,
                                 * 32GiB, 64GiB) */
    uint32_t partition_count;   /* partition_count(nodes) */
    uint32_t challenge_count;   /* per partition: challenge_count(nodes) */
    uint32_t apex_leaf_count;   /* apex_leaf_count(nodes) */
    uint32_t h;                 /* the encoding's high bits (rho's input): one of hs(nodes); production
                                 * hs[3] (10 above 32KiB, 1 below) */
    uint32_t base_arity, sub_arity, top_arity; /* tree R: validate_tree_r_shape's for nodes (0: none) */
} cuzk_snap_config_t;

/* The production shape of a sector size (h = hs[3]). CUZK_ERR_INVALID_ARG for a size constants.rs does
 * not allow. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_snap_config_for_size(cuzk_snap_config_t *cfg, uint64_t sector_size, cuzk_err_t *err);
/* The shape of a registered update proof. CUZK_ERR_INVALID_ARG for an unknown id. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_snap_config_for_proof(cuzk_snap_config_t *cfg, uint64_t proof_id, cuzk_err_t *err);
/* CUZK_ERR_INVALID_ARG naming the field that is not constants.rs' for cfg->nodes (h: not one of hs). */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_snap_config_check(const cuzk_snap_config_t *cfg, cuzk_err_t *err);
/* hs(nodes) (CUZK_SNAP_H_CHOICES values). */
CUZK_API CUZK_NONNULL(2) void cuzk_snap_hs(uint64_t nodes, uint32_t hs[CUZK_SNAP_H_CHOICES]);
/* Path elements and sibling hashes of a tree-R path; tree-D path elements (log2 nodes). */
CUZK_API uint32_t cuzk_snap_tree_r_levels(const cuzk_snap_config_t *cfg);
CUZK_API size_t cuzk_snap_tree_r_siblings(const cuzk_snap_config_t *cfg);
CUZK_API uint32_t cuzk_snap_tree_d_levels(const cuzk_snap_config_t *cfg);
/* Public inputs of a partition, ONE included: 5 (k_and_h_select, comm_r_old, comm_d_new, comm_r_new). */
#define CUZK_SNAP_NUM_INPUTS 5

/* ---- Challenges and encoding (challenges.rs, vanilla.rs) -------------------------------------------
 * Commitments are 32-byte little-endian field elements, the byte order Curio sends and filecoin-ffi's
 * CIDs hold. */

/* Partition k's challenges (cfg->challenge_count node indexes, in order) for comm_r_new, as
 * challenges.rs' Challenges iterator gives them. CUZK_ERR_INVALID_ARG (k out of range, a bad cfg),
 * CUZK_ERR_NOT_CANONICAL (comm_r_new). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_snap_challenges(uint64_t *out, const cuzk_snap_config_t *cfg, const uint8_t comm_r_new[32],
                                 uint32_t k, cuzk_err_t *err);
/* phi = Poseidon2 with domain tag 2^40 (HashType::Custom(Arbitrary(1))) over (comm_d_new, comm_r_old).
 * CUZK_ERR_NOT_CANONICAL. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_snap_phi(uint8_t phi[32], const uint8_t comm_d_new[32], const uint8_t comm_r_old[32],
                          cuzk_err_t *err);
/* rho(node) = Poseidon2 with the same tag over (phi, node >> (log2 nodes − h)). Pure. */
CUZK_API CUZK_NONNULL(1, 2, 3)
void cuzk_snap_rho(cuzk_fr_t *rho, const cuzk_snap_config_t *cfg, const cuzk_fr_t *phi, uint64_t node);

/* ---- Vanilla partition proofs ----------------------------------------------------------------------
 * One partition's vanilla proof as filecoin-ffi's generate_partition_proofs returns it: the bincode
 * encoding of storage-proofs-update's PartitionProof (comm_c, the partition's apex leaves of tree D, per
 * challenge the inclusion paths into tree R old, tree D new and tree R new). A file of a whole sector's
 * partition proofs is bincode Vec<PartitionProof> (u64 count, then each). Layouts: docs/FORMATS.md. */
typedef struct cuzk_snap_vanilla cuzk_snap_vanilla_t;

/* Decodes buf, which must hold exactly one PartitionProof (truncated, trailing bytes: CUZK_ERR_FORMAT
 * naming the byte offset and field). Shapes are checked against a registered proof later
 * (cuzk_snap_check). CUZK_ERR_NO_MEMORY. On success *out is new; on error NULL. buf is not kept. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snap_vanilla_parse(cuzk_snap_vanilla_t **out, const void *buf, size_t len, cuzk_err_t *err);
/* A file of bincode Vec<PartitionProof>: up to max of them into out[0..*n). Errors as above, CUZK_ERR_IO
 * naming path (missing, unreadable, not a regular file), CUZK_ERR_FORMAT naming path for a file larger
 * than 64 MiB (no sector's proofs are), CUZK_ERR_BAD_LENGTH (more than max); on error every out[i] is
 * NULL. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 3, 4)
cuzk_status cuzk_snap_vanilla_load_all(cuzk_snap_vanilla_t **out, size_t max, size_t *n, const char *path,
                                       cuzk_err_t *err);
CUZK_API void cuzk_snap_vanilla_free(cuzk_snap_vanilla_t *v);

typedef struct {
    uint8_t comm_c[32];
    uint8_t root_r_old[32], root_r_new[32], comm_d_new[32]; /* the roots of the first challenge's paths */
    uint32_t n_apex_leaves;
    uint32_t n_challenges;
    uint32_t tree_r_levels, tree_d_levels;                  /* of the first challenge's paths */
} cuzk_snap_vanilla_info_t;
CUZK_API CUZK_NONNULL(1, 2) void cuzk_snap_vanilla_info(cuzk_snap_vanilla_info_t *out, const cuzk_snap_vanilla_t *v);

/* ---- A proof request: a sector's partitions --------------------------------------------------------- */
typedef struct {
    uint64_t proof_id;           /* registered update proof */
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32]; /* canonical Fr, little-endian */
    const cuzk_snap_vanilla_t *const *vanilla;              /* partition k's proof at [k] */
    size_t n_vanilla;            /* the proof's partition count */
} cuzk_snap_request_t;

/* Checks a request as a prover must before synthesis and as vanilla.rs' verify_all_partitions does: the
 * proof id, the partition count, each partition's shape (apex leaves, challenges, path shapes), comm_r_old
 * = Poseidon2(comm_c, root_r_old) and comm_r_new = Poseidon2(comm_c, root_r_new), comm_d_new the root of
 * every tree-D path, every path against its root, each challenge the partition's (cuzk_snap_challenges),
 * the apex leaves on the tree-D paths, and leaf_r_new = leaf_r_old + leaf_d_new·rho. CUZK_ERR_INVALID_ARG
 * (unknown proof, wrong partition count), CUZK_ERR_NOT_CANONICAL, CUZK_ERR_FORMAT / CUZK_ERR_MISMATCH naming
 * the first bad partition, challenge and path. Partitions are checked on every online CPU. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_snap_check(const cuzk_snap_request_t *req, cuzk_err_t *err);

/* Partition k's public inputs (ONE excluded: 4) as canonical scalars: k_and_h_select = k | h_select <<
 * partition_bit_len, comm_r_old, comm_d_new, comm_r_new. CUZK_ERR_INVALID_ARG (k, proof),
 * CUZK_ERR_NOT_CANONICAL. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snap_public_inputs(cuzk_scalar_t out[CUZK_SNAP_NUM_INPUTS - 1], const cuzk_snap_request_t *req,
                                    uint32_t k, cuzk_err_t *err);

/* ---- The circuit's witness and synthesis ------------------------------------------------------------ */

/* One challenge: the leaves and sibling hashes of its three paths (the path bits are the challenge's,
 * which the circuit derives from comm_r_new). */
typedef struct {
    cuzk_fr_t leaf_r_old, leaf_d_new, leaf_r_new;
    cuzk_fr_t *siblings_r_old; /* cuzk_snap_tree_r_siblings(cfg), path element 0 (next to the leaves) first */
    cuzk_fr_t *siblings_d_new; /* cuzk_snap_tree_d_levels(cfg), one per level, leaves' level first */
    cuzk_fr_t *siblings_r_new; /* as siblings_r_old */
} cuzk_snap_challenge_witness_t;

typedef struct {
    cuzk_snap_config_t cfg;
    bool has_values;            /* every value below is set (false: the blank circuit's shape) */
    uint32_t k;                 /* the partition */
    cuzk_fr_t comm_r_old, comm_d_new, comm_r_new;
    cuzk_fr_t comm_c, root_r_old, root_r_new;
    cuzk_fr_t *apex_leaves;     /* cfg.apex_leaf_count */
    cuzk_snap_challenge_witness_t *challenges; /* cfg.challenge_count */
    void *storage_;             /* internal: one allocation behind every array */
} cuzk_snap_witness_t;

/* Allocates a witness for cfg with every array in place and no values. Errors of cuzk_snap_config_check,
 * CUZK_ERR_NO_MEMORY. Free with cuzk_snap_witness_free (also after a failed init, and twice). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snap_witness_init(cuzk_snap_witness_t *w, const cuzk_snap_config_t *cfg, cuzk_err_t *err);
CUZK_API void cuzk_snap_witness_free(cuzk_snap_witness_t *w);

/* EmptySectorUpdateCircuit::synthesize into cs (a fresh system: ONE only); w NULL or without values: the
 * blank circuit (a backend that keeps values then fails: CUZK_ERR_INVALID_ARG). Public inputs in allocation
 * order: k_and_h_select, comm_r_old, comm_d_new, comm_r_new. With threads > 1 (>= 1; 1: sequential) the
 * challenges are synthesized on that many threads as pieces of cs (cuzk_cs_pieces_begin) where its backend
 * allows (count, witness, direct, check); the system is the same either way. cs's stop request is polled
 * before each challenge. CUZK_ERR_INVALID_ARG
 * for a bad config, a witness of another config or w->k not below the partition count; otherwise the
 * system's failure (cuzk_cs_status), among them CUZK_ERR_MISMATCH where the reference asserts: a challenge's
 * leaf_r_new that is not leaf_r_old + leaf_d_new·rho, a challenge whose tree-D partition levels are not
 * challenge 0's. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snap_synthesize(cuzk_cs_t *cs, const cuzk_snap_config_t *cfg, const cuzk_snap_witness_t *w,
                                 int threads, cuzk_err_t *err);

/* Shape figures of the blank circuit (count backend; with_hash also the TestConstraintSystem hash,
 * streamed in constant memory). Errors of cuzk_snap_config_check, CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snap_circuit_info(cuzk_circuit_info_t *out, const cuzk_snap_config_t *cfg, bool with_hash,
                                   cuzk_err_t *err);

/* Partition k of a request as the circuit's witness: *w is initialized here and freed with
 * cuzk_snap_witness_free (on error it is already freed). Errors of cuzk_snap_check's shape checks,
 * CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snap_request_witness(cuzk_snap_witness_t *w, const cuzk_snap_request_t *req, uint32_t k,
                                      cuzk_err_t *err);

/* ---- Parameters -------------------------------------------------------------------------------------
 * As for PoRep (cuzk/porep.h): <dir>/<v28 stem>.params and .vk, stems
 * "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-<digest>", parameters.json digests when the
 * directory has one, <stem>.cuzk-dev beside development parameters. */
typedef cuzk_porep_params_paths_t cuzk_snap_params_paths_t;

CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snap_params_paths(cuzk_snap_params_paths_t *out, const char *dir, uint64_t proof_id,
                                   cuzk_err_t *err);

typedef struct cuzk_snap_keys cuzk_snap_keys_t;

/* As cuzk_porep_keys_load, for a registered update proof's circuit. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snap_keys_load(cuzk_snap_keys_t **out, const char *dir, uint64_t proof_id, bool with_params,
                                int threads, cuzk_err_t *err);
CUZK_API void cuzk_snap_keys_free(cuzk_snap_keys_t *keys);
CUZK_API CUZK_NONNULL(1) const cuzk_groth16_vk_t *cuzk_snap_keys_vk(const cuzk_snap_keys_t *keys);
CUZK_API CUZK_NONNULL(1) const cuzk_groth16_pk_t *cuzk_snap_keys_pk(const cuzk_snap_keys_t *keys);
CUZK_API CUZK_NONNULL(1) const cuzk_snap_params_paths_t *cuzk_snap_keys_paths(const cuzk_snap_keys_t *keys);
CUZK_API CUZK_NONNULL(1) bool cuzk_snap_keys_dev(const cuzk_snap_keys_t *keys);

/* Development parameters for cfg's circuit (a random setup, NOT a trusted one), as cuzk_porep_dev_setup. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snap_dev_setup(cuzk_groth16_pk_t *pk, const cuzk_snap_config_t *cfg, int threads, cuzk_err_t *err);
/* CUZK_ERR_MISMATCH naming the first length of pk that is not cfg's circuit's. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snap_check_key(const cuzk_groth16_pk_t *pk, const cuzk_snap_config_t *cfg, cuzk_err_t *err);

/* ---- Proving and verifying ------------------------------------------------------------------------ */
typedef struct {
    int threads;                 /* synthesis and proving threads, >= 0; 0 = every online CPU */
    bool (*should_stop)(void *stop_arg); /* polled before each challenge and each proving phase; NULL: never */
    void *stop_arg;
    bool checked;                /* the caller already ran cuzk_snap_check on this request: not repeated */
} cuzk_snap_prove_opts_t;

typedef struct {
    double check_ms, synth_ms, prove_ms; /* synth_ms and prove_ms add up each partition's (they may overlap) */
    uint64_t constraints;        /* per partition */
    bool overlapped;             /* partitions were synthesized while the one before was proved */
} cuzk_snap_timings_t;

/* Every partition's proof, proofs[k] for partition k (n_proofs >= the partition count), as
 * EmptySectorUpdateCompound makes them: cuzk_snap_check (unless opts->checked), then per partition
 * synthesis (direct backend) and Groth16, partition k + 1 synthesized on a thread of its own while
 * partition k is proved when a second system fits in the memory available (timings->overlapped says so);
 * opts->should_stop is then called from both, one call at a time. Not verified here: verify with
 * cuzk_snap_verify before handing them out. With CUZK_TIMING=1 `snap_check`, `snap_synth` and `snap_prove` phase lines on stderr. Errors of
 * cuzk_snap_check, CUZK_ERR_BAD_LENGTH, CUZK_ERR_MISMATCH (a key of another circuit), CUZK_ERR_CANCELLED,
 * CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 3, 4)
cuzk_status cuzk_snap_prove(cuzk_groth16_proof_t *proofs, size_t n_proofs, const cuzk_snap_request_t *req,
                            const cuzk_groth16_pk_t *pk, const cuzk_snap_prove_opts_t *opts,
                            cuzk_snap_timings_t *timings, cuzk_err_t *err);

/* *valid is true when every partition's proof verifies under vk with its public inputs
 * (cuzk_snap_public_inputs); req->vanilla is not read (it may be NULL: n_proofs gives the partitions).
 * Errors (with *valid false): CUZK_ERR_MISMATCH (a vk with another input count, a proof count other than the
 * partition count), errors of cuzk_snap_public_inputs, CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3, 4)
cuzk_status cuzk_snap_verify(bool *valid, const cuzk_snap_request_t *req, const cuzk_groth16_vk_t *vk,
                             const cuzk_groth16_proof_t *proofs, size_t n_proofs, cuzk_err_t *err);

/* One partition synthesized, ready to prove, for a pipelining prover (the engine). It does not check the
 * request: the caller runs cuzk_snap_check first. Errors of cuzk_snap_request_witness, CUZK_ERR_CANCELLED,
 * CUZK_ERR_NO_MEMORY. On success *out is new; on error NULL. It borrows nothing from the request. */
typedef struct cuzk_snap_partition cuzk_snap_partition_t;
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_snap_partition_synthesize(cuzk_snap_partition_t **out, const cuzk_snap_request_t *req, uint32_t k,
                                           const cuzk_snap_prove_opts_t *opts, cuzk_err_t *err);
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3)
cuzk_status cuzk_snap_partition_prove(cuzk_groth16_proof_t *proof, const cuzk_snap_partition_t *part,
                                      const cuzk_groth16_pk_t *pk, const cuzk_snap_prove_opts_t *opts,
                                      cuzk_err_t *err);
CUZK_API void cuzk_snap_partition_free(cuzk_snap_partition_t *part);

#ifdef __cplusplus
}
#endif
#endif
