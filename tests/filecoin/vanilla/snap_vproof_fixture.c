/* The whole-tree SnapDeals sector of the vanilla tests (snap_vproof_fixture.h). Its oracles are the formulas
 * of storage-proofs-update, written here: encoding new = old + data · rho, rho = Poseidon2^(tag 2^40)(phi,
 * high bits), phi = the same over (comm_d_new, comm_r_old), comm_r = Poseidon2(comm_c, root); the library
 * gives only the node hashes and the Poseidon constants. */
#include "filecoin/vanilla/snap_vproof_fixture.h"

#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/fc_bincode_test.h"
#include "filecoin/hash/sha256_tree.h"
#include "test_util.h"

static uint32_t lg(uint64_t v)
{
    uint32_t n = 0;
    while (v > 1)
        v >>= 1, n++;
    return n;
}

static void tree_build(snap_fx_tree *t, int sha, const snap_fx *f, const uint8_t *leaves)
{
    const cuzk_snap_config_t *c = &f->cfg;
    uint64_t n = c->nodes;
    if (sha) {
        t->levels = lg(n);
        memset(t->arity, 2, t->levels);
    } else {
        uint64_t base_leaves = n / (c->sub_arity ? c->sub_arity : 1) / (c->top_arity ? c->top_arity : 1);
        uint32_t nb = lg(base_leaves) / lg(c->base_arity);
        t->levels = 0;
        for (uint32_t i = 0; i < nb; i++)
            t->arity[t->levels++] = (uint8_t)c->base_arity;
        if (c->sub_arity)
            t->arity[t->levels++] = (uint8_t)c->sub_arity;
        if (c->top_arity)
            t->arity[t->levels++] = (uint8_t)c->top_arity;
    }
    t->lv[0] = malloc(n * 32);
    memcpy(t->lv[0], leaves, n * 32);
    for (uint32_t i = 0; i < t->levels; i++) {
        unsigned a = t->arity[i];
        n /= a;
        t->lv[i + 1] = malloc(n * 32);
        for (uint64_t g = 0; g < n; g++) {
            const uint8_t *ch = t->lv[i] + g * a * 32;
            if (sha)
                cuzk_fc_sha256_node(t->lv[i + 1] + g * 32, ch, ch + 32);
            else
                CHECK(cuzk_poseidon_node(t->lv[i + 1] + g * 32, a, ch, NULL) == CUZK_OK);
        }
    }
}

static void tree_free(snap_fx_tree *t)
{
    for (uint32_t i = 0; i <= t->levels; i++)
        free(t->lv[i]);
}

/* The textbook Poseidon of arity 2 with the gen-randomness tag 2^40 over two 32-byte values. */
static void hash_custom(uint8_t out[32], const uint8_t a[32], const uint8_t b[32])
{
    const cuzk_poseidon_constants_t *c = NULL;
    CHECK(cuzk_poseidon_constants_get(&c, 2, NULL) == CUZK_OK);
    fr tag, in[2], r;
    fr_from_u64(&tag, 1ull << 40);
    CHECK(fr_from_bytes_le(&in[0], a) && fr_from_bytes_le(&in[1], b));
    cuzk_poseidon_hash_textbook(&r, c, &tag, in);
    fr_to_bytes_le(out, &r);
}

