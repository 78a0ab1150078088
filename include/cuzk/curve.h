/* BLS12-381 G1/G2 point types and their zcash/blst encodings.
 * Affine points use (0, 0) for the point at infinity (it is not on the curve, so it is unambiguous);
 * Jacobian points use Z = 0. Coordinates are Montgomery-form field elements.
 *
 * Ownership: points and byte buffers are the caller's; nothing is allocated. Threading: every
 * function is a pure computation, safe from any thread. Errors: the encoders cannot fail; the
 * decoders return the codes listed below and write *p only on success. NULL arguments are
 * answered with CUZK_ERR_INVALID_ARG, not a crash.
 */
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

/* Point encodings, byte-compatible with zcash/bls12_381, blst and blstrs (bellperson's files and
 * proofs). A coordinate is its canonical big-endian integer, 48 bytes; an Fp2 coordinate c0 + c1·u is
 * c1 || c0. Compressed = x only; uncompressed = x || y. The top three bits of byte 0 are flags:
 * 0x80 compressed, 0x40 point at infinity, 0x20 (compressed only) y is the lexicographically larger
 * root. Infinity is exactly 0xc0 00…00 compressed and 0x40 00…00 uncompressed.
 *
 * The encoders take an affine point with Montgomery coordinates ((0, 0) = infinity) and always succeed.
 * The decoders write *p only on success and return:
 *   CUZK_ERR_INVALID_ARG      p or in is NULL
 *   CUZK_ERR_BAD_FLAGS        compression bit wrong for the format, sign bit on an uncompressed or an
 *                             infinity encoding, or an infinity encoding with a non-zero payload
 *   CUZK_ERR_NOT_CANONICAL    a coordinate (each Fp half for G2) is >= p
 *   CUZK_ERR_NOT_ON_CURVE     (x, y) off the curve, or no y for this x
 *   CUZK_ERR_NOT_IN_SUBGROUP  on the curve but not in the order-r subgroup (checked variants only)
 * The _unchecked variants skip only the subgroup check (bellperson reads .params files that way). */
CUZK_API void cuzk_g1_compress(uint8_t out[CUZK_G1_COMPRESSED_BYTES], const cuzk_g1_affine_t *p);
CUZK_API void cuzk_g1_serialize(uint8_t out[CUZK_G1_UNCOMPRESSED_BYTES], const cuzk_g1_affine_t *p);
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_g1_decompress(cuzk_g1_affine_t *p, const uint8_t in[CUZK_G1_COMPRESSED_BYTES]);
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_g1_decompress_unchecked(cuzk_g1_affine_t *p,
                                         const uint8_t in[CUZK_G1_COMPRESSED_BYTES]);
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_g1_deserialize(cuzk_g1_affine_t *p, const uint8_t in[CUZK_G1_UNCOMPRESSED_BYTES]);
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_g1_deserialize_unchecked(cuzk_g1_affine_t *p,
                                          const uint8_t in[CUZK_G1_UNCOMPRESSED_BYTES]);

CUZK_API void cuzk_g2_compress(uint8_t out[CUZK_G2_COMPRESSED_BYTES], const cuzk_g2_affine_t *p);
CUZK_API void cuzk_g2_serialize(uint8_t out[CUZK_G2_UNCOMPRESSED_BYTES], const cuzk_g2_affine_t *p);
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_g2_decompress(cuzk_g2_affine_t *p, const uint8_t in[CUZK_G2_COMPRESSED_BYTES]);
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_g2_decompress_unchecked(cuzk_g2_affine_t *p,
                                         const uint8_t in[CUZK_G2_COMPRESSED_BYTES]);
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_g2_deserialize(cuzk_g2_affine_t *p, const uint8_t in[CUZK_G2_UNCOMPRESSED_BYTES]);
CUZK_API CUZK_WARN_UNUSED_RESULT
cuzk_status cuzk_g2_deserialize_unchecked(cuzk_g2_affine_t *p,
                                          const uint8_t in[CUZK_G2_UNCOMPRESSED_BYTES]);

#ifdef __cplusplus
}
#endif
#endif
