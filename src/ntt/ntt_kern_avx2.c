/* The NTT kernels on AVX2: four butterflies at a time with the vector arithmetic of ntt_avx2.h.
 * An in-cache block, or the column block of a pass, is converted once into 29-bit limbs in the
 * scratch buffer (v9 groups of four consecutive elements), runs all its stages there, and is
 * converted back; only twiddles and the radix-4 ends are converted on the way. Blocks below 16
 * elements and column blocks narrower than 4 go to the scalar ADX kernels. */
#include "ntt/ntt_internal.h"
#if defined(__x86_64__)
#include <pthread.h>
#include "ntt/ntt_avx2.h"

#define AVX2_FN __attribute__((target("avx2")))
#define SMALL_GROUPS (((size_t)1 << NTT_BLOCK_LOG) / 4)

/* Twiddles of the in-cache stages, four per group, limbs packed in 32 bits (144 bytes a group):
 * group g holds small[4g .. 4g + 3] of ntt_consts (g >= 1). */
typedef struct {
    uint32_t l[9][4];
} v9p;

static v9p vsmall[2][SMALL_GROUPS];
static pthread_once_t vsmall_once = PTHREAD_ONCE_INIT;

NTT_AVX2 void v_unpack(v9 *o, const v9p *p)
{
    _Pragma("GCC unroll 9") for (int j = 0; j < 9; j++)
        o->l[j] = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)p->l[j]));
}

NTT_AVX2 void v_pack(v9p *p, const v9 *x)
{
    const vec idx = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    _Pragma("GCC unroll 9") for (int j = 0; j < 9; j++)
        _mm_storeu_si128((__m128i *)p->l[j],
                         _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(x->l[j], idx)));
}

AVX2_FN static void vsmall_build(void)
{
    const ntt_consts *cs = ntt_tables_init();
    for (size_t g = 1; g < SMALL_GROUPS; g++) {
        v9 x;
        v_load(&x, cs->small + 4 * g, 1);
        v_pack(&vsmall[0][g], &x);
        v_load(&x, cs->small_inv + 4 * g, 1);
        v_pack(&vsmall[1][g], &x);
    }
}

NTT_AVX2 void v_fin(v9 *x, const ntt_fin *fin, const v9 *scale)
{
    if (fin->mode == NTT_FIN_SCALE)
        v_mul(x, x, scale);
    if (fin->mode != NTT_FIN_NONE)
        v_reduce(x, x);
}

/* Transposes limb by limb between four groups and four vectors of strided elements. */
NTT_AVX2 void v_transpose_groups(v9 *a, v9 *b, v9 *c, v9 *d)
{
    _Pragma("GCC unroll 9") for (int j = 0; j < 9; j++)
        v_transpose4(&a->l[j], &b->l[j], &c->l[j], &d->l[j]);
}

/* Butterflies on two rows of cnt groups with packed twiddles (see ntt_kern.h). */
NTT_AVX2 void v_dif_bfly(v9 *x, v9 *y, const v9 *w)
{
    v9 s, d;
    v_add(&s, x, y);
    v_sub(&d, x, y);
    *x = s;
    v_mul(y, &d, w);
}

NTT_AVX2 void v_dif_rows(v9 *x, v9 *y, const v9p *tw, size_t cnt)
{
    for (size_t j = 0; j < cnt; j++) {
        v9 w;
        v_unpack(&w, &tw[j]);
        v_dif_bfly(&x[j], &y[j], &w);
    }
}

NTT_AVX2 void v_dit_bfly(v9 *x, v9 *y, const v9 *w)
{
    v9 t, s;
    v_mul(&t, y, w);
    v_add(&s, x, &t);
    v_sub(y, x, &t);
    *x = s;
}

NTT_AVX2 void v_dit_rows(v9 *x, v9 *y, const v9p *tw, size_t cnt)
{
    for (size_t j = 0; j < cnt; j++) {
        v9 w;
        v_unpack(&w, &tw[j]);
        v_dit_bfly(&x[j], &y[j], &w);
    }
}

/* Radix-4 on e[0..3] (lanes: four independent groups of four elements). DIF: twiddles 1, ω_4
 * then 1, 1; DIT: 1, 1 then 1, ω_4. */
NTT_AVX2 void v_radix4_dif(v9 *e0, v9 *e1, v9 *e2, v9 *e3, const v9 *w4)
{
    v9 s0, d0, s1, d1;
    v_add(&s0, e0, e2);
    v_sub(&d0, e0, e2);
    v_add(&s1, e1, e3);
    v_sub(&d1, e1, e3);
    v_mul(&d1, &d1, w4);
    v_add(e0, &s0, &s1);
    v_sub(e1, &s0, &s1);
    v_add(e2, &d0, &d1);
    v_sub(e3, &d0, &d1);
}

