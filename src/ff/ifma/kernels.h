/* Kernel template: the memory-level entry points of ifma.h and the ifma_ops table of one build.
 * A build file defines IFMA_OPS_NAME (and IFMA_REAL for the AVX-512 build), then includes this
 * file once. */
#ifndef CUZK_FF_IFMA_KERNELS_H
#define CUZK_FF_IFMA_KERNELS_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "ff/ifma/ifma.h"
#include "ff/ifma/simd512.h"
#include "ff/ifma/fp8_ops.h"
#include "ff/ifma/fr8_ops.h"

/* ---- Fp, 8 lanes ---- */

static void k_fp8_mul(ifma_fp8 *r, const ifma_fp8 *a, const ifma_fp8 *b)
{
    fp8v x, y;
    fp8v_load(&x, a->l);
    fp8v_load(&y, b->l);
    fp8v_mul(&x, &x, &y);
    fp8v_store(r->l, &x);
}

static void k_fp8_sqr(ifma_fp8 *r, const ifma_fp8 *a)
{
    fp8v x;
    fp8v_load(&x, a->l);
    fp8v_sqr(&x, &x);
    fp8v_store(r->l, &x);
}

static void k_fp8_mul2(ifma_fp8 *r, const ifma_fp8 *a, const ifma_fp8 *b, ifma_fp8 *s, const ifma_fp8 *c,
                       const ifma_fp8 *d)
{
    fp8v x, y, z, w;
    fp8v_load(&x, a->l);
    fp8v_load(&y, b->l);
    fp8v_load(&z, c->l);
    fp8v_load(&w, d->l);
    fp8v_mul2(&x, &x, &y, &z, &z, &w);
    fp8v_store(r->l, &x);
    fp8v_store(s->l, &z);
}

static void k_fp8_sqr2(ifma_fp8 *r, const ifma_fp8 *a, ifma_fp8 *s, const ifma_fp8 *c)
{
    fp8v x, z;
    fp8v_load(&x, a->l);
    fp8v_load(&z, c->l);
    fp8v_sqr2(&x, &x, &z, &z);
    fp8v_store(r->l, &x);
    fp8v_store(s->l, &z);
}

#define K_FP8_BINARY(name, op)                                      \
    static void name(ifma_fp8 *r, const ifma_fp8 *a, const ifma_fp8 *b) \
    {                                                               \
        fp8v x, y;                                                  \
        fp8v_load(&x, a->l);                                        \
        fp8v_load(&y, b->l);                                        \
        op(&x, &x, &y);                                             \
        fp8v_store(r->l, &x);                                       \
    }
K_FP8_BINARY(k_fp8_add, fp8v_add)
K_FP8_BINARY(k_fp8_sub, fp8v_sub)
K_FP8_BINARY(k_fp8_add_lazy, fp8v_add_lazy)
K_FP8_BINARY(k_fp8_sub_lazy, fp8v_sub_lazy)
#undef K_FP8_BINARY

static void k_fp8_reduce(ifma_fp8 *r, const ifma_fp8 *a)
{
    fp8v x;
    fp8v_load(&x, a->l);
    fp8v_reduce(&x, &x);
    fp8v_store(r->l, &x);
}

/* Radix change, then [v]_384 -> [v]_416 by a product with [2^448 mod p]. */
static void k_fp8_from_fp(ifma_fp8 *r, const fp a[8])
{
    uint64_t w[6][8];
    fp8v x, k;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 6; j++)
            w[j][i] = a[i].l[j];
    fp8v_from_words(&x, w);
    fp8v_const(&k, FP8_2E448);
    fp8v_mul(&x, &x, &k);
    fp8v_store(r->l, &x);
}

/* [v]_416 -> [v]_384 by a product with [2^384 mod p], then canonical, then radix change. */
static void k_fp8_to_fp(fp r[8], const ifma_fp8 *a)
{
    uint64_t w[6][8];
    fp8v x, k;
    fp8v_load(&x, a->l);
    fp8v_const(&k, FP8_2E384);
    fp8v_mul(&x, &x, &k);
    fp8v_reduce(&x, &x);
    fp8v_to_words(w, &x);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 6; j++)
            r[i].l[j] = w[j][i];
}

/* r = a·b·2^-384: a·2^32 (a shift, < 2^413) times b < p is a valid mul input pair, and the
 * product's factor 2^(32-416) is fp.h's 2^-384. Tails are padded with zero lanes. */
