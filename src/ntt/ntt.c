/* Public NTT entry points: argument checks, the choice of DIF / DIT / permutation / coset scaling
 * for each kind and element order, and the dispatch table's NTT entries (the backend, and the CPU's
 * kernel set). Everything that can fail is acquired before the data is touched. */
#include "cuzk/ntt.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "ff/ifma/ifma.h"
#include "ntt/ntt_internal.h"
#include "util/cpu.h"
#include "util/parallel.h"

static bool cpu_has_avx2(void)
{
#if defined(__x86_64__)
    return cuzk_cpu()->avx2 && cuzk_impl_supported(CUZK_IMPL_ADX);
#else
    return false;
#endif
}

int ntt_kernels_available(const ntt_kernels **out)
{
    int n = 0;
    out[n++] = &ntt_kernels_portable;
#if defined(__x86_64__)
    if (cuzk_impl_supported(CUZK_IMPL_ADX))
        out[n++] = &ntt_kernels_adx;
    if (cpu_has_avx2())
        out[n++] = &ntt_kernels_avx2;
#endif
    if (ntt_kernels_ifma_compiled && ifma_available())
        out[n++] = &ntt_kernels_ifma;
    return n;
}

const void *ntt_kernels_variant(cuzk_variant v)
{
    switch (v) {
    case CUZK_VARIANT_PORTABLE:
    case CUZK_VARIANT_CUDA: break;
#if defined(__x86_64__)
    case CUZK_VARIANT_ADX: return &ntt_kernels_adx;
    case CUZK_VARIANT_AVX2: return cpu_has_avx2() ? &ntt_kernels_avx2 : &ntt_kernels_adx;
    case CUZK_VARIANT_IFMA:
        if (ntt_kernels_ifma_compiled && ifma_available())
            return &ntt_kernels_ifma;
        return cpu_has_avx2() ? &ntt_kernels_avx2 : &ntt_kernels_adx;
#else
    case CUZK_VARIANT_ADX:
    case CUZK_VARIANT_AVX2:
    case CUZK_VARIANT_IFMA: break;
#endif
    case CUZK_VARIANT_COUNT: break;
    }
    return &ntt_kernels_portable;
}

const ntt_kernels *ntt_kernels_current(void)
{
    return cuzk_dispatch_get(CUZK_ENTRY_NTT_KERNELS, ntt_kernels_variant);
}

static cuzk_status cpu_run(cuzk_fr_t *data, unsigned log_n, cuzk_ntt_kind kind, cuzk_ntt_order order,
                           const cuzk_fr_t *shift, int threads)
{
    return ntt_run_shift(ntt_kernels_current(), data, log_n, kind, order, shift, threads);
}

const ntt_backend ntt_backend_cpu = {.name = "cpu", .run = cpu_run};

const void *ntt_backend_variant(cuzk_variant v) { return v == CUZK_VARIANT_CUDA ? NULL : &ntt_backend_cpu; }

static cuzk_status backend_run(cuzk_fr_t *data, unsigned log_n, cuzk_ntt_kind kind, cuzk_ntt_order order,
                               const cuzk_fr_t *shift, int threads)
{
    const ntt_backend *b = cuzk_dispatch_get(CUZK_ENTRY_NTT, ntt_backend_variant);
    return b ? b->run(data, log_n, kind, order, shift, threads) : CUZK_ERR_UNSUPPORTED;
}

static int resolve_threads(int threads)
{
    return threads == 0 ? cuzk_cpu_count() : threads;
}

cuzk_status cuzk_ntt_ordered(cuzk_fr_t *data, unsigned log_n, cuzk_ntt_kind kind,
                             cuzk_ntt_order order, int threads)
{
    return backend_run(data, log_n, kind, order, NULL, threads);
}

cuzk_status ntt_run(const ntt_kernels *kn, cuzk_fr_t *data, unsigned log_n, cuzk_ntt_kind kind,
                    cuzk_ntt_order order, int threads)
{
    return ntt_run_shift(kn, data, log_n, kind, order, NULL, threads);
}

cuzk_status cuzk_ntt_coset_shifted(cuzk_fr_t *data, unsigned log_n, const cuzk_fr_t *shift, cuzk_ntt_kind kind,
                                   cuzk_ntt_order order, int threads)
{
    if (!shift || fr_is_zero(shift) || (kind != CUZK_NTT_COSET_FORWARD && kind != CUZK_NTT_COSET_INVERSE))
        return CUZK_ERR_INVALID_ARG;
    return backend_run(data, log_n, kind, order, shift, threads);
}

