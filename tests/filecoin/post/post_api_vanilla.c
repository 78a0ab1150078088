/* Small real trees and their PoSt vanilla proofs for the product-path tests (post_api_vanilla.h). */
#include "post_api_vanilla.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/fc_post_test.h"
#include "filecoin/hash/poseidon.h"
#include "test_util.h"

int tv_tree_make(tv_tree_t *t, unsigned arity, uint64_t leaves)
{
    memset(t, 0, sizeof *t);
    t->arity = arity;
    t->leaves = leaves;
    uint64_t total = 0, n = leaves;
    for (;;) {
        t->offset[t->levels] = total;
        total += n;
        if (n == 1)
            break;
        if (n % arity || t->levels == 15)
            return -1;
        n /= arity;
        t->levels++;
    }
    t->nodes = malloc(total * 32);
    if (!t->nodes)
        return -1;
    for (uint64_t i = 0; i < leaves; i++)
        test_rand_fr_bytes(t->nodes + 32 * i);
    for (unsigned l = 1; l <= t->levels; l++) {
        uint64_t count = (t->offset[l] - t->offset[l - 1]) / arity;
        for (uint64_t i = 0; i < count; i++)
            if (cuzk_poseidon_node(t->nodes + 32 * (t->offset[l] + i), arity,
                                   t->nodes + 32 * (t->offset[l - 1] + i * arity), NULL) != CUZK_OK)
                return -1;
    }
    memcpy(t->comm_r_last, t->nodes + 32 * t->offset[t->levels], 32);
    test_rand_fr_bytes(t->comm_c);
    uint8_t pair[64];
    memcpy(pair, t->comm_c, 32);
    memcpy(pair + 32, t->comm_r_last, 32);
    return cuzk_poseidon_node(t->comm_r, 2, pair, NULL) == CUZK_OK ? 0 : -1;
}

void tv_tree_free(tv_tree_t *t)
{
    free(t->nodes);
    memset(t, 0, sizeof *t);
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

typedef struct {
    uint8_t *p;
    size_t len;
} buf_t;

static void put(buf_t *b, const void *src, size_t n)
{
    memcpy(b->p + b->len, src, n);
    b->len += n;
}

static void put64(buf_t *b, uint64_t v)
{
    uint8_t x[8];
    put_u64(x, v);
    put(b, x, 8);
}

/* MerkleProof::Single of leaf i: u32 kind 0, root, leaf, then the path levels (siblings, index). */
static void put_path(buf_t *b, const tv_tree_t *t, uint64_t i)
{
    static const uint8_t kind[4] = {0, 0, 0, 0};
    put(b, kind, 4);
    put(b, t->comm_r_last, 32);
    put(b, t->nodes + 32 * i, 32);
    put64(b, t->levels);
    uint64_t at = i;
    for (unsigned l = 0; l < t->levels; l++) {
        uint64_t first = at - at % t->arity;
        put64(b, t->arity - 1);
        for (unsigned j = 0; j < t->arity; j++)
            if (first + j != at)
                put(b, t->nodes + 32 * (t->offset[l] + first + j), 32);
        put64(b, at % t->arity);
        at /= t->arity;
    }
}

uint8_t *tv_encode(size_t *len, uint64_t sector_id, const tv_tree_t *t, const uint64_t *leaves, size_t n_paths,
                   unsigned sector_proofs)
{
    size_t path = 4 + 32 + 32 + 8 + t->levels * (16 + 32 * (size_t)(t->arity - 1));
    size_t cap = 48 + sector_proofs * (8 + n_paths * path + 64);
    buf_t b = {malloc(cap), 0};
    if (!b.p)
        return NULL;
    put64(&b, sector_id);
    put(&b, t->comm_r, 32);
    put64(&b, sector_proofs);
    for (unsigned s = 0; s < sector_proofs; s++) {
        put64(&b, n_paths);
        for (size_t n = 0; n < n_paths; n++)
            put_path(&b, t, leaves[n]);
        put(&b, t->comm_c, 32);
        put(&b, t->comm_r_last, 32);
    }
    *len = b.len;
    return b.p;
}

uint8_t *tv_encode_post(size_t *len, uint64_t sector_id, const tv_tree_t *t, const uint8_t randomness[32],
                        uint64_t sector_index, uint32_t n_paths, int v1_2)
{
    uint64_t *leaves = malloc(n_paths * sizeof *leaves);
    if (!leaves)
        return NULL;
    for (uint32_t n = 0; n < n_paths; n++)
        leaves[n] = fc_test_post_leaf(randomness, sector_id, sector_index, n_paths, n, v1_2, t->leaves);
    uint8_t *out = tv_encode(len, sector_id, t, leaves, n_paths, 1);
    free(leaves);
    return out;
}
