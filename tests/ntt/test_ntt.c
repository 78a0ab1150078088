/* NTT tests: every kind and element order against an O(n²) DFT (Horner evaluation at each point)
 * for 2^1..2^10 with every kernel set (the emulated IFMA one included, so its algorithm is
 * checked on any CPU), every set against the portable one up to 2^16, round trips and spot
 * evaluations up to 2^21 (two levels of passes), independence from the thread count and the
 * field implementation, ω against GMP and the published constant, the passes' twiddle roots
 * against exponentiation for every order up to 2^27, the IFMA kernels' reduction and butterfly
 * steps against GMP at the edges of their ranges, and bad arguments. */
#include <gmp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuzk/ntt.h"
#include "ff/ff_impl.h"
#include "ff/fr.h"
#include "ff/ifma/ifma.h"
#include "ntt/ntt_arith.h"
#include "ntt/ntt_internal.h"
#include "test_util.h"
/* The IFMA kernels' arithmetic in its emulated form (this file is not built for AVX-512), for
 * the unit tests of lf_reduce and the butterfly steps. */
#include "ff/ifma/simd512.h"
#include "ff/ifma/fr8_ops.h"
#include "ntt/ntt_kern_ifma_arith.h"

#ifdef CUZK_SANITIZE
#define BIG_LOG 15
#define KSET_LOG_A 13 /* sizes of the kernel-set comparisons (with passes) */
#define KSET_LOG_B 13
#else
#define BIG_LOG 20
#define KSET_LOG_A 14
#define KSET_LOG_B 16
#endif
/* Sizes above this get the cheaper subset of the order checks. */
#define ALL_ORDERS_LOG 16

/* blstrs' ROOT_OF_UNITY, canonical, big-endian */
static const char *OMEGA_HEX = "16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b";
static const char *R_HEX = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

static fr omega32; /* parsed from OMEGA_HEX */

/* Inputs that stress the lazy ranges: random, all r−1, or r−1 and 0 mixed with random. */
static void fill_input(fr *a, size_t n, int pattern)
{
    fr m1;
    fr_neg(&m1, &FR_ONE);
    for (size_t i = 0; i < n; i++) {
        if (pattern == 1)
            a[i] = m1;
        else if (pattern == 2 && i % 3 == 0)
            a[i] = (i % 2) ? m1 : FR_ZERO;
        else
            test_rand_fr(&a[i]);
    }
}

static bool is_reduced(const fr *x)
{
    for (int i = 3; i >= 0; i--)
        if (x->l[i] != FR_MODULUS[i])
            return x->l[i] < FR_MODULUS[i];
    return false;
}

static bool all_reduced(const fr *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_reduced(&a[i]))
            return false;
    return true;
}

static uint32_t rev(uint32_t x, unsigned k)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < k; i++)
        r |= ((x >> i) & 1u) << (k - 1 - i);
    return r;
}

static void root(fr *w, unsigned k)
{
    *w = omega32;
    for (unsigned i = k; i < 32; i++)
        fr_sqr(w, w);
}

/* Σ_i a_i·x^i by Horner. */
static void horner(fr *out, const fr *a, size_t n, const fr *x)
{
    fr acc = FR_ZERO;
    for (size_t i = n; i-- > 0;) {
        fr_mul(&acc, &acc, x);
        fr_add(&acc, &acc, &a[i]);
    }
    *out = acc;
}

/* out_j = scale_j·Σ_i a_i·pt_j^i: the definition of each kind, point by point. */
static void dft_ref(fr *out, const fr *in, unsigned k, cuzk_ntt_kind kind)
{
    const size_t n = (size_t)1 << k;
    fr w, g, ninv, nf, x;
    root(&w, k);
    fr_from_u64(&g, 7);
    fr_from_u64(&nf, n);
    fr_inv(&ninv, &nf);
    const bool inv = kind == CUZK_NTT_INVERSE || kind == CUZK_NTT_COSET_INVERSE;
    if (inv)
        fr_inv(&w, &w);
    fr wj = FR_ONE; /* w^j */
    fr gi, gpow = FR_ONE;
    fr_inv(&gi, &g);
    for (size_t j = 0; j < n; j++) {
        x = wj;
        if (kind == CUZK_NTT_COSET_FORWARD)
            fr_mul(&x, &x, &g); /* evaluate at 7·ω^j */
        horner(&out[j], in, n, &x);
        if (inv)
            fr_mul(&out[j], &out[j], &ninv);
        if (kind == CUZK_NTT_COSET_INVERSE) {
            fr_mul(&out[j], &out[j], &gpow); /* a_j·g^−j */
            fr_mul(&gpow, &gpow, &gi);
        }
        fr_mul(&wj, &wj, &w);
    }
}

static void permute(fr *dst, const fr *src, unsigned k)
{
    const size_t n = (size_t)1 << k;
    for (size_t i = 0; i < n; i++)
        dst[rev((uint32_t)i, k)] = src[i];
}

static bool same(const fr *a, const fr *b, size_t n)
{
    return memcmp(a, b, n * sizeof(fr)) == 0;
}

static const char *kind_name(cuzk_ntt_kind k)
{
    static const char *names[] = {"forward", "inverse", "coset-forward", "coset-inverse"};
    return names[k];
}

/* Every kernel set this CPU runs, then the emulated IFMA set (its algorithm on any CPU). */
static int all_sets(const ntt_kernels **out)
{
    int n = ntt_kernels_available(out);
    out[n++] = &ntt_kernels_ifma_emulated;
    return n;
}

/* Every kind, order and thread count 1..4 against the DFT, for 2^1 .. 2^10; the same kinds and
 * orders with every kernel set. */
static void test_against_dft(void)
{
    const unsigned max_k = 10;
    const size_t N = (size_t)1 << max_k;
    fr *in = malloc(N * sizeof(fr)), *ref = malloc(N * sizeof(fr)), *a = malloc(N * sizeof(fr));
    fr *pin = malloc(N * sizeof(fr)), *pref = malloc(N * sizeof(fr));
    for (unsigned k = 1; k <= max_k; k++) {
        const size_t n = (size_t)1 << k;
        for (int kind = 0; kind < 4; kind++) {
            fill_input(in, n, k % 3);
            dft_ref(ref, in, k, (cuzk_ntt_kind)kind);
            permute(pin, in, k);
            permute(pref, ref, k);
            memcpy(a, in, n * sizeof(fr));
            CHECK_MSG(cuzk_ntt(a, k, (cuzk_ntt_kind)kind, 1) == CUZK_OK && same(a, ref, n),
                      "dft k=%u %s", k, kind_name((cuzk_ntt_kind)kind));
            for (int order = 0; order < 3; order++)
                for (int t = 1; t <= 4; t++) {
                    memcpy(a, order == CUZK_NTT_RN ? pin : in, n * sizeof(fr));
                    cuzk_status st = cuzk_ntt_ordered(a, k, (cuzk_ntt_kind)kind,
                                                      (cuzk_ntt_order)order, t);
                    const fr *want = order == CUZK_NTT_NR ? pref : ref;
                    CHECK_MSG(st == CUZK_OK && same(a, want, n), "dft k=%u %s order=%d threads=%d",
                              k, kind_name((cuzk_ntt_kind)kind), order, t);
                }
            const ntt_kernels *kns[NTT_KERNELS_MAX + 1];
            const int nk = all_sets(kns);
            for (int ki = 0; ki < nk; ki++)
                for (int order = 0; order < 3; order++) {
                    memcpy(a, order == CUZK_NTT_RN ? pin : in, n * sizeof(fr));
                    cuzk_status st = ntt_run(kns[ki], a, k, (cuzk_ntt_kind)kind,
                                             (cuzk_ntt_order)order, 1 + (int)(k % 2));
                    const fr *want = order == CUZK_NTT_NR ? pref : ref;
                    CHECK_MSG(st == CUZK_OK && same(a, want, n), "dft k=%u %s order=%d kernels=%s",
                              k, kind_name((cuzk_ntt_kind)kind), order, kns[ki]->name);
                }
        }
    }
    free(in), free(ref), free(a), free(pin), free(pref);
}