static void u64_bytes(uint8_t out[32], uint64_t v)
{
    memset(out, 0, 32);
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

void snap_fx_rho(uint8_t out[32], const snap_fx *f, uint64_t node)
{
    uint8_t high[32];
    u64_bytes(high, node >> (lg(f->cfg.nodes) - f->cfg.h));
    hash_custom(out, f->phi, high);
}

static void comm_r(uint8_t out[32], const uint8_t comm_c[32], const uint8_t root[32])
{
    uint8_t pair[64];
    memcpy(pair, comm_c, 32);
    memcpy(pair + 32, root, 32);
    CHECK(cuzk_poseidon_node(out, 2, pair, NULL) == CUZK_OK);
}

void snap_fx_build_from(snap_fx *f, const cuzk_snap_config_t *cfg, const uint8_t *old, const uint8_t *data,
                        const uint8_t comm_c[32], uint64_t data_delta)
{
    memset(f, 0, sizeof *f);
    f->cfg = *cfg;
    uint64_t n = cfg->nodes;
    f->old = malloc(n * 32);
    f->data = malloc(n * 32);
    f->nw = malloc(n * 32);
    memcpy(f->old, old, n * 32);
    memcpy(f->data, data, n * 32);
    memcpy(f->comm_c, comm_c, 32);
    tree_build(&f->d, 1, f, f->data);
    tree_build(&f->r_old, 0, f, f->old);
    memcpy(f->comm_d_new, f->d.lv[f->d.levels], 32);
    comm_r(f->comm_r_old, f->comm_c, f->r_old.lv[f->r_old.levels]);
    hash_custom(f->phi, f->comm_d_new, f->comm_r_old);
    fr delta;
    fr_from_u64(&delta, data_delta);
    /* rho takes one value per run of nodes with the same high bits: each computed once */
    uint32_t shift = lg(n) - cfg->h;
    fr rho;
    for (uint64_t i = 0; i < n; i++) {
        if (i % (1ull << shift) == 0) {
            uint8_t rb[32];
            snap_fx_rho(rb, f, i);
            CHECK(fr_from_bytes_le(&rho, rb));
        }
        fr o, d;
        CHECK(fr_from_bytes_le(&o, f->old + i * 32) && fr_from_bytes_le(&d, f->data + i * 32));
        fr_add(&d, &d, &delta);
        fr_mul(&d, &d, &rho);
        fr_add(&o, &o, &d);
        fr_to_bytes_le(f->nw + i * 32, &o);
    }
    tree_build(&f->r_new, 0, f, f->nw);
    comm_r(f->comm_r_new, f->comm_c, f->r_new.lv[f->r_new.levels]);
}

void snap_fx_build(snap_fx *f, const cuzk_snap_config_t *cfg, uint64_t data_delta)
{
    uint64_t n = cfg->nodes;
    uint8_t *old = malloc(n * 32), *data = malloc(n * 32), comm_c[32];
    for (uint64_t i = 0; i < n; i++) {
        test_rand_fr_bytes(old + i * 32);
        test_rand_bytes(data + i * 32, 32);
        data[i * 32 + 31] &= 0x3f; /* Fr32: the top two bits clear */
    }
    test_rand_fr_bytes(comm_c);
    snap_fx_build_from(f, cfg, old, data, comm_c, data_delta);
    free(old);
    free(data);
}

void snap_fx_free(snap_fx *f)
{
    free(f->old);
    free(f->data);
    free(f->nw);
    tree_free(&f->d);
    tree_free(&f->r_old);
    tree_free(&f->r_new);
    memset(f, 0, sizeof *f);
}

void snap_fx_challenges(uint64_t *out, const snap_fx *f, uint32_t k)
{
    uint32_t bits = lg(f->cfg.nodes), pbits = lg(f->cfg.partition_count), rb = bits - pbits;
    uint32_t per_digest = 254 / rb, cc = f->cfg.challenge_count;
    uint32_t digests = (cc + per_digest - 1) / per_digest;
    for (uint32_t j = 0; j < cc; j++) {
        uint8_t idx[32], digest[32];
        u64_bytes(idx, (uint64_t)k * digests + j / per_digest);
        hash_custom(digest, f->comm_r_new, idx);
        uint64_t c = 0;
        uint32_t start = (j % per_digest) * rb;
        for (uint32_t b = 0; b < rb; b++)
            c |= (uint64_t)(digest[(start + b) / 8] >> ((start + b) % 8) & 1) << b;
        out[j] = c | (uint64_t)k << rb;
    }
}

/* ---- the bytes ---- */

/* InclusionPath over levels [from, from + n) of t for leaf `node`. */
static void w_part(fc_stream_t *w, const snap_fx_tree *t, uint64_t node, uint32_t from, uint32_t n)
{
    fc_stream_u64(w, n);
    for (uint32_t l = 0; l < from; l++)
        node /= t->arity[l];
    for (uint32_t l = from; l < from + n; l++) {
        unsigned a = t->arity[l];
        uint64_t g = node / a * a;
        fc_stream_u64(w, a - 1);
        for (unsigned j = 0; j < a; j++)
            if (g + j != node)
                fc_stream_bytes(w, t->lv[l] + (g + j) * 32, 32);
        fc_stream_u64(w, node % a);
        node /= a;
    }
}

/* MerkleProof of leaf `node`: Single (no sub level), Sub, or Top. */
static void w_proof(fc_stream_t *w, const snap_fx *f, const snap_fx_tree *t, int tree_r, uint64_t node)
{
    uint32_t ns = tree_r && f->cfg.sub_arity, nt = tree_r && f->cfg.top_arity, nb = t->levels - ns - nt;
    uint32_t kind = nt ? 2 : ns ? 1 : 0;
    fc_stream_u32(w, kind);
    if (kind == 0) {
        fc_stream_bytes(w, t->lv[t->levels], 32);
        fc_stream_bytes(w, t->lv[0] + node * 32, 32);
        w_part(w, t, node, 0, nb);
        return;
    }
    w_part(w, t, node, 0, nb);
    w_part(w, t, node, nb, 1);
    if (kind == 2)
        w_part(w, t, node, nb + 1, 1);
    fc_stream_bytes(w, t->lv[t->levels], 32);
    fc_stream_bytes(w, t->lv[0] + node * 32, 32);
}

uint8_t *snap_fx_partition(const snap_fx *f, uint32_t k, const uint64_t *chal, size_t n, uint32_t apex_k,
                           size_t *len)
{
    const cuzk_snap_config_t *c = &f->cfg;
    uint64_t own[128];
    if (!chal) {
        snap_fx_challenges(own, f, k);
        chal = own;
        n = c->challenge_count;
    }
    fc_stream_t w = {0};
    fc_stream_bytes(&w, f->comm_c, 32);
    uint32_t na = c->apex_leaf_count, apex_h = lg(c->nodes) - lg(c->partition_count) - lg(na);
    fc_stream_u64(&w, na);
    fc_stream_bytes(&w, f->d.lv[apex_h] + (size_t)apex_k * na * 32, (size_t)na * 32);
    fc_stream_u64(&w, n);
    for (size_t i = 0; i < n; i++) {
        w_proof(&w, f, &f->r_old, 1, chal[i]);
        w_proof(&w, f, &f->d, 0, chal[i]);
        w_proof(&w, f, &f->r_new, 1, chal[i]);
    }
    *len = w.len;
    return w.buf;
}

/* ---- offsets ---- */

static size_t part_len(uint32_t n, unsigned a)
{
    return 8 + n * (16 + (size_t)(a - 1) * 32);
}

static size_t proof_len(const snap_fx *f, int which)
{
    const cuzk_snap_config_t *c = &f->cfg;
    if (which == 1)
        return 4 + 64 + part_len(lg(c->nodes), 2);
    uint32_t nb = f->r_old.levels - (c->sub_arity != 0) - (c->top_arity != 0);
    size_t len = 4 + 64 + part_len(nb, c->base_arity);
    if (c->sub_arity)
        len += part_len(1, c->sub_arity);
    if (c->top_arity)
        len += part_len(1, c->top_arity);
    return len;
}

size_t snap_fx_apex_offset(size_t j)
{
    return 32 + 8 + j * 32;
}

size_t snap_fx_path_offset(const snap_fx *f, size_t i, int which)
{
    size_t off = 32 + 8 + (size_t)f->cfg.apex_leaf_count * 32 + 8;
    size_t per = proof_len(f, 0) + proof_len(f, 1) + proof_len(f, 2);
    off += i * per;
    for (int w = 0; w < which; w++)
        off += proof_len(f, w);
    return off;
}

size_t snap_fx_sibling_offset(const snap_fx *f, int which, uint32_t level)
{
    const cuzk_snap_config_t *c = &f->cfg;
    if (which == 1)
        return 4 + 64 + 8 + (size_t)level * 48 + 8;
    uint32_t nb = f->r_old.levels - (c->sub_arity != 0) - (c->top_arity != 0);
    size_t lvl = 16 + (size_t)(c->base_arity - 1) * 32;
    int single = !c->sub_arity && !c->top_arity;
    size_t start = 4 + (single ? 64 : 0);
    if (level < nb)
        return start + 8 + level * lvl + 8;
    size_t off = start + part_len(nb, c->base_arity);
    if (level == nb)
        return off + 8 + 8;
    return off + part_len(1, c->sub_arity) + 8 + 8;
}
