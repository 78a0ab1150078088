/* The NTT kernels on AVX-512 IFMA, eight butterflies at a time in the radix-2^52 lanes of
 * ff/ifma (fr8v). Written once and built twice: ntt_kern_ifma.c (real AVX-512) and
 * ntt_kern_ifma_emu.c (the portable emulation, so that the algorithm is tested on any CPU). A
 * build file includes simd512.h's configuration (IFMA_REAL or not), defines NTT_IFMA_SET (the
 * table's name), NTT_IFMA_NAME and NTT_IFMA_FALLBACK (a scalar set for blocks too small for the
 * lanes), then includes this file once.
 *
 * Montgomery factors: ifma_fr8's multiplication divides by 2^260, fr.h's by 2^256. The data keeps
 * fr.h's form (only the radix changes on the way in and out) and every twiddle carries the
 * extra 2^4 instead: x·(16w)·2^−260 = x·w·2^−256. In-cache twiddles are stored as 16w mod r;
 * pass twiddles are computed per column block from roots in that form (a product of two such
 * factors keeps it: 16a·16b·2^−260 = 16ab), below 1.5r.
 * Ranges (ifma.h: a product needs a·b < r·2^260 and is below a·b·2^−260 + r), with twiddles
 * below 1.5r, so that any factor below 16r times a twiddle is valid and the product below 2r:
 *   - between kernels, as everywhere in the NTT, values are in [0, 2r);
 *   - the stages on whole groups (a pass's, and a block's above its radix-8 end) reduce in one
 *     stage of three, counted back from the call's last stage, which always reduces (a reduction
 *     costs a fifth of a butterfly's operations besides its product): DIF sums grow to 4r and 8r
 *     unreduced, then the third stage reduces x + y < 16r to [0, r + 2^212) (lf_reduce, its limbs
 *     loose-signed), and x − y + k (k = 2r, 4r, 8r) goes to the product unreduced (lf_dif_start);
 *     DIT butterflies work in [0, 4r) after a reducing stage (Harvey's lazy form: x is brought
 *     below 2r, then x + t and x − t + 2r need no reduction) and grow to 6r and 8r in the two
 *     stages without (lf_dit_finish); a block or pass brings its values back below 2r at the end;
 *   - the radix-8 ends of the blocks work in [0, 2r). */
#if !defined(NTT_IFMA_SET) || !defined(NTT_IFMA_NAME) || !defined(NTT_IFMA_FALLBACK)
#error "define NTT_IFMA_SET, NTT_IFMA_NAME and NTT_IFMA_FALLBACK before including ntt_kern_ifma.h"
#endif
#include <pthread.h>
#include "ff/ifma/simd512.h"
#include "ff/ifma/fr8_ops.h"
#include "ntt/ntt_internal.h"
#include "ntt/ntt_kern_ifma_arith.h"
#include "ntt/ntt_kern_ifma_lanes.h"

#define LF_SMALL_GROUPS (((size_t)1 << NTT_BLOCK_LOG) / 8)
/* Blocks below 2^LF_MIN_LOG elements (one 8×8 transposition) go to the fallback set. */
#define LF_MIN_LOG 6
/* The scratch holds a block, or a column block and half as many twiddles, in lane form. */
_Static_assert(NTT_SCRATCH_BYTES >= LF_SMALL_GROUPS * sizeof(fr8v) &&
                   NTT_SCRATCH_BYTES >= ((size_t)3 << NTT_SCRATCH_LOG) / 16 * sizeof(fr8v),
               "NTT_SCRATCH_BYTES too small for the IFMA kernels");

/* In-cache twiddles, forward [0] and inverse [1]: group g >= 1 holds 16·small[8g .. 8g + 7] mod
 * r; w8 holds 16·ω_8^j mod r (j = 1, 2, 3) in every lane, for the radix-8 ends. For the passes:
 * small16 = 16·small mod r (scalars, to broadcast), and for each order 2^s, pow8[s] holds
 * 16·ω_{2^s}^±j mod r in lane j, step8[s] 16·ω_{2^s}^±8 mod r in every lane. */
typedef struct {
    fr8v tw[2][LF_SMALL_GROUPS];
    fr8v w8[2][3];
    fr small16[2][(size_t)1 << NTT_BLOCK_LOG];
    fr8v pow8[2][NTT_ROOT_LOG + 1], step8[2][NTT_ROOT_LOG + 1];
} lf_tables;

static lf_tables lft;
static pthread_once_t lft_once = PTHREAD_ONCE_INIT;

