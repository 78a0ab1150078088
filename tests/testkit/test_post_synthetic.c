/* Synthetic Fallback PoSt vanilla proofs: for 2KiB (Winning and Window) and the 32GiB (8-8-0) and 64GiB
 * (8-8-2) shapes they decode and pass cuzk_fc_post_vproof_verify with each sector's index; the challenged
 * leaves are those SHA-256 (libcrypto) selects; a 2KiB one's comm_r_last is the root of the whole tree
 * hashed node by node over the same leaves; the same arguments give the same bytes and another seed other
 * ones; a changed sibling fails the verifier; bad arguments are refused with nothing made. With --slow,
 * a whole 32GiB Window PoSt partition (2349 sectors) is made, verified and timed. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "filecoin/fc_post_test.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/vanilla/post_vproof.h"
#include "testkit/post_synthetic.h"
#include "test_util.h"

#define GIB (1ull << 30)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static cuzk_fc_post_params_t params(uint64_t size, unsigned sub, unsigned top, uint32_t challenges, cuzk_fc_api_t api,
                                    uint64_t sector_index)
{
    cuzk_fc_post_params_t pp = {.sector_size = size, .base_arity = 8, .sub_arity = sub, .top_arity = top,
                                .challenge_count = challenges, .api = api, .sector_index = sector_index};
    test_rand_fr_bytes(pp.randomness);
    return pp;
}

/* Each proof decodes, verifies at its sector index and opens the oracle's leaves; returns how many do. */
static size_t check_all(const cuzk_fc_post_synthetic_t *out, const cuzk_fc_post_params_t *pp, const uint64_t *ids,
                        size_t n)
{
    size_t good = 0;
    for (size_t i = 0; i < n; i++) {
        cuzk_fc_post_vproof_t v;
        cuzk_err_t err = {{0}};
        cuzk_fc_post_params_t q = *pp;
        q.sector_index = pp->sector_index + i;
        cuzk_status st = cuzk_fc_post_vproof_decode(&v, out[i].data, out[i].len, NULL, &err);
        if (st == CUZK_OK)
            st = cuzk_fc_post_vproof_verify(&v, &q, &err);
        int ok = st == CUZK_OK && v.sector_id == ids[i];
        for (uint32_t c = 0; ok && c < q.challenge_count; c++)
            ok &= fc_test_path_leaf(&v.sectors[0].paths[c]) == fc_test_post_leaf(q.randomness, ids[i], q.sector_index,
                                                                                  q.challenge_count, c,
                                                                                  q.api == CUZK_FC_API_V1_2,
                                                                                  q.sector_size / 32);
        if (!ok)
            fprintf(stderr, "sector %llu: %s\n", (unsigned long long)ids[i], err.msg);
        good += ok;
        if (st == CUZK_OK || v.storage)
            cuzk_fc_post_vproof_free(&v);
    }
    return good;
}

static void test_shapes(void)
{
    uint8_t seed[32];
    test_rand_bytes(seed, 32);
    static const struct {
        uint64_t size;
        unsigned sub, top;
        uint32_t challenges;
        cuzk_fc_api_t api;
        size_t n;
    } cases[] = {{2048, 0, 0, 66, CUZK_FC_API_V1_0, 1}, {2048, 0, 0, 10, CUZK_FC_API_V1_2, 4},
                 {2048, 0, 0, 10, CUZK_FC_API_V1_0, 4}, {32 * GIB, 8, 0, 10, CUZK_FC_API_V1_2, 8},
                 {32 * GIB, 8, 0, 66, CUZK_FC_API_V1_0, 1}, {64 * GIB, 8, 2, 10, CUZK_FC_API_V1_0, 3}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cuzk_fc_post_params_t pp =
            params(cases[k].size, cases[k].sub, cases[k].top, cases[k].challenges, cases[k].api, test_rand_below(5));
        uint64_t ids[8];
        for (size_t i = 0; i < cases[k].n; i++)
            ids[i] = test_rand64() >> 8;
        cuzk_fc_post_synthetic_t out[8];
        cuzk_err_t err = {{0}};
        cuzk_status st = cuzk_fc_post_synthetic(out, &pp, ids, cases[k].n, seed, 2, &err);
        CHECK_MSG(st == CUZK_OK, "%llu bytes, 8-%u-%u: %s", (unsigned long long)cases[k].size, cases[k].sub,
                  cases[k].top, err.msg);
        if (st != CUZK_OK)
            continue;
        CHECK_MSG(check_all(out, &pp, ids, cases[k].n) == cases[k].n, "case %zu: a synthetic proof does not verify",
                  k);
        cuzk_fc_post_synthetic_free(out, cases[k].n);
    }
}

