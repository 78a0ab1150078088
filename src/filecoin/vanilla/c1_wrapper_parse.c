/* Curio's C1 wrapper {"SectorNum": n, "Phase1Out": "<base64 of the C1 JSON>", "SectorSize": n} and C1
 * files. The wrapper is three fields, one of them ~50 MB of base64 for a 32GiB C1: a small scanner of its
 * own reads it (keys in any order, JSON escapes) and decodes the base64 where it lies, instead of copying
 * it through a DOM string; the C1 JSON itself then goes to c1_json_parse.c. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filecoin/vanilla/base64.h"
#include "filecoin/vanilla/c1_json.h"
#include "util/bigmem.h"
#include "util/file_read.h"
#include "util/hex.h"

/* ---- Curio's wrapper: {"SectorNum": n, "Phase1Out": "<base64>", "SectorSize": n}, keys in any order ---- */

typedef struct {
    const char *s;
    size_t n, pos;
    cuzk_err_t *err;
} W;

static cuzk_status wfail(W *w, const char *field, const char *what)
{
    if (field)
        return cuzk_err_set(w->err, CUZK_ERR_FORMAT, "c1 wrapper: byte %zu: %s: %s", w->pos, field, what);
    return cuzk_err_set(w->err, CUZK_ERR_FORMAT, "c1 wrapper: byte %zu: %s", w->pos, what);
}

static void wws(W *w)
{
    while (w->pos < w->n && (w->s[w->pos] == ' ' || w->s[w->pos] == '\n' || w->s[w->pos] == '\r' ||
                             w->s[w->pos] == '\t'))
        w->pos++;
}

/* The rest of a JSON string (after its opening quote) with its escapes resolved, into out (cap bytes; the
 * string is cut there, *len says the whole length) or only measured when out is NULL. A \u escape of a
 * non-ASCII character gives 0x80 (it is no base64 character and no wrapper key). */
static cuzk_status wstring(W *w, const char *field, char *out, size_t cap, size_t *len)
{
    size_t k = 0;
    while (w->pos < w->n) {
        unsigned char c = (unsigned char)w->s[w->pos];
        if (c == '"') {
            w->pos++;
            *len = k;
            return CUZK_OK;
        }
        if (c < 0x20)
            return wfail(w, field, "control character in a string");
        w->pos++;
        if (c == '\\') {
            if (w->pos >= w->n)
                break;
            char e = w->s[w->pos++];
            switch (e) {
            case '"': case '\\': case '/': c = (unsigned char)e; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u': {
                int v = 0;
                for (int i = 0; i < 4; i++) {
                    int h = w->pos < w->n ? cuzk_hex_digit(w->s[w->pos]) : -1;
                    if (h < 0)
                        return wfail(w, field, w->pos < w->n ? "bad \\u escape" : "truncated string");
                    v = v * 16 + h;
                    w->pos++;
                }
                c = v < 0x80 ? (unsigned char)v : 0x80;
                break;
            }
            default:
                w->pos--;
                return wfail(w, field, "unknown escape in a string");
            }
        }
        if (out && k < cap)
            out[k] = (char)c;
        k++;
    }
    return wfail(w, field, "truncated string");
}

/* An unsigned JSON integer (no sign, fraction, exponent or leading zero) that fits 64 bits. */
static cuzk_status wuint(W *w, const char *field, uint64_t *v)
{
    size_t b = w->pos;
    uint64_t x = 0;
    while (w->pos < w->n && w->s[w->pos] >= '0' && w->s[w->pos] <= '9') {
        unsigned d = (unsigned)(w->s[w->pos] - '0');
        if (x > (UINT64_MAX - d) / 10)
            return wfail(w, field, "integer out of range");
        x = x * 10 + d;
        w->pos++;
    }
    if (w->pos == b)
        return wfail(w, field, w->pos >= w->n ? "truncated: expected an unsigned integer" : "expected an unsigned integer");
    if (w->pos - b > 1 && w->s[b] == '0')
        return wfail(w, field, "integer with a leading zero");
    if (w->pos < w->n && (w->s[w->pos] == '.' || w->s[w->pos] == 'e' || w->s[w->pos] == 'E'))
        return wfail(w, field, "expected an unsigned integer, found a fraction or exponent");
    *v = x;
    return CUZK_OK;
}

/* Phase1Out's string (after its opening quote) decoded into a malloc'd *raw. The base64 is decoded where
 * it lies, quads until the first character outside the alphabet (normally the closing quote); then the
 * rest up to the quote is decoded with the padding rules. A string with escapes (some encoders write "\/")
 * is unescaped first and decoded as a whole. */
