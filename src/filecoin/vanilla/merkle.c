/* Merkle inclusion paths of Filecoin's trees, out of circuit: shape checks, the challenged leaf index and
 * the root a path hashes to (storage-proofs-core merkle/proof.rs InclusionPath::root, path_index). */
#include "filecoin/vanilla/merkle.h"
#include <string.h>
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"

static const char *hash_name(cuzk_fc_merkle_hash_t h)
{
    return h == CUZK_FC_MERKLE_SHA256 ? "sha256" : "poseidon";
}

uint32_t cuzk_fc_merkle_levels(const cuzk_fc_merkle_path_t *p)
{
    return p->n_base + p->n_sub + p->n_top;
}

size_t cuzk_fc_merkle_sibling_count(const cuzk_fc_merkle_path_t *p)
{
    uint32_t n = cuzk_fc_merkle_levels(p);
    size_t s = 0;
    for (uint32_t i = 0; i < n && i < CUZK_FC_MERKLE_MAX_LEVELS; i++)
        s += p->steps[i].arity ? p->steps[i].arity - 1u : 0;
    return s;
}

static int arity_ok(cuzk_fc_merkle_hash_t h, unsigned a)
{
    if (h == CUZK_FC_MERKLE_SHA256)
        return a == 2;
    return a == 2 || a == 4 || a == 8 || a == 16;
}

cuzk_status cuzk_fc_merkle_path_check(const cuzk_fc_merkle_path_t *p, cuzk_err_t *err)
{
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "merkle path: NULL");
    if (p->hash != CUZK_FC_MERKLE_SHA256 && p->hash != CUZK_FC_MERKLE_POSEIDON)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "merkle path: unknown hash %d", (int)p->hash);
    /* Summed in 64 bits so that three huge counts cannot wrap around the limit. */
    uint64_t n = (uint64_t)p->n_base + p->n_sub + p->n_top;
    if (n > CUZK_FC_MERKLE_MAX_LEVELS)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "merkle path: %llu levels (base %u, sub %u, top %u), at most %d",
                            (unsigned long long)n, p->n_base, p->n_sub, p->n_top, CUZK_FC_MERKLE_MAX_LEVELS);
    unsigned __int128 leaves = 1;
    for (uint32_t i = 0; i < (uint32_t)n; i++) {
        unsigned a = p->steps[i].arity, idx = p->steps[i].index;
        if (!arity_ok(p->hash, a))
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "merkle path (%s): level %u has arity %u", hash_name(p->hash),
                                i, a);
        if (idx >= a)
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "merkle path: level %u index %u is not below its arity %u", i,
                                idx, a);
        leaves *= a;
        if (leaves > (unsigned __int128)1 << 64) /* leaf indices must fit in 64 bits */
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "merkle path: more than 2^64 leaves at level %u", i);
    }
    if (n && !p->siblings)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "merkle path: %llu levels but no siblings",
                            (unsigned long long)n);
    return CUZK_OK;
}

cuzk_status cuzk_fc_merkle_path_check_shape(const cuzk_fc_merkle_path_t *p, unsigned base, unsigned sub,
                                            unsigned top, uint64_t leaves, cuzk_err_t *err)
{
    cuzk_status st = cuzk_fc_merkle_path_check(p, err);
    if (st != CUZK_OK)
        return st;
    if (p->n_sub != (sub != 0) || p->n_top != (top != 0))
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "merkle path: %u sub and %u top levels, the %u-%u-%u tree has %d and %d", p->n_sub,
                            p->n_top, base, sub, top, sub != 0, top != 0);
    unsigned __int128 n = 1;
    for (uint32_t i = 0; i < cuzk_fc_merkle_levels(p); i++) {
        unsigned want = i < p->n_base ? base : i < p->n_base + p->n_sub ? sub : top;
        if (p->steps[i].arity != want)
            return cuzk_err_set(err, CUZK_ERR_MISMATCH, "merkle path: level %u has arity %u, the %u-%u-%u tree %u",
                                i, p->steps[i].arity, base, sub, top, want);
        n *= want; /* below 2^64 by cuzk_fc_merkle_path_check */
    }
    if (n != leaves)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "merkle path: %u base levels (%llu leaves) for a %u-%u-%u tree of %llu leaves", p->n_base,
                            (unsigned long long)n, base, sub, top, (unsigned long long)leaves);
    return CUZK_OK;
}

