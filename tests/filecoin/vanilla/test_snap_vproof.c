/* The SnapDeals PartitionProof codec against bytes written field by field here, straight from the serde
 * layout of storage-proofs-update src/vanilla.rs (PartitionProof { comm_c, apex_leafs, challenge_proofs },
 * ChallengeProof { proof_r_old, proof_d_new, proof_r_new }) and storage-proofs-core src/merkle/proof.rs
 * (MerkleProof's ProofData enum Single / Sub / Top, InclusionPath, PathElement { hashes, index }) under
 * bincode 1's defaults (little-endian integers, u64 lengths, u32 enum tags):
 * - random streams (tree-R proofs Single / Sub / Top of arities 2-16, binary tree-D proofs, 0-130 apex
 *   leaves, 0-12 challenges) decode to exactly the values written (every root, leaf, sibling, arity and
 *   index, read back at the offsets the writer recorded) and re-encode to themselves;
 * - truncation at every offset, a trailing byte, corrupted fields (MerkleProof kind, level count, sibling
 *   count, a tree-D level of another arity, an index not below its arity, counts near 2^64) are
 *   CUZK_ERR_FORMAT naming the byte, the field, the challenge and the path, with nothing allocated;
 * - the file form Vec<PartitionProof> through cuzk_snap_vanilla_load_all and the list decoder (more than
 *   max: CUZK_ERR_BAD_LENGTH; trailing bytes; a missing file: CUZK_ERR_IO naming it), cuzk_snap_vanilla_parse
 *   and _info against the writer's values;
 * - the writer refuses paths it cannot write (wrong hash, bad index, a buffer too small). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/file.h"
#include "cuzk/snap.h"
#include "filecoin/vanilla/snap_vproof.h"
#include "filecoin/vanilla/snap_vproof_write.h"
#include "filecoin/fc_bincode_test.h"
#include "test_util.h"

/* ---- a stream written field by field, with where each value went ---- */

/* What the writer put where for one MerkleProof. */
typedef struct {
    size_t at;                  /* the kind's offset */
    uint32_t kind, n[3];        /* levels of the base / sub / top path */
    unsigned levels, arity[64], index[64];
    size_t sib_at[64];          /* each level's siblings */
    size_t count_at[64];        /* each level's sibling count */
    size_t index_at[64];        /* each level's index */
    size_t levels_at[3];        /* each path's level count */
    size_t root_at, leaf_at;
} rec_path;

/* InclusionPath: u64 levels, each u64 n_siblings, siblings, u64 index. */
static void s_part(fc_stream_t *s, rec_path *r, int part, unsigned levels, int binary)
{
    static const unsigned arities[4] = {2, 4, 8, 16};
    r->levels_at[part] = s->len;
    fc_stream_u64(s, levels);
    for (unsigned i = 0; i < levels; i++, r->levels++) {
        unsigned a = binary ? 2 : arities[test_rand_below(4)], l = r->levels;
        r->arity[l] = a;
        r->count_at[l] = s->len;
        fc_stream_u64(s, a - 1);
        r->sib_at[l] = s->len;
        fc_stream_rand(s, (size_t)(a - 1) * 32);
        r->index[l] = (unsigned)test_rand_below(a);
        r->index_at[l] = s->len;
        fc_stream_u64(s, r->index[l]);
    }
    r->n[part] = levels;
}

/* MerkleProof: u32 variant; Single: root, leaf, path; Sub: base, sub, root, leaf; Top: base, sub, top, root,
 * leaf. binary: a tree-D proof (Single, arity 2). */
