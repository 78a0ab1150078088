/* A sealed 2KiB sector kept on disk and its Winning / Window PoSt vanilla proofs, against independent
 * oracles: the `sealed` file against the replica recomputed with the field arithmetic from the sealed
 * sector's data and last labels, tree-r-last, p_aux and comm_r_last against a tree hashed node by node
 * from the `sealed` file, t_aux read back field by field against the store configs filecoin-proofs writes
 * (sizes worked out by hand), sector.json read with jansson; every vanilla proof decodes, passes the
 * vanilla verifier, carries the sealed sector's comm_r, and each path's leaf is the `sealed` file's node
 * at the leaf that SHA-256 (libcrypto) of randomness ‖ sector ‖ challenge index selects, with the
 * challenge index of the proof's API version and sector index. Then tree R of several base trees (8-8-0,
 * 8-8-2) in files written here from a whole tree: paths equal the whole tree's. Bad input: missing,
 * short, corrupt and inconsistent files, foreign PoSt proofs and non-canonical randomness are refused
 * with messages naming the file, and nothing is returned. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/seal.h"
#include "ff/fr.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/registry/registered_proof.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/seal/post_vanilla.h"
#include "filecoin/seal/seal.h"
#include "filecoin/seal/sector_layout.h"
#include "filecoin/fc_post_test.h"
#include "filecoin/vanilla/post_vproof.h"
#include "test_util.h"

#define MINER 1000
#define SECTOR 7

static char dir[64];

/* The sector size under test, with its figures worked out by hand from filecoin-proofs' formulas:
 * tree D's and a base tree R's node counts (leaves included), the rows filecoin-proofs discards
 * (default_rows_to_discard: 3 rows → 1, more → 2) and the nodes tree-r-last keeps. */
typedef struct {
    const char *proof;
    uint64_t nodes, tree_d, tree_r;
    unsigned rows_to_discard;
    uint64_t kept;
} size_case;

static const size_case SIZE_2KIB = {"StackedDrg2KiBV1_1", 64, 127, 73, 1, 1};
static const size_case SIZE_8MIB = {"StackedDrg8MiBV1_1", 262144, 524287, 299593, 2, 585};
static const size_case *sc = &SIZE_2KIB;
#define NODES (sc->nodes)

static char *path_of(const char *name)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

static uint8_t *slurp(const char *name, size_t *len)
{
    return (uint8_t *)test_read_file(path_of(name), len);
}

static int spit(const char *name, const void *buf, size_t len)
{
    FILE *f = fopen(path_of(name), "wb");
    int ok = f && fwrite(buf, 1, len, f) == len;
    if (f)
        fclose(f);
    return ok;
}

static void rm_dir(const char *d)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", d);
}

/* ---- the oracles ---- */

/* Node by node: the levels of an arity-8 tree over n leaves, each group through cuzk_poseidon_node;
 * out gets every level above the leaves, level 1 first (n·8/7 nodes at most). */
static int whole_tree(uint8_t *out, const uint8_t *leaves, uint64_t n, unsigned arity)
{
    const uint8_t *in = leaves;
    for (uint64_t w = n; w > 1; w /= arity) {
        for (uint64_t g = 0; g < w / arity; g++)
            if (cuzk_poseidon_node(out + g * 32, arity, in + g * arity * 32, NULL) != CUZK_OK)
                return 0;
        in = out;
        out += w / arity * 32;
    }
    return 1;
}

/* ---- t_aux, read back ---- */

typedef struct {
    const uint8_t *p, *end;
    int ok;
} rd;

