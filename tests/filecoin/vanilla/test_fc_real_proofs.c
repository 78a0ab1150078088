/* Real proofs made by other implementations (tests/vectors/filecoin/README.md):
 * - curio's golden vanilla Window PoSt of a real 32GiB sector: decoded exactly, all 10 paths hash to
 *   comm_r_last with our Poseidon, comm_r = Poseidon2(comm_c, comm_r_last) = the SealedCID's digest, the
 *   opened leaves are the published challenge list; truncated, padded and corrupted copies are rejected.
 * - polka-storage's 2KiB PoRep and Window PoSt Groth16 proofs (their own setup of Filecoin's circuits):
 *   both verify with public inputs computed by the product paths' derivations (the PoSt's that of
 *   cuzk_post_public_inputs); another input, porep id, challenge index rule or proof byte fails. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/groth16.h"
#include "filecoin/fc_vectors.h"
#include "ff/fr.h"
#include "filecoin/sdr/challenges.h"
#include "filecoin/vanilla/post_challenges.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/vanilla/post_vproof.h"
#include "filecoin/post/post_request.h"
#include "test_util.h"

/* ---------------------------------------------------------------------------------------------------
 * curio lib/proof/testgolden: post.vproof + postpub.json */

#define VPROOF_LEN 24960
#define SECTOR_32G (32ULL << 30)

/* comm_r (the digest of postpub.json's SealedCID) and the 10 challenged leaves derived from randomness 0
 * and sector 1 by storage-proofs-post's fallback/utils.rs: docs/REFERENCE.md §5. */
static const char *GOLDEN_COMM_R = "df691086e3c673c95a45908713d4c5938e5ced43f21b888bd9bc6e181c9f326b";
static const uint64_t GOLDEN_LEAVES[10] = {707914199, 439148358, 967788220, 548708700, 1061661429,
                                           6202012,   1055504637, 389535735, 1000069704, 600088878};

/* The string value of "key":"..." (or "key":{"/":"..."}) in a small JSON text, copied into out. */
static int json_string(char *out, size_t cap, const char *json, const char *key)
{
    const char *p = strstr(json, key);
    if (!p)
        return 0;
    p += strlen(key);
    while (*p == '"' || *p == ':' || *p == '{' || *p == '/' || *p == ' ')
        p++;
    size_t n = strcspn(p, "\"");
    if (n >= cap)
        return 0;
    memcpy(out, p, n);
    out[n] = 0;
    return 1;
}