cuzk_status ntt_run_shift(const ntt_kernels *kn, cuzk_fr_t *data, unsigned log_n, cuzk_ntt_kind kind,
                          cuzk_ntt_order order, const fr *shift, int threads)
{
    if (!data || log_n < 1 || log_n > CUZK_NTT_MAX_LOG || threads < 0)
        return CUZK_ERR_INVALID_ARG;
    if (kind != CUZK_NTT_FORWARD && kind != CUZK_NTT_INVERSE && kind != CUZK_NTT_COSET_FORWARD &&
        kind != CUZK_NTT_COSET_INVERSE)
        return CUZK_ERR_INVALID_ARG;
    if (order != CUZK_NTT_NN && order != CUZK_NTT_NR && order != CUZK_NTT_RN)
        return CUZK_ERR_INVALID_ARG;
    threads = resolve_threads(threads);
    const ntt_consts *cs = ntt_tables_init();
    const int inv = kind == CUZK_NTT_INVERSE || kind == CUZK_NTT_COSET_INVERSE;

    ntt_plan plan;
    cuzk_status st = ntt_plan_init(&plan, log_n, threads);
    if (st != CUZK_OK) {
        ntt_plan_free(&plan);
        return st;
    }
    /* Coset scaling: before a forward transform (its input order), after an inverse one (its
     * output order; the 1/n goes into the scaling then). */
    ntt_scale_tabs sc = {0};
    fr g = cs->g, g_inv = cs->g_inv;
    if (shift) {
        g = *shift;
        fr_inv(&g_inv, shift);
    }
    if (kind == CUZK_NTT_COSET_FORWARD)
        st = ntt_scale_init(&sc, log_n, &g, &FR_ONE, order == CUZK_NTT_RN);
    else if (kind == CUZK_NTT_COSET_INVERSE)
        st = ntt_scale_init(&sc, log_n, &g_inv, &cs->inv_n[log_n], order == CUZK_NTT_NR);
    if (st != CUZK_OK) {
        ntt_plan_free(&plan);
        return st;
    }

    ntt_fin fin = {NTT_FIN_REDUCE, FR_ZERO};
    if (kind == CUZK_NTT_INVERSE)
        fin = (ntt_fin){NTT_FIN_SCALE, cs->inv_n[log_n]};
    else if (kind == CUZK_NTT_COSET_INVERSE)
        fin.mode = NTT_FIN_NONE;

    if (kind == CUZK_NTT_COSET_FORWARD)
        ntt_scale_apply(kn, &sc, data, threads);
    if (order == CUZK_NTT_RN) {
        ntt_dit(kn, &plan, data, inv, &fin);
    } else {
        ntt_dif(kn, &plan, data, inv, &fin);
        if (order == CUZK_NTT_NN)
            ntt_bitrev(data, log_n, threads);
    }
    if (kind == CUZK_NTT_COSET_INVERSE)
        ntt_scale_apply(kn, &sc, data, threads);

    ntt_scale_free(&sc);
    ntt_plan_free(&plan);
    return CUZK_OK;
}

cuzk_status cuzk_ntt(cuzk_fr_t *data, unsigned log_n, cuzk_ntt_kind kind, int threads)
{
    return cuzk_ntt_ordered(data, log_n, kind, CUZK_NTT_NN, threads);
}

cuzk_status cuzk_ntt_bitrev(cuzk_fr_t *data, unsigned log_n, int threads)
{
    if (!data || log_n > CUZK_NTT_MAX_LOG || threads < 0)
        return CUZK_ERR_INVALID_ARG;
    if (log_n > 0)
        ntt_bitrev(data, log_n, resolve_threads(threads));
    return CUZK_OK;
}

cuzk_status cuzk_ntt_prepare(unsigned log_n, int threads)
{
    if (log_n < 1 || log_n > CUZK_NTT_MAX_LOG || threads < 0)
        return CUZK_ERR_INVALID_ARG;
    ntt_plan plan;
    cuzk_status st = ntt_plan_init(&plan, log_n, resolve_threads(threads));
    ntt_plan_free(&plan);
    return st;
}
