/* Merkle inclusion paths: paths cut out of whole trees built level by level (the merkletree crate's
 * layout: each node hashes `arity` consecutive nodes of the level below) must hash to the tree's root and
 * name their leaf; tree D against cuzk_fc_comm_d and the published 32GiB zero comm_d; a filecoin-hashers
 * tree value; tampering and malformed paths. */
#include <stdlib.h>
#include <string.h>
#include "filecoin/vanilla/merkle.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "test_util.h"

/* A random canonical Fr representation whose top byte is small, so that flipping any bit of byte 0 keeps
 * it canonical. */
static void rand_node(uint8_t out[32])
{
    test_rand_bytes(out, 32);
    out[31] &= 0x1f;
}

/* A whole tree over `leaves` (n·32 bytes): level i+1 node j = H(level i nodes a·j .. a·j + a − 1) with
 * the arity of level i. Returns all levels in one buffer, level 0 first; *root points into it. */
static uint8_t *build_tree(cuzk_fc_merkle_hash_t h, const uint8_t *leaves, uint64_t n, const unsigned *arity,
                           unsigned levels, const uint8_t **root, size_t *level_off)
{
    size_t total = 0, w = n;
    for (unsigned i = 0; i <= levels; i++) {
        level_off[i] = total;
        total += w;
        if (i < levels)
            w /= arity[i];
    }
    uint8_t *t = malloc(total * 32);
    memcpy(t, leaves, n * 32);
    w = n;
    for (unsigned i = 0; i < levels; i++) {
        const uint8_t *in = t + level_off[i] * 32;
        uint8_t *out = t + level_off[i + 1] * 32;
        for (size_t j = 0; j < w / arity[i]; j++) {
            if (h == CUZK_FC_MERKLE_SHA256)
                cuzk_fc_sha256_node(out + j * 32, in + 2 * j * 32, in + (2 * j + 1) * 32);
            else
                CHECK(cuzk_poseidon_node(out + j * 32, arity[i], in + j * arity[i] * 32, NULL) == CUZK_OK);
        }
        w /= arity[i];
    }
    *root = t + level_off[levels] * 32;
    return t;
}

/* The path of leaf `leaf`: at each level its position among its group is the digit, the others the
 * siblings. */
static void cut_path(cuzk_fc_merkle_path_t *p, uint8_t *sib, const uint8_t *tree, const size_t *level_off,
                     const unsigned *arity, unsigned levels, uint64_t leaf)
{
    uint64_t pos = leaf;
    uint8_t *s = sib;
    for (unsigned i = 0; i < levels; i++) {
        unsigned a = arity[i], d = (unsigned)(pos % a);
        uint64_t first = pos - d;
        p->steps[i].arity = (uint8_t)a;
        p->steps[i].index = (uint8_t)d;
        for (unsigned k = 0; k < a; k++)
            if (k != d) {
                memcpy(s, tree + (level_off[i] + first + k) * 32, 32);
                s += 32;
            }
        pos /= a;
    }
    memcpy(p->leaf, tree + (level_off[0] + leaf) * 32, 32);
    p->siblings = sib;
}

typedef struct {
    unsigned base, sub, top, n_base;
} shape;

