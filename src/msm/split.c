/* The scan in front of every MSM: drops scalars equal to 0 (and those a density bitmap excludes),
 * lists the scalars equal to 1 (summed directly, no Pippenger) and the rest, and maps each scalar
 * to its base (bellperson's density semantics). Two parallel passes: count, then fill in place. */
#include <stdlib.h>
#include <string.h>
#include "msm/digits.h"
#include "msm/msm_internal.h"
#include "util/parallel.h"
#include "util/bigmem.h"

typedef struct {
    size_t ones, others, dense;   /* scalars equal to 1, other non-zero, participating (bits set) */
    bool bad;                     /* a participating scalar >= r */
} chunk_count;

typedef struct {
    const cuzk_scalar_t *scalars;
    size_t n;
    const uint64_t *density;
    size_t chunk;                 /* scalars per chunk, a multiple of 64 */
    chunk_count *cnt;
    /* fill pass */
    uint32_t *ones, *sidx, *bidx;
    size_t *ones_at, *others_at, *base_at;
} split_ctx;

static inline bool dense_bit(const uint64_t *density, size_t i)
{
    return !density || (density[i >> 6] >> (i & 63)) & 1;
}

static void count_chunk(void *p, int tid, int nthreads)
{
    (void)nthreads;
    split_ctx *c = p;
    size_t a = (size_t)tid * c->chunk, b = a + c->chunk;
    if (b > c->n)
        b = c->n;
    chunk_count k = {0};
    for (size_t i = a; i < b; i++) {
        if (!dense_bit(c->density, i))
            continue;
        const cuzk_scalar_t *s = &c->scalars[i];
        k.dense++;
        if (msm_scalar_is_zero(s))
            continue;
        if (msm_scalar_is_one(s))
            k.ones++;
        else if (msm_scalar_in_range(s))
            k.others++;
        else
            k.bad = true;
    }
    if (a < b)
        c->cnt[tid] = k;
}

static void fill_chunk(void *p, int tid, int nthreads)
{
    (void)nthreads;
    split_ctx *c = p;
    size_t a = (size_t)tid * c->chunk, b = a + c->chunk;
    if (b > c->n)
        b = c->n;
    size_t o1 = c->ones_at[tid], oo = c->others_at[tid], base = c->base_at[tid];
    for (size_t i = a; i < b; i++) {
        if (!dense_bit(c->density, i))
            continue;
        const cuzk_scalar_t *s = &c->scalars[i];
        size_t bi = c->density ? base++ : i;
        if (msm_scalar_is_zero(s))
            continue;
        if (msm_scalar_is_one(s)) {
            c->ones[o1++] = (uint32_t)bi;
        } else {
            if (c->sidx)
                c->sidx[oo] = (uint32_t)i;
            if (c->bidx && c->bidx != c->sidx)
                c->bidx[oo] = (uint32_t)bi;
            oo++;
        }
    }
}

void msm_split_free(msm_split *sp)
{
    free(sp->mem);
    memset(sp, 0, sizeof *sp);
}

cuzk_status msm_split_scalars(msm_split *sp, const cuzk_scalar_t *scalars, size_t n_scalars,
                              const uint64_t *density, size_t n_bases, int threads)
{
    memset(sp, 0, sizeof *sp);
    if (n_scalars == 0)
        return CUZK_OK;
    if (threads < 1)
        threads = 1;
    /* Small inputs are not worth a thread each. */
    size_t chunk = (n_scalars + (size_t)threads - 1) / (size_t)threads;
    if (chunk < 4096)
        chunk = 4096;
    chunk = (chunk + 63) & ~(size_t)63;
    int nch = (int)((n_scalars + chunk - 1) / chunk);

    split_ctx c = {.scalars = scalars, .n = n_scalars, .density = density, .chunk = chunk};
    c.cnt = calloc((size_t)nch, sizeof *c.cnt);
    size_t *at = calloc(3 * (size_t)nch, sizeof *at);
    if (!c.cnt || !at) {
        free(c.cnt);
        free(at);
        return CUZK_ERR_NO_MEMORY;
    }
    cuzk_parallel_run(nch, count_chunk, &c);

    cuzk_status st = CUZK_OK;
    size_t n1 = 0, no = 0, nd = 0;
    c.ones_at = at, c.others_at = at + nch, c.base_at = at + 2 * nch;
    for (int t = 0; t < nch; t++) {
        if (c.cnt[t].bad)
            st = CUZK_ERR_NOT_CANONICAL;
        c.ones_at[t] = n1, c.others_at[t] = no, c.base_at[t] = nd;
        n1 += c.cnt[t].ones, no += c.cnt[t].others, nd += c.cnt[t].dense;
    }
    if (st == CUZK_OK && density && nd > n_bases)
        st = CUZK_ERR_BAD_LENGTH;
    if (st != CUZK_OK)
        goto done;

    sp->n_ones = n1;
    sp->n_others = no;
    bool need_others = density || no != n_scalars;   /* else the identity map */
    size_t words = n1 + (need_others ? no : 0) * (density ? 2 : 1);
    if (words) {
        sp->mem = cuzk_big_malloc(words * sizeof(uint32_t));
        if (!sp->mem) {
            st = CUZK_ERR_NO_MEMORY;
            goto done;
        }
        uint32_t *m = sp->mem;
        sp->ones = m;
        if (need_others) {
            sp->sidx = m + n1;
            sp->bidx = density ? m + n1 + no : sp->sidx;
        }
        c.ones = sp->ones, c.sidx = sp->sidx, c.bidx = sp->bidx;
        cuzk_parallel_run(nch, fill_chunk, &c);
    }
done:
    if (st != CUZK_OK)
        msm_split_free(sp);
    free(c.cnt);
    free(at);
    return st;
}
