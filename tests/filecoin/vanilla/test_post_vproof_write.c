/* The bincode FallbackPoStSectorProof writer against the bytes of other encoders:
 * - curio's golden vanilla Window PoSt (filecoin-ffi's output for a real 32GiB sector) decodes and
 *   re-encodes to the same 24,960 bytes, and so does every copy with random value bytes changed;
 * - streams written field by field here, straight from the layout of curio's decoder
 *   (lib/proof/post_vproof_bin_decode.go) with random shapes (Single / Sub / Top proofs, arities 2-16, up
 *   to 3 sector proofs), decode and re-encode to themselves;
 * - paths that cannot be written (SHA-256, an index not below its arity, no siblings) are refused with a
 *   message naming the sector proof and the path; a buffer too small is CUZK_ERR_BAD_LENGTH. */
#include <stdlib.h>
#include <string.h>
#include "filecoin/fc_vectors.h"
#include "filecoin/vanilla/post_vproof.h"
#include "filecoin/vanilla/post_vproof_write.h"
#include "filecoin/fc_bincode_test.h"
#include "test_util.h"

#define VPROOF_LEN 24960

/* ---- a stream written field by field ---- */

/* InclusionPath: u64 levels, each u64 n_siblings, siblings, u64 index. */
static void s_part(fc_stream_t *s, unsigned levels)
{
    static const unsigned arities[4] = {2, 4, 8, 16};
    fc_stream_u64(s, levels);
    for (unsigned i = 0; i < levels; i++) {
        unsigned a = arities[test_rand_below(4)];
        fc_stream_u64(s, a - 1);
        fc_stream_rand(s, (size_t)(a - 1) * 32);
        fc_stream_u64(s, test_rand_below(a));
    }
}

/* MerkleProof: u32 variant; Single: root, leaf, path; Sub: base, sub, root, leaf; Top: base, sub, top,
 * root, leaf. Sub and Top carry a non-empty last path, as every Filecoin tree does. */
static void s_merkle_proof(fc_stream_t *s)
{
    uint32_t kind = (uint32_t)test_rand_below(3);
    fc_stream_u32(s, kind);
    if (kind == 0) {
        fc_stream_rand(s, 64);
        s_part(s, (unsigned)test_rand_below(12));
        return;
    }
    s_part(s, (unsigned)test_rand_below(12));
    s_part(s, kind == 1 ? 1 + (unsigned)test_rand_below(2) : (unsigned)test_rand_below(3));
    if (kind == 2)
        s_part(s, 1 + (unsigned)test_rand_below(2));
    fc_stream_rand(s, 64);
}

static fc_stream_t random_stream(void)
{
    fc_stream_t s = {0};
    fc_stream_u64(&s, test_rand64());
    fc_stream_rand(&s, 32);
    unsigned n_sectors = (unsigned)test_rand_below(4);
    fc_stream_u64(&s, n_sectors);
    for (unsigned k = 0; k < n_sectors; k++) {
        unsigned n_paths = (unsigned)test_rand_below(5);
        fc_stream_u64(&s, n_paths);
        for (unsigned i = 0; i < n_paths; i++)
            s_merkle_proof(&s);
        fc_stream_rand(&s, 64);
    }
    return s;
}

/* decode(buf) re-encodes to buf exactly, by both entry points; 1 when so. */
static int round_trips(const uint8_t *buf, size_t len)
{
    cuzk_fc_post_vproof_t v;
    cuzk_err_t err;
    if (cuzk_fc_post_vproof_decode(&v, buf, len, NULL, &err) != CUZK_OK) {
        fprintf(stderr, "decode: %s\n", err.msg);
        return 0;
    }
    uint8_t *out = NULL, *into = malloc(len + 1);
    size_t out_len = 0, into_len = 0;
    int ok = cuzk_fc_post_vproof_encoded_len(&v) == len &&
             cuzk_fc_post_vproof_encode(&out, &out_len, &v, &err) == CUZK_OK && out_len == len &&
             memcmp(out, buf, len) == 0 && into &&
             cuzk_fc_post_vproof_encode_into(into, len + 1, &into_len, &v, &err) == CUZK_OK && into_len == len &&
             memcmp(into, buf, len) == 0;
    /* one byte short */
    ok &= cuzk_fc_post_vproof_encode_into(into, len - 1, &into_len, &v, &err) == CUZK_ERR_BAD_LENGTH &&
          into_len == 0;
    free(out);
    free(into);
    cuzk_fc_post_vproof_free(&v);
    return ok;
}