static void test_poseidon_shapes(void)
{
    static const shape shapes[] = {
        {8, 0, 0, 2}, {8, 8, 0, 2}, {8, 8, 2, 1}, {8, 8, 2, 2}, {2, 0, 0, 6}, {4, 0, 0, 3},
        {4, 2, 0, 2}, {16, 0, 0, 2}, {8, 4, 2, 1}, {2, 2, 2, 3},
    };
    for (size_t t = 0; t < sizeof shapes / sizeof *shapes; t++) {
        const shape *sh = &shapes[t];
        unsigned arity[8], levels = 0;
        uint64_t n = 1;
        for (unsigned i = 0; i < sh->n_base; i++)
            arity[levels++] = sh->base, n *= sh->base;
        if (sh->sub)
            arity[levels++] = sh->sub, n *= sh->sub;
        if (sh->top)
            arity[levels++] = sh->top, n *= sh->top;
        uint8_t *leaves = malloc(n * 32);
        for (uint64_t i = 0; i < n; i++)
            rand_node(leaves + i * 32);
        size_t off[9];
        const uint8_t *root;
        uint8_t *tree = build_tree(CUZK_FC_MERKLE_POSEIDON, leaves, n, arity, levels, &root, off);
        uint8_t sib[8 * 15 * 32];
        int ok = 1;
        for (int rep = 0; rep < 6; rep++) {
            uint64_t leaf = rep == 0 ? 0 : rep == 1 ? n - 1 : test_rand_below(n);
            cuzk_fc_merkle_path_t p;
            memset(&p, 0, sizeof p);
            p.hash = CUZK_FC_MERKLE_POSEIDON;
            p.n_base = sh->n_base, p.n_sub = sh->sub != 0, p.n_top = sh->top != 0;
            cut_path(&p, sib, tree, off, arity, levels, leaf);
            memcpy(p.root, root, 32);
            uint8_t got[32];
            uint64_t idx = ~0ULL;
            cuzk_err_t err;
            size_t want_sib = sh->n_base * (sh->base - 1) + (sh->sub ? sh->sub - 1 : 0) + (sh->top ? sh->top - 1 : 0);
            ok &= cuzk_fc_merkle_sibling_count(&p) == want_sib;
            ok &= cuzk_fc_merkle_compute_root(got, &p, &err) == CUZK_OK && memcmp(got, root, 32) == 0;
            ok &= cuzk_fc_merkle_verify(&p, &err) == CUZK_OK;
            ok &= cuzk_fc_merkle_leaf_index(&idx, &p, &err) == CUZK_OK && idx == leaf;
            ok &= cuzk_fc_merkle_path_check_shape(&p, sh->base, sh->sub, sh->top, n, &err) == CUZK_OK;
            /* the wrong tree size, a missing or extra layer */
            ok &= cuzk_fc_merkle_path_check_shape(&p, sh->base, sh->sub, sh->top, n * 2, &err) == CUZK_ERR_MISMATCH;
            ok &= cuzk_fc_merkle_path_check_shape(&p, sh->base, sh->sub ? 0 : 8, sh->top, n, &err) == CUZK_ERR_MISMATCH;
            ok &= cuzk_fc_merkle_path_check_shape(&p, sh->base == 8 ? 4 : 8, sh->sub, sh->top, n, &err) ==
                  CUZK_ERR_MISMATCH;

            /* any flipped bit of the leaf or of a sibling, or another index, changes the root */
            size_t ns = cuzk_fc_merkle_sibling_count(&p);
            size_t k = test_rand_below(ns);
            sib[k * 32] ^= (uint8_t)(1u << test_rand_below(8));
            ok &= cuzk_fc_merkle_verify(&p, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "root");
            cut_path(&p, sib, tree, off, arity, levels, leaf);
            p.leaf[0] ^= 1;
            ok &= cuzk_fc_merkle_verify(&p, &err) == CUZK_ERR_MISMATCH;
            p.leaf[0] ^= 1;
            unsigned lv = (unsigned)test_rand_below(levels);
            p.steps[lv].index = (uint8_t)((p.steps[lv].index + 1) % p.steps[lv].arity);
            ok &= cuzk_fc_merkle_verify(&p, &err) == CUZK_ERR_MISMATCH;
            p.steps[lv].index = (uint8_t)((p.steps[lv].index + p.steps[lv].arity - 1) % p.steps[lv].arity);
            ok &= cuzk_fc_merkle_verify(&p, &err) == CUZK_OK;
            /* the root written over the leaf: out may alias the path */
            ok &= cuzk_fc_merkle_compute_root(p.leaf, &p, &err) == CUZK_OK && memcmp(p.leaf, root, 32) == 0;
        }
        CHECK_MSG(ok, "poseidon %u-%u-%u tree with %llu leaves", sh->base, sh->sub, sh->top, (unsigned long long)n);
        free(tree);
        free(leaves);
    }
}

/* filecoin-hashers poseidon.rs test_poseidon_hasher: the binary tree over leaves [1, 0, 0, 1]; the path
 * of leaf 2 is sibling leaf 3 (= 1, on the right), then node(1, 0) on the left. */
static void test_filecoin_hashers_tree(void)
{
    static const uint64_t node10[4] = {0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26,
                                       0x042f94ffbe786bc3},
                          root[4] = {0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae,
                                     0x1effebb7b26ad9eb};
    uint8_t sib[2][32] = {{1}};
    cuzk_fc_merkle_path_t p;
    memset(&p, 0, sizeof p);
    p.hash = CUZK_FC_MERKLE_POSEIDON;
    p.n_base = 2;
    p.steps[0] = (cuzk_fc_merkle_step_t){2, 0};
    p.steps[1] = (cuzk_fc_merkle_step_t){2, 1};
    for (int i = 0; i < 32; i++)
        sib[1][i] = (uint8_t)(node10[i / 8] >> (8 * (i % 8))), p.root[i] = (uint8_t)(root[i / 8] >> (8 * (i % 8)));
    p.siblings = sib[0];
    uint64_t idx;
    CHECK(cuzk_fc_merkle_verify(&p, NULL) == CUZK_OK);
    CHECK(cuzk_fc_merkle_leaf_index(&idx, &p, NULL) == CUZK_OK && idx == 2);
    p.leaf[0] = 1; /* leaf 2 is 0 */
    CHECK(cuzk_fc_merkle_verify(&p, NULL) == CUZK_ERR_MISMATCH);
}

