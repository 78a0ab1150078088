/* The TOML reader: the cases in tests/server/config/toml_cases.txt (expected contents from Python's
 * tomllib, expected refusals with their line), byte-level checks (control characters, UTF-8, CRLF),
 * the lookup API, string round trips, size limits, and random mutations of valid documents. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "server/toml.h"
#include "test_util.h"

#define CASES "tests/server/config/toml_cases.txt"

/* Parses an exact-size copy (no NUL after it) so that ASan sees any read past the end. */
static cuzk_status parse_exact(const char *text, size_t len, cuzk_toml_t **doc, cuzk_err_t *err)
{
    char *copy = malloc(len ? len : 1);
    memcpy(copy, text, len);
    cuzk_status st = cuzk_toml_parse(copy, len, doc, err);
    free(copy);
    return st;
}

/* ---- flattening, the same rules as check_toml_cases.py ---- */

static void put_value(FILE *f, const cuzk_toml_value_t *v)
{
    switch (v->type) {
    case CUZK_TOML_STRING: cuzk_toml_write_string(f, v->u.s); break;
    case CUZK_TOML_INT: fprintf(f, "%lld", (long long)v->u.i); break;
    case CUZK_TOML_BOOL: fputs(v->u.b ? "true" : "false", f); break;
    case CUZK_TOML_FLOAT:
        if (isnan(v->u.f))
            fputs("nan", f);
        else if (isinf(v->u.f))
            fputs(v->u.f > 0 ? "inf" : "-inf", f);
        else
            fprintf(f, "%.17g", v->u.f);
        break;
    case CUZK_TOML_ARRAY:
        fputc('[', f);
        for (size_t i = 0; i < v->u.arr.n; i++) {
            if (i)
                fputs(", ", f);
            put_value(f, &v->u.arr.items[i]);
        }
        fputc(']', f);
        break;
    case CUZK_TOML_TABLE: fputs("{}", f); break;
    }
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool has_children(const cuzk_toml_t *doc, const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < cuzk_toml_count(doc); i++) {
        const char *p = cuzk_toml_at(doc, i)->path;
        if (strncmp(p, path, n) == 0 && p[n] == '.')
            return true;
    }
    return false;
}

/* "path = value" per value and per empty table, sorted, each line ending in '\n'. Caller frees. */
static char *flatten(const cuzk_toml_t *doc)
{
    size_t n = cuzk_toml_count(doc), k = 0;
    char **lines = calloc(n + 1, sizeof *lines);
    for (size_t i = 0; i < n; i++) {
        const cuzk_toml_value_t *v = cuzk_toml_at(doc, i);
        if (v->type == CUZK_TOML_TABLE && has_children(doc, v->path))
            continue;
        size_t len;
        FILE *f = open_memstream(&lines[k], &len);
        fprintf(f, "%s = ", v->path);
        put_value(f, v);
        fclose(f);
        k++;
    }
    qsort(lines, k, sizeof *lines, cmp_str);
    size_t total;
    char *out;
    FILE *f = open_memstream(&out, &total);
    for (size_t i = 0; i < k; i++) {
        fprintf(f, "%s\n", lines[i]);
        free(lines[i]);
    }
    fclose(f);
    free(lines);
    return out;
}

/* ---- the case file ---- */

typedef struct {
    char *head, *doc, *expect; /* expect NULL when there is no expect block */
} tcase;

static char *append(char *s, const char *line, size_t len)
{
    size_t old = s ? strlen(s) : 0;
    s = realloc(s, old + len + 2);
    memcpy(s + old, line, len);
    s[old + len] = '\n';
    s[old + len + 1] = 0;
    return s;
}

static size_t read_cases(tcase **out)
{
    size_t len;
    char *text = test_read_file(CASES, &len);
    CHECK_MSG(text != NULL, "cannot read %s", CASES);
    if (!text)
        return 0;
    tcase *cases = NULL;
    size_t n = 0;
    bool in_expect = false;
    for (char *line = text; line < text + len;) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        size_t ll = nl ? (size_t)(nl - line) : (size_t)(text + len - line);
        if (ll >= 4 && memcmp(line, "=== ", 4) == 0) {
            cases = realloc(cases, (n + 1) * sizeof *cases);
            cases[n++] = (tcase){.head = strndup(line, ll), .doc = strdup(""), .expect = NULL};
            in_expect = false;
        } else if (n && ll == 10 && memcmp(line, "--- expect", 10) == 0) {
            cases[n - 1].expect = strdup("");
            in_expect = true;
        } else if (n) {
            char **dst = in_expect ? &cases[n - 1].expect : &cases[n - 1].doc;
            *dst = append(*dst, line, ll);
        }
        line += ll + 1;
    }
    free(text);
    *out = cases;
    return n;
}

