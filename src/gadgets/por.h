/* Proof of retrievability in circuit (storage-proofs-core gadgets/por.rs PoRCircuit): a leaf, its
 * Merkle path through a tree of base levels, an optional sub level and an optional top level, and
 * the root; the path's position bits are exposed packed as one public input (the leaf index). Binary
 * and wider SHA-256 trees (tree D) and Poseidon trees of any power-of-two arities (trees C and R). */
#ifndef CUZK_GADGETS_POR_H
#define CUZK_GADGETS_POR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "cuzk/status.h"
#include "gadgets/num.h"

typedef enum {
    CUZK_POR_POSEIDON = 0, /* hash_multi_leaf_circuit: Poseidon MerkleTree hash of the level's arity */
    CUZK_POR_SHA256 = 1,   /* hash_multi_leaf_circuit: each child to_bits_le, SHA-256, 254 bits packed */
} cuzk_por_hasher;

#define CUZK_POR_MAX_ARITY 16u
#define CUZK_POR_MAX_LEVELS 64u

/* A tree shape: base_levels levels of base_arity, then one level of sub_arity (0: none), then one
 * of top_arity (0: none; needs a sub level). Arities are powers of two, 2..CUZK_POR_MAX_ARITY. */
typedef struct {
    cuzk_por_hasher hasher;
    unsigned base_arity;
    unsigned base_levels;
    unsigned sub_arity, top_arity;
} cuzk_por_shape_t;

/* The shape of a tree over `leaves` leaves (base_path_length): the base trees hold
 * leaves / (sub·top) leaves each, which must be a power of base_arity (at least base_arity).
 * CUZK_ERR_INVALID_ARG naming what is wrong. */
cuzk_status cuzk_por_shape_for_leaves(cuzk_por_shape_t *shape, cuzk_por_hasher hasher, uint64_t leaves,
                                      unsigned base_arity, unsigned sub_arity, unsigned top_arity,
                                      cuzk_err_t *err);
/* CUZK_ERR_INVALID_ARG when the shape is not one the gadget handles. */
cuzk_status cuzk_por_shape_check(const cuzk_por_shape_t *shape, cuzk_err_t *err);
/* Path elements (levels), the arity of level l (0 = next to the leaves), the number of sibling
 * hashes of the whole path (Σ (arity_l − 1)), and the number of leaves of the tree. */
unsigned cuzk_por_levels(const cuzk_por_shape_t *shape);
unsigned cuzk_por_arity(const cuzk_por_shape_t *shape, unsigned level);
size_t cuzk_por_siblings(const cuzk_por_shape_t *shape);
uint64_t cuzk_por_leaves(const cuzk_por_shape_t *shape);
/* The leaf index a path's per-level positions give (Σ index_l·Π_{k<l} arity_k), and back. */
uint64_t cuzk_por_index_of(const cuzk_por_shape_t *shape, const uint32_t *positions);
void cuzk_por_positions_of(const cuzk_por_shape_t *shape, uint64_t index, uint32_t *positions);

/* The witness of a path (AuthPath): level l's siblings follow those of the levels below it, in the
 * order the tree stores them (the path's own node left out); positions[l] is the node's place among
 * its arity_l children. Either pointer NULL: unknown (blank circuit). */
typedef struct {
    const cuzk_fr_t *siblings;
    const uint32_t *positions;
} cuzk_por_path_t;

/* A leaf or root (variables.rs Root): an allocated num (Var) or a value still to allocate (Val;
 * value NULL: unknown). */
typedef struct {
    bool is_var;
    cuzk_num_t num;         /* Var */
    const cuzk_fr_t *value; /* Val */
} cuzk_por_root_t;

static inline cuzk_por_root_t cuzk_por_root_var(const cuzk_num_t *num)
{
    return (cuzk_por_root_t){.is_var = true, .num = *num, .value = NULL};
}
static inline cuzk_por_root_t cuzk_por_root_val(const cuzk_fr_t *value)
{
    return (cuzk_por_root_t){.is_var = false, .num = {{0}, false, {{0}}}, .value = value};
}

/* PoRCircuit::synthesize: the leaf (allocated if a Val), per level log2(arity) position bits
 * (AllocatedBit, least significant first), arity − 1 sibling nums, insert, hash; then every
 * position bit packed into public inputs (one input for paths of at most 254 bits), the root
 * (allocated if a Val), computed root · ONE = root, and with private_root false the root made a
 * public input. A bad shape fails cs (CUZK_ERR_INVALID_ARG). Returns cuzk_cs_status(cs). */
cuzk_status cuzk_por_synthesize(cuzk_cs_t *cs, const cuzk_por_shape_t *shape, cuzk_por_root_t leaf,
                                const cuzk_por_path_t *path, cuzk_por_root_t root, bool private_root);

/* The public inputs PoRCompound::generate_public_inputs gives for leaf `index`: the index as a
 * field element, then the root when it is public (root NULL: private). Returns how many (1 or 2). */
size_t cuzk_por_public_inputs(uint64_t index, const cuzk_fr_t *root, cuzk_fr_t out[2]);

#endif
