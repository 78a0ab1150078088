/* Signed-digit recoding of MSM scalars, one window at a time and in O(1) per (scalar, window), so
 * that threads can take windows in any order. A scalar s > (r−1)/2 is replaced by r − s with the
 * point negated, so every scalar is < 2^254 and ⌈255/c⌉ windows of c bits suffice (no carry out). */
#ifndef CUZK_MSM_DIGITS_H
#define CUZK_MSM_DIGITS_H
#include <stdbool.h>
#include <stdint.h>
#include "cuzk/field.h"
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* r, the group order, and (r − 1)/2, little-endian limbs. */
static const uint64_t MSM_R[4] = {0xffffffff00000001u, 0x53bda402fffe5bfeu, 0x3339d80809a1d805u,
                                  0x73eda753299d7d48u};
static const uint64_t MSM_R_HALF[4] = {0x7fffffff80000000u, 0xa9ded2017fff2dffu,
                                       0x199cec0404d0ec02u, 0x39f6d3a994cebea4u};

/* Windows needed for c-bit signed digits of a scalar < 2^254: the top window then holds at most
 * c − 1 bits, so its digit plus the incoming carry stays <= 2^(c−1). */
static inline unsigned msm_windows(unsigned c)
{
    return (255 + c - 1) / c;
}

/* The same for scalars below 2^(bits − 1) (bits <= 255), e.g. 129 for the halves of a GLV split. */
static inline unsigned msm_windows_bits(unsigned c, unsigned bits)
{
    return (bits + c - 1) / c;
}

/* a − b − borrow_in over one limb; returns the borrow out. x86-64 gets sbb (GCC turns unsigned
 * __int128 borrow chains into slow code). */
static inline uint64_t msm_sbb(uint64_t *r, uint64_t a, uint64_t b, uint64_t borrow)
{
#if defined(__x86_64__)
    unsigned long long o;
    uint64_t c = _subborrow_u64((unsigned char)borrow, a, b, &o);
    *r = o;
    return c;
#else
    unsigned __int128 d = (unsigned __int128)a - b - borrow;
    *r = (uint64_t)d;
    return (uint64_t)(d >> 64) & 1;
#endif
}

/* A scalar's windows in a balanced split: the lowest `wide` windows have c + 1 bits, the others c.
 * With c = bits / nwin and wide = bits mod nwin the widths sum to exactly `bits`: nwin windows, none
 * narrower than c. The plans take nwin = ⌈bits/w⌉ for a widest window w: w-bit windows throughout
 * would be as many, with a narrow top window (few buckets, so its adds conflict within a batch) and up
 * to twice the buckets in the others. The wide windows come first so that their tasks, the heavier
 * ones, are taken first. */
static inline unsigned msm_window_width(unsigned c, unsigned wide, unsigned w)
{
    return c + (w < wide);
}

static inline unsigned msm_window_offset(unsigned c, unsigned wide, unsigned w)
{
    return c * w + (w < wide ? w : wide);
}

/* Per-window constants: the digit of window w is its bits [off, off + width) of s plus a carry, and
 * the carry is 1 exactly when (s mod 2^off) > H_w, where H_w has the top bit of every lower window set
 * (H_w is the largest value the lower signed digits can sum to). */
typedef struct {
    unsigned c;       /* this window's bits */
    unsigned idx, sh; /* the window starts at bit sh of limb idx (idx = 4: past the scalar) */
    uint64_t h[4];    /* H_w */
    uint64_t low[4];  /* masks selecting the bits below the window */
} msm_window;

/* Window w of the split (c, wide) above; wide = 0 gives windows of c bits each. */
static inline void msm_window_init(msm_window *win, unsigned c, unsigned wide, unsigned w)
{
    unsigned off = msm_window_offset(c, wide, w);
    win->c = msm_window_width(c, wide, w);
    win->idx = off >> 6 < 4 ? off >> 6 : 4;
    win->sh = off >> 6 < 4 ? off & 63 : 0;
    for (unsigned k = 0; k < 4; k++) {
        win->h[k] = 0;
        win->low[k] = k < win->idx ? ~(uint64_t)0
                      : k == win->idx ? ((uint64_t)1 << win->sh) - 1
                                      : 0;
    }
    for (unsigned j = 0; j < w; j++) {
        unsigned bit = msm_window_offset(c, wide, j) + msm_window_width(c, wide, j) - 1;
        if (bit < 256)
            win->h[bit >> 6] |= (uint64_t)1 << (bit & 63);
    }
}

/* t = s or r − s, whichever is <= (r−1)/2; returns whether it negated. Requires s < r. Branch-free:
 * the choice is a coin toss for random scalars. */
static inline bool msm_scalar_fold(uint64_t t[4], const cuzk_scalar_t *s)
{
    uint64_t neg[4], junk, borrow = 0, gt = 0;
    for (unsigned k = 0; k < 4; k++)
        borrow = msm_sbb(&neg[k], MSM_R[k], s->l[k], borrow);
    for (unsigned k = 0; k < 4; k++)   /* gt = s > (r−1)/2, by the borrow of (r−1)/2 − s */
        gt = msm_sbb(&junk, MSM_R_HALF[k], s->l[k], gt);
    uint64_t m = 0 - gt;
    for (unsigned k = 0; k < 4; k++)
        t[k] = (neg[k] & m) | (s->l[k] & ~m);
    return gt != 0;
}

/* Signed digit of the folded scalar t in window win: in [−(2^(c−1) − 1), 2^(c−1)]. */
static inline int32_t msm_digit(const uint64_t t[4], const msm_window *win)
{
    unsigned c = win->c, idx = win->idx, sh = win->sh;
    uint64_t raw = 0;
    if (idx < 4) {
        raw = t[idx] >> sh;
        if (sh + c > 64 && idx + 1 < 4)
            raw |= t[idx + 1] << (64 - sh);
        raw &= ((uint64_t)1 << c) - 1;
    }
    uint64_t junk, borrow = 0;   /* carry in = (t mod 2^off) > H_w */
    for (unsigned k = 0; k < 4; k++)
        borrow = msm_sbb(&junk, win->h[k], t[k] & win->low[k], borrow);
    int32_t d = (int32_t)raw + (int32_t)borrow;
    if (d > (int32_t)1 << (c - 1))
        d -= (int32_t)1 << c;
    return d;
}

/* Scalar classes seen by the 0/1 fast path. */
static inline bool msm_scalar_is_zero(const cuzk_scalar_t *s)
{
    return (s->l[0] | s->l[1] | s->l[2] | s->l[3]) == 0;
}

static inline bool msm_scalar_is_one(const cuzk_scalar_t *s)
{
    return ((s->l[0] ^ 1) | s->l[1] | s->l[2] | s->l[3]) == 0;
}

/* s < r */
static inline bool msm_scalar_in_range(const cuzk_scalar_t *s)
{
    uint64_t junk, borrow = 0;
    for (unsigned k = 0; k < 4; k++)
        borrow = msm_sbb(&junk, s->l[k], MSM_R[k], borrow);
    return borrow != 0;
}

#endif
