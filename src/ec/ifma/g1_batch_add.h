/* Kernel template: batch-affine G1 addition P_i + Q_i with one shared inversion, 8 pairs per row
 * (pair 8k + i in lane i of row k). Included by the real and the emulated build after fp8_ops.h;
 * the contracts are g1_batch_add and g1_batch_add_skip of ec_ifma_ops in ec_ifma.h.
 *
 * No Montgomery factor change is spent on the points: their coordinates enter with fp.h's factor
 * 2^384 (radix change only) and the products are steered so that x3, y3 leave with it too. Write
 * [v]_e for a value stored as v·2^e mod p; mul maps [a]_e, [b]_f to [ab]_(e+f-416). Then
 *   c_k = dx_0 ... dx_k        is [.]_(384-32k)     (forward prefix products, one row at a time)
 *   t_(N-1) = c_(N-1)^-1       is made [.]_(400+32N) by the scalar inversion (see below),
 *   t_(k-1) = t_k·dx_k, inv_k = c_(k-1)·t_k give [dx_k^-1]_432 for every k,
 *   lambda = dy·inv            is [.]_400,   lambda² is [.]_384 = the factor of x3,
 *   (lambda·2^16)·(x1 - x3)    is [.]_384 = the factor of y3,
 * where lambda·2^16 is a shift: lambda < 2p, so lambda·2^16 < 2^17·p is still a valid mul input.
 *
 * The forward pass gathers x only and keeps x1, x1 + x2 and dx for the backward pass, which then
 * gathers y only (4 gathers per row instead of 6). Differences that only feed products (dx, dy and
 * x1 - x3) stay unreduced, below 3p, for the same reason as lambda·2^16. Kernel alone, 1,024 pairs
 * of distinct buckets (min over 8,000 calls, ns per add; in cache / buckets spread over 3 MiB and
 * prefetched as the MSM does): 62 / 67-70 before, 53-57 / 54-58 with these, the prefetch below and
 * the whole-line gathers. `cuzk-bench micro g1-batch-add` times the kernel alone (docs/PERF.md).
 *
 * Rows go in pairs, and every product is done together with an independent one (g1_mul2): a single
 * product leaves the IFMA ports idle along its rounds' dependency chain, and the kernel's products
 * mostly depend on each other (inv -> lambda -> x3 -> y3). So the prefix products form two chains, over
 * the even rows and over the odd rows, each with the factors above for N = the row pairs; their ends
 * are multiplied, inverted once and multiplied back by the other end (below), and the backward pass
 * walks both chains at once. Kernel alone, 2^16 buckets, 30 alternating runs: −7 % by the median
 * ratio, −13 % by the minima.
 *
 * Each product is also placed after row work that it does not need, so that the out-of-order core runs
 * those rows beside it: in the forward pass a pair's chain products come after the following pair's
 * gathers; in the backward pass the next pair's inverses and chain step sit between a pair's square
 * and its last product, beside that pair's x3 rows. On the Xeon, whose 512-bit operations all
 * share two ports, the rows and the products had simply added up (the kernel with its products
 * replaced took half the time); this order took 3 % off the kernel there (docs/PERF.md). */
#ifndef CUZK_EC_IFMA_G1_BATCH_ADD_H
#define CUZK_EC_IFMA_G1_BATCH_ADD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/curve.h"
#include "ff/fp.h"

/* The products out of line, as in g2_batch_add.h: inlined, the kernel's six spill limbs around each
 * other (the rows alone are 48 vectors of the 32); called, the products' limbs stay in registers
 * (g1_mul2 spills a few: forcing its b and d to stay in memory removed that and changed nothing).
 * G1 2^16 MSM, 1 thread, 3 pairs: 140–141 ms inlined, 131–135 ms called. */
