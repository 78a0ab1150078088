/* MSM tests written once for G1 and G2 (test_msm_g1.c / test_msm_g2.c set the T_* macros).
 * Bases are P_i = a_i·G with known a_i, so the expected Σ k_i·P_i is (Σ k_i·a_i mod r)·G: one GMP
 * inner product and one double-and-add; a smaller check also sums k_i·P_i point by point. */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuzk/msm.h"
#include "ec/ec.h"
#include "test_util.h"

#ifdef CUZK_SANITIZE
#define T_SCALE 4   /* divide the sizes under sanitizers */
#else
#define T_SCALE 1
#endif

static mpz_t T_r;

static void t_scalar_from_mpz(cuzk_scalar_t *k, const mpz_t v)
{
    memset(k, 0, sizeof *k);
    mpz_export(k->l, NULL, -1, 8, 0, 0, v);
}

static void t_mpz_from_scalar(mpz_t v, const cuzk_scalar_t *k)
{
    mpz_import(v, 4, -1, 8, 0, 0, k->l);
}

static void t_rand_mod_r(mpz_t v)
{
    uint64_t l[5];
    for (int i = 0; i < 5; i++)
        l[i] = test_rand64();
    mpz_import(v, 5, -1, 8, 0, 0, l);
    mpz_mod(v, v, T_r);
}

/* Test inputs: bases with their discrete logs (a_i = 0 marks infinity), scalars. */
typedef struct {
    size_t n;
    T_AFF *bases;
    mpz_t *dlog;
    cuzk_scalar_t *k;
} t_input;

static void t_input_free(t_input *in)
{
    for (size_t i = 0; i < in->n; i++)
        mpz_clear(in->dlog[i]);
    free(in->bases);
    free(in->dlog);
    free(in->k);
    memset(in, 0, sizeof *in);
}

/* Bases a_i·G with a_i = a + i·d (two scalar multiplications and n additions), then rewritten by
 * `mode`: 1 = many duplicates and negations, 2 = sprinkled infinities, 3 = both. */
static void t_make_bases(t_input *in, size_t n, int mode)
{
    in->n = n;
    in->bases = calloc(n ? n : 1, sizeof *in->bases);
    in->dlog = calloc(n ? n : 1, sizeof *in->dlog);
    in->k = calloc(n ? n : 1, sizeof *in->k);
    T_JAC *jac = calloc(n ? n : 1, sizeof *jac);
    mpz_t a, d;
    mpz_inits(a, d, NULL);
    t_rand_mod_r(a);
    t_rand_mod_r(d);
    T_AFF g;
    T_(generator)(&g);
    T_JAC gj, dj, cur;
    cuzk_scalar_t ks;
    T_(jac_from_aff)(&gj, &g);
    t_scalar_from_mpz(&ks, a);
    T_(jac_mul)(&cur, &gj, &ks);
    t_scalar_from_mpz(&ks, d);
    T_(jac_mul)(&dj, &gj, &ks);
    for (size_t i = 0; i < n; i++) {
        mpz_init_set(in->dlog[i], a);
        jac[i] = cur;
        T_(jac_add)(&cur, &cur, &dj);
        mpz_add(a, a, d);
        mpz_mod(a, a, T_r);
    }
    T_(jac_batch_to_aff)(in->bases, jac, n);
    for (size_t i = 0; i < n && (mode & 1); i++) {
        size_t j = test_rand_below(i + 1);
        uint64_t what = test_rand_below(4);
        if (what == 0) { /* duplicate of an earlier base */
            in->bases[i] = in->bases[j];
            mpz_set(in->dlog[i], in->dlog[j]);
        } else if (what == 1) { /* negation of an earlier base */
            T_(aff_neg)(&in->bases[i], &in->bases[j]);
            mpz_sub(in->dlog[i], T_r, in->dlog[j]);
            mpz_mod(in->dlog[i], in->dlog[i], T_r);
        }
    }
    for (size_t i = 0; i < n && (mode & 2); i++)
        if (test_rand_below(8) == 0) {
            T_(aff_set_inf)(&in->bases[i]);
            mpz_set_ui(in->dlog[i], 0);
        }
    mpz_clears(a, d, NULL);
    free(jac);
}

