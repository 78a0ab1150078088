/* SYNTHETIC commit-phase-1 outputs of any sector size, for benchmarks and tests only: a C1 model that passes
 * every check a prover makes (cuzk_fc_c1_verify, cuzk_fc_c1_check_challenges, the replica_id of a miner and
 * sector) but describes a sector that does not exist and could not be sealed. A 32GiB or 64GiB C1 is made in
 * well under a second instead of hours of sealing and 100+ GB of disk. */
#ifndef CUZK_FILECOIN_C1_SYNTHETIC_H
#define CUZK_FILECOIN_C1_SYNTHETIC_H
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/c1.h"
#include "filecoin/registry/registered_proof.h"

/* For a registered proof whose challenges are synthetic or non-interactive: make the C1 anyway, with
 * challenges drawn from the seed as the interactive kind does. cuzk_fc_c1_verify passes, but
 * cuzk_fc_c1_check_challenges fails (see below why nothing else can be done); for benchmarks of the
 * shapes and sizes of those proofs. */
#define CUZK_FC_C1_SYNTH_ANY_CHALLENGES 1u

/* Makes the synthetic C1 of registered proof p, miner `miner` (prover_id as filecoin-ffi derives it) and
 * sector number `sector`; every other value comes from seed_bytes (the same bytes give the same C1):
 *  - the ticket and the seed: SHA-256 of seed_bytes and a label, top two bits cleared;
 *  - every data node of the sector has one value d (also from seed_bytes), so comm_d is the root of a
 *    tree of equal leaves, independent of which nodes are challenged: replica_id (miner, sector, ticket,
 *    comm_d, porep_id) and the seed then fix the interactive challenges, derived as commit phase 1 does;
 *  - the nodes a proof shows but does not check (the challenges' 6 DRG + 8 expander parents) get random
 *    labels, the same ones wherever a node appears; the challenged nodes' labels are computed from their
 *    parents' layer by layer (a challenged node that is another's parent shows those labels there);
 *  - tree C holds the column hashes of those nodes and tree R the challenged nodes' replica nodes
 *    (last label + d); all their other leaves are one random value per tree (sparse_tree.h), and
 *    comm_r = Poseidon(comm_c, comm_r_last).
 * Synthetic and non-interactive challenges are derived from comm_r, which depends on the challenged
 * leaves themselves (Fiat–Shamir): a consistent C1 of those kinds needs the whole sector sealed, so they
 * are CUZK_ERR_UNSUPPORTED unless flags has CUZK_FC_C1_SYNTH_ANY_CHALLENGES.
 * threads: 0 = every online CPU. Errors: CUZK_ERR_INVALID_ARG (NULL), CUZK_ERR_UNSUPPORTED,
 * CUZK_ERR_NO_MEMORY; on error *out is empty. Free with cuzk_fc_c1_free. */
cuzk_status cuzk_fc_c1_synthetic(cuzk_fc_c1_t *out, const cuzk_fc_seal_proof_t *p, uint64_t miner, uint64_t sector,
                                 const uint8_t seed_bytes[32], unsigned flags, int threads, cuzk_err_t *err);

/* What the synthetic sector made from seed_bytes holds where its C1 shows nothing: every data node (d), and
 * every other leaf of tree C and of tree R (canonical Fr values), for tests that rebuild the whole trees. */
void cuzk_fc_c1_synthetic_defaults(uint8_t data[32], uint8_t tree_c_leaf[32], uint8_t tree_r_leaf[32],
                                   const uint8_t seed_bytes[32]);

#endif