static void lf_times16(fr *o, const fr *w)
{
    *o = *w;
    for (int i = 0; i < 4; i++)
        fr_add(o, o, o); /* on the representation: doubling mod r */
}

static void lf_tables_build(void)
{
    const ntt_consts *cs = ntt_tables_init();
    for (int inv = 0; inv < 2; inv++) {
        const fr *small = inv ? cs->small_inv : cs->small;
        fr t[8];
        for (size_t g = 1; g < LF_SMALL_GROUPS; g++) {
            for (int i = 0; i < 8; i++)
                lf_times16(&t[i], &small[8 * g + (size_t)i]);
            lf_load(&lft.tw[inv][g], t, 1);
        }
        for (int j = 1; j <= 3; j++) {
            lf_times16(&t[0], &small[4 + j]);
            lf_broadcast(&lft.w8[inv][j - 1], &t[0]);
        }
        for (size_t i = 1; i < ((size_t)1 << NTT_BLOCK_LOG); i++)
            lf_times16(&lft.small16[inv][i], &small[i]);
        for (unsigned s = 0; s <= NTT_ROOT_LOG; s++) {
            const fr *w = inv ? &cs->omega_inv[s] : &cs->omega[s];
            fr x = FR_ONE;
            for (int j = 0; j < 8; j++) {
                lf_times16(&t[j], &x);
                fr_mul(&x, &x, w);
            }
            lf_load(&lft.pow8[inv][s], t, 1);
            lf_times16(&t[0], &x);
            lf_broadcast(&lft.step8[inv][s], &t[0]);
        }
    }
}

/* A broadcast scalar (< r) with the factor 16 as a shift (< 16r). */
V8_INLINE void lf_broadcast16(fr8v *o, const fr *w)
{
    lf_broadcast(o, w);
    fr8v_shl(o, o, 4);
}

/* Gentleman–Sande in [0, 2r): (x, y) <- (x + y, (x − y)·w), the sum reduced. The product is left
 * loose (ntt_kern_ifma_arith.h): whatever reads it next normalises. */
V8_INLINE void lf_dif_bfly(fr8v *x, fr8v *y, const fr8v *w)
{
    fr8v d;
    lf_dif_start(x, &d, y, LF_DIF_REDUCE);
    lf_mul(y, &d, w, 0);
}

/* Cooley–Tukey in [0, 2r): t = y·w, (x, y) <- (x + t, x − t). */
V8_INLINE void lf_dit_bfly(fr8v *x, fr8v *y, const fr8v *w)
{
    fr8v t, s;
    lf_mul(&t, y, w, 0);
    lf_add(&s, x, &t);
    lf_sub(y, x, &t);
    *x = s;
}

/* Which stages of a kernel call reduce (ntt_kern_ifma_arith.h): the last, and every third one
 * before it; `left` is the number of stages the call runs after this one. */
static inline int lf_dif_kind(size_t left) { return (int)(left % 3); }
static inline bool lf_dit_reduces(size_t left) { return left % 3 == 0; }

/* Butterflies without a twiddle (w = 1). */
V8_INLINE void lf_bfly1(fr8v *x, fr8v *y)
{
    fr8v s;
    lf_add(&s, x, y);
    lf_sub(y, x, y);
    *x = s;
}

/* One stage on nb pairs of vectors in L: pair q is x = L[q + (q & ~(H − 1))], y = x + H, with
 * the twiddle tw[q & (H − 1)] (H a power of two: blocks of 2H vectors, x in the first half).
 * Two pairs at a time: each product has a long dependency chain, and lf_mul2 interleaves the
 * two pairs' products round by round so that the pipelines always have independent work. The
 * whole stage is one sequence, so that short rows pair up too (an odd last pair goes alone). */
#define LF_X(q) (L + (q) + ((q) & ~(H - 1)))

V8_INLINE void lf_dif_stage(fr8v *L, size_t nb, size_t H, const fr8v *tw, int kind)
{
    size_t q = 0;
    for (; q + 2 <= nb; q += 2) {
        fr8v *x0 = LF_X(q), *x1 = LF_X(q + 1), d0, d1;
        lf_dif_start(x0, &d0, x0 + H, kind);
        lf_dif_start(x1, &d1, x1 + H, kind);
        lf_mul2(x0 + H, &d0, &tw[q & (H - 1)], x1 + H, &d1, &tw[(q + 1) & (H - 1)]);
    }
    if (q < nb) {
        fr8v *x = LF_X(q), d;
        lf_dif_start(x, &d, x + H, kind);
        lf_mul(x + H, &d, &tw[q & (H - 1)], 0);
    }
}

