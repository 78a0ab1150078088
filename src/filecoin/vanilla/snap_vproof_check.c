/* The checks of a SnapDeals partition proof before synthesis (snap_vproof.h: shape, commitments, every
 * challenge's paths, the encoding and the apex leaves, as storage-proofs-update vanilla.rs verifies a
 * partition) and the circuit's witness values taken from it. Challenges are checked in parallel: each
 * costs two Poseidon paths, a SHA-256 path and a rho, and a 32GiB partition has 86 of them. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "filecoin/registry/snap_proof.h"
#include "filecoin/vanilla/snap_vproof.h"
#include "util/parallel.h"

static const cuzk_fc_merkle_path_t *path_of(const cuzk_fc_snap_challenge_proof_t *c, int which)
{
    return which == 0 ? &c->r_old : which == 1 ? &c->d_new : &c->r_new;
}

cuzk_status cuzk_fc_snap_vproof_check_shape(const cuzk_fc_snap_vproof_t *v, const cuzk_snap_config_t *cfg,
                                            uint32_t k, cuzk_err_t *err)
{
    if (!v || !cfg)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap vproof check: NULL argument");
    cuzk_status st = cuzk_snap_config_check(cfg, err);
    if (st != CUZK_OK)
        return st;
    if (k >= cfg->partition_count)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap: partition %u of %u", k, cfg->partition_count);
    if (v->n_apex != cfg->apex_leaf_count)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "snap: partition %u: %zu apex leaves, the sector size has %u", k,
                            v->n_apex, cfg->apex_leaf_count);
    if (v->n_challenges != cfg->challenge_count)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "snap: partition %u: %zu challenge proofs, the sector size has %u",
                            k, v->n_challenges, cfg->challenge_count);
    for (size_t i = 0; i < v->n_challenges; i++)
        for (int w = 0; w < 3; w++) {
            cuzk_err_t e;
            const cuzk_fc_merkle_path_t *p = path_of(&v->challenges[i], w);
            st = w == 1 ? cuzk_fc_merkle_path_check_shape(p, 2, 0, 0, cfg->nodes, &e)
                        : cuzk_fc_merkle_path_check_shape(p, cfg->base_arity, cfg->sub_arity, cfg->top_arity,
                                                          cfg->nodes, &e);
            if (st != CUZK_OK)
                return cuzk_err_set(err, st, "snap: partition %u, challenge %zu, %s path: %s", k, i,
                                    cuzk_fc_snap_path_name(w), e.msg);
        }
    return CUZK_OK;
}

/* ---- verification ---------------------------------------------------------------------------------- */

typedef struct {
    const cuzk_fc_snap_vproof_t *v;
    const cuzk_snap_config_t *cfg;
    uint32_t k;
    const uint64_t *chal;
    const uint8_t *roots[3]; /* root_r_old, comm_d_new, root_r_new */
    fr phi;
    uint32_t apex_h, apex_bits;
    const uint8_t *apex_tree; /* row 0 (the apex leaves), row 1, ... the apex root, 32 bytes a node */
    cuzk_status *st;
    cuzk_err_t *errs;
} verify_ctx;

/* Node j of row `row` of the apex tree (row 0: the leaves). */
static const uint8_t *apex_node(const verify_ctx *c, uint32_t row, uint64_t j)
{
    size_t off = 0, n = c->v->n_apex;
    for (uint32_t r = 0; r < row; r++, n /= 2)
        off += n;
    return c->apex_tree + (off + j) * 32;
}

static cuzk_status challenge_error(cuzk_err_t *err, cuzk_status st, const verify_ctx *c, size_t i, int which,
                                   const char *what)
{
    if (which < 0)
        return cuzk_err_set(err, st, "snap: partition %u, challenge %zu (node %llu): %s", c->k, i,
                            (unsigned long long)c->chal[i], what);
    return cuzk_err_set(err, st, "snap: partition %u, challenge %zu (node %llu), %s path: %s", c->k, i,
                        (unsigned long long)c->chal[i], cuzk_fc_snap_path_name(which), what);
}