/* 2KiB: the whole tree over the default leaf and the challenged leaves' values, hashed node by node. */
static void test_whole_tree(void)
{
    uint8_t seed[32];
    test_rand_bytes(seed, 32);
    cuzk_fc_post_params_t pp = params(2048, 0, 0, 66, CUZK_FC_API_V1_0, 0);
    uint64_t id = 1234;
    cuzk_fc_post_synthetic_t out;
    cuzk_fc_post_vproof_t v;
    cuzk_err_t err;
    CHECK(cuzk_fc_post_synthetic(&out, &pp, &id, 1, seed, 1, &err) == CUZK_OK);
    CHECK(cuzk_fc_post_vproof_decode(&v, out.data, out.len, NULL, &err) == CUZK_OK);
    /* the challenged leaves, then the default leaf (one no challenge opened, read off a sibling of level
     * 0) everywhere else */
    uint8_t leaves[64 * 32], seen[64] = {0}, d[32] = {0};
    const cuzk_fc_post_sector_proof_t *sp = &v.sectors[0];
    for (size_t n = 0; n < sp->n_paths; n++) {
        uint64_t idx = fc_test_path_leaf(&sp->paths[n]);
        memcpy(leaves + idx * 32, sp->paths[n].leaf, 32);
        seen[idx] = 1;
    }
    int dflt = -1;
    for (size_t n = 0; n < sp->n_paths && dflt < 0; n++) {
        uint64_t idx = fc_test_path_leaf(&sp->paths[n]), g = idx / 8 * 8;
        for (unsigned j = 0, s = 0; j < 8 && dflt < 0; j++) {
            if (g + j == idx)
                continue;
            if (!seen[g + j]) {
                memcpy(d, sp->paths[n].siblings + s * 32, 32);
                dflt = 1;
            }
            s++;
        }
    }
    CHECK(dflt == 1);
    for (int i = 0; i < 64; i++)
        if (!seen[i])
            memcpy(leaves + i * 32, d, 32);
    uint8_t l1[8 * 32], root[32];
    for (int g = 0; g < 8; g++)
        CHECK(cuzk_poseidon_node(l1 + g * 32, 8, leaves + g * 8 * 32, NULL) == CUZK_OK);
    CHECK(cuzk_poseidon_node(root, 8, l1, NULL) == CUZK_OK);
    CHECK_MSG(memcmp(root, sp->comm_r_last, 32) == 0, "comm_r_last is not the whole tree's root");
    /* the same arguments, the same bytes; another seed, other bytes */
    cuzk_fc_post_synthetic_t again, other;
    CHECK(cuzk_fc_post_synthetic(&again, &pp, &id, 1, seed, 2, &err) == CUZK_OK && again.len == out.len &&
          memcmp(again.data, out.data, out.len) == 0);
    seed[0] ^= 1;
    CHECK(cuzk_fc_post_synthetic(&other, &pp, &id, 1, seed, 1, &err) == CUZK_OK &&
          (other.len != out.len || memcmp(other.data, out.data, out.len) != 0));
    /* a sibling changed: the verifier refuses the proof */
    cuzk_fc_post_vproof_t w;
    out.data[out.len / 2] ^= 1;
    CHECK(cuzk_fc_post_vproof_decode(&w, out.data, out.len, NULL, &err) != CUZK_OK ||
          cuzk_fc_post_vproof_verify(&w, &pp, &err) != CUZK_OK);
    cuzk_fc_post_vproof_free(&w);
    cuzk_fc_post_vproof_free(&v);
    cuzk_fc_post_synthetic_free(&out, 1);
    cuzk_fc_post_synthetic_free(&again, 1);
    cuzk_fc_post_synthetic_free(&other, 1);
}

static void test_refusals(void)
{
    uint8_t seed[32] = {1};
    uint64_t ids[2] = {1, 2};
    cuzk_fc_post_synthetic_t out[2];
    cuzk_err_t err;
    cuzk_fc_post_params_t pp = params(2048, 0, 0, 10, CUZK_FC_API_V1_2, 0);
    memset(pp.randomness, 0xff, 32);
    CHECK(cuzk_fc_post_synthetic(out, &pp, ids, 2, seed, 1, &err) == CUZK_ERR_NOT_CANONICAL && !out[0].data);
    pp = params(2048, 8, 2, 10, CUZK_FC_API_V1_2, 0); /* 64 leaves do not fill an 8-8-2 tree */
    CHECK(cuzk_fc_post_synthetic(out, &pp, ids, 2, seed, 1, &err) == CUZK_ERR_INVALID_ARG && !out[0].data &&
          !out[1].data);
    pp = params(2048, 0, 0, 0, CUZK_FC_API_V1_2, 0);
    CHECK(cuzk_fc_post_synthetic(out, &pp, ids, 2, seed, 1, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_post_synthetic(out, NULL, ids, 2, seed, 1, &err) == CUZK_ERR_INVALID_ARG);
}

/* A whole 32GiB Window PoSt partition: 2349 sectors. */
static void test_partition(int threads)
{
    uint8_t seed[32];
    test_rand_bytes(seed, 32);
    enum { N = 2349 };
    cuzk_fc_post_params_t pp = params(32 * GIB, 8, 0, 10, CUZK_FC_API_V1_2, 0);
    uint64_t *ids = malloc(N * sizeof *ids);
    cuzk_fc_post_synthetic_t *out = malloc(N * sizeof *out);
    for (size_t i = 0; i < N; i++)
        ids[i] = 1000 + i;
    cuzk_err_t err;
    double t0 = now();
    CHECK(cuzk_fc_post_synthetic(out, &pp, ids, N, seed, threads, &err) == CUZK_OK);
    double t1 = now();
    CHECK(check_all(out, &pp, ids, N) == N);
    double t2 = now();
    printf("32GiB Window PoSt partition, %d sectors, %d threads: made in %.2f s, verified in %.2f s, %zu bytes each\n",
           N, threads, t1 - t0, t2 - t1, out[0].len);
    cuzk_fc_post_synthetic_free(out, N);
    free(out);
    free(ids);
}

int main(int argc, char **argv)
{
    test_init("test_post_synthetic");
    test_shapes();
    test_whole_tree();
    test_refusals();
    if (argc > 1 && strcmp(argv[1], "--slow") == 0)
        test_partition(0);
    return test_finish();
}
