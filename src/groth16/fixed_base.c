/* Fixed-base multiplication for G1 and G2 with signed-digit window tables (see fixed_base.h). */
#include <stdlib.h>
#include "groth16/fixed_base.h"
#include "groth16/groth16_internal.h"
#include "util/parallel.h"

/* Products per batch: the lane kernels' one inversion per window is shared by this many additions, and
 * a thread's scratch stays small (G1 12-bit windows, one core: 512 2.25–2.7 µs per product, 2048 2.3,
 * 8192 2.35). */
#define FB_BATCH 2048

struct g16_fb_table {
    bool g2;
    unsigned w, nwin; /* window bits; windows: w·nwin >= 256 */
    size_t per;       /* multiples per window: 2^(w−1) */
    void *pts;        /* g1_aff or g2_aff [nwin·per]: pts[k·per + d − 1] = d·2^(w·k)·G */
    const ec_ifma_ops *lanes;
};

/* Signed digits of a canonical scalar s < r < 2^255: d_k in (−2^(w−1), 2^(w−1)], Σ d_k·2^(w·k) = s. The
 * top window holds bit 255, which is 0, so its digit never carries out. */
static void fb_recode(int32_t *d, const cuzk_scalar_t *s, unsigned w, unsigned nwin)
{
    const uint32_t full = 1u << w, half = full >> 1;
    uint32_t carry = 0;
    for (unsigned k = 0; k < nwin; k++) {
        unsigned pos = k * w, li = pos / 64, sh = pos % 64;
        uint64_t bits = 0;
        if (pos < 256) {
            bits = s->l[li] >> sh;
            if (sh + w > 64 && li + 1 < 4)
                bits |= s->l[li + 1] << (64 - sh);
        }
        uint32_t raw = (uint32_t)(bits & (full - 1)) + carry;
        carry = raw > half;
        d[k] = carry ? (int32_t)raw - (int32_t)full : (int32_t)raw;
    }
}

#define FB_PREFIX g1
#define FB_AFF g1_aff
#define FB_JAC g1_jac
#define FB_IS_G2 false
#define FB_LANE_ADD g1_batch_add
#define FB_LANE_SCRATCH ec_ifma_g1_batch_add_scratch_bytes
#include "groth16/fixed_base_tmpl.h"
#undef FB_PREFIX
#undef FB_AFF
#undef FB_JAC
#undef FB_IS_G2
#undef FB_LANE_ADD
#undef FB_LANE_SCRATCH

#define FB_PREFIX g2
#define FB_AFF g2_aff
#define FB_JAC g2_jac
#define FB_IS_G2 true
#define FB_LANE_ADD g2_batch_add
#define FB_LANE_SCRATCH ec_ifma_g2_batch_add_scratch_bytes
#include "groth16/fixed_base_tmpl.h"

cuzk_status g16_fb_table_new(g16_fb_table **out, bool g2, unsigned window_bits, int threads)
{
    *out = NULL;
    if (window_bits < 4 || window_bits > 16)
        return CUZK_ERR_INVALID_ARG;
    g16_fb_table *t = calloc(1, sizeof *t);
    if (!t)
        return CUZK_ERR_NO_MEMORY;
    t->g2 = g2;
    t->w = window_bits;
    t->nwin = (256 + window_bits - 1) / window_bits;
    t->per = (size_t)1 << (window_bits - 1);
    t->lanes = ec_lanes();
    t->pts = malloc(t->nwin * t->per * (g2 ? sizeof(g2_aff) : sizeof(g1_aff)));
    if (threads < 1)
        threads = 1;
    if (!t->pts || !(g2 ? g2_build_table(t, threads) : g1_build_table(t, threads))) {
        g16_fb_table_free(t);
        return CUZK_ERR_NO_MEMORY;
    }
    *out = t;
    return CUZK_OK;
}

void g16_fb_table_free(g16_fb_table *t)
{
    if (!t)
        return;
    free(t->pts);
    free(t);
}

void g16_fb_table_set_lanes(g16_fb_table *t, const ec_ifma_ops *lanes) { t->lanes = lanes; }

cuzk_status g16_fb_mul_g1(const g16_fb_table *t, g1_aff *out, const fr *scalars, size_t n, int threads)
{
    return g1_fb_mul(t, out, scalars, n, threads < 1 ? 1 : threads);
}

cuzk_status g16_fb_mul_g2(const g16_fb_table *t, g2_aff *out, const fr *scalars, size_t n, int threads)
{
    return g2_fb_mul(t, out, scalars, n, threads < 1 ? 1 : threads);
}

/* Below this many products the small table's quick build beats the large table's fewer additions. */
#define FB_LARGE_FROM ((size_t)1 << 14)

/* One batch of products with a table made for it and dropped after. */
static cuzk_status fixed_base_once(bool g2, void *out, const fr *scalars, size_t n, int threads)
{
    if (n == 0)
        return CUZK_OK;
    g16_fb_table *t;
    cuzk_status st = g16_fb_table_new(&t, g2, n >= FB_LARGE_FROM ? G16_FB_WINDOW_LARGE : G16_FB_WINDOW_SMALL, threads);
    if (st == CUZK_OK)
        st = g2 ? g16_fb_mul_g2(t, out, scalars, n, threads) : g16_fb_mul_g1(t, out, scalars, n, threads);
    g16_fb_table_free(t);
    return st;
}

cuzk_status g16_fixed_base_g1(g1_aff *out, const fr *scalars, size_t n, int threads)
{
    return fixed_base_once(false, out, scalars, n, threads);
}

cuzk_status g16_fixed_base_g2(g2_aff *out, const fr *scalars, size_t n, int threads)
{
    return fixed_base_once(true, out, scalars, n, threads);
}
