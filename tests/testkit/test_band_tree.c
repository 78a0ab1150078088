/* Banded sparse Merkle trees against whole trees: for Filecoin's shapes (binary SHA-256, Poseidon 8-0-0,
 * 8-2-0, 8-4-0, 8-8-0, 8-8-2) with every band count from 1 to one band per leaf and no, some, repeated or
 * all leaves touched, the root, every node and every leaf's path (its siblings, its checks) equal those of
 * the tree hashed in full, group by group, over the same leaves (a sample of the paths hashed again); bad
 * input is refused with the right status. (The sparse tree is this tree of one band: test_sparse_tree checks
 * it against whole trees and closed forms.) */
#include <stdlib.h>
#include <string.h>

#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "filecoin/vanilla/merkle.h"
#include "testkit/band_tree.h"
#include "test_util.h"

typedef struct {
    cuzk_fc_merkle_hash_t hash;
    unsigned base, sub, top;
    uint64_t leaves;
} shape_t;

/* The whole tree's levels, hashed group by group. */
static uint8_t **full_tree(const shape_t *s, const uint8_t *leaves, uint8_t *arity, uint32_t *levels)
{
    uint64_t n = s->leaves / (s->sub ? s->sub : 1) / (s->top ? s->top : 1);
    uint32_t l = 0;
    for (; n > 1; n /= s->base)
        arity[l++] = (uint8_t)s->base;
    if (s->sub)
        arity[l++] = (uint8_t)s->sub;
    if (s->top)
        arity[l++] = (uint8_t)s->top;
    *levels = l;
    uint8_t **lv = calloc(l + 1, sizeof *lv);
    n = s->leaves;
    lv[0] = malloc(n * 32);
    memcpy(lv[0], leaves, n * 32);
    for (uint32_t i = 0; i < l; i++) {
        n /= arity[i];
        lv[i + 1] = malloc(n * 32);
        for (uint64_t g = 0; g < n; g++) {
            const uint8_t *ch = lv[i] + g * arity[i] * 32;
            if (s->hash == CUZK_FC_MERKLE_SHA256)
                cuzk_fc_sha256_node(lv[i + 1] + g * 32, ch, ch + 32);
            else
                CHECK(cuzk_poseidon_node(lv[i + 1] + g * 32, arity[i], ch, NULL) == CUZK_OK);
        }
    }
    return lv;
}

/* mode 0: nothing touched, 1: a few leaves (some repeated), 2: every leaf. */
static int one(const shape_t *s, uint64_t bands, int mode)
{
    uint64_t n = s->leaves, per = n / bands;
    uint8_t(*band)[32] = malloc(bands * 32), *leaves = malloc(n * 32);
    for (uint64_t b = 0; b < bands; b++)
        test_rand_fr_bytes(band[b]);
    for (uint64_t i = 0; i < n; i++)
        memcpy(leaves + i * 32, band[i / per], 32);
    size_t cnt = mode == 0 ? 0 : mode == 1 ? 1 + test_rand_below(n / 4 + 1) : n, m = 0;
    uint64_t *idx = malloc((2 * cnt + 1) * sizeof *idx);
    uint8_t(*val)[32] = malloc((2 * cnt + 1) * 32);
    for (size_t j = 0; j < cnt; j++) {
        idx[m] = mode == 2 ? j : test_rand_below(n);
        test_rand_fr_bytes(val[m]);
        memcpy(leaves + idx[m] * 32, val[m], 32);
        m++;
        if (j % 3 == 0) {
            idx[m] = idx[m - 1];
            m++;
        }
    }
    for (size_t j = 0; j < m; j++) /* a leaf drawn twice: its last value everywhere */
        memcpy(val[j], leaves + idx[j] * 32, 32);
    uint8_t arity[64];
    uint32_t levels;
    uint8_t **lv = full_tree(s, leaves, arity, &levels);
    cuzk_fc_band_tree_t t;
    cuzk_err_t err = {{0}};
    int ok = cuzk_fc_band_tree_build(&t, s->hash, s->base, s->sub, s->top, n, bands, (const uint8_t(*)[32])band, idx,
                                     (const uint8_t(*)[32])val, m, 1 + (int)test_rand_below(3), &err) == CUZK_OK;
    if (!ok)
        fprintf(stderr, "build: %s\n", err.msg);
    ok = ok && t.levels == levels && memcmp(t.root, lv[levels], 32) == 0;
    uint64_t w = n;
    for (uint32_t l = 0; ok && l <= levels; l++) {
        for (uint64_t i = 0; i < w; i++) {
            uint8_t nd[32];
            cuzk_fc_band_tree_node(nd, &t, l, i);
            ok &= memcmp(nd, lv[l] + i * 32, 32) == 0;
        }
        if (l < levels)
            w /= arity[l];
    }
    uint8_t *sib = ok ? malloc(cuzk_fc_band_tree_sibling_count(&t) * 32 + 1) : NULL;
    for (uint64_t leaf = 0; ok && leaf < n; leaf++) {
        cuzk_fc_merkle_path_t p;
        uint64_t got = ~0ull;
        ok &= cuzk_fc_band_tree_open(&t, leaf, &p, sib, NULL) == CUZK_OK &&
              cuzk_fc_merkle_path_check_shape(&p, s->base, s->sub, s->top, n, NULL) == CUZK_OK &&
              cuzk_fc_merkle_leaf_index(&got, &p, NULL) == CUZK_OK && got == leaf &&
              memcmp(p.leaf, leaves + leaf * 32, 32) == 0;
        /* hashed again for a sample (the siblings below are all compared with the whole tree's) */
        if (n <= 64 || test_rand_below(n) < 32)
            ok &= cuzk_fc_merkle_verify(&p, NULL) == CUZK_OK;
        const uint8_t *q = sib;
        uint64_t x = leaf;
        for (uint32_t l = 0; ok && l < levels; l++) {
            uint64_t g = x / arity[l] * arity[l];
            for (unsigned j = 0; j < arity[l]; j++)
                if (g + j != x) {
                    ok &= memcmp(q, lv[l] + (g + j) * 32, 32) == 0;
                    q += 32;
                }
            x /= arity[l];
        }
    }
    cuzk_fc_band_tree_free(&t);
    for (uint32_t l = 0; l <= levels; l++)
        free(lv[l]);
    free(lv);
    free(sib);
    free(band);
    free(leaves);
    free(idx);
    free(val);
    return ok;
}

