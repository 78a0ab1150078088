/* The SHA-256 circuit (bellperson gadgets/sha256.rs). The additions of a round are deferred
 * (Maybe::Deferred) so that e := d + temp1 and a := temp1 + temp2 become one addmany each when the
 * next round needs them, and the last round's go into the final h0 and h4 additions; the order of
 * gadgets below is bellperson's, because it fixes the variable and constraint order. */
#include <stdlib.h>
#include "gadgets/sha256.h"
#include "gadgets/multieq.h"

const uint32_t cuzk_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const uint32_t cuzk_sha256_iv_words[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

void cuzk_sha256_iv(cuzk_u32_t iv[8])
{
    for (int i = 0; i < 8; i++)
        cuzk_u32_constant(&iv[i], cuzk_sha256_iv_words[i]);
}

/* A word that is either known (concrete) or a list of operands still to be added. */
typedef struct {
    size_t n; /* 0: concrete */
    cuzk_u32_t concrete;
    cuzk_u32_t ops[8];
} maybe_u32;

/* Maybe::compute: the concrete word, or addmany(deferred operands ++ extra). */
static void maybe_compute(cuzk_u32_t *r, cuzk_multieq_t *me, const maybe_u32 *m, const cuzk_u32_t *extra)
{
    if (m->n == 0) {
        *r = m->concrete;
        return;
    }
    const cuzk_u32_t *ops[9];
    size_t n = 0;
    for (size_t k = 0; k < m->n; k++)
        ops[n++] = &m->ops[k];
    if (extra)
        ops[n++] = extra;
    cuzk_u32_addmany(r, me, ops, n);
}

/* x rotr r1 ⊕ x rotr r2 ⊕ x (rotr or shr) r3, xors in that order */
static void sigma(cuzk_u32_t *r, cuzk_cs_t *cs, const cuzk_u32_t *x, unsigned r1, unsigned r2, unsigned r3,
                  bool shift3)
{
    cuzk_u32_t s, t;
    cuzk_u32_rotr(&s, x, r1);
    cuzk_u32_rotr(&t, x, r2);
    cuzk_u32_xor(&s, cs, &s, &t);
    if (shift3)
        cuzk_u32_shr(&t, x, r3);
    else
        cuzk_u32_rotr(&t, x, r3);
    cuzk_u32_xor(r, cs, &s, &t);
}

/* The working state of the compression (about 30 KiB: on the heap, not the caller's stack). */
typedef struct {
    cuzk_u32_t w[64];
    maybe_u32 a, e;
    cuzk_u32_t b, c, d, f, g, h;
    cuzk_u32_t cur[8];
} sha_state;

void cuzk_sha256_compression(cuzk_cs_t *cs, const cuzk_boolean_t input[512], const cuzk_u32_t cur[8],
                             cuzk_u32_t out[8])
{
    sha_state *st = malloc(sizeof *st);
    if (!st) {
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "sha256 compression: out of memory");
        for (int i = 0; i < 8; i++)
            cuzk_u32_constant(&out[i], 0);
        return;
    }
    for (int i = 0; i < 8; i++)
        st->cur[i] = cur[i];
    cuzk_u32_t *w = st->w;
    for (int i = 0; i < 16; i++)
        cuzk_u32_from_bits_be(&w[i], &input[32 * i]);

    cuzk_multieq_t me;
    cuzk_multieq_init(&me, cs);

    for (int i = 16; i < 64; i++) {
        cuzk_u32_t s0, s1;
        sigma(&s0, cs, &w[i - 15], 7, 18, 3, true);
        sigma(&s1, cs, &w[i - 2], 17, 19, 10, true);
        const cuzk_u32_t *ops[4] = {&w[i - 16], &s0, &w[i - 7], &s1};
        cuzk_u32_addmany(&w[i], &me, ops, 4);
    }

    st->a.n = 0;
    st->a.concrete = st->cur[0];
    st->b = st->cur[1];
    st->c = st->cur[2];
    st->d = st->cur[3];
    st->e.n = 0;
    st->e.concrete = st->cur[4];
    st->f = st->cur[5];
    st->g = st->cur[6];
    st->h = st->cur[7];

    for (int i = 0; i < 64; i++) {
        cuzk_u32_t new_e, s1, ch, k, new_a, s0, maj;
        maybe_compute(&new_e, &me, &st->e, NULL);
        sigma(&s1, cs, &new_e, 6, 11, 25, false);
        cuzk_u32_sha256_ch(&ch, cs, &new_e, &st->f, &st->g);
        cuzk_u32_constant(&k, cuzk_sha256_k[i]);
        /* temp1 = [h, S1, ch, k, w[i]] */
        maybe_compute(&new_a, &me, &st->a, NULL);
        sigma(&s0, cs, &new_a, 2, 13, 22, false);
        cuzk_u32_sha256_maj(&maj, cs, &new_a, &st->b, &st->c);

        cuzk_u32_t old_h = st->h, old_d = st->d;
        st->h = st->g;
        st->g = st->f;
        st->f = new_e;
        st->e.n = 6; /* temp1 ++ [d] */
        st->e.ops[0] = old_h, st->e.ops[1] = s1, st->e.ops[2] = ch, st->e.ops[3] = k, st->e.ops[4] = w[i];
        st->e.ops[5] = old_d;
        st->d = st->c;
        st->c = st->b;
        st->b = new_a;
        st->a.n = 7; /* temp1 ++ temp2 */
        for (int j = 0; j < 5; j++)
            st->a.ops[j] = st->e.ops[j];
        st->a.ops[5] = s0;
        st->a.ops[6] = maj;
    }

    cuzk_u32_t h[8];
    maybe_compute(&h[0], &me, &st->a, &st->cur[0]);
    const cuzk_u32_t *ops[2];
    ops[0] = &st->cur[1], ops[1] = &st->b;
    cuzk_u32_addmany(&h[1], &me, ops, 2);
    ops[0] = &st->cur[2], ops[1] = &st->c;
    cuzk_u32_addmany(&h[2], &me, ops, 2);
    ops[0] = &st->cur[3], ops[1] = &st->d;
    cuzk_u32_addmany(&h[3], &me, ops, 2);
    maybe_compute(&h[4], &me, &st->e, &st->cur[4]);
    ops[0] = &st->cur[5], ops[1] = &st->f;
    cuzk_u32_addmany(&h[5], &me, ops, 2);
    ops[0] = &st->cur[6], ops[1] = &st->g;
    cuzk_u32_addmany(&h[6], &me, ops, 2);
    ops[0] = &st->cur[7], ops[1] = &st->h;
    cuzk_u32_addmany(&h[7], &me, ops, 2);

    cuzk_multieq_finish(&me);
    for (int i = 0; i < 8; i++)
        out[i] = h[i];
    free(st);
}

