/* Encoding tests written once for G1 and G2 (test_g1_encode.c, test_g2_encode.c define the macros of
 * ref_impl.h plus EC_PUB(name), EC_CB / EC_UB (compressed / uncompressed sizes), EC_NFP (Fp values per
 * coordinate: 1 or 2), EC_FE_ZERO, F_SIGN(y) (the 0x20 sign of a coordinate) and F_TO_BYTES(out, x)). Known answers come from gen_consts.py's independent Python arithmetic. */
#include <string.h>
#include "ref_impl.h"

#ifdef CUZK_SANITIZE
#define N_ENC 8
#else
#define N_ENC 40
#endif

/* ---- byte helpers --------------------------------------------------------------------------- */

/* The 48-byte big-endian encoding of p + delta (delta small, p + delta < 2^384). */
static void p_plus_bytes(uint8_t out[FP_BYTES], uint64_t delta)
{
    uint64_t l[FP_LIMBS];
    unsigned __int128 c = delta;
    for (int i = 0; i < FP_LIMBS; i++) {
        c += FP_MODULUS[i];
        l[i] = (uint64_t)c;
        c >>= 64;
    }
    for (int i = 0; i < FP_BYTES; i++)
        out[i] = (uint8_t)(l[(FP_BYTES - 1 - i) / 8] >> (8 * ((FP_BYTES - 1 - i) % 8)));
}

/* a += p over a 48-byte big-endian number (a < p, so no overflow out of 384 bits). */
static void add_p_bytes(uint8_t a[FP_BYTES])
{
    uint8_t pb[FP_BYTES];
    p_plus_bytes(pb, 0);
    unsigned c = 0;
    for (int i = FP_BYTES - 1; i >= 0; i--) {
        c += (unsigned)a[i] + pb[i];
        a[i] = (uint8_t)c;
        c >>= 8;
    }
}

static bool hex_eq(const uint8_t *b, size_t n, const char *hex)
{
    uint8_t want[EC_UB];
    return test_hex_decode(hex, want, sizeof want) == (long)n && memcmp(b, want, n) == 0;
}

/* Decoders under test, by index: 0 decompress, 1 decompress_unchecked, 2 deserialize, 3 unchecked. */
static cuzk_status decode(int which, EC_AFF *p, const uint8_t *in)
{
    switch (which) {
    case 0: return EC_PUB(decompress)(p, in);
    case 1: return EC_PUB(decompress_unchecked)(p, in);
    case 2: return EC_PUB(deserialize)(p, in);
    default: return EC_PUB(deserialize_unchecked)(p, in);
    }
}

/* The decoder must return `want` and, on failure, leave *p untouched. */
static void expect(int which, const uint8_t *in, cuzk_status want, const char *what)
{
    EC_AFF p, sentinel;
    memset(&sentinel, 0xa5, sizeof sentinel);
    p = sentinel;
    cuzk_status st = decode(which, &p, in);
    CHECK_MSG(st == want, "%s: decoder %d returned %s, want %s", what, which, cuzk_status_str(st),
              cuzk_status_str(want));
    if (want != CUZK_OK)
        CHECK_MSG(memcmp(&p, &sentinel, sizeof p) == 0, "%s: decoder %d wrote on failure", what, which);
}

/* ---- tests ---------------------------------------------------------------------------------- */

static void test_kat(const uint64_t *scalars, const char *const *hexc, const char *const *hexu, int n)
{
    for (int i = 0; i < n; i++) {
        EC_AFF g, P, d;
        EC_JAC j;
        uint8_t c[EC_CB], u[EC_UB];
        EC_FN(generator)(&g);
        EC_FN(jac_from_aff)(&j, &g);
        EC_FN(jac_mul_limbs)(&j, &j, &scalars[i], 1);
        EC_FN(jac_to_aff)(&P, &j);
        EC_PUB(compress)(c, &P);
        EC_PUB(serialize)(u, &P);
        CHECK_MSG(hex_eq(c, EC_CB, hexc[i]), "compressed KAT %d", i);
        CHECK_MSG(hex_eq(u, EC_UB, hexu[i]), "uncompressed KAT %d", i);
        test_hex_decode(hexc[i], c, sizeof c);
        test_hex_decode(hexu[i], u, sizeof u);
        CHECK(EC_PUB(decompress)(&d, c) == CUZK_OK && EC_FN(aff_eq)(&d, &P));
        CHECK(EC_PUB(deserialize)(&d, u) == CUZK_OK && EC_FN(aff_eq)(&d, &P));
    }
}