cuzk_status cuzk_fc_merkle_leaf_index(uint64_t *out, const cuzk_fc_merkle_path_t *p, cuzk_err_t *err)
{
    cuzk_status st = cuzk_fc_merkle_path_check(p, err);
    if (st != CUZK_OK)
        return st;
    uint64_t idx = 0, place = 1;
    for (uint32_t i = 0; i < cuzk_fc_merkle_levels(p); i++) {
        idx += p->steps[i].index * place; /* < Π arities <= 2^64 − 1: no wrap */
        place *= p->steps[i].arity;       /* wraps to 0 only after the last level */
    }
    *out = idx;
    return CUZK_OK;
}

cuzk_status cuzk_fc_merkle_compute_root(uint8_t out[32], const cuzk_fc_merkle_path_t *p, cuzk_err_t *err)
{
    cuzk_status st = cuzk_fc_merkle_path_check(p, err);
    if (st != CUZK_OK)
        return st;
    uint8_t cur[32], nodes[16 * 32];
    memcpy(cur, p->leaf, 32);
    const uint8_t *sib = p->siblings;
    for (uint32_t i = 0; i < cuzk_fc_merkle_levels(p); i++) {
        unsigned a = p->steps[i].arity, idx = p->steps[i].index;
        /* The path's node goes in at its index, the siblings keep their order around it. */
        memcpy(nodes, sib, (size_t)idx * 32);
        memcpy(nodes + (size_t)idx * 32, cur, 32);
        memcpy(nodes + (size_t)(idx + 1) * 32, sib + (size_t)idx * 32, (size_t)(a - 1 - idx) * 32);
        sib += (size_t)(a - 1) * 32;
        if (p->hash == CUZK_FC_MERKLE_SHA256) {
            cuzk_fc_sha256_node(cur, nodes, nodes + 32);
            continue;
        }
        cuzk_err_t e;
        st = cuzk_poseidon_node(cur, a, nodes, &e);
        if (st == CUZK_ERR_NOT_CANONICAL)
            return cuzk_err_set(err, st, "merkle path level %u (index %u of %u): %s", i, idx, a, e.msg);
        if (st != CUZK_OK)
            return cuzk_err_set(err, st, "merkle path level %u: %s", i, e.msg);
    }
    memcpy(out, cur, 32);
    return CUZK_OK;
}

static void hex8(char *s, const uint8_t *b)
{
    static const char d[] = "0123456789abcdef";
    for (int i = 0; i < 4; i++)
        s[2 * i] = d[b[i] >> 4], s[2 * i + 1] = d[b[i] & 15];
    s[8] = 0;
}

cuzk_status cuzk_fc_merkle_check_root(const cuzk_fc_merkle_path_t *p, const uint8_t computed[32], cuzk_err_t *err)
{
    if (memcmp(computed, p->root, 32) != 0) {
        char got[9], want[9];
        hex8(got, computed), hex8(want, p->root);
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "merkle path (%s, %u levels): hashes to root %s…, the proof claims %s…",
                            hash_name(p->hash), cuzk_fc_merkle_levels(p), got, want);
    }
    return CUZK_OK;
}

cuzk_status cuzk_fc_merkle_verify(const cuzk_fc_merkle_path_t *p, cuzk_err_t *err)
{
    uint8_t root[32];
    cuzk_status st = cuzk_fc_merkle_compute_root(root, p, err);
    return st != CUZK_OK ? st : cuzk_fc_merkle_check_root(p, root, err);
}
