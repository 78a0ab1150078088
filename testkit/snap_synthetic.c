/* Synthetic SnapDeals partition proofs (snap_synthetic.h): the touched nodes and their values, tree D and
 * tree R old, phi and the 2^h rhos, tree R new banded by rho, the commitments, then per partition its
 * challenges, apex leaves and the three paths of each challenge, written as bincode. */
#include "testkit/snap_synthetic.h"

#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "filecoin/registry/snap_proof.h"
#include "filecoin/vanilla/snap_challenges.h"
#include "filecoin/vanilla/snap_vproof.h"
#include "filecoin/vanilla/snap_vproof_write.h"
#include "testkit/band_tree.h"
#include "testkit/sparse_tree.h"

/* Nodes of their own (besides the uniform ones) in the old replica and the data. */
#define TOUCHED 256

/* trim(sha256(seed_bytes ‖ "cuzk synthetic SnapDeals " ‖ what ‖ u64_le(a))): a canonical Fr (and a valid
 * Fr32 data node). */
static void derive(uint8_t out[32], const uint8_t seed_bytes[32], const char *what, uint64_t a)
{
    static const char pfx[] = "cuzk synthetic SnapDeals ";
    uint8_t ab[8];
    for (int i = 0; i < 8; i++)
        ab[i] = (uint8_t)(a >> (8 * i));
    cuzk_fc_span_t s[4] = {{seed_bytes, 32}, {pfx, sizeof pfx - 1}, {what, strlen(what)}, {ab, sizeof ab}};
    cuzk_fc_sha256_trimmed(out, s, 4);
}

/* old + data · rho as 32 bytes. */
static void encode_node(uint8_t out[32], const uint8_t old[32], const uint8_t data[32], const fr *rho)
{
    fr o, d;
    fr_from_bytes_le(&o, old); /* canonical: derived values */
    fr_from_bytes_le(&d, data);
    fr_mul(&d, &d, rho);
    fr_add(&o, &o, &d);
    fr_to_bytes_le(out, &o);
}

typedef struct {
    cuzk_fc_sparse_tree_t td, tr_old;
    cuzk_fc_band_tree_t tr_new;
} trees_t;

/* Partition k's proof bytes into out->data[k]. */
static cuzk_status partition(cuzk_fc_snap_synthetic_t *out, const trees_t *t, const uint8_t comm_c[32], uint32_t k,
                             cuzk_err_t *err)
{
    const cuzk_snap_config_t *cfg = &out->cfg;
    uint32_t nc = cfg->challenge_count, na = cfg->apex_leaf_count;
    uint32_t apex_h = cuzk_fc_snap_log2(cfg->nodes) - cuzk_fc_snap_partition_bits(cfg) - cuzk_fc_snap_log2(na);
    size_t sr = cuzk_fc_sparse_tree_sibling_count(&t->tr_old), sd = cuzk_fc_sparse_tree_sibling_count(&t->td);
    uint64_t *chal = malloc(nc * sizeof *chal);
    uint8_t *apex = malloc((size_t)na * 32), *sib = malloc((size_t)nc * (2 * sr + sd) * 32);
    cuzk_fc_snap_challenge_proof_t *cp = calloc(nc, sizeof *cp);
    cuzk_status st = CUZK_OK;
    if (!chal || !apex || !sib || !cp) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap synthetic: out of memory (partition %u)", k);
        goto done;
    }
    if ((st = cuzk_snap_challenges(chal, cfg, out->comm_r_new, k, err)) != CUZK_OK)
        goto done;
    for (uint32_t j = 0; j < na; j++)
        cuzk_fc_sparse_tree_node(apex + (size_t)j * 32, &t->td, apex_h, (uint64_t)k * na + j);
    uint8_t *s = sib;
    for (uint32_t i = 0; i < nc && st == CUZK_OK; i++) {
        if ((st = cuzk_fc_sparse_tree_open(&t->tr_old, chal[i], &cp[i].r_old, s, err)) != CUZK_OK ||
            (st = cuzk_fc_sparse_tree_open(&t->td, chal[i], &cp[i].d_new, s + sr * 32, err)) != CUZK_OK)
            break;
        st = cuzk_fc_band_tree_open(&t->tr_new, chal[i], &cp[i].r_new, s + (sr + sd) * 32, err);
        s += (2 * sr + sd) * 32;
    }
    if (st != CUZK_OK)
        goto done;
    cuzk_fc_snap_vproof_t v = {.n_apex = na, .apex = apex, .n_challenges = nc, .challenges = cp};
    memcpy(v.comm_c, comm_c, 32);
    st = cuzk_fc_snap_vproof_encode(&out->data[k], &out->len[k], &v, err);
done:
    free(chal);
    free(apex);
    free(sib);
    free(cp);
    return st;
}

/* Poseidon2(comm_c, root). */
static cuzk_status comm_r(uint8_t out[32], const uint8_t comm_c[32], const uint8_t root[32], cuzk_err_t *err)
{
    uint8_t pair[64];
    memcpy(pair, comm_c, 32);
    memcpy(pair + 32, root, 32);
    return cuzk_poseidon_node(out, 2, pair, err);
}

