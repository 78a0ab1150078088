/* Kernel template: neptune's OptimizedStatic Poseidon (as poseidon.c's cuzk_poseidon_hash_with) on
 * independent hashes, one per IFMA lane, sixteen at a time (PL_G groups of eight). A build file sets up
 * simd512.h (IFMA_REAL or not), defines PL_KERNELS (the table's name) and PL_NAME, then includes this
 * file once.
 *
 * Values are fr8v (5 limbs of 52 bits, normalized) in Montgomery form with factor 2^260, kept below 2r.
 * A product with a constant below r or a square of a value below 2r is valid for m52_mul (a·b < r·2^260)
 * and lands below 2r. The MDS rows and the sparse first column are dot products: their t products are
 * summed unreduced (ten 52-bit columns, each a sum of at most 10·t terms below 2^52) and reduced once,
 * which halves a full round's multiplication cost; the sum is below 2t·r², so the reduction lands below
 * (2t·r/2^260 + 1)·r < 2r for t <= 17, and one conditional subtraction covers wider states. */
#if !defined(PL_KERNELS) || !defined(PL_NAME)
#error "define PL_KERNELS and PL_NAME before including poseidon_ifma_kern.h"
#endif
#include <string.h>
#include "ff/ifma/simd512.h"
#include "ff/ifma/fr8_ops.h"
#include "filecoin/hash/poseidon_ifma.h"

#define PL_MAX_T CUZK_POSEIDON_MAX_WIDTH

/* 2^520 mod r: a canonical integer a times this (in a lane product) is a·2^260, its lane form. */
static const uint64_t PL_2E520[5] = {0x99103f29c6cf0ull, 0x57927663d999eull, 0xa1c0ed631138bull,
                                     0x3c829f7715f1bull, 0x009ff646cc027ull};
static const uint64_t PL_ONE[5] = {1, 0, 0, 0, 0};

/* r = a·k·2^-260 for a constant k (canonical limbs, broadcast to every lane). */
V8_INLINE void pl_mulc(fr8v *r, const fr8v *a, const uint64_t *k)
{
    fr8v kv;
    fr8v_const(&kv, k);
    fr8v_mul(r, a, &kv);
}

/* z (ten columns) += a·k, unreduced. The product goes to fresh columns first: accumulating straight
 * into z would chain every term's ten or so IFMA per column behind the previous term's (4 cycles
 * each), while fresh columns let the terms of a dot product run in parallel. */
V8_INLINE void pl_acc(v8 *z, const fr8v *a, const uint64_t *k)
{
    v8 p[10];
    const v8 zero = v8_zero();
V8_UNROLL
    for (int j = 0; j < 10; j++)
        p[j] = zero;
V8_UNROLL
    for (int j = 0; j < 5; j++) {
        const v8 kj = v8_set1(k[j]);
V8_UNROLL
        for (int i = 0; i < 5; i++) {
            p[i + j] = v8_madd52lo(p[i + j], a->l[i], kj);
            p[i + j + 1] = v8_madd52hi(p[i + j + 1], a->l[i], kj);
        }
    }
V8_UNROLL
    for (int j = 0; j < 10; j++)
        z[j] = v8_add(z[j], p[j]);
}

/* r = z·2^-260 mod r' (Montgomery reduction of the column sums), normalized, below z/2^260 + r. */
V8_INLINE void pl_redc(fr8v *r, v8 *z)
{
    const v8 zero = v8_zero(), vqinv = v8_set1(FR8_RINV);
V8_UNROLL
    for (int i = 0; i < 5; i++) {
        const v8 m = v8_madd52lo(zero, z[i], vqinv);
V8_UNROLL
        for (int j = 0; j < 5; j++) {
            const v8 qj = v8_set1(FR8_R[j]);
            z[i + j] = v8_madd52lo(z[i + j], m, qj);
            z[i + j + 1] = v8_madd52hi(z[i + j + 1], m, qj);
        }
        z[i + 1] = v8_add(z[i + 1], v8_shr(z[i], 52));
    }
V8_UNROLL
    for (int j = 0; j < 5; j++)
        r->l[j] = z[5 + j];
    m52_norm(r->l, 5);
}

/* Hashes run in PL_G independent groups of 8 lanes, each step issued for every group in turn: one
 * group's Montgomery products form long dependency chains (the S-box's three products, each a
 * sequence of five reduction steps), and the other group's copy of the step fills the gaps. */
#define PL_G 2
#define PL_LANES (8 * PL_G)

typedef fr8v pl_state[PL_G][PL_MAX_T];

/* z[g] = Σ_k m[k·stride]·s[g][k] for k in [from, t), unreduced. */
V8_INLINE void pl_dot_acc(v8 (*z)[10], const cuzk_pl_const_t *m, size_t stride, pl_state s, unsigned from, unsigned t)
{
    v8 a[PL_G][10];
    for (int g = 0; g < PL_G; g++)
        for (int j = 0; j < 10; j++)
            a[g][j] = v8_zero();
    for (unsigned k = from; k < t; k++)
        for (int g = 0; g < PL_G; g++)
            pl_acc(a[g], &s[g][k], m[k * stride].l);
    memcpy(z, a, sizeof a);
}

