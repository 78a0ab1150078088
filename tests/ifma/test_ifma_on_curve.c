/* The batched curve-membership kernels (ec_ifma_ops.g1_on_curve_n / g2_on_curve_n) and their dispatcher
 * g1_aff_first_off_curve / g2_aff_first_off_curve, against the curve equations evaluated in GMP:
 * curve points, points with one coordinate changed, infinity, (0, ±2) (on G1's curve), coordinates
 * p − 1, every length around the 8-lane rows; real build against the emulated one where it runs.
 * Likewise the batched Montgomery conversion of decoded coordinates (fp_to_mont_n, fp_to_mont_many)
 * against v·2^384 mod p in GMP: 0, 1, p − 1 and random values below p. */
#include <stdlib.h>
#include <string.h>
#include "ec/ec.h"
#include "ff/fp.h"
#include "ifma_test.h"

#define N 77

static mpz_t P;

static void fp_get(mpz_t v, const fp *a)
{
    uint64_t w[FP_LIMBS];
    fp_from_mont(w, a);
    words_get(v, w, FP_LIMBS);
}

/* GMP: y² == x³ + 4 (G1), or (0, 0). */
static int g1_oracle(const g1_aff *p)
{
    mpz_t x, y, l, r;
    mpz_inits(x, y, l, r, NULL);
    fp_get(x, &p->x);
    fp_get(y, &p->y);
    int inf = mpz_sgn(x) == 0 && mpz_sgn(y) == 0;
    mpz_mul(l, y, y);
    mpz_powm_ui(r, x, 3, P);
    mpz_add_ui(r, r, 4);
    mpz_sub(l, l, r);
    mpz_mod(l, l, P);
    int ok = inf || mpz_sgn(l) == 0;
    mpz_clears(x, y, l, r, NULL);
    return ok;
}

/* (a0 + a1 u)(b0 + b1 u) mod p, u² = −1. */
static void mul2(mpz_t r0, mpz_t r1, const mpz_t a0, const mpz_t a1, const mpz_t b0, const mpz_t b1)
{
    mpz_t t0, t1;
    mpz_inits(t0, t1, NULL);
    mpz_mul(t0, a0, b0);
    mpz_submul(t0, a1, b1);
    mpz_mul(t1, a0, b1);
    mpz_addmul(t1, a1, b0);
    mpz_mod(r0, t0, P);
    mpz_mod(r1, t1, P);
    mpz_clears(t0, t1, NULL);
}

/* GMP: y² == x³ + 4(1 + u) (G2), or all zero. */
static int g2_oracle(const g2_aff *p)
{
    mpz_t x0, x1, y0, y1, l0, l1, s0, s1;
    mpz_inits(x0, x1, y0, y1, l0, l1, s0, s1, NULL);
    fp_get(x0, &p->x.c0);
    fp_get(x1, &p->x.c1);
    fp_get(y0, &p->y.c0);
    fp_get(y1, &p->y.c1);
    int inf = !mpz_sgn(x0) && !mpz_sgn(x1) && !mpz_sgn(y0) && !mpz_sgn(y1);
    mul2(l0, l1, y0, y1, y0, y1);
    mul2(s0, s1, x0, x1, x0, x1);
    mul2(s0, s1, s0, s1, x0, x1);
    mpz_add_ui(s0, s0, 4);
    mpz_add_ui(s1, s1, 4);
    mpz_sub(l0, l0, s0);
    mpz_sub(l1, l1, s1);
    mpz_mod(l0, l0, P);
    mpz_mod(l1, l1, P);
    int ok = inf || (!mpz_sgn(l0) && !mpz_sgn(l1));
    mpz_clears(x0, x1, y0, y1, l0, l1, s0, s1, NULL);
    return ok;
}

static void fp_max(fp *a) /* p − 1 */
{
    fp one;
    fp_from_u64(&one, 1);
    memset(a, 0, sizeof *a);
    fp_sub(a, a, &one);
}

/* Curve points (multiples of the generators), with every third one damaged in some way. */
static void make_points(g1_aff *p1, g2_aff *p2, size_t n)
{
    g1_aff g1;
    g2_aff g2;
    g1_generator(&g1);
    g2_generator(&g2);
    g1_jac j1, a1;
    g2_jac j2, a2;
    g1_jac_from_aff(&j1, &g1);
    g2_jac_from_aff(&j2, &g2);
    fp one;
    fp_from_u64(&one, 1);
    for (size_t i = 0; i < n; i++) {
        cuzk_scalar_t k = {{test_rand64(), test_rand64(), test_rand64(), test_rand64() >> 2}};
        g1_jac_mul(&a1, &j1, &k);
        g2_jac_mul(&a2, &j2, &k);
        g1_jac_to_aff(&p1[i], &a1);
        g2_jac_to_aff(&p2[i], &a2);
        switch (test_rand64() % 9) {
        case 0: fp_add(&p1[i].y, &p1[i].y, &one); fp_add(&p2[i].y.c1, &p2[i].y.c1, &one); break;
        case 1: fp_add(&p1[i].x, &p1[i].x, &one); fp_add(&p2[i].x.c0, &p2[i].x.c0, &one); break;
        case 2: memset(&p1[i], 0, sizeof p1[i]); memset(&p2[i], 0, sizeof p2[i]); break;
        case 3: /* (0, ±2) is on y² = x³ + 4; on G2 (0, 2) is not */
            memset(&p1[i], 0, sizeof p1[i]);
            fp_from_u64(&p1[i].y, 2);
            if (test_rand64() & 1)
                fp_neg(&p1[i].y, &p1[i].y);
            memset(&p2[i], 0, sizeof p2[i]);
            fp_from_u64(&p2[i].y.c0, 2);
            break;
        case 4: fp_max(&p1[i].x); fp_max(&p2[i].y.c0); fp_max(&p2[i].x.c1); break;
        case 5: memset(&p1[i].y, 0, sizeof(fp)); memset(&p2[i].x, 0, sizeof(fp2)); break;
        default: break;
        }
    }
}

