/* The real build of the IFMA kernels: this file alone is compiled with -mavx512f -mavx512ifma, and
 * nothing in it may run before ifma_available() said yes (see ifma.c). Without compiler support
 * for those flags it builds an empty table and ifma_available() stays false. */
#include "ff/ifma/ifma.h"

#if defined(__AVX512F__) && defined(__AVX512IFMA__)
#define IFMA_REAL 1
#define IFMA_OPS_NAME ifma_ops_avx512
#include "ff/ifma/kernels.h"

const bool ifma_compiled = true;

void ifma_fp_mul_n(fp *r, const fp *a, const fp *b, size_t n) { k_fp_mul_n(r, a, b, n); }
void ifma_fr_mul_n(fr *r, const fr *a, const fr *b, size_t n) { k_fr_mul_n(r, a, b, n); }

#else
const bool ifma_compiled = false;
const ifma_ops ifma_ops_avx512 = {.name = "avx512-ifma (not compiled)"};

/* Unreachable: callers check ifma_available() first. */
void ifma_fp_mul_n(fp *r, const fp *a, const fp *b, size_t n) { (void)r, (void)a, (void)b, (void)n; }
void ifma_fr_mul_n(fr *r, const fr *a, const fr *b, size_t n) { (void)r, (void)a, (void)b, (void)n; }
#endif
