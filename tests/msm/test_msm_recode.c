/* The block recodings of src/msm/recode.h (scalar, and in lanes) against msm_scalar_fold and msm_digit
 * of digits.h one scalar at a time (those are recomposed with GMP in test_msm_parts): every window of
 * every width, random scalars with the fold's and the carry's edge cases mixed in, contiguous and
 * through an index array, block lengths that end mid-row; the emulated lanes everywhere, the AVX-512
 * build where the CPU runs it. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/msm.h"
#include "msm/digits.h"
#include "msm/recode.h"
#include "test_util.h"

enum { N = 1003 };

/* Scalars whose fold or carries sit on a boundary: 0, 1, r − 1, (r − 1)/2, (r + 1)/2, 2^k and
 * 2^k − 1, and a word of ones under a zero top. */
static void edge_scalar(cuzk_scalar_t *k, unsigned which)
{
    memset(k, 0, sizeof *k);
    unsigned bit = which % 254;
    switch (which % 7) {
    case 0: break;
    case 1: k->l[0] = 1; break;
    case 2: memcpy(k->l, MSM_R, sizeof k->l), k->l[0] -= 1; break;
    case 3: memcpy(k->l, MSM_R_HALF, sizeof k->l); break;
    case 4: memcpy(k->l, MSM_R_HALF, sizeof k->l), k->l[0] += 1; break;
    case 5: k->l[bit / 64] = (uint64_t)1 << (bit % 64); break;
    default:
        for (unsigned b = 0; b < bit; b++)
            k->l[b / 64] |= (uint64_t)1 << (b % 64);
        break;
    }
}

static uint32_t scalar_code(const cuzk_scalar_t *s, const msm_window *win)
{
    uint64_t t[4];
    uint32_t neg = msm_scalar_fold(t, s);
    int32_t d = msm_digit(t, win);
    if (d == 0)
        return 0;
    uint32_t mag = (uint32_t)(d < 0 ? -d : d);
    return (mag << 1) | (neg ^ (uint32_t)(d < 0));
}

/* Window w of the split (c, wide), in blocks at an odd offset and of lengths that end mid-row, as
 * run_window's last block does, contiguous and through the index array. */
static void t_window(msm_recode_fn *fn, const char *name, const cuzk_scalar_t *s, const uint32_t *perm,
                     uint32_t *got, unsigned c, unsigned wide, unsigned w, int *bad)
{
    msm_window win;
    msm_window_init(&win, c, wide, w);
    size_t lo = 3, n = N - 3 - (c % 8);
    for (int indexed = 0; indexed < 2; indexed++) {
        const uint32_t *sidx = indexed ? perm : NULL;
        memset(got, 0xa5, N * sizeof *got);
        fn(got, s, sidx, lo, n, &win);
        for (size_t j = 0; j < n && *bad < 5; j++) {
            uint32_t want = scalar_code(&s[sidx ? sidx[lo + j] : lo + j], &win);
            if (got[j] != want) {
                ++*bad;
                CHECK_MSG(0, "%s c=%u wide=%u w=%u j=%zu indexed=%d: %#x, want %#x", name, c, wide, w, j,
                          indexed, got[j], want);
            }
        }
        CHECK_MSG(got[n] == 0xa5a5a5a5u, "%s wrote past its block (c=%u wide=%u w=%u)", name, c, wide, w);
    }
}

/* Every window of every width c, then of the balanced splits of 255 bits into nw windows (the lowest
 * 255 mod nw of 255 / nw + 1 bits, the others 255 / nw), as the plans make them. */
static void t_recode(msm_recode_fn *fn, const char *name, const cuzk_scalar_t *s, const uint32_t *perm)
{
    uint32_t *got = malloc(N * sizeof *got);
    int bad = 0;
    for (unsigned c = 1; c <= CUZK_MSM_MAX_WINDOW; c++)
        for (unsigned w = 0; w < msm_windows(c); w++)
            t_window(fn, name, s, perm, got, c, 0, w, &bad);
    for (unsigned nw = msm_windows(CUZK_MSM_MAX_WINDOW); nw <= 40; nw++)
        for (unsigned w = 0; w < nw; w++)
            t_window(fn, name, s, perm, got, 255 / nw, 255 % nw, w, &bad);
    CHECK_MSG(bad == 0, "%s: the lane codes equal the scalar ones", name);
    free(got);
}

int main(void)
{
    test_init("test_msm_recode");
    cuzk_scalar_t *s = malloc(N * sizeof *s);
    uint32_t *perm = malloc(N * sizeof *perm);
    for (size_t i = 0; i < N; i++) {
        if (i % 3 == 0)
            edge_scalar(&s[i], (unsigned)(i / 3));
        else
            test_rand_scalar(&s[i]);
        perm[i] = (uint32_t)i;
    }
    for (size_t i = N - 1; i > 0; i--) {
        size_t k = test_rand_below(i + 1);
        uint32_t t = perm[i];
        perm[i] = perm[k];
        perm[k] = t;
    }
    t_recode(msm_recode_scalar, "scalar", s, perm);
    t_recode(msm_recode_emulated, "emulated", s, perm);
    msm_recode_fn *real = msm_recode_real();
    if (real)
        t_recode(real, "avx512", s, perm);
    else
        printf("no AVX-512 IFMA here: the real build is not run\n");
    free(s);
    free(perm);
    return test_finish();
}
