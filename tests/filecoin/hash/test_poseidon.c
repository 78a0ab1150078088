/* Poseidon out of circuit against neptune's and Filecoin's published values: round numbers (neptune's
 * test table and parameters/round_numbers.txt), the 585 Grain constants for t = 9 (neptune's
 * parameters file, tests/vectors), hash_values_aux digests through the fast and textbook paths,
 * filecoin-hashers' tree and hash_md values, curio's arity-8 value; plus bad input, concurrent first
 * use, and a hashes/s figure. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "filecoin/hash/poseidon.h"
#include "test_util.h"
#include "util/timer.h"

static fr from_limbs(uint64_t l0, uint64_t l1, uint64_t l2, uint64_t l3)
{
    uint64_t l[4] = {l0, l1, l2, l3};
    fr r;
    fr_to_mont(&r, l);
    return r;
}

/* neptune round_numbers.rs test and parameters/round_numbers.txt (t = 2..37): R_F = 8, R_P below. */
static void test_round_numbers(void)
{
    static const unsigned rp[38] = {
        [2] = 55,  [3] = 55,  [4] = 56,  [5] = 56,  [6] = 56,  [7] = 56,  [8] = 57,  [9] = 57,
        [10] = 57, [11] = 57, [12] = 57, [13] = 57, [14] = 57, [15] = 57, [16] = 59, [17] = 59,
        [18] = 59, [19] = 59, [20] = 59, [21] = 59, [22] = 59, [23] = 59, [24] = 59, [25] = 59,
        [26] = 59, [27] = 59, [28] = 59, [29] = 59, [30] = 59, [31] = 59, [32] = 60, [33] = 60,
        [34] = 60, [35] = 60, [36] = 60, [37] = 60,
    };
    for (unsigned t = 2; t <= 37; t++) {
        unsigned f, p;
        cuzk_poseidon_round_numbers(t, &f, &p);
        CHECK_MSG(f == 8 && p == rp[t], "t=%u: R_F %u R_P %u, expected 8 %u", t, f, p, rp[t]);
    }
    unsigned f, p; /* t = 65 from neptune's test table */
    cuzk_poseidon_round_numbers(65, &f, &p);
    CHECK(f == 8 && p == 61);
}

static void test_grain_t9(void)
{
    char *text = test_read_file("tests/vectors/poseidon-round-constants-t9.txt", NULL);
    CHECK_MSG(text != NULL, "cannot read tests/vectors/poseidon-round-constants-t9.txt");
    if (!text)
        return;
    fr gen[585];
    cuzk_poseidon_grain_constants(gen, 9, 8, 57);
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(8);
    CHECK(c && c->width == 9 && c->partial_rounds == 57);
    size_t n = 0, bad = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || line[0] == 0)
            continue;
        uint8_t be[32];
        fr want;
        bool ok = strncmp(line, "0x", 2) == 0 && test_hex_decode(line + 2, be, 32) == 32 &&
                  fr_from_bytes_be(&want, be) && n < 585;
        CHECK_MSG(ok, "bad vector line %zu: %s", n, line);
        if (!ok)
            break;
        if (!fr_eq(&gen[n], &want) || (c && !fr_eq(&c->round_constants[n], &want)))
            bad++;
        n++;
    }
    CHECK_MSG(n == 585, "%zu constants in the vector file", n);
    CHECK_MSG(bad == 0, "%zu of 585 round constants differ from neptune's file", bad);
    free(text);
}

/* M[i][j]·(i + t + j) = 1, M·M⁻¹ = I; the sparse factorisation reproduces M^(R_P+1) over the partial
 * rounds' linear part: pre_sparse·S_0·…·S_{R_P−1} = M^(R_P+1) (row-vector convention, M symmetric). */
