/* The strict TOML subset reader (see toml.h): one pass over the text after a check of its bytes
 * (UTF-8, no control characters), nodes kept in document order plus a hash index by full path,
 * which serves both the duplicate checks and the lookups. */
#include "server/toml.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "util/hex.h"

/* How a table came to be, which decides whether it may be opened again (TOML 1.0 rules). */
enum { ORIGIN_IMPLICIT, ORIGIN_HEADER, ORIGIN_DOTTED };

struct cuzk_toml {
    cuzk_toml_value_t root;
    cuzk_toml_value_t **nodes;
    size_t n, cap;
    cuzk_toml_value_t **slots; /* open addressing by path; power-of-two size, at most half full */
    size_t nslots;
};

typedef struct {
    const char *p, *end;
    int line;
    cuzk_toml_t *doc;
    cuzk_toml_value_t *table; /* the table the next key = value goes into */
    cuzk_err_t *err;
} parser;

typedef struct {
    char *part[CUZK_TOML_MAX_KEY_PARTS];
    size_t n;
} keyparts;

static cuzk_status fail(parser *ps, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static cuzk_status fail(parser *ps, int line, const char *fmt, ...)
{
    char what[224];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return cuzk_err_set(ps->err, CUZK_ERR_FORMAT, "line %d: %s", line, what);
}

static cuzk_status no_memory(cuzk_err_t *err) { return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory"); }

/* ---- bytes: UTF-8 and control characters, checked once for the whole text ---- */

/* Length of the valid UTF-8 sequence at s (lead byte >= 0x80), 0 when invalid: overlong forms,
 * surrogates and code points above U+10FFFF are invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    uint32_t cp, min;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2, cp = c & 0x1f, min = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
        len = 3, cp = c & 0x0f, min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4, cp = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

/* TOML allows no control character but tab anywhere (a CR only as part of CRLF): checking here
 * once means comments and strings need no check of their own. */
static cuzk_status check_bytes(parser *ps)
{
    const unsigned char *s = (const unsigned char *)ps->p;
    size_t n = (size_t)(ps->end - ps->p);
    int line = 1;
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        if (c == '\n') {
            line++, i++;
        } else if (c == '\r' && i + 1 < n && s[i + 1] == '\n') {
            i++;
        } else if ((c < 0x20 && c != '\t') || c == 0x7f) {
            return fail(ps, line, "control character U+%04X is not allowed", c);
        } else if (c < 0x80) {
            i++;
        } else {
            size_t len = utf8_seq(s + i, n - i);
            if (len == 0)
                return fail(ps, line, "invalid UTF-8 (byte 0x%02x)", c);
            i += len;
        }
    }
    return CUZK_OK;
}

/* ---- paths and the index ---- */

static bool is_bare(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static bool bare_key(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!is_bare(*s))
            return false;
    return true;
}

/* Writes s as a basic string into out (when not NULL); returns the length written or needed. */
static size_t quote_into(char *out, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    if (out)
        out[n] = '"';
    n++;
    for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
        char esc[6];
        size_t k;
        if (*q == '"' || *q == '\\') {
            esc[0] = '\\', esc[1] = (char)*q, k = 2;
        } else if (*q < 0x20 || *q == 0x7f) {
            memcpy(esc, "\\u00", 4), esc[4] = hex[*q >> 4], esc[5] = hex[*q & 15], k = 6;
        } else {
            esc[0] = (char)*q, k = 1;
        }
        if (out)
            memcpy(out + n, esc, k);
        n += k;
    }
    if (out)
        out[n] = '"';
    return n + 1;
}

void cuzk_toml_write_string(FILE *f, const char *s)
{
    size_t n = quote_into(NULL, s);
    char *buf = malloc(n);
    if (buf) {
        quote_into(buf, s);
        fwrite(buf, 1, n, f);
        free(buf);
    }
}

