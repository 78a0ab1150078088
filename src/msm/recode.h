/* The window digits of a block of scalars: the signed-digit recoding of digits.h one scalar at a time,
 * or 8 at a time in AVX-512 lanes (the lane builds of recode_lanes.h, behind a run-time gate). Every
 * window of a dense MSM recodes every scalar, and one at a time (a fold and a 4-limb comparison with
 * borrow chains per scalar) that was 13 of the 95 ns per bucket addition of a 2^21-point MSM. */
#ifndef CUZK_MSM_RECODE_H
#define CUZK_MSM_RECODE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/field.h"
#include "msm/digits.h"

/* codes[j] for j < n: the digit d of scalar sidx[lo + j] (sidx NULL: lo + j) in window *win, after
 * msm_scalar_fold, as (|d| << 1) | sign, where sign = (the fold negated) xor (d < 0); 0 for d = 0.
 * The same as msm_digit, so scalars must be below r. */
typedef void msm_recode_fn(uint32_t *codes, const cuzk_scalar_t *scalars, const uint32_t *sidx, size_t lo,
                           size_t n, const msm_window *win);

/* One scalar at a time with msm_scalar_fold and msm_digit: any CPU. */
msm_recode_fn msm_recode_scalar;

/* The same source as the AVX-512 build over the portable lane emulation: the tests' bridge to the
 * scalar code. */
msm_recode_fn msm_recode_emulated;

/* The AVX-512 build when it was compiled and this CPU runs the IFMA implementation; else NULL. */
msm_recode_fn *msm_recode_real(void);

#endif
