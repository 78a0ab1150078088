/* The pieces under the MSM: signed-digit recoding (recomposed with GMP), the XYZZ formulas
 * (against the Jacobian arithmetic of src/ec, special cases included) and the window plan. */
#include <gmp.h>
#include <string.h>
#include "ec/ec.h"
#include "ff/fr.h"
#include "msm/digits.h"
#include "msm/msm_internal.h"
#include "msm/xyzz.h"
#include "test_util.h"

static mpz_t r;

static void test_constants(void)
{
    for (int i = 0; i < 4; i++)
        CHECK(MSM_R[i] == FR_MODULUS[i]);
    mpz_t h, rr;
    mpz_inits(h, rr, NULL);
    mpz_import(h, 4, -1, 8, 0, 0, MSM_R_HALF);
    mpz_sub_ui(rr, r, 1);
    mpz_fdiv_q_2exp(rr, rr, 1);
    CHECK(mpz_cmp(h, rr) == 0);
    mpz_clears(h, rr, NULL);
}

/* Σ_w d_w·2^(off_w) of the windows (c, wide) must give the folded scalar t; digits in range; the top
 * window never carries out. */
static bool digits_recompose(mpz_t acc, const uint64_t t[4], unsigned c, unsigned wide, unsigned nw)
{
    bool ok = true;
    mpz_set_ui(acc, 0);
    for (unsigned w = nw; w-- > 0;) {
        msm_window win;
        msm_window_init(&win, c, wide, w);
        unsigned width = win.c;
        /* the windows tile the bits: this one ends where the next one starts */
        ok &= msm_window_offset(c, wide, w) + width == msm_window_offset(c, wide, w + 1);
        int32_t d = msm_digit(t, &win);
        ok &= d <= (1 << (width - 1)) && d > -(1 << (width - 1));
        mpz_mul_2exp(acc, acc, width);
        if (d >= 0)
            mpz_add_ui(acc, acc, (unsigned long)d);
        else
            mpz_sub_ui(acc, acc, (unsigned long)-d);
    }
    return ok;
}

static void test_digits(void)
{
    mpz_t s, acc, t;
    mpz_inits(s, acc, t, NULL);
    for (int round = 0; round < 400; round++) {
        cuzk_scalar_t k;
        switch (round % 8) {
        case 0: memset(&k, 0, sizeof k); break;
        case 1: memset(&k, 0, sizeof k), k.l[0] = 1; break;
        case 2: memcpy(k.l, MSM_R, sizeof k.l), k.l[0] -= 1; break;            /* r − 1 */
        case 3: memcpy(k.l, MSM_R_HALF, sizeof k.l); break;                    /* (r − 1)/2 */
        case 4: memcpy(k.l, MSM_R_HALF, sizeof k.l), k.l[0] += 1; break;       /* (r + 1)/2 */
        default: test_rand_scalar(&k); break;
        }
        CHECK(msm_scalar_in_range(&k));
        mpz_import(s, 4, -1, 8, 0, 0, k.l);
        uint64_t f[4];
        bool neg = msm_scalar_fold(f, &k);
        /* Uniform windows of c bits (a narrow top), then the balanced splits of 255 bits into nw windows
         * (as the plans make them: c = 255 / nw, the lowest 255 mod nw one bit wider). */
        for (unsigned c = 1; c <= CUZK_MSM_MAX_WINDOW; c++) {
            bool ok = digits_recompose(acc, f, c, 0, msm_windows(c));
            if (neg)
                mpz_sub(acc, r, acc);
            CHECK_MSG(ok && mpz_cmp(acc, s) == 0, "digits c=%u round=%d", c, round);
        }
        for (unsigned nw = msm_windows(CUZK_MSM_MAX_WINDOW); nw <= 64; nw++) {
            bool ok = digits_recompose(acc, f, MSM_BITS_FULL / nw, MSM_BITS_FULL % nw, nw);
            if (neg)
                mpz_sub(acc, r, acc);
            CHECK_MSG(ok && mpz_cmp(acc, s) == 0, "digits of %u balanced windows, round=%d", nw, round);
        }
    }
    /* Range check of the scan. */
    cuzk_scalar_t k;
    memcpy(k.l, MSM_R, sizeof k.l);
    CHECK(!msm_scalar_in_range(&k));
    k.l[0] -= 1;
    CHECK(msm_scalar_in_range(&k));
    memset(&k, 0xff, sizeof k);
    CHECK(!msm_scalar_in_range(&k));
    mpz_clears(s, acc, t, NULL);
}

