/* Curve membership of many affine points at once, and the Montgomery form of many decoded coordinates
 * (parameter and key files): with the lane kernels of the dispatch table (AVX-512 IFMA) eight points or
 * coordinates go through one set of vector multiplications, else the scalar code runs one by one. */
#include "ec/ec.h"
#include "ec/ifma/ec_ifma.h"

#define BLOCK 256

/* Blocks of the batch kernel's flags, or the scalar check point by point (size: bytes per point). */
static size_t first_off_curve(const void *p, size_t n, size_t size, bool (*one)(const void *),
                              const ec_ifma_ops *k,
                              void (*batch)(const ec_ifma_ops *, const void *, size_t, uint8_t *))
{
    const uint8_t *b = p;
    if (!k) {
        for (size_t i = 0; i < n; i++)
            if (!one(b + i * size))
                return i;
        return n;
    }
    uint8_t ok[BLOCK];
    for (size_t base = 0; base < n; base += BLOCK) {
        size_t m = n - base < BLOCK ? n - base : BLOCK;
        batch(k, b + base * size, m, ok);
        for (size_t i = 0; i < m; i++)
            if (!ok[i])
                return base + i;
    }
    return n;
}

static bool g1_one(const void *p) { return g1_aff_on_curve(p); }
static bool g2_one(const void *p) { return g2_aff_on_curve(p); }

static void g1_batch(const ec_ifma_ops *k, const void *p, size_t n, uint8_t *ok) { k->g1_on_curve_n(p, n, ok); }
static void g2_batch(const ec_ifma_ops *k, const void *p, size_t n, uint8_t *ok) { k->g2_on_curve_n(p, n, ok); }

size_t g1_aff_first_off_curve(const g1_aff *p, size_t n)
{
    return first_off_curve(p, n, sizeof *p, g1_one, ec_lanes(), g1_batch);
}

size_t g2_aff_first_off_curve(const g2_aff *p, size_t n)
{
    return first_off_curve(p, n, sizeof *p, g2_one, ec_lanes(), g2_batch);
}

void fp_to_mont_many(fp *c, size_t n)
{
    const ec_ifma_ops *k = ec_lanes();
    if (k) {
        k->fp_to_mont_n(c, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        fp_to_mont(&c[i], c[i].l);
}
