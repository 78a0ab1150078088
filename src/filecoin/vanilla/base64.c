/* Standard base64 decoding, four characters to three bytes per step through one 256-entry table whose
 * invalid entries carry a flag bit, so that a whole quad is validated with one test. */
#include "filecoin/vanilla/base64.h"

/* The 6-bit value of a character, 0x80 when it is not in the alphabet ('=' included). */
#define V(c)                                                                                              \
    ((c) >= 'A' && (c) <= 'Z'   ? (c) - 'A'                                                               \
     : (c) >= 'a' && (c) <= 'z' ? (c) - 'a' + 26                                                          \
     : (c) >= '0' && (c) <= '9' ? (c) - '0' + 52                                                          \
     : (c) == '+'               ? 62                                                                      \
     : (c) == '/'               ? 63                                                                      \
                                : 0x80)
#define V1(c) (uint8_t)(V(c)) /* every branch is a constant; clang would warn about the ones not taken */
#define V4(i) V1(i), V1((i) + 1), V1((i) + 2), V1((i) + 3)
#define V16(i) V4(i), V4((i) + 4), V4((i) + 8), V4((i) + 12)
#define V64(i) V16(i), V16((i) + 16), V16((i) + 32), V16((i) + 48)
static const uint8_t dec[256] = {V64(0), V64(64), V64(128), V64(192)};

static cuzk_status bad_char(const char *s, size_t from, size_t n, cuzk_err_t *err)
{
    size_t i = from;
    while (i < n && !(dec[(uint8_t)s[i]] & 0x80))
        i++;
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c < 0x7f)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "base64: invalid character '%c' at %zu", c, i);
    return cuzk_err_set(err, CUZK_ERR_FORMAT, "base64: invalid character 0x%02x at %zu", c, i);
}

size_t cuzk_base64_decode_quads(uint8_t *out, const char *s, size_t n)
{
    const uint8_t *u = (const uint8_t *)s;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint32_t a = dec[u[i]], b = dec[u[i + 1]], c = dec[u[i + 2]], d = dec[u[i + 3]];
        if ((a | b | c | d) & 0x80)
            break;
        uint32_t x = a << 18 | b << 12 | c << 6 | d;
        out[0] = (uint8_t)(x >> 16);
        out[1] = (uint8_t)(x >> 8);
        out[2] = (uint8_t)x;
        out += 3;
    }
    return i;
}

cuzk_status cuzk_base64_decode(uint8_t *out, size_t *out_len, const char *s, size_t n, cuzk_err_t *err)
{
    *out_len = 0;
    if (n % 4 != 0)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "base64: length %zu is not a multiple of 4", n);
    if (n == 0)
        return CUZK_OK;
    /* Every quad but the last: no padding there. */
    size_t last = n - 4, done = cuzk_base64_decode_quads(out, s, last), o = done / 4 * 3;
    if (done < last)
        return bad_char(s, done, n, err);
    /* The last quad: "xxxx", "xxx=" or "xx==". */
    const uint8_t *u = (const uint8_t *)s;
    unsigned pad = u[n - 1] == '=' ? (u[n - 2] == '=' ? 2 : 1) : 0;
    uint32_t x = 0, bad = 0;
    for (unsigned k = 0; k < 4 - pad; k++) {
        uint32_t v = dec[u[last + k]];
        bad |= v;
        x |= (v & 63) << (18 - 6 * k);
    }
    if (bad & 0x80)
        return bad_char(s, last, n - pad, err);
    out[o++] = (uint8_t)(x >> 16);
    if (pad < 2)
        out[o++] = (uint8_t)(x >> 8);
    if (pad < 1)
        out[o++] = (uint8_t)x;
    *out_len = o;
    return CUZK_OK;
}
