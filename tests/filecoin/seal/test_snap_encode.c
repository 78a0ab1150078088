/* SnapDeals encoding of a committed-capacity sector sealed here (2KiB; 8MiB with --8mib), against
 * oracles written independently of the library: the data Fr32-padded by the tests' bit-by-bit oracle, tree
 * D hashed node by node with libcrypto's SHA-256 (each node trimmed), phi and rho by the textbook Poseidon
 * permutation with the tag 2^40 built here, every node of `update` = old + data·rho by GMP modulo r, tree R
 * over `update` with the textbook arity-8 permutation, comm_r_new = Poseidon2(comm_c, its root), update.json
 * read with jansson; decode gives the input bytes back (then zeros). Bad input: data too long, a sector that
 * holds data, missing, short, damaged and non-canonical sector files, the sector's own directory as the
 * output, corrupt update.json and p_aux, a damaged `update`, a sector key of another update — each refused
 * with a message naming it, nothing written and an earlier update directory left as it was. */
#include <gmp.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/seal.h"
#include "ff/fr.h"
#include "filecoin/fc_fr32_oracle.h"
#include "filecoin/hash/poseidon.h"
#include "test_util.h"

static const char *R_HEX = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

/* The size under test, its figures worked out by hand: shift = log2 nodes − h (2KiB: 6 − 1, 8MiB: 18 −
 * 10), the nodes tree-r-last keeps (filecoin-proofs discards 1 row of 2KiB's 3, 2 of 8MiB's 7). */
typedef struct {
    const char *name;
    uint64_t nodes;
    unsigned shift;
    uint64_t kept;
    uint32_t update_proof, h;
} size_case;
static const size_case SIZE_2KIB = {"2KiB", 64, 5, 1, 0, 1};
static const size_case SIZE_8MIB = {"8MiB", 262144, 8, 585, 1, 10};
static const size_case *sc = &SIZE_2KIB;
#define NODES (sc->nodes)
#define SIZE (NODES * 32)
#define RAW (SIZE / 128 * 127)

static char base[64];

static char *path_of(const char *dir, const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s%s%s", base, dir, name ? "/" : "", name ? name : "");
    return buf[k];
}

static uint8_t *slurp(const char *dir, const char *name, size_t *len)
{
    return (uint8_t *)test_read_file(path_of(dir, name), len);
}

static int spit(const char *dir, const char *name, const void *buf, size_t len)
{
    FILE *f = fopen(path_of(dir, name), "wb");
    int ok = f && fwrite(buf, 1, len, f) == len;
    if (f)
        fclose(f);
    return ok;
}

static void sh(const char *fmt, const char *a, const char *b)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, fmt, a, b);
    if (system(cmd) != 0)
        fprintf(stderr, "failed: %s\n", cmd);
}

/* ---- the oracles ---- */

static fr tag_of(uint64_t v)
{
    uint64_t l[4] = {v, 0, 0, 0};
    fr t;
    fr_to_mont(&t, l);
    return t;
}

/* Poseidon of `arity` 32-byte nodes with the tag v, by the textbook permutation. */
static void textbook(uint8_t out[32], unsigned arity, uint64_t v, const uint8_t *in)
{
    fr x[8], r, t = tag_of(v);
    for (unsigned i = 0; i < arity; i++)
        CHECK(fr_from_bytes_le(&x[i], in + 32 * i));
    cuzk_poseidon_hash_textbook(&r, cuzk_poseidon_constants(arity), &t, x);
    fr_to_bytes_le(out, &r);
}

static void sha_node(uint8_t out[32], const uint8_t *l, const uint8_t *r)
{
    const uint8_t *parts[2] = {l, r};
    size_t lens[2] = {32, 32};
    test_sha256_parts(out, parts, lens, 2);
    out[31] &= 0x3f;
}