static void run_case(const tcase *c)
{
    /* "=== ok NAME" or "=== KIND LINE TEXT" */
    char kind[16] = "";
    int line = 0, off = 0;
    int fields = sscanf(c->head, "=== %15s %d %n", kind, &line, &off);
    const char *needle = fields >= 2 && off > 0 ? c->head + off : "";
    cuzk_toml_t *doc;
    cuzk_err_t err = {{0}};
    cuzk_status st = parse_exact(c->doc, strlen(c->doc), &doc, &err);
    if (strcmp(kind, "ok") == 0) {
        CHECK_MSG(st == CUZK_OK, "%s: %s", c->head, err.msg);
        CHECK_MSG(c->expect != NULL, "%s: no expect block", c->head);
        if (st != CUZK_OK || !c->expect)
            return;
        char *flat = flatten(doc);
        CHECK_MSG(strcmp(flat, c->expect) == 0, "%s: read\n%s", c->head, flat);
        free(flat);
        cuzk_toml_free(doc);
        return;
    }
    CHECK_MSG(line > 0 && *needle, "%s: no line and text", c->head);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "line %d: ", line);
    CHECK_MSG(st == CUZK_ERR_FORMAT, "%s: status %d (%s)", c->head, st, err.msg);
    CHECK_MSG(doc == NULL, "%s: a document after an error", c->head);
    CHECK_MSG(strncmp(err.msg, prefix, strlen(prefix)) == 0 && strstr(err.msg, needle),
              "%s: message \"%s\"", c->head, err.msg);
    if (st == CUZK_OK)
        cuzk_toml_free(doc);
}

static void test_cases(void)
{
    tcase *cases;
    size_t n = read_cases(&cases), counts[4] = {0};
    for (size_t i = 0; i < n; i++) {
        run_case(&cases[i]);
        counts[strncmp(cases[i].head, "=== ok", 6) == 0 ? 0 : strncmp(cases[i].head, "=== err", 7) == 0 ? 1 : 2]++;
    }
    CHECK(counts[0] >= 8 && counts[1] >= 60 && counts[2] >= 10);
    printf("case file: %zu accepted, %zu refused, %zu outside the subset or range\n", counts[0], counts[1],
           counts[2]);
    for (size_t i = 0; i < n; i++) {
        free(cases[i].head);
        free(cases[i].doc);
        free(cases[i].expect);
    }
    free(cases);
}

/* ---- bytes ---- */

static void expect_error(const char *text, size_t len, int line, const char *needle)
{
    cuzk_toml_t *doc;
    cuzk_err_t err = {{0}};
    char prefix[32];
    snprintf(prefix, sizeof prefix, "line %d: ", line);
    cuzk_status st = parse_exact(text, len, &doc, &err);
    CHECK_MSG(st == CUZK_ERR_FORMAT && strncmp(err.msg, prefix, strlen(prefix)) == 0 && strstr(err.msg, needle),
              "%s expected, got status %d \"%s\"", needle, st, err.msg);
    if (st == CUZK_OK)
        cuzk_toml_free(doc);
}

static cuzk_toml_t *expect_ok(const char *text, size_t len)
{
    cuzk_toml_t *doc = NULL;
    cuzk_err_t err = {{0}};
    cuzk_status st = parse_exact(text, len, &doc, &err);
    CHECK_MSG(st == CUZK_OK, "refused: %s", err.msg);
    return st == CUZK_OK ? doc : NULL;
}