/* fp_to_mont_n / fp_to_mont_many over raw values below p: each result is v·2^384 mod p (GMP), nothing
 * past n is touched. */
#define NM 43
static void check_to_mont(void)
{
    fp raw[NM], want[NM], got[NM + 1];
    mpz_t v, w;
    mpz_inits(v, w, NULL);
    for (size_t i = 0; i < NM; i++) { /* 0, 1, p − 1, p − 2, then random values below 2^380 < p */
        if (i < 2)
            mpz_set_ui(v, i);
        else if (i < 4)
            mpz_sub_ui(v, P, i - 1);
        else {
            for (int j = 0; j < FP_LIMBS; j++)
                raw[i].l[j] = test_rand64();
            raw[i].l[FP_LIMBS - 1] &= 0x0fffffffffffffffull;
            words_get(v, raw[i].l, FP_LIMBS);
        }
        memset(&raw[i], 0, sizeof raw[i]);
        mpz_export(raw[i].l, NULL, -1, 8, 0, 0, v);
        mpz_mul_2exp(w, v, 384);
        mpz_mod(w, w, P);
        memset(&want[i], 0, sizeof want[i]);
        mpz_export(want[i].l, NULL, -1, 8, 0, 0, w);
    }
    const ec_ifma_ops *impls[2];
    int ni = ec_ifma_test_impls(impls);
    for (int k = 0; k <= ni; k++) { /* the kernels, then the dispatcher as it stands */
        for (size_t n = 0; n <= NM; n += (n < 20 ? 1 : 11)) {
            memcpy(got, raw, n * sizeof *got);
            memset(&got[n], 0xee, sizeof got[n]);
            if (k < ni)
                impls[k]->fp_to_mont_n(got, n);
            else
                fp_to_mont_many(got, n);
            for (size_t i = 0; i < n; i++)
                CHECK_MSG(memcmp(&got[i], &want[i], sizeof got[i]) == 0, "%s to_mont n=%zu value %zu",
                          k < ni ? impls[k]->name : "dispatcher", n, i);
            CHECK(got[n].l[0] == 0xeeeeeeeeeeeeeeeeull); /* nothing past n */
        }
    }
    mpz_clears(v, w, NULL);
}

int main(void)
{
    test_init("test_ifma_on_curve");
    mpz_init_set_str(P, P_HEX, 16);
    g1_aff p1[N];
    g2_aff p2[N];
    make_points(p1, p2, N);
    uint8_t want1[N], want2[N], ok[N];
    int bad1 = 0, bad2 = 0;
    for (size_t i = 0; i < N; i++) {
        want1[i] = (uint8_t)g1_oracle(&p1[i]);
        want2[i] = (uint8_t)g2_oracle(&p2[i]);
        bad1 += !want1[i];
        bad2 += !want2[i];
        CHECK_MSG(g1_aff_on_curve(&p1[i]) == want1[i], "scalar G1 check, point %zu", i);
        CHECK_MSG(g2_aff_on_curve(&p2[i]) == want2[i], "scalar G2 check, point %zu", i);
    }
    CHECK(bad1 > 0 && bad1 < N && bad2 > 0 && bad2 < N); /* both kinds are present */

    const ec_ifma_ops *impls[2];
    int ni = ec_ifma_test_impls(impls);
    for (int k = 0; k < ni; k++) {
        for (size_t off = 0; off < 3; off++) {
            for (size_t n = 0; off + n <= N; n += (n < 20 ? 1 : 23)) {
                memset(ok, 0xee, sizeof ok);
                impls[k]->g1_on_curve_n(p1 + off, n, ok);
                for (size_t i = 0; i < n; i++)
                    CHECK_MSG(ok[i] == want1[off + i], "%s G1 n=%zu point %zu", impls[k]->name, n, off + i);
                CHECK(n == N || ok[n] == 0xee); /* nothing past n */
                memset(ok, 0xee, sizeof ok);
                impls[k]->g2_on_curve_n(p2 + off, n, ok);
                for (size_t i = 0; i < n; i++)
                    CHECK_MSG(ok[i] == want2[off + i], "%s G2 n=%zu point %zu", impls[k]->name, n, off + i);
                CHECK(n == N || ok[n] == 0xee);
            }
        }
    }

    /* The dispatcher under every implementation this CPU runs (IFMA lanes or the scalar check): the
     * first failing index. */
    size_t first1 = N, first2 = N;
    for (size_t i = N; i-- > 0;) {
        if (!want1[i])
            first1 = i;
        if (!want2[i])
            first2 = i;
    }
    cuzk_init_options_t saved = cuzk_dispatch()->asked;
    for (int impl = CUZK_IMPL_PORTABLE; impl <= CUZK_IMPL_IFMA; impl++) {
        if (cuzk_dispatch_use((cuzk_impl_t)impl) != CUZK_OK)
            continue;
        printf("dispatcher with impl=%s: %s\n", cuzk_impl_name((cuzk_impl_t)impl),
               ec_lanes() ? ec_lanes()->name : "scalar");
        CHECK(g1_aff_first_off_curve(p1, N) == first1);
        CHECK(g2_aff_first_off_curve(p2, N) == first2);
        CHECK(g1_aff_first_off_curve(p1, first1) == first1);
        CHECK(g2_aff_first_off_curve(p2, 0) == 0);
        check_to_mont();
    }
    CHECK(cuzk_dispatch_reinit(&saved, NULL) == CUZK_OK);
    mpz_clear(P);
    return test_finish();
}