/* The blocked drivers with small blocks and short passes, so that sizes the DFT can check run
 * through several levels of passes (the production limits need 2^21 elements for two). */
static void test_split_levels(void)
{
    static const unsigned splits[][3] = {/* k, block_log, pass_max */
                                         {10, 2, 2}, {10, 3, 3}, {9, 1, 3}, {10, 6, 1},
                                         {8, 2, 6}, {10, 6, 4}, {7, 5, 1}, {11, 6, 3},
                                         {10, 7, 2},
                                         /* IFMA passes of single column groups: a stage of
                                          * one butterfly row (the unpaired tail) */
                                         {5, 3, 1}, {7, 3, 1}};
    const size_t N = 2048;
    fr *in = malloc(N * sizeof(fr)), *ref = malloc(N * sizeof(fr)), *a = malloc(N * sizeof(fr));
    fr *pin = malloc(N * sizeof(fr)), *pref = malloc(N * sizeof(fr));
    const ntt_kernels *kns[NTT_KERNELS_MAX + 1];
    const int nk = all_sets(kns);
    const ntt_fin reduce = {NTT_FIN_REDUCE, {{0}}};
    for (size_t si = 0; si < sizeof splits / sizeof splits[0]; si++) {
        const unsigned k = splits[si][0];
        const size_t n = (size_t)1 << k;
        for (int inv = 0; inv < 2; inv++) {
            fill_input(in, n, (int)si % 3);
            dft_ref(ref, in, k, inv ? CUZK_NTT_INVERSE : CUZK_NTT_FORWARD);
            /* the drivers do not scale by 1/n: take it back out of the reference */
            fr nf;
            fr_from_u64(&nf, n);
            if (inv)
                for (size_t i = 0; i < n; i++)
                    fr_mul(&ref[i], &ref[i], &nf);
            permute(pin, in, k);
            permute(pref, ref, k);
            for (int ki = 0; ki < nk; ki++) {
                for (int t = 1; t <= 3; t++) {
                    ntt_plan p;
                    cuzk_status st = ntt_plan_init_split(&p, k, t, splits[si][1], splits[si][2]);
                    CHECK_MSG(st == CUZK_OK && p.levels >= 1, "plan k=%u split %zu", k, si);
                    if (st != CUZK_OK) {
                        ntt_plan_free(&p);
                        continue;
                    }
                    memcpy(a, in, n * sizeof(fr));
                    ntt_dif(kns[ki], &p, a, inv, &reduce);
                    CHECK_MSG(same(a, pref, n), "dif split %zu inv=%d kernels=%s threads=%d", si,
                              inv, kns[ki]->name, t);
                    memcpy(a, pin, n * sizeof(fr));
                    ntt_dit(kns[ki], &p, a, inv, &reduce);
                    CHECK_MSG(same(a, ref, n), "dit split %zu inv=%d kernels=%s threads=%d", si,
                              inv, kns[ki]->name, t);
                    ntt_plan_free(&p);
                }
            }
        }
    }
    free(in), free(ref), free(a), free(pin), free(pref);
}

/* Sizes past the DFT's reach: spot evaluations, round trips through every order, agreement
 * between thread counts. */
static void test_large(void)
{
    static const unsigned ks[] = {11, 12, 13, 14, 16, 17, 20};
    const size_t N = (size_t)1 << BIG_LOG;
    fr *x = malloc(N * sizeof(fr)), *y = malloc(N * sizeof(fr)), *z = malloc(N * sizeof(fr));
    fr *px = malloc(N * sizeof(fr));
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        const unsigned k = ks[ki];
        if (k > BIG_LOG)
            continue;
        const size_t n = (size_t)1 << k;
        /* at the largest size only the coset pair (the plain one is the same path, unscaled) */
        for (int coset = k == BIG_LOG ? 1 : 0; coset < 2; coset++) {
            const cuzk_ntt_kind fwd = coset ? CUZK_NTT_COSET_FORWARD : CUZK_NTT_FORWARD;
            const cuzk_ntt_kind inv = coset ? CUZK_NTT_COSET_INVERSE : CUZK_NTT_INVERSE;
            fill_input(x, n, (int)ki % 3);
            memcpy(y, x, n * sizeof(fr));
            CHECK(cuzk_ntt(y, k, fwd, 2) == CUZK_OK);
            CHECK_MSG(all_reduced(y, n), "k=%u coset=%d output not reduced", k, coset);
            /* spot evaluations at (7·)ω^j */
            fr w, g, pt, v;
            root(&w, k);
            fr_from_u64(&g, 7);
            for (int s = 0; s < 3; s++) {
                const uint64_t j = s == 0 ? n - 1 : test_rand_below(n);
                uint64_t e[1] = {j};
                fr_pow(&pt, &w, e, 1);
                if (coset)
                    fr_mul(&pt, &pt, &g);
                horner(&v, x, n, &pt);
                CHECK_MSG(fr_eq(&v, &y[j]), "k=%u coset=%d eval j=%llu", k, coset,
                          (unsigned long long)j);
            }
            /* inverse gives the input back */
            memcpy(z, y, n * sizeof(fr));
            CHECK(cuzk_ntt(z, k, inv, 2) == CUZK_OK);
            CHECK_MSG(same(z, x, n), "k=%u coset=%d round trip", k, coset);
            /* the prover's path: forward NR, inverse RN */
            memcpy(z, x, n * sizeof(fr));
            CHECK(cuzk_ntt_ordered(z, k, fwd, CUZK_NTT_NR, 2) == CUZK_OK);
            CHECK(cuzk_ntt_ordered(z, k, inv, CUZK_NTT_RN, 2) == CUZK_OK);
            CHECK_MSG(same(z, x, n), "k=%u coset=%d NR/RN round trip", k, coset);
            if (k > ALL_ORDERS_LOG)
                continue;
            /* NR output = bit-reversed NN output; RN on bit-reversed input = NN output */
            memcpy(z, x, n * sizeof(fr));
            CHECK(cuzk_ntt_ordered(z, k, fwd, CUZK_NTT_NR, 3) == CUZK_OK);
            CHECK(cuzk_ntt_bitrev(z, k, 2) == CUZK_OK);
            CHECK_MSG(same(z, y, n), "k=%u coset=%d NR", k, coset);
            memcpy(px, x, n * sizeof(fr));
            CHECK(cuzk_ntt_bitrev(px, k, 1) == CUZK_OK);
            memcpy(z, px, n * sizeof(fr));
            CHECK(cuzk_ntt_ordered(z, k, fwd, CUZK_NTT_RN, 4) == CUZK_OK);
            CHECK_MSG(same(z, y, n), "k=%u coset=%d RN", k, coset);
            /* inverse NR then bit reversal = inverse NN */
            memcpy(z, y, n * sizeof(fr));
            CHECK(cuzk_ntt_ordered(z, k, inv, CUZK_NTT_NR, 1) == CUZK_OK);
            CHECK(cuzk_ntt_bitrev(z, k, 2) == CUZK_OK);
            CHECK_MSG(same(z, x, n), "k=%u coset=%d inverse NR", k, coset);
        }
        /* the H-polynomial chain with one permutation (see cuzk_ntt_ordered) equals the
         * natural-order chain: iNTT then coset NTT, and back */
        if (k <= ALL_ORDERS_LOG) {
            fill_input(x, n, 0);
            memcpy(y, x, n * sizeof(fr));
            CHECK(cuzk_ntt(y, k, CUZK_NTT_INVERSE, 2) == CUZK_OK);
            CHECK(cuzk_ntt(y, k, CUZK_NTT_COSET_FORWARD, 2) == CUZK_OK);
            memcpy(z, x, n * sizeof(fr));
            CHECK(cuzk_ntt_ordered(z, k, CUZK_NTT_INVERSE, CUZK_NTT_NR, 2) == CUZK_OK);
            CHECK(cuzk_ntt_ordered(z, k, CUZK_NTT_COSET_FORWARD, CUZK_NTT_RN, 2) == CUZK_OK);
            CHECK_MSG(same(z, y, n), "k=%u H chain forward", k);
            CHECK(cuzk_ntt_ordered(z, k, CUZK_NTT_COSET_INVERSE, CUZK_NTT_NN, 2) == CUZK_OK);
            CHECK(cuzk_ntt(z, k, CUZK_NTT_FORWARD, 2) == CUZK_OK);
            CHECK_MSG(same(z, x, n), "k=%u H chain back", k);
        }
        /* thread counts 1..4 agree bit for bit */
        if (k == 13 || k == 17) {
            fill_input(x, n, 0);
            memcpy(y, x, n * sizeof(fr));
            CHECK(cuzk_ntt(y, k, CUZK_NTT_FORWARD, 1) == CUZK_OK);
            for (int t = 2; t <= 4; t++) {
                memcpy(z, x, n * sizeof(fr));
                CHECK(cuzk_ntt(z, k, CUZK_NTT_FORWARD, t) == CUZK_OK);
                CHECK_MSG(same(z, y, n), "k=%u threads=%d differs from 1 thread", k, t);
            }
        }
    }
    free(x), free(y), free(z), free(px);
}