static void test_golden(void)
{
    size_t len = 0;
    uint8_t *buf = (uint8_t *)test_read_file(FC_VECTORS "curio-32GiB-window-post.vproof", &len);
    CHECK_MSG(buf && len == VPROOF_LEN, "cannot read the golden vproof (%zu bytes)", len);
    if (!buf || len != VPROOF_LEN) {
        free(buf);
        return;
    }
    CHECK_MSG(round_trips(buf, len), "curio's golden vproof does not re-encode to its 24,960 bytes");
    /* Each 32-byte value (sector id, comm_r, siblings, roots, leaves, comm_c, comm_r_last) is data to the
     * encoding: random bytes there must come back as they went in. */
    cuzk_err_t err;
    uint8_t *copy = malloc(len);
    int ok = 1;
    for (int trial = 0; trial < 200 && copy; trial++) {
        memcpy(copy, buf, len);
        /* curio's layout: a 56-byte head, 10 Sub proofs of 2,484 bytes (kind, 9 octree levels of 240
         * bytes, 1 sub level, root, leaf), comm_c and comm_r_last */
        size_t n = test_rand_below(10), path = 56 + n * 2484 + 4, off;
        switch (test_rand_below(6)) {
        case 0: off = 0; break;                                                /* sector_id */
        case 1: off = 8 + test_rand_below(32); break;                          /* comm_r */
        case 2: off = path + 8 + test_rand_below(9) * 240 + 8 + test_rand_below(224); break; /* base siblings */
        case 3: off = path + 8 + 9 * 240 + 16 + test_rand_below(224); break;   /* sub siblings */
        case 4: off = path + 8 + 9 * 240 + 248 + test_rand_below(64); break;   /* root, leaf */
        default: off = len - 64 + test_rand_below(64); break;                  /* comm_c, comm_r_last */
        }
        copy[off] ^= (uint8_t)(1 + test_rand_below(255));
        ok &= round_trips(copy, len);
    }
    /* any byte of a sibling: found where the decoder copied it from, by value */
    for (int trial = 0; trial < 200 && copy; trial++) {
        memcpy(copy, buf, len);
        size_t at = 60 + test_rand_below(len - 60 - 64);
        copy[at] ^= 0x5a;
        cuzk_fc_post_vproof_t w;
        if (cuzk_fc_post_vproof_decode(&w, copy, len, NULL, &err) == CUZK_OK) {
            cuzk_fc_post_vproof_free(&w);
            ok &= round_trips(copy, len);
        }
    }
    CHECK_MSG(ok, "a golden vproof with changed values does not round-trip");
    free(copy);
    free(buf);
}

static void test_random_streams(void)
{
    int ok = 1;
    for (int i = 0; i < 300; i++) {
        fc_stream_t s = random_stream();
        int r = round_trips(s.buf, s.len);
        if (!r)
            fprintf(stderr, "stream %d (%zu bytes) does not round-trip\n", i, s.len);
        ok &= r;
        free(s.buf);
    }
    CHECK_MSG(ok, "random bincode streams do not round-trip");
}

/* A Sub proof with an empty sub path (no Filecoin tree makes one) is written as the Single proof its
 * levels make: the bytes differ, the decoded proof is the same. */
