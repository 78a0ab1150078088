/* Random field elements and scalars for the curve tests (see ec_test_util.h). */
#include "ec_test_util.h"
#include "test_util.h"

void rand_fp(fp *r)
{
    uint8_t b[FP_BYTES];
    do {
        test_rand_bytes(b, sizeof b);
        b[0] &= 0x1f;   /* 381 bits; about 80% of draws are < p */
    } while (!fp_from_bytes_be(r, b));
}

void rand_fp2(fp2 *r)
{
    rand_fp(&r->c0);
    rand_fp(&r->c1);
}

void mpz_to_limbs(uint64_t *out, size_t n, const mpz_t v)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        out[i] = 0;
    mpz_export(out, &count, -1, sizeof(uint64_t), 0, 0, v);
}

void limbs_to_mpz(mpz_t out, const uint64_t *in, size_t n)
{
    mpz_import(out, n, -1, sizeof(uint64_t), 0, 0, in);
}

void mpz_set_r(mpz_t out) { limbs_to_mpz(out, FR_MODULUS, FR_LIMBS); }

void mpz_set_p(mpz_t out) { limbs_to_mpz(out, FP_MODULUS, FP_LIMBS); }