/* Every kernel set gives the same results as the portable one, with passes (2^14, 2^16 with the
 * production plan; smaller split plans for the emulated IFMA set, which is slow), in every
 * finishing mode, and in the coset scaling; the real and emulated IFMA sets agree bit for bit,
 * lazy outputs included. The public entry follows the dispatch table. */
static void test_kernel_sets(void)
{
    const ntt_kernels *kns[NTT_KERNELS_MAX + 1];
    const int nk = all_sets(kns);
    printf("  kernel sets:");
    for (int i = 0; i < nk; i++)
        printf(" %s", kns[i]->name);
    printf("\n");
    static const unsigned cases[][4] = {/* k, block_log, pass_max, emulated set too */
                                        {KSET_LOG_A, NTT_BLOCK_LOG, NTT_PASS_MAX, 0},
                                        {KSET_LOG_B, NTT_BLOCK_LOG, NTT_PASS_MAX, 0},
                                        {13, NTT_BLOCK_LOG, NTT_PASS_MAX, 1},
                                        {12, 7, 3, 1}};
    const size_t N = (size_t)1 << KSET_LOG_B;
    fr *x = malloc(N * sizeof(fr)), *ref = malloc(N * sizeof(fr)), *z = malloc(N * sizeof(fr));
    fr *lazy = malloc(N * sizeof(fr));
    fr scale;
    test_rand_fr(&scale);
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        if (ci == 1 && KSET_LOG_A == KSET_LOG_B)
            continue;
        const unsigned k = cases[ci][0];
        const size_t n = (size_t)1 << k;
        const int nkc = cases[ci][3] ? nk : nk - 1;
        ntt_plan p;
        CHECK(ntt_plan_init_split(&p, k, 2, cases[ci][1], cases[ci][2]) == CUZK_OK);
        for (int dit = 0; dit < 2; dit++)
            for (int inv = 0; inv < 2; inv++)
                for (int mode = 0; mode < 3; mode++) {
                    const ntt_fin fin = {(ntt_fin_mode)mode, scale};
                    fill_input(x, n, mode);
                    bool have_lazy = false;
                    for (int ki = 0; ki < nkc; ki++) {
                        fr *out = ki == 0 ? ref : z;
                        memcpy(out, x, n * sizeof(fr));
                        if (dit)
                            ntt_dit(kns[ki], &p, out, inv, &fin);
                        else
                            ntt_dif(kns[ki], &p, out, inv, &fin);
                        if (kns[ki] == &ntt_kernels_ifma) {
                            memcpy(lazy, out, n * sizeof(fr));
                            have_lazy = true;
                        } else if (kns[ki] == &ntt_kernels_ifma_emulated && have_lazy) {
                            CHECK_MSG(same(out, lazy, n), "k=%u dit=%d inv=%d fin=%d: ifma != "
                                      "ifma-emulated", k, dit, inv, mode);
                        }
                        if (mode == NTT_FIN_NONE) /* lazy outputs may differ by r: compare mod r */
                            for (size_t i = 0; i < n; i++)
                                ntt_reduce(&out[i], &out[i]);
                        else
                            CHECK_MSG(all_reduced(out, n), "k=%u fin=%d: %s output not reduced",
                                      k, mode, kns[ki]->name);
                        if (ki > 0)
                            CHECK_MSG(same(z, ref, n), "k=%u dit=%d inv=%d fin=%d: %s != portable",
                                      k, dit, inv, mode, kns[ki]->name);
                    }
                }
        ntt_plan_free(&p);
        for (int bitrev = 0; bitrev < 2; bitrev++) {
            ntt_scale_tabs st;
            fr g, c;
            test_rand_fr(&g);
            test_rand_fr(&c);
            CHECK(ntt_scale_init(&st, k, &g, &c, bitrev) == CUZK_OK);
            fill_input(x, n, bitrev + 1);
            for (int ki = 0; ki < nkc; ki++) {
                fr *out = ki == 0 ? ref : z;
                memcpy(out, x, n * sizeof(fr));
                ntt_scale_apply(kns[ki], &st, out, 2);
                if (ki > 0)
                    CHECK_MSG(same(z, ref, n), "scale bitrev=%d: %s != portable", bitrev,
                              kns[ki]->name);
            }
            /* spot check against the definition */
            for (int s = 0; s < 4; s++) {
                const size_t p = test_rand_below(n);
                const uint64_t e = bitrev ? rev((uint32_t)p, k) : p;
                fr want;
                fr_pow(&want, &g, &e, 1);
                fr_mul(&want, &want, &c);
                fr_mul(&want, &want, &x[p]);
                CHECK_MSG(fr_eq(&want, &ref[p]), "scale bitrev=%d at %zu", bitrev, p);
            }
            ntt_scale_free(&st);
        }
    }
    /* the public entry follows the implementation (the dispatch table) */
    if (cuzk_impl_supported(CUZK_IMPL_ADX)) {
        const cuzk_init_options_t saved = cuzk_dispatch()->asked;
        CHECK(cuzk_dispatch_use(CUZK_IMPL_PORTABLE) == CUZK_OK);
        CHECK(ntt_kernels_current() == &ntt_kernels_portable);
        CHECK(cuzk_dispatch_use(CUZK_IMPL_ADX) == CUZK_OK);
        CHECK(ntt_kernels_current() != &ntt_kernels_portable);
        if (saved.ntt_kernels == CUZK_NTT_KERNELS_AUTO) {
            CHECK(ntt_kernels_current() != &ntt_kernels_ifma);
            if (ntt_kernels_ifma_compiled && ifma_available()) {
                CHECK(kns[nk - 2] == &ntt_kernels_ifma);
                CHECK(cuzk_dispatch_use(CUZK_IMPL_IFMA) == CUZK_OK);
                CHECK(ntt_kernels_current() == &ntt_kernels_ifma);
            }
        }
        CHECK(cuzk_dispatch_reinit(&saved, NULL) == CUZK_OK);
    }
    free(x), free(ref), free(z), free(lazy);
}

