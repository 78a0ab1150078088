/* UTF-8 at the daemon's edges: protobuf `string` fields and gRPC status messages must be valid UTF-8
 * (Python's and Go's protobuf refuse a message that breaks this), while the texts put in them may quote
 * a client's bytes. These check text strictly (RFC 3629: no overlong forms, no surrogates, nothing
 * above U+10FFFF) and make any text valid by writing each offending byte as \xHH. */
#ifndef CUZK_SERVER_UTF8_H
#define CUZK_SERVER_UTF8_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length of the valid UTF-8 sequence that starts s (1 to 4 bytes, at most n), 0 when the byte at s
 * does not start one (a stray continuation byte, an overlong form, a surrogate, a cut sequence). */
size_t cuzk_utf8_seq_len(const uint8_t *s, size_t n);

/* Whether s[0..n) is valid UTF-8 with no NUL; *bad_at (may be NULL) gets the offset of the first byte
 * that is not, or n. */
bool cuzk_utf8_is_text(const uint8_t *s, size_t n, size_t *bad_at);

/* A malloc'd copy of the NUL-terminated s with every byte that is not part of valid UTF-8 written as
 * \xHH (upper-case hex); NULL when memory runs out. Valid text comes back unchanged. */
char *cuzk_utf8_escape(const char *s);

#endif