static void test_roundtrip(void)
{
    uint8_t c[EC_CB], u[EC_UB], c2[EC_CB];
    EC_AFF P, N, d;
    for (int it = 0; it < N_ENC; it++) {
        rand_subgroup_point(&P);
        EC_PUB(compress)(c, &P);
        EC_PUB(serialize)(u, &P);
        CHECK((c[0] & 0xc0) == 0x80 && (u[0] & 0xe0) == 0);
        for (int w = 0; w < 4; w++) {
            memset(&d, 0, sizeof d);
            CHECK(decode(w, &d, w < 2 ? c : u) == CUZK_OK);
            CHECK(EC_FN(aff_eq)(&d, &P));
        }
        /* −P differs only in the sign bit */
        EC_FN(aff_neg)(&N, &P);
        EC_PUB(compress)(c2, &N);
        CHECK(c2[0] == (c[0] ^ 0x20) && memcmp(c + 1, c2 + 1, EC_CB - 1) == 0);
        CHECK(EC_PUB(decompress)(&d, c2) == CUZK_OK && EC_FN(aff_eq)(&d, &N));
        /* the sign bit is y's lexicographic sign */
        CHECK(((c[0] & 0x20) != 0) == F_SIGN(&P.y));
    }
    /* infinity: exact canonical bytes both ways */
    EC_FN(aff_set_inf)(&P);
    EC_PUB(compress)(c, &P);
    EC_PUB(serialize)(u, &P);
    CHECK(c[0] == 0xc0 && u[0] == 0x40);
    uint8_t acc = 0;
    for (int i = 1; i < EC_CB; i++)
        acc |= c[i];
    for (int i = 1; i < EC_UB; i++)
        acc |= u[i];
    CHECK(acc == 0);
    for (int w = 0; w < 4; w++) {
        rand_curve_point(&d);
        CHECK(decode(w, &d, w < 2 ? c : u) == CUZK_OK);
        CHECK(EC_FN(aff_is_inf)(&d));
    }
}

/* Points on the curve but outside the subgroup: only the unchecked decoders take them. */
static void test_non_subgroup(void)
{
    uint8_t c[EC_CB], u[EC_UB];
    EC_AFF P, d;
    for (int it = 0; it < N_ENC / 4 + 1; it++) {
        do
            rand_curve_point(&P);
        while (slow_in_subgroup(&P));
        EC_PUB(compress)(c, &P);
        EC_PUB(serialize)(u, &P);
        expect(0, c, CUZK_ERR_NOT_IN_SUBGROUP, "non-subgroup compressed");
        expect(2, u, CUZK_ERR_NOT_IN_SUBGROUP, "non-subgroup uncompressed");
        CHECK(EC_PUB(decompress_unchecked)(&d, c) == CUZK_OK && EC_FN(aff_eq)(&d, &P));
        CHECK(EC_PUB(deserialize_unchecked)(&d, u) == CUZK_OK && EC_FN(aff_eq)(&d, &P));
    }
}