/* Scalar mixes: 0 random < r, 1 only 0/1, 2 specials (0, 1, 2, r−1, (r±1)/2, small, repeats),
 * 3 one repeated value (all adds hit one bucket per window), 4 small (< 2^32), 5 random with one in
 * 32 equal to 0 or 1 (the others stay above the GLV threshold, now with index maps and ones). */
static void t_make_scalars(t_input *in, int mix)
{
    mpz_t v, rep;
    mpz_inits(v, rep, NULL);
    t_rand_mod_r(rep);
    for (size_t i = 0; i < in->n; i++) {
        switch (mix) {
        case 0:
            t_rand_mod_r(v);
            break;
        case 1:
            mpz_set_ui(v, test_rand_below(2));
            break;
        case 2:
            switch (test_rand_below(10)) {
            case 0: mpz_set_ui(v, 0); break;
            case 1: mpz_set_ui(v, 1); break;
            case 2: mpz_set_ui(v, 2); break;
            case 3: mpz_sub_ui(v, T_r, 1); break;
            case 4: mpz_sub_ui(v, T_r, 1), mpz_fdiv_q_2exp(v, v, 1); break;
            case 5: mpz_add_ui(v, T_r, 1), mpz_fdiv_q_2exp(v, v, 1); break;
            case 6: mpz_set_ui(v, test_rand_below(100)); break;
            case 7: mpz_set(v, rep); break;
            case 8: mpz_ui_pow_ui(v, 2, test_rand_below(255)); mpz_mod(v, v, T_r); break;
            default: t_rand_mod_r(v); break;
            }
            break;
        case 3:
            mpz_set(v, rep);
            break;
        case 5:
            if (test_rand_below(32) == 0)
                mpz_set_ui(v, test_rand_below(2));
            else
                t_rand_mod_r(v);
            break;
        default:
            mpz_set_ui(v, test_rand64() & 0xffffffffu);
            break;
        }
        t_scalar_from_mpz(&in->k[i], v);
    }
    mpz_clears(v, rep, NULL);
}

/* (Σ_{i used} k_i·a_i mod r)·G; used = NULL means all; base_of maps scalar i to its base. */
static void t_expected(T_JAC *out, const t_input *in, const bool *used, const size_t *base_of)
{
    mpz_t acc, k;
    mpz_inits(acc, k, NULL);
    for (size_t i = 0; i < in->n; i++) {
        if (used && !used[i])
            continue;
        t_mpz_from_scalar(k, &in->k[i]);
        mpz_addmul(acc, k, in->dlog[base_of ? base_of[i] : i]);
    }
    mpz_mod(acc, acc, T_r);
    cuzk_scalar_t s;
    t_scalar_from_mpz(&s, acc);
    T_AFF g;
    T_JAC gj;
    T_(generator)(&g);
    T_(jac_from_aff)(&gj, &g);
    T_(jac_mul)(out, &gj, &s);
    mpz_clears(acc, k, NULL);
}

static bool t_run_check(const t_input *in, const T_JAC *want, int threads, unsigned window,
                        const char *what)
{
    cuzk_msm_opts o = {.threads = threads, .window = window};
    T_JAC got;
    cuzk_status st = T_MSM(&got, in->bases, in->k, in->n, &o);
    bool ok = st == CUZK_OK && T_(jac_eq)(&got, want);
    CHECK_MSG(ok, "%s %s: n=%zu threads=%d window=%u status=%s", T_NAME, what, in->n, threads,
              window, cuzk_status_str(st));
    return ok;
}