static __attribute__((noinline)) void g1_mul(fp8v *r, const fp8v *a, const fp8v *b) { fp8v_mul(r, a, b); }
static __attribute__((noinline)) void g1_mul2(fp8v *r, const fp8v *a, const fp8v *b, fp8v *s, const fp8v *c,
                                              const fp8v *d)
{
    fp8v_mul2(r, a, b, s, c, d);
}
static __attribute__((noinline)) void g1_sqr2(fp8v *r, const fp8v *a, fp8v *s, const fp8v *c) { fp8v_sqr2(r, a, s, c); }

/* Rows ahead whose points both passes prefetch. The MSM fetches a bucket when it schedules the add,
 * but by the backward pass its y (the second line of half the buckets, not read by the forward pass)
 * was often gone: its gather was a quarter of the kernel's own time in a 2^20 MSM profile. Distance
 * 2 halved that, 4 cut it to a quarter, 8 was no better than 4. */
#ifndef G1_ROW_PREFETCH
#define G1_ROW_PREFETCH 4
#endif

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

/* A point is 12 words, x then y. Whole 8-word loads that stay inside the point (words 0-7 for x,
 * 4-11 for y, whose words then land in rows 2-7 of the transpose) instead of masked 6-word ones,
 * the gathers being the kernel's largest cost after the products in the profiles (kernel alone,
 * buckets spread over 3 MiB: 66-67 -> 61-63 ns per add). */
_Static_assert(sizeof(cuzk_g1_affine_t) == 12 * sizeof(uint64_t), "G1 point = x, y of 6 words each");

V8_INLINE void g1_gather_coord(fp8v *r, const cuzk_g1_affine_t *const pt[8], int y)
{
    v8 v[8];
V8_UNROLL
    for (int i = 0; i < 8; i++)
        v[i] = v8_load((const uint64_t *)(const void *)pt[i] + (y ? 4 : 0));
    v8_transpose8(v);
    fp8v_from_regs(r, y ? v + 2 : v);
}

/* dx = x2 + p - x1 in (0, 2p) (no conditional reduction: the products take any input below 2^17·p),
 * and the lanes where x1 == x2, that is dx == p exactly (the limbs are normalized): those get dx = 1
 * instead (so that the lane products stay invertible) and are returned. */
V8_INLINE m8 g1_dx(fp8v *dx, const fp8v *x1, const fp8v *x2)
{
    m52_sub_lazy(dx->l, x2->l, x1->l, FP8_P, 8);
    m8 eq = v8_eq_mask(dx->l[0], v8_set1(FP8_P[0]));
    for (int j = 1; j < 8; j++)
        eq &= v8_eq_mask(dx->l[j], v8_set1(FP8_P[j]));
    if (eq) {
        dx->l[0] = v8_blend(eq, dx->l[0], v8_set1(1));
        for (int j = 1; j < 8; j++)
            dx->l[j] = v8_blend(eq, dx->l[j], v8_zero());
    }
    return eq;
}

/* Both cache lines of every point of row k (a 96-byte point spans two), ahead of its gathers. */
V8_INLINE void g1_prefetch_row(const cuzk_g1_affine_t *const *p, const cuzk_g1_affine_t *const *q, size_t n,
                               size_t k)
{
    for (int i = 0; i < 8; i++) {
        size_t idx = 8 * k + (size_t)i < n ? 8 * k + (size_t)i : n - 1;
        __builtin_prefetch(p[idx]);
        __builtin_prefetch((const char *)p[idx] + sizeof(cuzk_g1_affine_t) - 1);
        __builtin_prefetch(q[idx]);
        __builtin_prefetch((const char *)q[idx] + sizeof(cuzk_g1_affine_t) - 1);
    }
}

/* What the forward pass keeps of row k for the backward pass, so that the latter gathers only y:
 * c = the prefix product of its chain (c_k above), x1, xs = x1 + x2 (limb by limb, not carried: it
 * only feeds a subtraction, which carries) and dx as patched by g1_dx. The products read and write these rows in
 * place: passed by address, an operand held in registers would be copied to the stack for the call.
 * ec_ifma_g1_batch_add_scratch_bytes (ec_ifma.c) is 63 bytes of room to align these on a cache line,
 * rows of these (an even number), then one byte per row for the equal-x lanes. */
