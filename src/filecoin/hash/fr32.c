/* Fr32 padding and unpadding (254 data bits + 2 zero bits per 32-byte element), and the conversions
 * between 32-byte little-endian representations and Fr. Byte-level shifts: padding runs at memory speed
 * next to the hashing that follows it, so nothing cleverer pays. */
#include "filecoin/hash/fr32.h"
#include <string.h>
#include "ff/fr.h"

#define DATA_BITS 254u
#define ELEM_BITS 256u

uint64_t cuzk_fr32_padded_len(uint64_t n)
{
    return 32 * ((8 * n + DATA_BITS - 1) / DATA_BITS);
}

uint64_t cuzk_fr32_to_padded_bytes(uint64_t unpadded)
{
    uint64_t bits = 8 * unpadded;
    uint64_t padded_bits = bits / DATA_BITS * ELEM_BITS + bits % DATA_BITS;
    return (padded_bits + 7) / 8;
}

uint64_t cuzk_fr32_to_unpadded_bytes(uint64_t padded)
{
    uint64_t bits = 8 * padded;
    return (bits / ELEM_BITS * DATA_BITS + bits % ELEM_BITS) / 8;
}

static inline uint8_t byte_or_zero(const uint8_t *in, size_t n, size_t i) { return i < n ? in[i] : 0; }

/* Element j of the padded stream of in[0..n): raw bits [254j, 254j + 254), the bits past the data
 * and the two padding bits zero. */
static void pad_element(uint8_t out[32], const uint8_t *in, size_t n, size_t j)
{
    size_t bit = DATA_BITS * j, b = bit / 8;
    unsigned s = (unsigned)(bit % 8);
    if (s == 0) {
        for (size_t i = 0; i < 32; i++)
            out[i] = byte_or_zero(in, n, b + i);
    } else {
        for (size_t i = 0; i < 32; i++)
            out[i] = (uint8_t)((byte_or_zero(in, n, b + i) >> s) |
                               (byte_or_zero(in, n, b + i + 1) << (8 - s)));
    }
    out[31] &= 0x3f;
}

void cuzk_fr32_pad(uint8_t *out, const uint8_t *in, size_t n)
{
    size_t elems = (size_t)(cuzk_fr32_padded_len(n) / 32);
    /* Whole blocks are independent: pad them block-locally so indices stay small and in range. */
    size_t blocks = n / CUZK_FR32_RAW_BLOCK;
    cuzk_fr32_pad_blocks(out, in, blocks);
    size_t done_in = blocks * CUZK_FR32_RAW_BLOCK, done_el = blocks * 4;
    for (size_t j = done_el; j < elems; j++)
        pad_element(out + 32 * j, in + done_in, n - done_in, j - done_el);
}

void cuzk_fr32_pad_blocks(uint8_t *out, const uint8_t *in, size_t nblocks)
{
    for (size_t k = 0; k < nblocks; k++)
        for (size_t j = 0; j < 4; j++)
            pad_element(out + CUZK_FR32_PADDED_BLOCK * k + 32 * j, in + CUZK_FR32_RAW_BLOCK * k,
                        CUZK_FR32_RAW_BLOCK, j);
}

/* Raw byte r of the stream padded in `in` (block-local indices). */
static uint8_t unpad_byte(const uint8_t *in, size_t r)
{
    size_t p = 8 * r, j = p / DATA_BITS, q = p % DATA_BITS;
    size_t pb = ELEM_BITS * j + q; /* padded bit of the raw byte's lowest bit */
    unsigned s = (unsigned)(pb % 8);
    size_t b = pb / 8;
    if (q + 8 <= DATA_BITS) {
        if (s == 0)
            return in[b];
        /* The byte spans two padded bytes; the second one is only read when bits of it are needed. */
        return (uint8_t)((in[b] >> s) | (in[b + 1] << (8 - s)));
    }
    /* Split over two elements: 254 − q low bits here, the rest from the start of element j + 1. */
    unsigned lo_bits = (unsigned)(DATA_BITS - q); /* 1..7 */
    unsigned lo = (unsigned)(in[b] >> s) & ((1u << lo_bits) - 1);
    if (s + lo_bits > 8)
        lo = (unsigned)((in[b] >> s) | (in[b + 1] << (8 - s))) & ((1u << lo_bits) - 1);
    unsigned hi = in[32 * (j + 1)];
    return (uint8_t)(lo | (hi << lo_bits));
}

void cuzk_fr32_unpad(uint8_t *out, const uint8_t *in, size_t n)
{
    size_t blocks = n / CUZK_FR32_RAW_BLOCK;
    cuzk_fr32_unpad_blocks(out, in, blocks);
    const uint8_t *tin = in + blocks * CUZK_FR32_PADDED_BLOCK;
    for (size_t r = blocks * CUZK_FR32_RAW_BLOCK; r < n; r++)
        out[r] = unpad_byte(tin, r - blocks * CUZK_FR32_RAW_BLOCK);
}

void cuzk_fr32_unpad_blocks(uint8_t *out, const uint8_t *in, size_t nblocks)
{
    for (size_t k = 0; k < nblocks; k++)
        for (size_t r = 0; r < CUZK_FR32_RAW_BLOCK; r++)
            out[CUZK_FR32_RAW_BLOCK * k + r] = unpad_byte(in + CUZK_FR32_PADDED_BLOCK * k, r);
}

void cuzk_fr32_padder_init(cuzk_fr32_padder_t *p) { p->len = 0; }

size_t cuzk_fr32_padder_update(cuzk_fr32_padder_t *p, uint8_t *out, const uint8_t *in, size_t n)
{
    size_t written = 0;
    if (p->len) {
        size_t take = CUZK_FR32_RAW_BLOCK - p->len;
        if (take > n)
            take = n;
        memcpy(p->buf + p->len, in, take);
        p->len += take, in += take, n -= take;
        if (p->len < CUZK_FR32_RAW_BLOCK)
            return 0;
        cuzk_fr32_pad_blocks(out, p->buf, 1);
        written = CUZK_FR32_PADDED_BLOCK;
        p->len = 0;
    }
    size_t blocks = n / CUZK_FR32_RAW_BLOCK;
    cuzk_fr32_pad_blocks(out + written, in, blocks);
    written += blocks * CUZK_FR32_PADDED_BLOCK;
    size_t rest = n - blocks * CUZK_FR32_RAW_BLOCK;
    memcpy(p->buf, in + blocks * CUZK_FR32_RAW_BLOCK, rest);
    p->len = rest;
    return written;
}

size_t cuzk_fr32_padder_finish(cuzk_fr32_padder_t *p, uint8_t *out)
{
    size_t len = (size_t)cuzk_fr32_padded_len(p->len);
    cuzk_fr32_pad(out, p->buf, p->len);
    p->len = 0;
    return len;
}

bool cuzk_fr32_is_canonical(const uint8_t in[32])
{
    fr t;
    return fr_from_bytes_le(&t, in);
}

cuzk_status cuzk_fr32_to_fr(cuzk_fr_t *out, const uint8_t in[32], cuzk_err_t *err)
{
    if (!fr_from_bytes_le(out, in))
        return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL,
                            "32-byte field element is not below the scalar field modulus");
    return CUZK_OK;
}

void cuzk_fr32_from_fr(uint8_t out[32], const cuzk_fr_t *in) { fr_to_bytes_le(out, in); }
