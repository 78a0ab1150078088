/* Fp and Fr against GMP: Montgomery constants, every implementation of mul/sqr on random and edge
 * inputs, add/sub/neg/dbl, inverse (constant and variable time), pow, Legendre, square roots,
 * encodings (incl. rejection of non-canonical ones), conversions, batch inversion with zeros and
 * aliasing. */
#include <stdlib.h>
#include <string.h>
#include "ff/ff_impl.h"
#include "ff/fp.h"
#include "ff/fr.h"
#include "ff/mont.h"
#include "ff/mont_adx.h"
#include "ff_gmp.h"

#ifdef CUZK_SANITIZE
#define N_RAND 300
#else
#define N_RAND 3000
#endif

typedef void (*mulfn)(uint64_t *, const uint64_t *, const uint64_t *);
typedef void (*unfn)(uint64_t *, const uint64_t *);

/* One field seen through uint64_t arrays, so the same checks run on Fp and Fr. */
typedef struct {
    const char *name;
    int n, bytes;
    const char *q_hex;
    const uint64_t *mod, *n0, *one, *r2;
    mulfn mul, add, sub;
    unfn sqr, neg, dbl, inv, inv_fermat;
    unfn inv_vartime; /* NULL where the field has none */
    void (*pow)(uint64_t *, const uint64_t *, const uint64_t *, size_t);
    bool (*sqrt)(uint64_t *, const uint64_t *);
    int (*legendre)(const uint64_t *);
    bool (*eq)(const uint64_t *, const uint64_t *);
    bool (*is_zero)(const uint64_t *);
    void (*from_u64)(uint64_t *, uint64_t);
    void (*to_mont)(uint64_t *, const uint64_t *);
    void (*from_mont)(uint64_t *, const uint64_t *);
    bool (*from_le)(uint64_t *, const uint8_t *);
    bool (*from_be)(uint64_t *, const uint8_t *);
    void (*to_le)(uint8_t *, const uint64_t *);
    void (*to_be)(uint8_t *, const uint64_t *);
    void (*batch_inv)(uint64_t *, const uint64_t *, size_t);
    struct {
        const char *name;
        mulfn mul;
        unfn sqr;
        cuzk_impl_t impl;
    } impls[2];
    int n_impls;
} field;

#define WRAP_FIELD(P, T)                                                                          \
    static void P##_mul_w(uint64_t *r, const uint64_t *a, const uint64_t *b) { P##_mul((T *)r, (const T *)a, (const T *)b); } \
    static void P##_add_w(uint64_t *r, const uint64_t *a, const uint64_t *b) { P##_add((T *)r, (const T *)a, (const T *)b); } \
    static void P##_sub_w(uint64_t *r, const uint64_t *a, const uint64_t *b) { P##_sub((T *)r, (const T *)a, (const T *)b); } \
    static void P##_sqr_w(uint64_t *r, const uint64_t *a) { P##_sqr((T *)r, (const T *)a); }    \
    static void P##_neg_w(uint64_t *r, const uint64_t *a) { P##_neg((T *)r, (const T *)a); }    \
    static void P##_dbl_w(uint64_t *r, const uint64_t *a) { P##_dbl((T *)r, (const T *)a); }    \
    static void P##_inv_w(uint64_t *r, const uint64_t *a) { P##_inv((T *)r, (const T *)a); }    \
    static void P##_inv_fermat_w(uint64_t *r, const uint64_t *a) { P##_inv_fermat((T *)r, (const T *)a); } \
    static void P##_pow_w(uint64_t *r, const uint64_t *a, const uint64_t *e, size_t n) { P##_pow((T *)r, (const T *)a, e, n); } \
    static bool P##_sqrt_w(uint64_t *r, const uint64_t *a) { return P##_sqrt((T *)r, (const T *)a); } \
    static int P##_legendre_w(const uint64_t *a) { return P##_legendre((const T *)a); }          \
    static bool P##_eq_w(const uint64_t *a, const uint64_t *b) { return P##_eq((const T *)a, (const T *)b); } \
    static bool P##_is_zero_w(const uint64_t *a) { return P##_is_zero((const T *)a); }           \
    static void P##_from_u64_w(uint64_t *r, uint64_t v) { P##_from_u64((T *)r, v); }            \
    static void P##_to_mont_w(uint64_t *r, const uint64_t *a) { P##_to_mont((T *)r, a); }       \
    static void P##_from_mont_w(uint64_t *r, const uint64_t *a) { P##_from_mont(r, (const T *)a); } \
    static bool P##_from_le_w(uint64_t *r, const uint8_t *in) { return P##_from_bytes_le((T *)r, in); } \
    static bool P##_from_be_w(uint64_t *r, const uint8_t *in) { return P##_from_bytes_be((T *)r, in); } \
    static void P##_to_le_w(uint8_t *o, const uint64_t *a) { P##_to_bytes_le(o, (const T *)a); } \
    static void P##_to_be_w(uint8_t *o, const uint64_t *a) { P##_to_bytes_be(o, (const T *)a); } \
    static void P##_batch_inv_w(uint64_t *o, const uint64_t *in, size_t n) { P##_batch_inv((T *)o, (const T *)in, n); } \
    static void P##_mul_portable_w(uint64_t *r, const uint64_t *a, const uint64_t *b) { P##_mul_portable((T *)r, (const T *)a, (const T *)b); } \
    static void P##_sqr_portable_w(uint64_t *r, const uint64_t *a) { P##_sqr_portable((T *)r, (const T *)a); }

