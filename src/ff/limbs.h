/* Little-endian multi-limb helpers shared by the Fp and Fr code (internal).
 * n is always a compile-time constant at the call sites, so the loops unroll. */
#ifndef CUZK_FF_LIMBS_H
#define CUZK_FF_LIMBS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned __int128 u128;

#if defined(__x86_64__)
#include <x86intrin.h>
/* GCC turns unsigned __int128 carry chains into poor code; the carry intrinsics become adc/sbb. */
typedef unsigned long long limb_ull;

/* r = a + b; returns the carry out. */
static inline uint64_t limbs_add(uint64_t *r, const uint64_t *a, const uint64_t *b, int n)
{
    unsigned char c = 0;
    for (int i = 0; i < n; i++)
        c = _addcarry_u64(c, a[i], b[i], (limb_ull *)&r[i]);
    return c;
}

/* r = a - b; returns the borrow out (0 or 1). */
static inline uint64_t limbs_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, int n)
{
    unsigned char br = 0;
    for (int i = 0; i < n; i++)
        br = _subborrow_u64(br, a[i], b[i], (limb_ull *)&r[i]);
    return br;
}
#else
/* r = a + b; returns the carry out. */
static inline uint64_t limbs_add(uint64_t *r, const uint64_t *a, const uint64_t *b, int n)
{
    uint64_t c = 0;
    for (int i = 0; i < n; i++) {
        u128 s = (u128)a[i] + b[i] + c;
        r[i] = (uint64_t)s;
        c = (uint64_t)(s >> 64);
    }
    return c;
}

/* r = a - b; returns the borrow out (0 or 1). */
static inline uint64_t limbs_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, int n)
{
    uint64_t br = 0;
    for (int i = 0; i < n; i++) {
        u128 d = (u128)a[i] - b[i] - br;
        r[i] = (uint64_t)d;
        br = (uint64_t)(d >> 64) & 1;
    }
    return br;
}
#endif

/* a < b as integers. */
static inline bool limbs_lt(const uint64_t *a, const uint64_t *b, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i];
    return false;
}

static inline bool limbs_is_zero(const uint64_t *a, int n)
{
    uint64_t acc = 0;
    for (int i = 0; i < n; i++)
        acc |= a[i];
    return acc == 0;
}

/* r = (a < q) ? a : a - q, for a < 2q that fits in n limbs. Branch-free. The empty asm keeps
 * compilers from vectorizing the select through the stack (a store-forwarding stall). */
static inline void limbs_reduce_once(uint64_t *r, const uint64_t *a, const uint64_t *q, int n)
{
    uint64_t d[8];
    uint64_t br = limbs_sub(d, a, q, n);
    uint64_t keep = 0 - br; /* all ones when a < q */
    for (int i = 0; i < n; i++) {
        uint64_t x = (a[i] & keep) | (d[i] & ~keep);
        __asm__("" : "+r"(x));
        r[i] = x;
    }
}

/* Montgomery modular add/sub for moduli with a spare top bit (2q < 2^(64n)). */
static inline void limbs_mod_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *q, int n)
{
    uint64_t s[8];
    limbs_add(s, a, b, n);
    limbs_reduce_once(r, s, q, n);
}

static inline void limbs_mod_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *q, int n)
{
    uint64_t d[8], t[8];
    uint64_t mask = 0 - limbs_sub(d, a, b, n);
    for (int i = 0; i < n; i++)
        t[i] = q[i] & mask;
    limbs_add(r, d, t, n);
}

static inline void limbs_mod_neg(uint64_t *r, const uint64_t *a, const uint64_t *q, int n)
{
    uint64_t d[8];
    uint64_t mask = limbs_is_zero(a, n) ? 0 : ~(uint64_t)0;
    limbs_sub(d, q, a, n);
    for (int i = 0; i < n; i++)
        r[i] = d[i] & mask;
}

/* Portable Montgomery multiplication, CIOS without the extra carry word: valid because the top
 * limb of q is below 2^63 - 1, so every intermediate fits in n limbs plus the running carries.
 * Requires a, b < q; the result is fully reduced. */
static inline void limbs_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *q,
                                  uint64_t n0, int n)
{
    uint64_t t[8] = {0};
#pragma GCC unroll 8
    for (int i = 0; i < n; i++) {
        u128 s = (u128)a[0] * b[i] + t[0];
        uint64_t A = (uint64_t)(s >> 64);
        uint64_t m = (uint64_t)s * n0;
        u128 c = (u128)m * q[0] + (uint64_t)s;
        uint64_t C = (uint64_t)(c >> 64);
#pragma GCC unroll 8
        for (int j = 1; j < n; j++) {
            s = (u128)a[j] * b[i] + t[j] + A;
            A = (uint64_t)(s >> 64);
            c = (u128)m * q[j] + (uint64_t)s + C;
            C = (uint64_t)(c >> 64);
            t[j - 1] = (uint64_t)c;
        }
        t[n - 1] = C + A;
    }
    limbs_reduce_once(r, t, q, n);
}

/* Wide product t = a·b (2n limbs), schoolbook. */
static inline void limbs_mul_wide(uint64_t *t, const uint64_t *a, const uint64_t *b, int n)
{
    for (int i = 0; i < 2 * n; i++)
        t[i] = 0;
    for (int i = 0; i < n; i++) {
        uint64_t c = 0;
        for (int j = 0; j < n; j++) {
            u128 s = (u128)a[j] * b[i] + t[i + j] + c;
            t[i + j] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
        t[i + n] = c;
    }
}

/* Montgomery reduction r = t·2^(-64n) mod q of a 2n-limb t < q·2^(64n); fully reduced. The running
 * sum stays below 2q·2^(64n) < 2^(128n), so no limb beyond t[2n-1] is needed. */
static inline void limbs_redc(uint64_t *r, const uint64_t *tin, const uint64_t *q, uint64_t n0, int n)
{
    uint64_t t[16];
    for (int i = 0; i < 2 * n; i++)
        t[i] = tin[i];
    for (int i = 0; i < n; i++) {
        uint64_t m = t[i] * n0;
        u128 c = 0;
        for (int j = 0; j < n; j++) {
            c += (u128)m * q[j] + t[i + j];
            t[i + j] = (uint64_t)c;
            c >>= 64;
        }
        for (int k = i + n; k < 2 * n; k++) {
            c += t[k];
            t[k] = (uint64_t)c;
            c >>= 64;
        }
    }
    limbs_reduce_once(r, t + n, q, n);
}

static inline void limbs_from_bytes_le(uint64_t *r, const uint8_t *in, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t v = 0;
        for (int j = 7; j >= 0; j--)
            v = (v << 8) | in[8 * i + j];
        r[i] = v;
    }
}

static inline void limbs_from_bytes_be(uint64_t *r, const uint8_t *in, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t v = 0;
        const uint8_t *p = in + 8 * (n - 1 - i);
        for (int j = 0; j < 8; j++)
            v = (v << 8) | p[j];
        r[i] = v;
    }
}

static inline void limbs_to_bytes_le(uint8_t *out, const uint64_t *a, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 8; j++)
            out[8 * i + j] = (uint8_t)(a[i] >> (8 * j));
}

static inline void limbs_to_bytes_be(uint8_t *out, const uint64_t *a, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 8; j++)
            out[8 * (n - 1 - i) + (7 - j)] = (uint8_t)(a[i] >> (8 * j));
}

#endif
