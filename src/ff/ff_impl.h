/* Selection of the field-arithmetic implementation used by the dispatched operations
 * (fp_mul, fp_sqr, fr_mul, fr_sqr and everything built on them). Chosen at start-up from cpuid
 * and CUZK_IMPL; benchmarks and tests switch it explicitly. Not thread-safe: switch only while no
 * kernel is running. */
#ifndef CUZK_FF_IMPL_H
#define CUZK_FF_IMPL_H
#include "cuzk/status.h"
#include "util/cpu.h"

/* CUZK_ERR_UNSUPPORTED when the CPU cannot run impl (the current choice is kept). */
cuzk_status ff_set_impl(cuzk_impl impl);
cuzk_impl ff_get_impl(void);

#endif
