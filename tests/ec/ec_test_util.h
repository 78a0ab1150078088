/* Helpers shared by the curve tests: random Fp elements from the seeded test PRNG (random scalars:
 * test_rand_scalar in test_util.h),
 * and GMP integers as little-endian limb arrays (for scalars longer than 256 bits). */
#ifndef CUZK_TESTS_EC_TEST_UTIL_H
#define CUZK_TESTS_EC_TEST_UTIL_H
#include <gmp.h>
#include "ec/ec.h"
#include "ff/fr.h"

void rand_fp(fp *r);                      /* uniform in [0, p) */
void rand_fp2(fp2 *r);
/* Writes v (0 <= v < 2^(64n)) as n little-endian limbs. */
void mpz_to_limbs(uint64_t *out, size_t n, const mpz_t v);
void limbs_to_mpz(mpz_t out, const uint64_t *in, size_t n);
/* The scalar field order r and the base field prime p as GMP integers. */
void mpz_set_r(mpz_t out);
void mpz_set_p(mpz_t out);

#endif
