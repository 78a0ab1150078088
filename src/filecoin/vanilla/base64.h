/* Standard base64 (RFC 4648 section 4, with padding): what Go's encoding/json writes for a []byte, e.g. the
 * Phase1Out field of Curio's C1 wrapper. A strict, table-driven decoder for inputs of tens of megabytes. */
#ifndef CUZK_FILECOIN_BASE64_H
#define CUZK_FILECOIN_BASE64_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"

/* The most bytes n base64 characters decode to (the buffer cuzk_base64_decode needs). */
static inline size_t cuzk_base64_decoded_max(size_t n)
{
    return n / 4 * 3;
}

/* Decodes n characters of s into out (cuzk_base64_decoded_max(n) bytes), *out_len the bytes written.
 * Strict: n a multiple of 4, only A-Z a-z 0-9 + /, '=' only as the last one or two characters (no
 * whitespace, no line breaks). The bits that padding leaves over are ignored, as Go's and OpenSSL's
 * decoders do. CUZK_ERR_FORMAT "base64: ..." naming the offset of the first bad character. */
cuzk_status cuzk_base64_decode(uint8_t *out, size_t *out_len, const char *s, size_t n, cuzk_err_t *err);

/* The longest prefix of s (at most n characters) made of whole quads of alphabet characters, decoded into
 * out (3 bytes per quad); returns its length in characters, a multiple of 4. For text whose end is found
 * only by reading it (a JSON string): the decoding stops at the closing quote, and the rest (the last,
 * padded quad, or whatever stopped it) then goes through cuzk_base64_decode. */
size_t cuzk_base64_decode_quads(uint8_t *out, const char *s, size_t n);

#endif