static void test_bytes(void)
{
    /* Every control character but tab, in a string and in a comment, on line 2. */
    for (int c = 0; c < 0x80; c++) {
        if (c == '\t' || c == '\n' || (c >= 0x20 && c < 0x7f))
            continue;
        char doc[64], want[40];
        snprintf(want, sizeof want, "control character U+%04X", c);
        int n = snprintf(doc, sizeof doc, "a = 1\nb = \"x?y\"\n");
        *strchr(doc, '?') = (char)c;
        expect_error(doc, (size_t)n, 2, want);
        n = snprintf(doc, sizeof doc, "a = 1\n# x?y\n");
        *strchr(doc, '?') = (char)c;
        expect_error(doc, (size_t)n, 2, want);
    }
    expect_error("a = 1\rb = 2\n", 12, 1, "control character U+000D");
    expect_error("a = 1\n\r", 7, 2, "control character U+000D");

    /* Invalid UTF-8 (RFC 3629): truncated, overlong, surrogates, above U+10FFFF, stray bytes. */
    static const char *const bad[] = {"\xc3",         "\xc3\x28",         "\xc0\xaf",     "\xc1\xbf",
                                      "\xe0\x80\xaf", "\xed\xa0\x80",     "\xed\xbf\xbf", "\xf0\x80\x80\xaf",
                                      "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\x80",     "\xbf",
                                      "\xfe",         "\xff",             "\xe2\x82"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char doc[64];
        int n = snprintf(doc, sizeof doc, "a = 1\n\nb = \"%s\"\n", bad[i]);
        expect_error(doc, (size_t)n, 3, "invalid UTF-8");
        n = snprintf(doc, sizeof doc, "a = 1\n\n# %s", bad[i]);
        expect_error(doc, (size_t)n, 3, "invalid UTF-8");
    }
    /* The edges that are valid, read back byte for byte. */
    static const char *const good[] = {"\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xef\xbf\xbf", "\xee\x80\x80",
                                       "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char doc[64];
        int n = snprintf(doc, sizeof doc, "b = \"%s\"\nc = '%s'", good[i], good[i]);
        cuzk_toml_t *d = expect_ok(doc, (size_t)n);
        const char *s = NULL, *t = NULL;
        if (d) {
            CHECK(cuzk_toml_get_string(d, "b", &s, NULL, NULL) == CUZK_OK && s && strcmp(s, good[i]) == 0);
            CHECK(cuzk_toml_get_string(d, "c", &t, NULL, NULL) == CUZK_OK && t && strcmp(t, good[i]) == 0);
            cuzk_toml_free(d);
        }
    }

    /* CRLF line ends, a byte-order mark, no newline at the end, empty documents. */
    const char *crlf = "\xef\xbb\xbf# c\r\na = 1\r\nb = \"x\" # c\r\n[t]\r\nc = [1,\r\n  2, # c\r\n]\r\nd = 'y'";
    cuzk_toml_t *d = expect_ok(crlf, strlen(crlf));
    if (d) {
        const cuzk_toml_value_t *c = cuzk_toml_find(d, "t.c");
        CHECK(c && c->type == CUZK_TOML_ARRAY && c->u.arr.n == 2 && c->line == 5 && c->u.arr.items[1].line == 6);
        const cuzk_toml_value_t *y = cuzk_toml_find(d, "t.d");
        CHECK(y && y->type == CUZK_TOML_STRING && strcmp(y->u.s, "y") == 0 && y->line == 8);
        cuzk_toml_free(d);
    }
    expect_error("a = 1\r\nb = 2\r\nc = 3 x\r\n", 23, 3, "unexpected 'x'");
    expect_error("a = 1\n\xef\xbb\xbf" "b = 2\n", 15, 2, "expected a key, found byte 0xef");
    static const char *const empties[] = {"", "\n", "\n\n# only a comment\n  \t\n", "# no newline"};
    for (size_t i = 0; i < 4; i++) {
        d = expect_ok(empties[i], strlen(empties[i]));
        if (d) {
            CHECK(cuzk_toml_count(d) == 0);
            cuzk_toml_free(d);
        }
    }
    static const char *const no_nl[] = {"a = 1", "[t]", "a = \"x\"  # c", "a = [1]", "a = 'x'", "a = true"};
    for (size_t i = 0; i < 6; i++) {
        d = expect_ok(no_nl[i], strlen(no_nl[i]));
        cuzk_toml_free(d);
    }
    /* Unterminated at the very end of the buffer. */
    expect_error("a = \"abc\\", 9, 1, "unterminated string");
    expect_error("a = \"\\u00", 9, 1, "unterminated string");
    expect_error("a = [1", 6, 1, "unterminated array");
    expect_error("a = [", 5, 1, "unterminated array");
    expect_error("[a", 2, 1, "expected ']'");
    expect_error("a", 1, 1, "expected '='");
    expect_error("\"a", 2, 1, "unterminated string");
}