static void s_merkle_proof(fc_stream_t *s, rec_path *r, int binary)
{
    memset(r, 0, sizeof *r);
    r->at = s->len;
    r->kind = binary ? 0 : (uint32_t)test_rand_below(3);
    fc_stream_u32(s, r->kind);
    if (r->kind == 0) {
        r->root_at = s->len;
        r->leaf_at = s->len + 32;
        fc_stream_rand(s, 64);
        s_part(s, r, 0, (unsigned)test_rand_below(binary ? 31 : 12), binary);
        return;
    }
    s_part(s, r, 0, (unsigned)test_rand_below(12), 0);
    s_part(s, r, 1, 1, 0);
    if (r->kind == 2)
        s_part(s, r, 2, 1, 0);
    r->root_at = s->len;
    r->leaf_at = s->len + 32;
    fc_stream_rand(s, 64);
}

#define MAX_CH 12

typedef struct {
    fc_stream_t s;
    size_t apex_count_at, ch_count_at;
    unsigned n_apex, n_ch;
    rec_path p[MAX_CH][3];
} rec_proof;

static void random_proof(rec_proof *r, unsigned n_apex, unsigned n_ch)
{
    memset(r, 0, sizeof *r);
    fc_stream_rand(&r->s, 32); /* comm_c */
    r->apex_count_at = r->s.len;
    r->n_apex = n_apex;
    fc_stream_u64(&r->s, n_apex);
    for (unsigned j = 0; j < n_apex; j++)
        fc_stream_rand(&r->s, 32);
    r->ch_count_at = r->s.len;
    r->n_ch = n_ch;
    fc_stream_u64(&r->s, n_ch);
    for (unsigned i = 0; i < n_ch; i++)
        for (int w = 0; w < 3; w++)
            s_merkle_proof(&r->s, &r->p[i][w], w == 1);
}

/* ---- checks ---- */

static const cuzk_fc_merkle_path_t *path_of(const cuzk_fc_snap_vproof_t *v, unsigned i, int w)
{
    return w == 0 ? &v->challenges[i].r_old : w == 1 ? &v->challenges[i].d_new : &v->challenges[i].r_new;
}

/* Every decoded value is the one written at its recorded offset. */
static int same_values(const cuzk_fc_snap_vproof_t *v, const rec_proof *r)
{
    const uint8_t *b = r->s.buf;
    if (memcmp(v->comm_c, b, 32) != 0 || v->n_apex != r->n_apex || v->n_challenges != r->n_ch)
        return 0;
    if (r->n_apex && memcmp(v->apex, b + r->apex_count_at + 8, (size_t)r->n_apex * 32) != 0)
        return 0;
    for (unsigned i = 0; i < r->n_ch; i++)
        for (int w = 0; w < 3; w++) {
            const cuzk_fc_merkle_path_t *p = path_of(v, i, w);
            const rec_path *q = &r->p[i][w];
            if (p->hash != (w == 1 ? CUZK_FC_MERKLE_SHA256 : CUZK_FC_MERKLE_POSEIDON) || p->n_base != q->n[0] ||
                p->n_sub != q->n[1] || p->n_top != q->n[2] || memcmp(p->root, b + q->root_at, 32) != 0 ||
                memcmp(p->leaf, b + q->leaf_at, 32) != 0)
                return 0;
            const uint8_t *sib = p->siblings;
            for (unsigned l = 0; l < q->levels; l++) {
                if (p->steps[l].arity != q->arity[l] || p->steps[l].index != q->index[l] ||
                    memcmp(sib, b + q->sib_at[l], (size_t)(q->arity[l] - 1) * 32) != 0)
                    return 0;
                sib += (size_t)(q->arity[l] - 1) * 32;
            }
        }
    return 1;
}

/* decode(buf) re-encodes to buf exactly, by both entry points; 1 when so. */
static int round_trips(const cuzk_fc_snap_vproof_t *v, const uint8_t *buf, size_t len)
{
    cuzk_err_t err;
    uint8_t *out = NULL, *into = malloc(len + 1);
    size_t out_len = 0, into_len = 0;
    int ok = cuzk_fc_snap_vproof_encoded_len(v) == len &&
             cuzk_fc_snap_vproof_encode(&out, &out_len, v, &err) == CUZK_OK && out_len == len &&
             memcmp(out, buf, len) == 0 && into &&
             cuzk_fc_snap_vproof_encode_into(into, len + 1, &into_len, v, &err) == CUZK_OK && into_len == len &&
             memcmp(into, buf, len) == 0;
    ok &= cuzk_fc_snap_vproof_encode_into(into, len - 1, &into_len, v, &err) == CUZK_ERR_BAD_LENGTH && into_len == 0;
    free(out);
    free(into);
    return ok;
}