static void le_to_mpz(mpz_t z, const uint8_t b[32]) { mpz_import(z, 32, -1, 1, 0, 0, b); }
static void mpz_to_le(uint8_t b[32], const mpz_t z)
{
    memset(b, 0, 32);
    mpz_export(b, NULL, -1, 1, 0, 0, z);
}

/* What the update directory must hold for data over the sector whose replica is `old`. */
typedef struct {
    uint8_t *tree_d;  /* (2·nodes − 1)·32: leaves (the padded data) first */
    uint8_t *update;  /* nodes·32 */
    uint8_t *tree_r;  /* the levels above the leaves, level 1 first, the root last */
    uint64_t tree_r_nodes;
    uint8_t comm_d_new[32], comm_r_new[32], root_r_new[32];
} expected;

static void expect_free(expected *e)
{
    free(e->tree_d);
    free(e->update);
    free(e->tree_r);
}

static void oracle(expected *e, const uint8_t *data, size_t len, const uint8_t *old, const uint8_t comm_r_old[32],
                   const uint8_t comm_c[32])
{
    memset(e, 0, sizeof *e);
    e->tree_d = calloc(2 * NODES - 1, 32);
    e->update = malloc(SIZE);
    e->tree_r = malloc(SIZE / 7 + 32);
    uint8_t *raw = calloc(1, RAW);
    if (len) /* no data: data may be NULL */
        memcpy(raw, data, len);
    fc_test_fr32_pad(e->tree_d, raw, RAW); /* the padded data: tree D's leaves */
    free(raw);
    uint8_t *in = e->tree_d, *out = e->tree_d + SIZE;
    for (uint64_t w = NODES; w > 1; w /= 2) {
        for (uint64_t i = 0; i < w / 2; i++)
            sha_node(out + i * 32, in + 2 * i * 32, in + (2 * i + 1) * 32);
        in = out;
        out += w / 2 * 32;
    }
    memcpy(e->comm_d_new, e->tree_d + (2 * NODES - 2) * 32, 32);

    /* phi = H(comm_d_new, comm_r_old); rho(i) = H(phi, i >> shift); new = old + data·rho mod r */
    uint8_t two[64], phi[32], rho[32];
    memcpy(two, e->comm_d_new, 32);
    memcpy(two + 32, comm_r_old, 32);
    textbook(phi, 2, 1ull << 40, two);
    mpz_t r, a, d, p;
    mpz_inits(r, a, d, p, NULL);
    mpz_set_str(r, R_HEX, 16);
    uint64_t last_high = UINT64_MAX;
    for (uint64_t i = 0; i < NODES; i++) {
        if (i >> sc->shift != last_high) {
            last_high = i >> sc->shift;
            memcpy(two, phi, 32);
            memset(two + 32, 0, 32);
            for (int b = 0; b < 8; b++)
                two[32 + b] = (uint8_t)(last_high >> (8 * b));
            textbook(rho, 2, 1ull << 40, two);
            le_to_mpz(p, rho);
        }
        le_to_mpz(a, old + i * 32);
        le_to_mpz(d, e->tree_d + i * 32);
        mpz_mul(d, d, p);
        mpz_add(a, a, d);
        mpz_mod(a, a, r);
        mpz_to_le(e->update + i * 32, a);
    }
    mpz_clears(r, a, d, p, NULL);

    /* tree R over the new replica, node by node */
    in = e->update, out = e->tree_r;
    for (uint64_t w = NODES; w > 1; w /= 8) {
        for (uint64_t g = 0; g < w / 8; g++)
            textbook(out + g * 32, 8, 0xff, in + g * 8 * 32);
        in = out;
        out += w / 8 * 32;
    }
    e->tree_r_nodes = (uint64_t)(out - e->tree_r) / 32;
    memcpy(e->root_r_new, out - 32, 32);
    memcpy(two, comm_c, 32);
    memcpy(two + 32, e->root_r_new, 32);
    textbook(e->comm_r_new, 2, 3, two);
}

/* ---- the sectors ---- */