/* ---- the API ---- */

static void test_api(void)
{
    const char *text = "top = 1\n"
                       "[s]\n"
                       "k = \"v\"\n"
                       "n = 5\n"
                       "f = 2.5\n"
                       "b = true\n"
                       "arr = [1,\n  \"x\"]\n"
                       "[s.sub]\n"
                       "z = 0\n"
                       "[a.b.c]\n"
                       "site.\"google.com\" = true\n";
    cuzk_toml_t *doc = expect_ok(text, strlen(text));
    if (!doc)
        return;
    static const struct {
        const char *path;
        cuzk_toml_type type;
        int line;
    } order[] = {{"top", CUZK_TOML_INT, 1},       {"s", CUZK_TOML_TABLE, 2},     {"s.k", CUZK_TOML_STRING, 3},
                 {"s.n", CUZK_TOML_INT, 4},       {"s.f", CUZK_TOML_FLOAT, 5},   {"s.b", CUZK_TOML_BOOL, 6},
                 {"s.arr", CUZK_TOML_ARRAY, 7},   {"s.sub", CUZK_TOML_TABLE, 9}, {"s.sub.z", CUZK_TOML_INT, 10},
                 {"a", CUZK_TOML_TABLE, 11},      {"a.b", CUZK_TOML_TABLE, 11},  {"a.b.c", CUZK_TOML_TABLE, 11},
                 {"a.b.c.site", CUZK_TOML_TABLE, 12}, {"a.b.c.site.\"google.com\"", CUZK_TOML_BOOL, 12}};
    size_t n = sizeof order / sizeof order[0];
    CHECK(cuzk_toml_count(doc) == n);
    for (size_t i = 0; i < n && i < cuzk_toml_count(doc); i++) {
        const cuzk_toml_value_t *v = cuzk_toml_at(doc, i);
        CHECK_MSG(strcmp(v->path, order[i].path) == 0 && v->type == order[i].type && v->line == order[i].line,
                  "node %zu: %s type %d line %d", i, v->path, v->type, v->line);
        CHECK(cuzk_toml_find(doc, order[i].path) == v);
    }
    CHECK(cuzk_toml_at(doc, n) == NULL);
    CHECK(cuzk_toml_find(doc, "s.missing") == NULL && cuzk_toml_find(doc, "") == NULL &&
          cuzk_toml_find(doc, "a.b.c.site.google.com") == NULL);

    const cuzk_toml_value_t *arr = cuzk_toml_find(doc, "s.arr");
    CHECK(arr->u.arr.n == 2 && arr->u.arr.items[0].type == CUZK_TOML_INT && arr->u.arr.items[0].u.i == 1 &&
          arr->u.arr.items[1].type == CUZK_TOML_STRING && strcmp(arr->u.arr.items[1].path, "s.arr[1]") == 0 &&
          arr->u.arr.items[1].line == 8);

    cuzk_err_t err = {{0}};
    const char *s = "untouched";
    int64_t i64 = -7;
    double f = -1;
    bool b = false, found = true;
    CHECK(cuzk_toml_get_string(doc, "s.k", &s, &found, &err) == CUZK_OK && found && strcmp(s, "v") == 0);
    CHECK(cuzk_toml_get_int(doc, "s.n", &i64, &found, &err) == CUZK_OK && i64 == 5);
    CHECK(cuzk_toml_get_float(doc, "s.f", &f, &found, &err) == CUZK_OK && f == 2.5);
    CHECK(cuzk_toml_get_float(doc, "s.n", &f, &found, &err) == CUZK_OK && f == 5.0);
    CHECK(cuzk_toml_get_bool(doc, "s.b", &b, &found, &err) == CUZK_OK && b);
    i64 = -7;
    CHECK(cuzk_toml_get_int(doc, "s.none", &i64, &found, &err) == CUZK_OK && !found && i64 == -7);
    CHECK(cuzk_toml_get_int(doc, "s.none", &i64, NULL, &err) == CUZK_OK && i64 == -7);
    CHECK(cuzk_toml_get_string(doc, "s.n", &s, &found, &err) == CUZK_ERR_FORMAT && found);
    CHECK_MSG(strcmp(err.msg, "line 4: s.n: expected a string, got an integer") == 0, "%s", err.msg);
    CHECK(cuzk_toml_get_int(doc, "s.f", &i64, NULL, &err) == CUZK_ERR_FORMAT);
    CHECK_MSG(strcmp(err.msg, "line 5: s.f: expected an integer, got a float") == 0, "%s", err.msg);
    CHECK(cuzk_toml_get_bool(doc, "s", &b, NULL, &err) == CUZK_ERR_FORMAT);
    CHECK_MSG(strcmp(err.msg, "line 2: s: expected a boolean, got a table") == 0, "%s", err.msg);
    CHECK(cuzk_toml_get_float(doc, "s.k", &f, NULL, &err) == CUZK_ERR_FORMAT);
    CHECK(cuzk_toml_as_string(arr, &s, NULL) == CUZK_ERR_FORMAT);
    CHECK(strcmp(cuzk_toml_type_name(CUZK_TOML_ARRAY), "an array") == 0);
    cuzk_toml_free(doc);
    cuzk_toml_free(NULL);

    /* A header naming a table made implicitly takes its line. */
    const char *t2 = "[x.y]\n\n[x]\nk = 1\n";
    doc = expect_ok(t2, strlen(t2));
    if (doc) {
        CHECK(cuzk_toml_find(doc, "x")->line == 3);
        cuzk_toml_free(doc);
    }
    /* An error leaves *out NULL. */
    doc = (cuzk_toml_t *)&err;
    CHECK(cuzk_toml_parse("a = ", 4, &doc, NULL) == CUZK_ERR_FORMAT && doc == NULL);
}

