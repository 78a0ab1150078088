/* ffjavascript builds its roots of unity from the smallest quadratic non-residue of r (5), cuzk from
 * the generator 7. Both 2^32-th roots generate the same cyclic group, so ffjavascript's is ω^K for one
 * odd K; this file finds K (Pohlig–Hellman, one bit per step) so that snarkjs's row order and H points
 * can be mapped onto our domain. */
#include <pthread.h>
#include "cuzk/interop.h"
#include "ff/fr.h"

/* t = (r − 1) / 2^32, the odd part of the group order. */
static void odd_part(uint64_t t[FR_LIMBS])
{
    uint64_t m[FR_LIMBS];
    for (int i = 0; i < FR_LIMBS; i++)
        m[i] = FR_MODULUS[i];
    m[0] -= 1; /* r is odd: no borrow */
    for (int i = 0; i < FR_LIMBS; i++)
        t[i] = m[i] >> 32 | (i + 1 < FR_LIMBS ? m[i + 1] << 32 : 0);
}

/* The smallest quadratic non-residue, found the way ffjavascript finds it (2, 3, ... until the
 * Legendre symbol is −1), rather than hard-coded. */
static uint64_t smallest_nqr(void)
{
    for (uint64_t n = 2;; n++) {
        fr x;
        fr_from_u64(&x, n);
        if (fr_legendre(&x) == -1)
            return n;
    }
}

static uint32_t root_log;
static pthread_once_t root_log_once = PTHREAD_ONCE_INIT;

static void compute_root_log(void)
{
    uint64_t t[FR_LIMBS];
    odd_part(t);
    fr nqr, target, winv, one = FR_ONE;
    fr_from_u64(&nqr, smallest_nqr());
    fr_pow(&target, &nqr, t, FR_LIMBS);            /* ffjavascript's w[32] */
    fr_inv(&winv, &FR_ROOT_OF_UNITY_2_32);
    uint64_t k = 0;
    for (int i = 0; i < 32; i++) {
        /* x = target·ω^(−k) lies in the subgroup of order 2^(32−i); bit i of the log is set when
         * x^(2^(31−i)) is −1 rather than 1. */
        fr x, y;
        fr_pow(&y, &winv, &k, 1);
        fr_mul(&x, &target, &y);
        for (int j = 0; j < 31 - i; j++)
            fr_sqr(&x, &x);
        if (!fr_eq(&x, &one))
            k |= 1ull << i;
    }
    root_log = (uint32_t)k;
}

uint32_t cuzk_interop_ffjs_root_log(void)
{
    pthread_once(&root_log_once, compute_root_log);
    return root_log;
}
