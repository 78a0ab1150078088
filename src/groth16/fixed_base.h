/* Fixed-base scalar multiplication for the development setup: many scalars times one generator,
 * with a comb of 8-bit windows (32 mixed additions per product instead of ~300 group operations). */
#ifndef CUZK_GROTH16_FIXED_BASE_H
#define CUZK_GROTH16_FIXED_BASE_H
#include "ec/ec.h"
#include "ff/fr.h"

/* out[i] = scalars[i]·G (affine) for the group generator, threaded. Returns CUZK_ERR_NO_MEMORY if
 * the table cannot be allocated. */
cuzk_status g16_fixed_base_g1(g1_aff *out, const fr *scalars, size_t n, int threads);
cuzk_status g16_fixed_base_g2(g2_aff *out, const fr *scalars, size_t n, int threads);

#endif