/* The lazy butterfly arithmetic against fr_*, on random and extreme operands. */
static void check_mul(void (*mul)(fr *, const fr *, const fr *), const char *name)
{
    fr r1, two_r1;
    for (int i = 0; i < 4; i++)
        r1.l[i] = FR_MODULUS[i];
    r1.l[0] -= 1; /* r − 1 */
    uint64_t c = 0;
    for (int i = 0; i < 4; i++) { /* 2r − 1 */
        unsigned __int128 s = (unsigned __int128)FR_MODULUS[i] * 2 + c;
        two_r1.l[i] = (uint64_t)s;
        c = (uint64_t)(s >> 64);
    }
    two_r1.l[0] -= 1;
    for (int it = 0; it < 20000; it++) {
        fr x, xr, w, o, want;
        test_rand_fr(&xr);
        test_rand_fr(&w);
        if (it == 0)
            xr = r1, w = r1;
        x = xr;
        if (it % 2 || it == 0) { /* x = xr + r, in [r, 2r) */
            uint64_t cc = 0;
            for (int i = 0; i < 4; i++) {
                unsigned __int128 s = (unsigned __int128)x.l[i] + FR_MODULUS[i] + cc;
                x.l[i] = (uint64_t)s;
                cc = (uint64_t)(s >> 64);
            }
        }
        if (it == 1)
            x = two_r1, xr = r1, w = r1;
        mul(&o, &x, &w);
        fr_mul(&want, &xr, &w);
        fr ored = o;
        ntt_reduce(&ored, &o);
        bool lt2r = o.l[3] < NTT_2R3 || (o.l[3] == NTT_2R3 && o.l[2] < NTT_2R2) ||
                    (o.l[3] == NTT_2R3 && o.l[2] == NTT_2R2 && o.l[1] < NTT_2R1) ||
                    (o.l[3] == NTT_2R3 && o.l[2] == NTT_2R2 && o.l[1] == NTT_2R1 &&
                     o.l[0] < NTT_2R0);
        CHECK_MSG(lt2r && fr_eq(&ored, &want), "%s iteration %d", name, it);
        if (!(lt2r && fr_eq(&ored, &want)))
            break;
    }
}

#if defined(__x86_64__)
#include "ntt/ntt_avx2.h"
/* The AVX2 lane arithmetic against the scalar lazy operations, four lanes at a time, on random
 * values and on the boundaries (0, r − 1, r, 2r − 1, sums hitting 2r exactly). */
__attribute__((target("avx2"))) static void check_avx2_ops(void)
{
    fr edge[6];
    memset(edge, 0, sizeof edge);
    for (int i = 0; i < 4; i++)
        edge[1].l[i] = FR_MODULUS[i]; /* r */
    edge[2] = edge[1], edge[2].l[0] -= 1; /* r − 1 */
    uint64_t c = 0;
    for (int i = 0; i < 4; i++) { /* 2r − 1 */
        unsigned __int128 t = (unsigned __int128)FR_MODULUS[i] * 2 + c;
        edge[3].l[i] = (uint64_t)t;
        c = (uint64_t)(t >> 64);
    }
    edge[3].l[0] -= 1;
    edge[4].l[0] = 1;
    edge[5] = edge[3], edge[5].l[0] -= 1; /* 2r − 2 */
    for (int it = 0; it < 4000; it++) {
        fr x[4], y[4], w[4];
        for (int u = 0; u < 4; u++) {
            test_rand_fr(&x[u]);
            test_rand_fr(&y[u]);
            test_rand_fr(&w[u]);
            if (test_rand_below(2)) /* lift into [r, 2r) */
                ntt_add(&x[u], &x[u], &edge[1]);
            if (test_rand_below(2))
                ntt_add(&y[u], &y[u], &edge[1]);
            if (it < 36) { /* every pair of boundary values */
                x[u] = edge[(it / 6 + u) % 6];
                y[u] = edge[(it % 6 + u) % 6];
                w[u] = edge[u % 3 == 0 ? 2 : 0];
            }
        }
        v9 vx, vy, vw, vo;
        fr got[4], want;
        v_load(&vx, x, 1);
        v_load(&vy, y, 1);
        v_load(&vw, w, 1);
        v_mul(&vo, &vx, &vw);
        v_store(got, 1, &vo);
        for (int u = 0; u < 4; u++) {
            ntt_mul_portable(&want, &x[u], &w[u]);
            CHECK_MSG(memcmp(&want, &got[u], sizeof(fr)) == 0, "v_mul it=%d lane %d", it, u);
        }
        v_add(&vo, &vx, &vy);
        v_store(got, 1, &vo);
        for (int u = 0; u < 4; u++) {
            ntt_add(&want, &x[u], &y[u]);
            CHECK_MSG(memcmp(&want, &got[u], sizeof(fr)) == 0, "v_add it=%d lane %d", it, u);
        }
        v_sub(&vo, &vx, &vy);
        v_store(got, 1, &vo);
        for (int u = 0; u < 4; u++) {
            ntt_sub(&want, &x[u], &y[u]);
            CHECK_MSG(memcmp(&want, &got[u], sizeof(fr)) == 0, "v_sub it=%d lane %d", it, u);
        }
        v_reduce(&vo, &vx);
        v_store(got, 1, &vo);
        for (int u = 0; u < 4; u++) {
            ntt_reduce(&want, &x[u]);
            CHECK_MSG(memcmp(&want, &got[u], sizeof(fr)) == 0, "v_reduce it=%d lane %d", it, u);
        }
    }
}
#endif

static void test_arith(void)
{
    check_mul(ntt_mul_portable, "ntt_mul_portable");
#if defined(NTT_HAVE_ADX)
    if (cuzk_impl_supported(CUZK_IMPL_ADX))
        check_mul(ntt_mul_adx, "ntt_mul_adx");
    if (__builtin_cpu_supports("avx2"))
        check_avx2_ops();
#endif
    /* add/sub on [0, 2r) operands: lift reduced values by r at random, compare mod r */
    for (int it = 0; it < 20000; it++) {
        fr a, b, la, lb, o, want;
        test_rand_fr(&a);
        test_rand_fr(&b);
        la = a, lb = b;
        for (int side = 0; side < 2; side++) {
            fr *t = side ? &lb : &la;
            if ((it >> side) & 1) {
                uint64_t cc = 0;
                for (int i = 0; i < 4; i++) {
                    unsigned __int128 s = (unsigned __int128)t->l[i] + FR_MODULUS[i] + cc;
                    t->l[i] = (uint64_t)s;
                    cc = (uint64_t)(s >> 64);
                }
            }
        }
        ntt_add(&o, &la, &lb);
        fr_add(&want, &a, &b);
        fr red;
        ntt_reduce(&red, &o);
        CHECK_MSG(fr_eq(&red, &want) && o.l[3] <= NTT_2R3, "ntt_add iteration %d", it);
        ntt_sub(&o, &la, &lb);
        fr_sub(&want, &a, &b);
        ntt_reduce(&red, &o);
        CHECK_MSG(fr_eq(&red, &want) && o.l[3] <= NTT_2R3, "ntt_sub iteration %d", it);
    }
}

/* lf_reduce (the IFMA kernels' quotient-estimate reduction) against GMP: normalised inputs below
 * 16r, at random and at the edges of its estimate (k·r and k·r − 1, top limbs that are exact
 * multiples of r_4 + 1 with the lower limbs all zero or all ones, 16r − 1). The result must be
 * congruent to the input, in [0, r + 2^212), with lower limbs in (−2^52, 2^52). */
static void limbs_to_mpz(mpz_t out, const int64_t l[5])
{
    mpz_t t;
    mpz_init(t);
    mpz_set_ui(out, 0);
    for (int j = 4; j >= 0; j--) {
        mpz_mul_2exp(out, out, 52);
        mpz_set_si(t, l[j]);
        mpz_add(out, out, t);
    }
    mpz_clear(t);
}