/* Below 8r in, below 4r (reduce) or 8r out (lf_dit_finish). */
V8_INLINE void lf_dit_stage(fr8v *L, size_t nb, size_t H, const fr8v *tw, bool reduce)
{
    size_t q = 0;
    for (; q + 2 <= nb; q += 2) {
        fr8v *x0 = LF_X(q), *x1 = LF_X(q + 1), t0, t1;
        lf_mul2(&t0, x0 + H, &tw[q & (H - 1)], &t1, x1 + H, &tw[(q + 1) & (H - 1)]);
        lf_dit_finish(x0, x0 + H, &t0, reduce);
        lf_dit_finish(x1, x1 + H, &t1, reduce);
    }
    if (q < nb) {
        fr8v *x = LF_X(q), t;
        lf_mul(&t, x + H, &tw[q & (H - 1)], 0);
        lf_dit_finish(x, x + H, &t, reduce);
    }
}
#undef LF_X

/* The last three DIF stages (half-sizes 4, 2, 1) on e[0..7], where lane q of e[u] is element u
 * of an 8-element block: twiddles ω_8^j, then ω_4^j = ω_8^2j, then 1. */
V8_INLINE void lf_radix8_dif(fr8v *e, const fr8v *w8)
{
    lf_bfly1(&e[0], &e[4]);
    for (int j = 1; j < 4; j++)
        lf_dif_bfly(&e[j], &e[j + 4], &w8[j - 1]);
    for (int b = 0; b < 8; b += 4) {
        lf_bfly1(&e[b], &e[b + 2]);
        lf_dif_bfly(&e[b + 1], &e[b + 3], &w8[1]);
    }
    for (int b = 0; b < 8; b += 2)
        lf_bfly1(&e[b], &e[b + 1]);
}

/* The first three DIT stages (half-sizes 1, 2, 4), the mirror image. */
V8_INLINE void lf_radix8_dit(fr8v *e, const fr8v *w8)
{
    for (int b = 0; b < 8; b += 2)
        lf_bfly1(&e[b], &e[b + 1]);
    for (int b = 0; b < 8; b += 4) {
        lf_bfly1(&e[b], &e[b + 2]);
        lf_dit_bfly(&e[b + 1], &e[b + 3], &w8[1]);
    }
    lf_bfly1(&e[0], &e[4]);
    for (int j = 1; j < 4; j++)
        lf_dit_bfly(&e[j], &e[j + 4], &w8[j - 1]);
}

/* fin on one vector (normalised); sc16 = 16·scale (a shift, < 16r) when the mode scales. */
V8_INLINE void lf_fin(fr8v *x, const ntt_fin *fin, const fr8v *sc16)
{
    if (fin->mode == NTT_FIN_SCALE)
        lf_mul(x, x, sc16, 1);
    if (fin->mode != NTT_FIN_NONE)
        fr8v_reduce(x, x);
}

/* In-cache blocks: the 2^k elements as groups of eight consecutive ones (L[g], lane i = element
 * 8g + i) in the scratch; the stages with half-size >= 8 pair whole groups, the last three run
 * on eight groups transposed, and go straight back to memory with strided stores. */
static void lf_dif_block(fr *a, unsigned k, int inv, const ntt_fin *fin, void *scratch)
{
    if (k < LF_MIN_LOG) {
        NTT_IFMA_FALLBACK.dif_block(a, k, inv, fin, scratch);
        return;
    }
    pthread_once(&lft_once, lf_tables_build);
    const fr8v *tw = lft.tw[inv];
    const size_t ng = ((size_t)1 << k) / 8;
    fr8v *L = scratch;
    for (size_t g = 0; g < ng; g++)
        lf_load(&L[g], a + 8 * g, 1);
    for (size_t hg = ng / 2; hg >= 1; hg /= 2) /* log2(hg) stages follow */
        lf_dif_stage(L, ng / 2, hg, &tw[hg], lf_dif_kind((size_t)__builtin_ctzll(hg)));
    fr8v sc16;
    lf_broadcast16(&sc16, &fin->scale);
    for (size_t g = 0; g < ng; g += 8) {
        fr8v *e = &L[g];
        lf_transpose8(e);
        lf_radix8_dif(e, lft.w8[inv]);
        for (int u = 0; u < 8; u++) {
            lf_fin(&e[u], fin, &sc16);
            lf_store(a + 8 * g + (size_t)u, 8, &e[u]);
        }
    }
}

