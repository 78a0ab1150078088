/* PoRCircuit (storage-proofs-core gadgets/por.rs): Merkle inclusion of a leaf under a root with the
 * path's position bits as a public input, in the variable and constraint order of the reference. */
#include "gadgets/por.h"
#include <string.h>
#include "ff/fr.h"
#include "gadgets/boolean.h"
#include "gadgets/constraint.h"
#include "gadgets/insertion.h"
#include "gadgets/multipack.h"
#include "gadgets/poseidon.h"
#include "gadgets/sha256_hasher.h"

static bool arity_ok(unsigned a) { return a >= 2 && a <= CUZK_POR_MAX_ARITY && (a & (a - 1)) == 0; }

static unsigned log2u(unsigned a) { return (unsigned)__builtin_ctz(a); }

cuzk_status cuzk_por_shape_check(const cuzk_por_shape_t *s, cuzk_err_t *err)
{
    if (s->hasher != CUZK_POR_POSEIDON && s->hasher != CUZK_POR_SHA256)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "por: unknown hasher %d", (int)s->hasher);
    if (!arity_ok(s->base_arity))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "por: base arity %u is not a power of two in 2..%u",
                            s->base_arity, CUZK_POR_MAX_ARITY);
    if (s->sub_arity && !arity_ok(s->sub_arity))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "por: sub-tree arity %u is not a power of two in 2..%u",
                            s->sub_arity, CUZK_POR_MAX_ARITY);
    if (s->top_arity && !arity_ok(s->top_arity))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "por: top-tree arity %u is not a power of two in 2..%u",
                            s->top_arity, CUZK_POR_MAX_ARITY);
    if (s->top_arity && !s->sub_arity)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "por: a top tree needs a sub-tree arity");
    if (s->base_levels < 1 || cuzk_por_levels(s) > CUZK_POR_MAX_LEVELS)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "por: %u base levels (1..%u levels in all)", s->base_levels,
                            CUZK_POR_MAX_LEVELS);
    /* the leaf index must fit the 64 bits the witness carries */
    unsigned bits = s->base_levels * log2u(s->base_arity) + (s->sub_arity ? log2u(s->sub_arity) : 0) +
                    (s->top_arity ? log2u(s->top_arity) : 0);
    if (bits > 63)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "por: a tree of 2^%u leaves is too large", bits);
    return CUZK_OK;
}

cuzk_status cuzk_por_shape_for_leaves(cuzk_por_shape_t *shape, cuzk_por_hasher hasher, uint64_t leaves,
                                      unsigned base_arity, unsigned sub_arity, unsigned top_arity, cuzk_err_t *err)
{
    *shape = (cuzk_por_shape_t){.hasher = hasher, .base_arity = base_arity, .base_levels = 1,
                                .sub_arity = sub_arity, .top_arity = top_arity};
    cuzk_status st = cuzk_por_shape_check(shape, err);
    if (st != CUZK_OK)
        return st;
    uint64_t per = (uint64_t)(sub_arity ? sub_arity : 1) * (top_arity ? top_arity : 1);
    if (leaves == 0 || leaves % per)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "por: %llu leaves do not split into %llu base trees",
                            (unsigned long long)leaves, (unsigned long long)per);
    uint64_t base = leaves / per;
    unsigned levels = 0;
    while (base > 1 && base % base_arity == 0)
        base /= base_arity, levels++;
    if (base != 1 || levels == 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "por: base trees of %llu leaves are not a power of the base arity %u",
                            (unsigned long long)(leaves / per), base_arity);
    shape->base_levels = levels;
    return cuzk_por_shape_check(shape, err);
}

unsigned cuzk_por_levels(const cuzk_por_shape_t *s)
{
    return s->base_levels + (s->sub_arity ? 1u : 0u) + (s->top_arity ? 1u : 0u);
}

unsigned cuzk_por_arity(const cuzk_por_shape_t *s, unsigned level)
{
    if (level < s->base_levels)
        return s->base_arity;
    if (level == s->base_levels && s->sub_arity)
        return s->sub_arity;
    return s->top_arity;
}

