/* Curve membership of many affine points at once (parameter and key files): with AVX-512 IFMA eight
 * points go through one set of vector multiplications, else the scalar check runs per point. */
#include "ec/ec.h"
#include "ff/ff_impl.h"
#include "ff/ifma/ifma.h"

#define BLOCK 256

static bool use_ifma(void) { return ff_get_impl() == CUZK_IMPL_IFMA && ifma_available(); }

size_t g1_aff_first_off_curve(const g1_aff *p, size_t n)
{
    if (!use_ifma()) {
        for (size_t i = 0; i < n; i++)
            if (!g1_aff_on_curve(&p[i]))
                return i;
        return n;
    }
    uint8_t ok[BLOCK];
    for (size_t base = 0; base < n; base += BLOCK) {
        size_t m = n - base < BLOCK ? n - base : BLOCK;
        ifma_g1_on_curve_n(&p[base], m, ok);
        for (size_t i = 0; i < m; i++)
            if (!ok[i])
                return base + i;
    }
    return n;
}

size_t g2_aff_first_off_curve(const g2_aff *p, size_t n)
{
    if (!use_ifma()) {
        for (size_t i = 0; i < n; i++)
            if (!g2_aff_on_curve(&p[i]))
                return i;
        return n;
    }
    uint8_t ok[BLOCK];
    for (size_t base = 0; base < n; base += BLOCK) {
        size_t m = n - base < BLOCK ? n - base : BLOCK;
        ifma_g2_on_curve_n(&p[base], m, ok);
        for (size_t i = 0; i < m; i++)
            if (!ok[i])
                return base + i;
    }
    return n;
}
