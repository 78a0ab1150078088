/* The dispatch table (util/dispatch.h, cuzk/cuzk.h): cuzk_init's contract (idempotence, refusals,
 * the environment only when asked), the entries each implementation resolves to, and that the
 * choice reaches every kernel: with counting wrappers in place of every variant of every entry, a
 * workload over ff, ec, msm, ntt, Poseidon and the SDR Feistel permutation calls only the variants of
 * the chosen implementation (portable, adx, and ifma where the CPU has it), and every entry it should. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/cuzk.h"
#include "cuzk/msm.h"
#include "cuzk/ntt.h"
#include "ec/ec.h"
#include "ec/ifma/ec_ifma.h"
#include "ff/ff_impl.h"
#include "ff/fp2.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/poseidon_ifma.h"
#include "filecoin/sdr/feistel_kernels.h"
#include "filecoin/sdr/graph.h"
#include "msm/msm_internal.h"
#include "ntt/ntt_internal.h"
#include "test_util.h"
#include "util/dispatch.h"

/* ---- counting wrappers: one per entry, variant and function ---- */

enum { NV = CUZK_VARIANT_CUDA }; /* the CPU variants; CUDA has nothing yet */

static atomic_long calls[CUZK_ENTRY_COUNT][CUZK_VARIANT_COUNT];

static void count(cuzk_entry e, int v) { atomic_fetch_add_explicit(&calls[e][v], 1, memory_order_relaxed); }

static const ff_ops *ff_real[NV];
static const ec_ifma_ops *ec_real[NV];
static const msm_backend *msm_real[NV];
static const ntt_backend *ntt_real[NV];
static const ntt_kernels *kern_real[NV];
static const cuzk_pl_kernels_t *pl_real[NV];
static const cuzk_fc_feistel_lanes_t *fl_real[NV];