static void digest_bits(const cuzk_u32_t h[8], cuzk_boolean_t out[256])
{
    for (int i = 0; i < 8; i++)
        cuzk_u32_into_bits_be(&h[i], &out[32 * i]);
}

void cuzk_sha256_block_no_padding(cuzk_cs_t *cs, const cuzk_boolean_t input[512], cuzk_boolean_t out[256])
{
    cuzk_u32_t iv[8], h[8];
    cuzk_sha256_iv(iv);
    cuzk_sha256_compression(cs, input, iv, h);
    digest_bits(h, out);
}

void cuzk_sha256(cuzk_cs_t *cs, const cuzk_boolean_t *input, size_t nbits, cuzk_boolean_t out[256])
{
    cuzk_u32_t h[8];
    cuzk_sha256_iv(h);
    if (nbits % 8) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "sha256: %zu input bits, not a whole number of bytes", nbits);
        digest_bits(h, out);
        return;
    }
    /* L + 1 + K + 64 ≡ 0 (mod 512) */
    size_t padded = (nbits + 1 + 64 + 511) / 512 * 512;
    cuzk_boolean_t block[512];
    for (size_t start = 0; start < padded; start += 512) {
        for (size_t j = 0; j < 512; j++) {
            size_t p = start + j;
            bool v;
            if (p < nbits) {
                block[j] = input[p];
                continue;
            }
            if (p == nbits)
                v = true;
            else if (p < padded - 64)
                v = false;
            else
                v = ((uint64_t)nbits >> (padded - 1 - p)) & 1;
            block[j] = cuzk_boolean_constant(v);
        }
        cuzk_sha256_compression(cs, block, h, h);
    }
    digest_bits(h, out);
}