/* ---- strings: escapes against UTF-8 by hand, and round trips ---- */

static void test_strings(void)
{
    /* Each escape and the UTF-8 bytes RFC 3629 gives for its code point. */
    static const struct {
        const char *esc, *utf8;
    } esc[] = {{"\\u0041", "A"},          {"\\u00e9", "\xc3\xa9"},        {"\\u00E9", "\xc3\xa9"},
               {"\\u0080", "\xc2\x80"},   {"\\u07FF", "\xdf\xbf"},        {"\\u0800", "\xe0\xa0\x80"},
               {"\\u20AC", "\xe2\x82\xac"}, {"\\uD7FF", "\xed\x9f\xbf"},  {"\\uE000", "\xee\x80\x80"},
               {"\\uFFFF", "\xef\xbf\xbf"}, {"\\U00010000", "\xf0\x90\x80\x80"},
               {"\\U0001F600", "\xf0\x9f\x98\x80"}, {"\\U0010FFFF", "\xf4\x8f\xbf\xbf"},
               {"\\u0001", "\x01"},       {"\\b\\t\\n\\f\\r\\\"\\\\", "\b\t\n\f\r\"\\"}};
    for (size_t i = 0; i < sizeof esc / sizeof esc[0]; i++) {
        char doc[64];
        int n = snprintf(doc, sizeof doc, "k = \"<%s>\"", esc[i].esc);
        cuzk_toml_t *d = expect_ok(doc, (size_t)n);
        const char *s = NULL;
        char want[32];
        snprintf(want, sizeof want, "<%s>", esc[i].utf8);
        if (d) {
            CHECK_MSG(cuzk_toml_get_string(d, "k", &s, NULL, NULL) == CUZK_OK && strcmp(s, want) == 0, "%s",
                      esc[i].esc);
            cuzk_toml_free(d);
        }
    }

    static const char *const tricky[] = {"", "plain", "quote\"", "back\\slash", "\\\"", "tab\t", "nl\n", "cr\r",
                                         "\x01\x1f\x7f", "\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80", "\"\"\"", "'''",
                                         "#", "a = b", "[x]", "\\u0041", "\xf4\x8f\xbf\xbf", " lead", "trail "};
    size_t ntricky = sizeof tricky / sizeof tricky[0];
    int rounds = 3000;
    for (int r = 0; r < (int)ntricky + rounds; r++) {
        char rnd[200];
        const char *s = r < (int)ntricky ? tricky[r] : rnd;
        if (r >= (int)ntricky) {
            /* Random code points: mostly ASCII 1..127 (all the escapes), some above. */
            size_t len = (size_t)test_rand_below(40), w = 0;
            for (size_t k = 0; k < len; k++) {
                uint32_t cp = test_rand_below(4) ? 1 + (uint32_t)test_rand_below(127)
                                                 : 0x80 + (uint32_t)test_rand_below(0x10ff80);
                if (cp >= 0xd800 && cp <= 0xdfff)
                    cp = 0xfffd;
                if (cp < 0x80) {
                    rnd[w++] = (char)cp;
                } else if (cp < 0x800) {
                    rnd[w++] = (char)(0xc0 | cp >> 6), rnd[w++] = (char)(0x80 | (cp & 63));
                } else if (cp < 0x10000) {
                    rnd[w++] = (char)(0xe0 | cp >> 12), rnd[w++] = (char)(0x80 | ((cp >> 6) & 63));
                    rnd[w++] = (char)(0x80 | (cp & 63));
                } else {
                    rnd[w++] = (char)(0xf0 | cp >> 18), rnd[w++] = (char)(0x80 | ((cp >> 12) & 63));
                    rnd[w++] = (char)(0x80 | ((cp >> 6) & 63)), rnd[w++] = (char)(0x80 | (cp & 63));
                }
            }
            rnd[w] = 0;
        }
        /* As a value and as a key. */
        char *text;
        size_t len;
        FILE *f = open_memstream(&text, &len);
        fputs("v = ", f);
        cuzk_toml_write_string(f, s);
        fputs("\n[t]\n", f);
        cuzk_toml_write_string(f, s);
        fputs(" = 1\n", f);
        fclose(f);
        cuzk_toml_t *d = expect_ok(text, len);
        if (d) {
            const char *got = NULL;
            CHECK_MSG(cuzk_toml_get_string(d, "v", &got, NULL, NULL) == CUZK_OK && strcmp(got, s) == 0,
                      "round trip of \"%s\" (written %s)", s, text);
            const cuzk_toml_value_t *k = cuzk_toml_at(d, 2);
            CHECK(k && k->type == CUZK_TOML_INT && k->u.i == 1 && cuzk_toml_find(d, k->path) == k);
            cuzk_toml_free(d);
        }
        free(text);
    }
}