#define WRAP(V)                                                                                               \
    static void ff_fp_mul_##V(fp *r, const fp *a, const fp *b)                                                    \
    {                                                                                                             \
        count(CUZK_ENTRY_FF, V), ff_real[V]->fp_mul(r, a, b);                                                     \
    }                                                                                                             \
    static void ff_fp_sqr_##V(fp *r, const fp *a) { count(CUZK_ENTRY_FF, V), ff_real[V]->fp_sqr(r, a); }          \
    static void ff_fr_mul_##V(fr *r, const fr *a, const fr *b)                                                    \
    {                                                                                                             \
        count(CUZK_ENTRY_FF, V), ff_real[V]->fr_mul(r, a, b);                                                     \
    }                                                                                                             \
    static void ff_fr_sqr_##V(fr *r, const fr *a) { count(CUZK_ENTRY_FF, V), ff_real[V]->fr_sqr(r, a); }          \
    static void ff_wide_##V(uint64_t t[12], const uint64_t a[6], const uint64_t b[6])                              \
    {                                                                                                             \
        count(CUZK_ENTRY_FF, V), ff_real[V]->fp_mul_wide(t, a, b);                                                \
    }                                                                                                             \
    static void ff_redc_##V(fp *r, const uint64_t t[12]) { count(CUZK_ENTRY_FF, V), ff_real[V]->fp_redc(r, t); }  \
    static const ff_ops ff_w_##V = {"counted",    ff_fp_mul_##V, ff_fp_sqr_##V, ff_fr_mul_##V,                    \
                                    ff_fr_sqr_##V, ff_wide_##V,  ff_redc_##V};                                    \
    static bool ec_g1_add_##V(cuzk_g1_affine_t *const *o, const cuzk_g1_affine_t *const *p,                      \
                              const cuzk_g1_affine_t *const *q, const uint8_t *neg, size_t n, void *s)            \
    {                                                                                                             \
        return count(CUZK_ENTRY_EC_LANES, V), ec_real[V]->g1_batch_add(o, p, q, neg, n, s);                       \
    }                                                                                                             \
    static size_t ec_g1_skip_##V(cuzk_g1_affine_t *const *o, const cuzk_g1_affine_t *const *p,                   \
                                 const cuzk_g1_affine_t *const *q, const uint8_t *neg, size_t n, void *s,         \
                                 uint8_t *sk)                                                                     \
    {                                                                                                             \
        return count(CUZK_ENTRY_EC_LANES, V), ec_real[V]->g1_batch_add_skip(o, p, q, neg, n, s, sk);              \
    }                                                                                                             \
    static bool ec_g2_add_##V(cuzk_g2_affine_t *const *o, const cuzk_g2_affine_t *const *p,                      \
                              const cuzk_g2_affine_t *const *q, const uint8_t *neg, size_t n, void *s)            \
    {                                                                                                             \
        return count(CUZK_ENTRY_EC_LANES, V), ec_real[V]->g2_batch_add(o, p, q, neg, n, s);                       \
    }                                                                                                             \
    static void ec_g1_oc_##V(const cuzk_g1_affine_t *p, size_t n, uint8_t *ok)                                    \
    {                                                                                                             \
        count(CUZK_ENTRY_EC_LANES, V), ec_real[V]->g1_on_curve_n(p, n, ok);                                       \
    }                                                                                                             \
    static void ec_g2_oc_##V(const cuzk_g2_affine_t *p, size_t n, uint8_t *ok)                                    \
    {                                                                                                             \
        count(CUZK_ENTRY_EC_LANES, V), ec_real[V]->g2_on_curve_n(p, n, ok);                                       \
    }                                                                                                             \
    static void ec_mont_##V(cuzk_fp_t *c, size_t n)                                                              \
    {                                                                                                             \
        count(CUZK_ENTRY_EC_LANES, V), ec_real[V]->fp_to_mont_n(c, n);                                            \
    }                                                                                                             \
    static const ec_ifma_ops ec_w_##V = {"counted", ec_g1_add_##V, ec_g1_skip_##V, ec_g2_add_##V, ec_g1_oc_##V,  \
                                         ec_g2_oc_##V, ec_mont_##V};                                              \
    static cuzk_status msm_g1_##V(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *b, size_t nb,                       \
                                  const cuzk_scalar_t *s, size_t ns, const uint64_t *d, int t, unsigned w)        \
    {                                                                                                             \
        return count(CUZK_ENTRY_MSM, V), msm_real[V]->g1(out, b, nb, s, ns, d, t, w);                             \
    }                                                                                                             \
    static cuzk_status msm_g2_##V(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *b, size_t nb,                       \
                                  const cuzk_scalar_t *s, size_t ns, const uint64_t *d, int t, unsigned w)        \
    {                                                                                                             \
        return count(CUZK_ENTRY_MSM, V), msm_real[V]->g2(out, b, nb, s, ns, d, t, w);                             \
    }                                                                                                             \
    static const msm_backend msm_w_##V = {"counted", msm_g1_##V, msm_g2_##V};                                     \
    static cuzk_status ntt_run_##V(cuzk_fr_t *d, unsigned k, cuzk_ntt_kind kind, cuzk_ntt_order o,                \
                                   const cuzk_fr_t *sh, int t)                                                    \
    {                                                                                                             \
        return count(CUZK_ENTRY_NTT, V), ntt_real[V]->run(d, k, kind, o, sh, t);                                  \
    }                                                                                                             \
    static const ntt_backend ntt_w_##V = {"counted", ntt_run_##V};                                                \
    static void k_difb_##V(fr *a, unsigned k, int inv, const ntt_fin *f, void *s)                                 \
    {                                                                                                             \
        count(CUZK_ENTRY_NTT_KERNELS, V), kern_real[V]->dif_block(a, k, inv, f, s);                               \
    }                                                                                                             \
    static void k_ditb_##V(fr *a, unsigned k, int inv, const ntt_fin *f, void *s)                                 \
    {                                                                                                             \
        count(CUZK_ENTRY_NTT_KERNELS, V), kern_real[V]->dit_block(a, k, inv, f, s);                               \
    }                                                                                                             \
    static void k_difp_##V(fr *g, unsigned s, unsigned m, size_t b, size_t c, const ntt_roots *rt, int inv,       \
                           void *sc)                                                                              \
    {                                                                                                             \
        count(CUZK_ENTRY_NTT_KERNELS, V), kern_real[V]->dif_pass(g, s, m, b, c, rt, inv, sc);                     \
    }                                                                                                             \
    static void k_ditp_##V(fr *g, unsigned s, unsigned m, size_t b, size_t c, const ntt_roots *rt, int inv,       \
                           void *sc, const ntt_fin *f)                                                            \
    {                                                                                                             \
        count(CUZK_ENTRY_NTT_KERNELS, V), kern_real[V]->dit_pass(g, s, m, b, c, rt, inv, sc, f);                  \
    }                                                                                                             \
    static void k_scale_##V(fr *a, size_t n, const fr *hi, const fr *lo)                                          \
    {                                                                                                             \
        count(CUZK_ENTRY_NTT_KERNELS, V), kern_real[V]->scale(a, n, hi, lo);                                      \
    }                                                                                                             \
    static const ntt_kernels kern_w_##V = {"counted", k_difb_##V, k_ditb_##V, k_difp_##V, k_ditp_##V,             \
                                           k_scale_##V};                                                          \
    static void pl_bytes_##V(const cuzk_pl_table_t *c, const cuzk_pl_const_t *tag, uint8_t *o, const uint8_t *in, \
                             size_t n)                                                                            \
    {                                                                                                             \
        count(CUZK_ENTRY_POSEIDON_LANES, V), pl_real[V]->hash_bytes(c, tag, o, in, n);                            \
    }                                                                                                             \
    static void pl_fr_##V(const cuzk_pl_table_t *c, const cuzk_pl_const_t *tag, fr *o, const fr *in, size_t n)    \
    {                                                                                                             \
        count(CUZK_ENTRY_POSEIDON_LANES, V), pl_real[V]->hash_fr(c, tag, o, in, n);                               \
    }                                                                                                             \
    static const cuzk_pl_kernels_t pl_w_##V = {"counted", pl_bytes_##V, pl_fr_##V};                              \
    static void fl_enc_##V(const cuzk_fc_feistel_t *f, uint64_t *v, size_t n)                                    \
    {                                                                                                             \
        count(CUZK_ENTRY_FEISTEL_LANES, V), fl_real[V]->encode_lanes(f, v, n);                                    \
    }                                                                                                             \
    static const cuzk_fc_feistel_lanes_t fl_w_##V = {"counted", fl_enc_##V};

