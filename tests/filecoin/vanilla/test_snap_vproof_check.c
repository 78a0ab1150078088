/* The checks of SnapDeals partition proofs (cuzk_fc_snap_vproof_verify) and the witness values taken from
 * them, on sectors built whole in the test (snap_vproof_fixture.h: trees hashed level by level, the
 * encoding, phi, rho and the challenges from storage-proofs-update's formulas, the bytes written field by
 * field): for the 2KiB production shape and the 8KiB (8-4-0), 16KiB (8-8-0, two partitions, 128 apex
 * leaves) and 32KiB (8-8-2) test shapes every partition verifies, on one thread and on several; then each
 * damage is refused with CUZK_ERR_MISMATCH (or the status named) naming the partition, the challenge and
 * the path: a flipped byte in each path, a proof opening other nodes or of another partition, another
 * partition's apex leaves or one changed apex leaf, other commitments, a broken encoding with consistent
 * trees, a challenge too few, a config of another shape, k out of range. The witness gets exactly the
 * sector's values (leaves and siblings read from the whole trees). */
#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "filecoin/vanilla/snap_vproof.h"
#include "filecoin/vanilla/snap_vproof_fixture.h"
#include "test_util.h"

static cuzk_snap_config_t config(uint64_t bytes)
{
    cuzk_snap_config_t cfg;
    cuzk_err_t err;
    CHECK_MSG(cuzk_snap_config_for_size(&cfg, bytes, &err) == CUZK_OK, "%s", err.msg);
    return cfg;
}

/* Partition k's bytes (apex leaves of apex_k, the challenges given or its own) decoded and verified
 * against the commitments given; the status, err filled. */
static cuzk_status verify_bytes(const snap_fx *f, const uint8_t *buf, size_t len, uint32_t k, const uint8_t *r_old,
                                const uint8_t *d_new, const uint8_t *r_new, int threads, cuzk_err_t *err)
{
    cuzk_fc_snap_vproof_t v;
    cuzk_status st = cuzk_fc_snap_vproof_decode(&v, buf, len, NULL, err);
    if (st == CUZK_OK)
        st = cuzk_fc_snap_vproof_verify(&v, &f->cfg, k, r_old, d_new, r_new, threads, err);
    cuzk_fc_snap_vproof_free(&v);
    return st;
}

static cuzk_status verify_fx(const snap_fx *f, const uint8_t *buf, size_t len, uint32_t k, cuzk_err_t *err)
{
    return verify_bytes(f, buf, len, k, f->comm_r_old, f->comm_d_new, f->comm_r_new, 1 + (int)test_rand_below(4),
                        err);
}

static void expect(cuzk_status st, const cuzk_err_t *err, cuzk_status want, const char *a, const char *b,
                   const char *what, uint64_t size)
{
    CHECK_MSG(st == want && (!a || strstr(err->msg, a)) && (!b || strstr(err->msg, b)),
              "%llu bytes, %s: status %d (%d expected): %s", (unsigned long long)size, what, (int)st, (int)want,
              err->msg);
}

static void good_partitions(const snap_fx *f)
{
    for (uint32_t k = 0; k < f->cfg.partition_count; k++) {
        size_t len;
        uint8_t *b = snap_fx_partition(f, k, NULL, 0, k, &len);
        for (int threads = 1; threads <= 3; threads += 2) {
            cuzk_err_t err = {{0}};
            cuzk_status st = verify_bytes(f, b, len, k, f->comm_r_old, f->comm_d_new, f->comm_r_new, threads, &err);
            CHECK_MSG(st == CUZK_OK, "%llu nodes, partition %u on %d threads: %s", (unsigned long long)f->cfg.nodes,
                      k, threads, err.msg);
        }
        free(b);
    }
}