static void test_random_streams(void)
{
    int bad = 0;
    for (int t = 0; t < 200; t++) {
        rec_proof *r = malloc(sizeof *r);
        random_proof(r, (unsigned)test_rand_below(131), (unsigned)test_rand_below(MAX_CH + 1));
        cuzk_fc_snap_vproof_t v;
        cuzk_err_t err;
        size_t used = 0;
        cuzk_status st = cuzk_fc_snap_vproof_decode(&v, r->s.buf, r->s.len, NULL, &err);
        int ok = st == CUZK_OK && same_values(&v, r) && round_trips(&v, r->s.buf, r->s.len);
        if (!ok && bad++ < 3)
            fprintf(stderr, "stream %d (%zu bytes): %s\n", t, r->s.len, st == CUZK_OK ? "values differ" : err.msg);
        cuzk_fc_snap_vproof_free(&v);
        /* with consumed: the same length, bytes after it left alone */
        fc_stream_rand(&r->s, 5);
        st = cuzk_fc_snap_vproof_decode(&v, r->s.buf, r->s.len, &used, &err);
        ok = st == CUZK_OK && used == r->s.len - 5 && same_values(&v, r);
        if (!ok && bad++ < 3)
            fprintf(stderr, "stream %d with consumed: %s\n", t, err.msg);
        cuzk_fc_snap_vproof_free(&v);
        free(r->s.buf);
        free(r);
    }
    CHECK_MSG(bad == 0, "%d random PartitionProof streams not decoded to their values or not re-encoded", bad);
}

