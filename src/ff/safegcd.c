/* Constant-time inversion by Bernstein–Yang divsteps (eprint 2019/266), in batches of 62.
 * State: f = q, g = x, d = 0, e = 1 with f = d·x and g = e·x (mod q). Each batch runs 62 divsteps
 * on the low bits of f and g, giving a matrix T with 2^62·(f', g') = T·(f, g); the same matrix
 * updates (d, e) modulo q, adding a multiple of q to make the division by 2^62 exact. When g
 * reaches 0, f = ±1 and ±d is the inverse. Theorem 11.2 of the paper bounds the divsteps needed:
 * floor((49·b + 57) / 17) for b-bit inputs (b >= 46): 1101 for Fp (18 batches), 738 for Fr (12). */
#include "ff/safegcd.h"
#include <stdbool.h>

typedef __int128 i128;
#define M62 ((uint64_t)0x3fffffffffffffffULL)

const sg_modulus SG_FP = {
    {0x39feffffffffaaab, 0x3aaffffac54ffffe, 0x330d2a0f6b0f6241, 0x1dd2e13ce144afd9,
     0x1ba7b6434bacd764, 0x0447a8e5ff9a692c, 0x00000000000001a0},
    0x360c000300030003ULL, 7, 6, 18};

const sg_modulus SG_FR = {
    {0x3fffffff00000001, 0x0ef6900bfff96ffb, 0x339d80809a1d8055, 0x3b69d4ca675f520c,
     0x0000000000000073, 0, 0},
    0x0000000100000001ULL, 5, 4, 12};

/* 62 divsteps on the low words of f and g (f odd). Returns the new delta and the matrix
 * t = (u, v, q, r). Branch-free: every step does the same operations with masks. */
static int64_t divsteps_62(int64_t delta, uint64_t f, uint64_t g, int64_t t[4])
{
    int64_t u = 1, v = 0, q = 0, r = 1;
    for (int i = 0; i < 62; i++) {
        int64_t odd = -(int64_t)(g & 1);
        int64_t s = odd & ((-delta) >> 63); /* swap when delta > 0 and g is odd */
        int64_t x;
        /* swap case: (delta, f, g) -> (-delta, g, -f), (u, v, q, r) -> (q, r, -u, -v) */
        delta = (delta ^ s) - s;
        x = (int64_t)((f ^ g) & (uint64_t)s), f ^= (uint64_t)x, g ^= (uint64_t)x;
        g = (g ^ (uint64_t)s) - (uint64_t)s;
        x = (u ^ q) & s, u ^= x, q ^= x, q = (q ^ s) - s;
        x = (v ^ r) & s, v ^= x, r ^= x, r = (r ^ s) - s;
        /* then, when g is odd, g += f: g is now even; halve it */
        g += f & (uint64_t)odd;
        q += u & odd;
        r += v & odd;
        delta += 1;
        g >>= 1;
        u *= 2;
        v *= 2;
    }
    t[0] = u, t[1] = v, t[2] = q, t[3] = r;
    return delta;
}

/* The same 62 divsteps in variable time, several at once: a run of z zero bits at the bottom of g is
 * z divsteps that only halve g (one shift); and from an odd g with delta <= 0 (after the swap, if
 * any), the next k <= 1 − delta divsteps cannot swap, so they add f to g exactly where g is odd:
 * together g + w·f with w = −g/f mod 2^k, then a shift by k (and q, r gain w·u, w·v). The matrix
 * entries are kept unsigned so that shifting negative ones is defined (they fit: |u| + |v| <= 2^62,
 * read back as two's complement). */
