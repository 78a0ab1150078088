/* Curio's C1 wrapper reader and its base64 decoder. The decoder against RFC 4648's vectors and OpenSSL's
 * EVP_EncodeBlock / EVP_DecodeBlock (an independent implementation) on random data, and its refusals (length,
 * every character outside the alphabet, misplaced padding) naming the offset. The wrapper is built here with
 * OpenSSL's base64, keys in every order, JSON whitespace and escapes, and must give the same C1; duplicate,
 * unknown and missing fields, wrong types, trailing data and truncation are refused naming the field. */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/vanilla/base64.h"
#include "filecoin/vanilla/c1_json.h"
#include "testkit/c1_synthetic.h"
#include "test_util.h"

/* ---- base64 ---- */

static void test_rfc_vectors(void)
{
    static const char *v[][2] = {{"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},        {"foo", "Zm9v"},
                                 {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint8_t out[8];
        size_t n = 99;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_base64_decode(out, &n, v[i][1], strlen(v[i][1]), &err) == CUZK_OK, "%s: %s", v[i][1], err.msg);
        CHECK_MSG(n == strlen(v[i][0]) && memcmp(out, v[i][0], n) == 0, "%s", v[i][1]);
    }
}

/* Random data: OpenSSL encodes, we decode; and our decoder agrees with OpenSSL's on the bytes. */
static void test_random_round_trip(void)
{
    size_t cap = 3 << 20;
    uint8_t *data = malloc(cap), *back = malloc(cap), *ref = malloc(cap + 3);
    char *text = malloc(cap / 3 * 4 + 8);
    for (int r = 0; r < 300 && data && back && ref && text; r++) {
        size_t n = r < 260 ? (size_t)r : (size_t)test_rand_below(cap);
        test_rand_bytes(data, n);
        int tl = EVP_EncodeBlock((unsigned char *)text, data, (int)n);
        size_t got = 0;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_base64_decode(back, &got, text, (size_t)tl, &err) == CUZK_OK, "length %zu: %s", n, err.msg);
        CHECK_MSG(got == n && memcmp(back, data, n) == 0, "length %zu: decoded %zu bytes", n, got);
        int rl = EVP_DecodeBlock(ref, (unsigned char *)text, tl); /* pads count as zero bytes there */
        CHECK(rl >= 0 && (size_t)rl >= n && memcmp(ref, data, n) == 0);
    }
    free(data), free(back), free(ref), free(text);
}

static void expect_refused(const char *s, size_t n, const char *want)
{
    uint8_t out[64];
    size_t got;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_base64_decode(out, &got, s, n, &err);
    CHECK_MSG(st == CUZK_ERR_FORMAT && strstr(err.msg, want), "\"%.*s\": status %d, \"%s\", wanted \"%s\"", (int)n, s,
              st, err.msg, want);
}

static int in_alphabet(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
}

