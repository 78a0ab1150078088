/* por_no_challenge_input (storage-proofs-core gadgets/por.rs): a Merkle path checked against caller-given
 * position bits and pre-allocated siblings, in the reference's constraint order (insert, hash per level,
 * then the root equality). */
#include "gadgets/por_no_challenge.h"
#include "gadgets/constraint.h"
#include "gadgets/insertion.h"
#include "gadgets/poseidon.h"
#include "gadgets/sha256_hasher.h"

/* The shape checks of por.h, with zero base levels allowed (the reference's base_path_len may be 0). */
static bool shape_ok(cuzk_cs_t *cs, const cuzk_por_shape_t *shape)
{
    cuzk_por_shape_t s = *shape;
    if (s.base_levels == 0)
        s.base_levels = 1; /* por_shape_check wants one; the arity checks are what matter here */
    cuzk_err_t err;
    if (cuzk_por_shape_check(&s, &err) != CUZK_OK) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "por_no_challenge_input: %s", err.msg);
        return false;
    }
    return true;
}

cuzk_status cuzk_por_no_challenge_input(cuzk_cs_t *cs, const cuzk_por_shape_t *shape, const cuzk_bit_t *bits,
                                        size_t nbits, const cuzk_num_t *leaf, const cuzk_num_t *siblings,
                                        const cuzk_num_t *root)
{
    if (!shape_ok(cs, shape))
        return cuzk_cs_status(cs, NULL);
    unsigned levels = cuzk_por_levels(shape);
    size_t want = 0;
    for (unsigned l = 0; l < levels; l++)
        want += (size_t)__builtin_ctz(cuzk_por_arity(shape, l));
    if (nbits != want)
        return cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG,
                            "por_no_challenge_input: %zu challenge bits for a path of %zu position bits", nbits, want);
    cuzk_num_t cur = *leaf;
    for (unsigned l = 0; l < levels; l++) {
        unsigned arity = cuzk_por_arity(shape, l), nb = (unsigned)__builtin_ctz(arity);
        cuzk_boolean_t ib[4]; /* arity <= CUZK_POR_MAX_ARITY = 16 */
        for (unsigned i = 0; i < nb; i++)
            ib[i] = cuzk_boolean_from_bit(bits[i]);
        bits += nb;
        cuzk_num_t children[CUZK_POR_MAX_ARITY];
        cuzk_insertion_insert(cs, &cur, ib, nb, siblings, children);
        siblings += arity - 1;
        if (shape->hasher == CUZK_POR_SHA256)
            cur = cuzk_sha256_hash_multi_leaf(cs, children, arity);
        else
            cuzk_poseidon_circuit(cs, &cur, arity, children);
    }
    cuzk_constraint_equal(cs, &cur, root);
    return cuzk_cs_status(cs, NULL);
}