static void test_matrices(unsigned arity)
{
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(arity);
    CHECK(c != NULL);
    if (!c)
        return;
    unsigned t = c->width;
    bool ok = true;
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            fr d, p, acc = FR_ZERO;
            fr_from_u64(&d, i + t + j);
            fr_mul(&p, &c->mds[i * t + j], &d);
            ok = ok && fr_eq(&p, &FR_ONE);
            for (unsigned k = 0; k < t; k++) {
                fr_mul(&p, &c->mds[i * t + k], &c->mds_inv[k * t + j]);
                fr_add(&acc, &acc, &p);
            }
            ok = ok && fr_eq(&acc, i == j ? &FR_ONE : &FR_ZERO);
        }
    CHECK_MSG(ok, "arity %u: MDS entries or inverse wrong", arity);

    /* v·pre·S_0·…  vs  v·M^(R_P+1) on a random vector (the linear layers only) */
    fr v[CUZK_POSEIDON_MAX_WIDTH], w[CUZK_POSEIDON_MAX_WIDTH], tmp[CUZK_POSEIDON_MAX_WIDTH], x;
    for (unsigned i = 0; i < t; i++)
        test_rand_fr(&v[i]), w[i] = v[i];
    for (unsigned j = 0; j < t; j++) {
        tmp[j] = FR_ZERO;
        for (unsigned i = 0; i < t; i++)
            fr_mul(&x, &c->pre_sparse[i * t + j], &v[i]), fr_add(&tmp[j], &tmp[j], &x);
    }
    memcpy(v, tmp, sizeof(fr) * t);
    for (unsigned r = 0; r < c->partial_rounds; r++) {
        const fr *wh = &c->sparse_w_hat[r * t], *vr = &c->sparse_v_rest[r * (t - 1)];
        tmp[0] = FR_ZERO;
        for (unsigned i = 0; i < t; i++)
            fr_mul(&x, &wh[i], &v[i]), fr_add(&tmp[0], &tmp[0], &x);
        for (unsigned j = 1; j < t; j++)
            fr_mul(&x, &vr[j - 1], &v[0]), fr_add(&tmp[j], &v[j], &x);
        memcpy(v, tmp, sizeof(fr) * t);
    }
    for (unsigned r = 0; r <= c->partial_rounds; r++) {
        for (unsigned j = 0; j < t; j++) {
            tmp[j] = FR_ZERO;
            for (unsigned i = 0; i < t; i++)
                fr_mul(&x, &c->mds[i * t + j], &w[i]), fr_add(&tmp[j], &tmp[j], &x);
        }
        memcpy(w, tmp, sizeof(fr) * t);
    }
    ok = true;
    for (unsigned i = 0; i < t; i++)
        ok = ok && fr_eq(&v[i], &w[i]);
    CHECK_MSG(ok, "arity %u: pre-sparse and sparse matrices do not compose to M^(R_P+1)", arity);
}

/* neptune poseidon.rs hash_values_aux (Standard): MerkleTree hash of [0, 1, ..., arity−1], and the
 * ConstantLength(4) hash of [0, 1, 2, 3] (tag 4·2^64, zero padded) for arities >= 4. */
static void test_neptune_vectors(void)
{
    static const struct {
        unsigned arity;
        uint64_t merkle[4], constant4[4];
    } v[] = {
        {2, {0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b}, {0}},
        {4,
         {0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a},
         {0x8935b00a07909d45, 0x4984de08542c9977, 0x39443980077d7593, 0x3a21a6ae86754a29}},
        {8,
         {0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55},
         {0x370a94532f818897, 0x203e3c7c4a85c1f9, 0xcad8b9f8aeb1578f, 0x5c6de4b69de9d792}},
        {11,
         {0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28},
         {0xe9b0cb7d6496f73b, 0x7d2807d793af9582, 0xef841b6bf51a5a39, 0x02550c3a2113c7ca}},
        {16,
         {0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a},
         {0x6a1e563d359c1bdd, 0x6b4493d5d40be9d3, 0x275a6eb04a0ecb37, 0x30ec6fa0fec08504}},
        {24,
         {0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15},
         {0xc540772c5968a299, 0xe2e556352af20f97, 0x15ed0a6b8faba5aa, 0x327bdee6fa2b22b6}},
        {36,
         {0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f},
         {0x7d89cddb70217dcd, 0x02ae71d3d04f0b32, 0xfe52151f29c50f99, 0x626bdae6cad79307}},
    };
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
        unsigned a = v[k].arity;
        const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(a);
        CHECK(c != NULL);
        if (!c)
            continue;
        fr in[CUZK_POSEIDON_MAX_ARITY], fast, slow, api;
        for (unsigned i = 0; i < a; i++)
            fr_from_u64(&in[i], i);
        fr want = from_limbs(v[k].merkle[0], v[k].merkle[1], v[k].merkle[2], v[k].merkle[3]);
        cuzk_poseidon_hash_with(&fast, c, &c->merkle_tag, in);
        cuzk_poseidon_hash_textbook(&slow, c, &c->merkle_tag, in);
        CHECK(cuzk_poseidon_hash(&api, a, in, NULL) == CUZK_OK);
        CHECK_MSG(fr_eq(&fast, &want), "arity %u: optimized digest differs from neptune's", a);
        CHECK_MSG(fr_eq(&slow, &want), "arity %u: textbook digest differs from neptune's", a);
        CHECK(fr_eq(&api, &want));
        if (a < 4)
            continue;
        fr tag = from_limbs(0, 4, 0, 0); /* ConstantLength(4): 4·2^64 */
        for (unsigned i = 4; i < a; i++)
            in[i] = FR_ZERO;
        want = from_limbs(v[k].constant4[0], v[k].constant4[1], v[k].constant4[2], v[k].constant4[3]);
        cuzk_poseidon_hash_with(&fast, c, &tag, in);
        cuzk_poseidon_hash_textbook(&slow, c, &tag, in);
        CHECK_MSG(fr_eq(&fast, &want) && fr_eq(&slow, &want), "arity %u: ConstantLength(4) digest differs", a);
    }
}