static void lf_dit_block(fr *a, unsigned k, int inv, const ntt_fin *fin, void *scratch)
{
    if (k < LF_MIN_LOG) {
        NTT_IFMA_FALLBACK.dit_block(a, k, inv, fin, scratch);
        return;
    }
    pthread_once(&lft_once, lf_tables_build);
    const fr8v *tw = lft.tw[inv];
    const size_t ng = ((size_t)1 << k) / 8;
    fr8v *L = scratch;
    for (size_t g = 0; g < ng; g += 8) {
        fr8v *e = &L[g];
        for (int u = 0; u < 8; u++)
            lf_load(&e[u], a + 8 * g + (size_t)u, 8);
        lf_radix8_dit(e, lft.w8[inv]);
        lf_transpose8(e);
    }
    /* the stages on whole groups (below 8r, ntt_kern_ifma_arith.h), brought back below 2r at the end */
    for (size_t hg = 1; hg < ng; hg *= 2) /* log2(ng / hg) − 1 stages follow */
        lf_dit_stage(L, ng / 2, hg, &tw[hg], lf_dit_reduces((size_t)(__builtin_ctzll(ng / hg) - 1)));
    fr8v sc16;
    lf_broadcast16(&sc16, &fin->scale);
    for (size_t g = 0; g < ng; g++) {
        m52_csub(L[g].l, L[g].l, FR8_2R, 5);
        lf_fin(&L[g], fin, &sc16);
        lf_store(a + 8 * g, 1, &L[g]);
    }
}

/* A pass on the column block [b, b + cols) (see ntt_pass_stage in ntt_kern.h for the twiddle
 * indices and why they are copied first): R rows of cq = cols/8 groups, then one stage's
 * twiddles in lane form. */
typedef struct {
    fr8v *L, *TW;
    size_t S, R, cq;
} lf_pass;

/* How far ahead of its loads the gather of a pass asks for lines, in groups of eight elements
 * (four lines each). */
#define LF_GATHER_AHEAD 16

static void lf_pass_gather(lf_pass *p, void *scratch, const fr *seg, unsigned s, unsigned m,
                           size_t b, size_t cols)
{
    p->S = (size_t)1 << (s - m);
    p->R = (size_t)1 << m;
    p->cq = cols / 8;
    p->L = scratch;
    p->TW = p->L + p->R * p->cq;
    /* Group i of eight elements (row i / cq) is asked for LF_GATHER_AHEAD groups before it is
     * loaded: the rows, a power of two apart, share their cache sets, so that only a short
     * window of them stays in the cache until it is used. */
    const size_t cq = p->cq, groups = p->R * cq;
    for (size_t i = 0; i < groups; i++) {
        const size_t ia = i + LF_GATHER_AHEAD;
        if (ia < groups) {
            const fr *q = seg + (ia / cq) * p->S + b + 8 * (ia % cq);
            for (int l = 0; l < 8; l += 2)
                __builtin_prefetch(q + l);
        }
        lf_load(&p->L[i], seg + (i / cq) * p->S + b + 8 * (i % cq), 1);
    }
}

/* Segments of 2^LF_STREAM_LOG elements (64 MiB) or more do not stay in the caches until the
 * next level reads them: their passes write with non-temporal stores. Their rows, a power of two
 * apart, share cache sets and have mostly been evicted since the gather, so that ordinary stores
 * would read every line from memory again before writing it. */
#define LF_STREAM_LOG 21

/* Back to memory: the DIF's last products are loose (normalised here), the DIT's values are
 * below 4r (brought below 2r here). */
static void lf_pass_scatter(const lf_pass *p, fr *seg, size_t b, const ntt_fin *fin, int dit)
{
    fr8v sc16;
    lf_broadcast16(&sc16, &fin->scale);
    const int stream = p->S * p->R >= ((size_t)1 << LF_STREAM_LOG) && ((uintptr_t)seg & 63) == 0;
    for (size_t t = 0; t < p->R; t++)
        for (size_t c = 0; c < p->cq; c++) {
            fr8v *x = &p->L[t * p->cq + c];
            if (dit)
                m52_csub(x->l, x->l, FR8_2R, 5);
            else
                m52_norm(x->l, 5);
            lf_fin(x, fin, &sc16);
            if (stream)
                lf_store_stream(seg + t * p->S + b + 8 * c, x);
            else
                lf_store(seg + t * p->S + b + 8 * c, 1, x);
        }
    if (stream)
        lf_stream_fence();
}

/* The twiddles of stage u (ntt_pass_stage in ntt_kern.h): row tt = 0 holds the stage's column
 * roots 16·ω_{2^(s−u)}^±(b + c), one product per group of eight after the first (pow8, step8);
 * row tt the same times 16·ω_{2hr}^±tt. Every value stays in the cache. */
