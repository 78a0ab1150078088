/* BLS12-381 G1/G2 point types and their zcash/blst encodings.
 * Affine points use (0, 0) for the point at infinity (it is not on the curve, so it is unambiguous);
 * Jacobian points use Z = 0. Coordinates are Montgomery-form field elements. */
#ifndef CUZK_CURVE_H
#define CUZK_CURVE_H
#include <stdint.h>
#include "cuzk/field.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { cuzk_fp_t x, y; } cuzk_g1_affine_t;
typedef struct { cuzk_fp_t x, y, z; } cuzk_g1_jac_t;      /* (X/Z², Y/Z³) */
typedef struct { cuzk_fp2_t x, y; } cuzk_g2_affine_t;
typedef struct { cuzk_fp2_t x, y, z; } cuzk_g2_jac_t;

#define CUZK_G1_COMPRESSED_BYTES 48
#define CUZK_G1_UNCOMPRESSED_BYTES 96
#define CUZK_G2_COMPRESSED_BYTES 96
#define CUZK_G2_UNCOMPRESSED_BYTES 192

#ifdef __cplusplus
}
#endif
#endif