static cuzk_status make(cuzk_fc_snap_synthetic_t *out, trees_t *t, const uint8_t comm_c[32], const uint8_t seed[32],
                        int threads, cuzk_err_t *err)
{
    const cuzk_snap_config_t *cfg = &out->cfg;
    uint64_t nodes = cfg->nodes, bands = 1ull << cfg->h;
    size_t n = nodes <= TOUCHED ? (size_t)nodes : TOUCHED;
    uint64_t *idx = malloc(n * sizeof *idx);
    uint8_t(*data)[32] = malloc(n * 32), (*old)[32] = malloc(n * 32), (*nw)[32] = malloc(n * 32);
    uint8_t(*band)[32] = malloc(bands * 32);
    fr *rho = malloc(bands * sizeof *rho);
    uint8_t d_data[32], d_old[32], phi_b[32];
    cuzk_status st = CUZK_OK;
    if (!idx || !data || !old || !nw || !band || !rho) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap synthetic: out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        uint8_t r[32];
        derive(r, seed, "touched node", i);
        idx[i] = nodes <= TOUCHED ? i : (r[0] | (uint64_t)r[1] << 8 | (uint64_t)r[2] << 16 | (uint64_t)r[3] << 24 |
                                         (uint64_t)r[4] << 32) % nodes;
        derive(data[i], seed, "data node", idx[i]); /* a repeated index: the same values */
        derive(old[i], seed, "old replica node", idx[i]);
    }
    derive(d_data, seed, "data", 0);
    derive(d_old, seed, "old replica", 0);
    if ((st = cuzk_fc_sparse_tree_build(&t->td, CUZK_FC_MERKLE_SHA256, 2, 0, 0, nodes, d_data, idx,
                                        (const uint8_t(*)[32])data, n, threads, err)) != CUZK_OK ||
        (st = cuzk_fc_sparse_tree_build(&t->tr_old, CUZK_FC_MERKLE_POSEIDON, cfg->base_arity, cfg->sub_arity,
                                        cfg->top_arity, nodes, d_old, idx, (const uint8_t(*)[32])old, n, threads,
                                        err)) != CUZK_OK)
        goto done;
    memcpy(out->comm_d_new, t->td.root, 32);
    if ((st = comm_r(out->comm_r_old, comm_c, t->tr_old.root, err)) != CUZK_OK ||
        (st = cuzk_snap_phi(phi_b, out->comm_d_new, out->comm_r_old, err)) != CUZK_OK)
        goto done;
    fr phi;
    fr_from_bytes_le(&phi, phi_b);
    /* rho of band b is rho of the nodes whose h high bits are b */
    if ((st = cuzk_fc_snap_rhos(rho, &phi, 0, (size_t)bands, false, err)) != CUZK_OK)
        goto done;
    for (uint64_t b = 0; b < bands; b++)
        encode_node(band[b], d_old, d_data, &rho[b]);
    uint32_t shift = cuzk_fc_snap_high_shift(cfg);
    for (size_t i = 0; i < n; i++)
        encode_node(nw[i], old[i], data[i], &rho[idx[i] >> shift]);
    if ((st = cuzk_fc_band_tree_build(&t->tr_new, CUZK_FC_MERKLE_POSEIDON, cfg->base_arity, cfg->sub_arity,
                                      cfg->top_arity, nodes, bands, (const uint8_t(*)[32])band, idx,
                                      (const uint8_t(*)[32])nw, n, threads, err)) != CUZK_OK ||
        (st = comm_r(out->comm_r_new, comm_c, t->tr_new.root, err)) != CUZK_OK)
        goto done;
    out->n = cfg->partition_count;
    for (uint32_t k = 0; k < cfg->partition_count && st == CUZK_OK; k++)
        st = partition(out, t, comm_c, k, err);
done:
    free(idx);
    free(data);
    free(old);
    free(nw);
    free(band);
    free(rho);
    return st;
}

void cuzk_fc_snap_synthetic_free(cuzk_fc_snap_synthetic_t *s)
{
    if (!s)
        return;
    for (size_t k = 0; k < CUZK_SNAP_MAX_PARTITIONS; k++)
        free(s->data[k]);
    memset(s, 0, sizeof *s);
}

cuzk_status cuzk_fc_snap_synthetic(cuzk_fc_snap_synthetic_t *out, const cuzk_snap_config_t *cfg,
                                   const uint8_t comm_c[32], const uint8_t seed_bytes[32], int threads,
                                   cuzk_err_t *err)
{
    if (!out || !cfg || !comm_c || !seed_bytes)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap synthetic: NULL argument");
    memset(out, 0, sizeof *out);
    cuzk_status st = cuzk_snap_config_check(cfg, err);
    if (st != CUZK_OK)
        return st;
    fr chk;
    if (!fr_from_bytes_le(&chk, comm_c))
        return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "snap synthetic: comm_c is not a canonical Fr");
    out->cfg = *cfg;
    trees_t t;
    memset(&t, 0, sizeof t);
    st = make(out, &t, comm_c, seed_bytes, threads, err);
    cuzk_fc_sparse_tree_free(&t.td);
    cuzk_fc_sparse_tree_free(&t.tr_old);
    cuzk_fc_band_tree_free(&t.tr_new);
    if (st != CUZK_OK)
        cuzk_fc_snap_synthetic_free(out);
    return st;
}
