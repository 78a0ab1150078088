/* The PoSt product path (cuzk/post.h) on 2KiB sectors whose vanilla proofs are made here from small real
 * trees (post_api_vanilla.h): registered proofs and parameter file names (against rust-fil-proofs'
 * parameters.json excerpt), vanilla parsing (truncated and trailing bincode refused), public inputs
 * against a SHA-256 oracle of the challenged leaves, every refusal of cuzk_post_check naming the sector and
 * the path, and Winning and Window proofs end to end with development parameters made here: prove →
 * verify true; another randomness, partition index or sector id → false; keys read from a directory, the
 * partition calls, cancellation, a key of the other circuit; and the vanilla proofs the seal path makes of
 * a sealed 2KiB sector (cuzk_seal_post_vanilla) checked, proved and verified the same way.
 * With --params DIR the development parameters `cuzk params generate` left there are used (test_post_cli
 * makes them) instead of a setup here; with --write-vanilla DIR it writes the vanilla proofs the tool's test
 * uses instead of testing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/file.h"
#include "cuzk/params.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/seal.h"
#include "filecoin/fc_post_test.h"
#include "post_api_vanilla.h"
#include "test_util.h"

#define MINER 1000

static cuzk_post_registered_proof_t WINNING, WINDOW, WINDOW_V1; /* the 2KiB proofs */
static uint8_t RAND[32];

static cuzk_post_vanilla_t *parse(const uint8_t *buf, size_t len)
{
    cuzk_post_vanilla_t *v = NULL;
    cuzk_err_t err = {{0}};
    CHECK_MSG(buf && cuzk_post_vanilla_parse(&v, buf, len, &err) == CUZK_OK, "%s", err.msg);
    return v;
}

/* A sector's vanilla proof for a PoSt of `paths` challenges at sector_index. */
static cuzk_post_vanilla_t *vanilla(const tv_tree_t *t, uint64_t id, const uint8_t rand[32], uint64_t sector_index,
                                    uint32_t paths, int v1_2)
{
    size_t len = 0;
    uint8_t *b = tv_encode_post(&len, id, t, rand, sector_index, paths, v1_2);
    cuzk_post_vanilla_t *v = parse(b, len);
    free(b);
    return v;
}

static cuzk_post_request_t request(const cuzk_post_registered_proof_t *p, const cuzk_post_vanilla_t *const *v, size_t n,
                                   uint32_t partition)
{
    cuzk_post_request_t r = {
        .proof_id = p->id, .miner_id = MINER, .partition_index = partition, .vanilla = v, .n_vanilla = n};
    memcpy(r.randomness, RAND, 32);
    return r;
}

/* ---- registered proofs, parameter names ------------------------------------------------------------- */