/* the fast schedule against the textbook permutation on random inputs and tags, every arity */
static void test_fast_vs_textbook(void)
{
    for (unsigned a = 1; a <= CUZK_POSEIDON_MAX_ARITY; a++) {
        const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(a);
        CHECK(c != NULL);
        if (!c)
            continue;
        bool ok = true;
        for (int rep = 0; rep < 3; rep++) {
            fr in[CUZK_POSEIDON_MAX_ARITY], tag, x, y;
            for (unsigned i = 0; i < a; i++)
                test_rand_fr(&in[i]);
            test_rand_fr(&tag);
            cuzk_poseidon_hash_with(&x, c, rep ? &tag : &c->merkle_tag, in);
            cuzk_poseidon_hash_textbook(&y, c, rep ? &tag : &c->merkle_tag, in);
            ok = ok && fr_eq(&x, &y);
        }
        CHECK_MSG(ok, "arity %u: optimized and textbook hashes differ", a);
    }
}

/* a batch equals one hash at a time, also when computed in place (a tree level over its leaves) */
static void test_batch(unsigned arity)
{
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(arity);
    enum { N = 5 };
    fr in[N * 11], out[N], want[N];
    for (unsigned i = 0; i < N * arity; i++)
        test_rand_fr(&in[i]);
    for (unsigned i = 0; i < N; i++)
        cuzk_poseidon_hash_textbook(&want[i], c, &c->merkle_tag, &in[i * arity]);
    cuzk_poseidon_hash_batch(out, c, &c->merkle_tag, in, N);
    CHECK_MSG(memcmp(out, want, sizeof out) == 0, "arity %u: batch differs", arity);
    cuzk_poseidon_hash_batch(in, c, &c->merkle_tag, in, N);
    CHECK_MSG(memcmp(in, want, sizeof want) == 0, "arity %u: in-place batch differs", arity);
}

static void u64s_to_bytes(uint8_t out[32], const uint64_t l[4])
{
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)(l[i / 8] >> (8 * (i % 8)));
}

/* filecoin-hashers poseidon.rs test_poseidon_hasher: binary tree over leaves [1, 0, 0, 1] */
static void test_filecoin_tree(void)
{
    static const uint64_t node10[4] = {0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26,
                                       0x042f94ffbe786bc3},
                          root[4] = {0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae,
                                     0x1effebb7b26ad9eb};
    uint8_t leaves[4][32] = {{1}, {0}, {0}, {1}}, level[2][32], top[32], want[32];
    CHECK(cuzk_poseidon_node(level[0], 2, leaves[0], NULL) == CUZK_OK);
    CHECK(cuzk_poseidon_node(level[1], 2, leaves[2], NULL) == CUZK_OK);
    u64s_to_bytes(want, node10);
    CHECK_MSG(memcmp(level[0], want, 32) == 0, "node(1, 0) differs from filecoin-hashers'");
    CHECK(cuzk_poseidon_node(top, 2, level[0], NULL) == CUZK_OK);
    u64s_to_bytes(want, root);
    CHECK_MSG(memcmp(top, want, 32) == 0, "tree root differs from filecoin-hashers'");
}

