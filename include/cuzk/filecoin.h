/* Filecoin circuits: the PoRep (stacked DRG) C2 circuit as rust-fil-proofs' StackedCircuit builds it
 * — the same variables, constraints and linear combinations in the same order — its witness as plain
 * C data (one partition of SealCommitPhase1Output's vanilla proofs), and circuit shape figures
 * (constraints, inputs, aux, non-zeros, densities, TestConstraintSystem hash).
 * This is the circuit level, for programs that synthesize into a constraint system of their own (shape
 * figures, benchmarks, other provers); the product path (load and check a C1 output, prove, verify) is
 * cuzk/porep.h, which also gives a partition's witness for cuzk_porep_synthesize (cuzk_porep_c1_witness).
 *
 * Ownership: a witness owns its arrays from cuzk_porep_witness_init to cuzk_porep_witness_free (which
 * accepts a failed or already freed witness); configurations and circuit info are plain values.
 * cuzk_porep_synthesize only reads cfg and w and writes into the caller's constraint system.
 * Threading: no shared mutable state: any number of syntheses may run at once on distinct systems,
 * sharing configurations and witnesses (read only).
 * Errors: CUZK_ERR_INVALID_ARG for an unknown proof or sector size or a configuration the circuit
 * cannot be built for (cuzk_porep_config_check, also reached through witness_init, synthesize and
 * circuit_info); CUZK_ERR_NO_MEMORY; synthesis returns the system's failure (cuzk_cs_status: a
 * missing value, out of memory, CUZK_ERR_CANCELLED); cuzk_porep_circuit_info with a hash also
 * CUZK_ERR_UNSUPPORTED when libcrypto has no BLAKE2s. */
#ifndef CUZK_FILECOIN_H
#define CUZK_FILECOIN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "cuzk/field.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Shape ---------------------------------------------------------------------------------- */

#define CUZK_POREP_DRG_PARENTS 6
#define CUZK_POREP_EXP_PARENTS 8
#define CUZK_POREP_MAX_CHALLENGES 18 /* MAX_CHALLENGES_PER_PARTITION */

/* What the circuit depends on. Production values come from the registered proof; the reference's
 * test circuits use other ones (8 nodes, 2 layers, 1 challenge, shapes 2, 8, 8-4, 8-4-2). */
typedef struct {
    uint64_t nodes;      /* sector size / 32; a power of two, at least 2 */
    uint32_t layers;     /* 2 or 11 (the column hash is Poseidon of that arity) */
    uint32_t challenges; /* per partition, 1..CUZK_POREP_MAX_CHALLENGES */
    uint32_t base_arity, sub_arity, top_arity; /* trees R and C: 8-0-0, 8-8-0, 8-8-2 (0: none) */
} cuzk_porep_config_t;

/* The configuration of a registered seal proof, by name ("StackedDrg32GiBV1_1", the Go form
 * "RegisteredSealProof_StackedDrg32GiBV1_1" or its number "8"); *partitions (may be NULL) gets its
 * partition count. CUZK_ERR_INVALID_ARG for an unknown name. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_porep_config_for_proof(cuzk_porep_config_t *cfg, uint32_t *partitions, const char *name,
                                        cuzk_err_t *err);
/* The same for a sector size in bytes (2KiB, 8MiB, 512MiB, 32GiB, 64GiB; every registered version
 * of a size shares its circuit). CUZK_ERR_INVALID_ARG for another size. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_porep_config_for_sector_size(cuzk_porep_config_t *cfg, uint32_t *partitions, uint64_t sector_size,
                                              cuzk_err_t *err);
/* CUZK_ERR_INVALID_ARG naming the field the circuit cannot be built for. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_porep_config_check(const cuzk_porep_config_t *cfg, cuzk_err_t *err);

/* Whether a and b are the same circuit: every field equal. */
CUZK_API CUZK_NONNULL(1, 2) bool cuzk_porep_config_equal(const cuzk_porep_config_t *a, const cuzk_porep_config_t *b);
/* Path elements of a tree-R/C path and of a tree-D path, and sibling hashes of a tree-R/C path. */
CUZK_API uint32_t cuzk_porep_tree_levels(const cuzk_porep_config_t *cfg);
CUZK_API uint32_t cuzk_porep_tree_d_levels(const cuzk_porep_config_t *cfg);
CUZK_API size_t cuzk_porep_tree_siblings(const cuzk_porep_config_t *cfg);
/* Public inputs of a partition, ONE included: 4 + 18·challenges. */
CUZK_API size_t cuzk_porep_num_inputs(const cuzk_porep_config_t *cfg);

/* ---- Witness: one partition of vanilla proofs ---------------------------------------------------
 * Mirrors storage-proofs-porep vanilla Proof (src/stacked/vanilla/params.rs) field for field, as far as the
 * circuit and a vanilla check need it. Every value is optional (its has_ flag false): a blank
 * circuit (count and record backends) needs none, a value backend fails (AssignmentMissing) where
 * one it needs is absent. Arrays are owned by the witness (cuzk_porep_witness_init). */

