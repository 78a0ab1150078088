/* G1 MSMs through the GLV endomorphism: every full-width scalar k splits as k = d0 + d1·x² with halves
 * below 2^128, and x²·P = −σ(P) = (βx, −y) for P in G1 (msm.h requires bases in G1). The MSM of n points
 * with 255-bit scalars becomes one of 2n points with 129-bit scalars: as many bucket additions, but half
 * the windows, so half the bucket reductions. The split writes the signed digits of both halves for
 * every window at once (2 bytes per point and window) and only the n points σ(P) (as (βx, y), the sign
 * going into the digit): the P themselves are read where they are, and no scalar is read again. */
#include <stdlib.h>
#include <string.h>
#include "ec/ec.h"
#include "ec/ec_consts.h"
#include "msm/digits.h"
#include "msm/msm_internal.h"
#include "util/bigmem.h"
#include "util/parallel.h"

typedef struct {
    const cuzk_g1_affine_t *bases;
    const cuzk_scalar_t *scalars;
    const msm_split *sp;
    unsigned c, wide, nwin; /* the windows (msm_plan) */
    cuzk_g1_affine_t *hi; /* (βx, y) for base i; infinity stays (0, 0) */
    cuzk_g1_affine_t *lo; /* a copy of the P_i when they are not bases[0..n) (else NULL) */
    uint16_t *dig;        /* dig[w·2n + i]: d0's digits for i < n, d1's at n + i */
} glv_ctx;

/* Signed digits (windows of at most 15 bits, digits.h's split of (c, wide)) of v < 2^128 in the
 * msm_predigits encoding, window w at out[w·stride]; `flip` negates them all (−σ(P) is stored as
 * σ(P) = (βx, y)). Windows of 129 bits in all leave no carry out. */
static void glv_digits(uint16_t *out, size_t stride, const uint64_t v[2], unsigned c, unsigned wide,
                       unsigned nwin, unsigned flip)
{
    uint32_t carry = 0;
    for (unsigned w = 0; w < nwin; w++) {
        unsigned width = msm_window_width(c, wide, w), bit = msm_window_offset(c, wide, w);
        unsigned idx = bit >> 6, sh = bit & 63;
        uint32_t half = 1u << (width - 1), mask = (1u << width) - 1;
        uint64_t raw = 0;
        if (idx < 2) {
            raw = v[idx] >> sh;
            if (sh + width > 64 && idx == 0)
                raw |= v[1] << (64 - sh);
        }
        uint32_t d = ((uint32_t)raw & mask) + carry, neg = d > half; /* digit d − 2^width, carry 1 */
        uint32_t mag = neg ? (1u << width) - d : d;
        carry = neg;
        out[(size_t)w * stride] = mag ? (uint16_t)((mag << 1) | (neg ^ flip)) : 0;
    }
}

static void glv_chunk(void *p, size_t begin, size_t end)
{
    glv_ctx *c = p;
    size_t no = c->sp->n_others, stride = 2 * no;
    for (size_t i = begin; i < end; i++) {
        const g1_aff *pt = &c->bases[c->sp->bidx ? c->sp->bidx[i] : i];
        if (c->lo)
            c->lo[i] = *pt;
        g1_aff *q = &c->hi[i];
        if (g1_aff_is_inf(pt)) { /* digits 0: the point is never read */
            memset(q, 0, sizeof *q);
            for (unsigned w = 0; w < c->nwin; w++)
                c->dig[w * stride + i] = c->dig[w * stride + no + i] = 0;
            continue;
        }
        uint64_t d0[2], d1[2];
        g1_glv_split(d0, d1, &c->scalars[c->sp->sidx ? c->sp->sidx[i] : i]);
        fp_mul(&q->x, &EC_G1_BETA, &pt->x);
        q->y = pt->y;
        glv_digits(c->dig + i, stride, d0, c->c, c->wide, c->nwin, 0);
        glv_digits(c->dig + no + i, stride, d1, c->c, c->wide, c->nwin, 1);
    }
}

cuzk_status msm_g1_run_glv(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                           const cuzk_scalar_t *scalars, const msm_split *sp, int threads, unsigned window)
{
    size_t no = sp->n_others;
    if (window > MSM_PRE_MAX_WINDOW) /* a tuning hint; the digits are 16 bits */
        window = MSM_PRE_MAX_WINDOW;
    msm_predigits pre = {.plan = msm_make_plan(MSM_G1, 2 * no, threads, window, MSM_BITS_GLV)};
    if (msm_plan_widest(&pre.plan) > MSM_PRE_MAX_WINDOW)
        pre.plan = msm_make_plan(MSM_G1, 2 * no, threads, MSM_PRE_MAX_WINDOW, MSM_BITS_GLV);
    glv_ctx c = {.bases = bases, .scalars = scalars, .sp = sp, .c = pre.plan.c, .wide = pre.plan.wide,
                 .nwin = pre.plan.nwin};
    /* The P_i are read in place when the others are exactly bases[0..no); else through a copy. */
    bool in_place = !sp->bidx;
    c.hi = cuzk_big_malloc(no * sizeof *c.hi);
    c.dig = cuzk_big_malloc((size_t)c.nwin * 2 * no * sizeof *c.dig);
    if (!in_place)
        c.lo = cuzk_big_malloc(no * sizeof *c.lo);
    cuzk_status st = CUZK_ERR_NO_MEMORY;
    if (c.hi && c.dig && (in_place || c.lo)) {
        cuzk_parallel_for(threads, no, 4096, glv_chunk, &c);
        pre.bases_hi = c.hi;
        pre.n_lo = no;
        pre.digits = c.dig;
        msm_split halves = {.n_others = 2 * no}; /* identity maps */
        st = msm_g1_run(out, in_place ? bases : c.lo, NULL, &halves, threads, window, MSM_BITS_GLV, &pre);
        if (st == CUZK_OK && sp->n_ones > 0) {
            msm_split ones = {.ones = sp->ones, .n_ones = sp->n_ones};
            g1_jac sum;
            st = msm_g1_run(&sum, bases, scalars, &ones, threads, window, MSM_BITS_FULL, NULL);
            g1_jac_add(out, out, &sum);
        }
    }
    if (c.dig) /* the digits say as much as the scalars */
        explicit_bzero(c.dig, (size_t)c.nwin * 2 * no * sizeof *c.dig);
    free(c.hi);
    free(c.dig);
    free(c.lo);
    return st;
}
