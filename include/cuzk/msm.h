/* Multi-scalar multiplication over BLS12-381 G1 and G2: out = Σ scalars[i]·bases[i].
 * Pippenger with signed digits and batch-affine buckets; scalars equal to 0 or 1 take a fast path
 * (skipped / summed directly); density bitmaps select which scalars consume a base (bellperson).
 *
 * Ownership: bases, scalars and density bitmaps are the caller's and only read; *out is written on
 * success; scratch memory is allocated and freed inside each call. Threading: the functions share no
 * mutable state, so calls may run concurrently from any threads; each call starts its own worker
 * threads (opts->threads) and joins them before it returns. Errors: as listed with each call.
 */
#ifndef CUZK_MSM_H
#define CUZK_MSM_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/curve.h"
#include "cuzk/field.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest Pippenger window (bits per digit) accepted in cuzk_msm_opts.window. */
#define CUZK_MSM_MAX_WINDOW 22

/* Options of one MSM call. A NULL options pointer means all defaults (every field 0). */
typedef struct {
    int threads;     /* worker threads, >= 0; 0 = every online CPU */
    unsigned window; /* widest Pippenger window in bits, 0 = chosen from the size; 1..CUZK_MSM_MAX_WINDOW:
                        the scalars' bits are split evenly over as few windows as this width allows */
} cuzk_msm_opts;

/* out = Σ_{i<n} scalars[i]·bases[i] (Jacobian; the point at infinity has Z = 0).
 *
 * bases:   n affine points; (0, 0) is the point at infinity and is allowed. Points are assumed to
 *          be on the curve and in the prime-order subgroup (not checked: the SRS loader checks).
 * scalars: n canonical integers (not Montgomery form), each < r.
 * n = 0 gives the point at infinity (bases and scalars may then be NULL).
 * The result does not depend on threads or window; only the time does.
 *
 * Returns CUZK_OK, or (with *out untouched):
 *   CUZK_ERR_INVALID_ARG   out NULL, bases/scalars NULL with n > 0, threads < 0,
 *                          window > CUZK_MSM_MAX_WINDOW, or n >= 2^32;
 *   CUZK_ERR_NOT_CANONICAL some scalar is >= r;
 *   CUZK_ERR_NO_MEMORY     scratch allocation failed. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_msm_g1(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                        const cuzk_scalar_t *scalars, size_t n, const cuzk_msm_opts *opts);
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_msm_g2(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                        const cuzk_scalar_t *scalars, size_t n, const cuzk_msm_opts *opts);

/* MSM over a compact base array selected by a density bitmap (bellperson's DensityTracker):
 * scalar i (i < n_scalars) takes part only when bit i of density_bits is set (bit i lives in
 * density_bits[i / 64], bit i % 64); it is then paired with the next unused base, in order.
 * A scalar whose bit is clear is ignored and consumes no base. So
 *   out = Σ_{i : bit i set} scalars[i]·bases[popcount(bits below i)].
 * Bits at positions >= n_scalars are ignored; bases beyond the number of set bits are ignored.
 *
 * Only the scalars whose bit is set are range-checked (the others are never read).
 * Returns what cuzk_msm_g1 returns, and CUZK_ERR_BAD_LENGTH when more bits are set than there are
 * bases (checked before any work, *out untouched). density_bits may be NULL only when
 * n_scalars = 0. */
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_msm_g1_density(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases, size_t n_bases,
                                const cuzk_scalar_t *scalars, size_t n_scalars,
                                const uint64_t *density_bits, const cuzk_msm_opts *opts);
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_msm_g2_density(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases, size_t n_bases,
                                const cuzk_scalar_t *scalars, size_t n_scalars,
                                const uint64_t *density_bits, const cuzk_msm_opts *opts);

/* The window cuzk_msm_g1/_g2 would pick (its widest) for `n` non-trivial scalars (scalars other than 0
 * and 1) on `threads` threads (0 = every online CPU); for benchmarks and tuning. */
CUZK_API unsigned cuzk_msm_g1_window(size_t n, int threads);
CUZK_API unsigned cuzk_msm_g2_window(size_t n, int threads);

#ifdef __cplusplus
}
#endif
#endif
