/* Sparse Merkle trees against whole trees: for every Filecoin shape (and a few more) with no, some, repeated
 * and all leaves touched, the root, every node and every leaf's path equal those of the tree hashed in full,
 * group by group, with the library's node hashes; paths pass merkle.h's checks. Huge all-default trees meet
 * the closed forms of sha256_tree.h (zero comm_d of 32GiB and 64GiB, comm_d of equal leaves); bad input is
 * refused with the right status. */
#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "filecoin/vanilla/merkle.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "testkit/sparse_tree.h"
#include "test_util.h"

/* Every level of the whole tree, leaves first, each level's groups hashed one by one. */
typedef struct {
    uint32_t levels;
    uint8_t arity[CUZK_FC_MERKLE_MAX_LEVELS];
    uint8_t *lv[CUZK_FC_MERKLE_MAX_LEVELS + 1];
} full_t;

static void full_build(full_t *f, cuzk_fc_merkle_hash_t h, const uint8_t *arity, uint32_t levels, const uint8_t *leaves,
                       uint64_t n)
{
    f->levels = levels;
    memcpy(f->arity, arity, levels);
    f->lv[0] = malloc(n * 32);
    memcpy(f->lv[0], leaves, n * 32);
    for (uint32_t i = 0; i < levels; i++) {
        unsigned a = arity[i];
        n /= a;
        f->lv[i + 1] = malloc(n * 32);
        for (uint64_t g = 0; g < n; g++) {
            const uint8_t *ch = f->lv[i] + g * a * 32;
            if (h == CUZK_FC_MERKLE_SHA256)
                cuzk_fc_sha256_node(f->lv[i + 1] + g * 32, ch, ch + 32);
            else
                CHECK(cuzk_poseidon_node(f->lv[i + 1] + g * 32, a, ch, NULL) == CUZK_OK);
        }
    }
}

static void full_free(full_t *f)
{
    for (uint32_t i = 0; i <= f->levels; i++)
        free(f->lv[i]);
}

typedef struct {
    cuzk_fc_merkle_hash_t hash;
    unsigned base, sub, top;
    uint64_t leaves;
    uint32_t levels;
} shape_t;