/* Single-point MSMs of G against the independent known answers (@noble/curves). */
static void t_kat(void)
{
    size_t len;
    char *txt = test_read_file("tests/vectors/noble-bls12-381.txt", &len);
    CHECK(txt != NULL);
    if (!txt)
        return;
    T_AFF g;
    T_(generator)(&g);
    int seen = 0;
    for (char *line = strtok(txt, "\n"); line; line = strtok(NULL, "\n")) {
        char tag[16], khex[80], comp[400], unc[800];
        if (sscanf(line, "%15s %79s %399s %799s", tag, khex, comp, unc) != 4 ||
            strcmp(tag, T_KAT_TAG) != 0)
            continue;
        uint8_t kb[32], ub[T_UNCOMP_BYTES];
        CHECK(test_hex_decode(khex, kb, sizeof kb) == 32);
        CHECK(test_hex_decode(unc, ub, sizeof ub) == T_UNCOMP_BYTES);
        cuzk_scalar_t k;
        for (int i = 0; i < 4; i++) {
            k.l[i] = 0;
            for (int b = 0; b < 8; b++)
                k.l[i] |= (uint64_t)kb[31 - 8 * i - b] << (8 * b);
        }
        T_AFF want_aff;
        CHECK(T_DESERIALIZE(&want_aff, ub) == CUZK_OK);
        T_JAC want, got;
        T_(jac_from_aff)(&want, &want_aff);
        for (unsigned w = 0; w <= 16; w += 4) {
            cuzk_msm_opts o = {.threads = 1 + (int)(w % 3), .window = w};
            CHECK(T_MSM(&got, &g, &k, 1, &o) == CUZK_OK);
            CHECK_MSG(T_(jac_eq)(&got, &want), "%s kat k=%s window=%u", T_NAME, khex, w);
        }
        seen++;
    }
    CHECK(seen >= 20);
    free(txt);
}

/* The shortcut through discrete logs must agree with adding k_i·P_i one by one. */
static void t_pointwise(size_t n)
{
    t_input in;
    t_make_bases(&in, n, 3);
    t_make_scalars(&in, 2);
    T_JAC sum, t, pj;
    T_(jac_set_inf)(&sum);
    for (size_t i = 0; i < n; i++) {
        T_(jac_from_aff)(&pj, &in.bases[i]);
        T_(jac_mul)(&t, &pj, &in.k[i]);
        T_(jac_add)(&sum, &sum, &t);
    }
    T_JAC want;
    t_expected(&want, &in, NULL, NULL);
    CHECK_MSG(T_(jac_eq)(&sum, &want), "%s reference shortcut disagrees with the naive sum", T_NAME);
    t_run_check(&in, &sum, 2, 0, "pointwise");
    t_input_free(&in);
}

/* Random sizes and mixes on default options, and on random thread counts. */
static void t_random(int rounds, size_t max_n)
{
    for (int r = 0; r < rounds; r++) {
        size_t n = 1 + test_rand_below(max_n);
        int mode = (int)test_rand_below(4), mix = (int)test_rand_below(5);
        t_input in;
        t_make_bases(&in, n, mode);
        t_make_scalars(&in, mix);
        T_JAC want;
        t_expected(&want, &in, NULL, NULL);
        char what[64];
        snprintf(what, sizeof what, "random mode=%d mix=%d", mode, mix);
        t_run_check(&in, &want, 0, 0, what);
        t_run_check(&in, &want, 1 + (int)test_rand_below(4), 0, what);
        t_input_free(&in);
    }
}

/* Every window 1..max_window with 1..4 threads on one small input with every special case. */
static void t_windows(size_t n, unsigned max_window)
{
    t_input in;
    t_make_bases(&in, n, 3);
    t_make_scalars(&in, 2);
    T_JAC want;
    t_expected(&want, &in, NULL, NULL);
    for (unsigned w = 1; w <= max_window; w++)
        for (int t = 1; t <= 4; t++)
            t_run_check(&in, &want, t, w, "window sweep");
    t_input_free(&in);
}

/* Specific shapes: one repeated scalar (queue overflow and spill buckets), 0/1 only (the ones
 * path with its pairwise tree), duplicates and negations with equal scalars (P + P and P − P in one
 * batch), large windows. */