/* curio lib/proof/post_vproof_test.go TestPoseidonHashMulti: arity 8 over PoseidonDomain bytes */
static void test_curio_arity8(void)
{
    static const char *in_hex[8] = {
        "f743111428ecda9b74a18826f1cc62d48ae1510de17e58645997559f86442f31",
        "197a6efa37086e3a37108f8460c52bc810e2781aff0091bfd7b74e3f6f752f02",
        "01c2c12f7930bbb59e3b36dae1c694b33ac6b3f199ec32a8665fadb8338f4f21",
        "bbe672a853f65cdb2563339ca61d6ad648473b4b4ce44bf3a48486424b865a2d",
        "937d57295f488cea8099f5525958f1af39c6241614b917835292e8e2314cf908",
        "3272570cd8ba38c1183629ca72d5e9149d76786ed22c1d591db3d2bccfa7d308",
        "2d3fc90e11aaf601bd1beae80fc3aba15a9e1f886d8140533ce36cda3dd9f936",
        "0a017e264d0728bfcd2edb3c6c60cc5a05a02af31a71cdd7bb2da27616f5f630",
    };
    uint8_t in[8 * 32], out[32], want[32];
    for (int i = 0; i < 8; i++)
        CHECK(test_hex_decode(in_hex[i], in + 32 * i, 32) == 32);
    CHECK(test_hex_decode("0737ca506df7d4544f8512df35aaa07ed8a40691e96ae868c23320220fec6866", want, 32) == 32);
    CHECK(cuzk_poseidon_node(out, 8, in, NULL) == CUZK_OK);
    CHECK_MSG(memcmp(out, want, 32) == 0, "curio arity-8 value differs");
    /* the output may overwrite the children */
    CHECK(cuzk_poseidon_node(in, 8, in, NULL) == CUZK_OK);
    CHECK(memcmp(in, want, 32) == 0);
}

/* filecoin-hashers test_hash_md: 71 ones through arity-36 hashes */
static void test_hash_md(void)
{
    fr in[71], out, want = from_limbs(0x351c54133b332c90, 0xc26f6d625f4e8195, 0x5fd9623643ed9622, 0x59f42220e09ff6f7);
    for (int i = 0; i < 71; i++)
        in[i] = FR_ONE;
    CHECK(cuzk_poseidon_hash_md(&out, in, 71, NULL) == CUZK_OK);
    CHECK_MSG(fr_eq(&out, &want), "hash_md of 71 ones differs from filecoin-hashers'");
    /* a short last chunk is zero padded: 1 + 35 + 2 elements */
    fr chunk[36], acc, x;
    CHECK(cuzk_poseidon_hash_md(&out, in, 38, NULL) == CUZK_OK);
    memcpy(chunk, in, sizeof(fr) * 36);
    cuzk_poseidon_hash_textbook(&acc, cuzk_poseidon_constants(36), &cuzk_poseidon_constants(36)->merkle_tag, chunk);
    chunk[0] = acc, chunk[1] = in[36], chunk[2] = in[37];
    for (int i = 3; i < 36; i++)
        chunk[i] = FR_ZERO;
    cuzk_poseidon_hash_textbook(&x, cuzk_poseidon_constants(36), &cuzk_poseidon_constants(36)->merkle_tag, chunk);
    CHECK(fr_eq(&out, &x));
    cuzk_err_t err = {{0}};
    CHECK(cuzk_poseidon_hash_md(&out, in, 1, &err) == CUZK_ERR_INVALID_ARG && err.msg[0]);
}