static cuzk_seal_sector_info_t cc; /* the CC sector's description */

static void seal(const char *dir, bool with_data)
{
    cuzk_seal_request_t req = {.proof_id = sc == &SIZE_2KIB ? 5 : 6, .miner_id = 1000, .sector_num = 7};
    test_rand_bytes(req.ticket, 32);
    uint8_t *raw = NULL;
    if (with_data) {
        raw = malloc(RAW);
        test_rand_bytes(raw, RAW);
        req.data = raw;
        req.data_len = RAW;
    }
    cuzk_sealed_sector_t *s = NULL;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_seal_precommit(&s, &req, &err) == CUZK_OK && cuzk_seal_write_sector(s, path_of(dir, NULL), &err) ==
                                                                   CUZK_OK,
              "sealing %s: %s", dir, err.msg);
    cuzk_seal_free(s);
    free(raw);
}

static bool same_file(const char *dir, const char *name, const void *want, size_t len)
{
    size_t got_len = 0;
    uint8_t *got = slurp(dir, name, &got_len);
    bool ok = got && got_len == len && memcmp(got, want, len) == 0;
    free(got);
    return ok;
}

/* Encodes len random bytes (or none) into the CC sector as dir, and checks every file against the oracle. */
static void check_encode(const char *dir, size_t len)
{
    uint8_t *data = len ? malloc(len) : NULL;
    test_rand_bytes(data, len);
    cuzk_seal_snap_info_t info;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_seal_snap_encode(path_of("cc", NULL), data, len, path_of(dir, NULL), 2, &info, &err);
    CHECK_MSG(st == CUZK_OK, "encode %zu bytes: %s", len, err.msg);
    size_t old_len = 0;
    uint8_t *old = slurp("cc", "sealed", &old_len);
    CHECK(old && old_len == SIZE);
    if (st != CUZK_OK || !old) {
        free(data);
        free(old);
        return;
    }
    expected e;
    oracle(&e, data, len, old, cc.comm_r, cc.comm_c);
    CHECK_MSG(same_file(dir, "sc-02-data-tree-d.dat", e.tree_d, (2 * NODES - 1) * 32),
              "tree D is not the SHA-256 tree of the padded data");
    CHECK_MSG(same_file(dir, "update", e.update, SIZE), "update is not old + data x rho");
    CHECK_MSG(same_file(dir, "sc-02-data-tree-r-last.dat", e.tree_r + (e.tree_r_nodes - sc->kept) * 32, sc->kept * 32),
              "tree-r-last does not keep the new tree R's top rows");
    uint8_t paux[64];
    memcpy(paux, cc.comm_c, 32);
    memcpy(paux + 32, e.root_r_new, 32);
    CHECK(same_file(dir, "p_aux", paux, 64));
    CHECK(!memcmp(info.comm_r_old, cc.comm_r, 32) && !memcmp(info.comm_d_new, e.comm_d_new, 32) &&
          !memcmp(info.comm_r_new, e.comm_r_new, 32) && !memcmp(info.comm_c, cc.comm_c, 32) &&
          !memcmp(info.root_r_new, e.root_r_new, 32));
    CHECK(info.update_proof_id == sc->update_proof && info.sector_size == SIZE && info.h == sc->h);
    char *abs = realpath(path_of("cc", NULL), NULL);
    CHECK(abs && strcmp(info.sector_key_dir, abs) == 0);

    /* update.json by jansson */
    json_error_t je;
    json_t *j = json_load_file(path_of(dir, "update.json"), 0, &je);
    char hex[3][65];
    const uint8_t *want[3] = {cc.comm_r, e.comm_d_new, e.comm_r_new};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 32; i++)
            snprintf(hex[k] + 2 * i, 3, "%02x", want[k][i]);
    CHECK_MSG(j && json_object_size(j) == 7 &&
                  json_integer_value(json_object_get(j, "update_proof")) == (json_int_t)sc->update_proof &&
                  json_integer_value(json_object_get(j, "sector_size")) == (json_int_t)SIZE &&
                  json_integer_value(json_object_get(j, "h")) == (json_int_t)sc->h && abs &&
                  !strcmp(json_string_value(json_object_get(j, "sector_key_dir")), abs) &&
                  !strcmp(json_string_value(json_object_get(j, "comm_r_old")), hex[0]) &&
                  !strcmp(json_string_value(json_object_get(j, "comm_d_new")), hex[1]) &&
                  !strcmp(json_string_value(json_object_get(j, "comm_r_new")), hex[2]),
              "update.json");
    json_decref(j);
    free(abs);
    cuzk_seal_snap_info_t again;
    CHECK_MSG(cuzk_seal_snap_info(&again, path_of(dir, NULL), &err) == CUZK_OK && !memcmp(&again, &info, sizeof info),
              "info: %s", err.msg);

    /* decode: the data, then zeros */
    uint8_t *back = NULL;
    size_t back_len = 0;
    CHECK_MSG(cuzk_seal_snap_decode(&back, &back_len, path_of(dir, NULL), 2, NULL, &err) == CUZK_OK, "decode: %s",
              err.msg);
    bool ok = back && back_len == RAW && (!len || memcmp(back, data, len) == 0);
    for (size_t i = len; ok && i < RAW; i++)
        ok = back[i] == 0;
    CHECK_MSG(ok, "decode does not give the %zu bytes back", len);
    free(back);
    expect_free(&e);
    free(old);
    free(data);
}

