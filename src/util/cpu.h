/* CPU feature detection and the choice of arithmetic implementation.
 * The choice is made once from cpuid; CUZK_IMPL=portable|adx|ifma in the environment forces one
 * (for A/B benchmarks and tests). Forcing an implementation the CPU lacks falls back with a warning. */
#ifndef CUZK_UTIL_CPU_H
#define CUZK_UTIL_CPU_H
#include <stdbool.h>

typedef enum {
    CUZK_IMPL_PORTABLE = 0, /* plain C with unsigned __int128: the oracle for the others */
    CUZK_IMPL_ADX = 1,      /* x86-64 MULX/ADCX/ADOX */
    CUZK_IMPL_IFMA = 2,     /* AVX-512 IFMA, 8 lanes, for batched kernels (scalar ops use ADX) */
} cuzk_impl;

typedef struct {
    bool bmi2, adx, avx2, avx512f, avx512ifma;
} cuzk_cpu_features;

const cuzk_cpu_features *cuzk_cpu(void);

/* Best implementation this CPU supports. */
cuzk_impl cuzk_impl_best(void);
/* Whether this CPU can run the given implementation. */
bool cuzk_impl_supported(cuzk_impl impl);
const char *cuzk_impl_name(cuzk_impl impl);
/* Parses "portable" / "adx" / "ifma"; returns false on anything else. */
bool cuzk_impl_parse(const char *name, cuzk_impl *out);
/* The implementation requested by CUZK_IMPL (if set and supported) or the best one. */
cuzk_impl cuzk_impl_from_env(void);

#endif