static uint64_t rd_u64(rd *r)
{
    if (r->end - r->p < 8) {
        r->ok = 0;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | r->p[i];
    r->p += 8;
    return v;
}

/* A bincode String equal to want. */
static void rd_str(rd *r, const char *want)
{
    uint64_t n = rd_u64(r);
    if (!r->ok || n != strlen(want) || (uint64_t)(r->end - r->p) < n || memcmp(r->p, want, n) != 0)
        r->ok = 0;
    else
        r->p += n;
}

static void rd_config(rd *r, const char *path, const char *id, uint64_t size, uint64_t rows)
{
    rd_str(r, path);
    rd_str(r, id);
    if (r->p >= r->end || *r->p++ != 1) /* Some */
        r->ok = 0;
    if (rd_u64(r) != size || rd_u64(r) != rows)
        r->ok = 0;
}

static void check_t_aux(const char *abs)
{
    size_t len = 0;
    uint8_t *t = slurp("t_aux", &len);
    rd r = {t, t + len, t != NULL};
    CHECK(rd_u64(&r) == 2); /* 2KiB and 8MiB: 2 layers */
    rd_config(&r, abs, "layer-1", NODES, 0);
    rd_config(&r, abs, "layer-2", NODES, 0);
    rd_config(&r, abs, "tree-d", sc->tree_d, 0);
    rd_config(&r, abs, "tree-r-last", sc->tree_r, sc->rows_to_discard);
    rd_config(&r, abs, "tree-c", sc->tree_r, 0);
    CHECK_MSG(r.ok && r.p == r.end, "t_aux is not the TemporaryAux filecoin-proofs writes");
    free(t);
}

/* ---- the sector on disk ---- */

static cuzk_sealed_sector_t *sealed_h;
static cuzk_fc_sealed_t sealed_s;
static uint8_t *replica;

static void test_files(void)
{
    const cuzk_fc_seal_proof_t *p = NULL;
    uint8_t prover_id[32], ticket[32];
    cuzk_err_t err = {{0}};
    CHECK(cuzk_fc_seal_proof_parse(&p, sc->proof, NULL) == CUZK_OK);
    size_t raw_len = NODES * 32 / 128 * 127;
    uint8_t *raw = malloc(raw_len);
    replica = malloc(NODES * 32);
    uint8_t *tree = malloc(NODES * 32 / 7 + 64);
    cuzk_fc_prover_id_from_miner(prover_id, MINER);
    test_rand_bytes(ticket, 32);
    test_rand_bytes(raw, raw_len);
    /* the same sector twice: the internal model (for the oracles) and the public handle (for the files) */
    CHECK(cuzk_fc_seal_precommit(&sealed_s, p, prover_id, SECTOR, ticket, raw, 0, &err) == CUZK_OK);
    cuzk_seal_request_t req = {.proof_id = p->id, .miner_id = MINER, .sector_num = SECTOR, .data = raw,
                               .data_len = raw_len, .threads = 0};
    memcpy(req.ticket, ticket, 32);
    CHECK(cuzk_seal_precommit(&sealed_h, &req, &err) == CUZK_OK);
    CHECK_MSG(cuzk_seal_write_sector(sealed_h, dir, &err) == CUZK_OK, "%s", err.msg);

    /* sealed: data + last label mod r, by the field arithmetic */
    free(raw);
    for (uint64_t i = 0; i < NODES; i++) {
        fr d, k;
        CHECK(fr_from_bytes_le(&d, sealed_s.data + i * 32) &&
              fr_from_bytes_le(&k, sealed_s.labels + (NODES + i) * 32));
        fr_add(&d, &d, &k);
        fr_to_bytes_le(replica + i * 32, &d);
    }
    size_t len = 0;
    uint8_t *f = slurp("sealed", &len);
    CHECK_MSG(f && len == NODES * 32 && memcmp(f, replica, len) == 0, "the sealed file is not the replica");
    free(f);
    /* tree R from the sealed file: tree-r-last keeps its last `kept` nodes (the root last) */
    uint64_t above = sc->tree_r - NODES;
    CHECK(whole_tree(tree, replica, NODES, 8));
    f = slurp("sc-02-data-tree-r-last.dat", &len);
    CHECK(f && len == sc->kept * 32 && memcmp(f, tree + (above - sc->kept) * 32, len) == 0 &&
          memcmp(f + len - 32, sealed_s.comm_r_last, 32) == 0);
    free(f);
    f = slurp("p_aux", &len);
    CHECK(f && len == 64 && memcmp(f, sealed_s.comm_c, 32) == 0 && memcmp(f + 32, tree + (above - 1) * 32, 32) == 0);
    free(f);
    free(tree);
    char *abs = realpath(dir, NULL);
    check_t_aux(abs);
    free(abs);

    /* sector.json by jansson, and the public reader */
    json_error_t je;
    json_t *j = json_load_file(path_of("sector.json"), 0, &je);
    char hex[65];
    uint8_t comm_d[32], comm_r[32];
    cuzk_seal_commitments(sealed_h, comm_d, comm_r);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", comm_r[i]);
    CHECK(j && json_integer_value(json_object_get(j, "version")) == 1 &&
          !strcmp(json_string_value(json_object_get(j, "registered_proof")), sc->proof) &&
          json_integer_value(json_object_get(j, "sector_size")) == (json_int_t)(NODES * 32) &&
          json_integer_value(json_object_get(j, "miner_id")) == MINER &&
          json_integer_value(json_object_get(j, "sector_num")) == SECTOR &&
          !strcmp(json_string_value(json_object_get(j, "comm_r")), hex));
    json_decref(j);
    cuzk_seal_sector_info_t info;
    CHECK(cuzk_seal_sector_info(&info, dir, &err) == CUZK_OK && info.seal_proof_id == p->id &&
          info.sector_size == NODES * 32 && info.miner_id == MINER && info.sector_num == SECTOR &&
          !memcmp(info.comm_r, comm_r, 32) && !memcmp(info.comm_d, comm_d, 32) && !memcmp(info.ticket, ticket, 32) &&
          !memcmp(info.comm_c, sealed_s.comm_c, 32) && !memcmp(info.comm_r_last, sealed_s.comm_r_last, 32));
}

/* ---- vanilla proofs ---- */

/* Proof id's vanilla proof for randomness and sector_index, decoded and checked against the oracles. */
static void check_vanilla(uint64_t id, unsigned challenges, cuzk_fc_api_t api, uint64_t sector_index)
{
    uint8_t rand[32];
    test_rand_fr_bytes(rand);
    uint8_t *buf = NULL;
    size_t len = 0;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_seal_post_vanilla(&buf, &len, dir, id, rand, sector_index, &err);
    CHECK_MSG(st == CUZK_OK, "PoSt proof %llu: %s", (unsigned long long)id, err.msg);
    cuzk_fc_post_vproof_t v;
    if (st != CUZK_OK || cuzk_fc_post_vproof_decode(&v, buf, len, NULL, &err) != CUZK_OK) {
        CHECK(0);
        free(buf);
        return;
    }
    cuzk_fc_post_params_t pp = {.sector_size = NODES * 32, .base_arity = 8, .challenge_count = challenges, .api = api,
                                .sector_index = sector_index};
    memcpy(pp.randomness, rand, 32);
    CHECK_MSG(cuzk_fc_post_vproof_verify(&v, &pp, &err) == CUZK_OK, "%s", err.msg);
    uint8_t comm_d[32], comm_r[32];
    cuzk_seal_commitments(sealed_h, comm_d, comm_r);
    CHECK(v.sector_id == SECTOR && !memcmp(v.comm_r, comm_r, 32) && v.n_sectors == 1 &&
          v.sectors[0].n_paths == challenges && !memcmp(v.sectors[0].comm_c, sealed_s.comm_c, 32));
    int ok = 1;
    for (unsigned n = 0; n < challenges && v.n_sectors == 1 && v.sectors[0].n_paths == challenges; n++) {
        uint64_t want = fc_test_post_leaf(rand, SECTOR, sector_index, challenges, n, api == CUZK_FC_API_V1_2, NODES);
        const cuzk_fc_merkle_path_t *p = &v.sectors[0].paths[n];
        ok &= fc_test_path_leaf(p) == want && memcmp(p->leaf, replica + want * 32, 32) == 0;
    }
    CHECK_MSG(ok, "PoSt proof %llu: a path opens another leaf than the challenge's", (unsigned long long)id);
    /* the same randomness with another sector index: the V1 challenges move, V1_2's do not */
    uint8_t *other = NULL;
    size_t olen = 0;
    CHECK(cuzk_seal_post_vanilla(&other, &olen, dir, id, rand, sector_index + 1, &err) == CUZK_OK);
    CHECK(other && (olen == len && memcmp(other, buf, len) == 0) == (api == CUZK_FC_API_V1_2));
    free(other);
    cuzk_fc_post_vproof_free(&v);
    free(buf);
}

/* The PoSt proofs of the size: Winning V1 (0, 1), Window V1 (5, 6), Window V1_2 (10, 11). */
static void test_vanilla(void)
{
    uint64_t k = sc == &SIZE_2KIB ? 0 : 1;
    check_vanilla(0 + k, 66, CUZK_FC_API_V1_0, 0);
    check_vanilla(5 + k, 10, CUZK_FC_API_V1_0, 0);
    check_vanilla(5 + k, 10, CUZK_FC_API_V1_0, 3);
    check_vanilla(10 + k, 10, CUZK_FC_API_V1_2, 0);
    check_vanilla(10 + k, 10, CUZK_FC_API_V1_2, 5);
}

/* ---- bad input ---- */

/* cuzk_seal_post_vanilla fails with want and a message holding what, returning nothing. */
static int refused(cuzk_status want, const char *what, uint64_t id, const uint8_t rand[32])
{
    uint8_t *buf = (uint8_t *)1;
    size_t len = 1;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_seal_post_vanilla(&buf, &len, dir, id, rand, 0, &err);
    int ok = st == want && buf == NULL && len == 0 && strstr(err.msg, what) != NULL;
    if (!ok)
        fprintf(stderr, "expected %s naming '%s', got %s: %s\n", cuzk_status_str(want), what, cuzk_status_str(st),
                err.msg);
    return ok;
}

/* Replaces a file's bytes for one check, then puts them back. */
typedef struct {
    const char *name;
    uint8_t *keep;
    size_t len;
} saved;

static saved save(const char *name)
{
    saved s = {name, NULL, 0};
    s.keep = slurp(name, &s.len);
    return s;
}

static void restore(saved *s)
{
    CHECK(s->keep && spit(s->name, s->keep, s->len));
    free(s->keep);
}

static void test_refusals(void)
{
    uint8_t rand[32];
    test_rand_fr_bytes(rand);
    uint8_t bad_rand[32];
    memset(bad_rand, 0xff, 32);
    CHECK(refused(CUZK_ERR_NOT_CANONICAL, "randomness", 10, bad_rand));
    CHECK(refused(CUZK_ERR_INVALID_ARG, "99", 99, rand));
    CHECK(refused(CUZK_ERR_MISMATCH, "2KiB", 13, rand)); /* a 32GiB PoSt */

    saved s = save("sealed");
    CHECK(unlink(path_of("sealed")) == 0 && refused(CUZK_ERR_IO, "sealed", 10, rand));
    CHECK(spit("sealed", s.keep, s.len - 32) && refused(CUZK_ERR_FORMAT, "sealed", 10, rand));
    uint8_t *c = malloc(s.len);
    memcpy(c, s.keep, s.len);
    c[5 * 32 + 3] ^= 1; /* a node changes: the replica no longer hashes to the tree's kept row */
    CHECK(spit("sealed", c, s.len) && refused(CUZK_ERR_MISMATCH, "sc-02-data-tree-r-last.dat", 10, rand));
    memset(c + 5 * 32, 0xff, 32);
    CHECK(spit("sealed", c, s.len) && refused(CUZK_ERR_NOT_CANONICAL, "node 5", 10, rand));
    free(c);
    restore(&s);

    s = save("sc-02-data-tree-r-last.dat");
    CHECK(unlink(path_of(s.name)) == 0 && refused(CUZK_ERR_IO, s.name, 10, rand));
    CHECK(spit(s.name, s.keep, 0) && refused(CUZK_ERR_FORMAT, s.name, 10, rand));
    uint8_t root[32];
    test_rand_fr_bytes(root);
    CHECK(spit(s.name, root, 32) && refused(CUZK_ERR_MISMATCH, "comm_r_last", 10, rand));
    restore(&s);

    s = save("p_aux");
    CHECK(unlink(path_of(s.name)) == 0 && refused(CUZK_ERR_IO, "p_aux", 10, rand));
    CHECK(spit(s.name, s.keep, 63) && refused(CUZK_ERR_FORMAT, "p_aux", 10, rand));
    uint8_t aux[64];
    memcpy(aux, s.keep, 64);
    aux[0] ^= 1;
    CHECK(spit(s.name, aux, 64) && refused(CUZK_ERR_MISMATCH, "comm_r", 10, rand));
    memset(aux, 0xff, 32);
    CHECK(spit(s.name, aux, 64) && refused(CUZK_ERR_NOT_CANONICAL, "comm_c", 10, rand));
    restore(&s);

    s = save("sector.json");
    CHECK(unlink(path_of(s.name)) == 0 && refused(CUZK_ERR_IO, "sector.json", 10, rand));
    CHECK(spit(s.name, "{", 1) && refused(CUZK_ERR_FORMAT, "sector.json", 10, rand));
    char *t = malloc(s.len + 1);
    memcpy(t, s.keep, s.len);
    t[s.len] = 0;
    static const struct {
        const char *from, *to, *what;
    } edits[] = {{"\"sector_num\"", "\"sector_nom\"", "sector_num"},
                 {"StackedDrg2KiBV1_1", "StackedDrg3KiBV1_1", "registered_proof"},
                 {"\"sector_size\": 2048", "\"sector_size\": 4096", "sector_size"},
                 {"\"version\": 1", "\"version\": 2", "version"},
                 {"\"comm_r\": \"", "\"comm_r\": \"x", "comm_r"}};
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        char buf[1024];
        const char *at = strstr(t, edits[i].from);
        CHECK(at != NULL);
        if (!at)
            continue;
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - t), t, edits[i].to, at + strlen(edits[i].from));
        CHECK(spit(s.name, buf, strlen(buf)) && refused(CUZK_ERR_FORMAT, edits[i].what, 10, rand));
    }
    free(t);
    restore(&s);
    /* everything back: the directory works again */
    uint8_t *buf = NULL;
    size_t len = 0;
    CHECK(cuzk_seal_post_vanilla(&buf, &len, dir, 10, rand, 0, NULL) == CUZK_OK && buf);
    free(buf);

    /* nothing written where the directory cannot be made */
    char under_file[128];
    snprintf(under_file, sizeof under_file, "%s/sector.json/sub", dir);
    cuzk_err_t err;
    CHECK(cuzk_seal_write_sector(sealed_h, under_file, &err) == CUZK_ERR_IO && strstr(err.msg, "sector.json"));
}

