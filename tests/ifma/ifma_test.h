/* Shared helpers of the IFMA tests: the lists of kernel builds to test (the emulated one always,
 * the real one when the CPU runs it), of the field kernels (ff/ifma) and of the point kernels
 * (ec/ifma), and lane <-> GMP conversions for the radix-2^52 layout. */
#ifndef CUZK_TESTS_IFMA_TEST_H
#define CUZK_TESTS_IFMA_TEST_H
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include "ec/ifma/ec_ifma.h"
#include "ff/ifma/ifma.h"
#include "test_util.h"

#define P_HEX "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab"
#define R_HEX "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"

/* Fills impls[] with the builds to test and returns their count; says so when the real one is
 * missing (not a failure: the emulated build still checks the algorithm). */
static inline int ifma_test_impls(const ifma_ops *impls[2])
{
    int n = 0;
    impls[n++] = &ifma_ops_emulated;
    if (ifma_ops_real())
        impls[n++] = ifma_ops_real();
    else
        printf("IFMA hardware not present: real kernels not exercised\n");
    return n;
}

/* The same for the point kernels. */
static inline int ec_ifma_test_impls(const ec_ifma_ops *impls[2])
{
    int n = 0;
    impls[n++] = &ec_ifma_ops_emulated;
    if (ec_ifma_ops_real())
        impls[n++] = ec_ifma_ops_real();
    else
        printf("IFMA hardware not present: real kernels not exercised\n");
    return n;
}

/* Lane `lane` of a limb-major radix-2^52 buffer with `limbs` limbs <-> an integer. */
static inline void lane_get(mpz_t v, const uint64_t (*l)[8], int limbs, int lane)
{
    mpz_set_ui(v, 0);
    for (int j = limbs - 1; j >= 0; j--) {
        mpz_mul_2exp(v, v, 52);
        mpz_add_ui(v, v, l[j][lane]);
    }
}

/* v must be < 2^(52·limbs). */
static inline void lane_set(uint64_t (*l)[8], int limbs, int lane, const mpz_t v)
{
    mpz_t t;
    mpz_init_set(t, v);
    for (int j = 0; j < limbs; j++) {
        l[j][lane] = mpz_getlimbn(t, 0) & 0xfffffffffffffull;
        mpz_fdiv_q_2exp(t, t, 52);
    }
    mpz_clear(t);
}

/* Whether every limb of the buffer is below 2^52. */
static inline int lanes_normalized(const uint64_t (*l)[8], int limbs)
{
    for (int j = 0; j < limbs; j++)
        for (int i = 0; i < 8; i++)
            if (l[j][i] >> 52)
                return 0;
    return 1;
}

/* Uniform-ish random integer in [0, bound) from the seeded test PRNG. */
static inline void rand_below(mpz_t v, const mpz_t bound)
{
    uint8_t buf[80];
    test_rand_bytes(buf, sizeof buf);
    mpz_import(v, sizeof buf, 1, 1, 0, 0, buf);
    mpz_mod(v, v, bound);
}

/* Canonical little-endian 64-bit words <-> integer. */
static inline void words_get(mpz_t v, const uint64_t *w, int n) { mpz_import(v, (size_t)n, -1, 8, 0, 0, w); }
static inline void words_set(uint64_t *w, int n, const mpz_t v)
{
    for (int i = 0; i < n; i++)
        w[i] = mpz_getlimbn(v, i);
}

#endif