static void test_tags_and_errors(void)
{
    fr tag, want;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_poseidon_tag_custom(&tag, 1, &err) == CUZK_OK);
    want = from_limbs(1ull << 40, 0, 0, 0);
    CHECK(fr_eq(&tag, &want));
    CHECK(cuzk_poseidon_tag_custom(&tag, 256, NULL) == CUZK_OK);
    want = from_limbs(1ull << 48, 0, 0, 0);
    CHECK(fr_eq(&tag, &want));
    CHECK(cuzk_poseidon_tag_custom(&tag, 0, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "custom"));
    CHECK(cuzk_poseidon_tag_custom(&tag, 257, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_poseidon_tag_merkle(&tag, 11);
    want = from_limbs(0x7ff, 0, 0, 0);
    CHECK(fr_eq(&tag, &want));

    const cuzk_poseidon_constants_t *c = (const void *)1;
    CHECK(cuzk_poseidon_constants_get(&c, 0, &err) == CUZK_ERR_INVALID_ARG && c == NULL && strstr(err.msg, "arity"));
    CHECK(cuzk_poseidon_constants_get(&c, 37, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_poseidon_constants(37) == NULL);
    fr x, in[2] = {FR_ZERO, FR_ZERO};
    CHECK(cuzk_poseidon_hash(&x, 0, in, &err) == CUZK_ERR_INVALID_ARG);

    /* a non-canonical child: r itself, in the second slot; the output is left alone */
    uint8_t kids[2][32] = {{0}}, out[32], before[32];
    for (int i = 0; i < 4; i++)
        for (int b = 0; b < 8; b++)
            kids[1][8 * i + b] = (uint8_t)(FR_MODULUS[i] >> (8 * b));
    memset(out, 0xa5, 32), memcpy(before, out, 32);
    CHECK(cuzk_poseidon_node(out, 2, kids[0], &err) == CUZK_ERR_NOT_CANONICAL && strstr(err.msg, "child 1"));
    CHECK(memcmp(out, before, 32) == 0);
    kids[1][0] -= 1; /* r − 1 is fine */
    CHECK(cuzk_poseidon_node(out, 2, kids[0], NULL) == CUZK_OK);
    CHECK(cuzk_poseidon_node(out, 40, kids[0], &err) == CUZK_ERR_INVALID_ARG);

    /* SnapDeals' Custom(1) tag through the tagged node = the fast hash with that tag */
    fr ins[2];
    CHECK(fr_from_bytes_le(&ins[0], kids[0]) && fr_from_bytes_le(&ins[1], kids[1]));
    CHECK(cuzk_poseidon_tag_custom(&tag, 1, NULL) == CUZK_OK);
    CHECK(cuzk_poseidon_node_tagged(out, 2, &tag, kids[0], NULL) == CUZK_OK);
    cuzk_poseidon_hash_textbook(&x, cuzk_poseidon_constants(2), &tag, ins);
    uint8_t xb[32];
    fr_to_bytes_le(xb, &x);
    CHECK(memcmp(out, xb, 32) == 0);
}

/* first use of an arity from several threads at once: one set of constants, correct results */
#define N_THREADS 8
static const cuzk_poseidon_constants_t *seen[N_THREADS];
static void *first_use(void *arg)
{
    seen[(size_t)arg] = cuzk_poseidon_constants(13);
    return NULL;
}
static void test_concurrent_first_use(void)
{
    pthread_t th[N_THREADS];
    for (size_t i = 0; i < N_THREADS; i++)
        CHECK(pthread_create(&th[i], NULL, first_use, (void *)i) == 0);
    for (size_t i = 0; i < N_THREADS; i++)
        pthread_join(th[i], NULL);
    bool same = seen[0] != NULL;
    for (size_t i = 1; i < N_THREADS; i++)
        same = same && seen[i] == seen[0];
    CHECK_MSG(same, "concurrent first use gave different constants");
}

/* hashes per second of the fast path (printed; a figure, not a check) */
static void bench(unsigned arity)
{
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(arity);
    fr in[CUZK_POSEIDON_MAX_ARITY];
    for (unsigned i = 0; i < arity; i++)
        test_rand_fr(&in[i]);
    uint64_t n = 0, t0 = cuzk_now_ns(), t1;
    do {
        for (int k = 0; k < 256; k++, n++)
            cuzk_poseidon_hash_with(&in[n % arity], c, &c->merkle_tag, in);
        t1 = cuzk_now_ns();
    } while (t1 - t0 < 100000000ull);
    printf("poseidon arity %2u: %.0f hashes/s (one thread, %llu hashes)\n", arity, n * 1e9 / (double)(t1 - t0),
           (unsigned long long)n);
}

int main(void)
{
    test_init("test_poseidon");
    test_round_numbers();
    test_concurrent_first_use();
    test_grain_t9();
    test_neptune_vectors();
    unsigned mat_arities[] = {1, 2, 4, 8, 11, 16, 36};
    for (size_t i = 0; i < sizeof mat_arities / sizeof mat_arities[0]; i++)
        test_matrices(mat_arities[i]);
    test_fast_vs_textbook();
    test_batch(2), test_batch(8), test_batch(11);
    test_filecoin_tree();
    test_curio_arity8();
    test_hash_md();
    test_tags_and_errors();
    bench(2), bench(8), bench(11);
    return test_finish();
}
