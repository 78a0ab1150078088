/* A consistent SnapDeals instance from whole trees (see snap_fixture.h): everything but the challenge
 * iterator is computed here from the reference's formulas (vanilla.rs phi, rho and the encoding,
 * tests/circuit.rs' trees and apex leaves), with the textbook Poseidon permutation and libcrypto's SHA-256
 * node hash, so that a circuit which disagrees with the reference on any of them is not satisfied. */
#include "snap_fixture.h"
#include <stdlib.h>
#include <string.h>
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/poseidon_constants.h"
#include "filecoin/hash/sha256_tree.h"
#include "test_util.h"

static unsigned log2u64(uint64_t x) { return (unsigned)__builtin_ctzll(x); }

void snap_fixture_poseidon2(fr *out, const fr *a, const fr *b, bool gen_tag)
{
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(2);
    fr tag, in[2] = {*a, *b};
    if (gen_tag) {
        /* HashType::Custom(CType::Arbitrary(1)): the domain tag 1·2^40 */
        uint64_t l[4] = {1ull << 40, 0, 0, 0};
        fr_to_mont(&tag, l);
    } else {
        tag = c->merkle_tag;
    }
    cuzk_poseidon_hash_textbook(out, c, &tag, in);
}

static fr textbook(unsigned arity, const fr *in)
{
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(arity);
    fr out;
    cuzk_poseidon_hash_textbook(&out, c, &c->merkle_tag, in);
    return out;
}

/* Tree R over leaves (level 0, already filled): base levels of the base arity up to the base trees' roots,
 * then the sub and top levels. */
static void tree_r_build(snap_fixture_t *f, fr **lv)
{
    for (unsigned l = 0; l < f->r_levels; l++) {
        unsigned a = f->r_arity[l];
        lv[l + 1] = malloc(f->r_width[l + 1] * sizeof(fr));
        for (uint64_t j = 0; j < f->r_width[l + 1]; j++)
            lv[l + 1][j] = textbook(a, &lv[l][j * a]);
    }
}

void snap_fixture_rho(fr *rho, const snap_fixture_t *f, uint64_t node)
{
    fr high;
    fr_from_u64(&high, node >> (f->d_levels - f->cfg.h));
    snap_fixture_poseidon2(rho, &f->phi, &high, true);
}

void snap_fixture_make(snap_fixture_t *f, const cuzk_snap_config_t *cfg)
{
    memset(f, 0, sizeof *f);
    f->cfg = *cfg;
    uint64_t n = cfg->nodes;
    f->d_levels = log2u64(n);

    /* tree R's levels */
    uint64_t per = (uint64_t)(cfg->sub_arity ? cfg->sub_arity : 1) * (cfg->top_arity ? cfg->top_arity : 1);
    for (uint64_t b = n / per; b > 1; b /= cfg->base_arity)
        f->r_arity[f->r_levels++] = cfg->base_arity;
    if (cfg->sub_arity)
        f->r_arity[f->r_levels++] = cfg->sub_arity;
    if (cfg->top_arity)
        f->r_arity[f->r_levels++] = cfg->top_arity;
    f->r_width[0] = n;
    for (unsigned l = 0; l < f->r_levels; l++)
        f->r_width[l + 1] = f->r_width[l] / f->r_arity[l];

    /* the old replica, tree R old, comm_c, comm_r_old = Poseidon2(comm_c, root_r_old) */
    f->r_old[0] = malloc(n * sizeof(fr));
    for (uint64_t i = 0; i < n; i++)
        test_rand_fr(&f->r_old[0][i]);
    tree_r_build(f, f->r_old);
    test_rand_fr(&f->comm_c);
    snap_fixture_poseidon2(&f->comm_r_old, &f->comm_c, &f->r_old[f->r_levels][0], false);

    /* the new data and tree D: trim(sha256(left ‖ right)) on 32-byte little-endian nodes */
    f->d[0] = malloc(n * sizeof(fr));
    for (uint64_t i = 0; i < n; i++)
        test_rand_fr(&f->d[0][i]);
    for (unsigned l = 0; l < f->d_levels; l++) {
        uint64_t w = n >> (l + 1);
        f->d[l + 1] = malloc(w * sizeof(fr));
        for (uint64_t j = 0; j < w; j++) {
            uint8_t a[32], b[32], h[32];
            fr_to_bytes_le(a, &f->d[l][2 * j]);
            fr_to_bytes_le(b, &f->d[l][2 * j + 1]);
            cuzk_fc_sha256_node(h, a, b);
            CHECK(fr_from_bytes_le(&f->d[l + 1][j], h)); /* trimmed: below 2^254 */
        }
    }
    f->comm_d_new = f->d[f->d_levels][0];

    /* phi = Poseidon2^Custom(1)(comm_d_new, comm_r_old); new[i] = old[i] + data[i]·rho(i) */
    snap_fixture_poseidon2(&f->phi, &f->comm_d_new, &f->comm_r_old, true);
    f->r_new[0] = malloc(n * sizeof(fr));
    for (uint64_t i = 0; i < n; i++) {
        fr rho, t;
        snap_fixture_rho(&rho, f, i);
        fr_mul(&t, &f->d[0][i], &rho);
        fr_add(&f->r_new[0][i], &f->r_old[0][i], &t);
    }
    tree_r_build(f, f->r_new);
    snap_fixture_poseidon2(&f->comm_r_new, &f->comm_c, &f->r_new[f->r_levels][0], false);
}

