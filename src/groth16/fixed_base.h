/* Fixed-base scalar multiplication for the development setup: many scalars times one generator.
 * A table holds the multiples 1..2^(w−1) of 2^(w·k)·G for every w-bit window k; a scalar, recoded
 * into signed w-bit digits, is then the sum of one table point (or its negation) per non-zero digit:
 * 256/w additions per product instead of ~300 group operations. With the lane kernels
 * (ec/ifma/ec_ifma.h) the additions of a batch of products run in affine coordinates with one shared
 * inversion per window (Montgomery's trick); without them, in Jacobian coordinates converted to
 * affine per batch. Both give the same points, as does any scalar multiplication. */
#ifndef CUZK_GROTH16_FIXED_BASE_H
#define CUZK_GROTH16_FIXED_BASE_H
#include <stdbool.h>
#include "ec/ec.h"
#include "ec/ifma/ec_ifma.h"
#include "ff/fr.h"

/* Window widths: 8 (G1 0.4 MB, G2 0.8 MB, built in milliseconds) for a few products, 12 (G1 4.3 MB,
 * G2 8.7 MB, built in 0.05–0.1 s) for millions. Wider windows save additions but miss the caches: with
 * the IFMA kernels, per G1 product on one core, 8 bits 2.9 µs, 10 bits 2.3, 12 bits 2.3, 16 bits 2.4–2.7
 * (G2: 12 bits 4.6 µs, 16 bits 7.3). */
#define G16_FB_WINDOW_SMALL 8u
#define G16_FB_WINDOW_LARGE 12u

typedef struct g16_fb_table g16_fb_table;

/* A table for G1's (g2 false) or G2's generator with windows of window_bits (4..16), built on
 * `threads` threads (>= 1), using the lane kernels in use (ec_lanes()). CUZK_ERR_INVALID_ARG for a
 * width out of range, CUZK_ERR_NO_MEMORY; *t is NULL on error. Read-only once built: shared by threads. */
cuzk_status g16_fb_table_new(g16_fb_table **t, bool g2, unsigned window_bits, int threads);
void g16_fb_table_free(g16_fb_table *t); /* NULL-safe */
/* Tests: the lane kernels to use from now on (NULL: the Jacobian code), e.g. the emulated build. */
void g16_fb_table_set_lanes(g16_fb_table *t, const ec_ifma_ops *lanes);

/* out[i] = scalars[i]·G (affine; a zero scalar gives infinity) for i < n, threaded (threads >= 1).
 * The table's group must match (CUZK_ERR_INVALID_ARG otherwise); CUZK_ERR_NO_MEMORY when a worker's
 * scratch cannot be allocated (out is then partly written). The scalars' temporary digits are wiped. */
cuzk_status g16_fb_mul_g1(const g16_fb_table *t, g1_aff *out, const fr *scalars, size_t n, int threads);
cuzk_status g16_fb_mul_g2(const g16_fb_table *t, g2_aff *out, const fr *scalars, size_t n, int threads);

/* One-shot: a table sized for n (8-bit windows below 2^14 products, 12-bit above), the products,
 * the table freed. Returns CUZK_ERR_NO_MEMORY if the table cannot be allocated. */
cuzk_status g16_fixed_base_g1(g1_aff *out, const fr *scalars, size_t n, int threads);
cuzk_status g16_fixed_base_g2(g2_aff *out, const fr *scalars, size_t n, int threads);

#endif