/* ---- no fixed limits: big tables, long strings and keys, long arrays ---- */

static void test_sizes(void)
{
    enum { NKEYS = 20000, NITEMS = 10000, BIG = 1 << 20 };
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    fputs("[big]\n", f);
    for (int i = 0; i < NKEYS; i++)
        fprintf(f, "key%d = %d\n", i, i * 3);
    fputs("arr = [\n", f);
    for (int i = 0; i < NITEMS; i++)
        fprintf(f, "  %d,\n", i);
    fputs("]\nlong = \"", f);
    for (int i = 0; i < BIG; i++)
        fputc('a' + i % 26, f);
    fputs("\"\n", f);
    for (int i = 0; i < 5000; i++)
        fputc('k', f);
    fputs(" = true\n", f);
    fputs("a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a = 1\n", f); /* 32 parts */
    fclose(f);
    cuzk_toml_t *d = expect_ok(text, len);
    free(text);
    if (!d)
        return;
    CHECK(cuzk_toml_count(d) == 1 + NKEYS + 1 + 1 + 1 + 32);
    int64_t v = 0;
    CHECK(cuzk_toml_get_int(d, "big.key12345", &v, NULL, NULL) == CUZK_OK && v == 12345 * 3);
    const cuzk_toml_value_t *arr = cuzk_toml_find(d, "big.arr");
    CHECK(arr && arr->u.arr.n == NITEMS && arr->u.arr.items[NITEMS - 1].u.i == NITEMS - 1);
    const cuzk_toml_value_t *s = cuzk_toml_find(d, "big.long");
    CHECK(s && strlen(s->u.s) == BIG && s->u.s[BIG - 1] == 'a' + (BIG - 1) % 26);
    cuzk_toml_free(d);
}