/* ---- several base trees ---- */

/* Tree R of shape 8-sub-top over `trees` base trees of 4096 random leaves (height 4: two rows discarded,
 * levels 3 and 4 kept), written as filecoin-proofs' files from whole trees hashed here; the paths of
 * cuzk_fc_post_vanilla_from_tree equal the whole tree's. */
static void test_base_trees(unsigned sub, unsigned top)
{
    const uint32_t trees = sub * (top ? top : 1);
    const uint64_t per = 4096, nodes = per * trees;
    uint8_t *leaves = malloc(nodes * 32), *upper = malloc((size_t)trees * 585 * 32);
    uint8_t roots[16 * 32], subs[2 * 32], root[32];
    CHECK(leaves && upper);
    if (!leaves || !upper) {
        free(leaves), free(upper);
        return;
    }
    for (uint64_t i = 0; i < nodes; i++)
        test_rand_fr_bytes(leaves + i * 32);
    cuzk_fc_tree_r_layout_t l;
    CHECK(cuzk_fc_tree_r_layout(&l, nodes, 8, sub, top, NULL) == CUZK_OK && l.base_trees == trees &&
          l.rows_to_discard == 2 && l.cached_nodes == 9);
    /* level 1: 512 nodes, 2: 64, 3: 8, 4: the root (585 above the leaves) */
    for (uint32_t t = 0; t < trees; t++) {
        uint8_t *u = upper + (size_t)t * 585 * 32;
        CHECK(whole_tree(u, leaves + t * per * 32, per, 8));
        memcpy(roots + t * 32, u + 584 * 32, 32);
        char name[64];
        cuzk_fc_tree_r_file_name(name, sizeof name, &l, t);
        CHECK(spit(name, u + 576 * 32, 9 * 32));
    }
    CHECK(spit("sealed", leaves, nodes * 32));
    for (uint32_t g = 0; g < trees / sub; g++)
        CHECK(cuzk_poseidon_node(subs + g * 32, sub, roots + g * sub * 32, NULL) == CUZK_OK);
    if (top)
        CHECK(cuzk_poseidon_node(root, top, subs, NULL) == CUZK_OK);
    else
        memcpy(root, subs, 32);
    uint8_t comm_c[32], two[64], comm_r[32];
    test_rand_fr_bytes(comm_c);
    memcpy(two, comm_c, 32);
    memcpy(two + 32, root, 32);
    CHECK(cuzk_poseidon_node(comm_r, 2, two, NULL) == CUZK_OK);

    cuzk_fc_post_params_t pp = {.sector_size = nodes * 32, .base_arity = 8, .sub_arity = sub, .top_arity = top,
                                .challenge_count = 10, .api = CUZK_FC_API_V1_2};
    test_rand_fr_bytes(pp.randomness);
    uint8_t *buf = NULL;
    size_t len = 0;
    cuzk_err_t err = {{0}};
    cuzk_fc_post_vproof_t v;
    CHECK_MSG(cuzk_fc_post_vanilla_from_tree(&buf, &len, dir, NULL, 42, comm_c, root, comm_r, &pp, &err) == CUZK_OK,
              "8-%u-%u: %s", sub, top, err.msg);
    CHECK(buf && cuzk_fc_post_vproof_decode(&v, buf, len, NULL, &err) == CUZK_OK);
    int ok = buf != NULL;
    for (unsigned n = 0; buf && n < 10; n++) {
        const cuzk_fc_merkle_path_t *p = &v.sectors[0].paths[n];
        uint64_t leaf = fc_test_post_leaf(pp.randomness, 42, 0, 10, n, 1, nodes), t = leaf / per, i = leaf % per;
        const uint8_t *u = upper + t * 585 * 32, *s = p->siblings;
        ok &= p->n_base == 4 && p->n_sub == 1 && p->n_top == (top != 0) && !memcmp(p->leaf, leaves + leaf * 32, 32);
        /* base levels: the whole tree's groups; then the other roots; then the other sub nodes */
        const uint8_t *level = leaves + t * per * 32;
        uint64_t w = per, off = 0;
        for (int lv = 0; lv < 4; lv++) {
            for (uint64_t j = i / 8 * 8; j < i / 8 * 8 + 8; j++)
                if (j != i) {
                    ok &= memcmp(s, level + j * 32, 32) == 0;
                    s += 32;
                }
            level = u + off * 32;
            off += w / 8;
            w /= 8;
            i /= 8;
        }
        for (uint64_t j = t / sub * sub; j < t / sub * sub + sub; j++)
            if (j != t) {
                ok &= memcmp(s, roots + j * 32, 32) == 0;
                s += 32;
            }
        for (uint64_t j = 0; top && j < top; j++)
            if (j != t / sub) {
                ok &= memcmp(s, subs + j * 32, 32) == 0;
                s += 32;
            }
    }
    CHECK_MSG(ok, "8-%u-%u: the paths are not the whole tree's", sub, top);
    if (buf)
        cuzk_fc_post_vproof_free(&v);
    free(buf);
    /* a kept node changed: the recomputed subtree no longer matches it */
    char name[64];
    cuzk_fc_tree_r_file_name(name, sizeof name, &l, 1);
    uint8_t bad[9 * 32];
    memcpy(bad, upper + (585 + 576) * 32, sizeof bad);
    for (int k = 0; k < 8; k++)
        bad[k * 32] ^= 1;
    CHECK(spit(name, bad, sizeof bad));
    /* every challenge under base tree 1 now fails; look for one */
    for (int tries = 0; tries < 64; tries++) {
        test_rand_fr_bytes(pp.randomness);
        int hits = 0;
        for (unsigned n = 0; n < 10; n++)
            hits += fc_test_post_leaf(pp.randomness, 42, 0, 10, n, 1, nodes) / per == 1;
        if (!hits)
            continue;
        CHECK(cuzk_fc_post_vanilla_from_tree(&buf, &len, dir, NULL, 42, comm_c, root, comm_r, &pp, &err) ==
                  CUZK_ERR_MISMATCH &&
              strstr(err.msg, name) && buf == NULL);
        break;
    }
    for (uint32_t t = 0; t < trees; t++) {
        cuzk_fc_tree_r_file_name(name, sizeof name, &l, t);
        unlink(path_of(name));
    }
    free(leaves);
    free(upper);
}

int main(int argc, char **argv)
{
    test_init("test_seal_post");
    if (argc > 1 && strcmp(argv[1], "--8mib") == 0)
        sc = &SIZE_8MIB;
    snprintf(dir, sizeof dir, "/tmp/cuzk-test-seal-post-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_files();
    test_vanilla();
    if (sc == &SIZE_2KIB)
        test_refusals();
    cuzk_seal_free(sealed_h);
    cuzk_fc_sealed_free(&sealed_s);
    free(replica);
    rm_dir(dir);
    if (sc != &SIZE_2KIB)
        return test_finish();
    snprintf(dir, sizeof dir, "/tmp/cuzk-test-seal-post-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_base_trees(8, 0);
    test_base_trees(8, 2);
    rm_dir(dir);
    return test_finish();
}