/* A flipped byte in a sibling of each path of a random challenge. */
static void flipped_siblings(const snap_fx *f)
{
    uint32_t k = (uint32_t)test_rand_below(f->cfg.partition_count);
    size_t len;
    uint8_t *b = snap_fx_partition(f, k, NULL, 0, k, &len);
    static const char *const names[3] = {"tree R old", "tree D new", "tree R new"};
    for (int w = 0; w < 3; w++) {
        size_t i = test_rand_below(f->cfg.challenge_count);
        uint32_t levels = w == 1 ? f->d.levels : f->r_old.levels, l = (uint32_t)test_rand_below(levels);
        size_t at = snap_fx_path_offset(f, i, w) + snap_fx_sibling_offset(f, w, l);
        uint8_t *c = malloc(len);
        memcpy(c, b, len);
        c[at] ^= (uint8_t)(1u << test_rand_below(8)); /* byte 0: the value stays below r */
        cuzk_err_t err = {{0}};
        cuzk_status st = verify_fx(f, c, len, k, &err);
        char ch[32];
        snprintf(ch, sizeof ch, "challenge %zu ", i);
        /* challenge 0's tree-R roots are the ones the others are held to: a flipped sibling there is found
         * as a root that does not hash, like the others */
        expect(st, &err, CUZK_ERR_MISMATCH, ch, names[w], names[w], f->cfg.nodes * 32);
        CHECK_MSG(strstr(err.msg, "root"), "%s", err.msg);
        free(c);
    }
    free(b);
}

static void damaged(const snap_fx *f)
{
    const cuzk_snap_config_t *c = &f->cfg;
    uint64_t size = c->nodes * 32;
    uint32_t k = c->partition_count - 1;
    uint64_t chal[128];
    snap_fx_challenges(chal, f, k);
    size_t len;
    cuzk_err_t err = {{0}};
    uint8_t *b;

    /* a proof opening other nodes: challenge 3 moved to its neighbour */
    chal[3] ^= 1;
    b = snap_fx_partition(f, k, chal, c->challenge_count, k, &len);
    expect(verify_fx(f, b, len, k, &err), &err, CUZK_ERR_MISMATCH, "challenge 3 ", "opens node", "moved node", size);
    free(b);
    chal[3] ^= 1;
    /* a challenge too few, then the shape refused before anything else */
    b = snap_fx_partition(f, k, chal, c->challenge_count - 1, k, &len);
    expect(verify_fx(f, b, len, k, &err), &err, CUZK_ERR_MISMATCH, "challenge proofs", NULL, "one challenge short",
           size);
    free(b);
    /* other commitments */
    b = snap_fx_partition(f, k, NULL, 0, k, &len);
    uint8_t other[32];
    test_rand_fr_bytes(other);
    expect(verify_bytes(f, b, len, k, f->comm_r_old, f->comm_d_new, other, 2, &err), &err, CUZK_ERR_MISMATCH,
           "comm_r_new", "partition", "another comm_r_new", size);
    expect(verify_bytes(f, b, len, k, other, f->comm_d_new, f->comm_r_new, 2, &err), &err, CUZK_ERR_MISMATCH,
           "comm_r_old", NULL, "another comm_r_old", size);
    expect(verify_bytes(f, b, len, k, f->comm_r_old, other, f->comm_r_new, 2, &err), &err, CUZK_ERR_MISMATCH,
           "challenge 0 ", "comm_d_new", "another comm_d_new", size);
    uint8_t big[32];
    memset(big, 0xff, 32);
    expect(verify_bytes(f, b, len, k, f->comm_r_old, f->comm_d_new, big, 2, &err), &err, CUZK_ERR_NOT_CANONICAL,
           NULL, NULL, "comm_r_new >= r", size);
    /* another partition's number for these bytes: its challenges differ */
    if (c->partition_count > 1)
        expect(verify_fx(f, b, len, 0, &err), &err, CUZK_ERR_MISMATCH, "partition 0, challenge 0 ", "opens node",
               "a proof of another partition", size);
    /* k out of range; a config of another size */
    expect(verify_fx(f, b, len, c->partition_count, &err), &err, CUZK_ERR_INVALID_ARG, "partition", NULL,
           "k out of range", size);
    cuzk_snap_config_t other_cfg = *c;
    other_cfg.base_arity = 4;
    cuzk_fc_snap_vproof_t v;
    CHECK(cuzk_fc_snap_vproof_decode(&v, b, len, NULL, &err) == CUZK_OK);
    CHECK(cuzk_fc_snap_vproof_verify(&v, &other_cfg, k, f->comm_r_old, f->comm_d_new, f->comm_r_new, 1, &err) ==
          CUZK_ERR_INVALID_ARG);
    cuzk_snap_config_t cfg2 = config(size == 2048 ? 8192 : 2048);
    {
        cuzk_status st = cuzk_fc_snap_vproof_verify(&v, &cfg2, 0, f->comm_r_old, f->comm_d_new, f->comm_r_new, 1, &err);
        CHECK_MSG(st == CUZK_ERR_MISMATCH || st == CUZK_ERR_INVALID_ARG, "a proof checked against another size: %s",
                  err.msg);
    }
    cuzk_fc_snap_vproof_free(&v);
    /* one changed apex leaf: the challenges under it, or those whose path climbs past it, refuse */
    size_t j = test_rand_below(c->apex_leaf_count);
    b[snap_fx_apex_offset(j)] ^= 4;
    expect(verify_fx(f, b, len, k, &err), &err, CUZK_ERR_MISMATCH, "tree D new", "apex", "a changed apex leaf", size);
    b[snap_fx_apex_offset(j)] ^= 4;
    /* an apex leaf no challenge lies under: only the siblings up the apex tree can see it */
    uint32_t apex_h = f->d.levels;
    for (uint32_t n = c->apex_leaf_count * c->partition_count; n > 1; n /= 2)
        apex_h--;
    for (j = 0; j < c->apex_leaf_count; j++) {
        size_t i = 0;
        while (i < c->challenge_count && ((chal[i] >> apex_h) & (c->apex_leaf_count - 1)) != j)
            i++;
        if (i == c->challenge_count)
            break;
    }
    if (j < c->apex_leaf_count) {
        b[snap_fx_apex_offset(j)] ^= 4;
        expect(verify_fx(f, b, len, k, &err), &err, CUZK_ERR_MISMATCH, "tree D new", "of the apex tree's row",
               "an unchallenged apex leaf changed", size);
        b[snap_fx_apex_offset(j)] ^= 4;
    }
    /* a non-canonical apex leaf (a random one: j may be past the last after the search above) */
    memset(b + snap_fx_apex_offset(test_rand_below(c->apex_leaf_count)), 0xff, 32);
    expect(verify_fx(f, b, len, k, &err), &err, CUZK_ERR_NOT_CANONICAL, "apex leaf", NULL, "apex leaf >= r", size);
    free(b);
    /* another partition's apex leaves */
    if (c->partition_count > 1) {
        b = snap_fx_partition(f, k, NULL, 0, 0, &len);
        expect(verify_fx(f, b, len, k, &err), &err, CUZK_ERR_MISMATCH, "is not apex leaf", NULL,
               "another partition's apex leaves", size);
        free(b);
    }
}

