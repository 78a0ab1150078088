/* Bit-vector helpers of storage-proofs-core util.rs and gadgets/xor.rs. */
#include "gadgets/bits.h"

static void alloc_bytes(cuzk_cs_t *cs, const uint8_t *bytes, size_t nbits, cuzk_boolean_t *out, bool be)
{
    for (size_t i = 0; i < nbits; i++) {
        int v = CUZK_BIT_UNKNOWN;
        if (bytes)
            v = (bytes[i / 8] >> (be ? 7 - i % 8 : i % 8)) & 1;
        out[i] = cuzk_boolean_from_bit(cuzk_bit_alloc(cs, v));
    }
}

void cuzk_bits_alloc_bytes_le(cuzk_cs_t *cs, const uint8_t *bytes, size_t nbits, cuzk_boolean_t *out)
{
    alloc_bytes(cs, bytes, nbits, out, false);
}

void cuzk_bits_alloc_bytes_be(cuzk_cs_t *cs, const uint8_t *bytes, size_t nbits, cuzk_boolean_t *out)
{
    alloc_bytes(cs, bytes, nbits, out, true);
}

size_t cuzk_bits_reverse_numbering(const cuzk_boolean_t *in, size_t n, cuzk_boolean_t *out)
{
    size_t padded = (n + 7) / 8 * 8;
    for (size_t byte = 0; byte < padded; byte += 8) {
        cuzk_boolean_t t[8];
        for (size_t j = 0; j < 8; j++)
            t[j] = byte + j < n ? in[byte + j] : cuzk_boolean_constant(false);
        for (size_t j = 0; j < 8; j++)
            out[byte + j] = t[7 - j];
    }
    return padded;
}

void cuzk_bits_xor_key(cuzk_cs_t *cs, const cuzk_boolean_t key[256], const cuzk_boolean_t *input, size_t n,
                       cuzk_boolean_t *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = cuzk_boolean_xor(cs, input[i], key[i % 256]);
}