typedef struct {
    fp8v c, x1, xs, dx;
} g1_scratch_row;

/* The lanes whose x is 0: the point at infinity, stored as (0, 0), or a point of order 3 (not in G1). */
V8_INLINE m8 g1_x_zero(const fp8v *x)
{
    v8 any = x->l[0];
    for (int j = 1; j < 8; j++)
        any = v8_or(any, x->l[j]);
    return v8_eq_mask(any, v8_zero());
}

/* The forward pass needs x only: dx, x1 and x1 + x2 of row k into *keep. Returns the lanes to leave
 * out: x1 == x2, and with zero_q also x2 == 0 (then dx = p - x1 is still invertible, or x1 == 0 too
 * and the lane is patched as an equal x). */
V8_INLINE m8 g1_load_dx(g1_scratch_row *keep, const cuzk_g1_affine_t *const *p, const cuzk_g1_affine_t *const *q,
                        size_t n, size_t k, bool zero_q)
{
    const cuzk_g1_affine_t *pp[8], *qq[8];
    fp8v x1, x2;
    g1_row_points(pp, qq, p, q, NULL, n, k);
    g1_gather_coord(&x1, pp, 0);
    g1_gather_coord(&x2, qq, 0);
    m8 eq = g1_dx(&keep->dx, &x1, &x2);
    if (zero_q)
        eq |= g1_x_zero(&x2);
V8_UNROLL
    for (int j = 0; j < 8; j++)
        keep->xs.l[j] = v8_add(x1.l[j], x2.l[j]);
    keep->x1 = x1;
    return eq;
}

/* y1 of row k (lanes past n repeat pair n - 1) and dy = ±y2 - y1 (minus where asked) as one lazy
 * sum: y2 + p - y1 in (0, 2p), or 2p - y2 + p - y1 in (p, 3p], with one carry pass for both. */
V8_INLINE void g1_load_y(fp8v *y1, fp8v *dy, const cuzk_g1_affine_t *const *p, const cuzk_g1_affine_t *const *q,
                         const uint8_t *q_neg, size_t n, size_t k)
{
    const cuzk_g1_affine_t *pp[8], *qq[8];
    fp8v y2;
    m8 neg = g1_row_points(pp, qq, p, q, q_neg, n, k);
    g1_gather_coord(y1, pp, 1);
    g1_gather_coord(&y2, qq, 1);
V8_UNROLL
    for (int j = 0; j < 8; j++) {
        v8 t = v8_blend(neg, y2.l[j], v8_sub(v8_set1(FP8_2P[j]), y2.l[j]));
        dy->l[j] = v8_sub(v8_add(t, v8_set1(FP8_P[j])), y1->l[j]);
    }
    m52_norm(dy->l, 8);
}

/* Writes x, y (canonical) of the lanes of row k below `lanes` and not in `skip` to *out[8k + i].
 * A point's 12 words go out as one 8-word store (x and y's first two words: the transposed words
 * 0-7) and one 4-word store (y's words 2-5, two lanes to a register after v8_transpose4x2): 32
 * permutes instead of two 8 × 8 transposes, and no masked store. */
V8_INLINE void g1_scatter_row(cuzk_g1_affine_t *const *out, size_t k, int lanes, m8 skip, const fp8v *x,
                              const fp8v *y)
{
    v8 lo[8], yw[6];
    fp8v_to_regs(lo, x);
    fp8v_to_regs(yw, y);
    lo[6] = yw[0];
    lo[7] = yw[1];
    v8_transpose8(lo);
    v8_transpose4x2(yw + 2);
    for (int i = 0; i < lanes; i++) {
        if ((skip >> i) & 1)
            continue;
        uint64_t *d = out[8 * k + (size_t)i]->x.l; /* x then y: 12 words (see the assertion above) */
        v8_store(d, lo[i]);
        if (i < 4)
            v8_store_lo4(d + 8, yw[2 + i]);
        else
            v8_store_hi4(d + 8, yw[2 + i - 4]);
    }
}

