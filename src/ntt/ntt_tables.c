/* Roots of unity and twiddle tables of the NTT. ω = 7^((r−1)/2^32) is derived once at first use
 * (tests check it against blstrs' published ROOT_OF_UNITY). Per-size twiddle tables are built on
 * first use, in parallel, and cached for the life of the process (or until released). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "ntt/ntt_internal.h"
#include "util/parallel.h"

#define SMALL_N ((size_t)1 << NTT_BLOCK_LOG)

static ntt_consts consts;
static fr small_fwd[SMALL_N], small_inv[SMALL_N];
static pthread_once_t consts_once = PTHREAD_ONCE_INIT;

static _Atomic(fr *) tables[CUZK_NTT_MAX_LOG + 1];
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

static void pow_u64(fr *o, const fr *base, uint64_t e)
{
    pow_limbs(o, base, &e, 1);
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

/* Chunks of the table built independently: each starts from ω^(chunk start) by exponentiation. */
#define FILL_CHUNK 4096

typedef struct {
    fr *t;
    size_t n; /* entries */
    fr w;
} fill_ctx;

static void fill_range(void *p, size_t begin, size_t end)
{
    fill_ctx *c = p;
    fr x;
    pow_u64(&x, &c->w, begin);
    for (size_t i = begin; i < end; i++) {
        c->t[i] = x;
        fr_mul(&x, &x, &c->w);
    }
}

static fr *alloc_table(size_t bytes)
{
    void *p = NULL;
    /* Large tables are read with strides across their whole length: huge pages spare the TLB. */
    const size_t align = bytes >= ((size_t)4 << 20) ? ((size_t)2 << 20) : 64;
    size_t rounded = (bytes + align - 1) / align * align;
    if (posix_memalign(&p, align, rounded) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (align > 64)
        madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return p;
}

const fr *ntt_table(unsigned s, int threads)
{
    if (s < 1 || s > CUZK_NTT_MAX_LOG)
        return NULL;
    fr *t = atomic_load_explicit(&tables[s], memory_order_acquire);
    if (t)
        return t;
    const ntt_consts *cs = ntt_tables_init();
    pthread_mutex_lock(&tables_lock);
    t = atomic_load_explicit(&tables[s], memory_order_relaxed);
    if (!t) {
        const size_t n = ((size_t)1 << (s - 1)) + 1;
        t = alloc_table(n * sizeof(fr));
        if (t) {
            fill_ctx c = {t, n, cs->omega[s]};
            cuzk_parallel_for(threads, n, FILL_CHUNK, fill_range, &c);
            atomic_fetch_add(&table_bytes, n * sizeof(fr));
            atomic_store_explicit(&tables[s], t, memory_order_release);
        }
    }
    pthread_mutex_unlock(&tables_lock);
    return t;
}

size_t cuzk_ntt_table_bytes(void)
{
    return atomic_load(&table_bytes);
}

void cuzk_ntt_release_tables(void)
{
    pthread_mutex_lock(&tables_lock);
    for (unsigned s = 0; s <= CUZK_NTT_MAX_LOG; s++) {
        fr *t = atomic_exchange(&tables[s], NULL);
        free(t);
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
