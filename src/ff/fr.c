/* Fr, the BLS12-381 scalar field: constants, additive operations, conversions, encodings,
 * inverse, Tonelli-Shanks square root (2-adicity 32), batch inversion.
 * Multiplication and squaring are dispatched (ff_impl.c). */
#include "ff/fr.h"
#include "ff/addsub_x86.h"
#include "ff/field_tmpl.h"
#include "ff/limbs.h"
#include "ff/mont.h"
#include "ff/safegcd.h"
#include "ff/ifma/ifma.h"
#include "util/dispatch.h"

const uint64_t FR_MODULUS[FR_LIMBS] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                       0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
const uint64_t FR_N0 = 0xfffffffeffffffffULL;
const fr FR_ZERO = {{0}};
const fr FR_ONE = {{0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL,
                    0x1824b159acc5056fULL}};
const fr FR_R2 = {{0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL,
                   0x0748d9d99f59ff11ULL}};

static const uint64_t R_MINUS_2[FR_LIMBS] = {0xfffffffeffffffffULL, 0x53bda402fffe5bfeULL,
                                             0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
static const uint64_t R_MINUS_1_DIV_2[FR_LIMBS] = {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL,
                                                   0x199cec0404d0ec02ULL, 0x39f6d3a994cebea4ULL};
/* r - 1 = 2^32 · t with t odd; Tonelli-Shanks needs (t - 1) / 2 and a primitive 2^32-th root of
 * unity, 7^t (7 generates Fr^*), in Montgomery form. Both are checked in tests/ff. */
static const uint64_t T_MINUS_1_DIV_2[FR_LIMBS] = {0x7fff2dff7fffffffULL, 0x04d0ec02a9ded201ULL,
                                                   0x94cebea4199cec04ULL, 0x0000000039f6d3a9ULL};
const fr FR_ROOT_OF_UNITY_2_32 = {{0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL,
                                   0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL}};

#if defined(__x86_64__)
void fr_add(fr *r, const fr *a, const fr *b) { mod_add_4(r->l, a->l, b->l, FR_MODULUS); }
void fr_sub(fr *r, const fr *a, const fr *b) { mod_sub_4(r->l, a->l, b->l, FR_MODULUS); }
void fr_dbl(fr *r, const fr *a) { mod_add_4(r->l, a->l, a->l, FR_MODULUS); }
/* 0 − a: the subtraction borrows (and adds q back) exactly when a is non-zero. */
void fr_neg(fr *r, const fr *a) { mod_sub_4(r->l, FR_ZERO.l, a->l, FR_MODULUS); }
#else
void fr_add(fr *r, const fr *a, const fr *b) { limbs_mod_add(r->l, a->l, b->l, FR_MODULUS, FR_LIMBS); }
void fr_sub(fr *r, const fr *a, const fr *b) { limbs_mod_sub(r->l, a->l, b->l, FR_MODULUS, FR_LIMBS); }
void fr_dbl(fr *r, const fr *a) { limbs_mod_add(r->l, a->l, a->l, FR_MODULUS, FR_LIMBS); }
void fr_neg(fr *r, const fr *a) { limbs_mod_neg(r->l, a->l, FR_MODULUS, FR_LIMBS); }
#endif

bool fr_is_zero(const fr *a) { return limbs_is_zero(a->l, FR_LIMBS); }

bool fr_eq(const fr *a, const fr *b)
{
    uint64_t d = 0;
    for (int i = 0; i < FR_LIMBS; i++)
        d |= a->l[i] ^ b->l[i];
    return d == 0;
}

void fr_to_mont(fr *r, const uint64_t a[FR_LIMBS])
{
    fr t;
    for (int i = 0; i < FR_LIMBS; i++)
        t.l[i] = a[i];
    fr_mul(r, &t, &FR_R2);
}

void fr_from_mont(uint64_t r[FR_LIMBS], const fr *a)
{
    static const fr one_raw = {{1}};
    fr t;
    fr_mul(&t, a, &one_raw);
    for (int i = 0; i < FR_LIMBS; i++)
        r[i] = t.l[i];
}

void fr_from_u64(fr *r, uint64_t v)
{
    uint64_t t[FR_LIMBS] = {v};
    fr_to_mont(r, t);
}

void fr_to_scalar(cuzk_scalar_t *s, const fr *a) { fr_from_mont(s->l, a); }
void fr_from_scalar(fr *r, const cuzk_scalar_t *s) { fr_to_mont(r, s->l); }

FF_DEFINE_POW(fr_pow, fr, fr_mul, fr_sqr, FR_ONE)

/* R^3 mod r, as for Fp: turns the safegcd inverse of a·R into a^-1·R. */
static const fr FR_R3 = {{0xc62c1807439b73afULL, 0x1b3e0d188cf06990ULL, 0x73d13c71c7b5f418ULL,
                          0x6e2a5bb9c8db33e9ULL}};

void fr_inv(fr *r, const fr *a)
{
    fr t;
    sg_inverse(t.l, a->l, &SG_FR);
    fr_mul(r, &t, &FR_R3);
}

void fr_inv_fermat(fr *r, const fr *a) { fr_pow(r, a, R_MINUS_2, FR_LIMBS); }

#define FR_IS_ZERO(x) fr_is_zero(x)
FF_DEFINE_BATCH_INV(fr_batch_inv, fr, fr_mul, fr_inv, FR_IS_ZERO, FR_ONE, FR_ZERO)

void fr_mul_many(fr *r, const fr *a, const fr *b, size_t n)
{
    if (cuzk_dispatch()->variant[CUZK_ENTRY_FF] == CUZK_VARIANT_IFMA && ifma_available()) {
        ifma_fr_mul_n(r, a, b, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        fr_mul(&r[i], &a[i], &b[i]);
}

int fr_legendre(const fr *a)
{
    fr t;
    fr_pow(&t, a, R_MINUS_1_DIV_2, FR_LIMBS);
    if (fr_is_zero(&t))
        return 0;
    return fr_eq(&t, &FR_ONE) ? 1 : -1;
}

bool fr_sqrt(fr *r, const fr *a)
{
    if (fr_is_zero(a)) {
        *r = FR_ZERO;
        return true;
    }
    fr w, x, b, z = FR_ROOT_OF_UNITY_2_32, t;
    fr_pow(&w, a, T_MINUS_1_DIV_2, FR_LIMBS); /* a^((t-1)/2) */
    fr_mul(&x, a, &w);                         /* a^((t+1)/2) */
    fr_mul(&b, &x, &w);                        /* a^t, in the 2^32-torsion */
    int v = FR_TWO_ADICITY;
    /* Invariant: x² = a·b and b has order 2^k dividing 2^(v-1) when a is a square. */
    while (!fr_eq(&b, &FR_ONE)) {
        int k = 0;
        t = b;
        while (!fr_eq(&t, &FR_ONE)) {
            fr_sqr(&t, &t);
            if (++k >= v)
                return false; /* b's order is 2^v: a is not a square */
        }
        w = z;
        for (int i = 0; i < v - k - 1; i++)
            fr_sqr(&w, &w);
        fr_sqr(&z, &w);
        fr_mul(&b, &b, &z);
        fr_mul(&x, &x, &w);
        v = k;
    }
    *r = x;
    return true;
}

static bool fr_from_canonical(fr *r, const uint64_t c[FR_LIMBS])
{
    if (!limbs_lt(c, FR_MODULUS, FR_LIMBS))
        return false;
    fr_to_mont(r, c);
    return true;
}

bool fr_from_bytes_le(fr *r, const uint8_t in[FR_BYTES])
{
    uint64_t c[FR_LIMBS];
    limbs_from_bytes_le(c, in, FR_LIMBS);
    return fr_from_canonical(r, c);
}

bool fr_from_bytes_be(fr *r, const uint8_t in[FR_BYTES])
{
    uint64_t c[FR_LIMBS];
    limbs_from_bytes_be(c, in, FR_LIMBS);
    return fr_from_canonical(r, c);
}

void fr_to_bytes_le(uint8_t out[FR_BYTES], const fr *a)
{
    uint64_t c[FR_LIMBS];
    fr_from_mont(c, a);
    limbs_to_bytes_le(out, c, FR_LIMBS);
}

void fr_to_bytes_be(uint8_t out[FR_BYTES], const fr *a)
{
    uint64_t c[FR_LIMBS];
    fr_from_mont(c, a);
    limbs_to_bytes_be(out, c, FR_LIMBS);
}

/* The public form of fr_to_scalar (cuzk/field.h). */
void cuzk_fr_to_scalar(cuzk_scalar_t *out, const cuzk_fr_t *in)
{
    fr_to_scalar(out, in);
}