static cuzk_status check_challenge(const verify_ctx *c, size_t i, cuzk_err_t *err)
{
    static const char *const root_names[3] = {"the root of tree R old (the first challenge's)", "comm_d_new",
                                              "the root of tree R new (the first challenge's)"};
    const cuzk_fc_snap_challenge_proof_t *cp = &c->v->challenges[i];
    uint64_t node = c->chal[i];
    cuzk_err_t e;
    cuzk_status st;
    char msg[200];
    for (int w = 0; w < 3; w++) {
        const cuzk_fc_merkle_path_t *p = path_of(cp, w);
        uint64_t opened;
        if ((st = cuzk_fc_merkle_leaf_index(&opened, p, &e)) != CUZK_OK)
            return challenge_error(err, st, c, i, w, e.msg);
        if (opened != node) {
            snprintf(msg, sizeof msg, "opens node %llu, not the challenge", (unsigned long long)opened);
            return challenge_error(err, CUZK_ERR_MISMATCH, c, i, w, msg);
        }
        if (memcmp(p->root, c->roots[w], 32) != 0) {
            snprintf(msg, sizeof msg, "claims a root that is not %s", root_names[w]);
            return challenge_error(err, CUZK_ERR_MISMATCH, c, i, w, msg);
        }
        if ((st = cuzk_fc_merkle_verify(p, &e)) != CUZK_OK)
            return challenge_error(err, st, c, i, w, e.msg);
    }
    /* the encoding at the challenged node: new = old + data · rho(node) */
    fr old, data, nw, rho, want;
    if (!fr_from_bytes_le(&old, cp->r_old.leaf))
        return challenge_error(err, CUZK_ERR_NOT_CANONICAL, c, i, 0, "the leaf is not a field element");
    if (!fr_from_bytes_le(&data, cp->d_new.leaf))
        return challenge_error(err, CUZK_ERR_NOT_CANONICAL, c, i, 1, "the leaf is not a field element");
    if (!fr_from_bytes_le(&nw, cp->r_new.leaf))
        return challenge_error(err, CUZK_ERR_NOT_CANONICAL, c, i, 2, "the leaf is not a field element");
    cuzk_snap_rho(&rho, c->cfg, &c->phi, node);
    fr_mul(&want, &data, &rho);
    fr_add(&want, &want, &old);
    if (!fr_eq(&want, &nw))
        return challenge_error(err, CUZK_ERR_MISMATCH, c, i, -1,
                               "the encoding does not hold: leaf_r_new != leaf_r_old + leaf_d_new * rho");
    /* the apex leaves: tree D's node at the apex-leaf row and its siblings up the apex tree */
    cuzk_fc_merkle_path_t low = cp->d_new;
    low.n_base = c->apex_h;
    uint8_t at_apex[32];
    if ((st = cuzk_fc_merkle_compute_root(at_apex, &low, &e)) != CUZK_OK)
        return challenge_error(err, st, c, i, 1, e.msg);
    uint64_t a = (node >> c->apex_h) & (c->v->n_apex - 1);
    if (memcmp(at_apex, c->v->apex + a * 32, 32) != 0) {
        snprintf(msg, sizeof msg, "its node at the apex-leaf row (level %u) is not apex leaf %llu", c->apex_h,
                 (unsigned long long)a);
        return challenge_error(err, CUZK_ERR_MISMATCH, c, i, 1, msg);
    }
    for (uint32_t r = 0; r < c->apex_bits; r++) {
        const uint8_t *sib = cp->d_new.siblings + (size_t)(c->apex_h + r) * 32;
        uint64_t j = (a >> r) ^ 1;
        if (memcmp(sib, apex_node(c, r, j), 32) != 0) {
            snprintf(msg, sizeof msg, "its sibling at level %u is not node %llu of the apex tree's row %u",
                     c->apex_h + r, (unsigned long long)j, r);
            return challenge_error(err, CUZK_ERR_MISMATCH, c, i, 1, msg);
        }
    }
    return CUZK_OK;
}

static void check_range(void *arg, size_t b, size_t e)
{
    verify_ctx *c = arg;
    for (size_t i = b; i < e; i++)
        c->st[i] = check_challenge(c, i, &c->errs[i]);
}

/* Poseidon2(comm_c, root) = comm, naming the tree. */
static cuzk_status check_comm_r(const cuzk_fc_snap_vproof_t *v, uint32_t k, const uint8_t root[32],
                                const uint8_t comm[32], const char *tree, const char *comm_name, cuzk_err_t *err)
{
    uint8_t pair[64], h[32];
    cuzk_err_t e;
    memcpy(pair, v->comm_c, 32);
    memcpy(pair + 32, root, 32);
    cuzk_status st = cuzk_poseidon_node(h, 2, pair, &e);
    if (st != CUZK_OK)
        return cuzk_err_set(err, st, "snap: partition %u: comm_c or the root of %s (the first challenge's): %s", k,
                            tree, e.msg);
    if (memcmp(h, comm, 32) != 0)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "snap: partition %u: Poseidon2(comm_c, root of %s) is not %s: the proof is of another "
                            "sector or update",
                            k, tree, comm_name);
    return CUZK_OK;
}