/* The lane products c_(N-1) -> t_(N-1) = their inverses with the factor 2^(400+32N): fp_inv gives
 * [c^-1]_(768-e) for [c]_e, e = 384-32(N-1), and one more fp_mul by [2^48]_384 lands on
 * 768 - 416 + 32N + 48 = 400 + 32N. In general [c]_e becomes [c^-1]_(816-e). False when a lane product
 * is 0 (some dx = 0). */
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
    fp_batch_inv_vartime(s, s, 8);   /* variable time: see fp_inv_vartime in fp.h */
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

/* Rows k - 1 and k (A and B of a pair, k odd, k >= 3) extend their chains: c_j = c_(j-2)·dx_j. */
V8_INLINE void g1_extend_chains(g1_scratch_row *keep, size_t k)
{
    g1_mul2(&keep[k - 1].c, &keep[k - 3].c, &keep[k - 1].dx, &keep[k].c, &keep[k - 2].c, &keep[k].dx);
}

/* The inverses of pair m's dx (rows 2m, 2m + 1) from t = t_m of each chain: the prefix product of
 * the pair before times t, or t itself for pair 0. */
V8_INLINE void g1_pair_inverses(fp8v *invA, fp8v *invB, const g1_scratch_row *keep, size_t m, const fp8v *tA,
                                const fp8v *tB)
{
    if (m > 0) {
        g1_mul2(invA, &keep[2 * m - 2].c, tA, invB, &keep[2 * m - 1].c, tB);
    } else {
        *invA = *tA;
        *invB = *tB;
    }
}

/* One step back along both chains: t_m -> t_(m-1) = t_m·dx of pair m (rows 2m, 2m + 1). */
V8_INLINE void g1_chain_step_back(fp8v *tA, fp8v *tB, const g1_scratch_row *keep, size_t m)
{
    g1_mul2(tA, tA, &keep[2 * m].dx, tB, tB, &keep[2 * m + 1].dx);
}

/* The pairs of row k that are real (0 for the odd row that pads the last row pair). */
V8_INLINE int g1_row_lanes(size_t n, size_t k)
{
    return 8 * k >= n ? 0 : n - 8 * k < 8 ? (int)(n - 8 * k) : 8;
}

/* The kernel behind both contracts: with skipped == NULL it refuses (false, nothing written) when
 * some pair has x1 == x2; otherwise skipped[i] says whether pair i had x1 == x2 or x2 == 0 (its
 * output is then not written), *n_skipped counts them, and it returns true.
 *
 * Rows go in pairs (A = row 2m, B = row 2m + 1, a padding row B when the rows are odd, whose lanes
 * repeat pair n - 1 and are not written), and every product is one of two independent ones done
 * together (g1_mul2): the prefix products run as two chains, of the even and of the odd rows, each
 * as above with N = the pairs M; the chains' ends are inverted together, c_A·c_B being [.]_(416-64M)
 * and its inverse [.]_(400+64M), times the other chain's end [.]_(384-32(M-1)) gives each chain its
 * t = [.]_(400+32M). */
