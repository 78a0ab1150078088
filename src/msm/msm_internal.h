/* Internal interface of src/msm/: the scalar split of the 0/1 fast path (with density bitmaps), the
 * window / batch planning, and the per-group Pippenger drivers behind the public msm.h calls. */
#ifndef CUZK_MSM_INTERNAL_H
#define CUZK_MSM_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/msm.h"
#include "msm/digits.h"
#include "util/dispatch.h"

/* Bucket flags. */
enum { MSM_B_SET = 1, MSM_B_BATCH = 2, MSM_B_SPILL = 4 };
/* Batch-op flags. */
enum { MSM_OP_NEG = 1, MSM_OP_DBL = 2 };

/* The scalars of one MSM after the scan: those equal to 1 (by base index) and the rest that are
 * not 0 (by scalar and base index). A NULL index array means the identity map. */
typedef struct {
    uint32_t *ones;   /* base indices whose scalar is 1 */
    size_t n_ones;
    uint32_t *sidx;   /* scalar indices of the other non-zero scalars */
    uint32_t *bidx;   /* their base indices (== sidx without a density bitmap) */
    size_t n_others;
    void *mem;        /* owns the arrays */
} msm_split;

/* Scans scalars[0..n_scalars) (only those whose density bit is set, when density is not NULL),
 * rejects out-of-range ones, and fills *sp. With a density bitmap, more set bits than n_bases is
 * CUZK_ERR_BAD_LENGTH. When no scalar is 0 or 1 and there is no bitmap, the index arrays stay NULL. */
cuzk_status msm_split_scalars(msm_split *sp, const cuzk_scalar_t *scalars, size_t n_scalars,
                              const uint64_t *density, size_t n_bases, int threads);
void msm_split_free(msm_split *sp);

/* How one MSM runs: windows, point ranges per window (parts), bucket mode. */
typedef struct {
    unsigned c;       /* window bits: the lowest `wide` windows have c + 1 (digits.h, msm_window_width) */
    unsigned nwin;    /* windows */
    unsigned wide;    /* c·nwin + wide = the scalar's bits: a balanced split */
    unsigned parts;   /* point ranges per window (each a separate task with its own buckets) */
    bool affine;      /* batch-affine buckets; else XYZZ buckets */
    size_t batch;     /* batch capacity (affine mode) */
    size_t queue;     /* conflict-queue capacity */
} msm_plan;

/* The plan's widest window (its lowest ones): the one that sizes the buckets. */
static inline unsigned msm_plan_widest(const msm_plan *p)
{
    return msm_window_width(p->c, p->wide, 0);
}

enum { MSM_G1 = 1, MSM_G2 = 2 };

/* Scalar sizes the plans know: any scalar below r (folded below 2^254 by the digits), and the halves of
 * a GLV split (below 2^128). */
enum { MSM_BITS_FULL = 255, MSM_BITS_GLV = 129 };

/* Plans an MSM of n non-trivial scalars of `bits` (MSM_BITS_*) on `threads` threads: ⌈bits/window⌉
 * windows split evenly (none wider than `window`); window = 0 picks them by the cost model. */
msm_plan msm_make_plan(int group, size_t n, int threads, unsigned window, unsigned bits);

/* Digits recoded ahead of the Pippenger run (the GLV path does it while splitting the scalars):
 * point i < n_lo is bases[i], point i >= n_lo is bases_hi[i − n_lo], and its digit in window w is
 * digits[w·n + i] (n = the split's n_others): (|d| << 1) | (d < 0), 0 for d = 0. The plan is fixed
 * (no window wider than MSM_PRE_MAX_WINDOW, so that a digit fits). */
#define MSM_PRE_MAX_WINDOW 15
typedef struct {
    const void *bases_hi;
    size_t n_lo;
    const uint16_t *digits;
    msm_plan plan;
} msm_predigits;

/* The per-group drivers (pippenger_g1.c, pippenger_g2.c): out = Σ over the split. pre = NULL: the
 * digits come from the scalars; else from pre (the split then has identity maps, no ones, and
 * scalars is not read). */
cuzk_status msm_g1_run(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                       const cuzk_scalar_t *scalars, const msm_split *sp, int threads, unsigned window,
                       unsigned bits, const msm_predigits *pre);
cuzk_status msm_g2_run(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                       const cuzk_scalar_t *scalars, const msm_split *sp, int threads, unsigned window,
                       unsigned bits, const msm_predigits *pre);

/* G1 with the GLV endomorphism (glv_g1.c): the others become 2·n_others points with scalars below
 * 2^128, so Pippenger runs half the windows (half the bucket reductions); the ones are summed as
 * usual. Used for MSM_GLV_MIN..MSM_GLV_MAX others: there the reductions are a large share of the
 * time (measured with IFMA: 2^16 −11%, 2^17 −3%); above it the doubled base array costs more memory
 * traffic than the reductions save (2^18 +3%, 2^20 +25%), below it the split does not pay (2^14 +5%). */
#define MSM_GLV_MIN ((size_t)1 << 15)
#define MSM_GLV_MAX ((size_t)1 << 17)
cuzk_status msm_g1_run_glv(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                           const cuzk_scalar_t *scalars, const msm_split *sp, int threads, unsigned window);

/* One backend's whole MSM: the dispatch table's entry CUZK_ENTRY_MSM. The public calls check their
 * arguments, then run the entry. density NULL: n_bases == n_scalars, every scalar used; threads >= 1;
 * window 0 = automatic. A GPU backend (later) is one more variant with the same shape. */
typedef struct {
    const char *name; /* "cpu" */
    cuzk_status (*g1)(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases, size_t n_bases,
                      const cuzk_scalar_t *scalars, size_t n_scalars, const uint64_t *density, int threads,
                      unsigned window);
    cuzk_status (*g2)(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases, size_t n_bases,
                      const cuzk_scalar_t *scalars, size_t n_scalars, const uint64_t *density, int threads,
                      unsigned window);
} msm_backend;

extern const msm_backend msm_backend_cpu;
/* The variants of CUZK_ENTRY_MSM: the CPU backend for every CPU implementation (the implementation
 * shows inside it, through the FF and EC_LANES entries); NULL for CUDA until it exists. */
const void *msm_backend_variant(cuzk_variant v);

#endif