WRAP(0)
WRAP(1)
WRAP(2)
WRAP(3)
#undef WRAP

static const ff_ops *const ff_w[NV] = {&ff_w_0, &ff_w_1, &ff_w_2, &ff_w_3};
static const ec_ifma_ops *const ec_w[NV] = {&ec_w_0, &ec_w_1, &ec_w_2, &ec_w_3};
static const msm_backend *const msm_w[NV] = {&msm_w_0, &msm_w_1, &msm_w_2, &msm_w_3};
static const ntt_backend *const ntt_w[NV] = {&ntt_w_0, &ntt_w_1, &ntt_w_2, &ntt_w_3};
static const ntt_kernels *const kern_w[NV] = {&kern_w_0, &kern_w_1, &kern_w_2, &kern_w_3};
static const cuzk_pl_kernels_t *const pl_w[NV] = {&pl_w_0, &pl_w_1, &pl_w_2, &pl_w_3};
static const cuzk_fc_feistel_lanes_t *const fl_w[NV] = {&fl_w_0, &fl_w_1, &fl_w_2, &fl_w_3};

/* The test's variant functions: the owner's variant, wrapped (NULL stays NULL: the scalar code). */
#define COUNTED(name, real, wrapped, owner)                          \
    static const void *name(cuzk_variant v)                          \
    {                                                                \
        if ((int)v >= NV)                                            \
            return NULL;                                             \
        real[v] = owner(v);                                          \
        return real[v] ? (const void *)wrapped[v] : NULL;            \
    }
COUNTED(ff_counted, ff_real, ff_w, ff_variant)
COUNTED(ec_counted, ec_real, ec_w, ec_lanes_variant)
COUNTED(msm_counted, msm_real, msm_w, msm_backend_variant)
COUNTED(ntt_counted, ntt_real, ntt_w, ntt_backend_variant)
COUNTED(kern_counted, kern_real, kern_w, ntt_kernels_variant)
COUNTED(pl_counted, pl_real, pl_w, cuzk_pl_kernels_variant)
COUNTED(fl_counted, fl_real, fl_w, cuzk_fc_feistel_lanes_variant)
#undef COUNTED