static void test_ifma_reduce(void)
{
    mpz_t r, a, v, lim, tmp, r4p1;
    mpz_inits(r, a, v, lim, tmp, r4p1, NULL);
    mpz_import(r, 4, -1, sizeof(uint64_t), 0, 0, FR_MODULUS);
    mpz_fdiv_q_2exp(r4p1, r, 208);
    mpz_add_ui(r4p1, r4p1, 1);
    mpz_set_ui(lim, 1);
    mpz_mul_2exp(lim, lim, 212);
    mpz_add(lim, lim, r);
    mpz_t in[8];
    int checked = 0;
    for (int it = 0; it < 800; it++) {
        /* eight lanes of inputs per call */
        for (int i = 0; i < 8; i++) {
            mpz_init(in[i]);
            const int kind = (it * 8 + i) % 5;
            const unsigned k = (unsigned)((it * 8 + i) / 5) % 16;
            if (kind == 0) { /* k·r */
                mpz_mul_ui(in[i], r, k);
            } else if (kind == 1) { /* k·r − 1, and 16r − 1 */
                mpz_mul_ui(in[i], r, k + 1);
                mpz_sub_ui(in[i], in[i], 1);
            } else if (kind == 2 || kind == 3) { /* top limb j·(r_4 + 1), lower limbs 0 or 1s */
                mpz_mul_ui(in[i], r4p1, k);
                mpz_mul_2exp(in[i], in[i], 208);
                if (kind == 3) {
                    mpz_set_ui(tmp, 1);
                    mpz_mul_2exp(tmp, tmp, 208);
                    mpz_sub_ui(tmp, tmp, 1);
                    mpz_add(in[i], in[i], tmp);
                }
            } else { /* random below 16r */
                uint64_t w[5];
                for (int j = 0; j < 5; j++)
                    w[j] = test_rand64();
                mpz_import(in[i], 5, -1, sizeof(uint64_t), 0, 0, w);
                mpz_mul_ui(tmp, r, 16);
                mpz_mod(in[i], in[i], tmp);
            }
            mpz_mul_ui(tmp, r, 16);
            if (mpz_cmp(in[i], tmp) >= 0) /* 16·(r_4 + 1)·2^208 is past 16r */
                mpz_sub(in[i], in[i], r);
        }
        uint64_t limbs[5][8];
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 5; j++) {
                mpz_fdiv_q_2exp(tmp, in[i], 52 * (unsigned)j);
                limbs[j][i] = j < 4 ? mpz_get_ui(tmp) & 0xfffffffffffffull : mpz_get_ui(tmp);
            }
        fr8v x, y;
        fr8v_load(&x, (const uint64_t(*)[8])limbs);
        lf_reduce(&y, &x);
        uint64_t out[5][8];
        fr8v_store(out, &y);
        for (int i = 0; i < 8; i++) {
            int64_t l[5];
            bool small = true;
            for (int j = 0; j < 5; j++) {
                l[j] = (int64_t)out[j][i];
                if (j < 4 && (l[j] <= -((int64_t)1 << 52) || l[j] >= ((int64_t)1 << 52)))
                    small = false;
            }
            limbs_to_mpz(v, l);
            mpz_sub(tmp, in[i], v);
            const bool congruent = mpz_divisible_p(tmp, r) != 0;
            CHECK_MSG(congruent && mpz_sgn(v) >= 0 && mpz_cmp(v, lim) < 0 && small,
                      "lf_reduce iteration %d lane %d", it, i);
            checked++;
            mpz_clear(in[i]);
        }
    }
    CHECK(checked == 6400);
    mpz_clears(r, a, v, lim, tmp, r4p1, NULL);
}

/* The IFMA butterfly steps (lf_dif_start, lf_dit_finish, then lf_mul) against GMP at the edges of
 * the ranges the kernels rely on (ntt_kern_ifma.h): each input below its kind's bound (0, 1, r − 1,
 * r, bound − 1, random) in normalised, loose or signed limbs as the stages before may leave them,
 * and twiddles up to 1.5r. Results must be congruent, below their bounds, and normalised where a
 * product reads them next. */
static mpz_t bf_r;

/* v as five limbs: normalised (form 0), or lower limbs pushed up by multiples of 2^52 (form 1,
 * below 2^58: a loose product) or also down (form 2: signed, as unnormalised sums), the top limb
 * taking the rest (normalised where that would leave it negative). */
static void bf_limbs(int64_t l[5], const mpz_t v, int form)
{
    mpz_t rem, t;
    mpz_inits(rem, t, NULL);
    for (int attempt = 0; attempt < 2; attempt++, form = 0) {
        mpz_set(rem, v);
        for (int j = 0; j < 4; j++) {
            mpz_fdiv_r_2exp(t, rem, 52);
            int64_t shift = form == 0 ? 0 : form == 1 ? (int64_t)test_rand_below(64) : (int64_t)test_rand_below(256) - 2;
            l[j] = (int64_t)mpz_get_ui(t) + shift * ((int64_t)1 << 52);
            mpz_set_si(t, l[j]);
            mpz_sub(rem, rem, t);
            mpz_fdiv_q_2exp(rem, rem, 52);
        }
        if (mpz_sgn(rem) >= 0 && mpz_sizeinbase(rem, 2) <= 52)
            break;
    }
    l[4] = (int64_t)mpz_get_si(rem);
    mpz_clears(rem, t, NULL);
}

/* An edge value below bound = mult·r / 2 (mult/2 r: 1.5r is mult 3). */
static void bf_value(mpz_t v, unsigned mult, int which)
{
    mpz_mul_ui(v, bf_r, mult);
    mpz_fdiv_q_2exp(v, v, 1);
    switch (which % 6) {
    case 0: mpz_set_ui(v, 0); break;
    case 1: mpz_set_ui(v, 1); break;
    case 2: mpz_sub_ui(v, bf_r, 1); break;
    case 3: mpz_set(v, bf_r); break;
    case 4: mpz_sub_ui(v, v, 1); break;
    default: {
        uint64_t w[5];
        for (int j = 0; j < 5; j++)
            w[j] = test_rand64();
        mpz_t big;
        mpz_init(big);
        mpz_import(big, 5, -1, sizeof(uint64_t), 0, 0, w);
        mpz_mod(v, big, v);
        mpz_clear(big);
    }
    }
}

static void bf_load(fr8v *x, int64_t l[8][5])
{
    uint64_t t[5][8];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 5; j++)
            t[j][i] = (uint64_t)l[i][j];
    fr8v_load(x, (const uint64_t(*)[8])t);
}

/* Lane i of x into v; *norm says whether its limbs are normalised, *small whether those below the
 * top one are in (−2^52, 2^52), *bounded whether all are below 2^61 in magnitude. */
static void bf_lane(mpz_t v, const fr8v *x, int i, bool *norm, bool *small, bool *bounded)
{
    uint64_t t[5][8];
    fr8v_store(t, x);
    int64_t l[5];
    *norm = *small = *bounded = true;
    for (int j = 0; j < 5; j++) {
        l[j] = (int64_t)t[j][i];
        if (j < 4 && (l[j] < 0 || l[j] >= ((int64_t)1 << 52)))
            *norm = false;
        if (j < 4 && (l[j] <= -((int64_t)1 << 52) || l[j] >= ((int64_t)1 << 52)))
            *small = false;
        if (l[j] <= -((int64_t)1 << 61) || l[j] >= ((int64_t)1 << 61))
            *bounded = false;
    }
    if (l[4] < 0)
        *norm = false;
    limbs_to_mpz(v, l);
}

/* v ≡ want (mod r) and 0 <= v < mult·r / 2 */
static bool bf_ok(const mpz_t v, const mpz_t want, unsigned mult)
{
    mpz_t t, b;
    mpz_inits(t, b, NULL);
    mpz_sub(t, v, want);
    mpz_mul_ui(b, bf_r, mult);
    mpz_fdiv_q_2exp(b, b, 1);
    bool ok = mpz_divisible_p(t, bf_r) && mpz_sgn(v) >= 0 && mpz_cmp(v, b) < 0;
    mpz_clears(t, b, NULL);
    return ok;
}

