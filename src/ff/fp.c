/* Fp, the BLS12-381 base field: constants, additive operations, conversions, encodings,
 * exponentiation-based inverse / square root / Legendre symbol, batch inversion.
 * Multiplication and squaring are dispatched (ff_impl.c). */
#include "ff/fp.h"
#include "ff/fp_inline.h"
#include "ff/addsub_x86.h"
#include "ff/field_tmpl.h"
#include "ff/limbs.h"
#include "ff/mont.h"
#include "ff/safegcd.h"

const uint64_t FP_MODULUS[FP_LIMBS] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                       0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                       0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
const uint64_t FP_N0 = 0x89f3fffcfffcfffdULL;
const fp FP_ZERO = {{0}};
const fp FP_ONE = {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                    0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}};
const fp FP_R2 = {{0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
                   0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL}};

/* Exponents of the Fermat inverse, the p = 3 (mod 4) square root and Euler's criterion. */
static const uint64_t P_MINUS_2[FP_LIMBS] = {0xb9feffffffffaaa9ULL, 0x1eabfffeb153ffffULL,
                                             0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                             0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
static const uint64_t P_PLUS_1_DIV_4[FP_LIMBS] = {0xee7fbfffffffeaabULL, 0x07aaffffac54ffffULL,
                                                  0xd9cc34a83dac3d89ULL, 0xd91dd2e13ce144afULL,
                                                  0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};
static const uint64_t P_MINUS_1_DIV_2[FP_LIMBS] = {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL,
                                                   0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
                                                   0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};

void fp_add(fp *r, const fp *a, const fp *b) { fp_add_inl(r, a, b); }
void fp_sub(fp *r, const fp *a, const fp *b) { fp_sub_inl(r, a, b); }
void fp_dbl(fp *r, const fp *a) { fp_dbl_inl(r, a); }
void fp_neg(fp *r, const fp *a) { fp_neg_inl(r, a); }

bool fp_is_zero(const fp *a) { return limbs_is_zero(a->l, FP_LIMBS); }

bool fp_eq(const fp *a, const fp *b)
{
    uint64_t d = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        d |= a->l[i] ^ b->l[i];
    return d == 0;
}

void fp_to_mont(fp *r, const uint64_t a[FP_LIMBS])
{
    fp t;
    for (int i = 0; i < FP_LIMBS; i++)
        t.l[i] = a[i];
    fp_mul(r, &t, &FP_R2);
}

void fp_from_mont(uint64_t r[FP_LIMBS], const fp *a)
{
    static const fp one_raw = {{1}};
    fp t;
    fp_mul(&t, a, &one_raw);
    for (int i = 0; i < FP_LIMBS; i++)
        r[i] = t.l[i];
}

void fp_from_u64(fp *r, uint64_t v)
{
    uint64_t t[FP_LIMBS] = {v};
    fp_to_mont(r, t);
}

FF_DEFINE_POW(fp_pow, fp, fp_mul, fp_sqr, FP_ONE)

/* R^3 mod p: the safegcd inverse of a Montgomery representative a·R is (a·R)^-1; one Montgomery
 * multiplication by R^3 turns it into a^-1·R. */
static const fp FP_R3 = {{0xed48ac6bd94ca1e0ULL, 0x315f831e03a7adf8ULL, 0x9a53352a615e29ddULL,
                          0x34c04e5e921e1761ULL, 0x2512d43565724728ULL, 0x0aa6346091755d4dULL}};

void fp_inv(fp *r, const fp *a)
{
    fp t;
    sg_inverse(t.l, a->l, &SG_FP);
    fp_mul(r, &t, &FP_R3);
}

void fp_inv_vartime(fp *r, const fp *a)
{
    fp t;
    sg_inverse_vartime(t.l, a->l, &SG_FP);
    fp_mul(r, &t, &FP_R3);
}

/* The Fermat inverse a^(p-2): slower, kept as an independent cross-check for the tests. */
void fp_inv_fermat(fp *r, const fp *a) { fp_pow(r, a, P_MINUS_2, FP_LIMBS); }

#define FP_IS_ZERO(x) fp_is_zero(x)
FF_DEFINE_BATCH_INV(fp_batch_inv, fp, fp_mul, fp_inv, FP_IS_ZERO, FP_ONE, FP_ZERO)
FF_DEFINE_BATCH_INV(fp_batch_inv_vartime, fp, fp_mul, fp_inv_vartime, FP_IS_ZERO, FP_ONE, FP_ZERO)

int fp_legendre(const fp *a)
{
    fp t;
    fp_pow(&t, a, P_MINUS_1_DIV_2, FP_LIMBS);
    if (fp_is_zero(&t))
        return 0;
    return fp_eq(&t, &FP_ONE) ? 1 : -1;
}

bool fp_sqrt(fp *r, const fp *a)
{
    fp x, x2;
    fp_pow(&x, a, P_PLUS_1_DIV_4, FP_LIMBS);
    fp_sqr(&x2, &x);
    if (!fp_eq(&x2, a))
        return false;
    *r = x;
    return true;
}

bool fp_is_lexicographically_largest(const fp *a)
{
    uint64_t c[FP_LIMBS];
    fp_from_mont(c, a);
    return limbs_lt(P_MINUS_1_DIV_2, c, FP_LIMBS);
}

static bool fp_from_canonical(fp *r, const uint64_t c[FP_LIMBS])
{
    if (!limbs_lt(c, FP_MODULUS, FP_LIMBS))
        return false;
    fp_to_mont(r, c);
    return true;
}

bool fp_from_bytes_be(fp *r, const uint8_t in[FP_BYTES])
{
    uint64_t c[FP_LIMBS];
    limbs_from_bytes_be(c, in, FP_LIMBS);
    return fp_from_canonical(r, c);
}

bool fp_from_bytes_le(fp *r, const uint8_t in[FP_BYTES])
{
    uint64_t c[FP_LIMBS];
    limbs_from_bytes_le(c, in, FP_LIMBS);
    return fp_from_canonical(r, c);
}

void fp_to_bytes_be(uint8_t out[FP_BYTES], const fp *a)
{
    uint64_t c[FP_LIMBS];
    fp_from_mont(c, a);
    limbs_to_bytes_be(out, c, FP_LIMBS);
}

void fp_to_bytes_le(uint8_t out[FP_BYTES], const fp *a)
{
    uint64_t c[FP_LIMBS];
    fp_from_mont(c, a);
    limbs_to_bytes_le(out, c, FP_LIMBS);
}

void fp_half(fp *r, const fp *a)
{
    /* Halving commutes with the Montgomery map, so halve the representative: add p when odd
     * (the sum stays below 2^382), then shift. */
    uint64_t t[FP_LIMBS], m[FP_LIMBS];
    uint64_t odd = 0 - (a->l[0] & 1);
    for (int i = 0; i < FP_LIMBS; i++)
        m[i] = FP_MODULUS[i] & odd;
    limbs_add(t, a->l, m, FP_LIMBS);
    for (int i = 0; i < FP_LIMBS - 1; i++)
        r->l[i] = (t[i] >> 1) | (t[i + 1] << 63);
    r->l[FP_LIMBS - 1] = t[FP_LIMBS - 1] >> 1;
}
