/* The scalar NTT kernels, written once and instantiated per Montgomery multiplication: a file
 * defines NTT_MUL (an ntt_arith.h multiplication), NTT_KSFX (a name suffixer) and NTT_KNAME (the
 * set's name), then includes this file, which defines the table NTT_KSFX(ntt_kernels).
 * Butterflies keep values in [0, 2r); see ntt_arith.h for the bounds. */
#if !defined(NTT_MUL) || !defined(NTT_KSFX) || !defined(NTT_KNAME)
#error "define NTT_MUL, NTT_KSFX and NTT_KNAME before including ntt_kern.h"
#endif
#include <string.h>
#include "ntt/ntt_arith.h"
#include "ntt/ntt_internal.h"

/* Applies fin to one output value. */
static inline void NTT_KSFX(fin_one)(fr *x, const ntt_fin *fin)
{
    if (fin->mode == NTT_FIN_SCALE)
        NTT_MUL(x, x, &fin->scale);
    if (fin->mode != NTT_FIN_NONE)
        ntt_reduce(x, x);
}

/* Gentleman–Sande butterflies on two rows: (x, y) <- (x + y, (x − y)·w) with w = tw[j]. */
static void NTT_KSFX(dif_rows)(fr *restrict x, fr *restrict y, size_t cnt, const fr *tw)
{
    for (size_t j = 0; j < cnt; j++) {
        fr a = x[j], b = y[j], d;
        ntt_add(&x[j], &a, &b);
        ntt_sub(&d, &a, &b);
        NTT_MUL(&y[j], &d, &tw[j]);
    }
}

/* Cooley–Tukey butterflies on two rows: t = y·w, (x, y) <- (x + t, x − t). */
static void NTT_KSFX(dit_rows)(fr *restrict x, fr *restrict y, size_t cnt, const fr *tw)
{
    for (size_t j = 0; j < cnt; j++) {
        fr a = x[j], t;
        NTT_MUL(&t, &y[j], &tw[j]);
        ntt_add(&x[j], &a, &t);
        ntt_sub(&y[j], &a, &t);
    }
}

static void NTT_KSFX(dif_block)(fr *a, unsigned k, int inv, const ntt_fin *fin, void *scratch)
{
    (void)scratch;
    const ntt_consts *cs = ntt_tables_init();
    const fr *tw = inv ? cs->small_inv : cs->small;
    const size_t n = (size_t)1 << k;
    if (k == 1) {
        fr x = a[0], y = a[1];
        ntt_add(&a[0], &x, &y);
        ntt_sub(&a[1], &x, &y);
        NTT_KSFX(fin_one)(&a[0], fin);
        NTT_KSFX(fin_one)(&a[1], fin);
        return;
    }
    for (size_t h = n / 2; h >= 4; h /= 2)
        for (size_t blk = 0; blk < n; blk += 2 * h)
            NTT_KSFX(dif_rows)(a + blk, a + blk + h, h, tw + h);
    /* The last two stages together: twiddles 1 and ω_4 (tw[3]), then 1 and 1. */
    const fr *w4 = &tw[3];
    for (size_t i = 0; i < n; i += 4) {
        fr s0, d0, s1, d1, t;
        ntt_add(&s0, &a[i], &a[i + 2]);
        ntt_sub(&d0, &a[i], &a[i + 2]);
        ntt_add(&s1, &a[i + 1], &a[i + 3]);
        ntt_sub(&t, &a[i + 1], &a[i + 3]);
        NTT_MUL(&d1, &t, w4);
        ntt_add(&a[i], &s0, &s1);
        ntt_sub(&a[i + 1], &s0, &s1);
        ntt_add(&a[i + 2], &d0, &d1);
        ntt_sub(&a[i + 3], &d0, &d1);
        if (fin->mode != NTT_FIN_NONE)
            for (int j = 0; j < 4; j++)
                NTT_KSFX(fin_one)(&a[i + j], fin);
    }
}

static void NTT_KSFX(dit_block)(fr *a, unsigned k, int inv, const ntt_fin *fin, void *scratch)
{
    (void)scratch;
    const ntt_consts *cs = ntt_tables_init();
    const fr *tw = inv ? cs->small_inv : cs->small;
    const size_t n = (size_t)1 << k;
    if (k == 1) {
        fr x = a[0], y = a[1];
        ntt_add(&a[0], &x, &y);
        ntt_sub(&a[1], &x, &y);
    } else {
        /* The first two stages together: twiddles 1 and 1, then 1 and ω_4. */
        const fr *w4 = &tw[3];
        for (size_t i = 0; i < n; i += 4) {
            fr s0, d0, s1, d1, t;
            ntt_add(&s0, &a[i], &a[i + 1]);
            ntt_sub(&d0, &a[i], &a[i + 1]);
            ntt_add(&s1, &a[i + 2], &a[i + 3]);
            ntt_sub(&t, &a[i + 2], &a[i + 3]);
            NTT_MUL(&d1, &t, w4);
            ntt_add(&a[i], &s0, &s1);
            ntt_sub(&a[i + 2], &s0, &s1);
            ntt_add(&a[i + 1], &d0, &d1);
            ntt_sub(&a[i + 3], &d0, &d1);
        }
        for (size_t h = 4; h < n; h *= 2)
            for (size_t blk = 0; blk < n; blk += 2 * h)
                NTT_KSFX(dit_rows)(a + blk, a + blk + h, h, tw + h);
    }
    if (fin->mode != NTT_FIN_NONE)
        for (size_t i = 0; i < n; i++)
            NTT_KSFX(fin_one)(&a[i], fin);
}