static void test_ifma_butterflies(void)
{
    mpz_inits(bf_r, NULL);
    mpz_import(bf_r, 4, -1, sizeof(uint64_t), 0, 0, FR_MODULUS);
    mpz_t xv[8], yv[8], wv[8], v, tv, want, red_lim, minv;
    for (int i = 0; i < 8; i++)
        mpz_inits(xv[i], yv[i], wv[i], NULL);
    mpz_inits(v, tv, want, red_lim, minv, NULL);
    mpz_set_ui(red_lim, 1); /* lf_reduce's bound r + 2^212, in halves of r: checked separately */
    mpz_mul_2exp(red_lim, red_lim, 212);
    mpz_add(red_lim, red_lim, bf_r);
    mpz_set_ui(minv, 1); /* 2^−260 mod r: the products' Montgomery factor */
    mpz_mul_2exp(minv, minv, 260);
    CHECK(mpz_invert(minv, minv, bf_r) != 0);
    /* DIF kinds: input bound, output bound of the sum, of d (in halves of r) */
    static const struct { int kind; unsigned in, sum, d; } dif[] = {
        {LF_DIF_LAZY2, 4, 8, 8}, {LF_DIF_LAZY4, 8, 16, 16}, {LF_DIF_REDUCE, 16, 0, 32}};
    /* DIT: reduce, input bound, output bound */
    static const struct { bool reduce; unsigned in, out; } dit[] = {{false, 8, 12}, {false, 12, 16}, {true, 16, 8}};
    int checked = 0;
    for (int it = 0; it < 300; it++) {
        const int c = it % 6;
        int64_t lx[8][5], ly[8][5], lw[8][5];
        const unsigned in = c < 3 ? dif[c].in : dit[c - 3].in;
        for (int i = 0; i < 8; i++) {
            const int e = it / 6 * 8 + i; /* every pair of edges early on */
            bf_value(xv[i], in, e % 6);
            bf_value(yv[i], in, e / 6 % 6 + (it >= 60 ? i : 0));
            bf_value(wv[i], 3, e % 5 == 0 ? 4 : e % 5 == 1 ? 2 : 5); /* 1.5r − 1, r − 1, random */
            /* DIF inputs come in any limb form, DIT's normalised (every DIT output is) */
            bf_limbs(lx[i], xv[i], c < 3 ? (int)test_rand_below(3) : 0);
            bf_limbs(ly[i], yv[i], c < 3 ? (int)test_rand_below(3) : 0);
            bf_limbs(lw[i], wv[i], 0);
        }
        fr8v x, y, w, d, t;
        bf_load(&x, lx);
        bf_load(&y, ly);
        bf_load(&w, lw);
        bool norm, small, bounded;
        if (c < 3) {
            lf_dif_start(&x, &d, &y, dif[c].kind);
            lf_mul(&t, &d, &w, 0);
            for (int i = 0; i < 8; i++) {
                mpz_add(want, xv[i], yv[i]);
                bf_lane(v, &x, i, &norm, &small, &bounded);
                bool ok = bounded && (dif[c].sum ? bf_ok(v, want, dif[c].sum)
                                                 : bf_ok(v, want, 4) && small && mpz_cmp(v, red_lim) < 0);
                mpz_sub(want, xv[i], yv[i]);
                bf_lane(v, &d, i, &norm, &small, &bounded);
                ok = ok && norm && bf_ok(v, want, dif[c].d) && mpz_sgn(v) > 0;
                mpz_mul(want, v, wv[i]);
                mpz_mul(want, want, minv);
                bf_lane(v, &t, i, &norm, &small, &bounded);
                ok = ok && bounded && mpz_sgn(v) >= 0 && bf_ok(v, want, 4);
                CHECK_MSG(ok, "DIF kind %d iteration %d lane %d", dif[c].kind, it, i);
                checked++;
            }
        } else {
            const int k = c - 3;
            lf_mul(&t, &y, &w, 0);
            const fr8v t_in = t;
            lf_dit_finish(&x, &y, &t_in, dit[k].reduce);
            for (int i = 0; i < 8; i++) {
                bf_lane(tv, &t, i, &norm, &small, &bounded); /* t itself, as a product */
                mpz_mul(want, yv[i], wv[i]);
                mpz_mul(want, want, minv);
                bool ok = bf_ok(tv, want, 4);
                mpz_add(want, xv[i], tv);
                bf_lane(v, &x, i, &norm, &small, &bounded);
                ok = ok && norm && bf_ok(v, want, dit[k].out);
                mpz_sub(want, xv[i], tv);
                bf_lane(v, &y, i, &norm, &small, &bounded);
                ok = ok && norm && bf_ok(v, want, dit[k].out);
                CHECK_MSG(ok, "DIT reduce=%d input < %u/2 r iteration %d lane %d", dit[k].reduce, dit[k].in, it, i);
                checked++;
            }
        }
    }
    CHECK(checked == 2400);
    for (int i = 0; i < 8; i++)
        mpz_clears(xv[i], yv[i], wv[i], NULL);
    mpz_clears(v, tv, want, red_lim, minv, bf_r, NULL);
}

static void test_omega(void)
{
    /* GMP: 7^((r−1)/2^32) mod r equals the published constant */
    mpz_t r, e, w, pub;
    mpz_inits(r, e, w, pub, NULL);
    mpz_set_str(r, R_HEX, 16);
    mpz_set_str(pub, OMEGA_HEX, 16);
    mpz_sub_ui(e, r, 1);
    CHECK(mpz_scan1(e, 0) == 32); /* r − 1 = 2^32·odd: no larger power-of-two domain exists */
    mpz_tdiv_q_2exp(e, e, 32);
    mpz_set_ui(w, 7);
    mpz_powm(w, w, e, r);
    CHECK(mpz_cmp(w, pub) == 0);
    mpz_clears(r, e, w, pub, NULL);

    uint8_t be[32];
    CHECK(test_hex_decode(OMEGA_HEX, be, 32) == 32);
    CHECK(fr_from_bytes_be(&omega32, be));
    fr got;
    CHECK(cuzk_ntt_root(&got, 32) == CUZK_OK);
    CHECK_MSG(fr_eq(&got, &omega32), "library ω differs from the published ROOT_OF_UNITY");
    /* order exactly 2^32: ω^(2^31) = −1 */
    fr t = omega32, m1;
    fr_neg(&m1, &FR_ONE);
    for (int i = 0; i < 31; i++)
        fr_sqr(&t, &t);
    CHECK(fr_eq(&t, &m1));
    fr_sqr(&t, &t);
    CHECK(fr_eq(&t, &FR_ONE));
    for (unsigned k = 0; k <= 32; k++) {
        fr want;
        root(&want, k);
        CHECK(cuzk_ntt_root(&got, k) == CUZK_OK && fr_eq(&got, &want));
    }
    CHECK(cuzk_ntt_root(&got, 33) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt_root(NULL, 3) == CUZK_ERR_INVALID_ARG);
}

/* The passes' twiddles without per-size tables: ω_{2^s}^±e from the two root tables, and runs
 * of column roots, against exponentiation of the published ω, for every order 2^1 .. 2^27 and
 * exponents at and past the wrap-around. */
static void test_pass_roots(void)
{
    const ntt_roots *rt = ntt_roots_get();
    CHECK(rt != NULL);
    if (!rt)
        return;
    /* every entry of both tables: ω_{2^27}^i and ω_{2^27}^(j·2^14) by repeated multiplication */
    fr w27, step, want = FR_ONE, got;
    root(&w27, NTT_ROOT_LOG);
    for (uint64_t i = 0; i < ((uint64_t)1 << NTT_ROOT_LO_LOG); i++) {
        ntt_root_pow(&got, rt, NTT_ROOT_LOG, i, 0);
        CHECK_MSG(fr_eq(&got, &want), "low root table entry %llu", (unsigned long long)i);
        fr_mul(&want, &want, &w27);
    }
    step = want; /* ω_{2^27}^(2^14) */
    want = FR_ONE;
    for (uint64_t j = 0; j < ((uint64_t)1 << (NTT_ROOT_LOG - NTT_ROOT_LO_LOG)); j++) {
        ntt_root_pow(&got, rt, NTT_ROOT_LOG, j << NTT_ROOT_LO_LOG, 0);
        CHECK_MSG(fr_eq(&got, &want), "high root table entry %llu", (unsigned long long)j);
        fr_mul(&want, &want, &step);
    }
    for (unsigned s = 1; s <= NTT_ROOT_LOG; s++) {
        fr w, wi;
        root(&w, s);
        fr_inv(&wi, &w);
        const uint64_t n = (uint64_t)1 << s;
        const uint64_t es[] = {0, 1, 2, n / 2, n - 1, n, n + 3, 3 * n - 1,
                               test_rand_below(n), test_rand_below((size_t)1 << 40)};
        for (size_t i = 0; i < sizeof es / sizeof es[0]; i++)
            for (int inv = 0; inv < 2; inv++) {
                fr want, got;
                const uint64_t e = es[i] % n;
                fr_pow(&want, inv ? &wi : &w, &e, 1);
                ntt_root_pow(&got, rt, s, es[i], inv);
                CHECK_MSG(fr_eq(&got, &want) && is_reduced(&got), "root_pow s=%u e=%llu inv=%d", s,
                          (unsigned long long)es[i], inv);
            }
        /* a run of 19 column roots from a random start (the last one checked) */
        for (int inv = 0; inv < 2; inv++) {
            fr v[19], want;
            const uint64_t b = test_rand_below(n);
            ntt_col_roots(v, rt, s, b, 19, inv);
            const uint64_t e = (b + 18) % n;
            fr_pow(&want, inv ? &wi : &w, &e, 1);
            CHECK_MSG(fr_eq(&v[18], &want) && is_reduced(&v[18]), "col_roots s=%u inv=%d", s, inv);
        }
    }
}