NTT_AVX2 void v_radix4_dit(v9 *e0, v9 *e1, v9 *e2, v9 *e3, const v9 *w4)
{
    v9 s0, d0, s1, d1;
    v_add(&s0, e0, e1);
    v_sub(&d0, e0, e1);
    v_add(&s1, e2, e3);
    v_sub(&d1, e2, e3);
    v_mul(&d1, &d1, w4);
    v_add(e0, &s0, &s1);
    v_sub(e2, &s0, &s1);
    v_add(e1, &d0, &d1);
    v_sub(e3, &d0, &d1);
}

AVX2_FN static void vdif_block(fr *a, unsigned k, int inv, const ntt_fin *fin, void *scratch)
{
    if (k < 4) {
        ntt_kernels_adx.dif_block(a, k, inv, fin, scratch);
        return;
    }
    pthread_once(&vsmall_once, vsmall_build);
    const ntt_consts *cs = ntt_tables_init();
    const v9p *tw = vsmall[inv];
    const size_t ng = ((size_t)1 << k) / 4;
    v9 *L = scratch;
    for (size_t g = 0; g < ng; g++)
        v_load(&L[g], a + 4 * g, 1);
    /* stages with half-size h = 4·hg >= 4: whole groups pair up */
    for (size_t hg = ng / 2; hg >= 1; hg /= 2)
        for (size_t blk = 0; blk < ng; blk += 2 * hg)
            v_dif_rows(&L[blk], &L[blk + hg], &tw[hg], hg);
    /* the last two stages inside each group: transpose four groups so that e[u] holds element
     * u of each, then finish and store (lane q of e[u] is element 4q + u of the 16) */
    v9 w4, sc;
    v_broadcast(&w4, &(inv ? cs->small_inv : cs->small)[3]);
    v_broadcast(&sc, &fin->scale);
    for (size_t g = 0; g < ng; g += 4) {
        v9 *e = &L[g];
        v_transpose_groups(&e[0], &e[1], &e[2], &e[3]);
        v_radix4_dif(&e[0], &e[1], &e[2], &e[3], &w4);
        for (int u = 0; u < 4; u++) {
            v_fin(&e[u], fin, &sc);
            v_store(a + 4 * g + (size_t)u, 4, &e[u]);
        }
    }
}

AVX2_FN static void vdit_block(fr *a, unsigned k, int inv, const ntt_fin *fin, void *scratch)
{
    if (k < 4) {
        ntt_kernels_adx.dit_block(a, k, inv, fin, scratch);
        return;
    }
    pthread_once(&vsmall_once, vsmall_build);
    const ntt_consts *cs = ntt_tables_init();
    const v9p *tw = vsmall[inv];
    const size_t ng = ((size_t)1 << k) / 4;
    v9 *L = scratch;
    v9 w4, sc;
    v_broadcast(&w4, &(inv ? cs->small_inv : cs->small)[3]);
    v_broadcast(&sc, &fin->scale);
    for (size_t g = 0; g < ng; g += 4) {
        v9 *e = &L[g];
        for (int u = 0; u < 4; u++)
            v_load(&e[u], a + 4 * g + (size_t)u, 4);
        v_radix4_dit(&e[0], &e[1], &e[2], &e[3], &w4);
        v_transpose_groups(&e[0], &e[1], &e[2], &e[3]);
    }
    for (size_t hg = 1; hg < ng; hg *= 2)
        for (size_t blk = 0; blk < ng; blk += 2 * hg)
            v_dit_rows(&L[blk], &L[blk + hg], &tw[hg], hg);
    for (size_t g = 0; g < ng; g++) {
        v_fin(&L[g], fin, &sc);
        v_store(a + 4 * g, 1, &L[g]);
    }
}

/* A pass on the column block [b, b + cols) (see ntt_pass_stage in ntt_kern.h for the twiddles):
 * the block in limbs, rows of cq = cols/4 groups, then one stage's twiddles, packed, then the
 * stage's column roots (at most 2^(NTT_SCRATCH_LOG−1) columns, when the pass has two rows). */
_Static_assert(sizeof(v9) * (((size_t)1 << NTT_SCRATCH_LOG) / 4) +
                       sizeof(v9p) * (((size_t)1 << NTT_SCRATCH_LOG) / 8) +
                       sizeof(fr) * (((size_t)1 << NTT_SCRATCH_LOG) / 2) <=
                   NTT_SCRATCH_BYTES,
               "NTT_SCRATCH_BYTES too small for the AVX2 passes");
typedef struct {
    v9 *L;
    v9p *TW; /* packed: the block and its twiddles stay within L2 */
    size_t S, R, cq;
} vpass;

AVX2_FN static void vpass_gather(vpass *p, void *scratch, const fr *seg, unsigned s, unsigned m,
                                 size_t b, size_t cols)
{
    p->S = (size_t)1 << (s - m);
    p->R = (size_t)1 << m;
    p->cq = cols / 4;
    p->L = scratch;
    p->TW = (v9p *)(p->L + p->R * p->cq);
    for (size_t t = 0; t < p->R; t++)
        for (size_t c = 0; c < cols; c += 2)
            __builtin_prefetch(seg + t * p->S + b + c);
    for (size_t t = 0; t < p->R; t++)
        for (size_t c = 0; c < p->cq; c++)
            v_load(&p->L[t * p->cq + c], seg + t * p->S + b + 4 * c, 1);
}

