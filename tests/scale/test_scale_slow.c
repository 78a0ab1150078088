/* Production-size boundaries that no small stand-in reaches: the NTT over a 32GiB PoRep partition's domain,
 * 2^27 elements (4 GiB; twiddle indices up to 2^27, the shared root tables at their full reach, the plan's
 * deepest split). The plain and the coset transform are each checked against Horner's rule at a random
 * point of the domain and by the round trip through their inverse. The input is recomputed from its index
 * (a 64-bit hash), so that one array is enough. */
#include <stdlib.h>
#include "cuzk/ntt.h"
#include "ff/fr.h"
#include "test_util.h"
#include "util/bigmem.h"

/* blstrs' ROOT_OF_UNITY (a primitive 2^32-th root), canonical, big-endian */
static const char *OMEGA_HEX = "16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b";

static void element(fr *x, uint64_t i)
{
    uint64_t z = i * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull; /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    fr_from_u64(x, z ^ (z >> 31));
}

/* Σ_i element(i)·pt^i over n terms, by Horner. */
static void horner(fr *out, size_t n, const fr *pt)
{
    fr acc = FR_ZERO, e;
    for (size_t i = n; i-- > 0;) {
        fr_mul(&acc, &acc, pt);
        element(&e, i);
        fr_add(&acc, &acc, &e);
    }
    *out = acc;
}

static void test_ntt_2p27(int coset)
{
    const unsigned k = CUZK_NTT_MAX_LOG;
    const size_t n = (size_t)1 << k;
    fr *a = cuzk_big_malloc(n * sizeof *a);
    CHECK_MSG(a != NULL, "2^%u: cannot allocate %zu bytes", k, n * sizeof *a);
    if (!a)
        return;
    for (size_t i = 0; i < n; i++)
        element(&a[i], i);
    const cuzk_ntt_kind fwd = coset ? CUZK_NTT_COSET_FORWARD : CUZK_NTT_FORWARD;
    const cuzk_ntt_kind inv = coset ? CUZK_NTT_COSET_INVERSE : CUZK_NTT_INVERSE;
    CHECK(cuzk_ntt(a, k, fwd, 2) == CUZK_OK);

    /* out_j = Σ_i a_i·(g·ω^j)^i, g = 7 for the coset and 1 otherwise; j past 2^26 and below 2^27 */
    uint8_t be[32];
    fr w, pt, want;
    CHECK(test_hex_decode(OMEGA_HEX, be, 32) == 32 && fr_from_bytes_be(&w, be));
    for (unsigned i = k; i < 32; i++)
        fr_sqr(&w, &w);
    const uint64_t j = n / 2 + 1 + test_rand_below(n / 2 - 1);
    fr_pow(&pt, &w, &j, 1);
    if (coset) {
        fr g;
        fr_from_u64(&g, 7);
        fr_mul(&pt, &pt, &g);
    }
    horner(&want, n, &pt);
    CHECK_MSG(fr_eq(&want, &a[j]), "2^%u coset=%d: output %llu differs from Horner's", k, coset,
              (unsigned long long)j);

    CHECK(cuzk_ntt(a, k, inv, 2) == CUZK_OK);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        fr e;
        element(&e, i);
        bad += !fr_eq(&e, &a[i]);
    }
    CHECK_MSG(bad == 0, "2^%u coset=%d: the round trip changed %zu elements", k, coset, bad);
    free(a);
}

int main(void)
{
    test_init("scale_slow");
    test_ntt_2p27(0);
    test_ntt_2p27(1);
    return test_finish();
}