static void t_shapes(size_t n)
{
    t_input in;
    T_JAC want;
    /* Repeated scalar, many duplicates: the bucket conflicts. */
    t_make_bases(&in, n, 1);
    t_make_scalars(&in, 3);
    t_expected(&want, &in, NULL, NULL);
    for (unsigned w = 8; w <= 16; w += 4)
        t_run_check(&in, &want, 1, w, "repeated scalar");
    t_run_check(&in, &want, 3, 0, "repeated scalar");
    t_input_free(&in);
    /* 0/1 scalars, with duplicates, negations and infinities. */
    t_make_bases(&in, 4 * n, 3);
    t_make_scalars(&in, 1);
    t_expected(&want, &in, NULL, NULL);
    t_run_check(&in, &want, 1, 0, "bits");
    t_run_check(&in, &want, 4, 0, "bits");
    t_input_free(&in);
    /* P and −P (and P, P) only, all with the same scalar: every add cancels or doubles. */
    t_make_bases(&in, n, 0);
    for (size_t i = 1; i < n; i += 2) {
        if (i % 4 == 1)
            T_(aff_neg)(&in.bases[i], &in.bases[i - 1]);
        else
            in.bases[i] = in.bases[i - 1];
        mpz_set(in.dlog[i], in.dlog[i - 1]);
        if (i % 4 == 1)
            mpz_sub(in.dlog[i], T_r, in.dlog[i]), mpz_mod(in.dlog[i], in.dlog[i], T_r);
    }
    t_make_scalars(&in, 3);
    t_expected(&want, &in, NULL, NULL);
    t_run_check(&in, &want, 1, 10, "pairs");
    t_run_check(&in, &want, 2, 0, "pairs");
    t_input_free(&in);
    /* Large windows (most buckets empty). */
    t_make_bases(&in, n / 4 + 1, 3);
    t_make_scalars(&in, 0);
    t_expected(&want, &in, NULL, NULL);
    t_run_check(&in, &want, 2, 19, "large window");
    t_run_check(&in, &want, 1, CUZK_MSM_MAX_WINDOW, "largest window");
    t_input_free(&in);
}

/* Density bitmaps: random, all set, none set; extra bases are ignored; too few bases is an error. */
static void t_density(size_t n)
{
    for (int kind = 0; kind < 3; kind++) {
        t_input full;   /* scalars, and the base of each set bit in order */
        t_make_bases(&full, n, 2);
        t_make_scalars(&full, kind == 0 ? 2 : (int)test_rand_below(3));
        size_t words = (n + 63) / 64 + 1;
        uint64_t *bits = calloc(words, 8);
        bool *used = calloc(n, 1);
        size_t *base_of = calloc(n, sizeof *base_of);
        size_t nb = 0;
        for (size_t i = 0; i < n; i++) {
            bool on = kind == 1 || (kind == 0 && test_rand_below(3) != 0);
            if (on) {
                bits[i / 64] |= (uint64_t)1 << (i % 64);
                used[i] = true;
                base_of[i] = nb++;
            }
        }
        bits[words - 1] = ~(uint64_t)0;  /* bits past n_scalars are ignored */
        if (n % 64)
            bits[n / 64] |= ~(uint64_t)0 << (n % 64);
        /* Compact bases: the first nb bases of `full` plus two extra ones. */
        T_JAC want, got;
        t_expected(&want, &full, used, base_of);
        cuzk_msm_opts o = {.threads = 1 + (int)test_rand_below(4)};
        size_t n_bases = nb + 2 <= n ? nb + 2 : nb;
        cuzk_status st = T_MSM_DENSITY(&got, full.bases, n_bases, full.k, n, bits, &o);
        CHECK_MSG(st == CUZK_OK && T_(jac_eq)(&got, &want), "%s density kind=%d n=%zu set=%zu %s",
                  T_NAME, kind, n, nb, cuzk_status_str(st));
        if (nb > 0) {
            st = T_MSM_DENSITY(&got, full.bases, nb - 1, full.k, n, bits, &o);
            CHECK_MSG(st == CUZK_ERR_BAD_LENGTH, "%s density with too few bases: %s", T_NAME,
                      cuzk_status_str(st));
        }
        free(bits);
        free(used);
        free(base_of);
        t_input_free(&full);
    }
}

