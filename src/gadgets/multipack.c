/* Multipacking of bits into field elements, in and out of the circuit (bellperson
 * gadgets/multipack.rs). */
#include "gadgets/multipack.h"
#include "ff/fr.h"
#include "gadgets/consts.h"

/* (Σ 2^i·bits[i])·ONE = x for one chunk, x allocated by the caller's choice of input or aux. */
static cuzk_num_t pack_chunk(cuzk_cs_t *cs, const cuzk_boolean_t *bits, size_t n, bool input)
{
    cuzk_num_lc_t num;
    cuzk_num_lc_zero(&num, cs);
    for (size_t i = 0; i < n; i++)
        cuzk_num_lc_add_bool_with_coeff(&num, bits[i], cuzk_gadget_pow2((unsigned)i));
    const fr *v = num.has_value ? &num.value : NULL;
    cuzk_num_t x = input ? cuzk_num_alloc_input(cs, v) : cuzk_num_alloc(cs, v);
    cuzk_lc_t la, lb, lc;
    cuzk_lc_init(&la, cs);
    cuzk_lc_init(&lb, cs);
    cuzk_lc_init(&lc, cs);
    cuzk_num_lc_add_to(&num, &cuzk_lc_coeff_one, &la);
    cuzk_lc_add(&lb, cuzk_cs_one());
    cuzk_lc_add(&lc, x.var);
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);
    cuzk_num_lc_free(&num);
    return x;
}

void cuzk_multipack_pack_into_inputs(cuzk_cs_t *cs, const cuzk_boolean_t *bits, size_t n)
{
    for (size_t start = 0; start < n; start += CUZK_FR_CAPACITY) {
        size_t len = n - start < CUZK_FR_CAPACITY ? n - start : CUZK_FR_CAPACITY;
        pack_chunk(cs, bits + start, len, true);
    }
}

size_t cuzk_multipack_compute(const bool *bits, size_t n, cuzk_fr_t *out)
{
    size_t k = 0;
    for (size_t start = 0; start < n; start += CUZK_FR_CAPACITY, k++) {
        size_t len = n - start < CUZK_FR_CAPACITY ? n - start : CUZK_FR_CAPACITY;
        fr cur = FR_ZERO;
        for (size_t i = 0; i < len; i++)
            if (bits[start + i])
                fr_add(&cur, &cur, cuzk_gadget_pow2((unsigned)i));
        out[k] = cur;
    }
    return k;
}

cuzk_num_t cuzk_multipack_pack_bits(cuzk_cs_t *cs, const cuzk_boolean_t *bits, size_t n)
{
    return pack_chunk(cs, bits, n < CUZK_FR_CAPACITY ? n : CUZK_FR_CAPACITY, false);
}

void cuzk_bytes_to_bits(const uint8_t *bytes, size_t nbytes, bool *out)
{
    for (size_t i = 0; i < nbytes; i++)
        for (int j = 0; j < 8; j++)
            out[8 * i + j] = (bytes[i] >> (7 - j)) & 1;
}

void cuzk_bytes_to_bits_le(const uint8_t *bytes, size_t nbytes, bool *out)
{
    for (size_t i = 0; i < nbytes; i++)
        for (int j = 0; j < 8; j++)
            out[8 * i + j] = (bytes[i] >> j) & 1;
}
