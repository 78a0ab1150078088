/* Poseidon over BLS12-381 Fr: neptune's OptimizedStatic schedule (the one Filecoin's trees, column
 * hashes and comm_r use; the hot path of tree building), its textbook form as the test oracle, and
 * the byte-level entry points for 32-byte little-endian tree nodes. */
#include "filecoin/hash/poseidon.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "ff/ifma/ifma.h"
#include "filecoin/hash/poseidon_ifma.h"

#define T_MAX CUZK_POSEIDON_MAX_WIDTH

static inline void sbox(fr *x)
{
    fr x2, x4;
    fr_sqr(&x2, x);
    fr_sqr(&x4, &x2);
    fr_mul(x, x, &x4);
}

/* out = Σ_k a[k·stride]·v[k], k < n */
static inline void dot(fr *out, const fr *a, size_t stride, const fr *v, unsigned n)
{
    fr acc, t;
    fr_mul(&acc, &a[0], &v[0]);
    for (unsigned k = 1; k < n; k++) {
        fr_mul(&t, &a[k * stride], &v[k]);
        fr_add(&acc, &acc, &t);
    }
    *out = acc;
}

/* s ← M·s (row i of M times s); M is symmetric, so this is also s·M. */
static void mds_product(fr *s, const fr *m, unsigned t)
{
    fr r[T_MAX];
    for (unsigned i = 0; i < t; i++)
        dot(&r[i], &m[(size_t)i * t], 1, s, t);
    memcpy(s, r, sizeof(fr) * t);
}

/* s ← s·P (column j of P against s): neptune's product_mds_with_matrix for the pre-sparse matrix,
 * which is not symmetric. */
static void vec_mat_product(fr *s, const fr *p, unsigned t)
{
    fr r[T_MAX];
    for (unsigned j = 0; j < t; j++)
        dot(&r[j], &p[j], t, s, t);
    memcpy(s, r, sizeof(fr) * t);
}

/* s ← s·S for a sparse S: first column w_hat dense, first row v_rest, identity below-right. */
static void sparse_product(fr *s, const fr *w_hat, const fr *v_rest, unsigned t)
{
    fr s0 = s[0], t0;
    dot(&s[0], w_hat, 1, s, t);
    for (unsigned j = 1; j < t; j++) {
        fr_mul(&t0, &v_rest[j - 1], &s0);
        fr_add(&s[j], &s[j], &t0);
    }
}

void cuzk_poseidon_hash_with(fr *out, const cuzk_poseidon_constants_t *c, const fr *tag, const fr *in)
{
    const unsigned t = c->width, h = c->half_full_rounds, p = c->partial_rounds;
    const fr *k = c->compressed_round_constants;
    fr s[T_MAX];
    s[0] = *tag;
    memcpy(&s[1], in, sizeof(fr) * (t - 1));

    for (unsigned i = 0; i < t; i++)
        fr_add(&s[i], &s[i], &k[i]);
    k += t;

    /* initial full rounds: S-box, then the next round's key (moved before this MDS); the last of
     * them mixes with the pre-sparse matrix */
    for (unsigned r = 0; r < h; r++) {
        for (unsigned i = 0; i < t; i++) {
            sbox(&s[i]);
            fr_add(&s[i], &s[i], &k[i]);
        }
        k += t;
        if (r + 1 < h)
            mds_product(s, c->mds, t);
        else
            vec_mat_product(s, c->pre_sparse, t);
    }
    for (unsigned r = 0; r < p; r++) {
        sbox(&s[0]);
        fr_add(&s[0], &s[0], k++);
        sparse_product(s, &c->sparse_w_hat[(size_t)r * t], &c->sparse_v_rest[(size_t)r * (t - 1)], t);
    }
    for (unsigned r = 1; r < h; r++) {
        for (unsigned i = 0; i < t; i++) {
            sbox(&s[i]);
            fr_add(&s[i], &s[i], &k[i]);
        }
        k += t;
        mds_product(s, c->mds, t);
    }
    /* terminal round: no key, and of the final MDS only the output element is needed */
    for (unsigned i = 0; i < t; i++)
        sbox(&s[i]);
    dot(out, &c->mds[t], 1, s, t);
}

/* ---- batches: the IFMA lanes (poseidon_ifma.h) with the IFMA implementation ---- */