#define XYZZ_TESTS(G)                                                                 \
    static void test_xyzz_##G(void)                                                           \
    {                                                                                         \
        G##_aff g, inf;                                                                       \
        G##_generator(&g);                                                                    \
        G##_aff_set_inf(&inf);                                                                \
        G##_jac gj;                                                                           \
        G##_jac_from_aff(&gj, &g);                                                            \
        for (int round = 0; round < 40; round++) {                                            \
            cuzk_scalar_t a, b;                                                               \
            test_rand_scalar(&a);                                                            \
            test_rand_scalar(&b);                                                            \
            G##_jac pa, pb, want, t;                                                          \
            G##_jac_mul(&pa, &gj, &a);                                                        \
            G##_jac_mul(&pb, &gj, &b);                                                        \
            if (round % 5 == 1)                                                               \
                pb = pa; /* P + P */                                                          \
            if (round % 5 == 2)                                                               \
                G##_jac_neg(&pb, &pa); /* P − P */                                            \
            if (round % 5 == 3)                                                               \
                G##_jac_set_inf(&pb);                                                         \
            G##_aff qa, qb;                                                                   \
            G##_jac_to_aff(&qa, &pa);                                                         \
            G##_jac_to_aff(&qb, &pb);                                                         \
            msm_##G##_xyzz xa, xb, xr, xs;                                                    \
            msm_##G##_xyzz_from_jac(&xa, &pa);                                                \
            msm_##G##_xyzz_from_jac(&xb, &pb);                                                \
            /* Random projective scaling: XYZZ with ZZ ≠ 1 on both sides. */                 \
            msm_##G##_xyzz_dbl(&xa, &xa);                                                     \
            G##_jac_dbl(&pa, &pa);                                                            \
            G##_jac_to_aff(&qa, &pa);                                                         \
            if (round % 5 == 1)                                                               \
                xb = xa, pb = pa, qb = qa;                                                    \
            if (round % 5 == 2)                                                               \
                G##_jac_neg(&pb, &pa), G##_aff_neg(&qb, &qa), msm_##G##_xyzz_from_jac(&xb, &pb); \
            G##_jac_add(&want, &pa, &pb);                                                     \
            msm_##G##_xyzz_add(&xr, &xa, &xb);                                                \
            msm_##G##_xyzz_to_jac(&t, &xr);                                                   \
            CHECK_MSG(G##_jac_eq(&t, &want), #G " xyzz add round %d", round);                 \
            msm_##G##_xyzz_madd(&xr, &xa, &qb, false);                                        \
            msm_##G##_xyzz_to_jac(&t, &xr);                                                   \
            CHECK_MSG(G##_jac_eq(&t, &want), #G " xyzz madd round %d", round);                \
            G##_jac nb;                                                                       \
            G##_jac_neg(&nb, &pb);                                                            \
            G##_jac_add(&want, &pa, &nb);                                                     \
            msm_##G##_xyzz_madd(&xr, &xa, &qb, true);                                         \
            msm_##G##_xyzz_to_jac(&t, &xr);                                                   \
            CHECK_MSG(G##_jac_eq(&t, &want), #G " xyzz madd neg round %d", round);            \
            G##_jac_dbl(&want, &pa);                                                          \
            msm_##G##_xyzz_dbl(&xs, &xa);                                                     \
            msm_##G##_xyzz_to_jac(&t, &xs);                                                   \
            CHECK_MSG(G##_jac_eq(&t, &want), #G " xyzz dbl round %d", round);                 \
            G##_aff aff;                                                                      \
            msm_##G##_xyzz_to_aff(&aff, &xs);                                                 \
            G##_jac_from_aff(&t, &aff);                                                       \
            CHECK(G##_jac_eq(&t, &want));                                                     \
            /* Infinity on the left of every operation. */                                    \
            msm_##G##_xyzz_set_inf(&xs);                                                      \
            msm_##G##_xyzz_madd(&xr, &xs, &qa, false);                                        \
            msm_##G##_xyzz_to_jac(&t, &xr);                                                   \
            CHECK(G##_jac_eq(&t, &pa));                                                       \
            msm_##G##_xyzz_add(&xr, &xs, &xa);                                                \
            msm_##G##_xyzz_to_jac(&t, &xr);                                                   \
            CHECK(G##_jac_eq(&t, &pa));                                                       \
            msm_##G##_xyzz_madd(&xr, &xa, &inf, false);                                       \
            msm_##G##_xyzz_to_jac(&t, &xr);                                                   \
            CHECK(G##_jac_eq(&t, &pa));                                                       \
            msm_##G##_xyzz_dbl(&xr, &xs);                                                     \
            CHECK(msm_##G##_xyzz_is_inf(&xr));                                                \
        }                                                                                     \
    }
XYZZ_TESTS(g1)
XYZZ_TESTS(g2)

static void test_plan(void)
{
    for (unsigned lg = 0; lg <= 27; lg++)
        for (int t = 1; t <= 8; t++) {
            size_t n = (size_t)1 << lg;
            msm_plan p = msm_make_plan(MSM_G1, n, t, 0, MSM_BITS_FULL);
            /* A balanced split of the 255 bits: as many windows as its widest one needs. */
            unsigned widest = msm_plan_widest(&p);
            CHECK_MSG(p.c >= 1 && widest <= CUZK_MSM_MAX_WINDOW && p.wide < p.nwin &&
                          p.c * p.nwin + p.wide == MSM_BITS_FULL && p.nwin == msm_windows(widest) &&
                          p.parts >= 1 && p.batch >= 1 && p.queue >= 1,
                      "plan n=2^%u t=%d", lg, t);
            if ((lg == 20 || lg == 24) && t == 2)
                printf("plan n=2^%u threads=2: windows=%u (%u of %u bits, %u of %u) parts=%u affine=%d "
                       "batch=%zu\n", lg, p.nwin, p.wide, p.c + 1, p.nwin - p.wide, p.c, p.parts, p.affine,
                       p.batch);
        }
    /* A fixed window w: ⌈255/w⌉ windows, none wider than w; ⌈129/w⌉ for the GLV halves. */
    for (unsigned c = 1; c <= CUZK_MSM_MAX_WINDOW; c++) {
        msm_plan p = msm_make_plan(MSM_G2, 1000, 3, c, MSM_BITS_FULL);
        CHECK_MSG(p.nwin == msm_windows(c) && msm_plan_widest(&p) <= c &&
                      p.c * p.nwin + p.wide == MSM_BITS_FULL,
                  "plan window=%u", c);
        msm_plan q = msm_make_plan(MSM_G1, 1 << 16, 2, c, MSM_BITS_GLV);
        CHECK_MSG(q.nwin == msm_windows_bits(c, MSM_BITS_GLV) && msm_plan_widest(&q) <= c &&
                      q.c * q.nwin + q.wide == MSM_BITS_GLV,
                  "GLV plan window=%u", c);
    }
    CHECK(cuzk_msm_g1_window(1 << 16, 2) >= 1 && cuzk_msm_g2_window(1 << 16, 0) >= 1);
}

int main(void)
{
    test_init("test_msm_parts");
    mpz_init_set_str(r, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
    test_constants();
    test_digits();
    test_xyzz_g1();
    test_xyzz_g2();
    test_plan();
    mpz_clear(r);
    return test_finish();
}
