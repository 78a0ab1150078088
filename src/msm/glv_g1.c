/* G1 MSMs through the GLV endomorphism: every full-width scalar k splits as k = d0 + d1·x² with halves
 * below 2^128, and x²·P = −σ(P) = (βx, −y) for P in G1 (msm.h requires bases in G1). The MSM of n points
 * with 255-bit scalars becomes one of 2n points with 129-bit scalars: as many bucket additions, but half
 * the windows, so half the bucket reductions — and those, not the additions, are what the IFMA batch
 * kernel leaves expensive. */
#include <stdlib.h>
#include <string.h>
#include "ec/ec.h"
#include "ec/ec_consts.h"
#include "msm/msm_internal.h"
#include "util/bigmem.h"
#include "util/parallel.h"

typedef struct {
    const cuzk_g1_affine_t *bases;
    const cuzk_scalar_t *scalars;
    const msm_split *sp;
    cuzk_g1_affine_t *b2; /* P_i, then −σ(P_i) */
    cuzk_scalar_t *s2;    /* d0_i, then d1_i */
} glv_ctx;

static void glv_chunk(void *p, size_t begin, size_t end)
{
    glv_ctx *c = p;
    size_t no = c->sp->n_others;
    for (size_t i = begin; i < end; i++) {
        const g1_aff *pt = &c->bases[c->sp->bidx ? c->sp->bidx[i] : i];
        uint64_t d0[2], d1[2];
        g1_glv_split(d0, d1, &c->scalars[c->sp->sidx ? c->sp->sidx[i] : i]);
        c->b2[i] = *pt;
        g1_aff *q = &c->b2[no + i]; /* (0, 0) stays (0, 0): infinity */
        fp_mul(&q->x, &EC_G1_BETA, &pt->x);
        fp_neg(&q->y, &pt->y);
        c->s2[i] = (cuzk_scalar_t){{d0[0], d0[1], 0, 0}};
        c->s2[no + i] = (cuzk_scalar_t){{d1[0], d1[1], 0, 0}};
    }
}

cuzk_status msm_g1_run_glv(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                           const cuzk_scalar_t *scalars, const msm_split *sp, int threads, unsigned window)
{
    size_t no = sp->n_others;
    glv_ctx c = {.bases = bases, .scalars = scalars, .sp = sp};
    c.b2 = cuzk_big_malloc(2 * no * sizeof *c.b2);
    c.s2 = cuzk_big_malloc(2 * no * sizeof *c.s2);
    cuzk_status st = CUZK_ERR_NO_MEMORY;
    if (c.b2 && c.s2) {
        cuzk_parallel_for(threads, no, 4096, glv_chunk, &c);
        msm_split halves = {.n_others = 2 * no}; /* identity maps */
        st = msm_g1_run(out, c.b2, c.s2, &halves, threads, window, MSM_BITS_GLV);
        if (st == CUZK_OK && sp->n_ones > 0) {
            msm_split ones = {.ones = sp->ones, .n_ones = sp->n_ones};
            g1_jac sum;
            st = msm_g1_run(&sum, bases, scalars, &ones, threads, window, MSM_BITS_FULL);
            g1_jac_add(out, out, &sum);
        }
    }
    if (c.s2)
        explicit_bzero(c.s2, 2 * no * sizeof *c.s2); /* the halves say as much as the scalars */
    free(c.b2);
    free(c.s2);
    return st;
}