static void test_registry(void)
{
    cuzk_err_t err = {{0}};
    /* rust-filecoin-proofs-api registry.rs: Winning 0..4, Window V1 5..9, Window V1_2 10..14 */
    CHECK(cuzk_post_registered_proof_parse(&WINNING, "StackedDrgWinning2KiBV1", &err) == CUZK_OK && WINNING.id == 0 &&
          WINNING.kind == CUZK_POST_WINNING && WINNING.sector_count == 66 && WINNING.challenge_count == 1 &&
          WINNING.vanilla_sectors == 1 && WINNING.vanilla_challenges == 66 && WINNING.api == CUZK_POREP_API_V1_0);
    CHECK(cuzk_post_registered_proof(&WINDOW_V1, 5, &err) == CUZK_OK && WINDOW_V1.kind == CUZK_POST_WINDOW &&
          WINDOW_V1.sector_size == 2048 && WINDOW_V1.api == CUZK_POREP_API_V1_0 && WINDOW_V1.sector_count == 2 &&
          WINDOW_V1.challenge_count == 10);
    CHECK(cuzk_post_registered_proof(&WINDOW, 10, &err) == CUZK_OK && WINDOW.kind == CUZK_POST_WINDOW &&
          WINDOW.sector_size == 2048 && WINDOW.api == CUZK_POREP_API_V1_2 && WINDOW.vanilla_challenges == 10);
    /* select: by size the kind's current proof (Winning V1 3, Window V1_1 13), by name or number of the kind
     * and size only */
    cuzk_post_registered_proof_t sel;
    const uint64_t g32 = 32ull << 30;
    CHECK(cuzk_post_registered_proof_select(&sel, CUZK_POST_WINNING, NULL, g32, &err) == CUZK_OK && sel.id == 3);
    CHECK(cuzk_post_registered_proof_select(&sel, CUZK_POST_WINDOW, NULL, g32, &err) == CUZK_OK && sel.id == 13);
    CHECK(cuzk_post_registered_proof_select(&sel, CUZK_POST_WINDOW, "8", g32, &err) == CUZK_OK && sel.id == 8);
    CHECK(cuzk_post_registered_proof_select(&sel, CUZK_POST_WINDOW, "StackedDrgWindow2KiBV1", 0, &err) == CUZK_OK &&
          sel.id == 5);
    CHECK(cuzk_post_registered_proof_select(&sel, CUZK_POST_WINNING, "8", 0, &err) == CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "is a Window PoSt proof"));
    CHECK(cuzk_post_registered_proof_select(&sel, CUZK_POST_WINDOW, "8", 2048, &err) == CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "32GiB"));
    CHECK(cuzk_post_registered_proof_select(&sel, CUZK_POST_WINDOW, NULL, 4096, &err) == CUZK_ERR_INVALID_ARG);

    /* file names: the v28 stems of rust-fil-proofs' parameters.json (2KiB and 32GiB, both kinds); every
     * Window version of a size shares its circuit's files */
    char *manifest = test_read_file("tests/vectors/params/parameters-excerpt.json", NULL);
    CHECK(manifest != NULL);
    static const uint64_t ids[] = {0, 3, 5, 10, 8, 13};
    cuzk_post_params_paths_t pp[6];
    for (int i = 0; i < 6 && manifest; i++) {
        CHECK_MSG(cuzk_post_params_paths(&pp[i], "/params", ids[i], &err) == CUZK_OK, "%s", err.msg);
        char key[320];
        snprintf(key, sizeof key, "\"%.255s.params\"", pp[i].stem);
        CHECK_MSG(strstr(manifest, key) != NULL, "proof %llu: %s is not in parameters.json", (unsigned long long)ids[i],
                  key);
        snprintf(key, sizeof key, "\"%.255s.vk\"", pp[i].stem);
        CHECK(strstr(manifest, key) != NULL);
        CHECK(strncmp(pp[i].stem, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-", 59) == 0);
    }
    CHECK(strcmp(pp[2].stem, pp[3].stem) == 0 && strcmp(pp[4].stem, pp[5].stem) == 0 &&
          strcmp(pp[0].stem, pp[2].stem) != 0);
    char want[512];
    snprintf(want, sizeof want, "/params/%s.vk", pp[2].stem);
    CHECK(strcmp(pp[2].vk, want) == 0 && strstr(pp[2].dev, ".cuzk-dev") && strstr(pp[2].manifest, "parameters.json"));
    free(manifest);
    CHECK(cuzk_post_params_paths(&pp[0], "/p", 15, &err) == CUZK_ERR_INVALID_ARG);
    static char longdir[5000];
    memset(longdir, 'a', sizeof longdir - 1);
    CHECK(cuzk_post_params_paths(&pp[0], longdir, 0, &err) == CUZK_ERR_INVALID_ARG);
}

/* ---- vanilla proofs ---------------------------------------------------------------------------------- */

static void test_vanilla(const tv_tree_t *t)
{
    size_t len = 0;
    uint8_t *b = tv_encode_post(&len, 42, t, RAND, 0, 10, 1);
    cuzk_post_vanilla_t *v = parse(b, len);
    cuzk_post_vanilla_info_t info;
    if (v) {
        cuzk_post_vanilla_info(&info, v);
        CHECK(info.sector_id == 42 && memcmp(info.comm_r, t->comm_r, 32) == 0 && info.n_sector_proofs == 1 &&
              info.n_paths == 10 && info.path_levels == 2);
    }
    cuzk_post_vanilla_free(v);
    cuzk_post_vanilla_free(NULL);
    cuzk_err_t err = {{0}};
    /* every truncation and a trailing byte: CUZK_ERR_FORMAT naming the byte offset, nothing made */
    uint8_t *big = malloc(len + 1);
    memcpy(big, b, len);
    big[len] = 0;
    int bad = 0;
    for (size_t cut = 0; cut < len; cut += cut < 200 ? 1 : 97) {
        v = (cuzk_post_vanilla_t *)1;
        bad += cuzk_post_vanilla_parse(&v, big, cut, &err) != CUZK_ERR_FORMAT || v != NULL || !strstr(err.msg, "byte");
    }
    CHECK_MSG(bad == 0, "%d truncations not refused as CUZK_ERR_FORMAT", bad);
    CHECK(cuzk_post_vanilla_parse(&v, big, len + 1, &err) == CUZK_ERR_FORMAT && v == NULL &&
          strstr(err.msg, "trailing"));
    /* a file: the same proof; a missing file: CUZK_ERR_IO naming it */
    char dir[] = "/tmp/cuzk-post-api-XXXXXX", path[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/v.vproof", dir);
    CHECK(cuzk_atomic_write_file(path, b, len, &err) == CUZK_OK);
    CHECK_MSG(cuzk_post_vanilla_load(&v, path, &err) == CUZK_OK, "%s", err.msg);
    if (v) {
        cuzk_post_vanilla_info(&info, v);
        CHECK(info.sector_id == 42 && info.n_paths == 10);
    }
    cuzk_post_vanilla_free(v);
    CHECK(cuzk_atomic_write_file(path, big, len + 1, &err) == CUZK_OK);
    CHECK(cuzk_post_vanilla_load(&v, path, &err) == CUZK_ERR_FORMAT && v == NULL && strstr(err.msg, path));
    unlink(path);
    CHECK(cuzk_post_vanilla_load(&v, path, &err) == CUZK_ERR_IO && v == NULL && strstr(err.msg, path));
    CHECK(cuzk_post_vanilla_load(&v, dir, &err) == CUZK_ERR_IO && v == NULL);
    rmdir(dir);
    free(big);
    free(b);
}

/* ---- public inputs ------------------------------------------------------------------------------------- */

static void scalar_u64(cuzk_scalar_t *s, uint64_t v) { *s = (cuzk_scalar_t){{v, 0, 0, 0}}; }
static void scalar_bytes(cuzk_scalar_t *s, const uint8_t b[32])
{
    for (int i = 0; i < 4; i++) {
        s->l[i] = 0;
        for (int j = 7; j >= 0; j--)
            s->l[i] = s->l[i] << 8 | b[8 * i + j];
    }
}
static int scalar_eq(const cuzk_scalar_t *a, const cuzk_scalar_t *b) { return memcmp(a, b, sizeof *a) == 0; }

/* The oracle: per circuit sector comm_r and its leaves (fc_test_post_leaf), in compound.rs's order. */
static int inputs_match(const cuzk_scalar_t *got, size_t n, const tv_tree_t *const *trees, const uint64_t *ids,
                        const uint64_t *sector_index, const uint32_t *challenge, size_t sectors, uint32_t per, int v1_2)
{
    if (n != sectors * (1 + per))
        return 0;
    for (size_t i = 0; i < sectors; i++) {
        cuzk_scalar_t want;
        scalar_bytes(&want, trees[i]->comm_r);
        if (!scalar_eq(&got[i * (1 + per)], &want))
            return 0;
        for (uint32_t c = 0; c < per; c++) {
            scalar_u64(&want, fc_test_post_leaf(RAND, ids[i], sector_index[i], per, challenge ? challenge[i] : c, v1_2, 64));
            if (!scalar_eq(&got[i * (1 + per) + 1 + c], &want))
                return 0;
        }
    }
    return 1;
}

static void test_public_inputs(const tv_tree_t *ta, const tv_tree_t *tb)
{
    cuzk_err_t err = {{0}};
    cuzk_scalar_t in[200];
    size_t n = 0;
    /* Winning: the one sector for each of the 66 circuit sectors, circuit sector i answering challenge
     * index i (sector index i, one challenge each, API V1_0) */
    cuzk_post_vanilla_t *w = vanilla(ta, 7, RAND, 0, 66, 0);
    cuzk_post_request_t r = request(&WINNING, (const cuzk_post_vanilla_t *const *)&w, 1, 0);
    CHECK_MSG(cuzk_post_public_inputs(in, 200, &n, &r, &err) == CUZK_OK, "%s", err.msg);
    const tv_tree_t *trees[66];
    uint64_t ids[66], si[66];
    for (int i = 0; i < 66; i++)
        trees[i] = ta, ids[i] = 7, si[i] = (uint64_t)i;
    CHECK(n == 132 && inputs_match(in, n, trees, ids, si, NULL, 66, 1, 0));
    /* ... which are the vanilla proof's 66 leaves */
    for (int i = 0; i < 66; i++) {
        cuzk_scalar_t want;
        scalar_u64(&want, fc_test_post_leaf(RAND, 7, 0, 66, (uint32_t)i, 0, 64));
        CHECK(scalar_eq(&in[2 * i + 1], &want));
    }
    CHECK(cuzk_post_public_inputs(in, 131, &n, &r, &err) == CUZK_ERR_BAD_LENGTH);

    /* Window V1_2: two sectors; one sector, repeated to fill the circuit */
    cuzk_post_vanilla_t *v[2] = {vanilla(ta, 11, RAND, 0, 10, 1), vanilla(tb, 12, RAND, 1, 10, 1)};
    r = request(&WINDOW, (const cuzk_post_vanilla_t *const *)v, 2, 0);
    CHECK(cuzk_post_public_inputs(in, 200, &n, &r, &err) == CUZK_OK);
    const tv_tree_t *t2[2] = {ta, tb};
    uint64_t id2[2] = {11, 12}, si2[2] = {0, 1};
    CHECK(n == 22 && inputs_match(in, n, t2, id2, si2, NULL, 2, 10, 1));
    r.n_vanilla = 1;
    CHECK(cuzk_post_public_inputs(in, 200, &n, &r, &err) == CUZK_OK);
    const tv_tree_t *t1[2] = {ta, ta};
    uint64_t id1[2] = {11, 11}, si1[2] = {0, 0};
    CHECK(n == 22 && inputs_match(in, n, t1, id1, si1, NULL, 2, 10, 1));
    /* Window V1 (API V1_0), partition 3: sector indexes 6 and 7 */
    r = request(&WINDOW_V1, (const cuzk_post_vanilla_t *const *)v, 2, 3);
    CHECK(cuzk_post_public_inputs(in, 200, &n, &r, &err) == CUZK_OK);
    uint64_t si3[2] = {6, 7};
    CHECK(n == 22 && inputs_match(in, n, t2, id2, si3, NULL, 2, 10, 0));
    /* a request the inputs cannot come from */
    r.randomness[31] = 0xff;
    CHECK(cuzk_post_public_inputs(in, 200, &n, &r, &err) == CUZK_ERR_NOT_CANONICAL && strstr(err.msg, "randomness"));
    r = request(&WINDOW, (const cuzk_post_vanilla_t *const *)v, 0, 0);
    CHECK(cuzk_post_public_inputs(in, 200, &n, &r, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_post_vanilla_free(w);
    cuzk_post_vanilla_free(v[0]);
    cuzk_post_vanilla_free(v[1]);
}

/* ---- checks -------------------------------------------------------------------------------------------- */

/* The request of proof p over the given encodings (each its own vanilla proof), checked. */
static cuzk_status check_bytes(const cuzk_post_registered_proof_t *p, uint8_t *const *bufs, const size_t *lens,
                               size_t n, uint32_t partition, const uint8_t *rand, cuzk_err_t *err)
{
    cuzk_post_vanilla_t *v[4] = {0};
    cuzk_status st = CUZK_OK;
    for (size_t i = 0; i < n && st == CUZK_OK; i++)
        st = cuzk_post_vanilla_parse(&v[i], bufs[i], lens[i], err);
    cuzk_post_request_t r = request(p, (const cuzk_post_vanilla_t *const *)v, n, partition);
    if (rand)
        memcpy(r.randomness, rand, 32);
    if (st == CUZK_OK)
        st = cuzk_post_check(&r, err);
    for (size_t i = 0; i < n; i++)
        cuzk_post_vanilla_free(v[i]);
    return st;
}

/* One damaged copy of sector b (the second of a Window pair, id 12): the check fails with `want` and a
 * message holding every one of the words. */
static void expect_bad(const char *what, uint8_t *a, size_t la, const uint8_t *b, size_t lb, size_t off,
                       const uint8_t *bytes, size_t nbytes, cuzk_status want, const char *w1, const char *w2)
{
    uint8_t *copy = malloc(lb);
    memcpy(copy, b, lb);
    memcpy(copy + off, bytes, nbytes);
    uint8_t *bufs[2] = {a, copy};
    size_t lens[2] = {la, lb};
    cuzk_err_t err = {{0}};
    cuzk_status st = check_bytes(&WINDOW, bufs, lens, 2, 0, NULL, &err);
    CHECK_MSG(st == want && strstr(err.msg, "vanilla 1 of 2") && strstr(err.msg, "12") &&
                  (!w1 || strstr(err.msg, w1)) && (!w2 || strstr(err.msg, w2)),
              "%s: status %d (want %d): %s", what, (int)st, (int)want, err.msg);
    free(copy);
}

static void test_check(const tv_tree_t *ta, const tv_tree_t *tb)
{
    cuzk_err_t err = {{0}};
    size_t la, lb, lw;
    uint8_t *a = tv_encode_post(&la, 11, ta, RAND, 0, 10, 1), *b = tv_encode_post(&lb, 12, tb, RAND, 1, 10, 1);
    uint8_t *w = tv_encode_post(&lw, 7, ta, RAND, 0, 66, 0);
    uint8_t *ab[2] = {a, b};
    size_t lab[2] = {la, lb};
    CHECK_MSG(check_bytes(&WINDOW, ab, lab, 2, 0, NULL, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(check_bytes(&WINDOW, ab, lab, 1, 0, NULL, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(check_bytes(&WINNING, &w, &lw, 1, 0, NULL, &err) == CUZK_OK, "%s", err.msg);
    /* V1_2 challenges ignore the partition; V1_0's do not (sector indexes 2, 3 for partition 1) */
    CHECK(check_bytes(&WINDOW, ab, lab, 2, 1, NULL, &err) == CUZK_OK);
    CHECK(check_bytes(&WINDOW_V1, ab, lab, 2, 0, NULL, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "leaf"));

    /* counts, partition, randomness, proof id */
    uint8_t *ww[2] = {w, w};
    size_t lww[2] = {lw, lw};
    CHECK(check_bytes(&WINNING, ww, lww, 2, 0, NULL, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "one sector"));
    CHECK(check_bytes(&WINNING, &w, &lw, 1, 1, NULL, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "partition"));
    CHECK(check_bytes(&WINDOW, ab, lab, 0, 0, NULL, &err) == CUZK_ERR_INVALID_ARG);
    uint8_t *aaa[3] = {a, a, a};
    size_t laaa[3] = {la, la, la};
    CHECK(check_bytes(&WINDOW, aaa, laaa, 3, 0, NULL, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "3 vanilla"));
    uint8_t bad_rand[32];
    memset(bad_rand, 0xff, 32);
    CHECK(check_bytes(&WINDOW, ab, lab, 2, 0, bad_rand, &err) == CUZK_ERR_NOT_CANONICAL &&
          strstr(err.msg, "randomness"));
    cuzk_post_registered_proof_t none = WINDOW;
    none.id = 99;
    CHECK(check_bytes(&none, ab, lab, 2, 0, NULL, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "99"));
    cuzk_post_request_t r = request(&WINDOW, NULL, 2, 0);
    CHECK(cuzk_post_check(&r, &err) == CUZK_ERR_INVALID_ARG);
    /* a Winning vanilla for a Window proof: 66 paths, 10 challenges */
    uint8_t *aw[2] = {a, w};
    size_t law[2] = {la, lw};
    CHECK(check_bytes(&WINDOW, aw, law, 2, 0, NULL, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "vanilla 1 of 2") &&
          strstr(err.msg, "66"));

    /* the vanilla proofs' shape: two sector proofs; a tree of arity 4 (3 levels); a tree of 512 leaves */
    size_t l2;
    uint64_t leaves[10];
    for (uint32_t n = 0; n < 10; n++)
        leaves[n] = fc_test_post_leaf(RAND, 12, 1, 10, n, 1, 64);
    uint8_t *two = tv_encode(&l2, 12, tb, leaves, 10, 2);
    uint8_t *a2[2] = {a, two};
    size_t la2[2] = {la, l2};
    CHECK(check_bytes(&WINDOW, a2, la2, 2, 0, NULL, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "2 sector proofs") &&
          strstr(err.msg, "vanilla 1 of 2 (sector 12)"));
    free(two);
    tv_tree_t t4, t512;
    CHECK(tv_tree_make(&t4, 4, 64) == 0 && tv_tree_make(&t512, 8, 512) == 0);
    uint8_t *q = tv_encode(&l2, 12, &t4, leaves, 10, 1);
    a2[1] = q, la2[1] = l2;
    CHECK(check_bytes(&WINDOW, a2, la2, 2, 0, NULL, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "path 0") &&
          strstr(err.msg, "vanilla 1 of 2 (sector 12)"));
    free(q);
    q = tv_encode(&l2, 12, &t512, leaves, 10, 1);
    a2[1] = q, la2[1] = l2;
    CHECK(check_bytes(&WINDOW, a2, la2, 2, 0, NULL, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "path 0"));
    free(q);
    tv_tree_free(&t4);
    tv_tree_free(&t512);

    /* values: a sibling that does not hash to comm_r_last, a root that is not comm_r_last, comm_c that does
     * not give comm_r, a non-canonical sibling, the wrong leaf opened */
    uint8_t ff[32], other[32];
    memset(ff, 0xff, 32);
    test_rand_fr_bytes(other);
    uint8_t flip = b[TV_SIBLING(3, 1, 4)] ^ 1;
    expect_bad("sibling", a, la, b, lb, TV_SIBLING(3, 1, 4), &flip, 1, CUZK_ERR_MISMATCH, "path 3", NULL);
    expect_bad("root", a, la, b, lb, TV_ROOT(5), other, 32, CUZK_ERR_MISMATCH, "path 5", "comm_r_last");
    expect_bad("comm_c", a, la, b, lb, lb - 64, other, 32, CUZK_ERR_MISMATCH, "comm_r", NULL);
    expect_bad("comm_r", a, la, b, lb, TV_COMM_R, other, 32, CUZK_ERR_MISMATCH, "comm_r", NULL);
    expect_bad("non-canonical sibling", a, la, b, lb, TV_SIBLING(7, 0, 0), ff, 32, CUZK_ERR_NOT_CANONICAL, "path 7",
               NULL);
    /* path 9 of sector 12 carrying another path of the sector (one opening another leaf) */
    uint32_t j = 0;
    while (j < 8 && fc_test_post_leaf(RAND, 12, 1, 10, j, 1, 64) == fc_test_post_leaf(RAND, 12, 1, 10, 9, 1, 64))
        j++;
    expect_bad("leaf", a, la, b, lb, TV_HEADER + 9 * TV_PATH, b + TV_HEADER + j * TV_PATH, TV_PATH, CUZK_ERR_MISMATCH,
               "path 9", "leaf");
    /* another sector id than the one the challenges were drawn for */
    uint8_t id13[8] = {13, 0, 0, 0, 0, 0, 0, 0};
    expect_bad("sector id", a, la, b, lb, 0, id13, 8, CUZK_ERR_MISMATCH, "sector 13", "leaf");
    /* another randomness than the vanilla proofs' */
    uint8_t rand2[32];
    memcpy(rand2, RAND, 32);
    rand2[0] ^= 1;
    CHECK(check_bytes(&WINDOW, ab, lab, 2, 0, rand2, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "vanilla 0 of 2") &&
          strstr(err.msg, "leaf"));
    CHECK(check_bytes(&WINNING, &w, &lw, 1, 0, rand2, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "sector 7"));

    /* the witness takes the same shape checks (and nothing is left allocated on a refusal) */
    cuzk_post_vanilla_t *v[2] = {parse(a, la), parse(w, lw)};
    r = request(&WINDOW, (const cuzk_post_vanilla_t *const *)v, 2, 0);
    cuzk_post_witness_t wit;
    CHECK(cuzk_post_request_witness(&wit, &r, &err) == CUZK_ERR_MISMATCH && wit.sectors == NULL);
    cuzk_post_witness_free(&wit);
    r.n_vanilla = 1;
    CHECK_MSG(cuzk_post_request_witness(&wit, &r, &err) == CUZK_OK, "%s", err.msg);
    CHECK(wit.cfg.sector_count == 2 && wit.cfg.challenge_count == 10 && wit.sectors[1].has_comms &&
          wit.sectors[1].paths[9].has_values);
    cuzk_post_witness_free(&wit);
    cuzk_post_vanilla_free(v[0]);
    cuzk_post_vanilla_free(v[1]);
    free(a);
    free(b);
    free(w);
}

/* ---- proving -------------------------------------------------------------------------------------------- */

/* A circuit's development keys: made here by a fresh setup, or read from a parameter directory where
 * `cuzk params generate` left them (the tool's test makes them first: they are reused, as the PoRep tests
 * reuse theirs). */
typedef struct {
    cuzk_groth16_pk_t own;
    const cuzk_groth16_pk_t *pk;
    cuzk_post_keys_t *keys;
    bool ok;
} dev_key;

static void setup(dev_key *k, const cuzk_post_registered_proof_t *p, const char *dir)
{
    memset(k, 0, sizeof *k);
    cuzk_err_t err = {{0}};
    cuzk_post_config_t cfg;
    CHECK(cuzk_post_config_for_proof(&cfg, p->id, &err) == CUZK_OK);
    if (dir && cuzk_post_keys_load(&k->keys, dir, p->id, true, 0, &err) == CUZK_OK && cuzk_post_keys_dev(k->keys)) {
        k->pk = cuzk_post_keys_pk(k->keys);
        k->ok = true;
        printf("%s: development parameters of %s\n", p->name, dir);
        return;
    }
    cuzk_post_keys_free(k->keys);
    k->keys = NULL;
    double t = test_thread_cpu_s();
    k->ok =
        cuzk_post_dev_setup(&k->own, &cfg, 0, &err) == CUZK_OK && cuzk_post_check_key(&k->own, &cfg, &err) == CUZK_OK;
    CHECK_MSG(k->ok, "%s: %s", p->name, err.msg);
    k->pk = &k->own;
    printf("%s: development setup %.2f s CPU (this thread)\n", p->name, test_thread_cpu_s() - t);
}

static void dev_key_free(dev_key *k)
{
    cuzk_post_keys_free(k->keys);
    cuzk_groth16_pk_free(&k->own);
}

static int verifies(const cuzk_post_request_t *r, const cuzk_groth16_vk_t *vk, const cuzk_groth16_proof_t *proof)
{
    bool valid = true;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_post_verify(&valid, r, vk, proof, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "verify: %s\n", err.msg);
        return -1;
    }
    return valid;
}

static void test_winning(const tv_tree_t *t, const dev_key *k)
{
    cuzk_err_t err = {{0}};
    cuzk_post_vanilla_t *v = vanilla(t, 7, RAND, 0, 66, 0);
    cuzk_post_request_t r = request(&WINNING, (const cuzk_post_vanilla_t *const *)&v, 1, 0);
    cuzk_groth16_proof_t proof;
    cuzk_post_timings_t tm = {0};
    cuzk_post_prove_opts_t o = {.threads = 2};
    CHECK_MSG(cuzk_post_prove(&proof, &r, k->pk, &o, &tm, &err) == CUZK_OK, "%s", err.msg);
    printf("Winning 2KiB: %llu constraints, check %.1f ms, synth %.1f ms, prove %.1f ms\n",
           (unsigned long long)tm.constraints, tm.check_ms, tm.synth_ms, tm.prove_ms);
    CHECK(tm.constraints == 90750); /* the cost model of docs/REFERENCE.md: 66·(313 + 2·530 + 2) */
    CHECK(verifies(&r, &k->pk->vk, &proof) == 1);
    /* another randomness, another sector id (a valid vanilla proof of sector 8 of the same tree) */
    cuzk_post_request_t r2 = r;
    r2.randomness[5] ^= 1;
    CHECK(verifies(&r2, &k->pk->vk, &proof) == 0);
    cuzk_post_vanilla_t *v8 = vanilla(t, 8, RAND, 0, 66, 0);
    r2 = request(&WINNING, (const cuzk_post_vanilla_t *const *)&v8, 1, 0);
    CHECK(verifies(&r2, &k->pk->vk, &proof) == 0);
    /* a tampered proof; a Winning partition index other than 0 is an error, not a verdict */
    cuzk_groth16_proof_t bad = proof;
    bad.c = proof.a;
    CHECK(verifies(&r, &k->pk->vk, &bad) == 0);
    r2 = r;
    r2.partition_index = 1;
    bool valid = true;
    CHECK(cuzk_post_verify(&valid, &r2, &k->pk->vk, &proof, &err) == CUZK_ERR_INVALID_ARG && !valid);
    cuzk_post_vanilla_free(v);
    cuzk_post_vanilla_free(v8);
}

static void test_window(const tv_tree_t *ta, const tv_tree_t *tb, const dev_key *k, const dev_key *other)
{
    cuzk_err_t err = {{0}};
    cuzk_post_vanilla_t *v[2] = {vanilla(ta, 11, RAND, 0, 10, 1), vanilla(tb, 12, RAND, 1, 10, 1)};
    cuzk_post_request_t r = request(&WINDOW, (const cuzk_post_vanilla_t *const *)v, 2, 0);
    cuzk_groth16_proof_t proof, proof1;
    cuzk_post_timings_t tm = {0};
    CHECK_MSG(cuzk_post_prove(&proof, &r, k->pk, NULL, &tm, &err) == CUZK_OK, "%s", err.msg);
    CHECK(tm.constraints == 21866); /* 2·(313 + 10·(2·530 + 2)) */
    CHECK(verifies(&r, &k->pk->vk, &proof) == 1);
    cuzk_post_request_t r2 = r;
    r2.randomness[0] ^= 2;
    CHECK(verifies(&r2, &k->pk->vk, &proof) == 0);
    /* the sectors in the other order, or sector 11 alone */
    const cuzk_post_vanilla_t *swapped[2] = {v[1], v[0]};
    r2 = request(&WINDOW, swapped, 2, 0);
    CHECK(verifies(&r2, &k->pk->vk, &proof) == 0);
    r2 = request(&WINDOW, (const cuzk_post_vanilla_t *const *)v, 1, 0);
    CHECK(verifies(&r2, &k->pk->vk, &proof) == 0);
    /* one sector: the circuit repeats it (proved counting the stop polls, for the cancellations below) */
    test_stop_counter count = {0, 0};
    cuzk_post_prove_opts_t oc = {.threads = 1, .should_stop = test_stop_after, .stop_arg = &count};
    CHECK_MSG(cuzk_post_prove(&proof1, &r2, k->pk, &oc, NULL, &err) == CUZK_OK, "%s", err.msg);
    CHECK(verifies(&r2, &k->pk->vk, &proof1) == 1 && verifies(&r, &k->pk->vk, &proof1) == 0);
    /* V1_2 leaves do not depend on the partition: partition 1 is the same statement */
    r2 = request(&WINDOW, (const cuzk_post_vanilla_t *const *)v, 2, 1);
    CHECK(verifies(&r2, &k->pk->vk, &proof) == 1);

    /* Window V1 (API V1_0) on the same parameters: partition 1's sectors (indexes 2, 3) proved; as
     * partition 0 or 2 they do not verify */
    cuzk_post_vanilla_t *u[2] = {vanilla(ta, 21, RAND, 2, 10, 0), vanilla(tb, 22, RAND, 3, 10, 0)};
    r2 = request(&WINDOW_V1, (const cuzk_post_vanilla_t *const *)u, 2, 1);
    CHECK_MSG(cuzk_post_prove(&proof1, &r2, k->pk, NULL, NULL, &err) == CUZK_OK, "%s", err.msg);
    CHECK(verifies(&r2, &k->pk->vk, &proof1) == 1);
    r2.partition_index = 0;
    CHECK(verifies(&r2, &k->pk->vk, &proof1) == 0);
    r2.partition_index = 2;
    CHECK(verifies(&r2, &k->pk->vk, &proof1) == 0);
    r2.partition_index = 0;
    CHECK(cuzk_post_prove(&proof1, &r2, k->pk, NULL, NULL, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "leaf"));

    /* the partition calls, sequential and in parallel chunks; the proof verifies */
    cuzk_post_partition_t *p1 = NULL, *p3 = NULL;
    cuzk_post_prove_opts_t o1 = {.threads = 1}, o3 = {.threads = 3};
    CHECK(cuzk_post_partition_synthesize(&p1, &r, &o1, &err) == CUZK_OK);
    CHECK(cuzk_post_partition_synthesize(&p3, &r, &o3, &err) == CUZK_OK);
    CHECK(cuzk_post_partition_prove(&proof1, p3, k->pk, &o3, &err) == CUZK_OK &&
          verifies(&r, &k->pk->vk, &proof1) == 1);
    cuzk_post_partition_free(p1);
    cuzk_post_partition_free(p3);
    cuzk_post_partition_free(NULL);
    /* the partition call leaves cuzk_post_check to its caller (another randomness: the check refuses it, the
     * synthesis does not), and refuses a vanilla proof of another shape (sector 11's Winning proof: 66 paths) */
    r2 = r;
    r2.randomness[0] ^= 2;
    CHECK(cuzk_post_check(&r2, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "leaf"));
    CHECK_MSG(cuzk_post_partition_synthesize(&p1, &r2, NULL, &err) == CUZK_OK, "%s", err.msg);
    cuzk_post_partition_free(p1);
    /* opts.checked: the caller's cuzk_post_check is not repeated (the request is proved, the proof is not
     * valid for it) */
    cuzk_post_prove_opts_t ochecked = {.checked = true};
    CHECK_MSG(cuzk_post_prove(&proof1, &r2, k->pk, &ochecked, NULL, &err) == CUZK_OK, "%s", err.msg);
    CHECK(verifies(&r2, &k->pk->vk, &proof1) == 0);
    cuzk_post_vanilla_t *w11 = vanilla(ta, 11, RAND, 0, 66, 0);
    const cuzk_post_vanilla_t *bad_shape[2] = {v[0], w11};
    r2 = request(&WINDOW, bad_shape, 2, 0);
    p1 = (cuzk_post_partition_t *)1;
    CHECK(cuzk_post_partition_synthesize(&p1, &r2, NULL, &err) == CUZK_ERR_MISMATCH && p1 == NULL &&
          strstr(err.msg, "66"));
    cuzk_post_vanilla_free(w11);

    /* cancellation: before the checks, at the first sector, at the last poll (in the proof) */
    CHECK(count.polls > 4); /* the same circuit as r's: the same polls */
    const int at[3] = {1, 2, count.polls};
    for (int i = 0; i < 3; i++) {
        test_stop_counter c = {0, at[i]};
        cuzk_post_prove_opts_t o = {.threads = 1, .should_stop = test_stop_after, .stop_arg = &c};
        CHECK_MSG(cuzk_post_prove(&proof1, &r, k->pk, &o, NULL, &err) == CUZK_ERR_CANCELLED,
                  "stop at poll %d of %d: %s", c.stop_at, count.polls, err.msg);
    }
    /* keys of the other circuit: refused before any work, as a verdict never */
    if (other->ok) {
        CHECK(cuzk_post_prove(&proof1, &r, other->pk, NULL, NULL, &err) == CUZK_ERR_MISMATCH);
        bool valid = true;
        CHECK(cuzk_post_verify(&valid, &r, &other->pk->vk, &proof, &err) == CUZK_ERR_MISMATCH && !valid);
        cuzk_post_config_t cfg;
        CHECK(cuzk_post_config_for_proof(&cfg, WINDOW.id, &err) == CUZK_OK);
        CHECK(cuzk_post_check_key(other->pk, &cfg, &err) == CUZK_ERR_MISMATCH);
    }
    cuzk_post_vanilla_free(v[0]);
    cuzk_post_vanilla_free(v[1]);
    cuzk_post_vanilla_free(u[0]);
    cuzk_post_vanilla_free(u[1]);
}

/* ---- vanilla proofs of a sealed sector (cuzk/seal.h) ------------------------------------------------------ */

/* A 2KiB sector sealed from random data and kept in a directory; its Winning and Window vanilla proofs as
 * the seal path makes them (real replica, real tree R) pass the checks, and the Window one is proved and
 * verified. */
static void test_sealed(const dev_key *win, const dev_key *wdw)
{
    cuzk_err_t err = {{0}};
    cuzk_porep_registered_proof_t sp;
    CHECK(cuzk_porep_registered_proof_parse(&sp, "StackedDrg2KiBV1_1", &err) == CUZK_OK);
    static uint8_t data[2032];
    test_rand_bytes(data, sizeof data);
    cuzk_seal_request_t req = {
        .proof_id = sp.id, .miner_id = MINER, .sector_num = 31, .data = data, .data_len = sizeof data, .threads = 1};
    test_rand_bytes(req.ticket, 32);
    cuzk_sealed_sector_t *sector = NULL;
    char dir[] = "/tmp/cuzk-post-sector-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK_MSG(cuzk_seal_precommit(&sector, &req, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(sector && cuzk_seal_write_sector(sector, dir, &err) == CUZK_OK, "%s", err.msg);
    uint8_t comm_d[32], comm_r[32];
    if (sector)
        cuzk_seal_commitments(sector, comm_d, comm_r);
    cuzk_seal_free(sector);
    const struct {
        const cuzk_post_registered_proof_t *p;
        const dev_key *k;
    } cases[2] = {{&WINNING, win}, {&WINDOW, wdw}};
    for (int i = 0; i < 2; i++) {
        uint8_t *b = NULL;
        size_t len = 0;
        CHECK_MSG(cuzk_seal_post_vanilla(&b, &len, dir, cases[i].p->id, RAND, 0, &err) == CUZK_OK, "%s: %s",
                  cases[i].p->name, err.msg);
        cuzk_post_vanilla_t *v = b ? parse(b, len) : NULL;
        free(b);
        if (!v)
            continue;
        cuzk_post_vanilla_info_t info;
        cuzk_post_vanilla_info(&info, v);
        CHECK(info.sector_id == 31 && memcmp(info.comm_r, comm_r, 32) == 0 &&
              info.n_paths == cases[i].p->vanilla_challenges);
        cuzk_post_request_t r = request(cases[i].p, (const cuzk_post_vanilla_t *const *)&v, 1, 0);
        CHECK_MSG(cuzk_post_check(&r, &err) == CUZK_OK, "%s: %s", cases[i].p->name, err.msg);
        /* a Winning proof costs what test_winning's did: the Window one stands for both */
        if (cases[i].p->kind == CUZK_POST_WINNING) {
            cuzk_post_vanilla_free(v);
            continue;
        }
        cuzk_groth16_proof_t proof;
        CHECK_MSG(cuzk_post_prove(&proof, &r, cases[i].k->pk, NULL, NULL, &err) == CUZK_OK, "%s", err.msg);
        CHECK(verifies(&r, &cases[i].k->pk->vk, &proof) == 1);
        r.randomness[3] ^= 1;
        CHECK(verifies(&r, &cases[i].k->pk->vk, &proof) == 0);
        cuzk_post_vanilla_free(v);
    }
    static const char *files[] = {"sealed", "sc-02-data-tree-r-last.dat", "p_aux", "t_aux", "sector.json"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    CHECK(rmdir(dir) == 0);
}

/* ---- keys from a parameter directory --------------------------------------------------------------------- */

static void test_keys(const dev_key *win, const dev_key *wdw)
{
    cuzk_err_t err = {{0}};
    char dir[] = "/tmp/cuzk-post-keys-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    cuzk_post_keys_t *keys = NULL;
    CHECK(cuzk_post_keys_load(&keys, dir, WINDOW.id, false, 1, &err) == CUZK_ERR_IO && keys == NULL &&
          strstr(err.msg, "missing parameters") && strstr(err.msg, ".vk"));
    cuzk_post_params_paths_t pw, pn;
    CHECK(cuzk_post_params_paths(&pw, dir, WINDOW.id, &err) == CUZK_OK);
    CHECK(cuzk_post_params_paths(&pn, dir, WINNING.id, &err) == CUZK_OK);
    CHECK(cuzk_params_write(pw.params, wdw->pk, 1, &err) == CUZK_OK &&
          cuzk_params_vk_write(pw.vk, &wdw->pk->vk, &err) == CUZK_OK);
    CHECK_MSG(cuzk_post_keys_load(&keys, dir, WINDOW.id, true, 1, &err) == CUZK_OK, "%s", err.msg);
    if (keys) {
        CHECK(!cuzk_post_keys_dev(keys) && cuzk_post_keys_pk(keys) && cuzk_post_keys_vk(keys)->ic_len == 23 &&
              strcmp(cuzk_post_keys_paths(keys)->stem, pw.stem) == 0);
        CHECK(cuzk_post_keys_pk(keys)->l_len == wdw->pk->l_len);
    }
    cuzk_post_keys_free(keys);
    cuzk_post_keys_free(NULL);
    /* the marker; Window V1 shares the files */
    CHECK(cuzk_atomic_write_file(pw.dev, "dev\n", 4, &err) == CUZK_OK);
    CHECK(cuzk_post_keys_load(&keys, dir, WINDOW_V1.id, false, 1, &err) == CUZK_OK && cuzk_post_keys_dev(keys) &&
          cuzk_post_keys_pk(keys) == NULL);
    cuzk_post_keys_free(keys);
    /* Window files under the Winning names: the vk's input count, then the params' lengths, are refused */
    CHECK(rename(pw.vk, pn.vk) == 0 && rename(pw.params, pn.params) == 0);
    CHECK(cuzk_post_keys_load(&keys, dir, WINNING.id, false, 1, &err) == CUZK_ERR_MISMATCH && keys == NULL &&
          strstr(err.msg, "22 public inputs"));
    CHECK(cuzk_params_vk_write(pn.vk, &win->pk->vk, &err) == CUZK_OK);
    CHECK(cuzk_post_keys_load(&keys, dir, WINNING.id, true, 1, &err) == CUZK_ERR_MISMATCH && keys == NULL &&
          strstr(err.msg, pn.params));
    unlink(pn.vk);
    unlink(pn.params);
    unlink(pw.dev);
    rmdir(dir);
}

/* ---- vanilla proofs for the tool's test --------------------------------------------------------------- */

/* DIR/winning.vproof (sector 7, 66 challenges), DIR/window-0.vproof and window-1.vproof (sectors 11 and 12 of
 * a Window V1_2 partition), DIR/window-bad.vproof (sector 12 with path 3's sibling changed), all for the
 * randomness 0x11…11. */
static int write_vanilla(const char *dir)
{
    tv_tree_t ta, tb;
    if (tv_tree_make(&ta, 8, 64) || tv_tree_make(&tb, 8, 64))
        return 1;
    size_t len[4];
    uint8_t *b[4] = {tv_encode_post(&len[0], 7, &ta, RAND, 0, 66, 0), tv_encode_post(&len[1], 11, &ta, RAND, 0, 10, 1),
                     tv_encode_post(&len[2], 12, &tb, RAND, 1, 10, 1), NULL};
    b[3] = malloc(len[2]);
    memcpy(b[3], b[2], len[2]);
    len[3] = len[2];
    b[3][TV_SIBLING(3, 0, 2)] ^= 1;
    static const char *names[4] = {"winning.vproof", "window-0.vproof", "window-1.vproof", "window-bad.vproof"};
    int rc = 0;
    for (int i = 0; i < 4; i++) {
        char path[4096];
        cuzk_err_t err = {{0}};
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (cuzk_atomic_write_file(path, b[i], len[i], &err) != CUZK_OK) {
            fprintf(stderr, "%s\n", err.msg);
            rc = 1;
        }
        free(b[i]);
    }
    tv_tree_free(&ta);
    tv_tree_free(&tb);
    return rc;
}

int main(int argc, char **argv)
{
    test_init("test_post_api");
    memset(RAND, 0x11, 32);
    if (argc == 3 && strcmp(argv[1], "--write-vanilla") == 0)
        return write_vanilla(argv[2]);
    const char *params = argc == 3 && strcmp(argv[1], "--params") == 0 ? argv[2] : NULL;
    test_registry();
    tv_tree_t ta, tb;
    CHECK(tv_tree_make(&ta, 8, 64) == 0 && tv_tree_make(&tb, 8, 64) == 0);
    test_vanilla(&ta);
    test_public_inputs(&ta, &tb);
    test_check(&ta, &tb);
    dev_key win, wdw;
    setup(&win, &WINNING, params);
    setup(&wdw, &WINDOW, params);
    if (win.ok)
        test_winning(&ta, &win);
    if (wdw.ok) {
        test_window(&ta, &tb, &wdw, &win);
        if (win.ok) {
            test_keys(&win, &wdw);
            test_sealed(&win, &wdw);
        }
    }
    dev_key_free(&win);
    dev_key_free(&wdw);
    tv_tree_free(&ta);
    tv_tree_free(&tb);
    return test_finish();
}