/* A size with two levels of passes in the production plan (2^21: passes of 5 and 4 stages, then
 * blocks): spot evaluations of the forward transform and of the coset one against Horner, and
 * the round trips back, with the production kernels. */
static void test_two_levels(void)
{
    const unsigned k = 21;
    if (BIG_LOG < 20) /* sanitizer builds: too slow there; test_split_levels covers the levels */
        return;
    ntt_plan p;
    CHECK(ntt_plan_init(&p, k, 2) == CUZK_OK && p.levels == 2);
    ntt_plan_free(&p);
    const size_t n = (size_t)1 << k;
    fr *x = malloc(n * sizeof(fr)), *y = malloc(n * sizeof(fr));
    fill_input(x, n, 1);
    for (int coset = 0; coset < 2; coset++) {
        const cuzk_ntt_kind fwd = coset ? CUZK_NTT_COSET_FORWARD : CUZK_NTT_FORWARD;
        const cuzk_ntt_kind inv = coset ? CUZK_NTT_COSET_INVERSE : CUZK_NTT_INVERSE;
        memcpy(y, x, n * sizeof(fr));
        CHECK(cuzk_ntt(y, k, fwd, 2) == CUZK_OK);
        fr w, g, pt, v;
        root(&w, k);
        fr_from_u64(&g, 7);
        const uint64_t js[2] = {n / 2 + 1 + test_rand_below(n / 2 - 1), test_rand_below(n)};
        for (int i = 0; i < 2; i++) {
            fr_pow(&pt, &w, &js[i], 1);
            if (coset)
                fr_mul(&pt, &pt, &g);
            horner(&v, x, n, &pt);
            CHECK_MSG(fr_eq(&v, &y[js[i]]), "2^%u coset=%d eval j=%llu", k, coset,
                      (unsigned long long)js[i]);
        }
        CHECK(cuzk_ntt(y, k, inv, 2) == CUZK_OK);
        CHECK_MSG(same(y, x, n), "2^%u coset=%d round trip", k, coset);
    }
    free(x), free(y);
}

/* Up to 2^18: the tiled permutation with several work chunks per thread (ntt_bitrev.c). */
static void test_bitrev(void)
{
    for (unsigned k = 0; k <= 18; k++) {
        const size_t n = (size_t)1 << k;
        fr *a = malloc(n * sizeof(fr)), *b = malloc(n * sizeof(fr));
        fill_input(a, n, 0);
        memcpy(b, a, n * sizeof(fr));
        CHECK(cuzk_ntt_bitrev(a, k, (int)(k % 3) + 1) == CUZK_OK);
        bool ok = true;
        for (size_t i = 0; i < n; i++)
            ok &= fr_eq(&a[rev((uint32_t)i, k)], &b[i]);
        CHECK_MSG(ok, "bitrev k=%u", k);
        free(a), free(b);
    }
}

