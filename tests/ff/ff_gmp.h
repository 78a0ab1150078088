/* Test-side helpers shared by the tests/ff programs: conversions between field elements and GMP
 * integers, and random / edge-case elements. GMP is the oracle; nothing here uses the code under
 * test except the Montgomery conversions, which are themselves checked in test_fp_fr. */
#ifndef CUZK_TESTS_FF_GMP_H
#define CUZK_TESTS_FF_GMP_H
#include <gmp.h>
#include <stdint.h>
#include "test_util.h"

static inline void mpz_from_limbs(mpz_t z, const uint64_t *l, int n)
{
    mpz_import(z, (size_t)n, -1, 8, 0, 0, l);
}

static inline void mpz_to_limbs(uint64_t *l, const mpz_t z, int n)
{
    size_t cnt = 0;
    for (int i = 0; i < n; i++)
        l[i] = 0;
    if (mpz_sizeinbase(z, 2) <= (size_t)(64 * n))
        mpz_export(l, &cnt, -1, 8, 0, 0, z);
}

/* Uniform-ish random integer in [0, q). */
static inline void mpz_rand_below(mpz_t z, const mpz_t q, int n)
{
    uint64_t l[8];
    for (int i = 0; i < n + 1 && i < 8; i++)
        l[i] = test_rand64();
    mpz_from_limbs(z, l, n + 1);
    mpz_mod(z, z, q);
}

#endif
