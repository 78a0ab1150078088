/* BLS12-381 field element types shared by the public API.
 * Fp is the 381-bit base field, Fr the 255-bit scalar field. Field elements are kept in Montgomery
 * form (little-endian 64-bit limbs); cuzk_scalar_t is a canonical integer (not Montgomery), the form
 * MSM scalars and serialized Fr values take.
 *
 * Plain value types, copied freely, nothing to free, nothing shared; and the conversion of an Fr
 * element to the canonical integer (a pure function: any thread).
 */
#ifndef CUZK_FIELD_H
#define CUZK_FIELD_H
#include <stdint.h>
#include "cuzk/api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { uint64_t l[6]; } cuzk_fp_t;      /* Fp element, Montgomery form */
typedef struct { uint64_t l[4]; } cuzk_fr_t;      /* Fr element, Montgomery form */
typedef struct { cuzk_fp_t c0, c1; } cuzk_fp2_t;  /* c0 + c1·u, u² = −1 */
typedef struct { uint64_t l[4]; } cuzk_scalar_t;  /* canonical integer < r, little-endian limbs */

/* The canonical integer of an Fr element (its Montgomery form divided by R): what verification takes
 * as public inputs from, e.g., a witness's values. */
CUZK_API CUZK_NONNULL(1, 2) void cuzk_fr_to_scalar(cuzk_scalar_t *out, const cuzk_fr_t *in);

#ifdef __cplusplus
}
#endif
#endif
