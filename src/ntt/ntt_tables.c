/* Roots of unity and twiddle tables of the NTT. ω = 7^((r−1)/2^32) is derived once at first use
 * (tests check it against blstrs' published ROOT_OF_UNITY). The passes' root tables (two tables of
 * powers of ω_{2^27}, the same for every size) are built on first use and cached for the life of
 * the process (or until released). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "ntt/ntt_internal.h"

#define SMALL_N ((size_t)1 << NTT_BLOCK_LOG)

static ntt_consts consts;
static fr small_fwd[SMALL_N], small_inv[SMALL_N];
static pthread_once_t consts_once = PTHREAD_ONCE_INIT;

static _Atomic(const ntt_roots *) roots_cached;
static ntt_roots roots_store;
static atomic_size_t table_bytes;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;

/* o = base^e, e given as little-endian 64-bit limbs. */
static void pow_limbs(fr *o, const fr *base, const uint64_t *e, size_t limbs)
{
    fr acc = FR_ONE;
    for (size_t i = limbs; i-- > 0;)
        for (int bit = 63; bit >= 0; bit--) {
            fr_sqr(&acc, &acc);
            if ((e[i] >> bit) & 1)
                fr_mul(&acc, &acc, base);
        }
    *o = acc;
}

static void consts_build(void)
{
    /* (r − 1) / 2^32: r − 1 = 2^32 · odd, so ω has order exactly 2^32 when 7 is a non-residue. */
    static const uint64_t e[4] = {0xfffe5bfeffffffffULL, 0x09a1d80553bda402ULL,
                                  0x299d7d483339d808ULL, 0x0000000073eda753ULL};
    fr_from_u64(&consts.g, 7);
    fr_inv(&consts.g_inv, &consts.g);
    pow_limbs(&consts.omega[32], &consts.g, e, 4);
    for (int k = 32; k > 0; k--)
        fr_sqr(&consts.omega[k - 1], &consts.omega[k]);
    for (int k = 0; k <= 32; k++)
        fr_inv(&consts.omega_inv[k], &consts.omega[k]);
    fr two, inv2;
    fr_from_u64(&two, 2);
    fr_inv(&inv2, &two);
    consts.inv_n[0] = FR_ONE;
    for (int k = 1; k <= 32; k++)
        fr_mul(&consts.inv_n[k], &consts.inv_n[k - 1], &inv2);
    /* small[h + j] = ω_{2h}^j, stage by stage */
    memset(&small_fwd[0], 0, sizeof(fr));
    memset(&small_inv[0], 0, sizeof(fr));
    for (unsigned lh = 0; ((size_t)1 << lh) < SMALL_N; lh++) {
        const size_t h = (size_t)1 << lh;
        fr w = consts.omega[lh + 1], wi;
        fr_inv(&wi, &w);
        small_fwd[h] = FR_ONE;
        small_inv[h] = FR_ONE;
        for (size_t j = 1; j < h; j++) {
            fr_mul(&small_fwd[h + j], &small_fwd[h + j - 1], &w);
            fr_mul(&small_inv[h + j], &small_inv[h + j - 1], &wi);
        }
    }
    consts.small = small_fwd;
    consts.small_inv = small_inv;
}

const ntt_consts *ntt_tables_init(void)
{
    pthread_once(&consts_once, consts_build);
    return &consts;
}

#define ROOT_LO_N ((size_t)1 << NTT_ROOT_LO_LOG)
#define ROOT_HI_N ((size_t)1 << (NTT_ROOT_LOG - NTT_ROOT_LO_LOG))
#define ROOT_MASK (((uint64_t)1 << NTT_ROOT_LOG) - 1)

/* t[i] = x0·step^i for i < n */
static void geometric(fr *t, size_t n, const fr *x0, const fr *step)
{
    t[0] = *x0;
    for (size_t i = 1; i < n; i++)
        fr_mul(&t[i], &t[i - 1], step);
}

const ntt_roots *ntt_roots_get(void)
{
    const ntt_roots *rt = atomic_load_explicit(&roots_cached, memory_order_acquire);
    if (rt)
        return rt;
    const ntt_consts *cs = ntt_tables_init();
    pthread_mutex_lock(&tables_lock);
    rt = atomic_load_explicit(&roots_cached, memory_order_relaxed);
    if (!rt) {
        fr *lo = malloc(ROOT_LO_N * sizeof(fr)), *hi = malloc(ROOT_HI_N * sizeof(fr));
        if (lo && hi) {
            /* hi's step ω_{2^27}^(2^14) is ω_{2^13} */
            geometric(lo, ROOT_LO_N, &FR_ONE, &cs->omega[NTT_ROOT_LOG]);
            geometric(hi, ROOT_HI_N, &FR_ONE, &cs->omega[NTT_ROOT_LOG - NTT_ROOT_LO_LOG]);
            roots_store = (ntt_roots){lo, hi};
            atomic_fetch_add(&table_bytes, (ROOT_LO_N + ROOT_HI_N) * sizeof(fr));
            rt = &roots_store;
            atomic_store_explicit(&roots_cached, rt, memory_order_release);
        } else {
            free(lo);
            free(hi);
        }
    }
    pthread_mutex_unlock(&tables_lock);
    return rt;
}

void ntt_root_pow(fr *out, const ntt_roots *rt, unsigned s, uint64_t e, int inv)
{
    /* ω_{2^s} = ω_{2^27}^(2^(27−s)); ω^−E = ω^(2^27 − E) */
    uint64_t E = (e << (NTT_ROOT_LOG - s)) & ROOT_MASK;
    if (inv)
        E = (((uint64_t)1 << NTT_ROOT_LOG) - E) & ROOT_MASK;
    fr_mul(out, &rt->hi[E >> NTT_ROOT_LO_LOG], &rt->lo[E & (ROOT_LO_N - 1)]);
}

void ntt_col_roots(fr *v, const ntt_roots *rt, unsigned s, uint64_t b, size_t n, int inv)
{
    const ntt_consts *cs = ntt_tables_init();
    fr x0;
    ntt_root_pow(&x0, rt, s, b, inv);
    geometric(v, n, &x0, inv ? &cs->omega_inv[s] : &cs->omega[s]);
}

size_t cuzk_ntt_table_bytes(void)
{
    return atomic_load(&table_bytes);
}

void cuzk_ntt_release_tables(void)
{
    pthread_mutex_lock(&tables_lock);
    if (atomic_exchange(&roots_cached, NULL)) {
        free((void *)roots_store.lo);
        free((void *)roots_store.hi);
        roots_store = (ntt_roots){NULL, NULL};
    }
    atomic_store(&table_bytes, 0);
    pthread_mutex_unlock(&tables_lock);
}

cuzk_status cuzk_ntt_root(cuzk_fr_t *out, unsigned log_n)
{
    if (!out || log_n > 32)
        return CUZK_ERR_INVALID_ARG;
    *out = ntt_tables_init()->omega[log_n];
    return CUZK_OK;
}