size_t cuzk_por_siblings(const cuzk_por_shape_t *s)
{
    size_t n = 0;
    for (unsigned l = 0; l < cuzk_por_levels(s); l++)
        n += cuzk_por_arity(s, l) - 1;
    return n;
}

uint64_t cuzk_por_leaves(const cuzk_por_shape_t *s)
{
    uint64_t n = 1;
    for (unsigned l = 0; l < cuzk_por_levels(s); l++)
        n *= cuzk_por_arity(s, l);
    return n;
}

uint64_t cuzk_por_index_of(const cuzk_por_shape_t *s, const uint32_t *positions)
{
    uint64_t index = 0, scale = 1;
    for (unsigned l = 0; l < cuzk_por_levels(s); l++) {
        index += (uint64_t)positions[l] * scale;
        scale *= cuzk_por_arity(s, l);
    }
    return index;
}

void cuzk_por_positions_of(const cuzk_por_shape_t *s, uint64_t index, uint32_t *positions)
{
    for (unsigned l = 0; l < cuzk_por_levels(s); l++) {
        unsigned a = cuzk_por_arity(s, l);
        positions[l] = (uint32_t)(index % a);
        index /= a;
    }
}

static cuzk_num_t root_allocated(cuzk_cs_t *cs, const cuzk_por_root_t *r)
{
    if (r->is_var)
        return r->num;
    return cuzk_num_alloc(cs, r->value);
}

static cuzk_num_t level_hash(cuzk_cs_t *cs, cuzk_por_hasher h, const cuzk_num_t *children, unsigned arity)
{
    if (h == CUZK_POR_SHA256)
        return cuzk_sha256_hash_multi_leaf(cs, children, arity);
    cuzk_num_t out;
    cuzk_poseidon_circuit(cs, &out, arity, children);
    return out;
}

cuzk_status cuzk_por_synthesize(cuzk_cs_t *cs, const cuzk_por_shape_t *shape, cuzk_por_root_t leaf,
                                const cuzk_por_path_t *path, cuzk_por_root_t root, bool private_root)
{
    cuzk_err_t err;
    if (cuzk_por_shape_check(shape, &err) != CUZK_OK)
        return cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "%s", err.msg);
    bool want = cuzk_cs_wants_values(cs);
    const cuzk_fr_t *sib = want ? path->siblings : NULL;
    const uint32_t *pos = want ? path->positions : NULL;

    cuzk_num_t cur = root_allocated(cs, &leaf);
    cuzk_boolean_t bits[CUZK_POR_MAX_LEVELS * 4];
    size_t nbits = 0;
    unsigned levels = cuzk_por_levels(shape);
    for (unsigned l = 0; l < levels; l++) {
        unsigned arity = cuzk_por_arity(shape, l), nb = log2u(arity);
        cuzk_boolean_t *ib = &bits[nbits];
        for (unsigned i = 0; i < nb; i++)
            ib[i] = cuzk_boolean_from_bit(cuzk_bit_alloc(cs, pos ? (int)((pos[l] >> i) & 1) : CUZK_BIT_UNKNOWN));
        nbits += nb;
        cuzk_num_t hashes[CUZK_POR_MAX_ARITY], children[CUZK_POR_MAX_ARITY];
        for (unsigned i = 0; i + 1 < arity; i++)
            hashes[i] = cuzk_num_alloc(cs, sib ? sib++ : NULL);
        cuzk_insertion_insert(cs, &cur, ib, nb, hashes, children);
        cur = level_hash(cs, shape->hasher, children, arity);
    }
    cuzk_multipack_pack_into_inputs(cs, bits, nbits);
    cuzk_num_t rt = root_allocated(cs, &root);
    cuzk_constraint_equal(cs, &cur, &rt);
    if (!private_root)
        cuzk_num_inputize(cs, &rt);
    return cuzk_cs_status(cs, NULL);
}

size_t cuzk_por_public_inputs(uint64_t index, const cuzk_fr_t *root, cuzk_fr_t out[2])
{
    uint64_t l[4] = {index, 0, 0, 0};
    fr_to_mont(&out[0], l);
    if (!root)
        return 1;
    out[1] = *root;
    return 2;
}