/* Challenges a checking thread takes at a time. */
#define CHECK_GRAIN 4

cuzk_status cuzk_fc_snap_vproof_verify(const cuzk_fc_snap_vproof_t *v, const cuzk_snap_config_t *cfg, uint32_t k,
                                       const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                       const uint8_t comm_r_new[32], int threads, cuzk_err_t *err)
{
    if (!comm_r_old || !comm_d_new || !comm_r_new)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap vproof check: NULL argument");
    cuzk_status st = cuzk_fc_snap_vproof_check_shape(v, cfg, k, err);
    if (st != CUZK_OK)
        return st;
    fr tmp;
    if (!fr_from_bytes_le(&tmp, comm_r_old) || !fr_from_bytes_le(&tmp, comm_d_new) ||
        !fr_from_bytes_le(&tmp, comm_r_new))
        return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "snap: comm_r_old, comm_d_new or comm_r_new is not a field "
                                                         "element (32 little-endian bytes below r)");
    if (!fr_from_bytes_le(&tmp, v->comm_c))
        return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "snap: partition %u: comm_c is not a field element", k);
    for (size_t j = 0; j < v->n_apex; j++)
        if (!fr_from_bytes_le(&tmp, v->apex + j * 32))
            return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "snap: partition %u: apex leaf %zu is not a field element",
                                k, j);
    const uint8_t *root_r_old = v->challenges[0].r_old.root, *root_r_new = v->challenges[0].r_new.root;
    if ((st = check_comm_r(v, k, root_r_old, comm_r_old, "tree R old", "comm_r_old", err)) != CUZK_OK ||
        (st = check_comm_r(v, k, root_r_new, comm_r_new, "tree R new", "comm_r_new", err)) != CUZK_OK)
        return st;

    verify_ctx c = {.v = v, .cfg = cfg, .k = k, .roots = {root_r_old, comm_d_new, root_r_new}};
    uint8_t phi[32];
    if ((st = cuzk_snap_phi(phi, comm_d_new, comm_r_old, err)) != CUZK_OK)
        return st;
    fr_from_bytes_le(&c.phi, phi); /* a hash: canonical */
    uint32_t bits = cuzk_fc_snap_log2(cfg->nodes);
    c.apex_bits = cuzk_fc_snap_log2(cfg->apex_leaf_count);
    c.apex_h = bits - cuzk_fc_snap_partition_bits(cfg) - c.apex_bits; /* a checked config leaves room */
    size_t n = v->n_challenges, na = v->n_apex;
    uint64_t *chal = malloc(n * sizeof *chal);
    uint8_t *tree = malloc((2 * na - 1) * 32);
    c.st = malloc(n * sizeof *c.st);
    c.errs = malloc(n * sizeof *c.errs);
    if (!chal || !tree || !c.st || !c.errs) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap: partition %u: out of memory for the checks", k);
        goto done;
    }
    if ((st = cuzk_snap_challenges(chal, cfg, comm_r_new, k, err)) != CUZK_OK)
        goto done;
    c.chal = chal;
    memcpy(tree, v->apex, na * 32);
    for (size_t in = 0, out = na, w = na; w > 1; in += w, w /= 2)
        for (size_t j = 0; j < w; j += 2, out++)
            cuzk_fc_sha256_node(tree + out * 32, tree + (in + j) * 32, tree + (in + j + 1) * 32);
    c.apex_tree = tree;
    if (threads <= 0)
        threads = cuzk_cpu_count();
    cuzk_parallel_for(n > CHECK_GRAIN ? threads : 1, n, CHECK_GRAIN, check_range, &c);
    for (size_t i = 0; i < n && st == CUZK_OK; i++)
        if ((st = c.st[i]) != CUZK_OK && err)
            *err = c.errs[i];
done:
    free(chal);
    free(tree);
    free(c.st);
    free(c.errs);
    return st;
}

/* ---- the witness ----------------------------------------------------------------------------------- */