void cuzk_pl_const_from_fr(cuzk_pl_const_t *out, const fr *a)
{
    /* fr.h holds a·2^256 mod r; sixteen times that (four doublings mod r) is a·2^260. */
    fr x = *a;
    for (int i = 0; i < 4; i++)
        fr_add(&x, &x, &x);
    const uint64_t m = (1ull << 52) - 1, *w = x.l;
    out->l[0] = w[0] & m;
    out->l[1] = (w[0] >> 52 | w[1] << 12) & m;
    out->l[2] = (w[1] >> 40 | w[2] << 24) & m;
    out->l[3] = (w[2] >> 28 | w[3] << 36) & m;
    out->l[4] = w[3] >> 16;
}

static cuzk_pl_const_t *lane_copy(cuzk_pl_const_t *dst, const fr *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cuzk_pl_const_from_fr(&dst[i], &src[i]);
    return dst;
}

static cuzk_pl_table_t *lane_table_build(const cuzk_poseidon_constants_t *c)
{
    const size_t t = c->width, p = c->partial_rounds;
    const size_t nk = c->full_rounds * t + p, total = nk + 2 * t * t + p * t + p * (t - 1);
    cuzk_pl_table_t *tb = malloc(sizeof *tb + total * sizeof(cuzk_pl_const_t));
    if (!tb)
        return NULL;
    cuzk_pl_const_t *v = (cuzk_pl_const_t *)(tb + 1);
    tb->width = c->width;
    tb->half_full_rounds = c->half_full_rounds;
    tb->partial_rounds = c->partial_rounds;
    tb->k = lane_copy(v, c->compressed_round_constants, nk);
    tb->mds = lane_copy(v += nk, c->mds, t * t);
    tb->pre_sparse = lane_copy(v += t * t, c->pre_sparse, t * t);
    tb->w_hat = lane_copy(v += t * t, c->sparse_w_hat, p * t);
    tb->v_rest = lane_copy(v + p * t, c->sparse_v_rest, p * (t - 1));
    return tb;
}

static _Atomic(cuzk_pl_table_t *) lane_tables[CUZK_POSEIDON_MAX_ARITY + 1];
static pthread_mutex_t lane_lock = PTHREAD_MUTEX_INITIALIZER;

const cuzk_pl_table_t *cuzk_pl_table(const cuzk_poseidon_constants_t *c)
{
    cuzk_pl_table_t *tb = atomic_load_explicit(&lane_tables[c->arity], memory_order_acquire);
    if (tb)
        return tb;
    pthread_mutex_lock(&lane_lock);
    tb = atomic_load_explicit(&lane_tables[c->arity], memory_order_relaxed);
    if (!tb && (tb = lane_table_build(c)) != NULL)
        atomic_store_explicit(&lane_tables[c->arity], tb, memory_order_release);
    pthread_mutex_unlock(&lane_lock);
    return tb;
}

const void *cuzk_pl_kernels_variant(cuzk_variant v)
{
    if (v == CUZK_VARIANT_IFMA && cuzk_pl_kernels_ifma_compiled && ifma_available())
        return &cuzk_pl_kernels_ifma;
    return NULL;
}

const cuzk_pl_kernels_t *cuzk_pl_kernels(void)
{
    return cuzk_dispatch_get(CUZK_ENTRY_POSEIDON_LANES, cuzk_pl_kernels_variant);
}

/* The lane kernels and table for a batch, or NULL for the scalar loop. */
static const cuzk_pl_kernels_t *lanes_for(const cuzk_poseidon_constants_t *c, const fr *tag, size_t n,
                                          const cuzk_pl_table_t **tb, cuzk_pl_const_t *ltag)
{
    const cuzk_pl_kernels_t *k = n >= 2 ? cuzk_pl_kernels() : NULL;
    if (!k || !(*tb = cuzk_pl_table(c)))
        return NULL;
    cuzk_pl_const_from_fr(ltag, tag);
    return k;
}