static long base64_decode(const char *s, uint8_t *out, size_t cap)
{
    static const char alpha[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    uint32_t acc = 0;
    int bits = 0;
    size_t n = 0;
    for (; *s && *s != '='; s++) {
        const char *c = strchr(alpha, *s);
        if (!c)
            return -1;
        acc = acc << 6 | (uint32_t)(c - alpha), bits += 6;
        if (bits >= 8) {
            if (n == cap)
                return -1;
            out[n++] = (uint8_t)(acc >> (bits - 8)), bits -= 8;
        }
    }
    return (long)n;
}

/* RFC 4648 base32, lower case, no padding (multibase 'b'). */
static long base32_decode(const char *s, uint8_t *out, size_t cap)
{
    static const char alpha[] = "abcdefghijklmnopqrstuvwxyz234567";
    uint32_t acc = 0;
    int bits = 0;
    size_t n = 0;
    for (; *s; s++) {
        const char *c = strchr(alpha, *s);
        if (!c)
            return -1;
        acc = acc << 5 | (uint32_t)(c - alpha), bits += 5;
        if (bits >= 8) {
            if (n == cap)
                return -1;
            out[n++] = (uint8_t)(acc >> (bits - 8)), bits -= 8;
        }
    }
    return (long)n;
}

typedef struct {
    uint8_t randomness[32];
    uint8_t cid_digest[32];
    uint64_t sector;
    int ok;
} postpub;

static postpub read_postpub(void)
{
    postpub pp = {0};
    char *json = test_read_file(FC_VECTORS "curio-32GiB-window-postpub.json", NULL);
    char s[128];
    uint8_t cid[64];
    if (!json)
        return pp;
    /* CIDv1 (0x01), fil-commitment-sealed (varint 0xf102), poseidon-bls12_381-a1-fc1 (varint 0xb401),
     * 32-byte digest. */
    static const uint8_t prefix[8] = {0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20};
    const char *sn = strstr(json, "\"SectorNumber\":");
    pp.ok = json_string(s, sizeof s, json, "\"Randomness\"") && base64_decode(s, pp.randomness, 32) == 32 &&
            json_string(s, sizeof s, json, "\"SealedCID\"") && s[0] == 'b' &&
            base32_decode(s + 1, cid, sizeof cid) == 40 && memcmp(cid, prefix, 8) == 0 && sn;
    if (pp.ok) {
        memcpy(pp.cid_digest, cid + 8, 32);
        pp.sector = strtoull(sn + strlen("\"SectorNumber\":"), NULL, 10);
    }
    free(json);
    return pp;
}

static void golden_params(cuzk_fc_post_params_t *p, const postpub *pub)
{
    memset(p, 0, sizeof *p);
    p->sector_size = SECTOR_32G;
    p->base_arity = 8, p->sub_arity = 8, p->top_arity = 0;
    p->challenge_count = 10;
    p->api = CUZK_FC_API_V1_2;
    p->sector_index = 0;
    memcpy(p->randomness, pub->randomness, 32);
}

/* Byte offset of sibling j of level l of path n in post.vproof (9 octree levels + 1 octree sub level,
 * 2,484 bytes per MerkleProof after the 56-byte head). */
static size_t sibling_offset(unsigned n, unsigned l, unsigned j)
{
    size_t at = 56 + (size_t)n * 2484 + 4; /* kind */
    if (l < 9)
        return at + 8 + (size_t)l * 240 + 8 + (size_t)j * 32;
    return at + 8 + 9 * 240 + 8 + 8 + (size_t)j * 32;
}

static int rejects(const uint8_t *buf, size_t len, const cuzk_fc_post_params_t *pp)
{
    cuzk_fc_post_vproof_t v;
    cuzk_err_t err;
    cuzk_status st = cuzk_fc_post_vproof_decode(&v, buf, len, NULL, &err);
    if (st == CUZK_OK) {
        st = cuzk_fc_post_vproof_verify(&v, pp, &err);
        cuzk_fc_post_vproof_free(&v);
    }
    return st != CUZK_OK;
}

static void test_golden_post(void)
{
    size_t len = 0;
    uint8_t *buf = (uint8_t *)test_read_file(FC_VECTORS "curio-32GiB-window-post.vproof", &len);
    postpub pub = read_postpub();
    CHECK_MSG(buf && len == VPROOF_LEN, "cannot read post.vproof (%zu bytes)", len);
    CHECK_MSG(pub.ok, "cannot read postpub.json");
    if (!buf || len != VPROOF_LEN || !pub.ok) {
        free(buf);
        return;
    }
    uint8_t zero[32] = {0};
    CHECK(memcmp(pub.randomness, zero, 32) == 0 && pub.sector == 1);

    cuzk_fc_post_vproof_t v;
    cuzk_err_t err;
    size_t used = 0;
    CHECK(cuzk_fc_post_vproof_decode(&v, buf, len, &used, &err) == CUZK_OK && used == len);
    cuzk_fc_post_vproof_free(&v);
    cuzk_status st = cuzk_fc_post_vproof_decode(&v, buf, len, NULL, &err);
    CHECK_MSG(st == CUZK_OK, "decode: %s", err.msg);
    if (st != CUZK_OK) {
        free(buf);
        return;
    }
    uint8_t want_comm_r[32];
    CHECK(test_hex_decode(GOLDEN_COMM_R, want_comm_r, 32) == 32);
    CHECK(v.sector_id == pub.sector);
    CHECK_MSG(memcmp(v.comm_r, pub.cid_digest, 32) == 0, "comm_r is not the SealedCID's digest");
    CHECK(memcmp(v.comm_r, want_comm_r, 32) == 0);
    CHECK(v.n_sectors == 1 && v.sectors[0].n_paths == 10);
    if (v.n_sectors == 1 && v.sectors[0].n_paths == 10) {
        const cuzk_fc_post_sector_proof_t *sp = &v.sectors[0];
        uint8_t pair[64], h[32];
        memcpy(pair, sp->comm_c, 32), memcpy(pair + 32, sp->comm_r_last, 32);
        CHECK(cuzk_poseidon_node(h, 2, pair, NULL) == CUZK_OK && memcmp(h, v.comm_r, 32) == 0);
        for (unsigned n = 0; n < 10; n++) {
            const cuzk_fc_merkle_path_t *p = &sp->paths[n];
            uint8_t root[32];
            uint64_t leaf = 0;
            CHECK(p->hash == CUZK_FC_MERKLE_POSEIDON && p->n_base == 9 && p->n_sub == 1 && p->n_top == 0);
            CHECK(cuzk_fc_merkle_path_check_shape(p, 8, 8, 0, SECTOR_32G / 32, &err) == CUZK_OK);
            CHECK_MSG(cuzk_fc_merkle_compute_root(root, p, &err) == CUZK_OK && memcmp(root, sp->comm_r_last, 32) == 0,
                      "path %u does not hash to comm_r_last", n);
            CHECK(memcmp(p->root, sp->comm_r_last, 32) == 0);
            CHECK(memcmp(p->siblings, buf + sibling_offset(n, 0, 0), 32) == 0 &&
                  memcmp(p->siblings + 63 * 32, buf + sibling_offset(n, 9, 0), 32) == 0);
            CHECK(cuzk_fc_merkle_leaf_index(&leaf, p, &err) == CUZK_OK);
            CHECK_MSG(leaf == GOLDEN_LEAVES[n], "path %u opens leaf %llu, published %llu", n,
                      (unsigned long long)leaf, (unsigned long long)GOLDEN_LEAVES[n]);
            uint64_t ch = cuzk_fc_post_leaf_challenge(pub.randomness, v.sector_id, n, SECTOR_32G);
            CHECK(ch == GOLDEN_LEAVES[n]);
        }
    }
    cuzk_fc_post_params_t pp;
    golden_params(&pp, &pub);
    st = cuzk_fc_post_vproof_verify(&v, &pp, &err);
    CHECK_MSG(st == CUZK_OK, "verify: %s", err.msg);
    /* the same proof against other public parameters */
    cuzk_fc_post_params_t bad = pp;
    bad.randomness[0] = 1;
    CHECK(cuzk_fc_post_vproof_verify(&v, &bad, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "leaf"));
    bad = pp, bad.api = CUZK_FC_API_V1_0, bad.sector_index = 1; /* challenge index 10 + n */
    CHECK(cuzk_fc_post_vproof_verify(&v, &bad, &err) == CUZK_ERR_MISMATCH);
    bad = pp, bad.challenge_count = 66;
    CHECK(cuzk_fc_post_vproof_verify(&v, &bad, &err) == CUZK_ERR_MISMATCH);
    bad = pp, bad.sector_size = 64ULL << 30, bad.top_arity = 2;
    CHECK(cuzk_fc_post_vproof_verify(&v, &bad, &err) == CUZK_ERR_MISMATCH);
    cuzk_fc_post_vproof_free(&v);
    CHECK(v.storage == NULL && v.sectors == NULL);

    /* a flipped byte in a sibling (a base level and the sub level), in the file */
    uint8_t *copy = malloc(len + 1);
    for (int t = 0; t < 4; t++) {
        memcpy(copy, buf, len);
        unsigned n = (unsigned)test_rand_below(10), l = t == 0 ? 9 : (unsigned)test_rand_below(9),
                 j = (unsigned)test_rand_below(7);
        copy[sibling_offset(n, l, j) + test_rand_below(16)] ^= (uint8_t)(1u << test_rand_below(8));
        CHECK(cuzk_fc_post_vproof_decode(&v, copy, len, NULL, &err) == CUZK_OK);
        st = cuzk_fc_post_vproof_verify(&v, &pp, &err);
        CHECK_MSG(st == CUZK_ERR_MISMATCH && strstr(err.msg, "root"), "flipped sibling (path %u level %u): %s", n, l,
                  err.msg);
        cuzk_fc_post_vproof_free(&v);
    }

    /* truncated copies (a fresh allocation of the exact size, so that ASan sees any over-read) */
    int ok = 1;
    for (size_t cut = 0; cut < len; cut += cut < 300 ? 1 : 1 + test_rand_below(160)) {
        uint8_t *t = malloc(cut ? cut : 1);
        memcpy(t, buf, cut);
        ok &= cuzk_fc_post_vproof_decode(&v, t, cut, NULL, &err) == CUZK_ERR_FORMAT && v.storage == NULL &&
              strstr(err.msg, "truncated");
        free(t);
    }
    CHECK_MSG(ok, "a truncated vproof was accepted");
    /* one byte too many */
    memcpy(copy, buf, len);
    copy[len] = 0;
    CHECK(cuzk_fc_post_vproof_decode(&v, copy, len + 1, NULL, &err) == CUZK_ERR_FORMAT && strstr(err.msg, "trailing"));
    CHECK(cuzk_fc_post_vproof_decode(&v, copy, len + 1, &used, &err) == CUZK_OK && used == len);
    cuzk_fc_post_vproof_free(&v);

    /* corrupted structure fields */
    static const struct {
        size_t off;
        uint8_t val;
        const char *msg;
    } bad_fields[] = {
        {47, 0x80, "truncated"},           /* n_sectors high byte: 2^63 sector proofs */
        {55, 0x7f, "inclusion proof 10"},  /* n_paths: 2^63-ish, the 11th reads comm_c */
        {56, 3, "kind"},           /* MerkleProof kind */
        {56 + 4, 65, "levels"},    /* base path levels */
        {56 + 12, 6, "siblings"},  /* sibling count of level 0 */
        {56 + 12 + 232, 8, "index"}, /* index of level 0 */
    };
    for (size_t i = 0; i < sizeof bad_fields / sizeof *bad_fields; i++) {
        memcpy(copy, buf, len);
        copy[bad_fields[i].off] = bad_fields[i].val;
        st = cuzk_fc_post_vproof_decode(&v, copy, len, NULL, &err);
        CHECK_MSG(st == CUZK_ERR_FORMAT && strstr(err.msg, bad_fields[i].msg), "field at %zu: %s", bad_fields[i].off,
                  err.msg);
        cuzk_fc_post_vproof_free(&v);
    }
    /* every single-byte change is caught by the decoder or by the checks */
    ok = 1;
    for (int t = 0; t < 60; t++) {
        memcpy(copy, buf, len);
        size_t at = test_rand_below(len);
        copy[at] ^= (uint8_t)(1 + test_rand_below(255));
        int r = rejects(copy, len, &pp);
        CHECK_MSG(r, "byte %zu changed, still accepted", at);
        ok &= r;
    }
    CHECK(!rejects(buf, len, &pp));
    CHECK(cuzk_fc_post_vproof_decode(NULL, buf, len, NULL, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_post_vproof_decode(&v, NULL, 5, NULL, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_fc_post_vproof_free(NULL);
    free(copy);
    free(buf);
}

/* ---------------------------------------------------------------------------------------------------
 * eigerco/polka-storage pallets/proofs/src/tests/{porep,post}.rs */

/* The hex text of a vector file, decoded; trailing whitespace ignored. */
static uint8_t *read_hex(const char *name, size_t *n)
{
    char path[256];
    snprintf(path, sizeof path, FC_VECTORS "%s", name);
    size_t len;
    char *text = test_read_file(path, &len);
    if (!text)
        return NULL;
    while (len && (text[len - 1] == '\n' || text[len - 1] == ' ' || text[len - 1] == '\r'))
        text[--len] = 0;
    uint8_t *out = malloc(len / 2 + 1);
    long got = test_hex_decode(text, out, len / 2);
    free(text);
    if (got < 0) {
        free(out);
        return NULL;
    }
    *n = (size_t)got;
    return out;
}

/* polka-storage-proofs groth16 VerifyingKey::into_bytes: compressed alpha_g1, beta_g1, beta_g2, gamma_g2,
 * delta_g1, delta_g2, u32_be(ic_len), ic_len compressed G1. Every point checked (curve and subgroup). */
static int polka_vk_decode(cuzk_groth16_vk_t *vk, const uint8_t *b, size_t len)
{
    memset(vk, 0, sizeof *vk);
    const size_t head = 48 * 3 + 96 * 3;
    if (len < head + 4)
        return 0;
    int ok = cuzk_g1_decompress(&vk->alpha_g1, b) == CUZK_OK && cuzk_g1_decompress(&vk->beta_g1, b + 48) == CUZK_OK &&
             cuzk_g2_decompress(&vk->beta_g2, b + 96) == CUZK_OK &&
             cuzk_g2_decompress(&vk->gamma_g2, b + 192) == CUZK_OK &&
             cuzk_g1_decompress(&vk->delta_g1, b + 288) == CUZK_OK &&
             cuzk_g2_decompress(&vk->delta_g2, b + 336) == CUZK_OK;
    size_t n = (size_t)b[head] << 24 | (size_t)b[head + 1] << 16 | (size_t)b[head + 2] << 8 | b[head + 3];
    if (!ok || len != head + 4 + 48 * n)
        return 0;
    vk->ic = malloc(n * sizeof *vk->ic);
    vk->ic_len = n;
    for (size_t i = 0; i < n; i++)
        ok &= cuzk_g1_decompress(&vk->ic[i], b + head + 4 + 48 * i) == CUZK_OK;
    return ok;
}

typedef struct {
    cuzk_groth16_vk_t vk;
    cuzk_groth16_pvk_t *pvk;
    uint8_t proof_bytes[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_t proof;
    int ok;
} polka_case;

static polka_case polka_load(const char *vk_name, const char *proof_name, size_t want_vk_len, size_t want_ic)
{
    polka_case c;
    memset(&c, 0, sizeof c);
    size_t n = 0, m = 0;
    uint8_t *vkb = read_hex(vk_name, &n), *pb = read_hex(proof_name, &m);
    cuzk_err_t err;
    c.ok = vkb && pb && n == want_vk_len && m == CUZK_GROTH16_PROOF_BYTES && polka_vk_decode(&c.vk, vkb, n) &&
           c.vk.ic_len == want_ic && cuzk_groth16_pvk_new(&c.pvk, &c.vk) == CUZK_OK;
    if (c.ok) {
        memcpy(c.proof_bytes, pb, m);
        c.ok = cuzk_groth16_proof_read(&c.proof, pb, &err) == CUZK_OK;
    }
    CHECK_MSG(c.ok, "cannot load %s / %s", vk_name, proof_name);
    free(vkb);
    free(pb);
    return c;
}

static void polka_free(polka_case *c)
{
    cuzk_groth16_pvk_free(c->pvk);
    cuzk_groth16_vk_free(&c->vk);
}

/* Verifies with Montgomery inputs; -1 when the verifier reports an error. */
static int polka_verify(const polka_case *c, const cuzk_groth16_proof_t *proof, const cuzk_fr_t *in, size_t n)
{
    cuzk_scalar_t xs[64];
    for (size_t i = 0; i < n; i++)
        fr_to_scalar(&xs[i], &in[i]);
    bool valid = false;
    cuzk_err_t err;
    if (cuzk_groth16_verify(&valid, c->pvk, proof, xs, n, &err) != CUZK_OK)
        return -1;
    return valid;
}

/* A flipped bit of the encoding: either the points no longer decode or the proof no longer verifies. */
static int flipped_proof_fails(const polka_case *c, const cuzk_fr_t *in, size_t n, size_t byte, unsigned bit)
{
    uint8_t b[CUZK_GROTH16_PROOF_BYTES];
    memcpy(b, c->proof_bytes, sizeof b);
    b[byte] ^= (uint8_t)(1u << bit);
    cuzk_groth16_proof_t p;
    if (cuzk_groth16_proof_read(&p, b, NULL) != CUZK_OK)
        return 1;
    return polka_verify(c, &p, in, n) == 0;
}

/* porep.rs default_porep_test_setup, default_porep_comm_r / comm_d. */
static const char *POLKA_COMM_R = "4afb35f82a95a10187a913bc14520d9a1d173328265b301b5dcf440ef2583950";
static const char *POLKA_COMM_D = "129c7562bb0c189544f5dccd365feaec2141eab458097a5ca8429c109d154421";

static int polka_porep_inputs(cuzk_fr_t in[39], uint64_t porep_id_num)
{
    const cuzk_fc_seal_proof_t *p = NULL;
    if (cuzk_fc_seal_proof_parse(&p, "StackedDrg2KiBV1_1", NULL) != CUZK_OK)
        return 0;
    cuzk_fc_porep_config_t cfg;
    cuzk_fc_porep_config_from_proof(&cfg, p);
    /* polka-storage's config.rs maps StackedDRG2KiBV1P1 to proof id 0, keeping the V1_1 parent order */
    cuzk_fc_porep_id(cfg.porep_id, porep_id_num);
    uint8_t prover[32] = {0}, ticket[32], seed[32], comm_d[32], comm_r[32], rid[32];
    memset(ticket, 12, 32), memset(seed, 13, 32);
    if (test_hex_decode(POLKA_COMM_D, comm_d, 32) != 32 || test_hex_decode(POLKA_COMM_R, comm_r, 32) != 32)
        return 0;
    cuzk_fc_replica_id(rid, prover, 77, ticket, comm_d, cfg.porep_id);
    return cuzk_fc_porep_public_input_count(&cfg) == 39 &&
           cuzk_fc_porep_public_inputs(in, 39, &cfg, rid, comm_d, comm_r, seed, 0, NULL) == CUZK_OK;
}

static void test_polka_porep(void)
{
    polka_case c = polka_load("polka-storage-2KiB-porep-vk.hex", "polka-storage-2KiB-porep-proof.hex", 2356, 40);
    cuzk_fr_t in[39];
    CHECK(polka_porep_inputs(in, 0));
    if (c.ok) {
        CHECK_MSG(polka_verify(&c, &c.proof, in, 39) == 1, "polka-storage's 2KiB PoRep proof does not verify");
        /* a changed public input: comm_r, one DRG parent, the last challenge copy */
        static const int which[3] = {2, 4, 38};
        for (int k = 0; k < 3; k++) {
            cuzk_fr_t bad[39];
            memcpy(bad, in, sizeof bad);
            fr_add(&bad[which[k]], &bad[which[k]], &FR_ONE);
            CHECK_MSG(polka_verify(&c, &c.proof, bad, 39) == 0, "input %d changed, still verifies", which[k]);
        }
        /* the registered id 5 (replica_id and parents change) */
        cuzk_fr_t in5[39];
        CHECK(polka_porep_inputs(in5, 5));
        CHECK(polka_verify(&c, &c.proof, in5, 39) == 0);
        /* a flipped bit in a, b and c of the encoding */
        CHECK(flipped_proof_fails(&c, in, 39, 47, 0));
        CHECK(flipped_proof_fails(&c, in, 39, 48 + 95, 3));
        CHECK(flipped_proof_fails(&c, in, 39, 144 + 20, 5));
        CHECK(flipped_proof_fails(&c, in, 39, 48 + test_rand_below(144), (unsigned)test_rand_below(8)));
        /* the wrong number of inputs is an error, not a verdict */
        CHECK(polka_verify(&c, &c.proof, in, 38) == -1);
    }
    polka_free(&c);
}

/* The polka-storage Window PoSt's public inputs by the product path's derivation (compound.rs
 * generate_public_inputs): one sector, the circuit's sector_count of 2, under the given API version and
 * partition; sectors > 1 lists sector 77 that many times (each with its own sector index). */
static int polka_post_inputs(cuzk_fr_t in[22], cuzk_fc_api_t api, uint32_t partition, size_t sectors)
{
    uint8_t rand[32], comm_r[2][32];
    memset(rand, 1, 32);
    if (test_hex_decode(POLKA_COMM_R, comm_r[0], 32) != 32)
        return 0;
    memcpy(comm_r[1], comm_r[0], 32);
    const uint64_t ids[2] = {77, 77};
    cuzk_post_inputs_shape_t shape = {.sector_size = 2048, .sector_count = 2, .challenge_count = 10, .api = api};
    return cuzk_post_inputs_count(&shape) == 22 &&
           cuzk_post_inputs_derive(in, 22, &shape, ids, (const uint8_t(*)[32])comm_r, sectors, rand, partition,
                                   NULL) == CUZK_OK;
}

/* post.rs: StackedDRGWindow2KiBV1P1 (API V1_2: challenge index n), sector 77, randomness [1; 32], one sector
 * duplicated to fill the circuit's sector_count of 2; per sector comm_r and 10 leaf challenges. */
static void test_polka_post(void)
{
    static const uint64_t published[10] = {62, 13, 30, 16, 21, 30, 30, 34, 28, 40}; /* docs/REFERENCE.md §4 */
    polka_case c = polka_load("polka-storage-2KiB-post-vk.hex", "polka-storage-2KiB-post-proof.hex", 1540, 23);
    uint8_t comm_r[32];
    CHECK(test_hex_decode(POLKA_COMM_R, comm_r, 32) == 32);
    cuzk_fr_t in[22], want;
    CHECK(polka_post_inputs(in, CUZK_FC_API_V1_2, 0, 1));
    /* the derivation's layout against the published values: comm_r, the 10 leaves, then the copy */
    int ok = fr_from_bytes_le(&want, comm_r) && fr_eq(&in[0], &want) && fr_eq(&in[11], &want);
    for (unsigned n = 0; n < 10; n++) {
        fr_from_u64(&want, published[n]);
        ok &= fr_eq(&in[1 + n], &want) && fr_eq(&in[12 + n], &want);
    }
    CHECK(ok);
    if (c.ok) {
        CHECK_MSG(polka_verify(&c, &c.proof, in, 22) == 1, "polka-storage's 2KiB Window PoSt proof does not verify");
        cuzk_fr_t bad[22];
        memcpy(bad, in, sizeof bad);
        fr_add(&bad[14], &bad[14], &FR_ONE);
        CHECK(polka_verify(&c, &c.proof, bad, 22) == 0);
        /* V1_2's leaves do not depend on the sector's place: partition 1 has the same inputs */
        CHECK(polka_post_inputs(bad, CUZK_FC_API_V1_2, 1, 1) && polka_verify(&c, &c.proof, bad, 22) == 1);
        /* V1_0's do: partition 1 (sector index 2, challenge indexes 20 + n) */
        CHECK(polka_post_inputs(bad, CUZK_FC_API_V1_0, 1, 1) && polka_verify(&c, &c.proof, bad, 22) == 0);
        /* the sector given twice under V1_0 (the copy at sector index 1: 10 + n) instead of padded */
        CHECK(polka_post_inputs(bad, CUZK_FC_API_V1_0, 0, 2) && polka_verify(&c, &c.proof, bad, 22) == 0);
        /* padding under V1_0 copies the first sector's inputs: the proof verifies */
        CHECK(polka_post_inputs(bad, CUZK_FC_API_V1_0, 0, 1) && polka_verify(&c, &c.proof, bad, 22) == 1);
        CHECK(flipped_proof_fails(&c, in, 22, test_rand_below(192), (unsigned)test_rand_below(8)));
    }
    polka_free(&c);
}

int main(void)
{
    test_init("test_fc_real_proofs");
    test_golden_post();
    test_polka_porep();
    test_polka_post();
    return test_finish();
}