static const char *const entry_names[CUZK_ENTRY_COUNT] = {"ff",          "ec-lanes",       "msm",
                                                          "ntt",         "ntt-kernels",    "poseidon-lanes",
                                                          "feistel-lanes"};
static const char *const variant_names[CUZK_VARIANT_COUNT] = {"portable", "adx", "avx2", "ifma", "cuda"};

/* ---- the workload ---- */

enum { MSM_G1_N = 2048, MSM_G2_N = 512, NTT_LOG = 10, POSEIDON_N = 40, FEISTEL_NODES = 64 };
static g1_aff *g1_pts;
static g2_aff *g2_pts;
static cuzk_scalar_t *scalars;
static cuzk_g1_jac_t msm_g1_want;
static cuzk_g2_jac_t msm_g2_want;

static void make_inputs(void)
{
    g1_pts = malloc(MSM_G1_N * sizeof *g1_pts);
    g2_pts = malloc(MSM_G2_N * sizeof *g2_pts);
    scalars = malloc(MSM_G1_N * sizeof *scalars);
    g1_jac *j1 = malloc(MSM_G1_N * sizeof *j1);
    g2_jac *j2 = malloc(MSM_G2_N * sizeof *j2);
    if (!g1_pts || !g2_pts || !scalars || !j1 || !j2) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    g1_aff g;
    g2_aff h;
    g1_generator(&g);
    g2_generator(&h);
    g1_jac_from_aff(&j1[0], &g);
    g2_jac_from_aff(&j2[0], &h);
    for (size_t i = 1; i < MSM_G1_N; i++)
        g1_jac_add_aff(&j1[i], &j1[i - 1], &g);
    for (size_t i = 1; i < MSM_G2_N; i++)
        g2_jac_add_aff(&j2[i], &j2[i - 1], &h);
    g1_jac_batch_to_aff(g1_pts, j1, MSM_G1_N);
    g2_jac_batch_to_aff(g2_pts, j2, MSM_G2_N);
    for (size_t i = 0; i < MSM_G1_N; i++)
        test_rand_scalar(&scalars[i]);
    free(j1), free(j2);
    const cuzk_msm_opts o = {.threads = 2};
    CHECK(cuzk_msm_g1(&msm_g1_want, g1_pts, scalars, MSM_G1_N, &o) == CUZK_OK);
    CHECK(cuzk_msm_g2(&msm_g2_want, g2_pts, scalars, MSM_G2_N, &o) == CUZK_OK);
}

static void work_ff(void)
{
    fp a = FP_ONE, b;
    fr c = FR_ONE, d;
    fp_add(&a, &a, &a);
    fr_add(&c, &c, &c);
    fp_mul(&b, &a, &a);
    fp_sqr(&b, &b);
    fr_mul(&d, &c, &c);
    fr_sqr(&d, &d);
    fp2 x = {a, b}, y;
    fp2_mul(&y, &x, &x); /* fp_mul_wide and fp_redc */
    CHECK(!fp_is_zero(&b) && !fr_is_zero(&d) && !fp2_is_zero(&y));
}

static void work_ec(void)
{
    CHECK(g1_aff_first_off_curve(g1_pts, 64) == 64);
    CHECK(g2_aff_first_off_curve(g2_pts, 64) == 64);
}

static void work_msm(void)
{
    const cuzk_msm_opts o = {.threads = 2};
    cuzk_g1_jac_t r1;
    cuzk_g2_jac_t r2;
    CHECK(cuzk_msm_g1(&r1, g1_pts, scalars, MSM_G1_N, &o) == CUZK_OK);
    CHECK(cuzk_msm_g2(&r2, g2_pts, scalars, MSM_G2_N, &o) == CUZK_OK);
    CHECK(g1_jac_eq(&r1, &msm_g1_want));
    CHECK(g2_jac_eq(&r2, &msm_g2_want));
}