/* One bad encoding of every class, for every decoder it applies to. */
static void test_reject(void)
{
    uint8_t c[EC_CB], u[EC_UB], b[EC_UB];
    EC_AFF P, inf;
    rand_subgroup_point(&P);
    EC_FN(aff_set_inf)(&inf);
    EC_PUB(compress)(c, &P);
    EC_PUB(serialize)(u, &P);

    /* NULL arguments */
    EC_AFF d;
    CHECK(EC_PUB(decompress)(NULL, c) == CUZK_ERR_INVALID_ARG);
    CHECK(EC_PUB(decompress)(&d, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(EC_PUB(deserialize)(NULL, u) == CUZK_ERR_INVALID_ARG);
    CHECK(EC_PUB(deserialize_unchecked)(&d, NULL) == CUZK_ERR_INVALID_ARG);

    for (int w = 0; w < 4; w++) {
        bool comp = w < 2;
        const size_t n = comp ? EC_CB : EC_UB;
        const uint8_t *good = comp ? c : u;

        /* the compression bit must match the format */
        memcpy(b, good, n);
        b[0] ^= 0x80;
        expect(w, b, CUZK_ERR_BAD_FLAGS, "compression bit flipped");
        if (!comp) {
            memcpy(b, good, n);
            b[0] |= 0x20;
            expect(w, b, CUZK_ERR_BAD_FLAGS, "sign bit on uncompressed");
            memcpy(b, c, EC_CB);   /* a compressed encoding padded to the uncompressed size */
            memset(b + EC_CB, 0, EC_UB - EC_CB);
            expect(w, b, CUZK_ERR_BAD_FLAGS, "compressed in uncompressed slot");
        }

        /* infinity: sign bit, or any payload bit, or the infinity bit on a real point */
        uint8_t flag = comp ? 0xc0 : 0x40;
        memset(b, 0, n);
        b[0] = flag;
        expect(w, b, CUZK_OK, "infinity");
        b[0] = flag | 0x20;
        expect(w, b, CUZK_ERR_BAD_FLAGS, "infinity with sign");
        for (int k = 0; k < 6; k++) {
            memset(b, 0, n);
            b[0] = flag;
            size_t pos = k == 0 ? 0 : k == 1 ? n - 1 : (size_t)test_rand_below(n);
            uint8_t bit = (uint8_t)(1u << (pos == 0 ? test_rand_below(5) : test_rand_below(8)));
            b[pos] |= bit;
            expect(w, b, CUZK_ERR_BAD_FLAGS, "infinity with payload");
        }
        memcpy(b, good, n);
        b[0] |= 0x40;
        expect(w, b, CUZK_ERR_BAD_FLAGS, "infinity bit on a point");
        memset(b, 0, n);
        if (comp) {
            /* x = 0: the points (0, ±√b), if b is a square, have order 3 */
            EC_AFF t;
            b[0] = 0x80;
            bool exists = EC_FN(aff_from_x)(&t, &EC_FE_ZERO, false);
            expect(w, b, !exists ? CUZK_ERR_NOT_ON_CURVE : w == 0 ? CUZK_ERR_NOT_IN_SUBGROUP : CUZK_OK,
                   "x = 0");
        } else {
            expect(w, b, CUZK_ERR_NOT_ON_CURVE, "all-zero uncompressed");   /* (0, 0) is not on it */
        }

        /* coordinates >= p: x (each Fp half), then y for uncompressed */
        for (int half = 0; half < EC_NFP; half++) {
            for (int k = 0; k < 3; k++) {
                memcpy(b, good, n);
                uint64_t delta = k == 0 ? 0 : k == 1 ? 1 : test_rand_below(1ull << 40);
                p_plus_bytes(b + half * FP_BYTES, delta);
                if (half == 0)
                    b[0] |= good[0] & 0xe0;
                expect(w, b, CUZK_ERR_NOT_CANONICAL, "x >= p");
            }
            memcpy(b, good, n);
            memset(b + half * FP_BYTES, 0xff, FP_BYTES);
            if (half == 0)
                b[0] = (uint8_t)(0x1f | (good[0] & 0xe0));
            expect(w, b, CUZK_ERR_NOT_CANONICAL, "x = 2^381 - 1");
            if (!comp) {
                memcpy(b, good, n);
                add_p_bytes(b + EC_CB + half * FP_BYTES);
                expect(w, b, CUZK_ERR_NOT_CANONICAL, "y + p");
            }
        }

        /* off the curve */
        if (comp) {
            EC_FE x;
            EC_AFF t;
            do
                EC_RAND_FE(&x);
            while (EC_FN(aff_from_x)(&t, &x, false));   /* x³ + b is not a square */
            t.x = x;
            F_TO_BYTES(b, &t.x);
            b[0] |= 0x80;
            expect(w, b, CUZK_ERR_NOT_ON_CURVE, "x without y");
            b[0] |= 0x20;
            expect(w, b, CUZK_ERR_NOT_ON_CURVE, "x without y, sign set");
        } else {
            for (int k = 0; k < 4; k++) {
                memcpy(b, good, n);
                b[n - 1 - test_rand_below(8)] ^= (uint8_t)(1u << test_rand_below(8));
                expect(w, b, CUZK_ERR_NOT_ON_CURVE, "y moved");
                memcpy(b, good, n);
                b[EC_CB - 1 - test_rand_below(8)] ^= (uint8_t)(1u << test_rand_below(8));
                expect(w, b, CUZK_ERR_NOT_ON_CURVE, "x moved");
            }
        }
    }
}

static void run_encode_tests(void)
{
    test_roundtrip();
    test_non_subgroup();
    test_reject();
}
