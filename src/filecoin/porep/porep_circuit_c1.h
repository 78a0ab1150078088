/* One partition of a C1 output (c1.h, SealCommitPhase1Output) as the PoRep circuit's witness, as
 * storage-proofs-porep's StackedCompound::circuit and From<VanillaProof> take it apart. */
#ifndef CUZK_FILECOIN_POREP_CIRCUIT_C1_H
#define CUZK_FILECOIN_POREP_CIRCUIT_C1_H
#include "cuzk/filecoin.h"
#include "filecoin/vanilla/c1.h"

/* Initializes w for c1's registered proof and fills it from partition k: replica_id, comm_d and
 * comm_r from the C1 output, comm_c and comm_r_last from the first challenge's paths (every
 * challenge must agree, as the reference ensures), per challenge labeling_proofs[0].node as the
 * challenge and every path and column. Values are copied, not checked against each other (that is
 * cuzk_fc_c1_verify's job; an inconsistent witness leaves the circuit unsatisfied). Errors:
 * CUZK_ERR_INVALID_ARG (k out of range), CUZK_ERR_FORMAT (a path or column of another shape than
 * the circuit's, no labeling proof), CUZK_ERR_MISMATCH (comm_c / comm_r_last differ between
 * challenges), CUZK_ERR_NOT_CANONICAL (a value >= r), CUZK_ERR_NO_MEMORY; each naming the challenge
 * and field. On error w is freed. */
cuzk_status cuzk_porep_witness_from_c1(cuzk_porep_witness_t *w, const cuzk_fc_c1_t *c1, uint32_t k,
                                       cuzk_err_t *err);

#endif