/* ---- bad input ---- */

/* A file's bytes kept for one check, then put back. */
typedef struct {
    const char *dir, *name;
    uint8_t *keep;
    size_t len;
} saved;

static saved save(const char *dir, const char *name)
{
    saved s = {dir, name, NULL, 0};
    s.keep = slurp(dir, name, &s.len);
    CHECK(s.keep != NULL);
    return s;
}

static void restore(saved *s)
{
    CHECK(s->keep && spit(s->dir, s->name, s->keep, s->len));
    free(s->keep);
    s->keep = NULL;
}

/* True when dir is missing or empty (no file, no temporary file). */
static bool nothing_in(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s' 2>/dev/null)\"", path_of(dir, NULL));
    return system(cmd) == 0;
}

/* cuzk_seal_snap_encode of sector into "x" fails with want and a message holding what, writing nothing. */
static void encode_refused(const char *sector, size_t len, cuzk_status want, const char *what)
{
    uint8_t *data = calloc(1, len + 1);
    cuzk_seal_snap_info_t info;
    memset(&info, 0x55, sizeof info);
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_seal_snap_encode(path_of(sector, NULL), data, len, path_of("x", NULL), 1, &info, &err);
    CHECK_MSG(st == want && strstr(err.msg, what) && info.sector_size == 0 && nothing_in("x"),
              "encode (%s): expected %s naming '%s', got %s: %s", sector, cuzk_status_str(want), what,
              cuzk_status_str(st), err.msg);
    free(data);
}

static void info_refused(cuzk_status want, const char *what)
{
    cuzk_seal_snap_info_t info;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_seal_snap_info(&info, path_of("up", NULL), &err);
    CHECK_MSG(st == want && strstr(err.msg, what) && info.sector_size == 0, "info: expected %s naming '%s', got %s: %s",
              cuzk_status_str(want), what, cuzk_status_str(st), err.msg);
}

static void decode_refused(cuzk_status want, const char *what)
{
    uint8_t *data = (uint8_t *)1;
    size_t len = 1;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_seal_snap_decode(&data, &len, path_of("up", NULL), 1, NULL, &err);
    CHECK_MSG(st == want && strstr(err.msg, what) && data == NULL && len == 0,
              "decode: expected %s naming '%s', got %s: %s", cuzk_status_str(want), what, cuzk_status_str(st), err.msg);
}