static cuzk_status phase1out(W *w, uint8_t **raw, size_t *raw_len)
{
    const char *b = w->s + w->pos;
    size_t room = w->n - w->pos;
    uint8_t *out = cuzk_big_malloc(cuzk_base64_decoded_max(room) + 3);
    if (!out)
        return cuzk_err_set(w->err, CUZK_ERR_NO_MEMORY, "c1 wrapper: out of memory");
    size_t done = cuzk_base64_decode_quads(out, b, room), tail_len, len;
    const char *q = memchr(b + done, '"', room - done);
    char *unesc = NULL;
    cuzk_status st = CUZK_OK;
    cuzk_err_t e;
    if (!q || memchr(b + done, '\\', (size_t)(q - b) - done)) {
        /* Escapes (or no end): the string's length first, since it may end after q. */
        W m = *w;
        if ((st = wstring(&m, "Phase1Out", NULL, 0, &len)) != CUZK_OK) {
            free(out);
            return st;
        }
        if (!(unesc = malloc(len ? len : 1))) {
            free(out);
            return cuzk_err_set(w->err, CUZK_ERR_NO_MEMORY, "c1 wrapper: out of memory");
        }
        wstring(w, "Phase1Out", unesc, len, &len);
        st = cuzk_base64_decode(out, raw_len, unesc, len, &e);
        free(unesc);
    } else {
        len = (size_t)(q - b);
        w->pos += len + 1;
        if ((st = cuzk_base64_decode(out + done / 4 * 3, &tail_len, b + done, len - done, &e)) == CUZK_OK) {
            *raw_len = done / 4 * 3 + tail_len;
        } else {
            st = cuzk_base64_decode(out, raw_len, b, len, &e); /* the same error, told for the whole string */
        }
    }
    if (st != CUZK_OK) {
        free(out);
        return cuzk_err_set(w->err, st, "c1 wrapper: Phase1Out: %s", e.msg);
    }
    *raw = out;
    return CUZK_OK;
}

typedef struct {
    uint64_t sector_num, sector_size;
    uint8_t *raw;
    size_t raw_len;
} wrapper_t;

static const char *const wrapper_keys[3] = {"SectorNum", "Phase1Out", "SectorSize"};

/* One "key": value member. */
static cuzk_status wmember(W *w, wrapper_t *r, int seen[3])
{
    char key[32];
    size_t kl = 0, at = w->pos;
    if (w->pos >= w->n || w->s[w->pos] != '"')
        return wfail(w, NULL, w->pos >= w->n ? "truncated: expected a field name" : "expected a field name");
    w->pos++;
    cuzk_status st = wstring(w, NULL, key, sizeof key - 1, &kl);
    if (st != CUZK_OK)
        return st;
    key[kl < sizeof key - 1 ? kl : sizeof key - 1] = 0;
    int f = -1;
    for (int i = 0; i < 3; i++)
        if (kl == strlen(wrapper_keys[i]) && strcmp(key, wrapper_keys[i]) == 0)
            f = i;
    if (f < 0) {
        char m[128];
        w->pos = at;
        snprintf(m, sizeof m, "unknown field \"%s\" (a wrapper has SectorNum, Phase1Out and SectorSize)", key);
        return wfail(w, NULL, m);
    }
    if (seen[f]) {
        w->pos = at;
        return wfail(w, wrapper_keys[f], "duplicate field");
    }
    seen[f] = 1;
    wws(w);
    if (w->pos >= w->n || w->s[w->pos] != ':')
        return wfail(w, wrapper_keys[f], w->pos >= w->n ? "truncated: expected ':'" : "expected ':'");
    w->pos++;
    wws(w);
    if (f == 0)
        return wuint(w, "SectorNum", &r->sector_num);
    if (f == 2)
        return wuint(w, "SectorSize", &r->sector_size);
    if (w->pos >= w->n || w->s[w->pos] != '"')
        return wfail(w, "Phase1Out", w->pos >= w->n ? "truncated: expected a base64 string" : "expected a base64 string");
    w->pos++;
    return phase1out(w, &r->raw, &r->raw_len);
}

static cuzk_status wrapper_read(W *w, wrapper_t *r)
{
    int seen[3] = {0, 0, 0};
    wws(w);
    if (w->pos >= w->n || w->s[w->pos] != '{')
        return wfail(w, NULL, "expected '{'");
    w->pos++;
    wws(w);
    if (w->pos < w->n && w->s[w->pos] == '}') {
        w->pos++;
    } else {
        for (;;) {
            cuzk_status st = wmember(w, r, seen);
            if (st != CUZK_OK)
                return st;
            wws(w);
            if (w->pos < w->n && w->s[w->pos] == ',') {
                w->pos++;
                wws(w);
                continue;
            }
            if (w->pos < w->n && w->s[w->pos] == '}') {
                w->pos++;
                break;
            }
            return wfail(w, NULL, w->pos >= w->n ? "truncated: expected ',' or '}'" : "expected ',' or '}'");
        }
    }
    wws(w);
    if (w->pos != w->n)
        return wfail(w, NULL, "trailing data after the wrapper object");
    for (int i = 0; i < 3; i++)
        if (!seen[i])
            return cuzk_err_set(w->err, CUZK_ERR_FORMAT, "c1 wrapper: missing field %s", wrapper_keys[i]);
    return CUZK_OK;
}