static void lf_pass_twiddles(const lf_pass *p, unsigned s, unsigned u, size_t b,
                             const ntt_roots *rt, int inv)
{
    const size_t hr = p->R >> (u + 1), cq = p->cq;
    const unsigned su = s - u;
    fr base;
    fr8v bb;
    ntt_root_pow(&base, rt, su, b, inv);
    lf_broadcast16(&bb, &base);
    lf_mul(&p->TW[0], &bb, &lft.pow8[inv][su], 1);
    for (size_t c = 1; c < cq; c++)
        lf_mul(&p->TW[c], &p->TW[c - 1], &lft.step8[inv][su], 1);
    /* rows 1 .. hr − 1, two products at a time (lf_mul2) */
    const fr *w16 = lft.small16[inv] + hr;
    const size_t end = hr * cq;
    size_t i = cq;
    for (; i + 2 <= end; i += 2) {
        fr8v w0, w1;
        lf_broadcast(&w0, &w16[i / cq]);
        lf_broadcast(&w1, &w16[(i + 1) / cq]);
        lf_mul2(&p->TW[i], &w0, &p->TW[i % cq], &p->TW[i + 1], &w1, &p->TW[(i + 1) % cq]);
        m52_norm(p->TW[i].l, 5);
        m52_norm(p->TW[i + 1].l, 5);
    }
    if (i < end) {
        fr8v w;
        lf_broadcast(&w, &w16[i / cq]);
        lf_mul(&p->TW[i], &w, &p->TW[i % cq], 1);
    }
}

static void lf_dif_pass(fr *seg, unsigned s, unsigned m, size_t b, size_t cols,
                        const ntt_roots *rt, int inv, void *scratch)
{
    if (cols % 8) {
        NTT_IFMA_FALLBACK.dif_pass(seg, s, m, b, cols, rt, inv, scratch);
        return;
    }
    pthread_once(&lft_once, lf_tables_build);
    lf_pass p;
    lf_pass_gather(&p, scratch, seg, s, m, b, cols);
    for (unsigned u = 0; u < m; u++) {
        const size_t hr = p.R >> (u + 1);
        lf_pass_twiddles(&p, s, u, b, rt, inv);
        lf_dif_stage(p.L, p.R / 2 * p.cq, hr * p.cq, p.TW, lf_dif_kind(m - 1 - u));
    }
    static const ntt_fin none = {NTT_FIN_NONE, {{0}}};
    lf_pass_scatter(&p, seg, b, &none, 0);
}

static void lf_dit_pass(fr *seg, unsigned s, unsigned m, size_t b, size_t cols,
                        const ntt_roots *rt, int inv, void *scratch, const ntt_fin *fin)
{
    if (cols % 8) {
        NTT_IFMA_FALLBACK.dit_pass(seg, s, m, b, cols, rt, inv, scratch, fin);
        return;
    }
    pthread_once(&lft_once, lf_tables_build);
    lf_pass p;
    lf_pass_gather(&p, scratch, seg, s, m, b, cols);
    for (unsigned u = m; u-- > 0;) {
        const size_t hr = p.R >> (u + 1);
        lf_pass_twiddles(&p, s, u, b, rt, inv);
        lf_dit_stage(p.L, p.R / 2 * p.cq, hr * p.cq, p.TW, lf_dit_reduces(u));
    }
    lf_pass_scatter(&p, seg, b, fin, 1);
}

/* a[i] = a[i]·hi·lo[i], fully reduced: f = lo·16hi (< 2r) reduced, then a·16f. */
static void lf_scale(fr *a, size_t n, const fr *hi, const fr *lo)
{
    if (n % 8) {
        NTT_IFMA_FALLBACK.scale(a, n, hi, lo);
        return;
    }
    fr8v h, f, x;
    lf_broadcast16(&h, hi);
    for (size_t i = 0; i < n; i += 8) {
        lf_load(&f, lo + i, 1);
        lf_mul(&f, &f, &h, 1);
        fr8v_reduce(&f, &f);
        fr8v_shl(&f, &f, 4);
        lf_load(&x, a + i, 1);
        lf_mul(&x, &x, &f, 1);
        fr8v_reduce(&x, &x);
        lf_store(a + i, 1, &x);
    }
}

const ntt_kernels NTT_IFMA_SET = {
    .name = NTT_IFMA_NAME,
    .dif_block = lf_dif_block,
    .dit_block = lf_dit_block,
    .dif_pass = lf_dif_pass,
    .dit_pass = lf_dit_pass,
    .scale = lf_scale,
};