static void test_refusals(void)
{
    uint8_t band[4][32], bad[32];
    for (int i = 0; i < 4; i++)
        test_rand_fr_bytes(band[i]);
    memset(bad, 0xff, 32);
    uint64_t idx[2] = {3, 3};
    uint8_t val[2][32];
    test_rand_fr_bytes(val[0]);
    test_rand_fr_bytes(val[1]);
    cuzk_fc_band_tree_t t;
    CHECK(cuzk_fc_band_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 64, 3, (const uint8_t(*)[32])band, NULL, NULL,
                                  0, 1, NULL) == CUZK_ERR_INVALID_ARG); /* 3 bands */
    CHECK(cuzk_fc_band_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 64, 128, (const uint8_t(*)[32])band, NULL,
                                  NULL, 0, 1, NULL) == CUZK_ERR_INVALID_ARG); /* more bands than leaves */
    CHECK(cuzk_fc_band_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 100, 1, (const uint8_t(*)[32])band, NULL,
                                  NULL, 0, 1, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_band_tree_build(&t, CUZK_FC_MERKLE_SHA256, 8, 0, 0, 64, 1, (const uint8_t(*)[32])band, NULL, NULL, 0,
                                  1, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_band_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 64, 1, (const uint8_t(*)[32])bad, NULL, NULL, 0,
                                  1, NULL) == CUZK_ERR_NOT_CANONICAL);
    CHECK(cuzk_fc_band_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 64, 2, (const uint8_t(*)[32])band, idx,
                                  (const uint8_t(*)[32])val, 2, 1, NULL) == CUZK_ERR_MISMATCH);
    idx[1] = 64;
    CHECK(cuzk_fc_band_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 64, 2, (const uint8_t(*)[32])band, idx,
                                  (const uint8_t(*)[32])val, 2, 1, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(t.levels == 0 && t.nodes[0] == NULL && t.band_dflt[0] == NULL);
    CHECK(cuzk_fc_band_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 64, 2, (const uint8_t(*)[32])band, NULL, NULL,
                                  0, 1, NULL) == CUZK_OK);
    cuzk_fc_merkle_path_t p;
    uint8_t sib[32 * 14];
    CHECK(cuzk_fc_band_tree_open(&t, 64, &p, sib, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_fc_band_tree_free(&t);
    cuzk_fc_band_tree_free(NULL);
}

int main(void)
{
    test_init("test_band_tree");
    static const shape_t shapes[] = {
        {CUZK_FC_MERKLE_SHA256, 2, 0, 0, 64},     {CUZK_FC_MERKLE_SHA256, 2, 0, 0, 1024},
        {CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 64},   {CUZK_FC_MERKLE_POSEIDON, 8, 0, 0, 512},
        {CUZK_FC_MERKLE_POSEIDON, 8, 2, 0, 128},  {CUZK_FC_MERKLE_POSEIDON, 8, 4, 0, 256},
        {CUZK_FC_MERKLE_POSEIDON, 8, 8, 0, 512},  {CUZK_FC_MERKLE_POSEIDON, 8, 8, 2, 1024},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (uint64_t bands = 1; bands <= shapes[s].leaves; bands *= 2)
            for (int mode = 0; mode < 3; mode++) {
                if (mode == 2 && bands > 4)
                    continue; /* every leaf touched: the bands do not matter */
                CHECK_MSG(one(&shapes[s], bands, mode), "%s %u-%u-%u over %llu leaves, %llu bands, mode %d",
                          shapes[s].hash == CUZK_FC_MERKLE_SHA256 ? "sha256" : "poseidon", shapes[s].base,
                          shapes[s].sub, shapes[s].top, (unsigned long long)shapes[s].leaves,
                          (unsigned long long)bands, mode);
            }
    test_refusals();
    return test_finish();
}