/* out[g] = the reduced column sums of a dot product of t terms, below 2r. */
V8_INLINE void pl_dot_finish(fr8v *out, size_t out_stride, v8 (*z)[10], unsigned t)
{
    for (int g = 0; g < PL_G; g++) {
        pl_redc(&out[g * out_stride], z[g]);
        if (t > 17)
            m52_csub(out[g * out_stride].l, out[g * out_stride].l, FR8_2R, 5);
    }
}

/* x[g·stride] ← x^5 (+ k when given), below 2r in and out; each product for every group in turn. */
V8_INLINE void pl_sbox(fr8v *x, size_t stride, const uint64_t *k)
{
    fr8v x2[PL_G], x4[PL_G];
    for (int g = 0; g < PL_G; g++)
        fr8v_sqr(&x2[g], &x[g * stride]);
    for (int g = 0; g < PL_G; g++)
        fr8v_sqr(&x4[g], &x2[g]);
    for (int g = 0; g < PL_G; g++)
        fr8v_mul(&x[g * stride], &x[g * stride], &x4[g]);
    if (k) {
        fr8v kv;
        fr8v_const(&kv, k);
        for (int g = 0; g < PL_G; g++)
            fr8v_add(&x[g * stride], &x[g * stride], &kv);
    }
}

/* s ← s·M (or s·P for the pre-sparse matrix: column j against s, as it is not symmetric; the MDS
 * matrix is symmetric, so its rows serve as well). */
V8_INLINE void pl_matrix(pl_state s, const cuzk_pl_const_t *m, int by_column, unsigned t)
{
    pl_state r;
    v8 z[PL_G][10];
    for (unsigned i = 0; i < t; i++) {
        if (by_column)
            pl_dot_acc(z, &m[i], t, s, 0, t);
        else
            pl_dot_acc(z, &m[(size_t)i * t], 1, s, 0, t);
        pl_dot_finish(&r[0][i], PL_MAX_T, z, t);
    }
    for (int g = 0; g < PL_G; g++)
        memcpy(s[g], r[g], sizeof(fr8v) * t);
}

/* One partial round: s0 ← s0^5 + k, then s ← s·S (s0' = w_hat·s, s_j += v_rest_{j−1}·s0). Only s0's
 * chain (S-box, its term of the dot product, the reduction) is sequential from round to round, so
 * the terms of s_1.. are summed before the S-box in program order, where they overlap with it. */
V8_INLINE void pl_partial(pl_state s, const uint64_t *k, const cuzk_pl_const_t *w_hat, const cuzk_pl_const_t *v_rest,
                       unsigned t)
{
    v8 z[PL_G][10];
    pl_dot_acc(z, w_hat, 1, s, 1, t);
    pl_sbox(&s[0][0], PL_MAX_T, k);
    fr8v s0[PL_G], p;
    for (int g = 0; g < PL_G; g++) {
        pl_acc(z[g], &s[g][0], w_hat[0].l);
        s0[g] = s[g][0];
    }
    pl_dot_finish(&s[0][0], PL_MAX_T, z, t);
    for (unsigned j = 1; j < t; j++)
        for (int g = 0; g < PL_G; g++) {
            pl_mulc(&p, &s0[g], v_rest[j - 1].l);
            fr8v_add(&s[g][j], &s[g][j], &p);
        }
}

/* The permutation on s[g][0..t) (lane form, below 2r); the output element into out[g]. t is c->width,
 * passed separately so that the common widths get copies with the loops over the state unrolled. */
V8_INLINE void pl_permute_t(fr8v *out, pl_state s, const cuzk_pl_table_t *c, const unsigned t)
{
    const unsigned h = c->half_full_rounds, p = c->partial_rounds;
    const cuzk_pl_const_t *k = c->k;
    for (unsigned i = 0; i < t; i++) {
        fr8v kv;
        fr8v_const(&kv, k[i].l);
        for (int g = 0; g < PL_G; g++)
            fr8v_add(&s[g][i], &s[g][i], &kv);
    }
    k += t;
    for (unsigned r = 0; r < h; r++) {
        for (unsigned i = 0; i < t; i++)
            pl_sbox(&s[0][i], PL_MAX_T, k[i].l);
        k += t;
        if (r + 1 < h)
            pl_matrix(s, c->mds, 0, t);
        else
            pl_matrix(s, c->pre_sparse, 1, t);
    }
    for (unsigned r = 0; r < p; r++) {
        pl_partial(s, k[0].l, &c->w_hat[(size_t)r * t], &c->v_rest[(size_t)r * (t - 1)], t);
        k++;
    }
    for (unsigned r = 1; r < h; r++) {
        for (unsigned i = 0; i < t; i++)
            pl_sbox(&s[0][i], PL_MAX_T, k[i].l);
        k += t;
        pl_matrix(s, c->mds, 0, t);
    }
    for (unsigned i = 0; i < t; i++)
        pl_sbox(&s[0][i], PL_MAX_T, NULL);
    v8 z[PL_G][10];
    pl_dot_acc(z, &c->mds[t], 1, s, 0, t);
    pl_dot_finish(out, 1, z, t);
}