static void test_empty_sub_path(void)
{
    fc_stream_t s = {0};
    fc_stream_u64(&s, 7);
    fc_stream_rand(&s, 32);
    fc_stream_u64(&s, 1);
    fc_stream_u64(&s, 1);
    fc_stream_u32(&s, 1);
    s_part(&s, 3);
    s_part(&s, 0);
    fc_stream_rand(&s, 64);
    fc_stream_rand(&s, 64);
    cuzk_fc_post_vproof_t a, b;
    cuzk_err_t err;
    uint8_t *out = NULL;
    size_t len = 0;
    CHECK(cuzk_fc_post_vproof_decode(&a, s.buf, s.len, NULL, &err) == CUZK_OK);
    CHECK(cuzk_fc_post_vproof_path_kind(&a.sectors[0].paths[0]) == 0);
    CHECK(cuzk_fc_post_vproof_encode(&out, &len, &a, &err) == CUZK_OK && len == s.len - 8); /* no sub path length */
    CHECK(out && out[8 + 32 + 8 + 8] == 0); /* written as Single */
    CHECK(out && cuzk_fc_post_vproof_decode(&b, out, len, NULL, &err) == CUZK_OK);
    if (out) {
        const cuzk_fc_merkle_path_t *p = &a.sectors[0].paths[0], *q = &b.sectors[0].paths[0];
        CHECK(p->n_base == q->n_base && q->n_sub == 0 && q->n_top == 0 && !memcmp(p->leaf, q->leaf, 32) &&
              !memcmp(p->root, q->root, 32) && !memcmp(p->steps, q->steps, sizeof p->steps) &&
              !memcmp(p->siblings, q->siblings, cuzk_fc_merkle_sibling_count(p) * 32) &&
              !memcmp(a.sectors[0].comm_c, b.sectors[0].comm_c, 32) && a.sector_id == b.sector_id);
        cuzk_fc_post_vproof_free(&b);
    }
    free(out);
    cuzk_fc_post_vproof_free(&a);
    free(s.buf);
}

static void test_refusals(void)
{
    uint8_t sib[7 * 32] = {0};
    cuzk_fc_merkle_path_t paths[2];
    memset(paths, 0, sizeof paths);
    for (int i = 0; i < 2; i++) {
        paths[i].hash = CUZK_FC_MERKLE_POSEIDON;
        paths[i].n_base = 1;
        paths[i].steps[0].arity = 8;
        paths[i].steps[0].index = 3;
        paths[i].siblings = sib;
    }
    cuzk_fc_post_sector_proof_t sp = {.n_paths = 2, .paths = paths};
    cuzk_fc_post_vproof_t v = {.sector_id = 1, .n_sectors = 1, .sectors = &sp};
    uint8_t *out = NULL;
    size_t len = 99;
    cuzk_err_t err;
    CHECK(cuzk_fc_post_vproof_encode(&out, &len, &v, &err) == CUZK_OK && len == 48 + 8 + 2 * (4 + 64 + 8 + 8 + 224 + 8) + 64);
    free(out);
    paths[1].steps[0].index = 8;
    CHECK(cuzk_fc_post_vproof_encode(&out, &len, &v, &err) == CUZK_ERR_INVALID_ARG && !out && len == 0 &&
          strstr(err.msg, "path 1"));
    CHECK(cuzk_fc_post_vproof_encoded_len(&v) == 0);
    paths[1].steps[0].index = 3;
    paths[0].hash = CUZK_FC_MERKLE_SHA256;
    CHECK(cuzk_fc_post_vproof_encode(&out, &len, &v, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "path 0"));
    paths[0].hash = CUZK_FC_MERKLE_POSEIDON;
    paths[0].siblings = NULL;
    CHECK(cuzk_fc_post_vproof_encode(&out, &len, &v, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "path 0"));
    paths[0].siblings = sib;
    sp.paths = NULL;
    CHECK(cuzk_fc_post_vproof_encode(&out, &len, &v, &err) == CUZK_ERR_INVALID_ARG);
    sp.paths = paths;
    CHECK(cuzk_fc_post_vproof_encode(NULL, &len, &v, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_post_vproof_encode_into(NULL, 10, &len, &v, &err) == CUZK_ERR_INVALID_ARG);
}

int main(void)
{
    test_init("test_post_vproof_write");
    test_golden();
    test_random_streams();
    test_empty_sub_path();
    test_refusals();
    return test_finish();
}
