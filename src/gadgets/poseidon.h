/* Poseidon in circuit: neptune's legacy `poseidon_hash` gadget, the one Filecoin's trusted setups
 * encode (Merkle paths, column hashes, comm_r), reproduced variable for variable, constraint for
 * constraint, coefficient for coefficient. */
#ifndef CUZK_GADGETS_POSEIDON_H
#define CUZK_GADGETS_POSEIDON_H
#include "cuzk/cs.h"
#include "filecoin/hash/poseidon_constants.h"
#include "gadgets/num.h"

/* *out = Poseidon(tag, preimage[0..arity−1]) with c's arity (1..36), allocated in cs: arity·3 +
 * 4·(t·(R_F − 1) + R_P) + 1 constraints and as many aux variables (311 / 377 / 505 / 598 for arity
 * 2 / 4 / 8 / 11). Runs on every backend: where cs keeps no values, the preimage needs none and *out
 * has none; where it does, a preimage without value fails cs (as bellpepper's AssignmentMissing).
 * The constraint shape of each (arity, tag) is derived once and cached (thread-safe).
 * Returns cuzk_cs_status(cs): a failure (earlier, or CUZK_ERR_NO_MEMORY here) leaves *out = ONE
 * without value. */
cuzk_status cuzk_poseidon_circuit_tagged(cuzk_cs_t *cs, cuzk_num_t *out, const cuzk_poseidon_constants_t *c,
                                         const fr *tag, const cuzk_num_t *preimage);

/* The MerkleTree hash (tag 2^arity − 1) of `arity` elements: filecoin-hashers' hash2_circuit /
 * hash_multi_leaf_circuit. An arity outside 1..36 fails cs with CUZK_ERR_INVALID_ARG. */
cuzk_status cuzk_poseidon_circuit(cuzk_cs_t *cs, cuzk_num_t *out, unsigned arity, const cuzk_num_t *preimage);

#endif