/* parent_path + '.' + key, the key quoted unless bare; the root's children have no prefix. */
static char *join_path(const char *parent_path, const char *key)
{
    size_t plen = parent_path ? strlen(parent_path) + 1 : 0;
    bool bare = bare_key(key);
    size_t klen = bare ? strlen(key) : quote_into(NULL, key);
    char *path = malloc(plen + klen + 1);
    if (!path)
        return NULL;
    if (plen) {
        memcpy(path, parent_path, plen - 1);
        path[plen - 1] = '.';
    }
    if (bare)
        memcpy(path + plen, key, klen);
    else
        quote_into(path + plen, key);
    path[plen + klen] = 0;
    return path;
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

static cuzk_toml_value_t *index_get(const cuzk_toml_t *doc, const char *path)
{
    if (!doc->nslots)
        return NULL;
    size_t mask = doc->nslots - 1;
    for (size_t i = hash_str(path) & mask;; i = (i + 1) & mask) {
        cuzk_toml_value_t *v = doc->slots[i];
        if (!v || strcmp(v->path, path) == 0)
            return v;
    }
}

static void index_insert(cuzk_toml_value_t **slots, size_t nslots, cuzk_toml_value_t *v)
{
    size_t i = hash_str(v->path) & (nslots - 1);
    while (slots[i])
        i = (i + 1) & (nslots - 1);
    slots[i] = v;
}

/* Appends a new node (taking path) to the document's list and index. */
static cuzk_status add_node(parser *ps, char *path, cuzk_toml_type type, cuzk_toml_value_t **out)
{
    cuzk_toml_t *doc = ps->doc;
    cuzk_toml_value_t *v = calloc(1, sizeof *v);
    if (!v) {
        free(path);
        return no_memory(ps->err);
    }
    v->path = path;
    v->type = type;
    v->line = ps->line;
    if (doc->n == doc->cap) {
        size_t cap = doc->cap ? 2 * doc->cap : 16;
        cuzk_toml_value_t **nodes = realloc(doc->nodes, cap * sizeof *nodes);
        if (!nodes)
            goto oom;
        doc->nodes = nodes, doc->cap = cap;
    }
    if (2 * (doc->n + 1) > doc->nslots) {
        size_t nslots = doc->nslots ? 2 * doc->nslots : 32;
        cuzk_toml_value_t **slots = calloc(nslots, sizeof *slots);
        if (!slots)
            goto oom;
        for (size_t i = 0; i < doc->n; i++)
            index_insert(slots, nslots, doc->nodes[i]);
        free(doc->slots);
        doc->slots = slots, doc->nslots = nslots;
    }
    doc->nodes[doc->n++] = v;
    index_insert(doc->slots, doc->nslots, v);
    *out = v;
    return CUZK_OK;
oom:
    free(path);
    free(v);
    return no_memory(ps->err);
}

/* ---- lexical helpers ---- */

static bool at_end(const parser *ps) { return ps->p >= ps->end; }

static bool at_newline(const parser *ps)
{
    return !at_end(ps) && (*ps->p == '\n' || (*ps->p == '\r' && ps->p + 1 < ps->end && ps->p[1] == '\n'));
}

static void eat_newline(parser *ps)
{
    ps->p += *ps->p == '\r' ? 2 : 1;
    ps->line++;
}

static void skip_ws(parser *ps)
{
    while (!at_end(ps) && (*ps->p == ' ' || *ps->p == '\t'))
        ps->p++;
}

static void skip_comment(parser *ps)
{
    if (!at_end(ps) && *ps->p == '#')
        while (!at_end(ps) && !at_newline(ps))
            ps->p++;
}

/* Inside arrays values may spread over lines with comments between them. */
static void skip_ws_lines(parser *ps)
{
    for (;;) {
        skip_ws(ps);
        skip_comment(ps);
        if (!at_newline(ps))
            return;
        eat_newline(ps);
    }
}

/* "'x'" for a printable character, "end of file", or the byte in hex, for messages. */
static const char *show_char(const parser *ps, char buf[16])
{
    if (at_end(ps))
        return "end of file";
    unsigned c = (unsigned char)*ps->p;
    if (at_newline(ps))
        return "end of line";
    if (c > 0x20 && c < 0x7f)
        snprintf(buf, 16, "'%c'", (char)c);
    else if (c == ' ' || c == '\t')
        snprintf(buf, 16, "whitespace");
    else
        snprintf(buf, 16, "byte 0x%02x", c);
    return buf;
}

/* After a header or a value only a comment may follow on the line. */
static cuzk_status end_of_line(parser *ps, const char *after)
{
    skip_ws(ps);
    skip_comment(ps);
    if (at_end(ps))
        return CUZK_OK;
    if (at_newline(ps)) {
        eat_newline(ps);
        return CUZK_OK;
    }
    char b[16];
    return fail(ps, ps->line, "unexpected %s after %s", show_char(ps, b), after);
}

/* ---- strings ---- */

static size_t utf8_put(char *w, uint32_t cp)
{
    if (cp < 0x80) {
        w[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        w[0] = (char)(0xc0 | cp >> 6), w[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        w[0] = (char)(0xe0 | cp >> 12), w[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        w[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    w[0] = (char)(0xf0 | cp >> 18), w[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    w[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), w[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* \uXXXX or \UXXXXXXXX at r (after the backslash and letter); ndig hex digits before q. */
static cuzk_status unicode_escape(parser *ps, const char **r, const char *q, int ndig, char **w)
{
    uint32_t cp = 0;
    for (int i = 0; i < ndig; i++) {
        int d = *r + i < q ? cuzk_hex_digit((*r)[i]) : -1;
        if (d < 0)
            return fail(ps, ps->line, "\\%c needs %d hex digits", ndig == 4 ? 'u' : 'U', ndig);
        cp = cp << 4 | (uint32_t)d;
    }
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return fail(ps, ps->line, "\\%c%.*s is not a Unicode scalar value", ndig == 4 ? 'u' : 'U', ndig, *r);
    if (cp == 0)
        return fail(ps, ps->line, "\\u0000 (NUL) is not supported in strings");
    *r += ndig;
    *w += utf8_put(*w, cp);
    return CUZK_OK;
}

/* A single-line basic string at the opening quote: first find its end, then decode into a buffer of
 * that size (escapes never grow). */
static cuzk_status parse_basic(parser *ps, char **out)
{
    const char *start = ++ps->p, *q = start;
    while (q < ps->end && *q != '"' && *q != '\n' && *q != '\r') {
        if (*q == '\\' && q + 1 < ps->end && q[1] != '\n' && q[1] != '\r')
            q++;
        q++;
    }
    if (q >= ps->end || *q != '"')
        return fail(ps, ps->line, "unterminated string");
    char *buf = malloc((size_t)(q - start) + 1), *w = buf;
    if (!buf)
        return no_memory(ps->err);
    for (const char *r = start; r < q;) {
        char c = *r++;
        if (c != '\\') {
            *w++ = c;
            continue;
        }
        cuzk_status st = CUZK_OK;
        switch (c = *r++) {
        case 'b': *w++ = '\b'; break;
        case 't': *w++ = '\t'; break;
        case 'n': *w++ = '\n'; break;
        case 'f': *w++ = '\f'; break;
        case 'r': *w++ = '\r'; break;
        case '"': *w++ = '"'; break;
        case '\\': *w++ = '\\'; break;
        case 'u': st = unicode_escape(ps, &r, q, 4, &w); break;
        case 'U': st = unicode_escape(ps, &r, q, 8, &w); break;
        default:
            if ((unsigned char)c > 0x20 && (unsigned char)c < 0x7f)
                st = fail(ps, ps->line, "invalid escape '\\%c' in a string", c);
            else
                st = fail(ps, ps->line, "invalid escape (backslash before byte 0x%02x)", (unsigned char)c);
        }
        if (st != CUZK_OK) {
            free(buf);
            return st;
        }
    }
    *w = 0;
    ps->p = q + 1;
    *out = buf;
    return CUZK_OK;
}

/* A literal string: everything up to the next quote on the same line, no escapes. */
static cuzk_status parse_literal(parser *ps, char **out)
{
    const char *start = ++ps->p, *q = start;
    while (q < ps->end && *q != '\'' && *q != '\n' && *q != '\r')
        q++;
    if (q >= ps->end || *q != '\'')
        return fail(ps, ps->line, "unterminated literal string");
    char *buf = malloc((size_t)(q - start) + 1);
    if (!buf)
        return no_memory(ps->err);
    memcpy(buf, start, (size_t)(q - start));
    buf[q - start] = 0;
    ps->p = q + 1;
    *out = buf;
    return CUZK_OK;
}

/* ---- numbers and booleans ---- */

static bool is_token(char c) { return is_bare(c) || c == '+' || c == '.' || c == ':'; }

static int digit_in(char c, int base)
{
    int d = cuzk_hex_digit(c);
    return d >= 0 && d < base ? d : -1;
}

/* Digits of the base from s[i], an underscore only between two digits; returns the index after
 * them, or (size_t)-1 when there is no digit or an underscore is misplaced. */
static size_t scan_digits(const char *s, size_t n, size_t i, int base)
{
    size_t start = i;
    for (; i < n; i++) {
        if (s[i] == '_') {
            if (i == start || i + 1 >= n || digit_in(s[i - 1], base) < 0 || digit_in(s[i + 1], base) < 0)
                return (size_t)-1;
        } else if (digit_in(s[i], base) < 0) {
            break;
        }
    }
    return i == start ? (size_t)-1 : i;
}

static cuzk_status parse_int(parser *ps, const char *s, size_t n, int64_t *out)
{
    size_t i = 0;
    bool neg = false;
    int base = 10;
    if (s[0] == '+' || s[0] == '-')
        neg = s[i++] == '-';
    if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'o' || s[i + 1] == 'b')) {
        if (i)
            return fail(ps, ps->line, "a sign is not allowed on a hex, octal or binary integer");
        base = s[1] == 'x' ? 16 : s[1] == 'o' ? 8 : 2;
        i = 2;
    } else if (i + 1 < n && s[i] == '0' && (digit_in(s[i + 1], 10) >= 0 || s[i + 1] == '_')) {
        return fail(ps, ps->line, "leading zeros are not allowed in '%.*s'", (int)(n > 40 ? 40 : n), s);
    }
    size_t e = scan_digits(s, n, i, base);
    if (e != n)
        return fail(ps, ps->line, "invalid integer '%.*s'", (int)(n > 40 ? 40 : n), s);
    uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, acc = 0;
    for (; i < n; i++) {
        if (s[i] == '_')
            continue;
        uint64_t d = (uint64_t)digit_in(s[i], base);
        if (acc > (limit - d) / (uint64_t)base)
            return fail(ps, ps->line, "integer '%.*s' does not fit in 64 bits", (int)(n > 40 ? 40 : n), s);
        acc = acc * (uint64_t)base + d;
    }
    *out = neg ? (int64_t)(0 - acc) : (int64_t)acc;
    return CUZK_OK;
}

/* TOML's float grammar checked by hand (strtod alone would take hex floats, "1.", ".5" and more),
 * then the digits without underscores converted by strtod. */
static cuzk_status parse_float(parser *ps, const char *s, size_t n, double *out)
{
    size_t i = 0;
    int shown = (int)(n > 40 ? 40 : n);
    if (s[0] == '+' || s[0] == '-')
        i++;
    const char *rest = s + i;
    size_t rn = n - i;
    if ((rn == 3 && memcmp(rest, "inf", 3) == 0) || (rn == 3 && memcmp(rest, "nan", 3) == 0)) {
        *out = rest[0] == 'i' ? (s[0] == '-' ? -INFINITY : INFINITY) : (s[0] == '-' ? -NAN : NAN);
        return CUZK_OK;
    }
    if (i + 1 < n && s[i] == '0' && ((s[i + 1] >= '0' && s[i + 1] <= '9') || s[i + 1] == '_'))
        return fail(ps, ps->line, "leading zeros are not allowed in '%.*s'", shown, s);
    size_t e = scan_digits(s, n, i, 10);
    if (e != (size_t)-1 && e < n && s[e] == '.')
        e = scan_digits(s, n, e + 1, 10);
    if (e != (size_t)-1 && e < n && (s[e] == 'e' || s[e] == 'E')) {
        e++;
        if (e < n && (s[e] == '+' || s[e] == '-'))
            e++;
        e = scan_digits(s, n, e, 10);
    }
    if (e != n)
        return fail(ps, ps->line, "invalid number '%.*s'", shown, s);
    char *buf = malloc(n + 1), *w = buf;
    if (!buf)
        return no_memory(ps->err);
    for (size_t k = 0; k < n; k++)
        if (s[k] != '_')
            *w++ = s[k];
    *w = 0;
    errno = 0;
    char *endp;
    double d = strtod(buf, &endp);
    bool whole = *endp == 0, range = errno == ERANGE && isinf(d);
    free(buf);
    if (!whole)
        return fail(ps, ps->line, "invalid number '%.*s'", shown, s);
    if (range)
        return fail(ps, ps->line, "float '%.*s' is out of range", shown, s);
    *out = d;
    return CUZK_OK;
}

static bool looks_like_datetime(const char *s, size_t n)
{
    bool d4 = n >= 5 && s[4] == '-';
    bool t2 = n >= 3 && s[2] == ':';
    for (size_t i = 0; i < (d4 ? 4 : t2 ? 2 : 0); i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return d4 || t2;
}

/* A bare value: boolean, integer or float. */
static cuzk_status parse_token(parser *ps, cuzk_toml_value_t *v)
{
    const char *s = ps->p;
    while (!at_end(ps) && is_token(*ps->p))
        ps->p++;
    size_t n = (size_t)(ps->p - s);
    if (n == 4 && memcmp(s, "true", 4) == 0) {
        v->type = CUZK_TOML_BOOL, v->u.b = true;
        return CUZK_OK;
    }
    if (n == 5 && memcmp(s, "false", 5) == 0) {
        v->type = CUZK_TOML_BOOL, v->u.b = false;
        return CUZK_OK;
    }
    if (looks_like_datetime(s, n))
        return fail(ps, ps->line, "dates and times are not supported");
    size_t sign = s[0] == '+' || s[0] == '-';
    bool radix = n > sign + 1 && s[sign] == '0' && (s[sign + 1] == 'x' || s[sign + 1] == 'o' || s[sign + 1] == 'b');
    bool numeric = n > sign && ((s[sign] >= '0' && s[sign] <= '9') || strncmp(s + sign, "inf", n - sign) == 0 ||
                                strncmp(s + sign, "nan", n - sign) == 0);
    if (!numeric)
        return fail(ps, ps->line, "invalid value '%.*s' (strings need quotes)", (int)(n > 40 ? 40 : n), s);
    if (!radix && (memchr(s, '.', n) || memchr(s, 'e', n) || memchr(s, 'E', n) || memchr(s, 'i', n) ||
                   memchr(s, 'n', n))) {
        v->type = CUZK_TOML_FLOAT;
        return parse_float(ps, s, n, &v->u.f);
    }
    v->type = CUZK_TOML_INT;
    return parse_int(ps, s, n, &v->u.i);
}

/* ---- values ---- */

static void value_clear(cuzk_toml_value_t *v)
{
    if (v->type == CUZK_TOML_STRING) {
        free(v->u.s);
    } else if (v->type == CUZK_TOML_ARRAY) {
        for (size_t i = 0; i < v->u.arr.n; i++) {
            value_clear(&v->u.arr.items[i]);
            free(v->u.arr.items[i].path);
        }
        free(v->u.arr.items);
    }
    v->type = CUZK_TOML_BOOL;
}

static cuzk_status parse_value(parser *ps, cuzk_toml_value_t *v, const char *path, bool in_array);

static cuzk_status parse_array(parser *ps, cuzk_toml_value_t *v, const char *path)
{
    int open_line = ps->line;
    size_t cap = 0;
    cuzk_status st = CUZK_OK;
    v->type = CUZK_TOML_ARRAY;
    v->u.arr.items = NULL, v->u.arr.n = 0;
    ps->p++;
    for (;;) {
        skip_ws_lines(ps);
        if (at_end(ps)) {
            st = fail(ps, ps->line, "unterminated array (opened on line %d)", open_line);
            break;
        }
        if (*ps->p == ']') {
            ps->p++;
            break;
        }
        if (v->u.arr.n == cap) {
            size_t ncap = cap ? 2 * cap : 4;
            cuzk_toml_value_t *items = realloc(v->u.arr.items, ncap * sizeof *items);
            if (!items) {
                st = no_memory(ps->err);
                break;
            }
            v->u.arr.items = items, cap = ncap;
        }
        cuzk_toml_value_t *it = &v->u.arr.items[v->u.arr.n];
        memset(it, 0, sizeof *it);
        it->line = ps->line;
        size_t plen = strlen(path) + 24;
        if (!(it->path = malloc(plen))) {
            st = no_memory(ps->err);
            break;
        }
        snprintf(it->path, plen, "%s[%zu]", path, v->u.arr.n);
        if ((st = parse_value(ps, it, it->path, true)) != CUZK_OK) {
            free(it->path);
            break;
        }
        v->u.arr.n++;
        skip_ws_lines(ps);
        if (!at_end(ps) && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (!at_end(ps) && *ps->p == ']') {
            ps->p++;
            break;
        }
        char b[16];
        st = at_end(ps) ? fail(ps, ps->line, "unterminated array (opened on line %d)", open_line)
                        : fail(ps, ps->line, "expected ',' or ']' in the array, found %s", show_char(ps, b));
        break;
    }
    if (st != CUZK_OK)
        value_clear(v);
    return st;
}

/* One value at ps->p into v (type and payload only); on error v holds nothing to free. */
static cuzk_status parse_value(parser *ps, cuzk_toml_value_t *v, const char *path, bool in_array)
{
    char b[16];
    v->type = CUZK_TOML_BOOL;
    if (at_end(ps) || at_newline(ps) || *ps->p == '#')
        return fail(ps, ps->line, "expected a value, found %s",
                    at_end(ps) || at_newline(ps) ? show_char(ps, b) : "a comment");
    char c = *ps->p;
    size_t left = (size_t)(ps->end - ps->p);
    if ((c == '"' || c == '\'') && left >= 3 && ps->p[1] == c && ps->p[2] == c)
        return fail(ps, ps->line, "multi-line strings are not supported");
    if (c == '"' || c == '\'') {
        cuzk_status st = c == '"' ? parse_basic(ps, &v->u.s) : parse_literal(ps, &v->u.s);
        if (st == CUZK_OK)
            v->type = CUZK_TOML_STRING;
        return st;
    }
    if (c == '[')
        return in_array ? fail(ps, ps->line, "nested arrays are not supported") : parse_array(ps, v, path);
    if (c == '{')
        return fail(ps, ps->line, "inline tables are not supported");
    if (is_token(c))
        return parse_token(ps, v);
    return fail(ps, ps->line, "expected a value, found %s", show_char(ps, b));
}

/* ---- keys, tables and the document ---- */

static void keyparts_free(keyparts *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->part[i]);
    k->n = 0;
}

/* A key: simple keys (bare, "basic", 'literal') joined by dots, whitespace allowed around the dots. */
static cuzk_status parse_key(parser *ps, keyparts *k)
{
    char b[16];
    k->n = 0;
    for (;;) {
        skip_ws(ps);
        if (k->n == CUZK_TOML_MAX_KEY_PARTS)
            return fail(ps, ps->line, "a key has more than %d dotted parts", CUZK_TOML_MAX_KEY_PARTS);
        cuzk_status st = CUZK_OK;
        char *part = NULL;
        if (!at_end(ps) && *ps->p == '"') {
            st = parse_basic(ps, &part);
        } else if (!at_end(ps) && *ps->p == '\'') {
            st = parse_literal(ps, &part);
        } else if (!at_end(ps) && is_bare(*ps->p)) {
            const char *s = ps->p;
            while (!at_end(ps) && is_bare(*ps->p))
                ps->p++;
            if ((part = strndup(s, (size_t)(ps->p - s))) == NULL)
                st = no_memory(ps->err);
        } else {
            st = fail(ps, ps->line, "expected a key, found %s", show_char(ps, b));
        }
        if (st != CUZK_OK)
            return st;
        k->part[k->n++] = part;
        skip_ws(ps);
        if (at_end(ps) || *ps->p != '.')
            return CUZK_OK;
        ps->p++;
    }
}

/* The child `key` of table t: found (*out set, *created false) or made as a table of `origin`. */
static cuzk_status child_table(parser *ps, cuzk_toml_value_t *t, const char *key, int origin,
                               cuzk_toml_value_t **out, bool *created)
{
    char *path = join_path(t->path, key);
    if (!path)
        return no_memory(ps->err);
    cuzk_toml_value_t *v = index_get(ps->doc, path);
    *created = v == NULL;
    if (v) {
        free(path);
        *out = v;
        return CUZK_OK;
    }
    cuzk_status st = add_node(ps, path, CUZK_TOML_TABLE, out);
    if (st == CUZK_OK)
        (*out)->u.origin = origin;
    return st;
}

static cuzk_status not_a_table(parser *ps, const cuzk_toml_value_t *v)
{
    return fail(ps, ps->line, "%s is %s (line %d), not a table", v->path, cuzk_toml_type_name(v->type), v->line);
}

/* [a.b.c]: the tables on the way may exist in any form; the last one may exist only as made
 * implicitly by an earlier header (TOML forbids defining a table twice, or after dotted keys). */
static cuzk_status open_table(parser *ps, const keyparts *k)
{
    cuzk_toml_value_t *t = &ps->doc->root;
    for (size_t i = 0; i < k->n; i++) {
        bool last = i + 1 == k->n, created = false;
        cuzk_toml_value_t *c = NULL;
        cuzk_status st = child_table(ps, t, k->part[i], last ? ORIGIN_HEADER : ORIGIN_IMPLICIT, &c, &created);
        if (st != CUZK_OK)
            return st;
        if (!created && c->type != CUZK_TOML_TABLE)
            return not_a_table(ps, c);
        if (last && !created) {
            if (c->u.origin != ORIGIN_IMPLICIT)
                return fail(ps, ps->line, "duplicate table [%s] (first defined on line %d)", c->path, c->line);
            c->u.origin = ORIGIN_HEADER;
            c->line = ps->line;
        }
        t = c;
    }
    ps->table = t;
    return CUZK_OK;
}

/* a.b.c = value: a and a.b are tables made (or earlier made) by dotted keys in this same table;
 * c must be new. Returns the node for the value. */
static cuzk_status key_node(parser *ps, const keyparts *k, cuzk_toml_value_t **out)
{
    cuzk_toml_value_t *t = ps->table;
    for (size_t i = 0; i + 1 < k->n; i++) {
        bool created = false;
        cuzk_toml_value_t *c = NULL;
        cuzk_status st = child_table(ps, t, k->part[i], ORIGIN_DOTTED, &c, &created);
        if (st != CUZK_OK)
            return st;
        if (!created && c->type != CUZK_TOML_TABLE)
            return not_a_table(ps, c);
        if (!created && c->u.origin != ORIGIN_DOTTED)
            return fail(ps, ps->line, "dotted keys cannot add to table [%s] (defined on line %d)", c->path, c->line);
        t = c;
    }
    char *path = join_path(t->path, k->part[k->n - 1]);
    if (!path)
        return no_memory(ps->err);
    cuzk_toml_value_t *old = index_get(ps->doc, path);
    if (old) {
        free(path);
        return fail(ps, ps->line, "duplicate key %s (first defined on line %d)", old->path, old->line);
    }
    return add_node(ps, path, CUZK_TOML_BOOL, out);
}

/* [a.b] at ps->p. */
static cuzk_status parse_header(parser *ps, keyparts *k)
{
    char b[16];
    ps->p++;
    if (!at_end(ps) && *ps->p == '[')
        return fail(ps, ps->line, "arrays of tables ([[...]]) are not supported");
    cuzk_status st = parse_key(ps, k);
    if (st != CUZK_OK)
        return st;
    if (at_end(ps) || *ps->p != ']')
        return fail(ps, ps->line, "expected ']' to close the table header, found %s", show_char(ps, b));
    ps->p++;
    if ((st = open_table(ps, k)) != CUZK_OK)
        return st;
    return end_of_line(ps, "the table header");
}

/* key = value at ps->p. */
static cuzk_status parse_keyval(parser *ps, keyparts *k)
{
    char b[16];
    cuzk_status st = parse_key(ps, k);
    if (st != CUZK_OK)
        return st;
    if (at_end(ps) || *ps->p != '=')
        return fail(ps, ps->line, "expected '=' after the key, found %s", show_char(ps, b));
    ps->p++;
    cuzk_toml_value_t *node;
    if ((st = key_node(ps, k, &node)) != CUZK_OK)
        return st;
    cuzk_toml_value_t tmp = {.line = node->line};
    skip_ws(ps);
    if ((st = parse_value(ps, &tmp, node->path, false)) != CUZK_OK)
        return st;
    node->type = tmp.type;
    node->u = tmp.u;
    return end_of_line(ps, "the value");
}

static cuzk_status parse_line(parser *ps)
{
    keyparts k = {.n = 0};
    cuzk_status st = *ps->p == '[' ? parse_header(ps, &k) : parse_keyval(ps, &k);
    keyparts_free(&k);
    return st;
}

cuzk_status cuzk_toml_parse(const char *buf, size_t len, cuzk_toml_t **out, cuzk_err_t *err)
{
    *out = NULL;
    cuzk_toml_t *doc = calloc(1, sizeof *doc);
    if (!doc)
        return no_memory(err);
    doc->root.type = CUZK_TOML_TABLE;
    doc->root.u.origin = ORIGIN_HEADER;
    parser ps = {.p = buf, .end = buf + len, .line = 1, .doc = doc, .table = &doc->root, .err = err};
    if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
        ps.p += 3;
    cuzk_status st = check_bytes(&ps);
    while (st == CUZK_OK && !at_end(&ps)) {
        skip_ws(&ps);
        skip_comment(&ps);
        if (at_end(&ps))
            break;
        if (at_newline(&ps))
            eat_newline(&ps);
        else
            st = parse_line(&ps);
    }
    if (st != CUZK_OK) {
        cuzk_toml_free(doc);
        return st;
    }
    *out = doc;
    return CUZK_OK;
}

void cuzk_toml_free(cuzk_toml_t *doc)
{
    if (!doc)
        return;
    for (size_t i = 0; i < doc->n; i++) {
        value_clear(doc->nodes[i]);
        free(doc->nodes[i]->path);
        free(doc->nodes[i]);
    }
    free(doc->nodes);
    free(doc->slots);
    free(doc);
}

/* ---- reading ---- */

size_t cuzk_toml_count(const cuzk_toml_t *doc) { return doc->n; }

const cuzk_toml_value_t *cuzk_toml_at(const cuzk_toml_t *doc, size_t i) { return i < doc->n ? doc->nodes[i] : NULL; }

const cuzk_toml_value_t *cuzk_toml_find(const cuzk_toml_t *doc, const char *path) { return index_get(doc, path); }

const char *cuzk_toml_type_name(cuzk_toml_type type)
{
    switch (type) {
    case CUZK_TOML_TABLE: return "a table";
    case CUZK_TOML_STRING: return "a string";
    case CUZK_TOML_INT: return "an integer";
    case CUZK_TOML_FLOAT: return "a float";
    case CUZK_TOML_BOOL: return "a boolean";
    case CUZK_TOML_ARRAY: return "an array";
    }
    return "?";
}

static cuzk_status wrong_type(const cuzk_toml_value_t *v, cuzk_toml_type want, cuzk_err_t *err)
{
    return cuzk_err_set(err, CUZK_ERR_FORMAT, "line %d: %s: expected %s, got %s", v->line, v->path,
                        cuzk_toml_type_name(want), cuzk_toml_type_name(v->type));
}

cuzk_status cuzk_toml_as_string(const cuzk_toml_value_t *v, const char **out, cuzk_err_t *err)
{
    if (v->type != CUZK_TOML_STRING)
        return wrong_type(v, CUZK_TOML_STRING, err);
    *out = v->u.s;
    return CUZK_OK;
}

cuzk_status cuzk_toml_as_int(const cuzk_toml_value_t *v, int64_t *out, cuzk_err_t *err)
{
    if (v->type != CUZK_TOML_INT)
        return wrong_type(v, CUZK_TOML_INT, err);
    *out = v->u.i;
    return CUZK_OK;
}

cuzk_status cuzk_toml_as_float(const cuzk_toml_value_t *v, double *out, cuzk_err_t *err)
{
    if (v->type == CUZK_TOML_INT) {
        *out = (double)v->u.i;
        return CUZK_OK;
    }
    if (v->type != CUZK_TOML_FLOAT)
        return wrong_type(v, CUZK_TOML_FLOAT, err);
    *out = v->u.f;
    return CUZK_OK;
}

cuzk_status cuzk_toml_as_bool(const cuzk_toml_value_t *v, bool *out, cuzk_err_t *err)
{
    if (v->type != CUZK_TOML_BOOL)
        return wrong_type(v, CUZK_TOML_BOOL, err);
    *out = v->u.b;
    return CUZK_OK;
}

/* The by-path getters: absent = OK and untouched. */
#define GETTER(name, ctype)                                                                                \
    cuzk_status cuzk_toml_get_##name(const cuzk_toml_t *doc, const char *path, ctype *out, bool *found,    \
                                     cuzk_err_t *err)                                                      \
    {                                                                                                      \
        const cuzk_toml_value_t *v = cuzk_toml_find(doc, path);                                            \
        if (found)                                                                                         \
            *found = v != NULL;                                                                            \
        return v ? cuzk_toml_as_##name(v, out, err) : CUZK_OK;                                             \
    }
GETTER(string, const char *)
GETTER(int, int64_t)
GETTER(float, double)
GETTER(bool, bool)