/* Every cut of a small proof is refused as truncated, with nothing allocated; one byte more as trailing. */
static void test_truncated(void)
{
    rec_proof *r = malloc(sizeof *r);
    random_proof(r, 8, 2);
    size_t len = r->s.len;
    int bad = 0;
    for (size_t cut = 0; cut < len; cut++) {
        uint8_t *t = malloc(cut ? cut : 1); /* exactly the size: ASan sees any over-read */
        memcpy(t, r->s.buf, cut);
        cuzk_fc_snap_vproof_t v;
        cuzk_err_t err;
        cuzk_status st = cuzk_fc_snap_vproof_decode(&v, t, cut, NULL, &err);
        if (!(st == CUZK_ERR_FORMAT && v.storage == NULL && v.challenges == NULL && strstr(err.msg, "truncated") &&
              strstr(err.msg, "byte")) &&
            bad++ < 3)
            fprintf(stderr, "cut at %zu of %zu: status %d: %s\n", cut, len, (int)st, err.msg);
        free(t);
    }
    CHECK_MSG(bad == 0, "%d truncations of a %zu-byte proof not refused as truncated", bad, len);
    /* a cut inside challenge 1's tree D path names them */
    cuzk_fc_snap_vproof_t v;
    cuzk_err_t err;
    CHECK(cuzk_fc_snap_vproof_decode(&v, r->s.buf, r->p[1][1].leaf_at + 10, NULL, &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "challenge 1") && strstr(err.msg, "tree D new"));
    fc_stream_rand(&r->s, 1);
    CHECK(cuzk_fc_snap_vproof_decode(&v, r->s.buf, r->s.len, NULL, &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "trailing") && v.storage == NULL);
    CHECK(cuzk_fc_snap_vproof_decode(NULL, r->s.buf, len, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_snap_vproof_decode(&v, NULL, 5, NULL, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_fc_snap_vproof_free(NULL);
    free(r->s.buf);
    free(r);
}

static void put_u64_at(uint8_t *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

/* Corrupted structure fields: each refused naming what is wrong. */
static void test_bad_fields(void)
{
    rec_proof *r = calloc(1, sizeof *r);
    /* a proof whose challenge 0 tree R old path is a Sub proof with levels */
    do {
        free(r->s.buf);
        random_proof(r, 8, 3);
    } while (r->p[0][0].kind != 1 || r->p[0][0].n[0] == 0 || r->p[1][1].n[0] == 0);
    size_t len = r->s.len;
    uint8_t *copy = malloc(len);
    const rec_path *ro = &r->p[0][0], *dn = &r->p[1][1];
    struct {
        size_t off;
        uint64_t val;
        int width;
        const char *msg, *msg2;
    } cases[] = {
        {r->apex_count_at, 1ull << 62, 8, "apex leaves", "truncated"},     /* 2^62 apex leaves */
        {r->apex_count_at, ~0ull, 8, "apex leaves", "truncated"},          /* 2^64 − 1: no overflow */
        {r->ch_count_at, 1ull << 63, 8, "truncated", "challenge 3"},       /* the 4th reads past the end */
        {ro->at, 3, 4, "kind 3", "challenge 0, tree R old"},
        {ro->levels_at[0], 65, 8, "65 levels", "tree R old"},
        {ro->levels_at[1], 64, 8, "levels", "sub path"},                   /* base + sub > 64 */
        {ro->count_at[0], 5, 8, "5 siblings", "byte"},
        {ro->index_at[0], ro->arity[0], 8, "index", "arity"},
        {dn->count_at[0], 3, 8, "binary SHA-256", "challenge 1, tree D new"}, /* tree D: arity 2 only */
        {dn->at, 1, 4, "truncated", "tree D new"},                          /* a Sub proof's layout: misread */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        memcpy(copy, r->s.buf, len);
        if (cases[c].width == 8)
            put_u64_at(copy + cases[c].off, cases[c].val);
        else
            copy[cases[c].off] = (uint8_t)cases[c].val;
        cuzk_fc_snap_vproof_t v;
        cuzk_err_t err = {{0}};
        cuzk_status st = cuzk_fc_snap_vproof_decode(&v, copy, len, NULL, &err);
        CHECK_MSG((st == CUZK_ERR_FORMAT && strstr(err.msg, cases[c].msg) && strstr(err.msg, cases[c].msg2) &&
                   v.storage == NULL) ||
                      (c == sizeof cases / sizeof *cases - 1 && st == CUZK_ERR_FORMAT),
                  "case %zu (byte %zu): status %d: %s", c, cases[c].off, (int)st, err.msg);
        cuzk_fc_snap_vproof_free(&v);
    }
    free(copy);
    free(r->s.buf);
    free(r);
}

/* ---- the public handle and the file form ---- */

static char tmpdir[64];

static char *tmp_path(const char *name)
{
    static char buf[4][128];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, 128, "%s/%s", tmpdir, name);
    return p;
}

static void test_files(void)
{
    enum { N = 4 };
    rec_proof *r = malloc(N * sizeof *r);
    fc_stream_t file = {0};
    fc_stream_u64(&file, N);
    for (int k = 0; k < N; k++) {
        random_proof(&r[k], 8, 1 + (unsigned)test_rand_below(4));
        fc_stream_bytes(&file, r[k].s.buf, r[k].s.len);
    }
    cuzk_err_t err = {{0}};
    CHECK(cuzk_atomic_write_file(tmp_path("v"), file.buf, file.len, &err) == CUZK_OK);
    cuzk_snap_vanilla_t *v[CUZK_SNAP_MAX_PARTITIONS];
    size_t n = 99;
    cuzk_status st = cuzk_snap_vanilla_load_all(v, CUZK_SNAP_MAX_PARTITIONS, &n, tmp_path("v"), &err);
    CHECK_MSG(st == CUZK_OK && n == N, "load_all: %s", err.msg);
    for (size_t k = 0; st == CUZK_OK && k < n; k++) {
        CHECK(same_values(&v[k]->v, &r[k]));
        cuzk_snap_vanilla_info_t info;
        cuzk_snap_vanilla_info(&info, v[k]);
        const rec_path *p0 = &r[k].p[0][0], *d0 = &r[k].p[0][1], *n0 = &r[k].p[0][2];
        const uint8_t *b = r[k].s.buf;
        CHECK(memcmp(info.comm_c, b, 32) == 0 && info.n_apex_leaves == 8 && info.n_challenges == r[k].n_ch &&
              memcmp(info.root_r_old, b + p0->root_at, 32) == 0 && memcmp(info.comm_d_new, b + d0->root_at, 32) == 0 &&
              memcmp(info.root_r_new, b + n0->root_at, 32) == 0 && info.tree_r_levels == p0->levels &&
              info.tree_d_levels == d0->levels);
    }
    for (size_t k = 0; k < n; k++)
        cuzk_snap_vanilla_free(v[k]);
    /* the list decoder re-joined by the writer: the same bytes */
    cuzk_fc_snap_vproof_t parts[N];
    uint8_t *enc[N] = {0}, *joined = NULL;
    size_t lens[N] = {0}, jlen = 0;
    CHECK(cuzk_fc_snap_vproof_list_decode(parts, N, &n, file.buf, file.len, &err) == CUZK_OK && n == N);
    for (int k = 0; k < N; k++)
        CHECK(cuzk_fc_snap_vproof_encode(&enc[k], &lens[k], &parts[k], &err) == CUZK_OK);
    CHECK(cuzk_fc_snap_vproof_list_join(&joined, &jlen, (const uint8_t *const *)enc, lens, N, &err) == CUZK_OK &&
          jlen == file.len && memcmp(joined, file.buf, jlen) == 0);
    for (int k = 0; k < N; k++) {
        cuzk_fc_snap_vproof_free(&parts[k]);
        free(enc[k]);
    }
    free(joined);
    /* more than max: BAD_LENGTH, every out[i] NULL */
    st = cuzk_snap_vanilla_load_all(v, 3, &n, tmp_path("v"), &err);
    CHECK(st == CUZK_ERR_BAD_LENGTH && n == 0 && !v[0] && !v[1] && !v[2]);
    /* a damaged third proof: FORMAT naming the file and the partition proof, nothing returned */
    size_t third = 8 + r[0].s.len + r[1].s.len;
    file.buf[third + r[2].p[0][0].at] = 7;
    CHECK(cuzk_atomic_write_file(tmp_path("bad"), file.buf, file.len, &err) == CUZK_OK);
    st = cuzk_snap_vanilla_load_all(v, CUZK_SNAP_MAX_PARTITIONS, &n, tmp_path("bad"), &err);
    CHECK_MSG(st == CUZK_ERR_FORMAT && n == 0 && !v[0] && strstr(err.msg, "partition proof 2") &&
                  strstr(err.msg, tmp_path("bad")) && strstr(err.msg, "kind 7"),
              "%s", err.msg);
    file.buf[third + r[2].p[0][0].at] = (uint8_t)r[2].p[0][0].kind;
    /* trailing bytes, a cut file, a missing file */
    fc_stream_rand(&file, 3);
    CHECK(cuzk_atomic_write_file(tmp_path("long"), file.buf, file.len, &err) == CUZK_OK);
    CHECK(cuzk_snap_vanilla_load_all(v, CUZK_SNAP_MAX_PARTITIONS, &n, tmp_path("long"), &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "trailing"));
    CHECK(cuzk_atomic_write_file(tmp_path("cut"), file.buf, file.len - 40, &err) == CUZK_OK);
    CHECK(cuzk_snap_vanilla_load_all(v, CUZK_SNAP_MAX_PARTITIONS, &n, tmp_path("cut"), &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "truncated"));
    CHECK(cuzk_snap_vanilla_load_all(v, CUZK_SNAP_MAX_PARTITIONS, &n, tmp_path("none"), &err) == CUZK_ERR_IO &&
          strstr(err.msg, tmp_path("none")));
    /* an empty list is a list */
    CHECK(cuzk_atomic_write_file(tmp_path("empty"), file.buf, 0, &err) == CUZK_OK);
    CHECK(cuzk_snap_vanilla_load_all(v, 1, &n, tmp_path("empty"), &err) == CUZK_ERR_FORMAT);
    uint8_t zero[8] = {0};
    CHECK(cuzk_atomic_write_file(tmp_path("zero"), zero, 8, &err) == CUZK_OK);
    CHECK(cuzk_snap_vanilla_load_all(v, 1, &n, tmp_path("zero"), &err) == CUZK_OK && n == 0);
    /* parse: one proof exactly */
    cuzk_snap_vanilla_t *one = NULL;
    CHECK(cuzk_snap_vanilla_parse(&one, r[0].s.buf, r[0].s.len, &err) == CUZK_OK && one && same_values(&one->v, &r[0]));
    cuzk_snap_vanilla_free(one);
    CHECK(cuzk_snap_vanilla_parse(&one, file.buf, file.len, &err) == CUZK_ERR_FORMAT && one == NULL);
    cuzk_snap_vanilla_free(NULL);
    static const char *const names[] = {"v", "bad", "long", "cut", "empty", "zero"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        unlink(tmp_path(names[i]));
    for (int k = 0; k < N; k++)
        free(r[k].s.buf);
    free(r);
    free(file.buf);
}

/* The writer refuses what it cannot write. */
static void test_writer_refusals(void)
{
    rec_proof *r = malloc(sizeof *r);
    random_proof(r, 2, 2);
    cuzk_fc_snap_vproof_t v;
    cuzk_err_t err;
    CHECK(cuzk_fc_snap_vproof_decode(&v, r->s.buf, r->s.len, NULL, &err) == CUZK_OK);
    uint8_t *out = NULL;
    size_t len = 7;
    v.challenges[1].d_new.hash = CUZK_FC_MERKLE_POSEIDON;
    CHECK(cuzk_fc_snap_vproof_encode(&out, &len, &v, &err) == CUZK_ERR_INVALID_ARG && !out && len == 0 &&
          strstr(err.msg, "challenge 1, tree D new"));
    v.challenges[1].d_new.hash = CUZK_FC_MERKLE_SHA256;
    v.challenges[0].r_new.hash = CUZK_FC_MERKLE_SHA256;
    CHECK(cuzk_fc_snap_vproof_encode(&out, &len, &v, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "tree R new"));
    CHECK(cuzk_fc_snap_vproof_encoded_len(&v) == 0);
    v.challenges[0].r_new.hash = CUZK_FC_MERKLE_POSEIDON;
    if (v.challenges[0].d_new.n_base) {
        v.challenges[0].d_new.steps[0].index = 2;
        CHECK(cuzk_fc_snap_vproof_encode(&out, &len, &v, &err) == CUZK_ERR_INVALID_ARG &&
              strstr(err.msg, "challenge 0, tree D new"));
        v.challenges[0].d_new.steps[0].index = 0;
    }
    CHECK(cuzk_fc_snap_vproof_encode(NULL, &len, &v, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_snap_vproof_encode_into(NULL, 10, &len, &v, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_snap_vproof_list_join(&out, &len, NULL, NULL, 1, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_fc_snap_vproof_free(&v);
    free(r->s.buf);
    free(r);
}

int main(void)
{
    test_init("test_snap_vproof");
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cuzk-snap-vproof-XXXXXX");
    CHECK(mkdtemp(tmpdir) != NULL);
    test_random_streams();
    test_truncated();
    test_bad_fields();
    test_files();
    test_writer_refusals();
    rmdir(tmpdir);
    return test_finish();
}
