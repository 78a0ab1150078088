/* Kernel template: batch-affine G1 addition P_i + Q_i with one shared inversion, 8 pairs per row
 * (pair 8k + i in lane i of row k). Included by the real and the emulated build after fp8_ops.h;
 * the contracts are g1_batch_add and g1_batch_add_skip of ec_ifma_ops in ec_ifma.h.
 *
 * No Montgomery factor change is spent on the points: their coordinates enter with fp.h's factor
 * 2^384 (radix change only) and the products are steered so that x3, y3 leave with it too. Write
 * [v]_e for a value stored as v·2^e mod p; mul maps [a]_e, [b]_f to [ab]_(e+f-416). Then
 *   c_k = dx_0 ... dx_k        is [.]_(384-32k)     (forward prefix products, one row at a time)
 *   t_(N-1) = c_(N-1)^-1       is made [.]_(400+32N) by the scalar inversion,
 *   t_(k-1) = t_k·dx_k, inv_k = c_(k-1)·t_k give [dx_k^-1]_432 for every k,
 *   lambda = dy·inv            is [.]_400,   lambda² is [.]_384 = the factor of x3,
 *   (lambda·2^16)·(x1 - x3)    is [.]_384 = the factor of y3,
 * where lambda·2^16 is a shift: lambda < 2p, so lambda·2^16 < 2^17·p is still a valid mul input. */
#ifndef CUZK_EC_IFMA_G1_BATCH_ADD_H
#define CUZK_EC_IFMA_G1_BATCH_ADD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/curve.h"
#include "ff/fp.h"

/* The products out of line, as in g2_batch_add.h: inlined, the kernel's six spill limbs around each
 * other (the rows alone are 48 vectors of the 32); called, one product's limbs stay in registers.
 * G1 2^16 MSM, 1 thread, 3 pairs: 140–141 ms inlined, 131–135 ms called. */
static __attribute__((noinline)) void g1_mul(fp8v *r, const fp8v *a, const fp8v *b) { fp8v_mul(r, a, b); }
static __attribute__((noinline)) void g1_sqr(fp8v *r, const fp8v *a) { fp8v_sqr(r, a); }

typedef struct {
    fp8v x1, y1, x2, y2; /* canonical, y2 already negated where asked */
    fp8v dx, dy;         /* x2 - x1 and y2 - y1, in [0, p); dx of an equal-x lane replaced by 1 */
    m8 eq;               /* lanes with x1 == x2 */
} g1_row;

/* The points of row k; lanes past n repeat pair n - 1. */
V8_INLINE m8 g1_row_points(const cuzk_g1_affine_t *pp[8], const cuzk_g1_affine_t *qq[8],
                           const cuzk_g1_affine_t *const *p, const cuzk_g1_affine_t *const *q,
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

V8_INLINE void g1_gather_coord(fp8v *r, const cuzk_g1_affine_t *const pt[8], int y)
{
    const uint64_t *src[8];
    for (int i = 0; i < 8; i++)
        src[i] = y ? pt[i]->y.l : pt[i]->x.l;
    fp8v_gather(r, src);
}

/* dx = x2 - x1 in [0, p); lanes where it is 0 get 1 instead (so that the lane products stay
 * invertible) and are returned. */
V8_INLINE m8 g1_dx(fp8v *dx, const fp8v *x1, const fp8v *x2)
{
    m52_sub_mod(dx->l, x2->l, x1->l, FP8_P, 8);
    v8 acc = dx->l[0];
    for (int j = 1; j < 8; j++)
        acc = v8_or(acc, dx->l[j]);
    m8 eq = v8_eq_mask(acc, v8_zero());
    if (eq)
        dx->l[0] = v8_blend(eq, dx->l[0], v8_set1(1));
    return eq;
}

/* The forward pass needs x only. */
V8_INLINE m8 g1_load_dx(fp8v *dx, const cuzk_g1_affine_t *const *p, const cuzk_g1_affine_t *const *q,
                        size_t n, size_t k)
{
    const cuzk_g1_affine_t *pp[8], *qq[8];
    fp8v x1, x2;
    g1_row_points(pp, qq, p, q, NULL, n, k);
    g1_gather_coord(&x1, pp, 0);
    g1_gather_coord(&x2, qq, 0);
    return g1_dx(dx, &x1, &x2);
}

/* Loads row k (lanes past n repeat pair n - 1). */
V8_INLINE void g1_load_row(g1_row *row, const cuzk_g1_affine_t *const *p, const cuzk_g1_affine_t *const *q,
                           const uint8_t *q_neg, size_t n, size_t k)
{
    const cuzk_g1_affine_t *pp[8], *qq[8];
    m8 neg = g1_row_points(pp, qq, p, q, q_neg, n, k);
    g1_gather_coord(&row->x1, pp, 0);
    g1_gather_coord(&row->y1, pp, 1);
    g1_gather_coord(&row->x2, qq, 0);
    g1_gather_coord(&row->y2, qq, 1);
    if (neg) {
        fp8v zero, ny;
        for (int j = 0; j < 8; j++)
            zero.l[j] = v8_zero();
        m52_sub_mod(ny.l, zero.l, row->y2.l, FP8_P, 8); /* p - y2, or 0 for y2 = 0 */
        for (int j = 0; j < 8; j++)
            row->y2.l[j] = v8_blend(neg, row->y2.l[j], ny.l[j]);
    }
    row->eq = g1_dx(&row->dx, &row->x1, &row->x2);
    m52_sub_mod(row->dy.l, row->y2.l, row->y1.l, FP8_P, 8);
}

/* Writes x, y (canonical) of the lanes of row k below `lanes` and not in `skip` to *out[8k + i]. */
V8_INLINE void g1_scatter_row(cuzk_g1_affine_t *const *out, size_t k, int lanes, m8 skip, const fp8v *x,
                              const fp8v *y)
{
    uint64_t *dx[8], *dy[8];
    for (int i = 0; i < 8; i++) {
        cuzk_g1_affine_t *d = out[8 * k + (size_t)(i < lanes ? i : 0)];
        dx[i] = d->x.l;
        dy[i] = d->y.l;
    }
    if (skip) { /* rare: compact the lanes to write */
        uint64_t wx[6][8], wy[6][8];
        fp8v_to_words(wx, x);
        fp8v_to_words(wy, y);
        for (int i = 0; i < lanes; i++) {
            if ((skip >> i) & 1)
                continue;
            for (int j = 0; j < 6; j++) {
                dx[i][j] = wx[j][i];
                dy[i][j] = wy[j][i];
            }
        }
        return;
    }
    fp8v_scatter(dx, lanes, x);
    fp8v_scatter(dy, lanes, y);
}

/* The lane products c_(N-1) -> t_(N-1) = their inverses with the factor 2^(400+32N): fp_inv gives
 * [c^-1]_(768-e) for [c]_e, e = 384-32(N-1), and one more fp_mul by [2^48]_384 lands on
 * 768 - 416 + 32N + 48 = 400 + 32N. False when a lane product is 0 (some dx = 0). */
static bool g1_invert_lanes(fp8v *t, const fp8v *c)
{
    fp8v canon;
    uint64_t w[6][8];
    fp8v_reduce(&canon, c);
    fp8v_to_words(w, &canon);
    fp s[8], k;
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 6; j++)
            s[i].l[j] = w[j][i];
        if (fp_is_zero(&s[i]))
            return false;
    }
    fp_batch_inv(s, s, 8);
    const uint64_t two48[FP_LIMBS] = {(uint64_t)1 << 48};
    fp_to_mont(&k, two48);
    for (int i = 0; i < 8; i++) {
        fp_mul(&s[i], &s[i], &k);
        for (int j = 0; j < 6; j++)
            w[j][i] = s[i].l[j];
    }
    fp8v_from_words(t, w);
    return true;
}

