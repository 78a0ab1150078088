/* BLS12-381 field element types shared by the public API.
 * Fp is the 381-bit base field, Fr the 255-bit scalar field. Field elements are kept in Montgomery
 * form (little-endian 64-bit limbs); cuzk_scalar_t is a canonical integer (not Montgomery), the form
 * MSM scalars and serialized Fr values take. */
#ifndef CUZK_FIELD_H
#define CUZK_FIELD_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { uint64_t l[6]; } cuzk_fp_t;      /* Fp element, Montgomery form */
typedef struct { uint64_t l[4]; } cuzk_fr_t;      /* Fr element, Montgomery form */
typedef struct { cuzk_fp_t c0, c1; } cuzk_fp2_t;  /* c0 + c1·u, u² = −1 */
typedef struct { uint64_t l[4]; } cuzk_scalar_t;  /* canonical integer < r, little-endian limbs */

#ifdef __cplusplus
}
#endif
#endif