/* mode 0: nothing touched, 1: a few leaves (some repeated), 2: every leaf. */
static void one_shape(const shape_t *s, int mode)
{
    uint64_t n = s->leaves;
    uint8_t dflt[32];
    test_rand_fr_bytes(dflt);
    uint8_t *leaves = malloc(n * 32);
    for (uint64_t i = 0; i < n; i++)
        memcpy(leaves + i * 32, dflt, 32);
    size_t cnt = mode == 0 ? 0 : mode == 1 ? 1 + test_rand_below(n / 4 + 1) : n;
    uint64_t *idx = malloc((2 * cnt + 1) * sizeof *idx);
    uint8_t(*val)[32] = malloc((2 * cnt + 1) * 32);
    size_t m = 0;
    for (size_t j = 0; j < cnt; j++) {
        idx[m] = mode == 2 ? j : test_rand_below(n);
        test_rand_fr_bytes(val[m]);
        memcpy(leaves + idx[m] * 32, val[m], 32);
        m++;
        if (j % 3 == 0) { /* the same leaf again with the same value */
            idx[m] = idx[m - 1];
            memcpy(val[m], val[m - 1], 32);
            m++;
        }
    }
    /* An index drawn twice: every mention gets the value written last (two values are an error). */
    for (size_t j = 0; j < m; j++)
        memcpy(val[j], leaves + idx[j] * 32, 32);

    uint8_t arity[CUZK_FC_MERKLE_MAX_LEVELS];
    uint32_t nb = s->levels - (s->sub != 0) - (s->top != 0);
    for (uint32_t i = 0; i < s->levels; i++)
        arity[i] = (uint8_t)(i < nb ? s->base : i == nb && s->sub ? s->sub : s->top);
    full_t f;
    full_build(&f, s->hash, arity, s->levels, leaves, n);

    cuzk_fc_sparse_tree_t t;
    cuzk_err_t err = {{0}};
    cuzk_status st =
        cuzk_fc_sparse_tree_build(&t, s->hash, s->base, s->sub, s->top, n, dflt, idx, (const uint8_t(*)[32])val, m,
                                  1 + (int)test_rand_below(3), &err);
    CHECK_MSG(st == CUZK_OK, "%u-%u-%u over %llu leaves: %s", s->base, s->sub, s->top, (unsigned long long)n, err.msg);
    if (st == CUZK_OK) {
        CHECK(t.levels == s->levels && t.n_sub == (s->sub != 0) && t.n_top == (s->top != 0));
        CHECK_MSG(memcmp(t.root, f.lv[s->levels], 32) == 0, "%u-%u-%u mode %d: root differs from the whole tree's",
                  s->base, s->sub, s->top, mode);
        uint64_t w = n;
        for (uint32_t l = 0; l <= s->levels; l++) {
            for (uint64_t i = 0; i < w; i++) {
                uint8_t nd[32];
                cuzk_fc_sparse_tree_node(nd, &t, l, i);
                CHECK_MSG(memcmp(nd, f.lv[l] + i * 32, 32) == 0, "level %u node %llu", l, (unsigned long long)i);
            }
            if (l < s->levels)
                w /= arity[l];
        }
        uint8_t *sib = malloc(cuzk_fc_sparse_tree_sibling_count(&t) * 32 + 1);
        for (uint64_t leaf = 0; leaf < n; leaf++) {
            cuzk_fc_merkle_path_t p;
            CHECK(cuzk_fc_sparse_tree_open(&t, leaf, &p, sib, NULL) == CUZK_OK);
            uint64_t got = ~0ull;
            CHECK(cuzk_fc_merkle_path_check_shape(&p, s->base, s->sub, s->top, n, NULL) == CUZK_OK);
            CHECK(cuzk_fc_merkle_leaf_index(&got, &p, NULL) == CUZK_OK && got == leaf);
            CHECK_MSG(cuzk_fc_merkle_verify(&p, &err) == CUZK_OK, "leaf %llu: %s", (unsigned long long)leaf, err.msg);
            CHECK(memcmp(p.leaf, leaves + leaf * 32, 32) == 0 && memcmp(p.root, t.root, 32) == 0);
            /* The siblings are the whole tree's nodes of the path's groups. */
            const uint8_t *q = sib;
            uint64_t x = leaf;
            for (uint32_t l = 0; l < s->levels; l++) {
                uint64_t g = x / arity[l] * arity[l];
                for (unsigned j = 0; j < arity[l]; j++)
                    if (g + j != x) {
                        CHECK(memcmp(q, f.lv[l] + (g + j) * 32, 32) == 0);
                        q += 32;
                    }
                x /= arity[l];
            }
        }
        free(sib);
    }
    cuzk_fc_sparse_tree_free(&t);
    full_free(&f);
    free(leaves);
    free(idx);
    free(val);
}

static void test_shapes(void)
{
    static const shape_t shapes[] = {
        {CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 64, 2},    {CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 512, 3},
        {CUZK_FC_MERKLE_POSEIDON, 8, 8, 0, 512, 3},   {CUZK_FC_MERKLE_POSEIDON, 8, 8, 2, 1024, 4},
        {CUZK_FC_MERKLE_POSEIDON, 8, 8, 2, 128, 3},   {CUZK_FC_MERKLE_POSEIDON, 4, 0, 0, 256, 4},
        {CUZK_FC_MERKLE_POSEIDON, 16, 2, 4, 128, 3},  {CUZK_FC_MERKLE_POSEIDON, 2, 0, 0, 1, 0},
        {CUZK_FC_MERKLE_POSEIDON, 8, 0, 2, 16, 2},    {CUZK_FC_MERKLE_SHA256, 2, 0, 0, 256, 8},
        {CUZK_FC_MERKLE_SHA256, 2, 0, 0, 2, 1},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (int mode = 0; mode < 3; mode++)
            one_shape(&shapes[i], mode);
}

/* Tree D of a whole sector with no leaf touched: sha256_tree.h's closed form for zero leaves, and its
 * full-tree code for equal non-zero leaves. */
static void test_huge_and_equal(void)
{
    static const uint8_t zero[32];
    for (int lg = 30; lg <= 31; lg++) {
        cuzk_fc_sparse_tree_t t;
        uint8_t want[32];
        CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_SHA256, 2, 0, 0, 1ull << lg, zero, NULL, NULL, 0, 1,
                                        NULL) == CUZK_OK);
        CHECK(cuzk_fc_zero_comm_d(want, 32ull << lg, NULL) == CUZK_OK);
        CHECK_MSG(memcmp(t.root, want, 32) == 0, "2^%d zero leaves", lg);
        CHECK(t.levels == (uint32_t)lg);
        cuzk_fc_sparse_tree_free(&t);
    }
    uint8_t v[32], *buf = malloc(1024 * 32), want[32];
    test_rand_fr_bytes(v);
    for (int i = 0; i < 1024; i++)
        memcpy(buf + i * 32, v, 32);
    CHECK(cuzk_fc_comm_d(want, buf, 1024 * 32, 1, NULL) == CUZK_OK);
    cuzk_fc_sparse_tree_t t;
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_SHA256, 2, 0, 0, 1024, v, NULL, NULL, 0, 2, NULL) == CUZK_OK);
    CHECK(memcmp(t.root, want, 32) == 0);
    cuzk_fc_sparse_tree_free(&t);
    free(buf);
}

