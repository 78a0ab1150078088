/* Curve-membership checks of affine points, 8 at a time (part of the kernel template, kernels.h).
 * Coordinates stay in fp.h's Montgomery form [v] = v·2^384: with V the raw 384-bit value, a product
 * mul(V·2^32, W) is V·W·2^(32−416) = [v·w], so no conversion is needed; the equation is compared
 * after reducing both sides to canonical form. Parameter files hold millions of points, each checked
 * at load. Needs fp8_ops.h. */
#ifndef CUZK_EC_IFMA_ON_CURVE_H
#define CUZK_EC_IFMA_ON_CURVE_H

/* [4] = 4·2^384 mod p in radix 2^52: the coefficient b of G1 and each half of G2's b = 4(1 + u). */
static const uint64_t FP8_B_MONT[8] = {0x70000000cfff3ull, 0x32fc34000aaa2ull, 0xb0a807f53cc00ull,
                                       0x24d7478fe97a6ull, 0xfb1d37ebee6baull, 0xc9733bbf78ab2ull,
                                       0x5513d83de7e8eull, 0x0000000009d64ull};

/* r = [a·b] for a, b < 2p in fp.h's form (a·2^32 · b < p·2^416); r in [0, 2p). */
V8_INLINE void oc_mul(fp8v *r, const fp8v *a, const fp8v *b)
{
    fp8v t;
    fp8v_shl(&t, a, 32);
    fp8v_mul(r, &t, b);
}

/* Lane i = c[i·stride] (stride in fp elements); lanes past `lanes` repeat lane 0 (their results are
 * not used). */
static inline void oc_gather(fp8v *r, const fp *c, size_t stride, size_t lanes)
{
    const uint64_t *src[8];
    for (size_t i = 0; i < 8; i++)
        src[i] = c[(i < lanes ? i : 0) * stride].l;
    fp8v_gather(r, src);
}

/* Canonical words of lhs and rhs (both < 2p); bit i of the result: lane i equal. */
static inline unsigned oc_equal_lanes(const fp8v *lhs, const fp8v *rhs, size_t lanes)
{
    fp8v a, b;
    uint64_t wa[6][8], wb[6][8];
    fp8v_reduce(&a, lhs);
    fp8v_reduce(&b, rhs);
    fp8v_to_words(wa, &a);
    fp8v_to_words(wb, &b);
    unsigned eq = 0;
    for (size_t i = 0; i < lanes; i++) {
        uint64_t d = 0;
        for (int j = 0; j < 6; j++)
            d |= wa[j][i] ^ wb[j][i];
        eq |= (unsigned)(d == 0) << i;
    }
    return eq;
}

static bool oc_is_zero(const fp *a, size_t n)
{
    uint64_t d = 0;
    for (size_t k = 0; k < n; k++)
        for (int j = 0; j < 6; j++)
            d |= a[k].l[j];
    return d == 0;
}

/* ok[i] = 1 when p[i] is on y² = x³ + 4 or is the point at infinity (0, 0), else 0. Coordinates must
 * be canonical (below p). */
static void k_g1_on_curve_n(const cuzk_g1_affine_t *p, size_t n, uint8_t *ok)
{
    for (size_t base = 0; base < n; base += 8) {
        size_t lanes = n - base < 8 ? n - base : 8;
        const fp *c = (const fp *)&p[base]; /* x, y, x, y, ... */
        fp8v x, y, lhs, rhs, b;
        oc_gather(&x, c, 2, lanes);
        oc_gather(&y, c + 1, 2, lanes);
        oc_mul(&lhs, &y, &y);
        oc_mul(&rhs, &x, &x);
        oc_mul(&rhs, &rhs, &x);
        fp8v_const(&b, FP8_B_MONT);
        fp8v_add(&rhs, &rhs, &b);
        unsigned eq = oc_equal_lanes(&lhs, &rhs, lanes);
        for (size_t i = 0; i < lanes; i++)
            ok[base + i] = ((eq >> i) & 1) || oc_is_zero(&c[2 * i], 2);
    }
}

/* Fp2 product (a0 + a1·u)(b0 + b1·u), u² = −1, inputs < 2p, outputs in [0, 2p). */
static inline void oc_mul2(fp8v *r0, fp8v *r1, const fp8v *a0, const fp8v *a1, const fp8v *b0, const fp8v *b1)
{
    fp8v t00, t11, t01, t10;
    oc_mul(&t00, a0, b0);
    oc_mul(&t11, a1, b1);
    oc_mul(&t01, a0, b1);
    oc_mul(&t10, a1, b0);
    fp8v_sub(r0, &t00, &t11);
    fp8v_add(r1, &t01, &t10);
}

/* The same for G2: y² = x³ + 4(1 + u), coordinates x = (c0, c1), y = (c0, c1). */
static void k_g2_on_curve_n(const cuzk_g2_affine_t *p, size_t n, uint8_t *ok)
{
    for (size_t base = 0; base < n; base += 8) {
        size_t lanes = n - base < 8 ? n - base : 8;
        const fp *c = (const fp *)&p[base]; /* x0, x1, y0, y1, ... */
        fp8v x0, x1, y0, y1, l0, l1, s0, s1, r0, r1, b;
        oc_gather(&x0, c, 4, lanes);
        oc_gather(&x1, c + 1, 4, lanes);
        oc_gather(&y0, c + 2, 4, lanes);
        oc_gather(&y1, c + 3, 4, lanes);
        oc_mul2(&l0, &l1, &y0, &y1, &y0, &y1);
        oc_mul2(&s0, &s1, &x0, &x1, &x0, &x1);
        oc_mul2(&r0, &r1, &s0, &s1, &x0, &x1);
        fp8v_const(&b, FP8_B_MONT);
        fp8v_add(&r0, &r0, &b);
        fp8v_add(&r1, &r1, &b);
        unsigned eq = oc_equal_lanes(&l0, &r0, lanes) & oc_equal_lanes(&l1, &r1, lanes);
        for (size_t i = 0; i < lanes; i++)
            ok[base + i] = ((eq >> i) & 1) || oc_is_zero(&c[4 * i], 4);
    }
}

/* [2^800 mod p] in radix 2^52: mul(V, K) = V·2^800·2^-416 = V·2^384, fp.h's Montgomery form of a raw V. */
static const uint64_t FP8_2E800[8] = {0x551039a1d2c25ull, 0xc857a984373dcull, 0x3331128e8da66ull,
                                      0xba38b82e8f651ull, 0xbb197b6252a29ull, 0xcbe4f4e32928cull,
                                      0x80ef81f158c5dull, 0x000000000e91full};

/* c[i] = V·2^384 mod p (canonical) for the raw canonical value V in c[i], in place, 8 at a time. */
static void k_fp_to_mont_n(fp *c, size_t n)
{
    fp8v k, x;
    fp8v_const(&k, FP8_2E800);
    for (size_t base = 0; base < n; base += 8) {
        size_t lanes = n - base < 8 ? n - base : 8;
        uint64_t *dst[8];
        for (size_t i = 0; i < 8; i++)
            dst[i] = c[base + (i < lanes ? i : 0)].l;
        fp8v_gather(&x, (const uint64_t *const *)dst);
        fp8v_mul(&x, &x, &k);
        fp8v_reduce(&x, &x);
        fp8v_scatter(dst, (int)lanes, &x);
    }
}

#endif
