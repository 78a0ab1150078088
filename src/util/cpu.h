/* CPU feature detection and what it allows: the implementations of cuzk/cuzk.h this CPU runs
 * (cuzk_impl_supported, cuzk_impl_best, implemented here). Which one is in use is the dispatch
 * table's business (util/dispatch.h). */
#ifndef CUZK_UTIL_CPU_H
#define CUZK_UTIL_CPU_H
#include <stdbool.h>
#include "cuzk/cuzk.h"

/* The short internal name of the public enum. */
typedef cuzk_impl_t cuzk_impl;

typedef struct {
    bool bmi2, adx, avx2, avx512f, avx512ifma;
} cuzk_cpu_features;

/* Probed once (thread-safe). */
const cuzk_cpu_features *cuzk_cpu(void);

#endif
