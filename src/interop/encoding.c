/* Field, point and decimal encodings used by snarkjs files: prime identification, ffjavascript's
 * "LEM" affine points (Montgomery limbs with R = 2^384, identical to ours, so decoding is a range
 * check plus curve checks) and base-10 strings for the JSON files. */
#include <stdio.h>
#include <string.h>
#include "interop/interop_internal.h"

/* bn128's base field prime q, little-endian limbs. */
static const uint64_t BN128_Q[4] = {0x3c208c16d87cfd47ull, 0x97816a916871ca8dull,
                                    0xb85045b68181585dull, 0x30644e72e131a029ull};

static bool bytes_equal_limbs(const uint8_t *p, uint32_t n8, const uint64_t *limbs, size_t n)
{
    if (n8 != 8 * n)
        return false;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        for (int b = 7; b >= 0; b--)
            v = v << 8 | p[8 * i + (size_t)b];
        if (v != limbs[i])
            return false;
    }
    return true;
}

bool interop_is_bls_r(const uint8_t *p, uint32_t n8) { return bytes_equal_limbs(p, n8, FR_MODULUS, FR_LIMBS); }

cuzk_status interop_check_prime(const uint8_t *h, uint64_t hlen, const char *path, const char *what,
                                cuzk_err_t *err)
{
    if (hlen < 4)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: header section has %llu bytes", path,
                            (unsigned long long)hlen);
    uint32_t n8 = (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 | (uint32_t)h[3] << 24;
    if (n8 > hlen - 4 || !interop_is_bls_r(h + 4, n8))
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "%s: %s (its prime is not BLS12-381's r)", path, what);
    return CUZK_OK;
}
bool interop_is_bls_p(const uint8_t *p, uint32_t n8) { return bytes_equal_limbs(p, n8, FP_MODULUS, FP_LIMBS); }
bool interop_is_bn128_q(const uint8_t *p, uint32_t n8) { return bytes_equal_limbs(p, n8, BN128_Q, 4); }

bool interop_limbs_lt(const uint64_t *a, const uint64_t *m, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        if (a[i] != m[i])
            return a[i] < m[i];
    }
    return false;
}

static bool fp_from_lem(fp *out, const uint8_t *p)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(out->l, p, FP_BYTES); /* the limbs are stored as they are held */
#else
    for (size_t i = 0; i < FP_LIMBS; i++) {
        uint64_t v = 0;
        for (int b = 7; b >= 0; b--)
            v = v << 8 | p[8 * i + (size_t)b];
        out->l[i] = v;
    }
#endif
    return interop_limbs_lt(out->l, FP_MODULUS, FP_LIMBS);
}

bool interop_g1_lem_coords(g1_aff *out, const uint8_t in[LEM_G1_BYTES])
{
    return fp_from_lem(&out->x, in) && fp_from_lem(&out->y, in + FP_BYTES);
}

bool interop_g2_lem_coords(g2_aff *out, const uint8_t in[LEM_G2_BYTES])
{
    return fp_from_lem(&out->x.c0, in) && fp_from_lem(&out->x.c1, in + FP_BYTES) &&
           fp_from_lem(&out->y.c0, in + 2 * FP_BYTES) && fp_from_lem(&out->y.c1, in + 3 * FP_BYTES);
}

cuzk_status interop_g1_from_lem(g1_aff *out, const uint8_t in[LEM_G1_BYTES], bool subgroup)
{
    g1_aff p;
    if (!interop_g1_lem_coords(&p, in))
        return CUZK_ERR_NOT_CANONICAL;
    if (!g1_aff_is_inf(&p)) {
        if (!g1_aff_on_curve(&p))
            return CUZK_ERR_NOT_ON_CURVE;
        if (subgroup && !g1_aff_in_subgroup(&p))
            return CUZK_ERR_NOT_IN_SUBGROUP;
    }
    *out = p;
    return CUZK_OK;
}

cuzk_status interop_g2_from_lem(g2_aff *out, const uint8_t in[LEM_G2_BYTES], bool subgroup)
{
    g2_aff p;
    if (!interop_g2_lem_coords(&p, in))
        return CUZK_ERR_NOT_CANONICAL;
    if (!g2_aff_is_inf(&p)) {
        if (!g2_aff_on_curve(&p))
            return CUZK_ERR_NOT_ON_CURVE;
        if (subgroup && !g2_aff_in_subgroup(&p))
            return CUZK_ERR_NOT_IN_SUBGROUP;
    }
    *out = p;
    return CUZK_OK;
}

const char *interop_point_err_word(cuzk_status s)
{
    switch (s) {
    case CUZK_ERR_NOT_CANONICAL: return "coordinate not below p";
    case CUZK_ERR_NOT_ON_CURVE: return "point not on the curve";
    case CUZK_ERR_NOT_IN_SUBGROUP: return "point not in the prime-order subgroup";
    default: return cuzk_status_str(s);
    }
}

#define DEC_CHUNK 10000000000000000000ull /* 10^19: the largest power of ten in a limb */

void interop_dec_from_limbs(char *out, const uint64_t *limbs, size_t n)
{
    uint64_t t[FP_LIMBS * 2];
    uint64_t parts[FP_LIMBS * 2 * 2];  /* base-10^19 digits, least significant first */
    size_t np = 0;
    memcpy(t, limbs, n * sizeof *t);
    size_t len = n;
    while (len > 0 && t[len - 1] == 0)
        len--;
    do {
        unsigned __int128 rem = 0;
        for (size_t i = len; i-- > 0;) {
            unsigned __int128 cur = rem << 64 | t[i];
            t[i] = (uint64_t)(cur / DEC_CHUNK);
            rem = cur % DEC_CHUNK;
        }
        parts[np++] = (uint64_t)rem;
        while (len > 0 && t[len - 1] == 0)
            len--;
    } while (len > 0);
    char *o = out;
    o += sprintf(o, "%llu", (unsigned long long)parts[np - 1]);
    for (size_t i = np - 1; i-- > 0;)
        o += sprintf(o, "%019llu", (unsigned long long)parts[i]);
}

/* out = out·mul + add over n limbs; false on overflow. */
static bool limbs_muladd(uint64_t *out, size_t n, uint64_t mul, uint64_t add)
{
    unsigned __int128 carry = add;
    for (size_t i = 0; i < n; i++) {
        unsigned __int128 cur = (unsigned __int128)out[i] * mul + carry;
        out[i] = (uint64_t)cur;
        carry = cur >> 64;
    }
    return carry == 0;
}

bool interop_limbs_from_str(uint64_t *out, size_t n, const char *s)
{
    memset(out, 0, n * sizeof *out);
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (*s == '\0')
        return false;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return false;
        if (!limbs_muladd(out, n, base, d))
            return false;
    }
    return true;
}
