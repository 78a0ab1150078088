/* The Fr32 padding oracle of the tests, written from the layout description (fr32 crate padding.rs) rather
 * than from the library's code: raw bit i (least significant first in each byte) goes to padded bit
 * 256·(i / 254) + i % 254; the output is ceil(8n / 254) whole 32-byte elements. Test-only, static. */
#ifndef CUZK_TESTS_FC_FR32_ORACLE_H
#define CUZK_TESTS_FC_FR32_ORACLE_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline void fc_test_fr32_pad(uint8_t *out, const uint8_t *in, size_t n)
{
    size_t elems = (8 * n + 253) / 254;
    memset(out, 0, 32 * elems);
    for (size_t i = 0; i < 8 * n; i++)
        if (in[i / 8] >> (i % 8) & 1) {
            size_t o = 256 * (i / 254) + i % 254;
            out[o / 8] |= (uint8_t)(1u << (o % 8));
        }
}

#endif