static void test_refusals(void)
{
    expect_refused("Zm9", 3, "not a multiple of 4");
    expect_refused("Zm9vY", 5, "not a multiple of 4");
    expect_refused("Zm9v\nYmFy", 9, "not a multiple of 4");
    expect_refused("Zg==Zm8=", 8, "at 2");    /* padding inside */
    expect_refused("Z===", 4, "at 1");        /* three pads */
    expect_refused("====", 4, "at 0");
    expect_refused("Zm=v", 4, "at 2");        /* '=' before the last characters */
    expect_refused("Zm9v Ym=", 8, "at 4");
    /* Every byte outside the alphabet (and '=' outside the padding) at a random place of a longer text. */
    char t[48];
    for (int c = 0; c < 256; c++) {
        if (in_alphabet(c))
            continue;
        for (size_t i = 0; i < sizeof t; i++)
            t[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[test_rand_below(64)];
        size_t at = test_rand_below(sizeof t - 2); /* not among the last two: there '=' is padding */
        t[at] = (char)c;
        char want[16];
        snprintf(want, sizeof want, "at %zu", at);
        expect_refused(t, sizeof t, want);
    }
    /* Left-over bits of the padding are ignored, as OpenSSL's and Go's decoders do. */
    uint8_t out[4], ref[4];
    size_t n;
    CHECK(cuzk_base64_decode(out, &n, "Zh==", 4, NULL) == CUZK_OK && n == 1 && out[0] == 'f');
    CHECK(EVP_DecodeBlock(ref, (const unsigned char *)"Zh==", 4) == 3 && ref[0] == 'f');
    CHECK(cuzk_base64_decode(out, &n, "Zm9=", 4, NULL) == CUZK_OK && n == 2 && out[0] == 'f' && out[1] == 'o');
}

/* ---- the wrapper ---- */

static char *J, *B64; /* a 2KiB synthetic C1's JSON and its base64 (OpenSSL's) */
static size_t JL, BL;
static cuzk_fc_c1_t C1;

typedef struct {
    char *s;
    size_t n, cap;
} buf_t;

static void put(buf_t *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

static void puts_(buf_t *b, const char *s)
{
    put(b, s, strlen(s));
}

static const char *ws_between(int style)
{
    static const char *w[] = {"", " ", "\n  ", "\t", "\r\n"};
    return style ? w[test_rand_below(5)] : "";
}

/* The wrapper with the fields in `order` (a permutation of 0 SectorNum, 1 Phase1Out, 2 SectorSize), random
 * whitespace when ws, and Phase1Out's '/' written "\/" and some letters as \u00XX when esc. */
static char *wrapper(const int order[3], int ws, int esc, uint64_t num, uint64_t size, size_t *len)
{
    buf_t b = {0};
    puts_(&b, ws_between(ws));
    puts_(&b, "{");
    for (int k = 0; k < 3; k++) {
        char t[64];
        if (k)
            puts_(&b, ","), puts_(&b, ws_between(ws));
        puts_(&b, ws_between(ws));
        switch (order[k]) {
        case 0: snprintf(t, sizeof t, "\"SectorNum\"%s:%s%llu", ws_between(ws), ws_between(ws), (unsigned long long)num); break;
        case 1: snprintf(t, sizeof t, "\"Phase1Out\"%s:%s\"", ws_between(ws), ws_between(ws)); break;
        default: snprintf(t, sizeof t, "\"SectorSize\"%s:%s%llu", ws_between(ws), ws_between(ws), (unsigned long long)size);
        }
        puts_(&b, t);
        if (order[k] != 1)
            continue;
        if (!esc) {
            put(&b, B64, BL);
        } else {
            for (size_t i = 0; i < BL; i++) {
                char c = B64[i], u[8];
                if (c == '/')
                    puts_(&b, "\\/");
                else if (test_rand_below(50) == 0)
                    snprintf(u, sizeof u, "\\u00%02x", (unsigned char)c), puts_(&b, u);
                else
                    put(&b, &c, 1);
            }
        }
        puts_(&b, "\"");
    }
    puts_(&b, ws_between(ws));
    puts_(&b, "}");
    puts_(&b, ws_between(ws));
    *len = b.n;
    return b.s;
}

static void expect_ok(const char *w, size_t n, uint64_t num, const char *what)
{
    cuzk_fc_c1_t c;
    cuzk_fc_c1_wrapper_info_t info;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_fc_c1_parse_any(&c, &info, w, n, 0, &err);
    CHECK_MSG(st == CUZK_OK, "%s: %s", what, err.msg);
    if (st != CUZK_OK)
        return;
    CHECK(info.wrapped && info.sector_num == num && info.sector_size == 2048);
    CHECK_MSG(cuzk_fc_c1_compare(&c, &C1) == 0, "%s: another C1", what);
    cuzk_fc_c1_free(&c);
}

static void expect_bad(const char *w, size_t n, cuzk_status want_st, const char *want, const char *what)
{
    cuzk_fc_c1_t c;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_fc_c1_parse_any(&c, NULL, w, n, 0, &err);
    CHECK_MSG(st == want_st && strstr(err.msg, want) && c.arena == NULL && c.vproofs == NULL,
              "%s: status %d \"%s\", wanted %d and \"%s\"", what, st, err.msg, want_st, want);
}

static void test_forms(void)
{
    static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int o = 0; o < 6; o++)
        for (int ws = 0; ws < 2; ws++)
            for (int esc = 0; esc < 2; esc++) {
                size_t n;
                uint64_t num = o == 5 ? UINT64_MAX : test_rand64() >> test_rand_below(64);
                char *w = wrapper(orders[o], ws, esc, num, 2048, &n), what[64];
                snprintf(what, sizeof what, "order %d, whitespace %d, escapes %d", o, ws, esc);
                expect_ok(w, n, num, what);
                free(w);
            }
}

/* w with the first occurrence of from replaced by to. */
static char *edit(const char *w, size_t n, const char *from, const char *to, size_t *out_n)
{
    const char *at = strstr(w, from);
    CHECK_MSG(at != NULL, "pattern %s", from);
    if (!at)
        at = w + n;
    size_t pre = (size_t)(at - w), fl = at < w + n ? strlen(from) : 0, tl = strlen(to);
    char *x = malloc(n - fl + tl + 1);
    memcpy(x, w, pre);
    memcpy(x + pre, to, tl);
    memcpy(x + pre + tl, at + fl, n - pre - fl);
    *out_n = n - fl + tl;
    x[*out_n] = 0;
    return x;
}

static void test_refused_wrappers(void)
{
    static const int order[3] = {0, 1, 2};
    size_t n, xn;
    char *w = wrapper(order, 0, 0, 7, 2048, &n);
    struct {
        const char *from, *to, *want;
        cuzk_status st;
    } m[] = {
        {"\"SectorNum\":7", "\"SectorNum\":7,\"SectorNum\":7", "SectorNum: duplicate field", CUZK_ERR_FORMAT},
        {"\"SectorSize\":2048", "\"SectorSize\":2048,\"SectorSize\":2048", "SectorSize: duplicate", CUZK_ERR_FORMAT},
        {"\"SectorSize\":2048", "\"SectorSize\":2048,\"Phase1Out\":\"\"", "Phase1Out: duplicate", CUZK_ERR_FORMAT},
        {"\"SectorSize\":2048", "\"SectorSize\":2048,\"Other\":1", "unknown field \"Other\"", CUZK_ERR_FORMAT},
        {"\"SectorNum\":7,", "", "missing field SectorNum", CUZK_ERR_FORMAT},
        {",\"SectorSize\":2048", "", "missing field SectorSize", CUZK_ERR_FORMAT},
        {"\"SectorNum\":7", "\"SectorNum\":\"7\"", "SectorNum: expected an unsigned integer", CUZK_ERR_FORMAT},
        {"\"SectorNum\":7", "\"SectorNum\":-7", "SectorNum: expected an unsigned integer", CUZK_ERR_FORMAT},
        {"\"SectorNum\":7", "\"SectorNum\":null", "SectorNum: expected an unsigned integer", CUZK_ERR_FORMAT},
        {"\"SectorNum\":7", "\"SectorNum\":07", "SectorNum: integer with a leading zero", CUZK_ERR_FORMAT},
        {"\"SectorNum\":7", "\"SectorNum\":7.0", "SectorNum: expected an unsigned integer, found a fraction",
         CUZK_ERR_FORMAT},
        {"\"SectorNum\":7", "\"SectorNum\":7e2", "SectorNum: expected an unsigned integer", CUZK_ERR_FORMAT},
        {"\"SectorNum\":7", "\"SectorNum\":18446744073709551616", "SectorNum: integer out of range", CUZK_ERR_FORMAT},
        {"\"SectorSize\":2048", "\"SectorSize\":true", "SectorSize: expected an unsigned integer", CUZK_ERR_FORMAT},
        {"\"SectorSize\":2048", "\"SectorSize\":4096", "SectorSize 4096", CUZK_ERR_MISMATCH},
        {"\"Phase1Out\":\"", "\"Phase1Out\":[\"", "Phase1Out: expected a base64 string", CUZK_ERR_FORMAT},
        {"\"Phase1Out\":\"", "\"Phase1Out\":\"====", "Phase1Out: base64: invalid character '=' at 0", CUZK_ERR_FORMAT},
        {"\"Phase1Out\":\"", "\"Phase1Out\":\"\\u00e9AAA", "Phase1Out: base64: invalid character 0x80 at 0",
         CUZK_ERR_FORMAT},
        {"\"Phase1Out\":\"", "\"Phase1Out\":\"\\/\\x", "Phase1Out: unknown escape", CUZK_ERR_FORMAT},
        {"\"Phase1Out\":\"", "\"Phase1Out\":\"\\u12x", "Phase1Out: bad \\u escape", CUZK_ERR_FORMAT},
        {"\"Phase1Out\":\"", "\"Phase1Out\":\"\\/\n", "Phase1Out: control character", CUZK_ERR_FORMAT},
        {"\"Phase1Out\":\"", "\"Phase1Out\":\"AA\nA", "Phase1Out: base64: invalid character 0x0a at 2",
         CUZK_ERR_FORMAT},
        {"\"Phase1Out\":\"", "\"Phase1Out\":\"AAAA", "c1 json", CUZK_ERR_FORMAT},
        {"\"Phase1Out\":\"", "\"Phase1Out\":\"A", "Phase1Out: base64: length", CUZK_ERR_FORMAT},
        {"\"Phase1Out\"", "\"Phase1Out\" 5", "Phase1Out: expected ':'", CUZK_ERR_FORMAT},
        {",\"SectorSize\"", " \"SectorSize\"", "expected ',' or '}'", CUZK_ERR_FORMAT},
        {"2048}", "2048}}", "trailing data", CUZK_ERR_FORMAT},
        {"2048}", "2048,}", "expected a field name", CUZK_ERR_FORMAT},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        char *x = edit(w, n, m[i].from, m[i].to, &xn), what[96];
        snprintf(what, sizeof what, "case %zu (%s -> %s)", i, m[i].from, m[i].to);
        expect_bad(x, xn, m[i].st, m[i].want, what);
        free(x);
    }
    /* ASCII JSON never puts '/' in base64 ("Pz8/" is "???"): that "\/" is read as '/' shows in what the C1
     * parser gets. */
    const char *slash = "{\"SectorNum\":1,\"Phase1Out\":\"Pz8\\/\",\"SectorSize\":2048}";
    expect_bad(slash, strlen(slash), CUZK_ERR_FORMAT, "c1 json: byte 0: registered_proof: expected '{', found '?'", "\\/");
    expect_bad("{}", 2, CUZK_ERR_FORMAT, "registered_proof", "{} is not a wrapper"); /* no wrapper key first */
    const char *empty = "{\"SectorNum\":1,\"Phase1Out\":\"\",\"SectorSize\":2048}";
    expect_bad(empty, strlen(empty), CUZK_ERR_FORMAT, "c1 json", "empty Phase1Out");
    /* Every truncation outside the base64 text, and some inside it. */
    const char *b = strstr(w, "\"Phase1Out\":\"") + 13;
    size_t b0 = (size_t)(b - w), b1 = b0 + BL;
    for (size_t cut = 0; cut < n; cut++) {
        if (cut > b0 + 4 && cut < b1 - 4 && test_rand_below(BL / 64) != 0)
            continue;
        char what[48];
        snprintf(what, sizeof what, "cut at %zu of %zu", cut, n);
        cuzk_fc_c1_t c;
        cuzk_err_t err = {{0}};
        cuzk_status st = cuzk_fc_c1_parse_any(&c, NULL, w, cut, 0, &err);
        CHECK_MSG(st == CUZK_ERR_FORMAT && c.arena == NULL, "%s: status %d \"%s\"", what, st, err.msg);
        if (cut >= b0 && cut <= b1)
            CHECK_MSG(strstr(err.msg, "Phase1Out") != NULL || strstr(err.msg, "c1 json") != NULL, "%s: %s", what,
                      err.msg);
    }
    free(w);
}

int main(void)
{
    test_init("test_c1_wrapper");
    test_rfc_vectors();
    test_random_round_trip();
    test_refusals();
    uint8_t sb[32];
    test_rand_bytes(sb, 32);
    const cuzk_fc_seal_proof_t *p = NULL;
    CHECK(cuzk_fc_seal_proof_parse(&p, "StackedDrg2KiBV1_1", NULL) == CUZK_OK);
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_fc_c1_synthetic(&C1, p, 1000, 7, sb, 0, 1, &err) == CUZK_OK, "%s", err.msg);
    CHECK(cuzk_fc_c1_json_write(&J, &JL, &C1, NULL) == CUZK_OK);
    B64 = malloc(JL / 3 * 4 + 8);
    BL = (size_t)EVP_EncodeBlock((unsigned char *)B64, (const unsigned char *)J, (int)JL);
    test_forms();
    test_refused_wrappers();
    free(B64);
    free(J);
    cuzk_fc_c1_free(&C1);
    return test_finish();
}