static int64_t divsteps_62_vartime(int64_t delta, uint64_t f, uint64_t g, int64_t t[4])
{
    uint64_t u = 1, v = 0, q = 0, r = 1;
    uint64_t f_inv = f * (2 - f * f); /* f^-1 mod 2^6: f·f = 1 mod 8 for odd f, one Newton step */
    int left = 62;
    for (;;) {
        int z = g ? __builtin_ctzll(g) : left;
        if (z > left)
            z = left;
        g >>= z, u <<= z, v <<= z;
        delta += z;
        left -= z;
        if (left == 0)
            break;
        /* g is odd: swap when delta > 0, then g += f (now even) and halve it */
        if (delta > 0) {
            uint64_t x = f;
            f = g, g = 0 - x;
            x = u, u = q, q = 0 - x;
            x = v, v = r, r = 0 - x;
            delta = -delta;
            f_inv = f * (2 - f * f);
        }
        int k = (int)(1 - delta);
        if (k > left)
            k = left;
        if (k > 6)
            k = 6;
        uint64_t w = (0 - g * f_inv) & (~(uint64_t)0 >> (64 - k));
        g += w * f, q += w * u, r += w * v;
        g >>= k, u <<= k, v <<= k;
        delta += k;
        left -= k;
    }
    t[0] = (int64_t)u, t[1] = (int64_t)v, t[2] = (int64_t)q, t[3] = (int64_t)r;
    return delta;
}

/* (f, g) = T·(f, g) / 2^62, exactly. */
static void update_fg(int64_t *f, int64_t *g, const int64_t t[4], int n)
{
    i128 cf = (i128)t[0] * f[0] + (i128)t[1] * g[0];
    i128 cg = (i128)t[2] * f[0] + (i128)t[3] * g[0];
    cf >>= 62, cg >>= 62;
    for (int i = 1; i < n; i++) {
        cf += (i128)t[0] * f[i] + (i128)t[1] * g[i];
        cg += (i128)t[2] * f[i] + (i128)t[3] * g[i];
        f[i - 1] = (int64_t)((uint64_t)cf & M62);
        g[i - 1] = (int64_t)((uint64_t)cg & M62);
        cf >>= 62, cg >>= 62;
    }
    f[n - 1] = (int64_t)cf, g[n - 1] = (int64_t)cg;
}

/* (d, e) = (T·(d, e) + (md, me)·q) / 2^62, with md, me chosen to make the division exact. For
 * d, e in (−2q, q), adding q·u when d < 0 (and likewise for the other terms) first brings the
 * operands into (−q, q); subtracting k·q with 0 <= k < 2^62 for exactness keeps the result in
 * (−2q, q) because |u| + |v| <= 2^62. */
static void update_de(int64_t *d, int64_t *e, const int64_t t[4], const sg_modulus *m)
{
    int n = m->n62;
    int64_t sd = d[n - 1] >> 63, se = e[n - 1] >> 63;
    int64_t md = (t[0] & sd) + (t[1] & se);
    int64_t me = (t[2] & sd) + (t[3] & se);
    i128 cd = (i128)t[0] * d[0] + (i128)t[1] * e[0];
    i128 ce = (i128)t[2] * d[0] + (i128)t[3] * e[0];
    md -= (int64_t)((m->q_inv62 * (uint64_t)cd + (uint64_t)md) & M62);
    me -= (int64_t)((m->q_inv62 * (uint64_t)ce + (uint64_t)me) & M62);
    cd += (i128)m->q[0] * md;
    ce += (i128)m->q[0] * me;
    cd >>= 62, ce >>= 62;
    for (int i = 1; i < n; i++) {
        cd += (i128)t[0] * d[i] + (i128)t[1] * e[i] + (i128)m->q[i] * md;
        ce += (i128)t[2] * d[i] + (i128)t[3] * e[i] + (i128)m->q[i] * me;
        d[i - 1] = (int64_t)((uint64_t)cd & M62);
        e[i - 1] = (int64_t)((uint64_t)ce & M62);
        cd >>= 62, ce >>= 62;
    }
    d[n - 1] = (int64_t)cd, e[n - 1] = (int64_t)ce;
}