void snap_fixture_free(snap_fixture_t *f)
{
    for (unsigned l = 0; l <= SNAP_FIXTURE_MAX_LEVELS; l++) {
        free(f->r_old[l]);
        free(f->r_new[l]);
        free(f->d[l]);
    }
    memset(f, 0, sizeof *f);
}

/* Tree R path of leaf idx: per level the siblings in the tree's order without the node itself. */
static void r_path(const snap_fixture_t *f, fr *const *lv, uint64_t idx, fr *out)
{
    uint64_t j = idx;
    for (unsigned l = 0; l < f->r_levels; l++) {
        unsigned a = f->r_arity[l];
        uint64_t first = j / a * a;
        for (unsigned k = 0; k < a; k++)
            if (first + k != j)
                *out++ = lv[l][first + k];
        j /= a;
    }
}

void snap_fixture_witness(cuzk_snap_witness_t *w, const snap_fixture_t *f, uint32_t k,
                          fr inputs[CUZK_SNAP_NUM_INPUTS], uint64_t *challenges)
{
    const cuzk_snap_config_t *cfg = &f->cfg;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_snap_witness_init(w, cfg, &err) == CUZK_OK, "%s", err.msg);
    uint64_t *ch = malloc(cfg->challenge_count * sizeof *ch);
    uint8_t crn[32];
    fr_to_bytes_le(crn, &f->comm_r_new);
    CHECK_MSG(cuzk_snap_challenges(ch, cfg, crn, k, &err) == CUZK_OK, "%s", err.msg);

    w->has_values = true;
    w->k = k;
    w->comm_r_old = f->comm_r_old;
    w->comm_d_new = f->comm_d_new;
    w->comm_r_new = f->comm_r_new;
    w->comm_c = f->comm_c;
    w->root_r_old = f->r_old[f->r_levels][0];
    w->root_r_new = f->r_new[f->r_levels][0];
    /* the apex leaves: the partition's run of the tree-D row log2(partitions) + log2(apex leaves) below the
     * root (tests/circuit.rs get_apex_leafs) */
    unsigned pbits = log2u64(cfg->partition_count), abits = log2u64(cfg->apex_leaf_count);
    unsigned row = f->d_levels - pbits - abits;
    for (uint32_t i = 0; i < cfg->apex_leaf_count; i++)
        w->apex_leaves[i] = f->d[row][(uint64_t)k * cfg->apex_leaf_count + i];
    for (uint32_t c = 0; c < cfg->challenge_count; c++) {
        cuzk_snap_challenge_witness_t *cw = &w->challenges[c];
        uint64_t idx = ch[c];
        CHECK_MSG(idx < cfg->nodes && idx >> (f->d_levels - pbits) == k, "challenge %u = %llu outside partition %u", c,
                  (unsigned long long)idx, k);
        cw->leaf_r_old = f->r_old[0][idx];
        cw->leaf_d_new = f->d[0][idx];
        cw->leaf_r_new = f->r_new[0][idx];
        r_path(f, f->r_old, idx, cw->siblings_r_old);
        r_path(f, f->r_new, idx, cw->siblings_r_new);
        for (unsigned l = 0; l < f->d_levels; l++)
            cw->siblings_d_new[l] = f->d[l][(idx >> l) ^ 1];
        if (challenges)
            challenges[c] = idx;
    }
    free(ch);

    /* constants.rs: hs = [1; 6] up to 32KiB, else [7, 8, 9, 10, 11, 12]; h_select one-hot at h's index */
    unsigned h_index = 0;
    if (cfg->nodes > (1u << 10))
        while (h_index < 6 && 7 + h_index != cfg->h)
            h_index++;
    CHECK(h_index < 6);
    inputs[0] = FR_ONE;
    fr_from_u64(&inputs[1], (uint64_t)k | 1ull << (h_index + pbits));
    inputs[2] = f->comm_r_old;
    inputs[3] = f->comm_d_new;
    inputs[4] = f->comm_r_new;
}