static cuzk_status to_fr(cuzk_fr_t *out, const uint8_t b[32], uint32_t k, long ch, int which, const char *what,
                         cuzk_err_t *err)
{
    if (fr_from_bytes_le(out, b))
        return CUZK_OK;
    if (ch < 0)
        return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "snap: partition %u: %s is not a field element", k, what);
    return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "snap: partition %u, challenge %ld, %s path: %s is not a field "
                                                     "element", k, ch, cuzk_fc_snap_path_name(which), what);
}

/* A path's siblings, in order, into out. */
static cuzk_status siblings(cuzk_fr_t *out, const cuzk_fc_merkle_path_t *p, uint32_t k, long ch, int which,
                            cuzk_err_t *err)
{
    size_t n = cuzk_fc_merkle_sibling_count(p);
    for (size_t s = 0; s < n; s++)
        if (to_fr(&out[s], p->siblings + 32 * s, k, ch, which, "a sibling", err) != CUZK_OK)
            return CUZK_ERR_NOT_CANONICAL;
    return CUZK_OK;
}

static cuzk_status fill(cuzk_snap_witness_t *w, const cuzk_fc_snap_vproof_t *v, uint32_t k,
                        const uint8_t comm_r_old[32], const uint8_t comm_d_new[32], const uint8_t comm_r_new[32],
                        cuzk_err_t *err)
{
    w->k = k;
    if (to_fr(&w->comm_r_old, comm_r_old, k, -1, 0, "comm_r_old", err) != CUZK_OK ||
        to_fr(&w->comm_d_new, comm_d_new, k, -1, 0, "comm_d_new", err) != CUZK_OK ||
        to_fr(&w->comm_r_new, comm_r_new, k, -1, 0, "comm_r_new", err) != CUZK_OK ||
        to_fr(&w->comm_c, v->comm_c, k, -1, 0, "comm_c", err) != CUZK_OK ||
        to_fr(&w->root_r_old, v->challenges[0].r_old.root, k, -1, 0, "the root of tree R old", err) != CUZK_OK ||
        to_fr(&w->root_r_new, v->challenges[0].r_new.root, k, -1, 0, "the root of tree R new", err) != CUZK_OK)
        return CUZK_ERR_NOT_CANONICAL;
    for (size_t j = 0; j < v->n_apex; j++)
        if (!fr_from_bytes_le(&w->apex_leaves[j], v->apex + 32 * j))
            return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "snap: partition %u: apex leaf %zu is not a field element",
                                k, j);
    for (size_t i = 0; i < v->n_challenges; i++) {
        const cuzk_fc_snap_challenge_proof_t *cp = &v->challenges[i];
        cuzk_snap_challenge_witness_t *cw = &w->challenges[i];
        long ch = (long)i;
        if (to_fr(&cw->leaf_r_old, cp->r_old.leaf, k, ch, 0, "the leaf", err) != CUZK_OK ||
            to_fr(&cw->leaf_d_new, cp->d_new.leaf, k, ch, 1, "the leaf", err) != CUZK_OK ||
            to_fr(&cw->leaf_r_new, cp->r_new.leaf, k, ch, 2, "the leaf", err) != CUZK_OK ||
            siblings(cw->siblings_r_old, &cp->r_old, k, ch, 0, err) != CUZK_OK ||
            siblings(cw->siblings_d_new, &cp->d_new, k, ch, 1, err) != CUZK_OK ||
            siblings(cw->siblings_r_new, &cp->r_new, k, ch, 2, err) != CUZK_OK)
            return CUZK_ERR_NOT_CANONICAL;
    }
    return CUZK_OK;
}

cuzk_status cuzk_fc_snap_vproof_witness(cuzk_snap_witness_t *w, const cuzk_fc_snap_vproof_t *v, uint32_t k,
                                        const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                        const uint8_t comm_r_new[32], cuzk_err_t *err)
{
    if (!w || !v || !comm_r_old || !comm_d_new || !comm_r_new)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap witness: NULL argument");
    w->has_values = false;
    if (!w->apex_leaves || !w->challenges)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap witness: not initialized (cuzk_snap_witness_init)");
    cuzk_status st = cuzk_fc_snap_vproof_check_shape(v, &w->cfg, k, err);
    if (st != CUZK_OK)
        return st;
    if ((st = fill(w, v, k, comm_r_old, comm_d_new, comm_r_new, err)) != CUZK_OK)
        return st;
    w->has_values = true;
    return CUZK_OK;
}
