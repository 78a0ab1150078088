/* Kernel template: batch-affine G2 addition P_i + Q_i over Fp2 = Fp[u]/(u² + 1) with one shared
 * inversion, 8 pairs per row (pair 8k + i in lane i of row k), an Fp2 element being two fp8 rows.
 * Included by the real and the emulated build after g1_batch_add.h; the contract is
 * g2_batch_add of ec_ifma_ops in ec_ifma.h.
 *
 * Each 1/dx is conj(dx)/N(dx) with the norm N = dx0² + dx1² in Fp (N = 0 only for dx = 0, since −1
 * is not a square mod p), so Montgomery's trick runs over the Fp norms: the one scalar inversion is
 * g1_invert_lanes. 15 Fp products per pair: 2 for the norm, 3 for the trick, 2 for conj(dx)·N^-1,
 * then Karatsuba: 3 for lambda, 2 for lambda², 3 for lambda·(x1 − x3).
 * Montgomery factors as in g1_batch_add.h ([v]_e stores v·2^e, mul adds the exponents minus 416):
 *   N_k                       is [.]_352, so c_k = N_0 ... N_k is [.]_(352-64k),
 *   t_(R-1) = c_(R-1)^-1      is made [.]_(400+64R) by g1_invert_lanes (768 - e + 48),
 *   t_(k-1) = t_k·N_k, inv_k = c_(k-1)·t_k give [N_k^-1]_464 for every k,
 *   d = dx·inv                is [.]_432, lambda = dy·conj(d) is [.]_400, lambda² is [.]_384,
 *   (lambda·2^16)·(x1 - x3)   is [.]_384,
 * so the points keep fp.h's factor 2^384 in and out (radix change only). Lazy ranges are noted at
 * each step; every mul input pair stays far below p·2^416. */
#ifndef CUZK_EC_IFMA_G2_BATCH_ADD_H
#define CUZK_EC_IFMA_G2_BATCH_ADD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/curve.h"
#include "ff/fp.h"
#include "ec/ifma/g1_batch_add.h"

/* 8p in radix 2^52: the constant of a lazy subtraction whose subtrahend is below 8p. */
static const uint64_t FP8_8P[8] = {0x7fffffffd5558ull, 0xf58a9ffffdcffull, 0x587b120f55fffull,
                                   0x95fb39869507bull, 0xb23ba5c279c28ull, 0xdd3db21a5d66bull,
                                   0xf51cbff34d258ull, 0x00000000d0088ull};

/* The products out of line: inlined, ~15 of them in one function spill most of their limbs (an
 * Fp2 row is 16 vectors of the 32), while a call keeps one product's limbs in registers. */
static __attribute__((noinline)) void g2_mul(fp8v *r, const fp8v *a, const fp8v *b) { fp8v_mul(r, a, b); }
static __attribute__((noinline)) void g2_sqr(fp8v *r, const fp8v *a) { fp8v_sqr(r, a); }

typedef struct {
    fp8v x1[2], y1[2], x2[2], y2[2]; /* canonical, y2 already negated where asked */
    fp8v dx[2], dy[2];               /* x2 - x1 and y2 - y1, in [0, p) */
} g2_row;

/* coord: 0, 1 = x.c0, x.c1; 2, 3 = y.c0, y.c1. */
V8_INLINE void g2_gather_coord(fp8v *r, const cuzk_g2_affine_t *const pt[8], int coord)
{
    const uint64_t *src[8];
    for (int i = 0; i < 8; i++)
        src[i] = ((const cuzk_fp_t *)pt[i])[coord].l;
    fp8v_gather(r, src);
}

/* A point is 24 words (x.c0, x.c1, y.c0, y.c1); lane i's words 0-7, 8-15 and 16-23 are three whole
 * loads, and three 8 × 8 transposes turn them into the four coordinates' words across the lanes. */
_Static_assert(sizeof(cuzk_g2_affine_t) == 24 * sizeof(uint64_t), "G2 point = 4 Fp coordinates of 6 words");

V8_INLINE void g2_gather_point(fp8v x[2], fp8v y[2], const cuzk_g2_affine_t *const pt[8])
{
    v8 w[24];
V8_UNROLL
    for (int i = 0; i < 8; i++) {
        const uint64_t *s = ((const cuzk_fp_t *)pt[i])->l;
        w[i] = v8_load(s);
        w[8 + i] = v8_load(s + 8);
        w[16 + i] = v8_load(s + 16);
    }
    v8_transpose8(w);
    v8_transpose8(w + 8);
    v8_transpose8(w + 16);
    fp8v_from_regs(&x[0], w);
    fp8v_from_regs(&x[1], w + 6);
    fp8v_from_regs(&y[0], w + 12);
    fp8v_from_regs(&y[1], w + 18);
}