/* The kernel behind both contracts: with skipped == NULL it refuses (false, nothing written) when
 * some pair has x1 == x2; otherwise skipped[i] says whether pair i had x1 == x2 (its output is then
 * not written), *n_skipped counts them, and it returns true. */
static bool g1_batch_add_core(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                              const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n, void *scratch,
                              uint8_t *skipped, size_t *n_skipped)
{
    if (n_skipped)
        *n_skipped = 0;
    if (n == 0)
        return true;
    size_t rows = (n + 7) / 8;
    uint64_t(*prefix)[8][8] = scratch; /* prefix[k] = c_k for k < rows - 1 */
    fp8v c, t, dx;
    size_t nskip = 0;

    /* Row 0 starts the products; rows is at least 1. */
    m8 eq = g1_load_dx(&c, p, q, n, 0);
    for (size_t k = 0;;) {
        int lanes = n - 8 * k < 8 ? (int)(n - 8 * k) : 8;
        if (skipped) {
            for (int i = 0; i < lanes; i++) {
                skipped[8 * k + (size_t)i] = (uint8_t)((eq >> i) & 1);
                nskip += (eq >> i) & 1;
            }
        } else if (eq) {
            return false;
        }
        if (++k == rows)
            break;
        eq = g1_load_dx(&dx, p, q, n, k);
        fp8v_store(prefix[k - 1], &c);
        g1_mul(&c, &c, &dx);
    }
    if (!g1_invert_lanes(&t, &c))
        return false; /* unreachable: every dx is nonzero by now */

    for (size_t k = rows; k-- > 0;) {
        g1_row row;
        fp8v inv, lambda, x3, y3, d;
        g1_load_row(&row, p, q, q_neg, n, k);
        if (k > 0) {
            fp8v_load(&c, prefix[k - 1]);
            g1_mul(&inv, &c, &t);
            g1_mul(&t, &t, &row.dx);
        } else {
            inv = t;
        }
        g1_mul(&lambda, &row.dy, &inv);            /* [lambda]_400 < 2p */
        g1_sqr(&x3, &lambda);                      /* [lambda²]_384 < 2p */
        fp8v_sub(&x3, &x3, &row.x1);                 /* [0, 2p) */
        fp8v_sub(&x3, &x3, &row.x2);
        fp8v_reduce(&x3, &x3);                       /* canonical */
        m52_sub_mod(d.l, row.x1.l, x3.l, FP8_P, 8);  /* x1 - x3 in [0, p) */
        fp8v_shl(&lambda, &lambda, 16);              /* [lambda]_416 < 2^17·p */
        g1_mul(&y3, &lambda, &d);                  /* [lambda(x1 - x3)]_384 < 2p */
        fp8v_sub(&y3, &y3, &row.y1);
        fp8v_reduce(&y3, &y3);
        int lanes = n - 8 * k < 8 ? (int)(n - 8 * k) : 8;
        g1_scatter_row(out, k, lanes, row.eq, &x3, &y3);
    }
    if (n_skipped)
        *n_skipped = nskip;
    return true;
}

static bool g1_batch_add_kernel(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                                const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n,
                                void *scratch)
{
    return g1_batch_add_core(out, p, q, q_neg, n, scratch, NULL, NULL);
}

static size_t g1_batch_add_skip_kernel(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                                       const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n,
                                       void *scratch, uint8_t *skipped)
{
    size_t ns;
    g1_batch_add_core(out, p, q, q_neg, n, scratch, skipped, &ns);
    return ns;
}

#endif
