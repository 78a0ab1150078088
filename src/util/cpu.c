/* cpuid probing (x86-64) and implementation selection. */
#include "util/cpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

static cuzk_cpu_features features;
static bool probed;

const cuzk_cpu_features *cuzk_cpu(void)
{
    if (probed)
        return &features;
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
        features.bmi2 = (b >> 8) & 1;
        features.adx = (b >> 19) & 1;
        features.avx512f = (b >> 16) & 1;
        features.avx512ifma = (b >> 21) & 1;
        features.avx2 = (b >> 5) & 1;
    }
    /* AVX2 needs the OS to save the ymm state (XCR0 bits 1..2), AVX-512 also the zmm state
     * (bits 5..7). */
    unsigned xcr0 = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) && ((c >> 27) & 1)) {
        unsigned hi;
        __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(hi) : "c"(0));
    }
    if ((xcr0 & 0x06) != 0x06)
        features.avx2 = false;
    if ((xcr0 & 0xe6) != 0xe6)
        features.avx512f = features.avx512ifma = false;
#endif
    probed = true;
    return &features;
}

bool cuzk_impl_supported(cuzk_impl impl)
{
    const cuzk_cpu_features *f = cuzk_cpu();
    switch (impl) {
    case CUZK_IMPL_PORTABLE: return true;
    case CUZK_IMPL_ADX: return f->adx && f->bmi2;
    case CUZK_IMPL_IFMA: return f->adx && f->bmi2 && f->avx512f && f->avx512ifma;
    }
    return false;
}

cuzk_impl cuzk_impl_best(void)
{
    if (cuzk_impl_supported(CUZK_IMPL_IFMA))
        return CUZK_IMPL_IFMA;
    if (cuzk_impl_supported(CUZK_IMPL_ADX))
        return CUZK_IMPL_ADX;
    return CUZK_IMPL_PORTABLE;
}

const char *cuzk_impl_name(cuzk_impl impl)
{
    switch (impl) {
    case CUZK_IMPL_PORTABLE: return "portable";
    case CUZK_IMPL_ADX: return "adx";
    case CUZK_IMPL_IFMA: return "ifma";
    }
    return "?";
}

bool cuzk_impl_parse(const char *name, cuzk_impl *out)
{
    for (int i = 0; i <= CUZK_IMPL_IFMA; i++)
        if (strcmp(name, cuzk_impl_name((cuzk_impl)i)) == 0) {
            *out = (cuzk_impl)i;
            return true;
        }
    return false;
}

cuzk_impl cuzk_impl_from_env(void)
{
    const char *env = getenv("CUZK_IMPL");
    cuzk_impl impl;
    if (env && *env) {
        if (!cuzk_impl_parse(env, &impl))
            fprintf(stderr, "cuzk: CUZK_IMPL=%s is not one of portable|adx|ifma; using the best available\n", env);
        else if (!cuzk_impl_supported(impl))
            fprintf(stderr, "cuzk: CUZK_IMPL=%s is not supported by this CPU; using the best available\n", env);
        else
            return impl;
    }
    return cuzk_impl_best();
}