/* One stage of a pass, on the scratch copy of a column block: rows of `cols` elements, row t
 * holding seg[t·S + b ..] (S = 2^(s−m)). In the stage with 2^u groups, the pair of rows
 * (t, t + hr) at offset tt = t mod 2hr has element indices e = tt·S + b + c inside their 2h-block
 * (h = hr·S), and the twiddle of column c is
 *     ω_{2h}^e = ω_{2^(s−u)}^(tt·S) · ω_{2^(s−u)}^(b + c) = ω_{2hr}^tt · v[c]
 * (ω^−1 for the inverse): a root of the small table times the stage's
 * column root v[c] (ntt_col_roots). So the stage first computes its hr·cols twiddles into tws,
 * row tt = 0 being v itself, one multiplication each, and no table per size is needed. */
typedef void (*ntt_rows_fn)(fr *x, fr *y, size_t cnt, const fr *tw);

static inline void ntt_pass_stage(fr *scr, fr *tws, unsigned s, unsigned m, unsigned u, size_t b,
                                  size_t cols, const ntt_roots *rt, int inv, ntt_rows_fn rows)
{
    const size_t R = (size_t)1 << m, hr = R >> (u + 1);
    const ntt_consts *cs = ntt_tables_init();
    const fr *w = (inv ? cs->small_inv : cs->small) + hr; /* w[tt] = ω_{2hr}^±tt */
    ntt_col_roots(tws, rt, s - u, b, cols, inv);
    for (size_t tt = 1; tt < hr; tt++)
        for (size_t c = 0; c < cols; c++)
            fr_mul(&tws[tt * cols + c], &w[tt], &tws[c]);
    for (size_t g = 0; g < R; g += 2 * hr)
        for (size_t tt = 0; tt < hr; tt++) {
            fr *x = scr + (g + tt) * cols, *y = x + hr * cols;
            rows(x, y, cols, tws + tt * cols);
        }
}

/* The scratch copy of a column block: R rows of `cols` elements, rows S apart in the segment.
 * The rows are far apart (a cache miss each): prefetch them all before copying. */
static inline void ntt_pass_gather(fr *scr, const fr *seg, size_t S, size_t R, size_t b,
                                   size_t cols)
{
    for (size_t t = 0; t < R; t++)
        for (size_t c = 0; c < cols; c += 2)
            __builtin_prefetch(seg + t * S + b + c);
    for (size_t t = 0; t < R; t++)
        memcpy(scr + t * cols, seg + t * S + b, cols * sizeof(fr));
}

static inline void ntt_pass_scatter(fr *seg, const fr *scr, size_t S, size_t R, size_t b,
                                    size_t cols)
{
    for (size_t t = 0; t < R; t++)
        memcpy(seg + t * S + b, scr + t * cols, cols * sizeof(fr));
}

static void NTT_KSFX(dif_pass)(fr *seg, unsigned s, unsigned m, size_t b, size_t cols,
                               const ntt_roots *rt, int inv, void *scratch)
{
    fr *scr = scratch;
    const size_t S = (size_t)1 << (s - m), R = (size_t)1 << m;
    ntt_pass_gather(scr, seg, S, R, b, cols);
    for (unsigned u = 0; u < m; u++)
        ntt_pass_stage(scr, scr + R * cols, s, m, u, b, cols, rt, inv, NTT_KSFX(dif_rows));
    ntt_pass_scatter(seg, scr, S, R, b, cols);
}

static void NTT_KSFX(dit_pass)(fr *seg, unsigned s, unsigned m, size_t b, size_t cols,
                               const ntt_roots *rt, int inv, void *scratch, const ntt_fin *fin)
{
    fr *scr = scratch;
    const size_t S = (size_t)1 << (s - m), R = (size_t)1 << m;
    ntt_pass_gather(scr, seg, S, R, b, cols);
    for (unsigned u = m; u-- > 0;)
        ntt_pass_stage(scr, scr + R * cols, s, m, u, b, cols, rt, inv, NTT_KSFX(dit_rows));
    if (fin->mode != NTT_FIN_NONE)
        for (size_t i = 0; i < R * cols; i++)
            NTT_KSFX(fin_one)(&scr[i], fin);
    ntt_pass_scatter(seg, scr, S, R, b, cols);
}

static void NTT_KSFX(scale)(fr *a, size_t n, const fr *hi, const fr *lo)
{
    for (size_t i = 0; i < n; i++) {
        fr f;
        NTT_MUL(&f, &lo[i], hi);
        ntt_reduce(&f, &f);
        NTT_MUL(&a[i], &a[i], &f);
        ntt_reduce(&a[i], &a[i]);
    }
}

const ntt_kernels NTT_KSFX(ntt_kernels) = {
    .name = NTT_KNAME,
    .dif_block = NTT_KSFX(dif_block),
    .dit_block = NTT_KSFX(dit_block),
    .dif_pass = NTT_KSFX(dif_pass),
    .dit_pass = NTT_KSFX(dit_pass),
    .scale = NTT_KSFX(scale),
};