WRAP_FIELD(fp, fp)
WRAP_FIELD(fr, fr)
static void fp_inv_vartime_w(uint64_t *r, const uint64_t *a) { fp_inv_vartime((fp *)r, (const fp *)a); }
#ifdef CUZK_FF_HAVE_ADX
static void fp_mul_adx_w(uint64_t *r, const uint64_t *a, const uint64_t *b) { fp_mul_adx((fp *)r, (const fp *)a, (const fp *)b); }
static void fp_sqr_adx_w(uint64_t *r, const uint64_t *a) { fp_sqr_adx((fp *)r, (const fp *)a); }
static void fr_mul_adx_w(uint64_t *r, const uint64_t *a, const uint64_t *b) { fr_mul_adx((fr *)r, (const fr *)a, (const fr *)b); }
static void fr_sqr_adx_w(uint64_t *r, const uint64_t *a) { fr_sqr_adx((fr *)r, (const fr *)a); }
#endif

#define FIELD_INIT(P, NAME, N, BYTES, QHEX, MOD, N0, ONE, R2)                                     \
    {                                                                                             \
        .name = NAME, .n = N, .bytes = BYTES, .q_hex = QHEX, .mod = MOD, .n0 = &N0,               \
        .one = (ONE).l, .r2 = (R2).l, .mul = P##_mul_w, .add = P##_add_w, .sub = P##_sub_w,      \
        .sqr = P##_sqr_w, .neg = P##_neg_w, .dbl = P##_dbl_w, .inv = P##_inv_w,                  \
        .inv_fermat = P##_inv_fermat_w,                                                           \
        .pow = P##_pow_w, .sqrt = P##_sqrt_w, .legendre = P##_legendre_w, .eq = P##_eq_w,        \
        .is_zero = P##_is_zero_w, .from_u64 = P##_from_u64_w, .to_mont = P##_to_mont_w,          \
        .from_mont = P##_from_mont_w, .from_le = P##_from_le_w, .from_be = P##_from_be_w,        \
        .to_le = P##_to_le_w, .to_be = P##_to_be_w, .batch_inv = P##_batch_inv_w,                \
        .impls = {{"portable", P##_mul_portable_w, P##_sqr_portable_w, CUZK_IMPL_PORTABLE}},     \
        .n_impls = 1                                                                              \
    }

static field FP_F = FIELD_INIT(fp, "fp", 6, 48,
                               "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
                               FP_MODULUS, FP_N0, FP_ONE, FP_R2);
static field FR_F = FIELD_INIT(fr, "fr", 4, 32,
                               "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
                               FR_MODULUS, FR_N0, FR_ONE, FR_R2);

static mpz_t q, R, Rinv, tmp;
static const field *F;

/* Montgomery element (raw limbs) -> its value. */
static void val(mpz_t z, const uint64_t *m)
{
    mpz_from_limbs(z, m, F->n);
    mpz_mul(z, z, Rinv);
    mpz_mod(z, z, q);
}

/* value -> Montgomery element, computed with GMP only. */
static void elt(uint64_t *m, const mpz_t z)
{
    mpz_mul(tmp, z, R);
    mpz_mod(tmp, tmp, q);
    mpz_to_limbs(m, tmp, F->n);
}

static void limbs_add_test(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    unsigned __int128 c = 0;
    for (int i = 0; i < 6; i++)
        c += (unsigned __int128)a[i] + b[i], r[i] = (uint64_t)c, c >>= 64;
}

static bool raw_eq_mpz(const uint64_t *m, const mpz_t z)
{
    uint64_t l[8];
    mpz_to_limbs(l, z, F->n);
    return memcmp(l, m, 8 * (size_t)F->n) == 0 && mpz_cmp(z, q) < 0;
}

/* Random raw Montgomery representations, with the edge cases first. */
#define N_EDGE 12
static void edge_or_random(uint64_t *m, int i)
{
    mpz_t z;
    mpz_init(z);
    switch (i) {
    case 0: mpz_set_ui(z, 0); break;
    case 1: mpz_set_ui(z, 1); break;
    case 2: mpz_sub_ui(z, q, 1); break;
    case 3: mpz_sub_ui(z, q, 2); break;
    case 4: mpz_fdiv_q_2exp(z, q, 1); break;
    case 5: mpz_fdiv_q_2exp(z, q, 1), mpz_add_ui(z, z, 1); break;
    case 6: mpz_mod(z, R, q); break;                       /* raw R mod q: the value 1 */
    case 7: mpz_setbit(z, 64 * (unsigned)F->n - 1), mpz_mod(z, z, q); break;
    case 8: mpz_set_ui(z, 1), mpz_mul_2exp(z, z, 64 * (unsigned)F->n), mpz_sub_ui(z, z, 1), mpz_mod(z, z, q); break;
    case 9: mpz_sub_ui(z, q, 1), mpz_fdiv_q_2exp(z, z, 64), mpz_mul_2exp(z, z, 64); break; /* low limb 0 */
    case 10: mpz_set_ui(z, 0), mpz_setbit(z, 64), mpz_sub_ui(z, z, 1); break;              /* one full limb */
    case 11: mpz_sub(z, q, R), mpz_mod(z, z, q); break;    /* raw −1 */
    default: mpz_rand_below(z, q, F->n); break;
    }
    mpz_to_limbs(m, z, F->n);
    mpz_clear(z);
}

static void check_constants(void)
{
    uint64_t l[8];
    mpz_t z, w;
    mpz_inits(z, w, NULL);
    mpz_to_limbs(l, q, F->n);
    CHECK_MSG(memcmp(l, F->mod, 8 * (size_t)F->n) == 0, "%s modulus", F->name);
    mpz_mod(z, R, q);
    CHECK_MSG(raw_eq_mpz(F->one, z), "%s one = R mod q", F->name);
    mpz_mul(z, R, R), mpz_mod(z, z, q);
    CHECK_MSG(raw_eq_mpz(F->r2, z), "%s R^2 mod q", F->name);
    mpz_set_ui(w, 1), mpz_mul_2exp(w, w, 64);
    mpz_invert(z, q, w), mpz_neg(z, z), mpz_mod(z, z, w);
    CHECK_MSG(mpz_get_ui(z) == *F->n0, "%s n0 = -q^-1 mod 2^64", F->name);
#ifdef CUZK_FF_HAVE_ADX
    /* the asm's private copy of the constants */
    const uint64_t *k = F->n == 6 ? FP_ADX_K : FR_ADX_K;
    CHECK_MSG(memcmp(k, F->mod, 8 * (size_t)F->n) == 0 && k[F->n] == *F->n0 && k[F->n + 1] == 0,
              "%s ADX constant table", F->name);
#endif
    /* The no-carry Montgomery loop needs the top limb of q below 2^63 - 1. */
    CHECK(F->mod[F->n - 1] < 0x7fffffffffffffffULL);
    mpz_clears(z, w, NULL);
}

static void check_mul_impl(const char *impl, mulfn mul, unfn sqr)
{
    uint64_t a[8], b[8], r[8], r2[8];
    mpz_t za, zb, e;
    mpz_inits(za, zb, e, NULL);
    unsigned long bad = 0;
    for (int i = 0; i < N_RAND; i++) {
        edge_or_random(a, i % (N_EDGE * 2) < N_EDGE ? i % (N_EDGE * 2) : 100);
        edge_or_random(b, (i / 3) % (N_EDGE * 2) < N_EDGE ? (i / 3) % (N_EDGE * 2) : 100);
        /* raw product a·b·R^-1 mod q */
        mpz_from_limbs(za, a, F->n), mpz_from_limbs(zb, b, F->n);
        mpz_mul(e, za, zb), mpz_mul(e, e, Rinv), mpz_mod(e, e, q);
        mul(r, a, b);
        bad += !raw_eq_mpz(r, e);
        memcpy(r2, a, sizeof a);
        mul(r2, r2, b); /* aliasing r == a */
        bad += memcmp(r2, r, 8 * (size_t)F->n) != 0;
        mpz_mul(e, za, za), mpz_mul(e, e, Rinv), mpz_mod(e, e, q);
        sqr(r, a);
        bad += !raw_eq_mpz(r, e);
        memcpy(r2, a, sizeof a);
        sqr(r2, r2);
        bad += memcmp(r2, r, 8 * (size_t)F->n) != 0;
    }
    CHECK_MSG(bad == 0, "%s %s mul/sqr: %lu mismatches against GMP", F->name, impl, bad);
    mpz_clears(za, zb, e, NULL);
}

/* m is the (fully reduced) Montgomery representation of z. */
static bool is(const uint64_t *m, const mpz_t z)
{
    uint64_t l[8];
    elt(l, z);
    return memcmp(l, m, 8 * (size_t)F->n) == 0;
}

static void rand_elt(uint64_t *m, int i) { edge_or_random(m, i < N_EDGE ? i : 100); }

static void check_arith(void)
{
    uint64_t a[8], b[8], r[8];
    mpz_t za, zb, e;
    mpz_inits(za, zb, e, NULL);
    unsigned long bad_add = 0, bad_sub = 0, bad_neg = 0, bad_dbl = 0, bad_inv = 0, bad_pow = 0,
                  bad_leg = 0, bad_sqrt = 0, bad_alias = 0;
    int n_inv = N_RAND / 4;
    for (int i = 0; i < N_RAND; i++) {
        rand_elt(a, i);
        rand_elt(b, i < N_EDGE ? N_EDGE - 1 - i : 100);
        val(za, a), val(zb, b);
        F->add(r, a, b), mpz_add(e, za, zb), mpz_mod(e, e, q), bad_add += !is(r, e);
        F->sub(r, a, b), mpz_sub(e, za, zb), mpz_mod(e, e, q), bad_sub += !is(r, e);
        F->neg(r, a), mpz_neg(e, za), mpz_mod(e, e, q), bad_neg += !is(r, e);
        F->dbl(r, a), mpz_mul_2exp(e, za, 1), mpz_mod(e, e, q), bad_dbl += !is(r, e);
        /* aliasing for the additive ops: r == a and r == b */
        uint64_t c[8];
        memcpy(c, a, sizeof c), F->sub(c, c, b), mpz_sub(e, za, zb), mpz_mod(e, e, q), bad_alias += !is(c, e);
        memcpy(c, b, sizeof c), F->sub(c, a, c), bad_alias += !is(c, e);
        memcpy(c, a, sizeof c), F->neg(c, c), mpz_neg(e, za), mpz_mod(e, e, q), bad_alias += !is(c, e);
        if (i >= n_inv && i >= N_EDGE)
            continue;
        F->inv(r, a);
        if (mpz_sgn(za) == 0)
            bad_inv += !F->is_zero(r);
        else
            mpz_invert(e, za, q), bad_inv += !is(r, e);
        memcpy(c, a, sizeof c), F->inv(c, c), bad_alias += memcmp(c, r, 8 * (size_t)F->n) != 0;
        F->inv_fermat(c, a), bad_inv += memcmp(c, r, 8 * (size_t)F->n) != 0;
        if (F->inv_vartime)
            F->inv_vartime(c, a), bad_inv += memcmp(c, r, 8 * (size_t)F->n) != 0;
        /* pow with exponents of 1..n+1 limbs, including zero and q-1 */
        uint64_t ex[9];
        size_t el = 1 + (size_t)test_rand_below((uint64_t)F->n + 1);
        for (size_t k = 0; k < el; k++)
            ex[k] = test_rand64();
        if (i % 7 == 0)
            memset(ex, 0, sizeof ex);
        if (i % 7 == 1)
            memcpy(ex, F->mod, 8 * (size_t)F->n), ex[0]--, el = (size_t)F->n;
        mpz_t ze;
        mpz_init(ze);
        mpz_import(ze, el, -1, 8, 0, 0, ex);
        mpz_powm(e, za, ze, q);
        mpz_clear(ze);
        F->pow(r, a, ex, el), bad_pow += !is(r, e);
        int leg = F->legendre(a);
        bad_leg += leg != mpz_legendre(za, q);
        /* the square root of a² exists and squares back */
        mpz_mul(e, za, za), mpz_mod(e, e, q), elt(b, e);
        bool ok = F->sqrt(r, b);
        if (!ok) {
            bad_sqrt++;
        } else {
            val(zb, r), mpz_mul(zb, zb, zb), mpz_mod(zb, zb, q), bad_sqrt += mpz_cmp(zb, e) != 0;
        }
        if (leg == -1) {
            memcpy(r, b, sizeof r);
            bad_sqrt += F->sqrt(r, a) || memcmp(r, b, 8 * (size_t)F->n) != 0; /* rejected, r untouched */
        } else {
            ok = F->sqrt(r, a);
            if (!ok)
                bad_sqrt++;
            else
                val(zb, r), mpz_mul(zb, zb, zb), mpz_mod(zb, zb, q), bad_sqrt += mpz_cmp(zb, za) != 0;
        }
    }
    CHECK_MSG(bad_add == 0, "%s add: %lu", F->name, bad_add);
    CHECK_MSG(bad_sub == 0, "%s sub: %lu", F->name, bad_sub);
    CHECK_MSG(bad_neg == 0, "%s neg: %lu", F->name, bad_neg);
    CHECK_MSG(bad_dbl == 0, "%s dbl: %lu", F->name, bad_dbl);
    CHECK_MSG(bad_alias == 0, "%s aliasing: %lu", F->name, bad_alias);
    CHECK_MSG(bad_inv == 0, "%s inv: %lu", F->name, bad_inv);
    CHECK_MSG(bad_pow == 0, "%s pow: %lu", F->name, bad_pow);
    CHECK_MSG(bad_leg == 0, "%s legendre: %lu", F->name, bad_leg);
    CHECK_MSG(bad_sqrt == 0, "%s sqrt: %lu", F->name, bad_sqrt);
    mpz_clears(za, zb, e, NULL);
}

/* Conversions and encodings: from_u64, to/from Montgomery, bytes LE/BE round trips, and rejection
 * of every encoding of a value >= q. */
static void check_encodings(void)
{
    uint64_t a[8], r[8], c[8];
    uint8_t le[64], be[64], buf[64];
    mpz_t za, e;
    mpz_inits(za, e, NULL);
    unsigned long bad = 0;
    for (int i = 0; i < N_RAND; i++) {
        uint64_t v = i < 3 ? (uint64_t)i : i == 3 ? UINT64_MAX : test_rand64();
        F->from_u64(r, v), mpz_set_ui(e, v), bad += !is(r, e);
        rand_elt(a, i);
        val(za, a);
        F->from_mont(c, a), mpz_to_limbs(r, za, F->n), bad += memcmp(c, r, 8 * (size_t)F->n) != 0;
        F->to_mont(r, c), bad += memcmp(r, a, 8 * (size_t)F->n) != 0;
        F->to_le(le, a), F->to_be(be, a);
        for (int k = 0; k < F->bytes; k++)
            bad += le[k] != be[F->bytes - 1 - k];
        memset(buf, 0, sizeof buf);
        mpz_export(buf, NULL, -1, 1, 0, 0, za);
        bad += memcmp(buf, le, (size_t)F->bytes) != 0;
        bad += !F->from_le(r, le) || memcmp(r, a, 8 * (size_t)F->n) != 0;
        bad += !F->from_be(r, be) || memcmp(r, a, 8 * (size_t)F->n) != 0;
    }
    CHECK_MSG(bad == 0, "%s conversions/encodings: %lu", F->name, bad);
    /* Non-canonical: q, q+1, q + random, 2^(8·bytes) - 1. */
    unsigned long accepted = 0;
    for (int i = 0; i < 200; i++) {
        if (i == 0)
            mpz_set(e, q);
        else if (i == 1)
            mpz_add_ui(e, q, 1);
        else if (i == 2)
            mpz_set_ui(e, 0), mpz_setbit(e, 8 * (unsigned)F->bytes), mpz_sub_ui(e, e, 1);
        else {
            uint64_t l[8];
            for (int k = 0; k < F->n; k++)
                l[k] = test_rand64();
            mpz_from_limbs(e, l, F->n);
            if (mpz_cmp(e, q) < 0)
                mpz_add(e, e, q);
            if (mpz_sizeinbase(e, 2) > 8 * (size_t)F->bytes)
                mpz_set(e, q);
        }
        memset(le, 0, sizeof le);
        mpz_export(le, NULL, -1, 1, 0, 0, e);
        for (int k = 0; k < F->bytes; k++)
            be[k] = le[F->bytes - 1 - k];
        accepted += F->from_le(r, le);
        accepted += F->from_be(r, be);
    }
    CHECK_MSG(accepted == 0, "%s: %lu non-canonical encodings accepted", F->name, accepted);
    mpz_clears(za, e, NULL);
}

/* Inversion on representatives with long runs of zero or one bits (powers of two, 2^k - 1,
 * q - 2^k), the inputs that drive the divstep loop to its extremes. */
static void check_inv_edges(void)
{
    uint64_t a[8], r[8];
    mpz_t z, e, ze;
    mpz_inits(z, e, ze, NULL);
    unsigned long bad = 0;
    for (unsigned k = 0; k + 2 < 64 * (unsigned)F->n; k++) {
        for (int form = 0; form < 3; form++) {
            mpz_set_ui(z, 0), mpz_setbit(z, k);
            if (form == 1)
                mpz_sub_ui(z, z, 1);
            if (form == 2)
                mpz_sub(z, q, z);
            mpz_mod(z, z, q);
            mpz_to_limbs(a, z, F->n);
            val(ze, a);
            for (int vt = 0; vt < 2; vt++) {
                if (vt && !F->inv_vartime)
                    break;
                (vt ? F->inv_vartime : F->inv)(r, a);
                if (mpz_sgn(ze) == 0)
                    bad += !F->is_zero(r);
                else
                    mpz_invert(e, ze, q), bad += !is(r, e);
            }
        }
    }
    CHECK_MSG(bad == 0, "%s inverse of structured inputs: %lu", F->name, bad);
    mpz_clears(z, e, ze, NULL);
}

static void check_batch_inv(void)
{
    size_t sizes[] = {0, 1, 2, 7, 300, 600};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        uint64_t *in = calloc(n + 1, 64), *out = calloc(n + 1, 64), *al = calloc(n + 1, 64);
        for (size_t i = 0; i < n; i++) {
            if (test_rand_below(4) == 0 || i == 0)
                memset(in + 8 * i, 0, 64);
            else
                rand_elt(in + 8 * i, 100);
        }
        /* the API takes packed elements of n limbs */
        uint64_t *pin = calloc(n + 1, 64), *pout = calloc(n + 1, 64);
        for (size_t i = 0; i < n; i++)
            memcpy(pin + (size_t)F->n * i, in + 8 * i, 8 * (size_t)F->n);
        F->batch_inv(pout, pin, n);
        memcpy(al, pin, 8 * (size_t)F->n * n);
        F->batch_inv(al, al, n);
        unsigned long bad = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t r[8];
            F->inv(r, pin + (size_t)F->n * i);
            bad += memcmp(r, pout + (size_t)F->n * i, 8 * (size_t)F->n) != 0;
            bad += memcmp(r, al + (size_t)F->n * i, 8 * (size_t)F->n) != 0;
        }
        CHECK_MSG(bad == 0, "%s batch_inv n=%zu: %lu", F->name, n, bad);
        free(in), free(out), free(al), free(pin), free(pout);
    }
}

