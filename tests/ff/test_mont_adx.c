/* The ADX Montgomery multiplication against GMP where its reduction is delicate: the constant
 * table of the friendly steps (Q = (n0·q + 1) / 2^64, the limb of -r^-1 mod 2^128), products whose
 * result sits at the edges of the final conditional subtraction (0, 1, 2, q-1, q-2, (q±1)/2 for
 * many multiplicands), products of the largest inputs, and aliased arguments. */
#include <stdlib.h>
#include <string.h>
#include "ff/ff_impl.h"
#include "ff/fp.h"
#include "ff/fr.h"
#include "ff/mont.h"
#include "ff/mont_adx.h"
#include "ff_gmp.h"

#ifdef CUZK_SANITIZE
#define N_MULTIPLICANDS 60
#else
#define N_MULTIPLICANDS 600
#endif

typedef void (*mulfn)(uint64_t *, const uint64_t *, const uint64_t *);

#ifdef CUZK_FF_HAVE_ADX
static void fp_adx_w(uint64_t *r, const uint64_t *a, const uint64_t *b) { fp_mul_adx((fp *)r, (const fp *)a, (const fp *)b); }
static void fr_adx_w(uint64_t *r, const uint64_t *a, const uint64_t *b) { fr_mul_adx((fr *)r, (const fr *)a, (const fr *)b); }
static void fp_disp_w(uint64_t *r, const uint64_t *a, const uint64_t *b) { fp_mul((fp *)r, (const fp *)a, (const fp *)b); }
static void fr_disp_w(uint64_t *r, const uint64_t *a, const uint64_t *b) { fr_mul((fr *)r, (const fr *)a, (const fr *)b); }

typedef struct {
    const char *name;
    int n;
    const char *q_hex;
    const uint64_t *k; /* the asm's constant table */
    int q_at;          /* index of Q's first limb in k */
    mulfn adx, dispatched;
} field;

static const field FIELDS[2] = {
    {"fp", 6,
     "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
     FP_ADX_K, 8, fp_adx_w, fp_disp_w},
    {"fr", 4, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", FR_ADX_K, 6,
     fr_adx_w, fr_disp_w},
};

static const field *F;
static mpz_t q, R, Rinv, w64;

static void set_field(const field *f)
{
    F = f;
    mpz_set_str(q, f->q_hex, 16);
    mpz_set_ui(R, 0), mpz_setbit(R, 64 * (unsigned)f->n);
    mpz_invert(Rinv, R, q);
}

/* Q = (n0·q + 1) / 2^64 with n0 = -q^-1 mod 2^64, then all-ones; for Fr also the high limb of
 * -r^-1 mod 2^128. */
static void check_table(void)
{
    mpz_t n0, t;
    mpz_inits(n0, t, NULL);
    mpz_invert(n0, q, w64), mpz_neg(n0, n0), mpz_mod(n0, n0, w64);
    mpz_mul(t, n0, q), mpz_add_ui(t, t, 1);
    CHECK(mpz_divisible_2exp_p(t, 64));
    mpz_fdiv_q_2exp(t, t, 64);
    uint64_t l[8];
    mpz_to_limbs(l, t, F->n);
    CHECK_MSG(mpz_sizeinbase(t, 2) <= (size_t)(64 * F->n) &&
                  memcmp(l, F->k + F->q_at, 8 * (size_t)F->n) == 0,
              "%s: Q = (n0·q + 1) / 2^64 in the constant table", F->name);
    CHECK_MSG(F->k[F->q_at + F->n] == UINT64_MAX, "%s: all-ones word after Q", F->name);
    if (F->n == 4) {
        mpz_t w128;
        mpz_init(w128);
        mpz_setbit(w128, 128);
        mpz_invert(t, q, w128), mpz_neg(t, t), mpz_mod(t, t, w128);
        CHECK(mpz_get_ui(t) == F->k[4]); /* its low limb is n0 */
        mpz_fdiv_q_2exp(t, t, 64);
        CHECK_MSG(mpz_get_ui(t) == F->k[11], "fr: high limb of -r^-1 mod 2^128");
        mpz_clear(w128);
    }
    mpz_clears(n0, t, NULL);
}

/* Multiplicand i: the largest values first, then random ones. */
static void multiplicand(mpz_t z, int i)
{
    switch (i) {
    case 0: mpz_sub_ui(z, q, 1); break;
    case 1: mpz_sub_ui(z, q, 2); break;
    case 2: mpz_set_ui(z, 1); break;
    case 3: mpz_mod(z, R, q); break;                           /* raw R mod q: the value 1 */
    case 4: mpz_set_ui(z, 0), mpz_setbit(z, 64 * (unsigned)F->n - 1), mpz_mod(z, z, q); break;
    case 5: mpz_set_ui(z, 0), mpz_setbit(z, 64 * (unsigned)(F->n - 1)), mpz_sub(z, q, z); break;
    default: mpz_rand_below(z, q, F->n); break;
    }
}