/* Tree D: the tree built with the node hash must have cuzk_fc_comm_d's root (a separate implementation),
 * and every path must reach it. */
static void test_sha256_tree(void)
{
    enum { LEVELS = 7, N = 1 << LEVELS };
    uint8_t *data = malloc(N * 32);
    test_rand_bytes(data, N * 32);
    unsigned arity[LEVELS];
    for (int i = 0; i < LEVELS; i++)
        arity[i] = 2;
    size_t off[LEVELS + 1];
    const uint8_t *root;
    uint8_t *tree = build_tree(CUZK_FC_MERKLE_SHA256, data, N, arity, LEVELS, &root, off);
    uint8_t comm_d[32];
    CHECK(cuzk_fc_comm_d(comm_d, data, N * 32, 1, NULL) == CUZK_OK);
    CHECK_MSG(memcmp(comm_d, root, 32) == 0, "tree D oracle differs from cuzk_fc_comm_d");
    uint8_t sib[LEVELS * 32];
    int ok = 1;
    for (uint64_t leaf = 0; leaf < N; leaf++) {
        cuzk_fc_merkle_path_t p;
        memset(&p, 0, sizeof p);
        p.hash = CUZK_FC_MERKLE_SHA256;
        p.n_base = LEVELS;
        cut_path(&p, sib, tree, off, arity, LEVELS, leaf);
        memcpy(p.root, comm_d, 32);
        uint64_t idx;
        ok &= cuzk_fc_merkle_verify(&p, NULL) == CUZK_OK;
        ok &= cuzk_fc_merkle_leaf_index(&idx, &p, NULL) == CUZK_OK && idx == leaf;
        ok &= cuzk_fc_merkle_path_check_shape(&p, 2, 0, 0, N, NULL) == CUZK_OK;
        sib[(leaf % LEVELS) * 32 + leaf % 32] ^= 0x80;
        ok &= cuzk_fc_merkle_verify(&p, NULL) == CUZK_ERR_MISMATCH;
    }
    CHECK_MSG(ok, "tree D paths over %d leaves", N);
    free(tree);
    free(data);
}

/* curio lib/proof/treed_build_test.go (docs/REFERENCE.md §6): the 32GiB zero-data comm_d. Every path of
 * an all-zero tree has the zero subtree roots as siblings. */
static void test_zero_comm_d_32g(void)
{
    static const char *want_hex = "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e";
    uint8_t want[32], sib[30][32], z[32] = {0};
    CHECK(test_hex_decode(want_hex, want, 32) == 32);
    for (int i = 0; i < 30; i++) {
        memcpy(sib[i], z, 32);
        cuzk_fc_sha256_node(z, z, z);
    }
    cuzk_fc_merkle_path_t p;
    memset(&p, 0, sizeof p);
    p.hash = CUZK_FC_MERKLE_SHA256;
    p.n_base = 30;
    uint64_t leaf = test_rand_below(1ULL << 30), idx;
    for (int i = 0; i < 30; i++)
        p.steps[i] = (cuzk_fc_merkle_step_t){2, (uint8_t)(leaf >> i & 1)};
    p.siblings = sib[0];
    memcpy(p.root, want, 32);
    CHECK_MSG(cuzk_fc_merkle_verify(&p, NULL) == CUZK_OK, "32GiB zero comm_d path");
    CHECK(cuzk_fc_merkle_leaf_index(&idx, &p, NULL) == CUZK_OK && idx == leaf);
    CHECK(cuzk_fc_merkle_path_check_shape(&p, 2, 0, 0, 1ULL << 30, NULL) == CUZK_OK);
}

/* A path of nb octree levels, every index 0, over the sibling buffer. */
static void reset(cuzk_fc_merkle_path_t *p, uint8_t *sib, cuzk_fc_merkle_hash_t h, unsigned nb)
{
    memset(p, 0, sizeof *p);
    p->hash = h, p->n_base = nb, p->siblings = sib;
    for (unsigned i = 0; i < nb; i++)
        p->steps[i].arity = 8;
}