/* Fp wide products and lazy reductions (used by Fp2 multiplication) against GMP, for every
 * implementation, on reduced and on unreduced (sum of two elements) operands. */
static void check_wide(void)
{
    struct {
        const char *name;
        void (*mul)(uint64_t *, const uint64_t *, const uint64_t *);
        void (*redc)(fp *, const uint64_t *);
    } impls[3] = {{"portable", fp_mul_wide_portable, fp_redc_portable}, {"dispatched", fp_mul_wide, fp_redc}};
    int n = 2;
#ifdef CUZK_FF_HAVE_ADX
    if (cuzk_impl_supported(CUZK_IMPL_ADX))
        impls[n].name = "adx", impls[n].mul = fp_mul_wide_adx, impls[n].redc = fp_redc_adx, n++;
#endif
    mpz_t za, zb, e, t, pR;
    mpz_inits(za, zb, e, t, pR, NULL);
    mpz_mul_2exp(pR, q, 384);
    for (int k = 0; k < n; k++) {
        unsigned long bad_mul = 0, bad_redc = 0;
        for (int i = 0; i < N_RAND; i++) {
            uint64_t a[8], b[8], w[12];
            fp r;
            edge_or_random(a, i % (N_EDGE * 2) < N_EDGE ? i % (N_EDGE * 2) : 100);
            edge_or_random(b, (i / 3) % (N_EDGE * 2) < N_EDGE ? (i / 3) % (N_EDGE * 2) : 100);
            if (i & 1) { /* unreduced sums up to 2p */
                uint64_t c[8];
                edge_or_random(c, 100);
                limbs_add_test(a, a, c);
            }
            mpz_from_limbs(za, a, 6), mpz_from_limbs(zb, b, 6), mpz_mul(e, za, zb);
            impls[k].mul(w, a, b);
            mpz_from_limbs(t, w, 12);
            bad_mul += mpz_cmp(t, e) != 0;
            /* reduce the product and an arbitrary value below p·2^384 */
            if (mpz_cmp(e, pR) < 0) {
                impls[k].redc(&r, w);
                mpz_mul(t, e, Rinv), mpz_mod(t, t, q);
                bad_redc += !raw_eq_mpz(r.l, t);
            }
            for (int j = 0; j < 12; j++)
                w[j] = test_rand64();
            mpz_from_limbs(e, w, 12);
            if (i % 5 == 0)
                mpz_sub_ui(e, pR, 1 + (unsigned long)i), mpz_to_limbs(w, e, 12);
            mpz_mod(e, e, pR), mpz_to_limbs(w, e, 12);
            impls[k].redc(&r, w);
            mpz_mul(t, e, Rinv), mpz_mod(t, t, q);
            bad_redc += !raw_eq_mpz(r.l, t);
        }
        CHECK_MSG(bad_mul == 0, "fp_mul_wide %s: %lu", impls[k].name, bad_mul);
        CHECK_MSG(bad_redc == 0, "fp_redc %s: %lu", impls[k].name, bad_redc);
    }
    mpz_clears(za, zb, e, t, pR, NULL);
}

