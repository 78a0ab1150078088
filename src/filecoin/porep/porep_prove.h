/* PoRep C2 on the C1 model (c1.h): a C1 output's partitions → witness → synthesis → Groth16 proofs, and
 * the verification of a sector's proofs against the public inputs porep_inputs.h derives from the C1's
 * replica_id, comm_d, comm_r and seed. The public porep.h is a thin layer over these (porep_api.c), which
 * the library's own tests also call directly. */
#ifndef CUZK_FILECOIN_POREP_PROVE_H
#define CUZK_FILECOIN_POREP_PROVE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/porep.h"
#include "cuzk/status.h"
#include "filecoin/vanilla/c1.h"
#include "filecoin/vanilla/c1_json.h"

/* The circuit configuration of c1's registered proof. */
cuzk_status cuzk_porep_c1_config(cuzk_porep_config_t *cfg, const cuzk_fc_c1_t *c1, cuzk_err_t *err);

/* Checks a C1 against what a request says of it: its sector size (0: any), the sector number (NULL: not
 * given) against its Curio wrapper's (when info says it was wrapped) and, when both sector and miner are
 * given, the replica id recomputed from them (the C1 binds its sector only through it).
 * CUZK_ERR_MISMATCH saying which. */
cuzk_status cuzk_porep_c1_check_sector(const cuzk_fc_c1_t *c1, uint64_t sector_size, const cuzk_fc_c1_wrapper_info_t *info,
                                       const uint64_t *sector, const uint64_t *miner, cuzk_err_t *err);

/* Partition k's public inputs (ONE excluded) as canonical scalars; out_len >= 3 + 18·challenges.
 * *n_out gets their number. */
cuzk_status cuzk_porep_c1_public_inputs(cuzk_scalar_t *out, size_t out_len, size_t *n_out,
                                        const cuzk_fc_c1_t *c1, uint32_t k, cuzk_err_t *err);

/* One partition ready for cuzk_groth16_prove, synthesized either by the direct backend (gw points into cs)
 * or witness-only against a record (porep_record.c: cs holds the assignment, abc A·z and B·z over the
 * domain, cw the same for the consuming prover, density copies of the record's bitmaps, so that the
 * partition borrows nothing from the record). The public cuzk_porep_partition_t (porep.h) is this
 * structure, allocated; here it lives in the caller's storage. */
struct cuzk_porep_partition {
    cuzk_cs_t *cs;
    cuzk_groth16_witness_t gw;
    bool from_record;
    cuzk_cs_abc_t abc;
    cuzk_groth16_witness_consumable_t cw;
    uint64_t *density; /* a_aux, b_input, b_aux bitmaps back to back */
};

/* A recorded circuit (porep.h's cuzk_porep_record_t): its configuration, the compact matrices and density
 * bitmaps, and their bytes. Immutable once made. */
struct cuzk_porep_record {
    cuzk_porep_config_t cfg;
    cuzk_cs_record_t rec;
    uint64_t bytes;
};

/* CUZK_OK when rec is cfg's circuit, else CUZK_ERR_MISMATCH naming both configurations. */
cuzk_status cuzk_porep_record_check_config(const cuzk_porep_record_t *rec, const cuzk_porep_config_t *cfg,
                                           cuzk_err_t *err);

/* The record of cfg's blank circuit (the record backend, compact form only) into *rec, the caller's
 * (cuzk_cs_record_free). should_stop (may be NULL) is polled before each challenge: CUZK_ERR_CANCELLED.
 * Errors of synthesis and of cuzk_cs_take_record_compact; on error *rec is empty. */
cuzk_status cuzk_porep_record_build(cuzk_cs_record_t *rec, const cuzk_porep_config_t *cfg,
                                    bool (*should_stop)(void *stop_arg), void *stop_arg, cuzk_err_t *err);
/* Partition k of c1 (the caller has checked k and the C1's challenges) synthesized witness-only for cfg and
 * evaluated against rec (cfg's record) on `threads` threads (<= 0: every online CPU) into *out, ready for
 * cuzk_porep_partition_prove_in_place or cuzk_groth16_prove with out->gw. should_stop as above. Errors of
 * cuzk_porep_witness_from_c1, of synthesis, CUZK_ERR_MISMATCH (a record of other counts), CUZK_ERR_NO_MEMORY.
 * On error *out is empty. Release with cuzk_porep_partition_clear. */
cuzk_status cuzk_porep_synthesize_partition_record(cuzk_porep_partition_t *out, const cuzk_fc_c1_t *c1,
                                                   const cuzk_porep_config_t *cfg, uint32_t k,
                                                   const cuzk_cs_record_t *rec, int threads,
                                                   bool (*should_stop)(void *stop_arg), void *stop_arg,
                                                   cuzk_err_t *err);

/* Partition k of c1 (k < c1->n_partitions; the caller has checked the C1's challenges) synthesized for
 * cfg (cuzk_porep_c1_config). should_stop (may be NULL) is polled before each challenge: when it says so,
 * CUZK_ERR_CANCELLED. On error *out is empty. Release with cuzk_porep_partition_clear. */
cuzk_status cuzk_porep_synthesize_partition(cuzk_porep_partition_t *out, const cuzk_fc_c1_t *c1,
                                            const cuzk_porep_config_t *cfg, uint32_t k,
                                            bool (*should_stop)(void *stop_arg), void *stop_arg, cuzk_err_t *err);
/* The proof of a synthesized partition in the partition's own memory (cuzk_groth16_prove_consume):
 * afterwards the partition holds no witness (only cuzk_porep_partition_clear is left to do with it).
 * Peak memory for a 32GiB partition: its A·z, B·z and assignment (12.6 GB) plus one domain array (4.3 GB),
 * plus the key's points (or one streamed piece of them with po->params). */
cuzk_status cuzk_porep_partition_prove_in_place(cuzk_groth16_proof_t *proof, cuzk_porep_partition_t *part,
                                                 const cuzk_groth16_pk_t *pk, const cuzk_groth16_prove_opts *po,
                                                cuzk_err_t *err);
/* Frees what *p holds and zeroes it (p itself stays the caller's). */
void cuzk_porep_partition_clear(cuzk_porep_partition_t *p);

/* One proof per partition of c1 (proofs has c1->n_partitions entries), partitions one after the
 * other (one partition's synthesis in memory at a time). The C1's challenges must be the seed's
 * (cuzk_fc_c1_check_challenges, checked first: CUZK_ERR_MISMATCH). opts->should_stop (when set) is
 * polled as porep.h says. With CUZK_TIMING=1, `porep_synth` and `porep_prove` phase lines per
 * partition. timings may be NULL. */
cuzk_status cuzk_porep_prove_c1(cuzk_groth16_proof_t *proofs, const cuzk_fc_c1_t *c1, const cuzk_groth16_pk_t *pk,
                                const cuzk_porep_prove_opts_t *opts, cuzk_porep_timings_t *timings,
                                cuzk_err_t *err);

/* *valid is true when n equals c1's partition count and proof k verifies under vk with partition k's
 * public inputs, for every k. An error status (a vk with another input count, ...) leaves it false. */
cuzk_status cuzk_porep_verify_c1(bool *valid, const cuzk_fc_c1_t *c1, const cuzk_groth16_vk_t *vk,
                                 const cuzk_groth16_proof_t *proofs, size_t n, cuzk_err_t *err);
#endif