void cuzk_poseidon_hash_batch(fr *out, const cuzk_poseidon_constants_t *c, const fr *tag, const fr *in, size_t n)
{
    const cuzk_pl_table_t *tb;
    cuzk_pl_const_t ltag;
    const cuzk_pl_kernels_t *k = lanes_for(c, tag, n, &tb, &ltag);
    if (k) {
        k->hash_fr(tb, &ltag, out, in, n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        fr r;
        cuzk_poseidon_hash_with(&r, c, tag, &in[i * c->arity]);
        out[i] = r;
    }
}

void cuzk_poseidon_hash_batch_bytes(uint8_t *out, const cuzk_poseidon_constants_t *c, const fr *tag,
                                    const uint8_t *in, size_t n)
{
    const cuzk_pl_table_t *tb;
    cuzk_pl_const_t ltag;
    const cuzk_pl_kernels_t *k = lanes_for(c, tag, n, &tb, &ltag);
    if (k) {
        k->hash_bytes(tb, &ltag, out, in, n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        fr x[CUZK_POSEIDON_MAX_ARITY], r;
        for (unsigned j = 0; j < c->arity; j++)
            (void)fr_from_bytes_le(&x[j], in + (i * c->arity + j) * 32); /* canonical: the caller's promise */
        cuzk_poseidon_hash_with(&r, c, tag, x);
        fr_to_bytes_le(out + i * 32, &r);
    }
}

void cuzk_poseidon_hash_textbook(fr *out, const cuzk_poseidon_constants_t *c, const fr *tag, const fr *in)
{
    const unsigned t = c->width, rounds = c->full_rounds + c->partial_rounds;
    const unsigned first_partial = c->half_full_rounds, end_partial = c->half_full_rounds + c->partial_rounds;
    fr s[T_MAX];
    s[0] = *tag;
    memcpy(&s[1], in, sizeof(fr) * (t - 1));
    for (unsigned r = 0; r < rounds; r++) {
        const fr *rk = &c->round_constants[(size_t)r * t];
        for (unsigned i = 0; i < t; i++)
            fr_add(&s[i], &s[i], &rk[i]);
        bool partial = r >= first_partial && r < end_partial;
        for (unsigned i = 0; i < (partial ? 1 : t); i++)
            sbox(&s[i]);
        mds_product(s, c->mds, t);
    }
    *out = s[1];
}

cuzk_status cuzk_poseidon_hash(fr *out, unsigned arity, const fr *in, cuzk_err_t *err)
{
    const cuzk_poseidon_constants_t *c;
    cuzk_status st = cuzk_poseidon_constants_get(&c, arity, err);
    if (st != CUZK_OK)
        return st;
    cuzk_poseidon_hash_with(out, c, &c->merkle_tag, in);
    return CUZK_OK;
}

static cuzk_status node(uint8_t out[32], const cuzk_poseidon_constants_t *c, const fr *tag, const uint8_t *children,
                        cuzk_err_t *err)
{
    fr in[CUZK_POSEIDON_MAX_ARITY], r;
    for (unsigned i = 0; i < c->arity; i++)
        if (!fr_from_bytes_le(&in[i], children + (size_t)i * 32))
            return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL,
                                "poseidon: child %u of an arity-%u node is not a canonical Fr (>= r)", i, c->arity);
    cuzk_poseidon_hash_with(&r, c, tag, in);
    fr_to_bytes_le(out, &r);
    return CUZK_OK;
}

cuzk_status cuzk_poseidon_node(uint8_t out[32], unsigned arity, const uint8_t *children, cuzk_err_t *err)
{
    const cuzk_poseidon_constants_t *c;
    cuzk_status st = cuzk_poseidon_constants_get(&c, arity, err);
    return st != CUZK_OK ? st : node(out, c, &c->merkle_tag, children, err);
}

cuzk_status cuzk_poseidon_node_tagged(uint8_t out[32], unsigned arity, const fr *tag, const uint8_t *children,
                                      cuzk_err_t *err)
{
    const cuzk_poseidon_constants_t *c;
    cuzk_status st = cuzk_poseidon_constants_get(&c, arity, err);
    return st != CUZK_OK ? st : node(out, c, tag, children, err);
}

cuzk_status cuzk_poseidon_hash_md(fr *out, const fr *in, size_t n, cuzk_err_t *err)
{
    if (n < 2)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "poseidon hash_md: %zu elements, needs at least 2", n);
    const cuzk_poseidon_constants_t *c;
    cuzk_status st = cuzk_poseidon_constants_get(&c, 36, err);
    if (st != CUZK_OK)
        return st;
    fr acc = in[0], chunk[36];
    for (size_t i = 1; i < n; i += 35) {
        size_t k = n - i < 35 ? n - i : 35;
        chunk[0] = acc;
        memcpy(&chunk[1], &in[i], sizeof(fr) * k);
        for (size_t j = k + 1; j < 36; j++)
            chunk[j] = FR_ZERO;
        cuzk_poseidon_hash_with(&acc, c, &c->merkle_tag, chunk);
    }
    *out = acc;
    return CUZK_OK;
}