static void test_errors(void)
{
    cuzk_fc_sparse_tree_t t;
    cuzk_err_t err;
    uint8_t d[32] = {0}, bad[32];
    memset(bad, 0xff, 32);
    uint64_t idx[3] = {5, 9, 5};
    uint8_t val[3][32] = {{1}, {2}, {3}};
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 64, d, idx, (const uint8_t(*)[32])val, 3, 1,
                                    &err) == CUZK_ERR_MISMATCH &&
          strstr(err.msg, "leaf 5"));
    CHECK(t.nodes[0] == NULL && t.levels == 0);
    memcpy(val[2], val[0], 32);
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 64, d, idx, (const uint8_t(*)[32])val, 3, 1,
                                    NULL) == CUZK_OK);
    CHECK(t.count[0] == 2 && t.count[1] == 2 && t.count[2] == 1);
    cuzk_fc_merkle_path_t p;
    uint8_t sib[14 * 32];
    CHECK(cuzk_fc_sparse_tree_open(&t, 64, &p, sib, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_fc_sparse_tree_free(&t);
    idx[1] = 64;
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 64, d, idx, (const uint8_t(*)[32])val, 3, 1,
                                    NULL) == CUZK_ERR_INVALID_ARG);
    idx[1] = 9;
    memcpy(val[1], bad, 32);
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 64, d, idx, (const uint8_t(*)[32])val, 3, 1,
                                    NULL) == CUZK_ERR_NOT_CANONICAL);
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 64, bad, NULL, NULL, 0, 1, NULL) ==
          CUZK_ERR_NOT_CANONICAL);
    /* SHA-256 nodes need not be field elements. */
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_SHA256, 2, 0, 0, 64, bad, idx, (const uint8_t(*)[32])val, 3, 1,
                                    NULL) == CUZK_OK);
    cuzk_fc_sparse_tree_free(&t);
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 100, d, NULL, NULL, 0, 1, NULL) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 8, 0, 8, d, NULL, NULL, 0, 1, NULL) ==
          CUZK_OK); /* the sub level alone */
    cuzk_fc_sparse_tree_free(&t);
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 8, 2, 8, d, NULL, NULL, 0, 1, NULL) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_SHA256, 8, 0, 0, 64, d, NULL, NULL, 0, 1, NULL) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 3, 0, 0, 9, d, NULL, NULL, 0, 1, NULL) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 0, d, NULL, NULL, 0, 1, NULL) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 2, 0, 0, 1ull << 63, d, NULL, NULL, 0, 1, NULL) ==
          CUZK_OK);
    CHECK(t.levels == 63);
    cuzk_fc_sparse_tree_free(&t);
    cuzk_fc_sparse_tree_free(NULL);
}

int main(void)
{
    test_init("test_sparse_tree");
    test_shapes();
    test_huge_and_equal();
    test_errors();
    return test_finish();
}