/* The points of row k; lanes past n repeat pair n - 1 so that every lane has a valid dx != 0. */
V8_INLINE m8 g2_row_points(const cuzk_g2_affine_t *pp[8], const cuzk_g2_affine_t *qq[8],
                           const cuzk_g2_affine_t *const *p, const cuzk_g2_affine_t *const *q,
                           const uint8_t *q_neg, size_t n, size_t k)
{
    m8 neg = 0;
    for (int i = 0; i < 8; i++) {
        size_t idx = 8 * k + (size_t)i < n ? 8 * k + (size_t)i : n - 1;
        pp[i] = p[idx];
        qq[i] = q[idx];
        if (q_neg && q_neg[idx])
            neg |= (m8)(1u << i);
    }
    return neg;
}

/* N = dx0² + dx1² of row k in [0, 2p): all the forward pass needs (no y). */
V8_INLINE void g2_row_norm(fp8v *nrm, const cuzk_g2_affine_t *const *p, const cuzk_g2_affine_t *const *q,
                           size_t n, size_t k)
{
    const cuzk_g2_affine_t *pp[8], *qq[8];
    fp8v a, b, d0, d1;
    g2_row_points(pp, qq, p, q, NULL, n, k);
    g2_gather_coord(&a, pp, 0);
    g2_gather_coord(&b, qq, 0);
    m52_sub_mod(d0.l, b.l, a.l, FP8_P, 8);
    g2_gather_coord(&a, pp, 1);
    g2_gather_coord(&b, qq, 1);
    m52_sub_mod(d1.l, b.l, a.l, FP8_P, 8);
    g2_sqr(&d0, &d0);
    g2_sqr(&d1, &d1);
    fp8v_add(nrm, &d0, &d1);
}

V8_INLINE void g2_load_row(g2_row *row, const cuzk_g2_affine_t *const *p, const cuzk_g2_affine_t *const *q,
                           const uint8_t *q_neg, size_t n, size_t k)
{
    const cuzk_g2_affine_t *pp[8], *qq[8];
    m8 neg = g2_row_points(pp, qq, p, q, q_neg, n, k);
    g2_gather_point(row->x1, row->y1, pp);
    g2_gather_point(row->x2, row->y2, qq);
    for (int c = 0; c < 2; c++) {
        if (neg) {
            fp8v zero, ny;
            for (int j = 0; j < 8; j++)
                zero.l[j] = v8_zero();
            m52_sub_mod(ny.l, zero.l, row->y2[c].l, FP8_P, 8); /* p - y2, or 0 for y2 = 0 */
            for (int j = 0; j < 8; j++)
                row->y2[c].l[j] = v8_blend(neg, row->y2[c].l[j], ny.l[j]);
        }
        m52_sub_mod(row->dx[c].l, row->x2[c].l, row->x1[c].l, FP8_P, 8);
        m52_sub_mod(row->dy[c].l, row->y2[c].l, row->y1[c].l, FP8_P, 8);
    }
}

/* Writes x, y (canonical) of the first `lanes` lanes of row k to *out[8k + i]: g2_gather_point
 * reversed, three whole stores per point instead of 192 scalar copies through a word array. */
V8_INLINE void g2_scatter_row(cuzk_g2_affine_t *const *out, size_t k, int lanes, const fp8v x[2],
                              const fp8v y[2])
{
    v8 w[24];
    fp8v_to_regs(w, &x[0]);
    fp8v_to_regs(w + 6, &x[1]);
    fp8v_to_regs(w + 12, &y[0]);
    fp8v_to_regs(w + 18, &y[1]);
    v8_transpose8(w);
    v8_transpose8(w + 8);
    v8_transpose8(w + 16);
    for (int i = 0; i < lanes; i++) {
        uint64_t *d = ((cuzk_fp_t *)out[8 * k + (size_t)i])->l;
        v8_store(d, w[i]);
        v8_store(d + 8, w[8 + i]);
        v8_store(d + 16, w[16 + i]);
    }
}