/* A Merkle inclusion proof (MerkleProof): path element l (0 = next to the leaves) holds arity_l − 1
 * sibling hashes, stored one element after the other, and the position of the path's node among
 * its arity_l children (PathElement.index). */
typedef struct {
    cuzk_fr_t *siblings;  /* cuzk_porep_tree_siblings, or tree-D levels for comm_d paths */
    uint32_t *positions;  /* one per path element */
    cuzk_fr_t leaf, root;
    bool has_values;      /* siblings, positions, leaf and root are set */
} cuzk_porep_path_t;

/* A column proof (ColumnProof): the node's value in every layer and its column hash's path in
 * tree C (whose leaf is the column hash and root comm_c). */
typedef struct {
    uint32_t index;       /* Column.index: the node */
    cuzk_fr_t *rows;      /* layers values, layer 1 first */
    bool has_rows;        /* index and rows are set */
    cuzk_porep_path_t path;
} cuzk_porep_column_t;

/* One challenge: comm_d_proofs (leaf = the data node), comm_r_last_proof (leaf = the replica node),
 * replica_column_proofs (c_x: the challenged node's own column, its rows are the node's labels;
 * drg_parents, exp_parents), and labeling_proofs[0].node as the challenge. */
typedef struct {
    uint64_t challenge;
    bool has_challenge;
    cuzk_porep_path_t comm_d_path;
    cuzk_porep_path_t comm_r_last_path;
    cuzk_porep_column_t c_x;
    cuzk_porep_column_t drg_parents[CUZK_POREP_DRG_PARENTS];
    cuzk_porep_column_t exp_parents[CUZK_POREP_EXP_PARENTS];
} cuzk_porep_challenge_t;

typedef struct {
    cuzk_porep_config_t cfg;
    cuzk_fr_t replica_id, comm_d, comm_r, comm_c, comm_r_last;
    bool has_replica_id, has_comm_d, has_comm_r, has_comm_c, has_comm_r_last;
    uint32_t num_challenges; /* cfg.challenges */
    cuzk_porep_challenge_t *challenges;
    void *storage_; /* internal: every array above lives in this one allocation */
} cuzk_porep_witness_t;

/* Allocates a witness for cfg with every array in place and every value absent (zero). Errors of
 * cuzk_porep_config_check, CUZK_ERR_NO_MEMORY. Free with cuzk_porep_witness_free (also after a
 * failed init, and twice). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_porep_witness_init(cuzk_porep_witness_t *w, const cuzk_porep_config_t *cfg, cuzk_err_t *err);
CUZK_API void cuzk_porep_witness_free(cuzk_porep_witness_t *w);

/* ---- Synthesis --------------------------------------------------------------------------------- */

/* StackedCircuit::synthesize into cs (a fresh system: ONE only). w NULL: the blank circuit.
 * Public inputs in allocation order: replica_id, comm_d, comm_r, then per challenge the comm_d path
 * index, 6 DRG and 8 expander parent indexes, the challenge, the comm_r_last and comm_c path
 * indexes (storage-proofs-porep src/stacked/circuit/proof.rs; docs/REFERENCE.md §3.1).
 * CUZK_ERR_INVALID_ARG for a bad config or a witness of another config; otherwise cuzk_cs_status(cs)
 * (a missing value, out of memory; CUZK_ERR_CANCELLED when the system's stop request, polled before
 * each challenge, said so: cuzk_cs_set_stop). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_porep_synthesize(cuzk_cs_t *cs, const cuzk_porep_config_t *cfg, const cuzk_porep_witness_t *w,
                                  cuzk_err_t *err);

/* ---- Circuit info (cuzk_circuit_info_t: cuzk/cs.h) ---------------------------------------------- */

/* Counts on the count backend (a 32GiB partition: seconds, tens of MiB); with with_hash also the
 * TestConstraintSystem hash, streamed by the hash backend in constant memory (a second synthesis:
 * production sizes take minutes). Errors of cuzk_porep_config_check, of synthesis and of
 * cuzk_cs_hash_begin (CUZK_ERR_UNSUPPORTED when libcrypto has no BLAKE2s). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_porep_circuit_info(cuzk_circuit_info_t *out, const cuzk_porep_config_t *cfg, bool with_hash,
                                    cuzk_err_t *err);

/* The figures of cuzk_porep_circuit_info without the hash, from two count syntheses of one and two
 * challenges: the circuit is a loop over its challenges, each adding the same constraints, variables,
 * non-zeros and densities, so the rest follows linearly (32GiB: 18 challenges counted as 3, seconds
 * instead of 10). tests/filecoin/porep/test_porep_circuit_slow.c checks it against the full count and the
 * published statistics at 32GiB and 64GiB. Each configuration is counted once and kept (thread-safe):
 * the key check, the partitions' reservations and the daemon's memory plan ask again and again. Errors of
 * cuzk_porep_circuit_info. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_porep_circuit_shape(cuzk_circuit_info_t *out, const cuzk_porep_config_t *cfg, cuzk_err_t *err);

#ifdef __cplusplus
}
#endif
#endif
