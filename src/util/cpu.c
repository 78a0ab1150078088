/* cpuid probing (x86-64) and the implementations it allows. */
#include "util/cpu.h"
#include <pthread.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

static cuzk_cpu_features features;
static pthread_once_t probed = PTHREAD_ONCE_INIT;

static void probe(void)
{
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
}

const cuzk_cpu_features *cuzk_cpu(void)
{
    pthread_once(&probed, probe);
    return &features;
}

bool cuzk_impl_supported(cuzk_impl_t impl)
{
    const cuzk_cpu_features *f = cuzk_cpu();
    switch (impl) {
    case CUZK_IMPL_AUTO:
    case CUZK_IMPL_PORTABLE: return true;
    case CUZK_IMPL_ADX: return f->adx && f->bmi2;
    case CUZK_IMPL_IFMA: return f->adx && f->bmi2 && f->avx512f && f->avx512ifma;
    }
    return false;
}

cuzk_impl_t cuzk_impl_best(void)
{
    if (cuzk_impl_supported(CUZK_IMPL_IFMA))
        return CUZK_IMPL_IFMA;
    if (cuzk_impl_supported(CUZK_IMPL_ADX))
        return CUZK_IMPL_ADX;
    return CUZK_IMPL_PORTABLE;
}

static const char *const impl_names[] = {"auto", "portable", "adx", "ifma"};

const char *cuzk_impl_name(cuzk_impl_t impl)
{
    return (unsigned)impl < sizeof impl_names / sizeof impl_names[0] ? impl_names[impl] : "?";
}

bool cuzk_impl_parse(const char *name, cuzk_impl_t *out)
{
    for (unsigned i = 0; i < sizeof impl_names / sizeof impl_names[0]; i++)
        if (strcmp(name, impl_names[i]) == 0) {
            *out = (cuzk_impl_t)i;
            return true;
        }
    return false;
}
