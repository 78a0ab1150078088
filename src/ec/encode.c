/* The zcash/blst encodings of G1 and G2 points: one template (encode_impl.h) compiled twice. An Fp2
 * coordinate is written c1 || c0, and its sign is decided by c1 unless c1 = 0. */
#include "cuzk/curve.h"
#include "ec/ec.h"

static bool g1_fe_sign(const fp *y) { return fp_is_lexicographically_largest(y); }

#define EC_FE fp
#define EC_AFF g1_aff
#define EC_FN(name) g1_##name
#define EC_PUB(name) cuzk_g1_##name
#define EC_FE_BYTES FP_BYTES
#define EC_FE_TO_BYTES fp_to_bytes_be
#define EC_FE_FROM_BYTES fp_from_bytes_be
#include "ec/encode_impl.h"
#undef EC_FE
#undef EC_AFF
#undef EC_FN
#undef EC_PUB
#undef EC_FE_BYTES
#undef EC_FE_TO_BYTES
#undef EC_FE_FROM_BYTES

static void fp2_to_bytes_be(uint8_t out[2 * FP_BYTES], const fp2 *a)
{
    fp_to_bytes_be(out, &a->c1);
    fp_to_bytes_be(out + FP_BYTES, &a->c0);
}

static bool fp2_from_bytes_be(fp2 *r, const uint8_t in[2 * FP_BYTES])
{
    fp2 t;
    if (!fp_from_bytes_be(&t.c1, in) || !fp_from_bytes_be(&t.c0, in + FP_BYTES))
        return false;
    *r = t;
    return true;
}

static bool g2_fe_sign(const fp2 *y) { return fp2_is_lexicographically_largest(y); }

#define EC_FE fp2
#define EC_AFF g2_aff
#define EC_FN(name) g2_##name
#define EC_PUB(name) cuzk_g2_##name
#define EC_FE_BYTES (2 * FP_BYTES)
#define EC_FE_TO_BYTES fp2_to_bytes_be
#define EC_FE_FROM_BYTES fp2_from_bytes_be
#include "ec/encode_impl.h"