/* A JSON object whose first key is one of the wrapper's. */
static int is_wrapper(const char *buf, size_t len)
{
    size_t i = 0;
    while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
        i++;
    if (i >= len || buf[i] != '{')
        return 0;
    i++;
    while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
        i++;
    for (int k = 0; k < 3; k++) {
        size_t kl = strlen(wrapper_keys[k]);
        if (len - i >= kl + 2 && buf[i] == '"' && memcmp(buf + i + 1, wrapper_keys[k], kl) == 0 &&
            buf[i + 1 + kl] == '"')
            return 1;
    }
    return 0;
}

cuzk_status cuzk_fc_c1_parse_any(cuzk_fc_c1_t *out, cuzk_fc_c1_wrapper_info_t *info, const char *buf, size_t len,
                                 unsigned flags, cuzk_err_t *err)
{
    cuzk_fc_c1_wrapper_info_t tmp;
    if (!info)
        info = &tmp;
    memset(info, 0, sizeof *info);
    memset(out, 0, sizeof *out);
    if (!is_wrapper(buf, len))
        return cuzk_fc_c1_json_parse(out, buf, len, flags, err);
    info->wrapped = 1;
    W w = {buf, len, 0, err};
    wrapper_t r = {0};
    cuzk_status st = wrapper_read(&w, &r);
    if (st != CUZK_OK) {
        free(r.raw);
        return st;
    }
    info->sector_num = r.sector_num;
    info->sector_size = r.sector_size;
    st = cuzk_fc_c1_json_parse(out, (const char *)r.raw, r.raw_len, flags, err);
    free(r.raw);
    if (st == CUZK_OK && out->proof->sector_size != info->sector_size) {
        st = cuzk_err_set(err, CUZK_ERR_MISMATCH, "c1 wrapper: SectorSize %llu, but Phase1Out is a %s proof",
                          (unsigned long long)info->sector_size, out->proof->name);
        cuzk_fc_c1_free(out);
    }
    return st;
}

/* A file whose first bytes are not the opening of a JSON object is refused from those bytes alone, before
 * a large one is read whole (a sparse or binary file named by mistake costs one small read). Anything
 * else unusual (missing, not a regular file, too large, unreadable) is left for the reader to report. */
static cuzk_status opens_as_json(const char *path, cuzk_err_t *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return CUZK_OK;
    struct stat sb;
    unsigned char b[64];
    bool usual = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size <= CUZK_FC_C1_MAX_BYTES;
    ssize_t n = usual ? read(fd, b, sizeof b) : -1;
    close(fd);
    for (ssize_t i = 0; i < n; i++) {
        if (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')
            continue;
        if (b[i] == '{')
            return CUZK_OK;
        char found[16];
        snprintf(found, sizeof found, b[i] >= 0x20 && b[i] < 0x7f ? "'%c'" : "byte 0x%02x", b[i]);
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: byte %zd: not a C1 output (JSON opens with '{', found %s)",
                            path, i, found);
    }
    return CUZK_OK;
}

cuzk_status cuzk_fc_c1_load(cuzk_fc_c1_t *out, cuzk_fc_c1_wrapper_info_t *info, const char *path, unsigned flags,
                            cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    uint8_t *buf = NULL;
    size_t len = 0;
    /* bounded: the largest registered proof's C1 (64GiB NI-PoRep, ~0.7 GB as a wrapper) fits, a stray
     * multi-gigabyte file is refused from its size */
    cuzk_status st = opens_as_json(path, err);
    if (st == CUZK_OK)
        st = cuzk_read_small_file(&buf, &len, path, CUZK_FC_C1_MAX_BYTES, "any C1 output", err);
    if (st != CUZK_OK)
        return st;
    st = cuzk_fc_c1_parse_any(out, info, (const char *)buf, len, flags, err);
    free(buf);
    if (st != CUZK_OK && err) {
        /* Say which file the message is about. */
        cuzk_err_t e2;
        cuzk_err_set(&e2, st, "%s: %s", path, err->msg);
        *err = e2;
    }
    return st;
}
