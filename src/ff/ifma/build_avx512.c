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
bool ifma_g1_batch_add(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                       const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n, void *scratch)
{
    return g1_batch_add_kernel(out, p, q, q_neg, n, scratch);
}
size_t ifma_g1_batch_add_skip(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                              const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n, void *scratch,
                              uint8_t *skipped)
{
    return g1_batch_add_skip_kernel(out, p, q, q_neg, n, scratch, skipped);
}
bool ifma_g2_batch_add(cuzk_g2_affine_t *const *out, const cuzk_g2_affine_t *const *p,
                       const cuzk_g2_affine_t *const *q, const uint8_t *q_neg, size_t n, void *scratch)
{
    return g2_batch_add_kernel(out, p, q, q_neg, n, scratch);
}
void ifma_g1_on_curve_n(const cuzk_g1_affine_t *p, size_t n, uint8_t *ok) { k_g1_on_curve_n(p, n, ok); }
void ifma_g2_on_curve_n(const cuzk_g2_affine_t *p, size_t n, uint8_t *ok) { k_g2_on_curve_n(p, n, ok); }

#else
const bool ifma_compiled = false;
const ifma_ops ifma_ops_avx512 = {.name = "avx512-ifma (not compiled)"};

/* Unreachable: callers check ifma_available() first. */
void ifma_fp_mul_n(fp *r, const fp *a, const fp *b, size_t n) { (void)r, (void)a, (void)b, (void)n; }
void ifma_fr_mul_n(fr *r, const fr *a, const fr *b, size_t n) { (void)r, (void)a, (void)b, (void)n; }
bool ifma_g1_batch_add(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                       const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n, void *scratch)
{
    (void)out, (void)p, (void)q, (void)q_neg, (void)n, (void)scratch;
    return false;
}
size_t ifma_g1_batch_add_skip(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                              const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n, void *scratch,
                              uint8_t *skipped)
{
    (void)out, (void)p, (void)q, (void)q_neg, (void)n, (void)scratch, (void)skipped;
    return 0;
}
bool ifma_g2_batch_add(cuzk_g2_affine_t *const *out, const cuzk_g2_affine_t *const *p,
                       const cuzk_g2_affine_t *const *q, const uint8_t *q_neg, size_t n, void *scratch)
{
    (void)out, (void)p, (void)q, (void)q_neg, (void)n, (void)scratch;
    return false;
}
void ifma_g1_on_curve_n(const cuzk_g1_affine_t *p, size_t n, uint8_t *ok) { (void)p, (void)n, (void)ok; }
void ifma_g2_on_curve_n(const cuzk_g2_affine_t *p, size_t n, uint8_t *ok) { (void)p, (void)n, (void)ok; }
#endif
