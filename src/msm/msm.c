/* Public MSM entry points (include/cuzk/msm.h): argument checks, the 0/1 scan with its density
 * bitmap, then the per-group driver, as the dispatch table's MSM entry (the CPU backend). */
#include <string.h>
#include "cuzk/msm.h"
#include "msm/msm_internal.h"
#include "util/parallel.h"

static cuzk_status check_opts(const cuzk_msm_opts *opts, int *threads, unsigned *window)
{
    cuzk_msm_opts o = {0};
    if (opts)
        o = *opts;
    if (o.threads < 0 || o.window > CUZK_MSM_MAX_WINDOW)
        return CUZK_ERR_INVALID_ARG;
    *threads = o.threads ? o.threads : cuzk_cpu_count();
    *window = o.window;
    return CUZK_OK;
}

/* The CPU backend: the 0/1 split, then the per-group driver (GLV for the mid-size G1 MSMs). */
static cuzk_status cpu_run(int group, void *out, const void *bases, size_t n_bases, const cuzk_scalar_t *scalars,
                           size_t n_scalars, const uint64_t *density, int threads, unsigned window)
{
    msm_split sp;
    cuzk_status st = msm_split_scalars(&sp, scalars, n_scalars, density, n_bases, threads);
    if (st != CUZK_OK)
        return st;
    if (group == MSM_G1 && sp.n_others >= MSM_GLV_MIN && sp.n_others <= MSM_GLV_MAX)
        st = msm_g1_run_glv(out, bases, scalars, &sp, threads, window);
    else if (group == MSM_G1)
        st = msm_g1_run(out, bases, scalars, &sp, threads, window, MSM_BITS_FULL, NULL);
    else
        st = msm_g2_run(out, bases, scalars, &sp, threads, window, MSM_BITS_FULL, NULL);
    msm_split_free(&sp);
    return st;
}

static cuzk_status cpu_g1(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases, size_t n_bases,
                          const cuzk_scalar_t *scalars, size_t n_scalars, const uint64_t *density, int threads,
                          unsigned window)
{
    return cpu_run(MSM_G1, out, bases, n_bases, scalars, n_scalars, density, threads, window);
}

static cuzk_status cpu_g2(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases, size_t n_bases,
                          const cuzk_scalar_t *scalars, size_t n_scalars, const uint64_t *density, int threads,
                          unsigned window)
{
    return cpu_run(MSM_G2, out, bases, n_bases, scalars, n_scalars, density, threads, window);
}

const msm_backend msm_backend_cpu = {.name = "cpu", .g1 = cpu_g1, .g2 = cpu_g2};

const void *msm_backend_variant(cuzk_variant v) { return v == CUZK_VARIANT_CUDA ? NULL : &msm_backend_cpu; }

/* Shared by the four calls: density may be NULL (then n_bases = n_scalars). */
static cuzk_status msm_any(int group, void *out, const void *bases, size_t n_bases,
                           const cuzk_scalar_t *scalars, size_t n_scalars, const uint64_t *density,
                           bool dense_call, const cuzk_msm_opts *opts)
{
    int threads;
    unsigned window;
    if (!out)
        return CUZK_ERR_INVALID_ARG;
    cuzk_status st = check_opts(opts, &threads, &window);
    if (st != CUZK_OK)
        return st;
    if (n_scalars > UINT32_MAX || n_bases > UINT32_MAX)
        return CUZK_ERR_INVALID_ARG;
    if (n_scalars > 0 && (!scalars || (dense_call && !density)))
        return CUZK_ERR_INVALID_ARG;
    if (!bases && n_bases > 0)
        return CUZK_ERR_INVALID_ARG;
    const msm_backend *b = cuzk_dispatch_get(CUZK_ENTRY_MSM, msm_backend_variant);
    if (!b)
        return CUZK_ERR_UNSUPPORTED;
    return group == MSM_G1 ? b->g1(out, bases, n_bases, scalars, n_scalars, density, threads, window)
                           : b->g2(out, bases, n_bases, scalars, n_scalars, density, threads, window);
}

cuzk_status cuzk_msm_g1(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                        const cuzk_scalar_t *scalars, size_t n, const cuzk_msm_opts *opts)
{
    return msm_any(MSM_G1, out, bases, n, scalars, n, NULL, false, opts);
}

cuzk_status cuzk_msm_g2(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                        const cuzk_scalar_t *scalars, size_t n, const cuzk_msm_opts *opts)
{
    return msm_any(MSM_G2, out, bases, n, scalars, n, NULL, false, opts);
}

cuzk_status cuzk_msm_g1_density(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases, size_t n_bases,
                                const cuzk_scalar_t *scalars, size_t n_scalars,
                                const uint64_t *density_bits, const cuzk_msm_opts *opts)
{
    return msm_any(MSM_G1, out, bases, n_bases, scalars, n_scalars, density_bits, true, opts);
}

cuzk_status cuzk_msm_g2_density(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases, size_t n_bases,
                                const cuzk_scalar_t *scalars, size_t n_scalars,
                                const uint64_t *density_bits, const cuzk_msm_opts *opts)
{
    return msm_any(MSM_G2, out, bases, n_bases, scalars, n_scalars, density_bits, true, opts);
}