static void test_malformed(void)
{
    uint8_t sib[64 * 15 * 32];
    memset(sib, 0, sizeof sib);
    cuzk_fc_merkle_path_t p;
    cuzk_err_t err;
    uint8_t out[32];
    uint64_t idx;
#define RESET(h, nb) reset(&p, sib, (h), (nb))
    RESET(CUZK_FC_MERKLE_POSEIDON, 3);
    CHECK(cuzk_fc_merkle_verify(&p, &err) == CUZK_ERR_MISMATCH);
    p.steps[1].arity = 3;
    CHECK(cuzk_fc_merkle_compute_root(out, &p, &err) == CUZK_ERR_FORMAT && strstr(err.msg, "level 1"));
    p.steps[1].arity = 8, p.steps[2].index = 8;
    CHECK(cuzk_fc_merkle_leaf_index(&idx, &p, &err) == CUZK_ERR_FORMAT && strstr(err.msg, "level 2"));
    RESET(CUZK_FC_MERKLE_SHA256, 3);
    CHECK(cuzk_fc_merkle_verify(&p, &err) == CUZK_ERR_FORMAT && strstr(err.msg, "arity 8"));
    RESET(CUZK_FC_MERKLE_POSEIDON, 3);
    p.n_sub = 1;
    p.steps[3].arity = 32;
    CHECK(cuzk_fc_merkle_verify(&p, &err) == CUZK_ERR_FORMAT);
    p.hash = (cuzk_fc_merkle_hash_t)7;
    CHECK(cuzk_fc_merkle_verify(&p, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_merkle_verify(NULL, &err) == CUZK_ERR_INVALID_ARG);
    RESET(CUZK_FC_MERKLE_POSEIDON, 2);
    p.siblings = NULL;
    CHECK(cuzk_fc_merkle_verify(&p, &err) == CUZK_ERR_INVALID_ARG);
    /* counts that would wrap a 32-bit sum */
    RESET(CUZK_FC_MERKLE_POSEIDON, 2);
    p.n_sub = 0xffffffffu;
    CHECK(cuzk_fc_merkle_verify(&p, &err) == CUZK_ERR_FORMAT && strstr(err.msg, "levels"));
    /* 2^64 leaves is the limit: 64 binary levels pass, 22 octree levels (2^66) do not */
    RESET(CUZK_FC_MERKLE_SHA256, 64);
    for (int i = 0; i < 64; i++)
        p.steps[i] = (cuzk_fc_merkle_step_t){2, 1};
    CHECK(cuzk_fc_merkle_leaf_index(&idx, &p, &err) == CUZK_OK && idx == ~0ULL);
    CHECK(cuzk_fc_merkle_path_check_shape(&p, 2, 0, 0, ~0ULL, &err) == CUZK_ERR_MISMATCH);
    p.n_base = 65;
    CHECK(cuzk_fc_merkle_verify(&p, &err) == CUZK_ERR_FORMAT);
    RESET(CUZK_FC_MERKLE_POSEIDON, 22);
    CHECK(cuzk_fc_merkle_verify(&p, &err) == CUZK_ERR_FORMAT && strstr(err.msg, "2^64"));
    /* a non-canonical sibling (all ones) on level 1, and a non-canonical leaf */
    RESET(CUZK_FC_MERKLE_POSEIDON, 2);
    memset(sib + 7 * 32 + 2 * 32, 0xff, 32);
    CHECK(cuzk_fc_merkle_verify(&p, &err) == CUZK_ERR_NOT_CANONICAL && strstr(err.msg, "level 1"));
    memset(sib, 0, sizeof sib);
    memset(p.leaf, 0xff, 32);
    CHECK(cuzk_fc_merkle_verify(&p, &err) == CUZK_ERR_NOT_CANONICAL && strstr(err.msg, "level 0"));
    /* SHA-256 leaves are bytes, not field elements */
    RESET(CUZK_FC_MERKLE_SHA256, 0);
    p.n_base = 1, p.steps[0] = (cuzk_fc_merkle_step_t){2, 0};
    memset(p.leaf, 0xff, 32);
    CHECK(cuzk_fc_merkle_compute_root(out, &p, &err) == CUZK_OK);
    /* a zero-level path: the leaf is the root */
    RESET(CUZK_FC_MERKLE_POSEIDON, 0);
    p.siblings = NULL;
    rand_node(p.leaf);
    memcpy(p.root, p.leaf, 32);
    CHECK(cuzk_fc_merkle_verify(&p, &err) == CUZK_OK);
    CHECK(cuzk_fc_merkle_leaf_index(&idx, &p, &err) == CUZK_OK && idx == 0);
#undef RESET
}

int main(void)
{
    test_init("test_fc_merkle");
    test_poseidon_shapes();
    test_filecoin_hashers_tree();
    test_sha256_tree();
    test_zero_comm_d_32g();
    test_malformed();
    return test_finish();
}