/* ---- random mutations: never a crash, always OK or "line N: ..." ---- */

static void check_doc(const cuzk_toml_t *d, int nlines)
{
    for (size_t i = 0; i < cuzk_toml_count(d); i++) {
        const cuzk_toml_value_t *v = cuzk_toml_at(d, i);
        CHECK(v->path && cuzk_toml_find(d, v->path) == v && v->line >= 1 && v->line <= nlines);
        if (v->type == CUZK_TOML_STRING)
            CHECK(strlen(v->u.s) < 1u << 20);
        if (v->type == CUZK_TOML_ARRAY)
            for (size_t k = 0; k < v->u.arr.n; k++)
                CHECK(v->u.arr.items[k].type != CUZK_TOML_ARRAY && v->u.arr.items[k].path);
    }
}

static void test_mutations(void)
{
    static const char alphabet[] = "[]{}\"'=.,#\\\n\r\t uUxob0123456789+-_eE:aAzZ\x00\x7f\xc3\xa9\xff\xef\xbb";
    tcase *cases;
    size_t ncases = read_cases(&cases), nseeds = 0;
    const char *seeds[128];
    for (size_t i = 0; i < ncases && nseeds < 128; i++)
        if (strncmp(cases[i].head, "=== ok", 6) == 0 || strstr(cases[i].head, "=== unsupported"))
            seeds[nseeds++] = cases[i].doc;
    size_t exlen;
    char *example = test_read_file("tests/server/config/cuzk.example.toml", &exlen);
    CHECK(example != NULL);
    if (example)
        seeds[nseeds++] = example;
    CHECK(nseeds > 5);
    /* CUZK_TOML_MUTATIONS=<n> for a longer run (under the sanitizer build). */
    const char *env = getenv("CUZK_TOML_MUTATIONS");
    int iters = env ? atoi(env) : 30000, accepted = 0;
    for (int it = 0; it < iters && nseeds; it++) {
        const char *seed = seeds[test_rand_below(nseeds)];
        size_t len = strlen(seed), cap = 2 * len + 64;
        char *buf = malloc(cap);
        memcpy(buf, seed, len);
        int edits = 1 + (int)test_rand_below(4);
        for (int e = 0; e < edits; e++) {
            size_t pos = len ? test_rand_below(len) : 0;
            char c = alphabet[test_rand_below(sizeof alphabet - 1)];
            switch (test_rand_below(5)) {
            case 0: if (len) buf[pos] = c; break;
            case 1:
                if (len + 1 < cap) {
                    memmove(buf + pos + 1, buf + pos, len - pos);
                    buf[pos] = c, len++;
                }
                break;
            case 2: if (len) memmove(buf + pos, buf + pos + 1, len - pos - 1), len--; break;
            case 3: len = pos; break;
            default: {
                size_t n = test_rand_below(16);
                if (pos + n <= len && len + n < cap) {
                    memmove(buf + pos + n, buf + pos, len - pos);
                    len += n;
                }
            }
            }
        }
        int nlines = 1;
        for (size_t k = 0; k < len; k++)
            nlines += buf[k] == '\n';
        cuzk_toml_t *d;
        cuzk_err_t err = {{0}};
        cuzk_status st = parse_exact(buf, len, &d, &err);
        int line = 0;
        if (st == CUZK_OK) {
            accepted++;
            check_doc(d, nlines);
            cuzk_toml_free(d);
        } else {
            CHECK_MSG(st == CUZK_ERR_FORMAT && sscanf(err.msg, "line %d: ", &line) == 1 && line >= 1 &&
                          line <= nlines,
                      "status %d \"%s\" (%d lines)", st, err.msg, nlines);
        }
        free(buf);
    }
    printf("mutations: %d documents, %d accepted\n", iters, accepted);
    free(example);
    for (size_t i = 0; i < ncases; i++) {
        free(cases[i].head);
        free(cases[i].doc);
        free(cases[i].expect);
    }
    free(cases);
}

int main(void)
{
    test_init("test_toml");
    test_cases();
    test_bytes();
    test_api();
    test_strings();
    test_sizes();
    test_mutations();
    return test_finish();
}