/* Arity 2 (the two-layer column hashes) and arity 8 (the octrees) are the hot ones. */
static void pl_permute(fr8v *out, pl_state s, const cuzk_pl_table_t *c)
{
    if (c->width == 3)
        pl_permute_t(out, s, c, 3);
    else if (c->width == 9)
        pl_permute_t(out, s, c, 9);
    else
        pl_permute_t(out, s, c, c->width);
}

/* Lane i of x <- the 4 words at w + i·stride (in 64-bit words), for i < lanes; other lanes zero. */
static void pl_gather(fr8v *x, const uint64_t *w, size_t stride, size_t lanes)
{
    uint64_t t[4][8] = {{0}};
    for (size_t i = 0; i < lanes; i++)
        for (int j = 0; j < 4; j++)
            t[j][i] = w[i * stride + (size_t)j];
    fr8v_from_words(x, t);
}

static void pl_scatter(uint64_t *w, size_t stride, size_t lanes, const fr8v *x)
{
    uint64_t t[4][8];
    fr8v_to_words(t, x);
    for (size_t i = 0; i < lanes; i++)
        for (int j = 0; j < 4; j++)
            w[i * stride + (size_t)j] = t[j][i];
}

/* Up to PL_LANES hashes of win (n·arity values of 4 words) into wout: each input times k_in, each
 * output times k_out and reduced (the byte and fr forms differ only in these factors). Missing lanes
 * hash zeros and are not written. */
static void pl_hash_words(const cuzk_pl_table_t *c, const cuzk_pl_const_t *tag, uint64_t *wout, const uint64_t *win,
                          size_t n, const uint64_t *k_in, const uint64_t *k_out)
{
    const unsigned arity = c->width - 1;
    pl_state s;
    fr8v out[PL_G];
    for (int g = 0; g < PL_G; g++) {
        size_t base = 8 * (size_t)g, lanes = n > base ? (n - base < 8 ? n - base : 8) : 0;
        fr8v_const(&s[g][0], tag->l);
        for (unsigned e = 0; e < arity; e++) {
            pl_gather(&s[g][1 + e], win + (base * arity + e) * 4, (size_t)arity * 4, lanes);
            pl_mulc(&s[g][1 + e], &s[g][1 + e], k_in);
        }
    }
    pl_permute(out, s, c);
    for (int g = 0; g < PL_G; g++) {
        size_t base = 8 * (size_t)g, lanes = n > base ? (n - base < 8 ? n - base : 8) : 0;
        pl_mulc(&out[g], &out[g], k_out);
        fr8v_reduce(&out[g], &out[g]);
        pl_scatter(wout + base * 4, 4, lanes, &out[g]);
    }
}

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "tree nodes are read as little-endian words");

/* Byte buffers need not be aligned for words: both forms go through memcpy'd blocks of PL_LANES
 * hashes, which also makes out == in safe (a block's inputs are read before its outputs land). */
static void pl_hash_bytes(const cuzk_pl_table_t *c, const cuzk_pl_const_t *tag, uint8_t *out, const uint8_t *in,
                          size_t n)
{
    const unsigned arity = c->width - 1;
    uint64_t win[PL_LANES * CUZK_POSEIDON_MAX_ARITY * 4], wout[PL_LANES * 4];
    for (size_t base = 0; base < n; base += PL_LANES) {
        size_t lanes = n - base < PL_LANES ? n - base : PL_LANES;
        memcpy(win, in + base * arity * 32, lanes * arity * 32);
        pl_hash_words(c, tag, wout, win, lanes, PL_2E520, PL_ONE);
        memcpy(out + base * 32, wout, lanes * 32);
    }
}

static void pl_hash_fr(const cuzk_pl_table_t *c, const cuzk_pl_const_t *tag, fr *out, const fr *in, size_t n)
{
    const unsigned arity = c->width - 1;
    uint64_t win[PL_LANES * CUZK_POSEIDON_MAX_ARITY * 4], wout[PL_LANES * 4];
    for (size_t base = 0; base < n; base += PL_LANES) {
        size_t lanes = n - base < PL_LANES ? n - base : PL_LANES;
        memcpy(win, in + base * arity, lanes * arity * sizeof(fr));
        pl_hash_words(c, tag, wout, win, lanes, FR8_2E264, FR8_2E256);
        memcpy(out + base, wout, lanes * sizeof(fr));
    }
}

const cuzk_pl_kernels_t PL_KERNELS = {
    .name = PL_NAME,
    .hash_bytes = pl_hash_bytes,
    .hash_fr = pl_hash_fr,
};