/* Trees and commitments consistent, the encoding not: every challenge fails it, the first is named. */
static void broken_encoding(const cuzk_snap_config_t *cfg)
{
    snap_fx f;
    snap_fx_build(&f, cfg, 1 + test_rand_below(1000));
    size_t len;
    uint8_t *b = snap_fx_partition(&f, 0, NULL, 0, 0, &len);
    cuzk_err_t err = {{0}};
    expect(verify_fx(&f, b, len, 0, &err), &err, CUZK_ERR_MISMATCH, "partition 0, challenge 0 ", "encoding",
           "a broken encoding", cfg->nodes * 32);
    free(b);
    snap_fx_free(&f);
}

/* The witness: every value the sector's whole trees give. */
static void witness(const snap_fx *f)
{
    const cuzk_snap_config_t *c = &f->cfg;
    uint32_t k = c->partition_count - 1;
    size_t len;
    uint8_t *b = snap_fx_partition(f, k, NULL, 0, k, &len);
    cuzk_fc_snap_vproof_t v;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_fc_snap_vproof_decode(&v, b, len, NULL, &err) == CUZK_OK);
    cuzk_snap_witness_t w;
    CHECK_MSG(cuzk_snap_witness_init(&w, c, &err) == CUZK_OK, "%s", err.msg);
    cuzk_status st = cuzk_fc_snap_vproof_witness(&w, &v, k, f->comm_r_old, f->comm_d_new, f->comm_r_new, &err);
    CHECK_MSG(st == CUZK_OK && w.has_values && w.k == k, "%s", err.msg);
    uint8_t x[32];
    int ok = 1;