static void k_fp_mul_n(fp *r, const fp *a, const fp *b, size_t n)
{
    for (size_t base = 0; base < n; base += 8) {
        size_t lanes = n - base < 8 ? n - base : 8;
        uint64_t wa[6][8] = {{0}}, wb[6][8] = {{0}};
        for (size_t i = 0; i < lanes; i++)
            for (int j = 0; j < 6; j++) {
                wa[j][i] = a[base + i].l[j];
                wb[j][i] = b[base + i].l[j];
            }
        fp8v x, y;
        fp8v_from_words(&x, wa);
        fp8v_from_words(&y, wb);
        fp8v_shl(&x, &x, 32);
        fp8v_mul(&x, &x, &y);
        fp8v_reduce(&x, &x);
        fp8v_to_words(wa, &x);
        for (size_t i = 0; i < lanes; i++)
            for (int j = 0; j < 6; j++)
                r[base + i].l[j] = wa[j][i];
    }
}

/* ---- Fr, 8 lanes ---- */

#define K_FR8_BINARY(name, op)                                      \
    static void name(ifma_fr8 *r, const ifma_fr8 *a, const ifma_fr8 *b) \
    {                                                               \
        fr8v x, y;                                                  \
        fr8v_load(&x, a->l);                                        \
        fr8v_load(&y, b->l);                                        \
        op(&x, &x, &y);                                             \
        fr8v_store(r->l, &x);                                       \
    }
K_FR8_BINARY(k_fr8_mul, fr8v_mul)
K_FR8_BINARY(k_fr8_add, fr8v_add)
K_FR8_BINARY(k_fr8_sub, fr8v_sub)
#undef K_FR8_BINARY

static void k_fr8_sqr(ifma_fr8 *r, const ifma_fr8 *a)
{
    fr8v x;
    fr8v_load(&x, a->l);
    fr8v_sqr(&x, &x);
    fr8v_store(r->l, &x);
}

static void k_fr8_reduce(ifma_fr8 *r, const ifma_fr8 *a)
{
    fr8v x;
    fr8v_load(&x, a->l);
    fr8v_reduce(&x, &x);
    fr8v_store(r->l, &x);
}

static void k_fr8_from_fr(ifma_fr8 *r, const fr a[8])
{
    uint64_t w[4][8];
    fr8v x, k;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++)
            w[j][i] = a[i].l[j];
    fr8v_from_words(&x, w);
    fr8v_const(&k, FR8_2E264);
    fr8v_mul(&x, &x, &k);
    fr8v_store(r->l, &x);
}

static void k_fr8_to_fr(fr r[8], const ifma_fr8 *a)
{
    uint64_t w[4][8];
    fr8v x, k;
    fr8v_load(&x, a->l);
    fr8v_const(&k, FR8_2E256);
    fr8v_mul(&x, &x, &k);
    fr8v_reduce(&x, &x);
    fr8v_to_words(w, &x);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++)
            r[i].l[j] = w[j][i];
}

/* r = a·b·2^-256: a·2^4 < 2^259 times b < r is a valid mul input pair (16r² < r·2^260). */
static void k_fr_mul_n(fr *r, const fr *a, const fr *b, size_t n)
{
    for (size_t base = 0; base < n; base += 8) {
        size_t lanes = n - base < 8 ? n - base : 8;
        uint64_t wa[4][8] = {{0}}, wb[4][8] = {{0}};
        for (size_t i = 0; i < lanes; i++)
            for (int j = 0; j < 4; j++) {
                wa[j][i] = a[base + i].l[j];
                wb[j][i] = b[base + i].l[j];
            }
        fr8v x, y;
        fr8v_from_words(&x, wa);
        fr8v_from_words(&y, wb);
        fr8v_shl(&x, &x, 4);
        fr8v_mul(&x, &x, &y);
        fr8v_reduce(&x, &x);
        fr8v_to_words(wa, &x);
        for (size_t i = 0; i < lanes; i++)
            for (int j = 0; j < 4; j++)
                r[base + i].l[j] = wa[j][i];
    }
}

const ifma_ops IFMA_OPS_NAME = {
#if defined(IFMA_REAL)
    .name = "avx512-ifma",
#else
    .name = "emulated",
#endif
    .fp8_mul = k_fp8_mul,
    .fp8_sqr = k_fp8_sqr,
    .fp8_mul2 = k_fp8_mul2,
    .fp8_sqr2 = k_fp8_sqr2,
    .fp8_add = k_fp8_add,
    .fp8_sub = k_fp8_sub,
    .fp8_add_lazy = k_fp8_add_lazy,
    .fp8_sub_lazy = k_fp8_sub_lazy,
    .fp8_reduce = k_fp8_reduce,
    .fp8_from_fp = k_fp8_from_fp,
    .fp8_to_fp = k_fp8_to_fp,
    .fr8_mul = k_fr8_mul,
    .fr8_sqr = k_fr8_sqr,
    .fr8_add = k_fr8_add,
    .fr8_sub = k_fr8_sub,
    .fr8_reduce = k_fr8_reduce,
    .fr8_from_fr = k_fr8_from_fr,
    .fr8_to_fr = k_fr8_to_fr,
    .fp_mul_n = k_fp_mul_n,
    .fr_mul_n = k_fr_mul_n,
};

#endif