/* The twiddles of stage u, packed: group (tt, c) holds those of columns 4c .. 4c + 3 of the
 * pair at offset tt, ω_{2hr}^±tt · v[4c ..] with the stage's column roots v (see ntt_pass_stage
 * in ntt_kern.h), computed in fr form after the packed twiddles of stage 0. */
AVX2_FN static void vpass_twiddles(const vpass *p, unsigned s, unsigned u, size_t b,
                                   const ntt_roots *rt, int inv)
{
    const ntt_consts *cs = ntt_tables_init();
    const size_t hr = p->R >> (u + 1), cols = 4 * p->cq;
    const fr *w = (inv ? cs->small_inv : cs->small) + hr;
    fr *v = (fr *)(p->TW + p->R / 2 * p->cq);
    ntt_col_roots(v, rt, s - u, b, cols, inv);
    for (size_t tt = 0; tt < hr; tt++)
        for (size_t c = 0; c < p->cq; c++) {
            fr t[4];
            const fr *src = v + 4 * c;
            if (tt > 0) {
                for (int l = 0; l < 4; l++)
                    fr_mul(&t[l], &w[tt], &v[4 * c + (size_t)l]);
                src = t;
            }
            v9 x;
            v_load(&x, src, 1);
            v_pack(&p->TW[tt * p->cq + c], &x);
        }
}

AVX2_FN static void vdif_pass(fr *seg, unsigned s, unsigned m, size_t b, size_t cols,
                              const ntt_roots *rt, int inv, void *scratch)
{
    if (cols % 4) {
        ntt_kernels_adx.dif_pass(seg, s, m, b, cols, rt, inv, scratch);
        return;
    }
    vpass p;
    vpass_gather(&p, scratch, seg, s, m, b, cols);
    for (unsigned u = 0; u < m; u++) {
        const size_t hr = p.R >> (u + 1);
        vpass_twiddles(&p, s, u, b, rt, inv);
        for (size_t g = 0; g < p.R; g += 2 * hr)
            for (size_t tt = 0; tt < hr; tt++) {
                v9 *x = p.L + (g + tt) * p.cq;
                v_dif_rows(x, x + hr * p.cq, p.TW + tt * p.cq, p.cq);
            }
    }
    for (size_t t = 0; t < p.R; t++)
        for (size_t c = 0; c < p.cq; c++)
            v_store(seg + t * p.S + b + 4 * c, 1, &p.L[t * p.cq + c]);
}

AVX2_FN static void vdit_pass(fr *seg, unsigned s, unsigned m, size_t b, size_t cols,
                              const ntt_roots *rt, int inv, void *scratch, const ntt_fin *fin)
{
    if (cols % 4) {
        ntt_kernels_adx.dit_pass(seg, s, m, b, cols, rt, inv, scratch, fin);
        return;
    }
    vpass p;
    vpass_gather(&p, scratch, seg, s, m, b, cols);
    for (unsigned u = m; u-- > 0;) {
        const size_t hr = p.R >> (u + 1);
        vpass_twiddles(&p, s, u, b, rt, inv);
        for (size_t g = 0; g < p.R; g += 2 * hr)
            for (size_t tt = 0; tt < hr; tt++) {
                v9 *x = p.L + (g + tt) * p.cq;
                v_dit_rows(x, x + hr * p.cq, p.TW + tt * p.cq, p.cq);
            }
    }
    v9 sc;
    v_broadcast(&sc, &fin->scale);
    for (size_t t = 0; t < p.R; t++)
        for (size_t c = 0; c < p.cq; c++) {
            v9 *x = &p.L[t * p.cq + c];
            v_fin(x, fin, &sc);
            v_store(seg + t * p.S + b + 4 * c, 1, x);
        }
}

AVX2_FN static void vscale(fr *a, size_t n, const fr *hi, const fr *lo)
{
    if (n % 4) {
        ntt_kernels_adx.scale(a, n, hi, lo);
        return;
    }
    v9 h, f, x;
    v_broadcast(&h, hi);
    for (size_t i = 0; i < n; i += 4) {
        v_load(&f, lo + i, 1);
        v_mul(&f, &f, &h);
        v_reduce(&f, &f);
        v_load(&x, a + i, 1);
        v_mul(&x, &x, &f);
        v_reduce(&x, &x);
        v_store(a + i, 1, &x);
    }
}

const ntt_kernels ntt_kernels_avx2 = {
    .name = "avx2",
    .dif_block = vdif_block,
    .dit_block = vdit_block,
    .dif_pass = vdif_pass,
    .dit_pass = vdit_pass,
    .scale = vscale,
};
#else
typedef int ntt_kern_avx2_unused; /* ISO C forbids an empty translation unit */
#endif