#define SAME(fr_value, bytes) (fr_to_bytes_le(x, &(fr_value)), memcmp(x, (bytes), 32) == 0)
    ok &= SAME(w.comm_r_old, f->comm_r_old) && SAME(w.comm_d_new, f->comm_d_new) && SAME(w.comm_r_new, f->comm_r_new);
    ok &= SAME(w.comm_c, f->comm_c) && SAME(w.root_r_old, f->r_old.lv[f->r_old.levels]) &&
          SAME(w.root_r_new, f->r_new.lv[f->r_new.levels]);
    uint32_t apex_h = f->d.levels;
    for (uint32_t n = c->apex_leaf_count * c->partition_count; n > 1; n /= 2)
        apex_h--;
    for (uint32_t j = 0; j < c->apex_leaf_count; j++)
        ok &= SAME(w.apex_leaves[j], f->d.lv[apex_h] + ((size_t)k * c->apex_leaf_count + j) * 32);
    uint64_t chal[128];
    snap_fx_challenges(chal, f, k);
    const snap_fx_tree *trees[3] = {&f->r_old, &f->d, &f->r_new};
    for (uint32_t i = 0; i < c->challenge_count; i++) {
        const cuzk_snap_challenge_witness_t *cw = &w.challenges[i];
        ok &= SAME(cw->leaf_r_old, f->old + chal[i] * 32) && SAME(cw->leaf_d_new, f->data + chal[i] * 32) &&
              SAME(cw->leaf_r_new, f->nw + chal[i] * 32);
        const cuzk_fr_t *sibs[3] = {cw->siblings_r_old, cw->siblings_d_new, cw->siblings_r_new};
        for (int t = 0; t < 3; t++) {
            uint64_t node = chal[i];
            size_t s = 0;
            for (uint32_t l = 0; l < trees[t]->levels; l++) {
                unsigned a = trees[t]->arity[l];
                uint64_t g = node / a * a;
                for (unsigned q = 0; q < a; q++)
                    if (g + q != node)
                        ok &= SAME(sibs[t][s++], trees[t]->lv[l] + (g + q) * 32);
                node /= a;
            }
        }
    }
#undef SAME
    CHECK_MSG(ok, "%llu bytes: a witness value differs from the sector's", (unsigned long long)c->nodes * 32);
    /* refusals: another partition number for the shape, a non-canonical commitment; has_values false */
    uint8_t big[32];
    memset(big, 0xff, 32);
    CHECK(cuzk_fc_snap_vproof_witness(&w, &v, k, big, f->comm_d_new, f->comm_r_new, &err) == CUZK_ERR_NOT_CANONICAL &&
          !w.has_values && strstr(err.msg, "comm_r_old"));
    CHECK(cuzk_fc_snap_vproof_witness(&w, &v, c->partition_count, f->comm_r_old, f->comm_d_new, f->comm_r_new, &err) ==
              CUZK_ERR_INVALID_ARG &&
          !w.has_values);
    cuzk_snap_witness_free(&w);
    cuzk_snap_witness_t blank;
    memset(&blank, 0, sizeof blank);
    blank.cfg = *c;
    CHECK(cuzk_fc_snap_vproof_witness(&blank, &v, k, f->comm_r_old, f->comm_d_new, f->comm_r_new, &err) ==
          CUZK_ERR_INVALID_ARG);
    cuzk_fc_snap_vproof_free(&v);
    free(b);
}

int main(void)
{
    test_init("test_snap_vproof_check");
    static const uint64_t sizes[] = {2048, 8192, 16384, 32768};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        cuzk_snap_config_t cfg = config(sizes[s]);
        snap_fx f;
        snap_fx_build(&f, &cfg, 0);
        good_partitions(&f);
        flipped_siblings(&f);
        damaged(&f);
        witness(&f);
        snap_fx_free(&f);
        if (s == 0)
            broken_encoding(&cfg);
    }
    return test_finish();
}