static bool g1_batch_add_core(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                              const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n, void *scratch,
                              uint8_t *skipped, size_t *n_skipped)
{
    if (n_skipped)
        *n_skipped = 0;
    if (n == 0)
        return true;
    size_t rows = (n + 7) / 8, pairs = (rows + 1) / 2;
    g1_scratch_row *keep = (g1_scratch_row *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63); /* any alignment */
    uint8_t *eqs = (uint8_t *)(keep + 2 * pairs); /* the equal-x lanes of each row */
    fp8v tA, tB, u;
    size_t nskip = 0;

    for (size_t k = 0; k < 2 * pairs; k++) {
        if (k + G1_ROW_PREFETCH < rows)
            g1_prefetch_row(p, q, n, k + G1_ROW_PREFETCH);
        m8 eq = g1_load_dx(&keep[k], p, q, n, k, skipped != NULL);
        int lanes = g1_row_lanes(n, k);
        eqs[k] = (uint8_t)eq;
        if (skipped) {
            for (int i = 0; i < lanes; i++) {
                skipped[8 * k + (size_t)i] = (uint8_t)((eq >> i) & 1);
                nskip += (eq >> i) & 1;
            }
        } else if (eq && lanes > 0) {
            return false;
        }
        if (k < 2) /* each chain starts with its first row's dx */
            keep[k].c = keep[k].dx;
        else if ((k & 1) && k >= 5) /* the pair before this one, now that this pair's rows are in */
            g1_extend_chains(keep, k - 2);
    }
    if (pairs >= 2)
        g1_extend_chains(keep, 2 * pairs - 1);
    const fp8v *cA = &keep[2 * pairs - 2].c, *cB = &keep[2 * pairs - 1].c;
    g1_mul(&u, cA, cB);
    if (!g1_invert_lanes(&u, &u))
        return false; /* unreachable: every dx is nonzero by now */
    g1_mul2(&tA, &u, cB, &tB, &u, cA);

    /* Pair m's inverses come from the iteration before (t_m -> inv_m, t_(m-1)); each iteration makes
     * the next pair's between its own rows (see the top of the file). */
    fp8v invA, invB;
    g1_pair_inverses(&invA, &invB, keep, pairs - 1, &tA, &tB);
    if (pairs >= 2)
        g1_chain_step_back(&tA, &tB, keep, pairs - 1);
    for (size_t m = pairs; m-- > 0;) {
        fp8v lamA, lamB, x3A, x3B, y3A, y3B, dA, dB, y1A, y1B, dyA, dyB;
        size_t a = 2 * m, b = a + 1;
        const g1_scratch_row *ka = &keep[a], *kb = &keep[b];
        if (a >= G1_ROW_PREFETCH) {
            g1_prefetch_row(p, q, n, a - G1_ROW_PREFETCH);
            g1_prefetch_row(p, q, n, b - G1_ROW_PREFETCH);
        }
        g1_load_y(&y1A, &dyA, p, q, q_neg, n, a);
        g1_load_y(&y1B, &dyB, p, q, q_neg, n, b);
        g1_mul2(&lamA, &dyA, &invA, &lamB, &dyB, &invB); /* [lambda]_400 < 2p */
        g1_sqr2(&x3A, &lamA, &x3B, &lamB);              /* [lambda²]_384 < 2p */
        if (m > 0) /* tA, tB are t_(m-1) */
            g1_pair_inverses(&invA, &invB, keep, m - 1, &tA, &tB);
        fp8v_sub(&x3A, &x3A, &ka->xs);                   /* lambda² - x1 - x2 in [0, 2p) */
        fp8v_sub(&x3B, &x3B, &kb->xs);
        fp8v_reduce(&x3A, &x3A);                         /* canonical */
        fp8v_reduce(&x3B, &x3B);
        m52_sub_lazy(dA.l, ka->x1.l, x3A.l, FP8_P, 8);    /* x1 + p - x3 in (0, 2p) */
        m52_sub_lazy(dB.l, kb->x1.l, x3B.l, FP8_P, 8);
        fp8v_shl(&lamA, &lamA, 16);                      /* [lambda]_416 < 2^17·p */
        fp8v_shl(&lamB, &lamB, 16);
        if (m > 1) /* t_(m-2) */
            g1_chain_step_back(&tA, &tB, keep, m - 1);
        g1_mul2(&y3A, &lamA, &dA, &y3B, &lamB, &dB);     /* [lambda(x1 - x3)]_384 < 2p: 2^18·p² < p·2^416 */
        fp8v_sub(&y3A, &y3A, &y1A);
        fp8v_sub(&y3B, &y3B, &y1B);
        fp8v_reduce(&y3A, &y3A);
        fp8v_reduce(&y3B, &y3B);
        g1_scatter_row(out, a, g1_row_lanes(n, a), eqs[a], &x3A, &y3A);
        g1_scatter_row(out, b, g1_row_lanes(n, b), eqs[b], &x3B, &y3B);
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