static void work_ntt(void)
{
    enum { N = 1 << NTT_LOG };
    static fr a[N], b[N];
    for (size_t i = 0; i < N; i++)
        fr_from_u64(&a[i], i * 2654435761u + 1), b[i] = a[i];
    CHECK(cuzk_ntt(b, NTT_LOG, CUZK_NTT_COSET_FORWARD, 2) == CUZK_OK);
    CHECK(cuzk_ntt(b, NTT_LOG, CUZK_NTT_COSET_INVERSE, 2) == CUZK_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
}

static void work_poseidon(void)
{
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(8);
    static fr in[POSEIDON_N * 8], out[POSEIDON_N];
    for (size_t i = 0; i < POSEIDON_N * 8; i++)
        fr_from_u64(&in[i], i + 1);
    cuzk_poseidon_hash_batch(out, c, &c->merkle_tag, in, POSEIDON_N);
    fr want;
    cuzk_poseidon_hash_with(&want, c, &c->merkle_tag, &in[8 * (POSEIDON_N - 1)]);
    CHECK(fr_eq(&want, &out[POSEIDON_N - 1]));
}

/* The expander parents of a few nodes of the 8MiB graph, batched (cuzk_fc_feistel_permute_n: 512
 * permuted indexes), against the node-by-node scalar permutation. */
static void work_feistel(void)
{
    const cuzk_fc_seal_proof_t *p;
    cuzk_fc_graph_t g;
    CHECK(cuzk_fc_seal_proof_parse(&p, "StackedDrg8MiBV1_1", NULL) == CUZK_OK);
    CHECK(cuzk_fc_graph_init_proof(&g, p, NULL) == CUZK_OK);
    const uint64_t first = 1000;
    static uint32_t got[FEISTEL_NODES * CUZK_FC_PARENTS];
    uint32_t want[CUZK_FC_EXP_DEGREE];
    CHECK(cuzk_fc_graph_exp_parents_range(&g, first, FEISTEL_NODES, got) == CUZK_OK);
    for (uint64_t v = 0; v < FEISTEL_NODES; v++) {
        CHECK(cuzk_fc_graph_exp_parents(&g, first + v, want) == CUZK_OK);
        CHECK_MSG(memcmp(got + v * CUZK_FC_PARENTS + CUZK_FC_DRG_DEGREE, want, sizeof want) == 0,
                  "expander parents of node %llu", (unsigned long long)(first + v));
    }
}

/* ---- checks ---- */

/* The variant the choice gives each entry, by the public API's account. */
static cuzk_variant expected(cuzk_entry e)
{
    if (e == CUZK_ENTRY_NTT_KERNELS)
        return cuzk_variant_of_ntt_kernels(cuzk_ntt_kernels_active());
    return cuzk_variant_of_impl(cuzk_impl_active());
}

/* Runs one part of the workload from zeroed counters: no variant but the expected one is called,
 * and each entry of `must` (a bit per entry) is called at least once. */
static void run_counted(const char *what, void (*work)(void), unsigned must)
{
    for (int e = 0; e < CUZK_ENTRY_COUNT; e++)
        for (int v = 0; v < CUZK_VARIANT_COUNT; v++)
            atomic_store(&calls[e][v], 0);
    work();
    for (int e = 0; e < CUZK_ENTRY_COUNT; e++) {
        const cuzk_variant want = expected((cuzk_entry)e);
        for (int v = 0; v < CUZK_VARIANT_COUNT; v++) {
            long n = atomic_load(&calls[e][v]);
            if (v != (int)want)
                CHECK_MSG(n == 0, "impl %s, %s: %s entry, variant %s called %ld times", cuzk_impl_active_name(),
                          what, entry_names[e], variant_names[v], n);
        }
        long got = atomic_load(&calls[e][want]);
        if (must >> e & 1)
            CHECK_MSG(got > 0, "impl %s, %s: %s entry (variant %s) never called", cuzk_impl_active_name(), what,
                      entry_names[e], variant_names[want]);
        if (got)
            printf("    %-9s %-15s %-9s %ld calls\n", what, entry_names[e], variant_names[want], got);
    }
}

#define BIT(e) (1u << (e))

static void check_counted(cuzk_impl_t impl)
{
    CHECK(cuzk_dispatch_use(impl) == CUZK_OK);
    printf("  impl=%s, NTT kernels %s\n", cuzk_impl_active_name(), cuzk_ntt_kernels_name(cuzk_ntt_kernels_active()));
    CHECK(cuzk_impl_active() == impl);
    CHECK(!cuzk_dispatch_ff_adx()); /* the FF entry is counted: no inlined ADX code */
    const bool lanes = impl == CUZK_IMPL_IFMA;
    const unsigned ec = lanes && ec_ifma_ops_real() ? BIT(CUZK_ENTRY_EC_LANES) : lanes ? 0 : BIT(CUZK_ENTRY_FF);
    const unsigned pl = lanes && cuzk_pl_kernels_variant(CUZK_VARIANT_IFMA) ? BIT(CUZK_ENTRY_POSEIDON_LANES)
                        : lanes                                             ? 0
                                                                            : BIT(CUZK_ENTRY_FF);
    run_counted("ff", work_ff, BIT(CUZK_ENTRY_FF));
    run_counted("ec", work_ec, ec);
    run_counted("msm", work_msm, BIT(CUZK_ENTRY_MSM) | BIT(CUZK_ENTRY_FF) | (lanes ? ec : 0));
    run_counted("ntt", work_ntt, BIT(CUZK_ENTRY_NTT) | BIT(CUZK_ENTRY_NTT_KERNELS));
    run_counted("poseidon", work_poseidon, pl);
    /* the AVX-512 Feistel lanes with ADX and IFMA wherever the CPU has AVX-512F; none with portable, and
     * the batched permutation reads the entry then too (nothing else fills it) */
    const bool fl = impl != CUZK_IMPL_PORTABLE && cuzk_fc_feistel_build_supported(CUZK_FC_FEISTEL_AVX512);
    CHECK(!(atomic_load(&cuzk_dispatch()->filled) & BIT(CUZK_ENTRY_FEISTEL_LANES)));
    run_counted("feistel", work_feistel, fl ? BIT(CUZK_ENTRY_FEISTEL_LANES) : 0);
    CHECK(atomic_load(&cuzk_dispatch()->filled) & BIT(CUZK_ENTRY_FEISTEL_LANES));
    if (impl == CUZK_IMPL_PORTABLE)
        CHECK(fl_real[CUZK_VARIANT_PORTABLE] == NULL); /* the scalar permutation */
    else
        CHECK(fl_real[cuzk_variant_of_impl(impl)] == (fl ? &cuzk_fc_feistel_lanes_avx512 : NULL));
}

/* Without overrides: the entries each implementation resolves to. */
static void check_resolution(cuzk_impl_t impl)
{
    CHECK(cuzk_dispatch_use(impl) == CUZK_OK);
    const cuzk_variant v = cuzk_variant_of_impl(impl);
    CHECK(cuzk_impl_active() == impl);
    CHECK(strcmp(cuzk_impl_active_name(), cuzk_impl_name(impl)) == 0);
    CHECK(ff_active() == ff_variant(v));
    CHECK(cuzk_dispatch_ff_adx() == (impl != CUZK_IMPL_PORTABLE));
    CHECK(ec_lanes() == (impl == CUZK_IMPL_IFMA ? ec_ifma_ops_real() : NULL));
    CHECK(cuzk_pl_kernels() == cuzk_pl_kernels_variant(v));
    if (impl != CUZK_IMPL_IFMA)
        CHECK(cuzk_pl_kernels() == NULL);
    const bool avx512 = cuzk_fc_feistel_build_supported(CUZK_FC_FEISTEL_AVX512);
    CHECK(cuzk_fc_feistel_lanes() == cuzk_fc_feistel_lanes_variant(v));
    CHECK(cuzk_fc_feistel_lanes() ==
          (impl != CUZK_IMPL_PORTABLE && avx512 ? &cuzk_fc_feistel_lanes_avx512 : NULL));
    CHECK(cuzk_dispatch_get(CUZK_ENTRY_MSM, msm_backend_variant) == &msm_backend_cpu);
    CHECK(cuzk_dispatch_get(CUZK_ENTRY_NTT, ntt_backend_variant) == &ntt_backend_cpu);
    const char *set = ntt_kernels_current()->name;
    if (cuzk_dispatch()->asked.ntt_kernels == CUZK_NTT_KERNELS_AUTO) {
        if (impl == CUZK_IMPL_PORTABLE)
            CHECK(strcmp(set, "portable") == 0);
        else if (impl == CUZK_IMPL_ADX)
            CHECK(strcmp(set, "adx") == 0 || strcmp(set, "avx2") == 0);
        else
            CHECK(strcmp(set, "ifma") == 0 || !ntt_kernels_ifma_compiled);
    }
    if (impl == CUZK_IMPL_PORTABLE)
        CHECK(strcmp(set, "portable") == 0); /* even when a set was forced */
    printf("  impl=%s resolves to: ff %s, ec lanes %s, ntt %s, poseidon lanes %s, feistel lanes %s\n",
           cuzk_impl_name(impl), ff_active()->name, ec_lanes() ? ec_lanes()->name : "none", set,
           cuzk_pl_kernels() ? cuzk_pl_kernels()->name : "none",
           cuzk_fc_feistel_lanes() ? cuzk_fc_feistel_lanes()->name : "none");
}

/* An environment variable set for the length of a check, then put back. */
typedef struct {
    const char *name;
    char *old;
} env_save;

static env_save env_set(const char *name, const char *value)
{
    env_save s = {name, getenv(name) ? strdup(getenv(name)) : NULL};
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    return s;
}

static void env_restore(env_save s)
{
    if (s.old)
        setenv(s.name, s.old, 1);
    else
        unsetenv(s.name);
    free(s.old);
}

static void check_init_contract(void)
{
    cuzk_err_t err = {{0}};
    const cuzk_impl_t best = cuzk_impl_best();
    /* names */
    cuzk_impl_t i = CUZK_IMPL_AUTO;
    CHECK(cuzk_impl_parse("adx", &i) && i == CUZK_IMPL_ADX);
    CHECK(!cuzk_impl_parse("fast", &i) && i == CUZK_IMPL_ADX);
    CHECK(strcmp(cuzk_impl_name(CUZK_IMPL_PORTABLE), "portable") == 0);
    CHECK(strcmp(cuzk_impl_name((cuzk_impl_t)42), "?") == 0);
    cuzk_ntt_kernels_t k = CUZK_NTT_KERNELS_AUTO;
    CHECK(cuzk_ntt_kernels_parse("avx2", &k) && k == CUZK_NTT_KERNELS_AVX2);
    CHECK(best != CUZK_IMPL_AUTO && cuzk_impl_supported(best) && cuzk_impl_supported(CUZK_IMPL_PORTABLE));

    /* the automatic choice, then cuzk_init: the same is OK (idempotent), another is refused */
    CHECK(cuzk_dispatch_reinit(NULL, &err) == CUZK_OK);
    CHECK(cuzk_impl_active() == best);
    CHECK(cuzk_init(NULL, &err) == CUZK_OK);
    CHECK(cuzk_init(&(cuzk_init_options_t){.impl = best}, &err) == CUZK_OK);
    if (best != CUZK_IMPL_PORTABLE) {
        CHECK(cuzk_init(&(cuzk_init_options_t){.impl = CUZK_IMPL_PORTABLE}, &err) == CUZK_ERR_MISMATCH);
        CHECK_MSG(strstr(err.msg, cuzk_impl_name(best)) != NULL, "message: %s", err.msg);
        CHECK(cuzk_impl_active() == best); /* nothing changed */
    }
    /* out of range, and an implementation the CPU lacks: the best instead, and the status says so */
    CHECK(cuzk_dispatch_reinit(&(cuzk_init_options_t){.impl = (cuzk_impl_t)9}, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_impl_active() == best);
    for (int m = CUZK_IMPL_PORTABLE; m <= CUZK_IMPL_IFMA; m++)
        if (!cuzk_impl_supported((cuzk_impl_t)m)) {
            CHECK(cuzk_dispatch_reinit(&(cuzk_init_options_t){.impl = (cuzk_impl_t)m}, &err) ==
                  CUZK_ERR_UNSUPPORTED);
            CHECK(cuzk_impl_active() == best);
            CHECK(cuzk_dispatch_use((cuzk_impl_t)m) == CUZK_ERR_UNSUPPORTED);
        }

    /* the environment: only with from_env, and an explicit option wins */
    env_save e1 = env_set("CUZK_IMPL", "portable"), e2 = env_set("CUZK_NTT_KERNELS", NULL);
    CHECK(cuzk_dispatch_reinit(NULL, &err) == CUZK_OK);
    CHECK(cuzk_impl_active() == best);
    CHECK(cuzk_dispatch_reinit(&(cuzk_init_options_t){.from_env = true}, &err) == CUZK_OK);
    CHECK(cuzk_impl_active() == CUZK_IMPL_PORTABLE);
    CHECK(cuzk_ntt_kernels_active() == CUZK_NTT_KERNELS_PORTABLE);
    if (cuzk_impl_supported(CUZK_IMPL_ADX)) {
        CHECK(cuzk_dispatch_reinit(&(cuzk_init_options_t){.impl = CUZK_IMPL_ADX, .from_env = true}, &err) ==
              CUZK_OK);
        CHECK(cuzk_impl_active() == CUZK_IMPL_ADX);
        unsetenv("CUZK_IMPL");
        env_save e3 = env_set("CUZK_NTT_KERNELS", "portable");
        CHECK(cuzk_dispatch_reinit(&(cuzk_init_options_t){.impl = CUZK_IMPL_ADX, .from_env = true}, &err) ==
              CUZK_OK);
        CHECK(cuzk_ntt_kernels_active() == CUZK_NTT_KERNELS_PORTABLE);
        CHECK(strcmp(ntt_kernels_current()->name, "portable") == 0);
        env_restore(e3);
    }
    setenv("CUZK_IMPL", "bogus", 1);
    CHECK(cuzk_dispatch_reinit(&(cuzk_init_options_t){.from_env = true}, &err) == CUZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(err.msg, "CUZK_IMPL=bogus") != NULL, "message: %s", err.msg);
    CHECK(cuzk_impl_active() == best);
    env_restore(e2);
    env_restore(e1);
}

int main(void)
{
    test_init("test_dispatch");
    const cuzk_init_options_t saved = cuzk_dispatch()->asked;
    make_inputs();
    check_init_contract();
    CHECK(cuzk_dispatch_reinit(&saved, NULL) == CUZK_OK); /* an NTT set forced by the environment stays */

    for (int impl = CUZK_IMPL_PORTABLE; impl <= CUZK_IMPL_IFMA; impl++) {
        if (!cuzk_impl_supported((cuzk_impl_t)impl)) {
            printf("  %s not supported by this CPU: not checked\n", cuzk_impl_name((cuzk_impl_t)impl));
            continue;
        }
        check_resolution((cuzk_impl_t)impl);
    }

    cuzk_dispatch_override(CUZK_ENTRY_FF, ff_counted);
    cuzk_dispatch_override(CUZK_ENTRY_EC_LANES, ec_counted);
    cuzk_dispatch_override(CUZK_ENTRY_MSM, msm_counted);
    cuzk_dispatch_override(CUZK_ENTRY_NTT, ntt_counted);
    cuzk_dispatch_override(CUZK_ENTRY_NTT_KERNELS, kern_counted);
    cuzk_dispatch_override(CUZK_ENTRY_POSEIDON_LANES, pl_counted);
    cuzk_dispatch_override(CUZK_ENTRY_FEISTEL_LANES, fl_counted);
    for (int impl = CUZK_IMPL_PORTABLE; impl <= CUZK_IMPL_IFMA; impl++)
        if (cuzk_impl_supported((cuzk_impl_t)impl))
            check_counted((cuzk_impl_t)impl);
    for (int e = 0; e < CUZK_ENTRY_COUNT; e++)
        cuzk_dispatch_override((cuzk_entry)e, NULL);
    CHECK(cuzk_dispatch_reinit(&saved, NULL) == CUZK_OK);
    CHECK(cuzk_dispatch_ff_adx() == (cuzk_impl_active() != CUZK_IMPL_PORTABLE));

    free(g1_pts), free(g2_pts), free(scalars);
    return test_finish();
}