/* mul(a, b) = c for raw Montgomery limbs: b = c·R·a^-1, so the result is c exactly. The
 * unreduced sum before the final subtraction is c or c + q, which puts both sides of that
 * subtraction at their extremes for c near 0 and q. */
static void check_targets(const char *impl, mulfn mul)
{
    mpz_t a, b, c;
    mpz_inits(a, b, c, NULL);
    unsigned long bad = 0, runs = 0;
    for (int i = 0; i < N_MULTIPLICANDS; i++) {
        multiplicand(a, i);
        if (mpz_sgn(a) == 0)
            continue;
        for (int j = 0; j < 8; j++) {
            switch (j) {
            case 0: mpz_set_ui(c, 0); break;
            case 1: mpz_set_ui(c, 1); break;
            case 2: mpz_set_ui(c, 2); break;
            case 3: mpz_sub_ui(c, q, 1); break;
            case 4: mpz_sub_ui(c, q, 2); break;
            case 5: mpz_fdiv_q_2exp(c, q, 1); break;
            case 6: mpz_fdiv_q_2exp(c, q, 1), mpz_add_ui(c, c, 1); break;
            default: mpz_rand_below(c, q, F->n); break;
            }
            mpz_invert(b, a, q), mpz_mul(b, b, c), mpz_mul(b, b, R), mpz_mod(b, b, q);
            uint64_t la[8], lb[8], lc[8], r[8], x[8];
            mpz_to_limbs(la, a, F->n), mpz_to_limbs(lb, b, F->n), mpz_to_limbs(lc, c, F->n);
            size_t sz = 8 * (size_t)F->n;
            mul(r, la, lb), bad += memcmp(r, lc, sz) != 0;
            mul(r, lb, la), bad += memcmp(r, lc, sz) != 0;
            memcpy(x, la, sz), mul(x, x, lb), bad += memcmp(x, lc, sz) != 0; /* r == a */
            memcpy(x, lb, sz), mul(x, la, x), bad += memcmp(x, lc, sz) != 0; /* r == b */
            runs += 4;
        }
    }
    CHECK_MSG(bad == 0, "%s %s: %lu of %lu products with results at the subtraction edges wrong",
              F->name, impl, bad, runs);
    mpz_clears(a, b, c, NULL);
}

/* Every pair of the largest inputs, and squares through mul(x, x, x). */
static void check_large(const char *impl, mulfn mul)
{
    mpz_t a, b, e;
    mpz_inits(a, b, e, NULL);
    unsigned long bad = 0;
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
            multiplicand(a, i < 6 ? i : 100), multiplicand(b, j < 6 ? j : 100);
            uint64_t la[8], lb[8], r[8];
            mpz_to_limbs(la, a, F->n), mpz_to_limbs(lb, b, F->n);
            mul(r, la, lb);
            mpz_mul(e, a, b), mpz_mul(e, e, Rinv), mpz_mod(e, e, q);
            uint64_t le[8];
            mpz_to_limbs(le, e, F->n);
            bad += memcmp(r, le, 8 * (size_t)F->n) != 0;
            memcpy(r, la, sizeof r), mul(r, r, r);
            mpz_mul(e, a, a), mpz_mul(e, e, Rinv), mpz_mod(e, e, q), mpz_to_limbs(le, e, F->n);
            bad += memcmp(r, le, 8 * (size_t)F->n) != 0;
        }
    }
    CHECK_MSG(bad == 0, "%s %s: %lu products of large inputs wrong", F->name, impl, bad);
    mpz_clears(a, b, e, NULL);
}
#endif

int main(void)
{
    test_init("test_mont_adx");
#ifdef CUZK_FF_HAVE_ADX
    mpz_inits(q, R, Rinv, w64, NULL);
    mpz_setbit(w64, 64);
    for (int f = 0; f < 2; f++) {
        set_field(&FIELDS[f]);
        check_table();
        if (!cuzk_impl_supported(CUZK_IMPL_ADX)) {
            printf("  ADX not supported by this CPU: only the constant table is checked\n");
            continue;
        }
        check_targets("adx", F->adx);
        check_large("adx", F->adx);
        cuzk_init_options_t saved = cuzk_dispatch()->asked;
        CHECK(cuzk_dispatch_use(CUZK_IMPL_ADX) == CUZK_OK);
        check_targets("dispatched", F->dispatched);
        check_large("dispatched", F->dispatched);
        CHECK(cuzk_dispatch_reinit(&saved, NULL) == CUZK_OK);
    }
    mpz_clears(q, R, Rinv, w64, NULL);
#else
    printf("  not an x86-64 build: nothing to check\n");
#endif
    return test_finish();
}