/* Argument errors, n = 0 and out-of-range scalars; *out untouched on error. */
static void t_errors(void)
{
    t_input in;
    t_make_bases(&in, 5, 0);
    t_make_scalars(&in, 0);
    T_JAC out, mark;
    T_(jac_from_aff)(&mark, &in.bases[0]);
    cuzk_msm_opts bad_w = {.window = CUZK_MSM_MAX_WINDOW + 1}, bad_t = {.threads = -1};
    CHECK(T_MSM(NULL, in.bases, in.k, 5, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(T_MSM(&out, NULL, in.k, 5, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(T_MSM(&out, in.bases, NULL, 5, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(T_MSM(&out, in.bases, in.k, 5, &bad_w) == CUZK_ERR_INVALID_ARG);
    CHECK(T_MSM(&out, in.bases, in.k, 5, &bad_t) == CUZK_ERR_INVALID_ARG);
    CHECK(T_MSM_DENSITY(&out, in.bases, 5, in.k, 5, NULL, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(T_MSM(&out, NULL, NULL, 0, NULL) == CUZK_OK && T_(jac_is_inf)(&out));
    CHECK(T_MSM_DENSITY(&out, NULL, 0, NULL, 0, NULL, NULL) == CUZK_OK && T_(jac_is_inf)(&out));
    /* r and 2^256 − 1 are out of range, r − 1 is not. */
    out = mark;
    mpz_t v;
    mpz_init_set(v, T_r);
    t_scalar_from_mpz(&in.k[3], v);
    CHECK(T_MSM(&out, in.bases, in.k, 5, NULL) == CUZK_ERR_NOT_CANONICAL);
    CHECK(T_(jac_eq)(&out, &mark));
    memset(&in.k[3], 0xff, sizeof in.k[3]);
    CHECK(T_MSM(&out, in.bases, in.k, 5, NULL) == CUZK_ERR_NOT_CANONICAL);
    /* An out-of-range scalar whose density bit is clear takes no part. */
    uint64_t bits = 0x17;  /* 0, 1, 2, 4 */
    CHECK(T_MSM_DENSITY(&out, in.bases, 5, in.k, 5, &bits, NULL) == CUZK_OK);
    mpz_sub_ui(v, v, 1);
    t_scalar_from_mpz(&in.k[3], v);
    T_JAC want;
    t_expected(&want, &in, NULL, NULL);
    t_run_check(&in, &want, 1, 0, "r-1");
    mpz_clear(v);
    t_input_free(&in);
}

#ifdef T_KERNEL
/* The point kernels a test forces through the dispatch table's EC_LANES entry, whatever the variant. */
static const ec_ifma_ops *t_forced_lanes;
static const void *t_forced_lanes_variant(cuzk_variant v)
{
    (void)v;
    return t_forced_lanes;
}

/* Makes the table's point kernels `ops` (NULL: the scalar code), with the rest of the current choice
 * kept; t_unforce_lanes gives the entry back to its owner. */
static void t_force_lanes(const ec_ifma_ops *ops)
{
    const cuzk_init_options_t keep = cuzk_dispatch()->asked;
    t_forced_lanes = ops;
    cuzk_dispatch_override(CUZK_ENTRY_EC_LANES, t_forced_lanes_variant);
    CHECK(cuzk_dispatch_reinit(&keep, NULL) == CUZK_OK);
    CHECK(ec_lanes() == ops);
}

static void t_unforce_lanes(void)
{
    const cuzk_init_options_t keep = cuzk_dispatch()->asked;
    cuzk_dispatch_override(CUZK_ENTRY_EC_LANES, NULL);
    CHECK(cuzk_dispatch_reinit(&keep, NULL) == CUZK_OK);
    CHECK(ec_lanes() == ec_lanes_variant(cuzk_variant_of_impl(cuzk_impl_active())));
}

/* The same inputs through the 8-lane batch-add kernel `ops` (by default its portable emulation), made
 * the dispatch table's point kernels, so that it takes over the flush of every batch: random, specials
 * (P + P, P − P, infinity), 0/1, windows. T_KERNEL_ALL: also the real build where the CPU runs it, and
 * none (the scalar flush), whatever the implementation would choose. */
static void t_kernel_with(const ec_ifma_ops *ops, size_t n)
{
    t_force_lanes(ops);
    for (int round = 0; round < 3; round++) {
        t_input in;
        t_make_bases(&in, n, round == 0 ? 0 : 3);
        t_make_scalars(&in, round == 0 ? 0 : round == 1 ? 2 : 1);
        T_JAC want;
        t_expected(&want, &in, NULL, NULL);
        t_run_check(&in, &want, 2, 0, "kernel");
        t_run_check(&in, &want, 1, 12, "kernel");
        t_input_free(&in);
    }
    t_input in;
    t_make_bases(&in, n / 2, 1);
    t_make_scalars(&in, 3);
    T_JAC want;
    t_expected(&want, &in, NULL, NULL);
    t_run_check(&in, &want, 1, 10, "kernel, repeated scalar");
    t_input_free(&in);
    t_unforce_lanes();
}

/* Windows of 2^15 buckets take batches of the plan's largest size (2,048 G1 adds, 256 G2). A batch only
 * holds adds into buckets already filled, so the scalars' 16-bit digits are drawn from 1..4096 (no
 * carries, 15 windows): past the first ~4,096 points of a window nearly every add joins a batch, and at
 * full size (not under the sanitizers' T_SCALE) each window fills one batch of 2,048 and flushes a
 * partial one, through the lane kernel the run picks and through the emulated one. */
static void t_full_batches(size_t n)
{
    t_input in;
    t_make_bases(&in, n, 0);
    mpz_t v;
    mpz_init(v);
    for (size_t i = 0; i < n; i++) {
        mpz_set_ui(v, 0);
        for (int w = 14; w >= 0; w--) {
            mpz_mul_2exp(v, v, 16);
            mpz_add_ui(v, v, 1 + test_rand_below(4096));
        }
        t_scalar_from_mpz(&in.k[i], v);
    }
    mpz_clear(v);
    T_JAC want;
    t_expected(&want, &in, NULL, NULL);
    t_run_check(&in, &want, 1, 16, "full batches");
    t_force_lanes(&ec_ifma_ops_emulated);
    t_run_check(&in, &want, 1, 16, "full batches, emulated kernel");
    t_unforce_lanes();
    t_input_free(&in);
}

static void t_kernel(size_t n)
{
    t_full_batches(8192 / T_SCALE);
#ifdef T_KERNEL_ALL
    t_kernel_with(&ec_ifma_ops_emulated, n);
    if (ec_ifma_ops_real())
        t_kernel_with(ec_ifma_ops_real(), n);
    else
        printf("  IFMA hardware not present: real kernel not exercised\n");
    t_kernel_with(NULL, n);
#else
    t_kernel_with(&ec_ifma_ops_emulated, n);
#endif
}
#endif

static double t_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs one section and prints its time, to keep an eye on the test's run time. */
#ifdef T_GLV
/* Above MSM_GLV_MIN others G1 goes through the GLV split: random scalars, and random ones with some 0
 * and 1 among them (then the others come through index maps and the ones are summed apart), over
 * duplicate, negated and infinite bases, with and without a density bitmap, several thread counts and
 * a forced window. The size is not scaled down under sanitizers: below the threshold the path would
 * not run. */
static void t_glv(void)
{
    size_t n = MSM_GLV_MIN + 2000;
    CHECK(n <= MSM_GLV_MAX);
    for (int mix = 0; mix <= 5; mix += 5) {
        t_input in;
        t_make_bases(&in, n, 3);
        t_make_scalars(&in, mix);
        T_JAC want;
        t_expected(&want, &in, NULL, NULL);
        t_run_check(&in, &want, 1, 0, "glv");
        t_run_check(&in, &want, 3, 7, "glv, window 7");
        /* Every scalar's bit set in a bitmap over the same bases: the same sum via the density path. */
        uint64_t *bits = calloc((n + 63) / 64, sizeof *bits);
        for (size_t i = 0; i < n; i++)
            bits[i / 64] |= 1ull << (i % 64);
        T_JAC got;
        cuzk_msm_opts o = {.threads = 2};
        CHECK(T_MSM_DENSITY(&got, in.bases, n, in.k, n, bits, &o) == CUZK_OK);
        CHECK_MSG(T_(jac_eq)(&got, &want), "glv with a full density bitmap, mix %d", mix);
        free(bits);
        t_input_free(&in);
    }
}
#endif

#define T_SECTION(call)                                           \
    do {                                                          \
        double t0_ = t_now();                                     \
        call;                                                     \
        printf("  %-40s %.2fs\n", #call, t_now() - t0_);          \
    } while (0)

static int t_main(const char *name)
{
    test_init(name);
    mpz_init_set_str(T_r, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
    T_SECTION(t_kat());
    T_SECTION(t_errors());
    T_SECTION(t_pointwise(T_POINTWISE_N / T_SCALE));
    T_SECTION(t_windows(T_SWEEP_N / T_SCALE + 8, T_SWEEP_MAX_WINDOW));
    T_SECTION(t_shapes(T_SHAPES_N / T_SCALE));
    T_SECTION(t_density(T_DENSITY_N / T_SCALE));
    T_SECTION(t_random(T_RANDOM_ROUNDS, T_RANDOM_MAX_N / T_SCALE));
#ifdef T_KERNEL
    T_SECTION(t_kernel(T_KERNEL_N / T_SCALE));
#endif
#ifdef T_GLV
    T_SECTION(t_glv());
#endif
    mpz_clear(T_r);
    return test_finish();
}
