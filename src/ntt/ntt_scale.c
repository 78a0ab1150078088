/* Coset scaling a[p] *= c·g^idx(p), with idx(p) = p (natural order) or the bit reversal of p.
 * Writing p = hi·2^kl + lo, the factor splits into hi[·]·lo[·] from two tables of about √n
 * entries each, so no table of n powers is ever built:
 *   natural:      idx = hi·2^kl + lo,                lo[x] = g^x,            hi[y] = c·g^(y·2^kl)
 *   bit-reversed: idx = rev(lo)·2^(k−kl) + rev(hi),  lo[x] = g^(rev(x)·2^kh), hi[y] = c·g^rev(y)
 * (kh = k − kl; rev reverses kl, resp. kh, bits). */
#include <stdlib.h>
#include "ntt/ntt_internal.h"
#include "util/parallel.h"

/* t[i] = c·base^idx(i) for i < 2^bits, idx(i) = i or its bits-bit reversal. */
static void powers(fr *t, unsigned bits, const fr *base, const fr *c, int rev)
{
    const size_t n = (size_t)1 << bits;
    fr x = *c;
    for (size_t i = 0; i < n; i++) {
        t[rev ? ntt_rev((uint32_t)i, bits) : i] = x;
        fr_mul(&x, &x, base);
    }
}

cuzk_status ntt_scale_init(ntt_scale_tabs *st, unsigned k, const fr *g, const fr *c, int bitrev)
{
    st->k = k;
    st->kl = (k + 1) / 2;
    const unsigned kh = k - st->kl;
    st->lo = malloc(((size_t)1 << st->kl) * sizeof(fr));
    st->hi = malloc(((size_t)1 << kh) * sizeof(fr));
    if (!st->lo || !st->hi) {
        ntt_scale_free(st);
        return CUZK_ERR_NO_MEMORY;
    }
    fr step = *g; /* g^(2^kl) (natural) or g^(2^kh) (bit-reversed) */
    for (unsigned i = 0; i < (bitrev ? kh : st->kl); i++)
        fr_sqr(&step, &step);
    if (bitrev) {
        powers(st->lo, st->kl, &step, &FR_ONE, 1);
        powers(st->hi, kh, g, c, 1);
    } else {
        powers(st->lo, st->kl, g, &FR_ONE, 0);
        powers(st->hi, kh, &step, c, 0);
    }
    return CUZK_OK;
}

void ntt_scale_free(ntt_scale_tabs *st)
{
    free(st->lo);
    free(st->hi);
    st->lo = st->hi = NULL;
}

typedef struct {
    const ntt_kernels *kn;
    const ntt_scale_tabs *st;
    fr *a;
} scale_ctx;

static void scale_rows(void *arg, size_t begin, size_t end)
{
    const scale_ctx *c = arg;
    const size_t L = (size_t)1 << c->st->kl;
    for (size_t y = begin; y < end; y++)
        c->kn->scale(c->a + y * L, L, &c->st->hi[y], c->st->lo);
}

void ntt_scale_apply(const ntt_kernels *kn, const ntt_scale_tabs *st, fr *a, int threads)
{
    scale_ctx c = {kn, st, a};
    const size_t rows = (size_t)1 << (st->k - st->kl);
    /* about 2^13 elements per work item */
    size_t grain = ((size_t)1 << 13) >> st->kl;
    cuzk_parallel_for(threads, rows, grain ? grain : 1, scale_rows, &c);
}
