/* Merkle inclusion with the path's position bits supplied by the caller (storage-proofs-core gadgets/por.rs
 * por_no_challenge_input): the circuit that derives its challenges itself (SnapDeals) passes the challenge's
 * own bits, so no position bit is allocated and none becomes a public input, unlike PoRCircuit (por.h). */
#ifndef CUZK_GADGETS_POR_NO_CHALLENGE_H
#define CUZK_GADGETS_POR_NO_CHALLENGE_H
#include <stddef.h>
#include "cuzk/cs.h"
#include "gadgets/boolean.h"
#include "gadgets/num.h"
#include "gadgets/por.h"

/* leaf's path through a tree of `shape` (base_levels may be 0: then only the sub and top levels, or none at
 * all) up to root: per level, from the leaves up, insert cur among that level's siblings at the position
 * its log2(arity) bits give (bits[], least significant first, consumed level by level: nbits must be their
 * sum), hash the level (hash_multi_leaf_circuit of the shape's hasher); then computed·ONE = root.
 * siblings: the path's cuzk_por_siblings(shape) nums, already allocated by the caller, level 0 first.
 * Nothing is allocated but what insert and hash allocate. A bad shape or bit count fails cs
 * (CUZK_ERR_INVALID_ARG, as the reference's assertions). Returns cuzk_cs_status(cs). */
cuzk_status cuzk_por_no_challenge_input(cuzk_cs_t *cs, const cuzk_por_shape_t *shape, const cuzk_bit_t *bits,
                                        size_t nbits, const cuzk_num_t *leaf, const cuzk_num_t *siblings,
                                        const cuzk_num_t *root);

#endif
