/* cuzk_selfcheck (cuzk/selfcheck.h): known answers of the arithmetic the prover stands on, once per
 * implementation. The values are the published zcash/blst encodings of the generators and blstrs'
 * ROOT_OF_UNITY (src/scalar.rs; docs/REFERENCE.md §7). Here, in the prover's area, because it is the
 * lowest that sees the fields, the curves, the MSM and the NTT together. */
#include "cuzk/selfcheck.h"

#include <stdio.h>
#include <string.h>

#include "cuzk/curve.h"
#include "cuzk/msm.h"
#include "cuzk/ntt.h"
#include "ec/ec.h"
#include "ec/pairing.h"
#include "ff/fr.h"
#include "util/cpu.h"
#include "util/dispatch.h"

static const char G1_GEN_COMPRESSED[] =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
static const char G2_GEN_COMPRESSED[] =
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
/* 7^((r-1)/2^32), the 2^32-th root of unity of the evaluation domain (big-endian). */
static const char ROOT_OF_UNITY[] = "16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b";

static void to_hex(char *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", in[i]);
}

static bool check_generators(void)
{
    g1_aff g1;
    g2_aff g2;
    uint8_t b1[48], b2[96];
    char h1[97], h2[193];
    g1_generator(&g1);
    g2_generator(&g2);
    cuzk_g1_compress(b1, &g1);
    cuzk_g2_compress(b2, &g2);
    to_hex(h1, b1, 48);
    to_hex(h2, b2, 96);
    return strcmp(h1, G1_GEN_COMPRESSED) == 0 && strcmp(h2, G2_GEN_COMPRESSED) == 0;
}

/* 2^64·G computed by the scalar multiplication and by 64 doublings agree, and lie in the subgroup. */
static bool check_scalar_mul(void)
{
    g1_aff g, a;
    g1_jac p, q;
    g1_generator(&g);
    g1_jac_from_aff(&p, &g);
    q = p;
    cuzk_scalar_t k = {{0}};
    k.l[1] = 1; /* 2^64 */
    for (int i = 0; i < 64; i++)
        g1_jac_dbl(&q, &q);
    g1_jac_mul(&p, &p, &k);
    g1_jac_to_aff(&a, &p);
    return g1_jac_eq(&p, &q) && g1_aff_in_subgroup(&a);
}

/* e(3·G1, 5·G2) == e(15·G1, G2), and != 1. */
static bool check_pairing(void)
{
    g1_aff g1, a1, b1;
    g2_aff g2, a2;
    g1_jac j1;
    g2_jac j2;
    cuzk_scalar_t three = {{3}}, five = {{5}}, fifteen = {{15}};
    g1_generator(&g1);
    g2_generator(&g2);
    g1_jac_from_aff(&j1, &g1);
    g1_jac_mul(&j1, &j1, &three);
    g1_jac_to_aff(&a1, &j1);
    g2_jac_from_aff(&j2, &g2);
    g2_jac_mul(&j2, &j2, &five);
    g2_jac_to_aff(&a2, &j2);
    g1_jac_from_aff(&j1, &g1);
    g1_jac_mul(&j1, &j1, &fifteen);
    g1_jac_to_aff(&b1, &j1);
    fp12 e1, e2;
    pairing(&e1, &a1, &a2);
    pairing(&e2, &b1, &g2);
    return fp12_eq(&e1, &e2) && !fp12_is_one(&e1);
}

/* A 64-point MSM against the sum of scalar multiplications. */
static bool check_msm(void)
{
    enum { N = 64 };
    g1_aff g, bases[N];
    g1_jac acc, p, t, want;
    cuzk_scalar_t s[N];
    g1_generator(&g);
    g1_jac_from_aff(&p, &g);
    g1_jac_set_inf(&want);
    for (int i = 0; i < N; i++) {
        g1_jac_to_aff(&bases[i], &p);
        for (int j = 0; j < 4; j++)
            s[i].l[j] = 0x9e3779b97f4a7c15ull * (uint64_t)(i * 4 + j + 1);
        s[i].l[3] >>= 2; /* < 2^254 < r */
        if (i % 5 == 0)
            s[i] = (cuzk_scalar_t){{(uint64_t)(i % 2)}}; /* some 0 and 1 scalars */
        g1_jac_mul(&t, &p, &s[i]);
        g1_jac_add(&want, &want, &t);
        g1_jac_dbl(&p, &p);
    }
    cuzk_msm_opts opts = {.threads = 2, .window = 0};
    return cuzk_msm_g1(&acc, bases, s, N, &opts) == CUZK_OK && g1_jac_eq(&acc, &want);
}

/* The derived root of unity equals the published constant, and a 2^12 NTT round-trips. */
static bool check_ntt(void)
{
    enum { LOG = 12, N = 1 << LOG };
    static fr a[N], b[N];
    fr w;
    uint64_t e = 1ull << 5; /* ω_27 = ω^(2^5): compare ω_27 with the published ω raised likewise */
    fr pub;
    if (cuzk_ntt_root(&w, 27) != CUZK_OK)
        return false;
    uint8_t pub_be[32];
    for (int i = 0; i < 32; i++) {
        unsigned v;
        sscanf(ROOT_OF_UNITY + 2 * i, "%2x", &v);
        pub_be[i] = (uint8_t)v;
    }
    if (!fr_from_bytes_be(&pub, pub_be))
        return false;
    fr_pow(&pub, &pub, &e, 1);
    if (!fr_eq(&w, &pub))
        return false;
    for (int i = 0; i < N; i++)
        fr_from_u64(&a[i], (uint64_t)i * 2654435761u + 1), b[i] = a[i];
    if (cuzk_ntt(b, LOG, CUZK_NTT_COSET_FORWARD, 2) != CUZK_OK ||
        cuzk_ntt(b, LOG, CUZK_NTT_COSET_INVERSE, 2) != CUZK_OK)
        return false;
    return memcmp(a, b, sizeof a) == 0;
}

static void add(cuzk_selfcheck_report_t *out, const char *impl, const char *check, bool ok)
{
    if (out->n < CUZK_SELFCHECK_MAX_RESULTS)
        out->results[out->n++] = (cuzk_selfcheck_result_t){impl, check, ok};
    out->failures += !ok;
}

unsigned cuzk_selfcheck(cuzk_selfcheck_report_t *out)
{
    memset(out, 0, sizeof *out);
    const cuzk_cpu_features *f = cuzk_cpu();
    out->bmi2 = f->bmi2;
    out->adx = f->adx;
    out->avx2 = f->avx2;
    out->avx512f = f->avx512f;
    out->avx512ifma = f->avx512ifma;
    out->best = cuzk_impl_name(cuzk_impl_best());
    cuzk_init_options_t saved = cuzk_dispatch()->asked;
    static const cuzk_impl_t impls[] = {CUZK_IMPL_PORTABLE, CUZK_IMPL_ADX, CUZK_IMPL_IFMA};
    for (size_t i = 0; i < sizeof impls / sizeof impls[0]; i++) {
        if (!cuzk_impl_supported(impls[i]) || cuzk_dispatch_use(impls[i]) != CUZK_OK)
            continue;
        const char *name = cuzk_impl_name(impls[i]);
        add(out, name, "generators encode as published", check_generators());
        add(out, name, "scalar multiplication, subgroup check", check_scalar_mul());
        add(out, name, "pairing bilinearity", check_pairing());
        add(out, name, "MSM against naive sum", check_msm());
        add(out, name, "NTT root of unity and coset round trip", check_ntt());
    }
    (void)cuzk_dispatch_reinit(&saved, NULL);
    return out->failures;
}