static void run_field(field *f)
{
    F = f;
    mpz_set_str(q, f->q_hex, 16);
    mpz_set_ui(R, 0), mpz_setbit(R, 64 * (unsigned)f->n);
    mpz_invert(Rinv, R, q);
    check_constants();
    for (int i = 0; i < f->n_impls; i++)
        check_mul_impl(f->impls[i].name, f->impls[i].mul, f->impls[i].sqr);
    /* The dispatched operations under every implementation this CPU runs. */
    cuzk_init_options_t saved = cuzk_dispatch()->asked;
    for (int impl = CUZK_IMPL_PORTABLE; impl <= CUZK_IMPL_IFMA; impl++) {
        if (cuzk_dispatch_use((cuzk_impl_t)impl) != CUZK_OK)
            continue;
        printf("  %s: dispatched ops with impl=%s\n", f->name, cuzk_impl_name((cuzk_impl_t)impl));
        check_mul_impl(cuzk_impl_name((cuzk_impl_t)impl), f->mul, f->sqr);
        check_arith();
        check_encodings();
        check_batch_inv();
        check_inv_edges();
        if (f == &FP_F)
            check_wide();
    }
    CHECK(cuzk_dispatch_reinit(&saved, NULL) == CUZK_OK);
}

static void check_fr_extras(void)
{
    /* FR_ROOT_OF_UNITY_2_32 = 7^((r-1)/2^32) has order exactly 2^32. */
    mpz_t t, e, z;
    mpz_inits(t, e, z, NULL);
    F = &FR_F;
    mpz_set_str(q, F->q_hex, 16);
    mpz_set_ui(R, 0), mpz_setbit(R, 256);
    mpz_invert(Rinv, R, q);
    mpz_sub_ui(t, q, 1);
    CHECK(mpz_scan1(t, 0) == FR_TWO_ADICITY);
    mpz_fdiv_q_2exp(t, t, FR_TWO_ADICITY);
    mpz_set_ui(z, 7), mpz_powm(e, z, t, q);
    CHECK(is(FR_ROOT_OF_UNITY_2_32.l, e));
    mpz_set_ui(t, 0), mpz_setbit(t, 31), mpz_powm(z, e, t, q);
    mpz_add_ui(z, z, 1);
    CHECK(mpz_cmp(z, q) == 0); /* (root)^(2^31) = -1 */
    /* scalar conversions */
    for (int i = 0; i < 100; i++) {
        fr a, b;
        cuzk_scalar_t s;
        rand_elt(a.l, i);
        fr_to_scalar(&s, &a);
        val(e, a.l);
        CHECK(raw_eq_mpz(s.l, e));
        fr_from_scalar(&b, &s);
        CHECK(fr_eq(&a, &b));
    }
    /* fr_mul_many (IFMA lanes under the IFMA dispatch, else fr_mul) against the product in GMP, every length
     * around the 8-lane rows, written in place over a and over b, nothing past n touched */
    enum { NM = 37 };
    fr a[NM], b[NM], r[NM + 1];
    for (int i = 0; i < NM; i++) {
        rand_elt(a[i].l, i);
        rand_elt(b[i].l, NM - 1 - i);
    }
    for (size_t n = 0; n <= NM; n++) {
        for (int alias = 0; alias < 3; alias++) {
            fr x[NM + 1];
            memcpy(x, alias == 2 ? b : a, sizeof a);
            fr *out = alias ? x : r;
            memset(&out[n], 0xee, sizeof out[n]);
            fr_mul_many(out, alias == 1 ? x : a, alias == 2 ? x : b, n);
            for (size_t i = 0; i < n; i++) {
                val(e, a[i].l), val(z, b[i].l);
                mpz_mul(t, e, z), mpz_mod(t, t, q);
                CHECK_MSG(is(out[i].l, t), "fr_mul_many n=%zu alias %d element %zu", n, alias, i);
            }
            CHECK(out[n].l[0] == 0xeeeeeeeeeeeeeeeeull);
        }
    }
    mpz_clears(t, e, z, NULL);
}

int main(void)
{
    test_init("test_fp_fr");
    mpz_inits(q, R, Rinv, tmp, NULL);
    FP_F.inv_vartime = fp_inv_vartime_w;
#ifdef CUZK_FF_HAVE_ADX
    if (cuzk_impl_supported(CUZK_IMPL_ADX)) {
        FP_F.impls[1].name = "adx", FP_F.impls[1].mul = fp_mul_adx_w, FP_F.impls[1].sqr = fp_sqr_adx_w;
        FR_F.impls[1].name = "adx", FR_F.impls[1].mul = fr_mul_adx_w, FR_F.impls[1].sqr = fr_sqr_adx_w;
        FP_F.n_impls = FR_F.n_impls = 2;
    } else {
        printf("  ADX not supported by this CPU: only the portable implementation is tested\n");
    }
#endif
    run_field(&FP_F);
    run_field(&FR_F);
    check_fr_extras();
    mpz_clears(q, R, Rinv, tmp, NULL);
    return test_finish();
}