/* update.json with one member replaced by `value` (raw JSON) or removed (value NULL). */
static void json_with(const char *key, const char *value, const char *orig)
{
    json_error_t je;
    json_t *j = json_loads(orig, 0, &je);
    if (value)
        json_object_set_new(j, key, json_loads(value, JSON_DECODE_ANY, &je));
    else
        json_object_del(j, key);
    char *text = json_dumps(j, 0);
    CHECK(text && spit("up", "update.json", text, strlen(text)));
    free(text);
    json_decref(j);
}

static void test_refusals(void)
{
    /* encode */
    encode_refused("cc", RAW + 1, CUZK_ERR_INVALID_ARG, "holds at most");
    seal("full", true);
    encode_refused("full", 100, CUZK_ERR_MISMATCH, "not a committed-capacity sector");
    encode_refused("none", 100, CUZK_ERR_IO, "sector.json");
    saved s = save("cc", "sealed");
    CHECK(unlink(path_of("cc", "sealed")) == 0);
    encode_refused("cc", 100, CUZK_ERR_IO, "sealed");
    CHECK(spit("cc", "sealed", s.keep, s.len - 32));
    encode_refused("cc", 100, CUZK_ERR_FORMAT, "sealed");
    uint8_t *bad = malloc(s.len);
    memcpy(bad, s.keep, s.len);
    bad[7 * 32 + 3] ^= 1; /* another value at node 7: the replica no longer hashes to tree R */
    CHECK(spit("cc", "sealed", bad, s.len));
    encode_refused("cc", 100, CUZK_ERR_MISMATCH, "disagree");
    memset(bad + 9 * 32, 0xff, 32); /* node 9 is no field element */
    CHECK(spit("cc", "sealed", bad, s.len));
    encode_refused("cc", 100, CUZK_ERR_NOT_CANONICAL, "node 9");
    free(bad);
    restore(&s);
    s = save("cc", "sc-02-data-tree-r-last.dat");
    CHECK(unlink(path_of("cc", "sc-02-data-tree-r-last.dat")) == 0);
    encode_refused("cc", 100, CUZK_ERR_IO, "sc-02-data-tree-r-last.dat");
    restore(&s);
    s = save("cc", "p_aux");
    uint8_t paux[64];
    memcpy(paux, s.keep, 64);
    paux[40] ^= 1;
    CHECK(spit("cc", "p_aux", paux, 64));
    encode_refused("cc", 100, CUZK_ERR_MISMATCH, "comm_r");
    restore(&s);
    /* the sector's own directory as the output: its p_aux and tree R file would be replaced */
    cuzk_err_t err = {{0}};
    uint8_t one = 1;
    CHECK(cuzk_seal_snap_encode(path_of("cc", NULL), &one, 1, path_of("cc", NULL), 1, NULL, &err) ==
              CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "sealed sector's directory"));
    CHECK(cuzk_seal_snap_encode(path_of("cc", NULL), NULL, 5, path_of("x", NULL), 1, NULL, &err) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_seal_snap_encode(path_of("cc", NULL), &one, 1, path_of("x", NULL), -1, NULL, &err) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(nothing_in("x"));

    /* a failed encode into an existing update directory leaves it as it was */
    saved keep[5] = {save("up", "update"), save("up", "sc-02-data-tree-r-last.dat"),
                     save("up", "sc-02-data-tree-d.dat"), save("up", "p_aux"), save("up", "update.json")};
    CHECK(cuzk_seal_snap_encode(path_of("full", NULL), &one, 1, path_of("up", NULL), 1, NULL, &err) ==
          CUZK_ERR_MISMATCH);
    for (int i = 0; i < 5; i++)
        CHECK_MSG(same_file("up", keep[i].name, keep[i].keep, keep[i].len), "%s changed", keep[i].name);

    /* update.json and p_aux */
    char *orig = (char *)slurp("up", "update.json", NULL);
    json_with("comm_r_new", "\"00\"", orig);
    info_refused(CUZK_ERR_FORMAT, "comm_r_new");
    json_with("comm_d_new", "\"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff\"", orig);
    info_refused(CUZK_ERR_NOT_CANONICAL, "comm_d_new");
    json_with("h", "7", orig);
    info_refused(CUZK_ERR_FORMAT, "\"h\"");
    json_with("h", NULL, orig);
    info_refused(CUZK_ERR_FORMAT, "\"h\"");
    json_with("update_proof", "9", orig);
    info_refused(CUZK_ERR_FORMAT, "update_proof");
    json_with("sector_size", "4096", orig);
    info_refused(CUZK_ERR_FORMAT, "sector_size");
    json_with("sector_key_dir", "3", orig);
    info_refused(CUZK_ERR_FORMAT, "sector_key_dir");
    CHECK(spit("up", "update.json", orig, strlen(orig) / 2));
    info_refused(CUZK_ERR_FORMAT, "update.json");
    CHECK(unlink(path_of("up", "update.json")) == 0);
    info_refused(CUZK_ERR_IO, "update.json");
    decode_refused(CUZK_ERR_IO, "update.json");
    CHECK(spit("up", "update.json", orig, strlen(orig)));
    free(orig);
    memcpy(paux, keep[3].keep, 64);
    paux[33] ^= 1;
    CHECK(spit("up", "p_aux", paux, 64));
    info_refused(CUZK_ERR_MISMATCH, "comm_r_new");
    CHECK(spit("up", "p_aux", paux, 63));
    info_refused(CUZK_ERR_FORMAT, "p_aux");
    restore(&keep[3]);

    /* decode: a damaged replica, a short one, another sector as the key */
    bad = malloc(keep[0].len);
    memcpy(bad, keep[0].keep, keep[0].len);
    bad[5 * 32 + 1] ^= 4;
    CHECK(spit("up", "update", bad, keep[0].len));
    decode_refused(CUZK_ERR_MISMATCH, "update");
    CHECK(spit("up", "update", bad, keep[0].len - 1));
    decode_refused(CUZK_ERR_FORMAT, "update");
    free(bad);
    restore(&keep[0]);
    sh("mv '%s' '%s'", path_of("cc", NULL), path_of("cc.keep", NULL));
    seal("cc", false); /* another CC sector where the update's key was */
    decode_refused(CUZK_ERR_MISMATCH, "disagree");
    sh("rm -rf '%s'%s", path_of("cc", NULL), "");
    sh("mv '%s' '%s'", path_of("cc.keep", NULL), path_of("cc", NULL));
    uint8_t *data = NULL;
    size_t len = 0;
    CHECK(cuzk_seal_snap_decode(&data, &len, path_of("up", NULL), 1, NULL, &err) == CUZK_OK && len == RAW);
    free(data);
    for (int i = 0; i < 5; i++)
        free(keep[i].keep);
}

int main(int argc, char **argv)
{
    test_init("test_snap_encode");
    if (argc > 1 && strcmp(argv[1], "--8mib") == 0)
        sc = &SIZE_8MIB;
    snprintf(base, sizeof base, "/tmp/cuzk-test-snap-XXXXXX");
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 1;
    }
    seal("cc", false);
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_seal_sector_info(&cc, path_of("cc", NULL), &err) == CUZK_OK, "%s", err.msg);
    check_encode("up", RAW);             /* a full sector of data */
    check_encode("up2", 1 + test_rand_below(RAW - 1)); /* a piece, zeros after it */
    check_encode("up3", 0);              /* no data: the replica is unchanged, comm_d_new the zero comm_d */
    size_t a = 0, b = 0;
    uint8_t *x = slurp("up3", "update", &a), *y = slurp("cc", "sealed", &b);
    CHECK(x && y && a == b && memcmp(x, y, a) == 0);
    free(x);
    free(y);
    if (sc == &SIZE_2KIB)
        test_refusals();
    sh("rm -rf '%s'%s", base, "");
    return test_finish();
}
