/* A byte stream written field by field as bincode lays values out (fixed-width little-endian integers, raw
 * bytes), for tests that build vanilla proofs by hand, independent of the library's writers. Test-only,
 * static; the stream's buffer is malloc'd (free(s.buf)); out of memory aborts the test. */
#ifndef CUZK_TESTS_FC_BINCODE_TEST_H
#define CUZK_TESTS_FC_BINCODE_TEST_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"

typedef struct {
    uint8_t *buf;
    size_t len, cap;
} fc_stream_t;

static inline void fc_stream_bytes(fc_stream_t *s, const void *p, size_t n)
{
    if (s->len + n > s->cap) {
        s->cap = (s->len + n) * 2 + 64;
        s->buf = realloc(s->buf, s->cap);
        if (!s->buf)
            abort();
    }
    if (n)
        memcpy(s->buf + s->len, p, n);
    s->len += n;
}

static inline void fc_stream_u64(fc_stream_t *s, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    fc_stream_bytes(s, b, 8);
}

static inline void fc_stream_u32(fc_stream_t *s, uint32_t v)
{
    uint8_t b[4];
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    fc_stream_bytes(s, b, 4);
}

/* n random bytes (test_rand_bytes). */
static inline void fc_stream_rand(fc_stream_t *s, size_t n)
{
    uint8_t b[512];
    for (size_t k; n; n -= k) {
        k = n < sizeof b ? n : sizeof b;
        test_rand_bytes(b, k);
        fc_stream_bytes(s, b, k);
    }
}

#endif
