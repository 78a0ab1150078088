/* Strict UTF-8 checks and \xHH escaping (see utf8.h). */
#include "server/utf8.h"

#include <stdlib.h>
#include <string.h>

size_t cuzk_utf8_seq_len(const uint8_t *s, size_t n)
{
    if (n == 0)
        return 0;
    uint8_t b = s[0];
    if (b < 0x80)
        return 1;
    size_t len;
    uint8_t lo = 0x80, hi = 0xBF; /* the range of the second byte */
    if (b >= 0xC2 && b <= 0xDF)
        len = 2;
    else if (b >= 0xE0 && b <= 0xEF) {
        len = 3;
        if (b == 0xE0)
            lo = 0xA0; /* overlong below U+0800 */
        else if (b == 0xED)
            hi = 0x9F; /* U+D800..DFFF are surrogates */
    } else if (b >= 0xF0 && b <= 0xF4) {
        len = 4;
        if (b == 0xF0)
            lo = 0x90; /* overlong below U+10000 */
        else if (b == 0xF4)
            hi = 0x8F; /* above U+10FFFF */
    } else
        return 0; /* C0, C1 (overlong), F5..FF, or a continuation byte */
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return len;
}

bool cuzk_utf8_is_text(const uint8_t *s, size_t n, size_t *bad_at)
{
    size_t i = 0;
    while (i < n) {
        size_t k = s[i] ? cuzk_utf8_seq_len(s + i, n - i) : 0;
        if (k == 0)
            break;
        i += k;
    }
    if (bad_at)
        *bad_at = i;
    return i == n;
}

char *cuzk_utf8_escape(const char *s)
{
    const uint8_t *in = (const uint8_t *)s;
    size_t n = strlen(s);
    char *out = malloc(4 * n + 1); /* at worst every byte becomes \xHH */
    if (!out)
        return NULL;
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t k = cuzk_utf8_seq_len(in + i, n - i);
        if (k) {
            memcpy(out + o, in + i, k);
            o += k;
            i += k;
        } else {
            out[o++] = '\\', out[o++] = 'x', out[o++] = hex[in[i] >> 4], out[o++] = hex[in[i] & 15];
            i++;
        }
    }
    out[o] = 0;
    return out;
}