static void test_bad_args(void)
{
    fr a[4], keep[4];
    fill_input(a, 4, 0);
    memcpy(keep, a, sizeof a);
    CHECK(cuzk_ntt(a, 0, CUZK_NTT_FORWARD, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt(a, CUZK_NTT_MAX_LOG + 1, CUZK_NTT_FORWARD, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt(a, 40, CUZK_NTT_INVERSE, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt(NULL, 2, CUZK_NTT_FORWARD, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt(a, 2, (cuzk_ntt_kind)4, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt(a, 2, (cuzk_ntt_kind)-1, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt(a, 2, CUZK_NTT_FORWARD, -1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt_ordered(a, 2, CUZK_NTT_FORWARD, (cuzk_ntt_order)3, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt_bitrev(NULL, 2, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt_bitrev(a, 28, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt_bitrev(a, 2, -1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt_prepare(0, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt_prepare(28, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(memcmp(a, keep, sizeof a) == 0);
    /* threads = 0 means every CPU */
    CHECK(cuzk_ntt(a, 2, CUZK_NTT_FORWARD, 0) == CUZK_OK);
    CHECK(cuzk_ntt(a, 2, CUZK_NTT_INVERSE, 0) == CUZK_OK);
    CHECK(memcmp(a, keep, sizeof a) == 0);
}

/* Concurrent transforms of different sizes while the tables are being built. */
typedef struct {
    unsigned k;
    fr *x;
    bool ok;
} conc_arg;

static void *conc_worker(void *p)
{
    conc_arg *c = p;
    const size_t n = (size_t)1 << c->k;
    fr *y = malloc(n * sizeof(fr));
    c->ok = y != NULL;
    for (int it = 0; it < 3 && c->ok; it++) {
        memcpy(y, c->x, n * sizeof(fr));
        c->ok = cuzk_ntt(y, c->k, CUZK_NTT_COSET_FORWARD, 2) == CUZK_OK &&
                cuzk_ntt(y, c->k, CUZK_NTT_COSET_INVERSE, 1) == CUZK_OK && same(y, c->x, n);
    }
    free(y);
    return NULL;
}

static void test_concurrent(void)
{
    cuzk_ntt_release_tables();
    enum { NT = 4 };
    conc_arg args[NT];
    pthread_t th[NT];
    for (int i = 0; i < NT; i++) {
        args[i].k = KSET_LOG_A - (unsigned)(i % 2); /* two threads per size */
        const size_t n = (size_t)1 << args[i].k;
        args[i].x = malloc(n * sizeof(fr));
        fill_input(args[i].x, n, 0);
    }
    for (int i = 0; i < NT; i++)
        CHECK(pthread_create(&th[i], NULL, conc_worker, &args[i]) == 0);
    for (int i = 0; i < NT; i++) {
        pthread_join(th[i], NULL);
        CHECK_MSG(args[i].ok, "concurrent round trip k=%u", args[i].k);
        free(args[i].x);
    }
}

/* The twiddle tables: the same few hundred KiB for every size with passes (the largest
 * included: no table grows with the transform), none for in-cache sizes, released and rebuilt. */
static void test_tables(void)
{
    const unsigned k = KSET_LOG_A;
    const size_t root_bytes = (((size_t)1 << NTT_ROOT_LO_LOG) +
                               ((size_t)1 << (NTT_ROOT_LOG - NTT_ROOT_LO_LOG))) * sizeof(fr);
    cuzk_ntt_release_tables();
    CHECK(cuzk_ntt_prepare(NTT_BLOCK_LOG, 2) == CUZK_OK);
    CHECK(cuzk_ntt_table_bytes() == 0);
    CHECK(cuzk_ntt_prepare(k, 2) == CUZK_OK);
    CHECK_MSG(cuzk_ntt_table_bytes() == root_bytes, "table bytes %zu", cuzk_ntt_table_bytes());
    CHECK(cuzk_ntt_prepare(CUZK_NTT_MAX_LOG, 2) == CUZK_OK);
    CHECK(cuzk_ntt_table_bytes() == root_bytes && root_bytes <= ((size_t)1 << 20));
    cuzk_ntt_release_tables();
    CHECK(cuzk_ntt_table_bytes() == 0);
    /* rebuilt on the next use, same results */
    const size_t n = (size_t)1 << k;
    fr *x = malloc(n * sizeof(fr)), *y = malloc(n * sizeof(fr));
    fill_input(x, n, 0);
    memcpy(y, x, n * sizeof(fr));
    CHECK(cuzk_ntt(y, k, CUZK_NTT_COSET_FORWARD, 2) == CUZK_OK);
    CHECK(cuzk_ntt(y, k, CUZK_NTT_COSET_INVERSE, 2) == CUZK_OK);
    CHECK(same(x, y, n));
    CHECK(cuzk_ntt_table_bytes() > 0);
    free(x), free(y);
}

/* Every size from 2^1 to 2^14, every kind (with its own element order), every kernel set
 * against the portable one (the emulated IFMA set up to 2^12). */
static void test_kernel_sizes(void)
{
    const ntt_kernels *kns[NTT_KERNELS_MAX + 1];
    const int nk = all_sets(kns);
    const size_t N = (size_t)1 << 14;
    fr *x = malloc(N * sizeof(fr)), *ref = malloc(N * sizeof(fr)), *z = malloc(N * sizeof(fr));
    for (unsigned k = 1; k <= 14; k++) {
        const size_t n = (size_t)1 << k;
        for (int kind = 0; kind < 4; kind++) {
            const cuzk_ntt_order order = (cuzk_ntt_order)((k + (unsigned)kind) % 3);
            fill_input(x, n, (int)(k + (unsigned)kind) % 3);
            memcpy(ref, x, n * sizeof(fr));
            CHECK(ntt_run(&ntt_kernels_portable, ref, k, (cuzk_ntt_kind)kind, order, 2) ==
                  CUZK_OK);
            for (int ki = 1; ki < nk; ki++) {
                if (kns[ki] == &ntt_kernels_ifma_emulated && k > 12)
                    continue;
                memcpy(z, x, n * sizeof(fr));
                CHECK(ntt_run(kns[ki], z, k, (cuzk_ntt_kind)kind, order, 2) == CUZK_OK);
                CHECK_MSG(same(z, ref, n), "k=%u %s order=%d: %s != portable", k,
                          kind_name((cuzk_ntt_kind)kind), (int)order, kns[ki]->name);
            }
        }
    }
    free(x), free(ref), free(z);
}

/* Runs one group of checks and prints how long it took (the budget is tight under sanitizers). */
/* The coset NTT with a caller's shift: evaluations at shift·ω^j by Horner (forward), the exact inverse,
 * every order (bit-reversed sides equal the permuted natural ones), the zeta of snarkjs's odd roots, and
 * the argument checks. */
static void test_coset_shifted(void)
{
    for (unsigned k = 1; k <= 9; k++) {
        const size_t n = (size_t)1 << k;
        fr *in = malloc(n * sizeof *in), *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
        fr *perm = malloc(n * sizeof *perm), shift, w, x;
        fill_input(in, n, 0);
        if (k % 3 == 0) {
            root(&shift, k + 1); /* ζ: the odd powers of a 2n-th root */
        } else {
            do
                test_rand_fr(&shift);
            while (fr_is_zero(&shift));
        }
        root(&w, k);
        x = shift;
        for (size_t j = 0; j < n; j++) {
            horner(&want[j], in, n, &x);
            fr_mul(&x, &x, &w);
        }
        memcpy(got, in, n * sizeof *in);
        CHECK(cuzk_ntt_coset_shifted(got, k, &shift, CUZK_NTT_COSET_FORWARD, CUZK_NTT_NN, 2) == CUZK_OK);
        CHECK_MSG(same(got, want, n) && all_reduced(got, n), "coset_shifted forward k=%u", k);
        CHECK(cuzk_ntt_coset_shifted(got, k, &shift, CUZK_NTT_COSET_INVERSE, CUZK_NTT_NN, 1) == CUZK_OK);
        CHECK_MSG(same(got, in, n), "coset_shifted inverse k=%u", k);
        permute(perm, in, k); /* bit-reversed input, natural output */
        CHECK(cuzk_ntt_coset_shifted(perm, k, &shift, CUZK_NTT_COSET_FORWARD, CUZK_NTT_RN, 2) == CUZK_OK);
        CHECK_MSG(same(perm, want, n), "coset_shifted forward RN k=%u", k);
        memcpy(got, in, n * sizeof *in); /* natural input, bit-reversed output */
        CHECK(cuzk_ntt_coset_shifted(got, k, &shift, CUZK_NTT_COSET_FORWARD, CUZK_NTT_NR, 2) == CUZK_OK);
        permute(perm, want, k);
        CHECK_MSG(same(got, perm, n), "coset_shifted forward NR k=%u", k);
        free(in), free(want), free(got), free(perm);
    }
    fr data[4] = {FR_ONE, FR_ONE, FR_ONE, FR_ONE}, zero = FR_ZERO, one = FR_ONE;
    CHECK(cuzk_ntt_coset_shifted(data, 2, &zero, CUZK_NTT_COSET_FORWARD, CUZK_NTT_NN, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt_coset_shifted(data, 2, NULL, CUZK_NTT_COSET_FORWARD, CUZK_NTT_NN, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt_coset_shifted(data, 2, &one, CUZK_NTT_FORWARD, CUZK_NTT_NN, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_ntt_coset_shifted(data, 0, &one, CUZK_NTT_COSET_FORWARD, CUZK_NTT_NN, 1) == CUZK_ERR_INVALID_ARG);
}

static void run(const char *name, void (*fn)(void))
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fn();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("  %-16s %.2fs\n", name,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    fflush(stdout);
}

/* The IFMA passes write segments of 2^21 elements or more with non-temporal stores
 * (ntt_kern_ifma.h), a path no transform in the other tests reaches: one column block of a DIF
 * and of a DIT pass over such a segment must leave the whole segment as the portable kernels do
 * (the DIF pass's outputs are lazy: compared mod r). */
static void test_streamed_pass(void)
{
    if (!(ntt_kernels_ifma_compiled && ifma_available()))
        return;
    const unsigned s = 21, m = 8;
    const size_t n = (size_t)1 << s, cols = ((size_t)1 << NTT_SCRATCH_LOG) >> m, b = 3 * cols;
    fr *x = aligned_alloc(64, n * sizeof(fr)), *y = aligned_alloc(64, n * sizeof(fr));
    void *scratch = aligned_alloc(64, NTT_SCRATCH_BYTES);
    const ntt_roots *rt = ntt_roots_get();
    const ntt_fin reduce = {NTT_FIN_REDUCE, {{0}}};
    CHECK(x && y && scratch && rt);
    for (int dit = 0; dit < 2 && x && y && scratch && rt; dit++) {
        fill_input(x, n, dit);
        memcpy(y, x, n * sizeof(fr));
        if (dit) {
            ntt_kernels_ifma.dit_pass(x, s, m, b, cols, rt, 0, scratch, &reduce);
            ntt_kernels_portable.dit_pass(y, s, m, b, cols, rt, 0, scratch, &reduce);
        } else {
            ntt_kernels_ifma.dif_pass(x, s, m, b, cols, rt, 0, scratch);
            ntt_kernels_portable.dif_pass(y, s, m, b, cols, rt, 0, scratch);
            for (size_t i = 0; i < n; i++) {
                ntt_reduce(&x[i], &x[i]);
                ntt_reduce(&y[i], &y[i]);
            }
        }
        CHECK_MSG(same(x, y, n), "streamed %s pass != portable", dit ? "DIT" : "DIF");
    }
    free(x), free(y), free(scratch);
}

int main(void)
{
    test_init("ntt");
    run("omega", test_omega); /* first: sets omega32 for the references */
    run("arith", test_arith);
    run("ifma-reduce", test_ifma_reduce);
    run("ifma-butterflies", test_ifma_butterflies);
    run("bad-args", test_bad_args);
    run("bitrev", test_bitrev);
    run("dft", test_against_dft);
    run("coset-shifted", test_coset_shifted);
    run("pass-roots", test_pass_roots);
    run("split-levels", test_split_levels);
    run("kernel-sets", test_kernel_sets);
    run("kernel-sizes", test_kernel_sizes);
    run("large", test_large);
    run("streamed-pass", test_streamed_pass);
    run("two-levels", test_two_levels);
    run("tables", test_tables);
    run("concurrent", test_concurrent);
    return test_finish();
}
