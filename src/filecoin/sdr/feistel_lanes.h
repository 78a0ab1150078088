/* Kernel template: the Feistel network's encode on 16 indexes at once, the BLAKE2b-512 round function
 * computed in 16 lanes of 64 bits (GCC vector extensions: pairs of AVX-512 instructions where the
 * including file is compiled with -mavx512f, plain code otherwise). Two registers per value rather
 * than one: BLAKE2b's G steps are a serial chain, and the second half of the lanes fills its gaps
 * (1.5x the speed of 8 lanes; 32 lanes run out of registers). A build file defines FEISTEL_LANES_FN
 * (the kernel's name), then includes this file once. */
#if !defined(FEISTEL_LANES_FN)
#error "define FEISTEL_LANES_FN before including feistel_lanes.h"
#endif
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "filecoin/hash/blake2b.h"
#include "filecoin/sdr/feistel.h"

#define FL_LANES 16
typedef uint64_t fl_vec __attribute__((vector_size(8 * FL_LANES)));

#define FL_INLINE static inline __attribute__((always_inline))

/* Macros rather than functions: vectors this wide are not passed by value (no ABI question arises).
 * The rotation counts are constants: one VPRORQ per register with AVX-512. */
#define FL_ROR(x, k) (((x) >> (k)) | ((x) << (64 - (k))))

/* bswap32 of the low 32 bits of each lane (the high 32 must be zero), kept in the low half. */
#define FL_BSWAP32(x) ((((x)&0xff) << 24) | (((x)&0xff00) << 8) | (((x) >> 8) & 0xff00) | (((x) >> 24) & 0xff))

/* BLAKE2b's IV (blake2b.h). */
#define FL_IV0 CUZK_BLAKE2B_IV[0]
#define FL_IV1 CUZK_BLAKE2B_IV[1]
#define FL_IV2 CUZK_BLAKE2B_IV[2]
#define FL_IV3 CUZK_BLAKE2B_IV[3]
#define FL_IV4 CUZK_BLAKE2B_IV[4]
#define FL_IV5 CUZK_BLAKE2B_IV[5]
#define FL_IV6 CUZK_BLAKE2B_IV[6]
#define FL_IV7 CUZK_BLAKE2B_IV[7]

/* The message schedule (rounds 10 and 11 reuse rows 0 and 1). Only words 0 and 1 of the message are
 * non-zero here, so only their positions matter: with the table constant and the loop unrolled, the
 * additions of the 14 zero words disappear. */
#define FL_SIGMA CUZK_BLAKE2B_SIGMA

#define FL_M(i) ((i) == 0 ? m0 : (i) == 1 ? m1 : zero)
#define FL_G(a, b, c, d, x, y)                                                                     \
    do {                                                                                           \
        a = a + b + (x), d = FL_ROR(d ^ a, 32);                                                    \
        c = c + d, b = FL_ROR(b ^ c, 24);                                                          \
        a = a + b + (y), d = FL_ROR(d ^ a, 16);                                                    \
        c = c + d, b = FL_ROR(b ^ c, 63);                                                          \
    } while (0)

/* The round function of the lanes: the first 8 digest bytes, big-endian, of BLAKE2b-512(u64_be(right) ‖
 * u64_be(key)), masked. right < 2^32 (half widths are at most 31 bits), mask < 2^32, so only the low
 * halves of the byte swaps matter. */
FL_INLINE void fl_round(fl_vec *out, const fl_vec *rightp, uint64_t key_be, uint64_t mask)
{
    const fl_vec right = *rightp;
    const fl_vec zero = {0};
    const fl_vec m0 = FL_BSWAP32(right) << 32, m1 = zero + key_be;
    /* h = IV with the parameter block (digest 64 bytes, no key, fanout 1, depth 1) folded into h0. */
    const uint64_t h0 = FL_IV0 ^ 0x01010040ull;
    fl_vec v0 = zero + h0, v1 = zero + FL_IV1, v2 = zero + FL_IV2, v3 = zero + FL_IV3;
    fl_vec v4 = zero + FL_IV4, v5 = zero + FL_IV5, v6 = zero + FL_IV6, v7 = zero + FL_IV7;
    fl_vec v8 = zero + FL_IV0, v9 = zero + FL_IV1, v10 = zero + FL_IV2, v11 = zero + FL_IV3;
    fl_vec v12 = zero + (FL_IV4 ^ 16), v13 = zero + FL_IV5, v14 = zero + ~FL_IV6, v15 = zero + FL_IV7;
#pragma GCC unroll 12
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = FL_SIGMA[r];
        FL_G(v0, v4, v8, v12, FL_M(s[0]), FL_M(s[1]));
        FL_G(v1, v5, v9, v13, FL_M(s[2]), FL_M(s[3]));
        FL_G(v2, v6, v10, v14, FL_M(s[4]), FL_M(s[5]));
        FL_G(v3, v7, v11, v15, FL_M(s[6]), FL_M(s[7]));
        FL_G(v0, v5, v10, v15, FL_M(s[8]), FL_M(s[9]));
        FL_G(v1, v6, v11, v12, FL_M(s[10]), FL_M(s[11]));
        FL_G(v2, v7, v8, v13, FL_M(s[12]), FL_M(s[13]));
        FL_G(v3, v4, v9, v14, FL_M(s[14]), FL_M(s[15]));
    }
    /* Digest word 0 (bytes 0..7, little-endian); its big-endian reading's low 32 bits are the byte
     * swap of its high half. */
    fl_vec w = (zero + h0) ^ v0 ^ v8;
    w >>= 32;
    *out = FL_BSWAP32(w) & mask;
}

#undef FL_G
#undef FL_M

/* v[i] = the network's encode of v[i] for i < n (n a multiple of FL_LANES; every v[i] < 4^half_bits). */
static void FEISTEL_LANES_FN(const cuzk_fc_feistel_t *f, uint64_t *v, size_t n)
{
    uint64_t key_be[CUZK_FC_FEISTEL_ROUNDS];
    for (int r = 0; r < CUZK_FC_FEISTEL_ROUNDS; r++)
        key_be[r] = __builtin_bswap64(f->keys[r]);
    const unsigned hb = f->half_bits;
    const uint64_t rm = f->right_mask;
    for (size_t i = 0; i < n; i += FL_LANES) {
        fl_vec x;
        memcpy(&x, v + i, sizeof x);
        fl_vec left = x >> hb, right = x & rm;
        for (int r = 0; r < CUZK_FC_FEISTEL_ROUNDS; r++) {
            fl_vec fo;
            fl_round(&fo, &right, key_be[r], rm);
            fl_vec t = left ^ fo;
            left = right;
            right = t;
        }
        x = (left << hb) | right;
        memcpy(v + i, &x, sizeof x);
    }
}