/* Carry-normalizes signed-62 limbs: every limb but the top one in [0, 2^62). */
static void normalize(int64_t *a, int n)
{
    for (int i = 0; i < n - 1; i++) {
        a[i + 1] += a[i] >> 62;
        a[i] = (int64_t)((uint64_t)a[i] & M62);
    }
}

/* a += q when mask is all ones. */
static void add_q_masked(int64_t *a, const sg_modulus *m, int64_t mask)
{
    for (int i = 0; i < m->n62; i++)
        a[i] += m->q[i] & mask;
    normalize(a, m->n62);
}

static void to_s62(int64_t *out, const uint64_t *x, int n64, int n62)
{
    for (int i = 0; i < n62; i++) {
        int bit = 62 * i, w = bit / 64, sh = bit % 64;
        uint64_t v = w < n64 ? x[w] >> sh : 0;
        if (sh > 2 && w + 1 < n64)
            v |= x[w + 1] << (64 - sh);
        out[i] = (int64_t)(v & M62);
    }
}

static void from_s62(uint64_t *out, const int64_t *a, int n64, int n62)
{
    for (int i = 0; i < n64; i++)
        out[i] = 0;
    for (int i = 0; i < n62; i++) {
        int bit = 62 * i, w = bit / 64, sh = bit % 64;
        uint64_t v = (uint64_t)a[i];
        if (w < n64)
            out[w] |= v << sh;
        if (sh > 2 && w + 1 < n64)
            out[w + 1] |= v >> (64 - sh);
    }
}

static bool is_zero_s62(const int64_t *a, int n)
{
    int64_t any = 0;
    for (int i = 0; i < n; i++)
        any |= a[i];
    return any == 0;
}

static void inverse(uint64_t *out, const uint64_t *x, const sg_modulus *m, bool vartime)
{
    int n = m->n62;
    int64_t f[SG_MAX_LIMBS], g[SG_MAX_LIMBS], d[SG_MAX_LIMBS] = {0}, e[SG_MAX_LIMBS] = {1}, t[4];
    int64_t delta = 1;
    for (int i = 0; i < n; i++)
        f[i] = m->q[i];
    to_s62(g, x, m->n64, n);
    for (int b = 0; b < m->batches; b++) {
        uint64_t f0 = (uint64_t)f[0] | ((uint64_t)f[1] << 62), g0 = (uint64_t)g[0] | ((uint64_t)g[1] << 62);
        delta = vartime ? divsteps_62_vartime(delta, f0, g0, t) : divsteps_62(delta, f0, g0, t);
        update_de(d, e, t, m);
        update_fg(f, g, t, n);
        /* Once g = 0, further divsteps leave f and d as they are (g stays 0, T = 2^62·I). */
        if (vartime && is_zero_s62(g, n))
            break;
    }
    /* f = ±1 (or q when x = 0, where d = 0 anyway): the inverse is sign(f)·d, d in (−2q, q). */
    int64_t neg = f[n - 1] >> 63;
    for (int i = 0; i < n; i++)
        d[i] = (d[i] ^ neg) - neg;
    normalize(d, n);
    /* now d in (−q, 2q) (or the negation of (−2q, q)): bring into [0, q) */
    add_q_masked(d, m, d[n - 1] >> 63);
    add_q_masked(d, m, d[n - 1] >> 63);
    int64_t s[SG_MAX_LIMBS];
    for (int i = 0; i < n; i++)
        s[i] = d[i] - m->q[i];
    normalize(s, n);
    int64_t keep = s[n - 1] >> 63; /* d < q: keep d */
    for (int i = 0; i < n; i++)
        d[i] = (d[i] & keep) | (s[i] & ~keep);
    from_s62(out, d, m->n64, n);
}

void sg_inverse(uint64_t *out, const uint64_t *x, const sg_modulus *m) { inverse(out, x, m, false); }

void sg_inverse_vartime(uint64_t *out, const uint64_t *x, const sg_modulus *m) { inverse(out, x, m, true); }