/* The sums of one row, given inv = [N^-1]_464 of each lane. */
V8_INLINE void g2_finish_row(fp8v x3[2], fp8v y3[2], const g2_row *row, const fp8v *inv)
{
    fp8v d0, d1, s, m, t0, t1, t2, l0, l1;
    /* lambda = dy·conj(d), d = dx·inv: real t0 + t1, imaginary t2 - t0 + t1 (Karatsuba). */
    g2_mul(&d0, &row->dx[0], inv);                /* [.]_432 < 2p */
    g2_mul(&d1, &row->dx[1], inv);
    fp8v_add_lazy(&s, &row->dy[0], &row->dy[1]);    /* < 2p */
    fp8v_sub_lazy(&m, &d0, &d1);                    /* d0 - d1 + 4p < 6p */
    g2_mul(&t0, &row->dy[0], &d0);                /* [.]_400 < 2p */
    g2_mul(&t1, &row->dy[1], &d1);
    g2_mul(&t2, &s, &m);
    fp8v_add_lazy(&l0, &t0, &t1);                   /* < 4p */
    fp8v_add_lazy(&l1, &t2, &t1);
    fp8v_sub_lazy(&l1, &l1, &t0);                   /* < 8p */

    /* lambda² = (l0 + l1)(l0 - l1) + 2·l0·l1·u, then x3 = lambda² - x1 - x2. */
    fp8v_add_lazy(&s, &l0, &l1);                    /* < 12p */
    m52_sub_lazy(m.l, l0.l, l1.l, FP8_8P, 8);       /* l0 - l1 + 8p < 12p */
    g2_mul(&x3[0], &s, &m);                       /* [.]_384 < 2p */
    fp8v_shl(&t0, &l0, 1);                          /* < 8p */
    g2_mul(&x3[1], &t0, &l1);
    for (int c = 0; c < 2; c++) {
        fp8v_add_lazy(&s, &row->x1[c], &row->x2[c]); /* < 2p */
        fp8v_sub(&x3[c], &x3[c], &s);
        fp8v_reduce(&x3[c], &x3[c]);
    }

    /* y3 = (lambda·2^16)·(x1 - x3) - y1: the shift lifts lambda's factor to 416 (< 2^19·p). */
    fp8v e0, e1;
    m52_sub_mod(e0.l, row->x1[0].l, x3[0].l, FP8_P, 8); /* [0, p) */
    m52_sub_mod(e1.l, row->x1[1].l, x3[1].l, FP8_P, 8);
    fp8v_shl(&l0, &l0, 16);
    fp8v_shl(&l1, &l1, 16);
    g2_mul(&t0, &l0, &e0);
    g2_mul(&t1, &l1, &e1);
    fp8v_add_lazy(&s, &l0, &l1);                    /* < 12·2^16·p */
    fp8v_add_lazy(&m, &e0, &e1);                    /* < 2p */
    g2_mul(&t2, &s, &m);
    fp8v_sub(&y3[0], &t0, &t1);
    fp8v_sub(&y3[0], &y3[0], &row->y1[0]);
    fp8v_reduce(&y3[0], &y3[0]);
    fp8v_sub(&y3[1], &t2, &t0);
    fp8v_sub(&y3[1], &y3[1], &t1);
    fp8v_sub(&y3[1], &y3[1], &row->y1[1]);
    fp8v_reduce(&y3[1], &y3[1]);
}

/* Scratch: the prefix products c_0 .. c_(R-2), then the norms N_0 .. N_(R-1) (kept for the
 * backward pass rather than recomputed: two squarings per row). */
static bool g2_batch_add_kernel(cuzk_g2_affine_t *const *out, const cuzk_g2_affine_t *const *p,
                                const cuzk_g2_affine_t *const *q, const uint8_t *q_neg, size_t n,
                                void *scratch)
{
    if (n == 0)
        return true;
    size_t rows = (n + 7) / 8;
    uint64_t(*prefix)[8][8] = scratch;
    uint64_t(*norm)[8][8] = prefix + (rows - 1);
    fp8v c, t, nk;

    g2_row_norm(&c, p, q, n, 0);
    fp8v_store(norm[0], &c);
    for (size_t k = 1; k < rows; k++) {
        fp8v_store(prefix[k - 1], &c);
        g2_row_norm(&nk, p, q, n, k);
        fp8v_store(norm[k], &nk);
        g2_mul(&c, &c, &nk);
    }
    if (!g1_invert_lanes(&t, &c))
        return false;

    for (size_t k = rows; k-- > 0;) {
        g2_row row;
        fp8v inv, x3[2], y3[2];
        g2_load_row(&row, p, q, q_neg, n, k);
        if (k > 0) {
            fp8v_load(&c, prefix[k - 1]);
            fp8v_load(&nk, norm[k]);
            g2_mul(&inv, &c, &t);
            g2_mul(&t, &t, &nk);
        } else {
            inv = t;
        }
        g2_finish_row(x3, y3, &row, &inv);
        int lanes = n - 8 * k < 8 ? (int)(n - 8 * k) : 8;
        g2_scatter_row(out, k, lanes, x3, y3);
    }
    return true;
}

#endif
