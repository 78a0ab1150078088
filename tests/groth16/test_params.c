/* .vk and .params files: byte-exact writing (against @noble/curves point encodings placed at offsets
 * worked out by hand, and against the layout assembled independently), reading back at every check
 * level, and every kind of damage: truncation at each byte, over-long files, lying counts, bad flag
 * bits, off-curve / off-subgroup / non-canonical points and the point at infinity. Also the
 * circuit shape rules. */
#include <sys/stat.h>
#include "cuzk/params.h"
#include "test_params_util.h"

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decodes the first n bytes of a hex string that goes on (space-separated fields); n or -1. */
static long hex_n(const char *hex, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(hex[2 * i]), lo = hi < 0 ? -1 : hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)n;
}

/* ---- noble vectors at hand-computed offsets ------------------------------------------------------ */

typedef struct {
    cuzk_scalar_t k;
    uint8_t enc[192];
} noble_pt;

/* Reads the "<tag> <k> <compressed> <uncompressed>" lines of one tag, skipping k = 0 (infinity). */
static size_t noble_load(noble_pt *out, size_t cap, const char *text, const char *tag, size_t enc_len)
{
    size_t n = 0, tl = strlen(tag);
    for (const char *line = text; line && *line && n < cap; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        if (strncmp(line, tag, tl) != 0 || line[tl] != ' ')
            continue;
        const char *k = line + tl + 1;
        uint8_t kb[32];
        if (hex_n(k, kb, 32) != 32)
            continue;
        const char *comp = strchr(k, ' ');
        const char *unc = comp ? strchr(comp + 1, ' ') : NULL;
        if (!unc || hex_n(unc + 1, out[n].enc, enc_len) != (long)enc_len)
            continue;
        if (out[n].enc[0] & 0x40)
            continue;
        for (int i = 0; i < 4; i++) {
            uint64_t v = 0;
            for (int j = 0; j < 8; j++)
                v = v << 8 | kb[8 * (3 - i) + j];
            out[n].k.l[i] = v;
        }
        n++;
    }
    return n;
}

static void test_noble_layout(void)
{
    size_t len;
    char *text = test_read_file("tests/vectors/noble-bls12-381.txt", &len);
    CHECK_MSG(text != NULL, "cannot read tests/vectors/noble-bls12-381.txt");
    if (!text)
        return;
    static noble_pt p1[64], p2[64];
    size_t n1 = noble_load(p1, 64, text, "g1_mul", 96), n2 = noble_load(p2, 64, text, "g2_mul", 192);
    free(text);
    CHECK_MSG(n1 >= 12 && n2 >= 6, "noble vectors: %zu g1_mul, %zu g2_mul", n1, n2);
    if (n1 < 12 || n2 < 6)
        return;

    g1_aff g1[64];
    g2_aff g2[64];
    g1_aff gen1;
    g2_aff gen2;
    g1_generator(&gen1);
    g2_generator(&gen2);
    for (size_t i = 0; i < n1; i++) {
        g1_jac j, r;
        g1_jac_from_aff(&j, &gen1);
        g1_jac_mul(&r, &j, &p1[i].k);
        g1_jac_to_aff(&g1[i], &r);
    }
    for (size_t i = 0; i < n2; i++) {
        g2_jac j, r;
        g2_jac_from_aff(&j, &gen2);
        g2_jac_mul(&r, &j, &p2[i].k);
        g2_jac_to_aff(&g2[i], &r);
    }
    /* vk: g1[0], g1[1], g2[0], g2[1], g1[2], g2[2]; ic = g1[3..5]; h = g1[6..7]; l = g1[8];
     * a = none; b_g1 = g1[9..11]; b_g2 = g2[3..5]. */
    cuzk_groth16_pk_t pk = {0};
    pk.vk.alpha_g1 = g1[0], pk.vk.beta_g1 = g1[1], pk.vk.beta_g2 = g2[0];
    pk.vk.gamma_g2 = g2[1], pk.vk.delta_g1 = g1[2], pk.vk.delta_g2 = g2[2];
    pk.vk.ic = &g1[3], pk.vk.ic_len = 3;
    pk.h = &g1[6], pk.h_len = 2;
    pk.l = &g1[8], pk.l_len = 1;
    pk.a = NULL, pk.a_len = 0;
    pk.b_g1 = &g1[9], pk.b_g1_len = 3;
    pk.b_g2 = &g2[3], pk.b_g2_len = 3;

    cuzk_err_t err;
    const char *path = tp_path("noble.params"), *vkpath = tp_path("noble.vk");
    CHECK(cuzk_params_write(path, &pk, 2, &err) == CUZK_OK);
    CHECK(cuzk_params_vk_write(vkpath, &pk.vk, &err) == CUZK_OK);
    size_t flen = 0, vlen = 0;
    uint8_t *f = (uint8_t *)test_read_file(path, &flen);
    uint8_t *v = (uint8_t *)test_read_file(vkpath, &vlen);
    /* 868 + 3·96 = 1156 for the vk; then 4 + 2·96, 4 + 96, 4, 4 + 3·96, 4 + 3·192. */
    CHECK_MSG(vlen == 1156, ".vk size %zu", vlen);
    CHECK_MSG(flen == 1156 + 196 + 100 + 4 + 292 + 580, ".params size %zu", flen);
    CHECK(cuzk_params_file_size(&pk) == 2328);
    if (f && v && flen == 2328 && vlen == 1156) {
        CHECK(memcmp(f, v, 1156) == 0);
        struct {
            size_t off;
            const uint8_t *enc;
            size_t len;
        } at[] = {
            {0, p1[0].enc, 96},     {96, p1[1].enc, 96},    {192, p2[0].enc, 192},
            {384, p2[1].enc, 192},  {576, p1[2].enc, 96},   {672, p2[2].enc, 192},
            {868, p1[3].enc, 96},   {964, p1[4].enc, 96},   {1060, p1[5].enc, 96},
            {1160, p1[6].enc, 96},  {1256, p1[7].enc, 96},  {1356, p1[8].enc, 96},
            {1460, p1[9].enc, 96},  {1556, p1[10].enc, 96}, {1652, p1[11].enc, 96},
            {1752, p2[3].enc, 192}, {1944, p2[4].enc, 192}, {2136, p2[5].enc, 192},
        };
        for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
            CHECK_MSG(memcmp(f + at[i].off, at[i].enc, at[i].len) == 0, "point at byte %zu", at[i].off);
        static const struct {
            size_t off;
            uint8_t b3;
        } lens[] = {{864, 3}, {1156, 2}, {1352, 1}, {1452, 0}, {1456, 3}, {1748, 3}};
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            const uint8_t *q = f + lens[i].off;
            CHECK_MSG(q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == lens[i].b3, "length at byte %zu",
                      lens[i].off);
        }
    }
    free(f);
    free(v);
}

/* ---- random keys: write, read back, layout ------------------------------------------------------ */

static void test_random_roundtrip(void)
{
    for (int it = 0; it < 4; it++) {
        cuzk_groth16_pk_t pk;
        if (it == 0)
            tp_rand_key(&pk, 1, 0, 0, 0, 0, 0); /* empty sections */
        else
            tp_rand_key(&pk, 1 + test_rand_below(4), test_rand_below(8), test_rand_below(8),
                        test_rand_below(8), test_rand_below(8), test_rand_below(5));
        cuzk_err_t err = {{0}};
        const char *path = tp_path("rand.params"), *vkpath = tp_path("rand.vk");
        cuzk_status st = cuzk_params_write(path, &pk, 1 + it, &err);
        CHECK_MSG(st == CUZK_OK, "write: %s", err.msg);
        st = cuzk_params_vk_write(vkpath, &pk.vk, &err);
        CHECK_MSG(st == CUZK_OK, "vk write: %s", err.msg);

        tp_layout t;
        tp_layout_of(&t, &pk);
        uint8_t *want = tp_xmalloc(t.total);
        size_t wlen = tp_assemble(want, &pk, 0);
        size_t flen = 0, vlen = 0;
        uint8_t *f = (uint8_t *)test_read_file(path, &flen);
        uint8_t *v = (uint8_t *)test_read_file(vkpath, &vlen);
        CHECK(wlen == t.total && flen == wlen && cuzk_params_file_size(&pk) == wlen);
        CHECK(f && flen == wlen && memcmp(f, want, wlen) == 0);
        CHECK_MSG(vlen == 868 + 96 * pk.vk.ic_len && vlen == cuzk_params_vk_size(pk.vk.ic_len),
                  ".vk size %zu for ic_len %zu", vlen, pk.vk.ic_len);
        CHECK(v && vlen <= wlen && memcmp(v, want, vlen) == 0);

        /* in-memory vk codec */
        uint8_t *enc = tp_xmalloc(vlen);
        CHECK(cuzk_params_vk_encode(enc, vlen - 1, &pk.vk, &err) == CUZK_ERR_BAD_LENGTH);
        CHECK(cuzk_params_vk_encode(enc, vlen, &pk.vk, &err) == CUZK_OK && memcmp(enc, want, vlen) == 0);
        cuzk_groth16_vk_t vk;
        st = cuzk_params_vk_decode(&vk, enc, vlen, &err);
        CHECK_MSG(st == CUZK_OK && tp_vk_eq(&vk, &pk.vk), "vk decode: %s", err.msg);
        if (st == CUZK_OK)
            cuzk_groth16_vk_free(&vk);
        st = cuzk_params_vk_read(&vk, vkpath, &err);
        CHECK_MSG(st == CUZK_OK && tp_vk_eq(&vk, &pk.vk), "vk read: %s", err.msg);
        if (st == CUZK_OK)
            cuzk_groth16_vk_free(&vk);
        free(enc);

        for (int level = 0; level <= 2; level++) {
            cuzk_params_t *p = NULL;
            st = cuzk_params_open(&p, path, (cuzk_params_check)level, level, &err);
            CHECK_MSG(st == CUZK_OK, "open: %s", err.msg);
            if (st != CUZK_OK)
                continue;
            const cuzk_groth16_pk_t *key = cuzk_params_key(p);
            /* Lazy: lengths and vk at open, arrays only once loaded. */
            CHECK(key->h_len == pk.h_len && key->b_g2_len == pk.b_g2_len && key->h == NULL &&
                  key->b_g2 == NULL && tp_vk_eq(&key->vk, &pk.vk));
            CHECK(cuzk_params_decoded_bytes(p) == pk.vk.ic_len * sizeof(g1_aff));
            CHECK(cuzk_params_check_circuit(key, pk.vk.ic_len, pk.l_len, 0, 0, 0, 0, NULL) ==
                      CUZK_ERR_MISMATCH ||
                  pk.h_len == 0);
            st = cuzk_params_load(p, CUZK_PARAMS_SEC_L, &err);
            CHECK(st == CUZK_OK && (pk.l_len == 0 || key->l != NULL) && key->h == NULL);
            const cuzk_groth16_pk_t *full = NULL;
            st = cuzk_params_get(&full, p, &err);
            CHECK_MSG(st == CUZK_OK && full == key && tp_pk_eq(full, &pk), "load: %s", err.msg);
            size_t expect = sizeof(g1_aff) * (pk.vk.ic_len + pk.h_len + pk.l_len + pk.a_len + pk.b_g1_len) +
                            sizeof(g2_aff) * pk.b_g2_len;
            CHECK(cuzk_params_decoded_bytes(p) == expect);
            cuzk_params_unload(p, CUZK_PARAMS_SEC_H | CUZK_PARAMS_SEC_B_G2);
            CHECK(key->h == NULL && key->b_g2 == NULL && key->h_len == pk.h_len);
            CHECK(cuzk_params_decoded_bytes(p) ==
                  expect - sizeof(g1_aff) * pk.h_len - sizeof(g2_aff) * pk.b_g2_len);
            CHECK(cuzk_params_load(p, CUZK_PARAMS_SEC_ALL, &err) == CUZK_OK && tp_pk_eq(key, &pk));
            cuzk_params_close(p);
        }
        /* the same bytes from memory */
        cuzk_params_t *p = NULL;
        st = cuzk_params_open_buffer(&p, want, wlen, CUZK_PARAMS_CHECK_CURVE, 2, &err);
        const cuzk_groth16_pk_t *full = NULL;
        CHECK(st == CUZK_OK && cuzk_params_get(&full, p, &err) == CUZK_OK && tp_pk_eq(full, &pk));
        cuzk_params_close(p);

        free(want);
        free(f);
        free(v);
        cuzk_groth16_pk_free(&pk);
    }
    CHECK_MSG(tp_count(".tmp.") == 0, "a temporary file was left behind");
}

/* ---- damaged files ----------------------------------------------------------------------------- */

static cuzk_status open_bytes(const uint8_t *buf, size_t len, cuzk_params_check level, cuzk_err_t *err,
                              cuzk_params_t **out)
{
    cuzk_params_t *p = NULL;
    cuzk_status st = cuzk_params_open_buffer(&p, buf, len, level, 2, err);
    if (out)
        *out = p;
    else
        cuzk_params_close(p);
    return st;
}

/* The region a file cut at byte n ends in, as the reader's message must name it. */
static const char *cut_region(const tp_layout *t, size_t n, size_t ic_len)
{
    static const char *const len_msg[5] = {"truncated at the h length", "truncated at the l length",
                                           "truncated at the a length", "truncated at the b_g1 length",
                                           "truncated at the b_g2 length"};
    static const char *const sec_msg[5] = {"truncated in section h:", "truncated in section l:",
                                           "truncated in section a:", "truncated in section b_g1:",
                                           "truncated in section b_g2:"};
    if (n < 868)
        return "truncated in the verifying key";
    if (n < 868 + 96 * ic_len)
        return "truncated in vk.ic";
    for (int s = 4; s >= 0; s--)
        if (n >= t->len_at[s])
            return n < t->len_at[s] + 4 ? len_msg[s] : sec_msg[s];
    return "?";
}

static void test_truncated_and_overlong(void)
{
    cuzk_groth16_pk_t pk;
    tp_rand_key(&pk, 2, 3, 2, 2, 2, 2);
    tp_layout t;
    tp_layout_of(&t, &pk);
    uint8_t *buf = tp_xmalloc(t.total + 200);
    size_t len = tp_assemble(buf, &pk, 0);
    memset(buf + len, 0, 200);
    cuzk_err_t err;

    /* Every cut, from the empty file on: a format error naming where the file ends. */
    int bad = 0;
    for (size_t n = 0; n < len; n++) {
        cuzk_params_t *p = (cuzk_params_t *)1;
        err.msg[0] = 0;
        cuzk_status st = open_bytes(buf, n, CUZK_PARAMS_CHECK_NONE, &err, &p);
        const char *want = cut_region(&t, n, pk.vk.ic_len);
        if (st != CUZK_ERR_FORMAT || p != NULL || !strstr(err.msg, want)) {
            if (bad++ < 5)
                fprintf(stderr, "cut at %zu: status %d, message '%s', expected '%s'\n", n, st, err.msg,
                        want);
        }
    }
    CHECK_MSG(bad == 0, "%d cuts misreported", bad);

    /* Through the file path too, at each section boundary and in the middle of a point. */
    size_t cuts[] = {0, 1, 867, 868, 868 + 96 + 48, t.len_at[0], t.len_at[0] + 2, t.len_at[1] + 4 + 50,
                     t.len_at[4] + 4, t.len_at[4] + 4 + 192 + 100, len - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        const char *path = tp_path("cut.params");
        CHECK(tp_write_file(path, buf, cuts[i]) == 0);
        cuzk_params_t *p = NULL;
        err.msg[0] = 0;
        cuzk_status st = cuzk_params_open(&p, path, CUZK_PARAMS_CHECK_CURVE, 1, &err);
        CHECK_MSG(st == CUZK_ERR_FORMAT && p == NULL && strstr(err.msg, path) &&
                      strstr(err.msg, cut_region(&t, cuts[i], pk.vk.ic_len)),
                  "cut file at %zu: %d '%s'", cuts[i], st, err.msg);
        cuzk_params_close(p);
    }

    /* Over-long by 1 and by a whole point. */
    CHECK(open_bytes(buf, len + 1, CUZK_PARAMS_CHECK_NONE, &err, NULL) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "over-long: 1 bytes"));
    CHECK(open_bytes(buf, len + 192, CUZK_PARAMS_CHECK_NONE, &err, NULL) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "over-long"));
    CHECK(open_bytes(buf, len, CUZK_PARAMS_CHECK_NONE, &err, NULL) == CUZK_OK);

    /* Lying counts: no allocation is sized from them, each is caught by the table check. */
    const char *names[6] = {"vk.ic", "section h:", "section l:", "section a:", "section b_g1:",
                            "section b_g2:"};
    size_t at[6] = {864, t.len_at[0], t.len_at[1], t.len_at[2], t.len_at[3], t.len_at[4]};
    for (int k = 0; k < 6; k++) {
        uint8_t saved[4];
        memcpy(saved, buf + at[k], 4);
        uint32_t truth = (uint32_t)saved[0] << 24 | (uint32_t)saved[1] << 16 | (uint32_t)saved[2] << 8 | saved[3];
        uint32_t lies[3] = {0xffffffffu, 0x80000000u, truth + 1};
        for (int j = 0; j < 3; j++) {
            tp_put_u32(buf + at[k], lies[j]);
            err.msg[0] = 0;
            cuzk_status st = open_bytes(buf, len, CUZK_PARAMS_CHECK_NONE, &err, NULL);
            /* One more than the truth runs into the next field, so the error may surface in a later
             * section; the huge ones are caught at the field itself. */
            CHECK_MSG(st == CUZK_ERR_FORMAT && (j == 2 || strstr(err.msg, names[k])),
                      "count %u in %s: %d '%s'", lies[j], names[k], st, err.msg);
        }
        memcpy(buf + at[k], saved, 4);
    }

    /* .vk: wrong size either way, empty file, missing file. */
    size_t vlen = tp_assemble(buf, &pk, 1);
    cuzk_groth16_vk_t vk;
    CHECK(cuzk_params_vk_decode(&vk, buf, vlen - 1, &err) == CUZK_ERR_FORMAT && strstr(err.msg, "vk.ic"));
    CHECK(cuzk_params_vk_decode(&vk, buf, 100, &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "truncated in the verifying key"));
    CHECK(cuzk_params_vk_decode(&vk, buf, vlen + 7, &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "7 trailing bytes"));
    CHECK(cuzk_params_vk_decode(&vk, NULL, 0, &err) == CUZK_ERR_FORMAT);
    const char *vkpath = tp_path("cut.vk");
    CHECK(tp_write_file(vkpath, buf, 0) == 0);
    CHECK(cuzk_params_vk_read(&vk, vkpath, &err) == CUZK_ERR_FORMAT && strstr(err.msg, vkpath));
    CHECK(cuzk_params_vk_read(&vk, tp_path("missing.vk"), &err) == CUZK_ERR_IO);
    cuzk_params_t *p = NULL;
    CHECK(cuzk_params_open(&p, tp_path("missing.params"), CUZK_PARAMS_CHECK_NONE, 1, &err) == CUZK_ERR_IO &&
          p == NULL);
    CHECK(cuzk_params_open(&p, tp_dir, CUZK_PARAMS_CHECK_NONE, 1, &err) == CUZK_ERR_IO);
    CHECK(cuzk_params_open_buffer(&p, buf, len, (cuzk_params_check)7, 1, &err) == CUZK_ERR_INVALID_ARG);

    free(buf);
    cuzk_groth16_pk_free(&pk);
}

/* Offset of point i of section s (0..4) or, with s = -1, of ic point i. */
static size_t point_at(const tp_layout *t, int s, size_t i)
{
    if (s < 0)
        return t->ic + 96 * i;
    return t->len_at[s] + 4 + (s == 4 ? 192 : 96) * i;
}

/* Loads `sections` of the damaged bytes at `level`; returns the status and the message. */
static cuzk_status load_damaged(const uint8_t *buf, size_t len, cuzk_params_check level, unsigned sections,
                                cuzk_err_t *err)
{
    cuzk_params_t *p = NULL;
    cuzk_status st = cuzk_params_open_buffer(&p, buf, len, level, 3, err);
    if (st == CUZK_OK) {
        st = cuzk_params_load(p, sections, err);
        const cuzk_groth16_pk_t *k = cuzk_params_key(p);
        /* A section that failed stays undecoded; the others still load. */
        if (st != CUZK_OK && (sections & CUZK_PARAMS_SEC_A))
            CHECK(k->a == NULL && cuzk_params_load(p, CUZK_PARAMS_SEC_H, NULL) == CUZK_OK && k->h);
        cuzk_params_close(p);
    }
    return st;
}

/* A curve point outside the prime-order subgroup (random x until x³ + b is a square). */
static void off_subgroup_g1(g1_aff *r)
{
    do {
        fp x;
        uint64_t c[6];
        for (int i = 0; i < 6; i++)
            c[i] = test_rand64();
        c[5] &= 0x0fffffffffffffffull;
        fp_to_mont(&x, c);
        if (g1_aff_from_x(r, &x, false) && !g1_aff_in_subgroup(r))
            return;
    } while (1);
}

static void off_subgroup_g2(g2_aff *r)
{
    do {
        fp2 x;
        uint64_t c[6];
        for (int i = 0; i < 6; i++)
            c[i] = test_rand64();
        c[5] &= 0x0fffffffffffffffull;
        fp_to_mont(&x.c0, c);
        fp_from_u64(&x.c1, test_rand64());
        if (g2_aff_from_x(r, &x, false) && !g2_aff_in_subgroup(r))
            return;
    } while (1);
}

static void test_bad_points(void)
{
    cuzk_groth16_pk_t pk;
    tp_rand_key(&pk, 3, 4, 2, 5, 2, 3);
    tp_layout t;
    tp_layout_of(&t, &pk);
    uint8_t *buf = tp_xmalloc(t.total);
    size_t len = tp_assemble(buf, &pk, 0);
    uint8_t *orig = tp_xmalloc(len);
    memcpy(orig, buf, len);
    cuzk_err_t err;
    char want[64];

    /* Flag bits in a[3]: compressed, sign, infinity with a payload. */
    size_t a3 = point_at(&t, 2, 3);
    uint8_t flags[3] = {0x80, 0x20, 0x40};
    for (int k = 0; k < 3; k++) {
        buf[a3] |= flags[k];
        for (int level = 0; level <= 2; level++) {
            cuzk_status st = load_damaged(buf, len, (cuzk_params_check)level, CUZK_PARAMS_SEC_A, &err);
            snprintf(want, sizeof want, "a[3] at byte %zu", a3);
            CHECK_MSG(st == CUZK_ERR_BAD_FLAGS && strstr(err.msg, want) && strstr(err.msg, "flag"),
                      "flag %02x: %d '%s'", flags[k], st, err.msg);
        }
        memcpy(buf, orig, len);
    }
    /* Lazy: a bad point in a is not seen when only h is loaded. */
    buf[a3] |= 0x80;
    CHECK(load_damaged(buf, len, CUZK_PARAMS_CHECK_SUBGROUP, CUZK_PARAMS_SEC_H | CUZK_PARAMS_SEC_L, &err) ==
          CUZK_OK);
    memcpy(buf, orig, len);

    /* The point at infinity in every query section, at every level (bellperson rejects it). */
    for (int s = 0; s < 5; s++) {
        size_t off = point_at(&t, s, 1);
        size_t plen = s == 4 ? 192 : 96;
        memset(buf + off, 0, plen);
        buf[off] = 0x40;
        static const char *const nm[5] = {"h[1]", "l[1]", "a[1]", "b_g1[1]", "b_g2[1]"};
        for (int level = 0; level <= 2; level++) {
            cuzk_status st = load_damaged(buf, len, (cuzk_params_check)level, 1u << s, &err);
            CHECK_MSG(st == CUZK_ERR_FORMAT && strstr(err.msg, nm[s]) && strstr(err.msg, "infinity"),
                      "infinity in %s: %d '%s'", nm[s], st, err.msg);
        }
        memcpy(buf, orig, len);
    }
    /* All-zero bytes (no flag): not a point; it must not read back as infinity. */
    memset(buf + point_at(&t, 0, 2), 0, 96);
    CHECK(load_damaged(buf, len, CUZK_PARAMS_CHECK_NONE, CUZK_PARAMS_SEC_H, &err) == CUZK_ERR_NOT_ON_CURVE &&
          strstr(err.msg, "h[2]"));
    memcpy(buf, orig, len);
    memset(buf + point_at(&t, 4, 0), 0, 192);
    CHECK(load_damaged(buf, len, CUZK_PARAMS_CHECK_NONE, CUZK_PARAMS_SEC_B_G2, &err) == CUZK_ERR_NOT_ON_CURVE);
    memcpy(buf, orig, len);

    /* Non-canonical: x = p in l[0] (and the top flag bits clear). */
    static const uint8_t P_BE[48] = {
        0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b, 0xa7, 0xb6, 0x43, 0x4b, 0xac, 0xd7,
        0x64, 0x77, 0x4b, 0x84, 0xf3, 0x85, 0x12, 0xbf, 0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0, 0xf6, 0x24,
        0x1e, 0xab, 0xff, 0xfe, 0xb1, 0x53, 0xff, 0xff, 0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab};
    memcpy(buf + point_at(&t, 1, 0), P_BE, 48);
    for (int level = 0; level <= 2; level++)
        CHECK(load_damaged(buf, len, (cuzk_params_check)level, CUZK_PARAMS_SEC_L, &err) ==
                  CUZK_ERR_NOT_CANONICAL &&
              strstr(err.msg, "l[0]"));
    memcpy(buf, orig, len);
    memcpy(buf + point_at(&t, 4, 2) + 144, P_BE, 48); /* y.c0 of b_g2[2] */
    CHECK(load_damaged(buf, len, CUZK_PARAMS_CHECK_NONE, CUZK_PARAMS_SEC_B_G2, &err) == CUZK_ERR_NOT_CANONICAL &&
          strstr(err.msg, "b_g2[2]"));
    memcpy(buf, orig, len);

    /* Off the curve (y changed in its last bit): only NONE lets it through. */
    buf[point_at(&t, 3, 1) + 95] ^= 1;
    buf[point_at(&t, 4, 1) + 191] ^= 1;
    CHECK(load_damaged(buf, len, CUZK_PARAMS_CHECK_NONE, CUZK_PARAMS_SEC_ALL, &err) == CUZK_OK);
    for (int level = 1; level <= 2; level++) {
        CHECK(load_damaged(buf, len, (cuzk_params_check)level, CUZK_PARAMS_SEC_B_G1, &err) ==
                  CUZK_ERR_NOT_ON_CURVE &&
              strstr(err.msg, "b_g1[1]") && strstr(err.msg, "not on the curve"));
        CHECK(load_damaged(buf, len, (cuzk_params_check)level, CUZK_PARAMS_SEC_B_G2, &err) ==
                  CUZK_ERR_NOT_ON_CURVE &&
              strstr(err.msg, "b_g2[1]"));
    }
    memcpy(buf, orig, len);

    /* On the curve, outside the subgroup: only SUBGROUP notices. */
    g1_aff q1;
    g2_aff q2;
    off_subgroup_g1(&q1);
    off_subgroup_g2(&q2);
    cuzk_g1_serialize(buf + point_at(&t, 0, 3), &q1);
    cuzk_g2_serialize(buf + point_at(&t, 4, 2), &q2);
    CHECK(load_damaged(buf, len, CUZK_PARAMS_CHECK_CURVE, CUZK_PARAMS_SEC_ALL, &err) == CUZK_OK);
    CHECK(load_damaged(buf, len, CUZK_PARAMS_CHECK_SUBGROUP, CUZK_PARAMS_SEC_H, &err) ==
              CUZK_ERR_NOT_IN_SUBGROUP &&
          strstr(err.msg, "h[3]"));
    CHECK(load_damaged(buf, len, CUZK_PARAMS_CHECK_SUBGROUP, CUZK_PARAMS_SEC_B_G2, &err) ==
              CUZK_ERR_NOT_IN_SUBGROUP &&
          strstr(err.msg, "b_g2[2]"));
    memcpy(buf, orig, len);

    /* The verifying key is checked in full whatever the level (bellperson's VerifyingKey::read). */
    cuzk_g1_serialize(buf + point_at(&t, -1, 2), &q1);
    CHECK(load_damaged(buf, len, CUZK_PARAMS_CHECK_NONE, 0, &err) == CUZK_ERR_NOT_IN_SUBGROUP &&
          strstr(err.msg, "vk.ic[2]"));
    memcpy(buf, orig, len);
    cuzk_g2_serialize(buf + 384, &q2);
    CHECK(load_damaged(buf, len, CUZK_PARAMS_CHECK_NONE, 0, &err) == CUZK_ERR_NOT_IN_SUBGROUP &&
          strstr(err.msg, "vk.gamma_g2 at byte 384"));
    memcpy(buf, orig, len);
    buf[96 + 95] ^= 1;
    CHECK(load_damaged(buf, len, CUZK_PARAMS_CHECK_NONE, 0, &err) == CUZK_ERR_NOT_ON_CURVE &&
          strstr(err.msg, "vk.beta_g1"));
    memcpy(buf, orig, len);
    /* Infinity: accepted in the six fixed points, rejected in ic. */
    memset(buf, 0, 96);
    buf[0] = 0x40;
    memset(buf + 672, 0, 192);
    buf[672] = 0x40;
    cuzk_params_t *p = NULL;
    CHECK(cuzk_params_open_buffer(&p, buf, len, CUZK_PARAMS_CHECK_NONE, 1, &err) == CUZK_OK &&
          g1_aff_is_inf(&cuzk_params_key(p)->vk.alpha_g1) && g2_aff_is_inf(&cuzk_params_key(p)->vk.delta_g2));
    cuzk_params_close(p);
    cuzk_groth16_vk_t vk;
    CHECK(cuzk_params_vk_decode(&vk, buf, 868 + 96 * 3, &err) == CUZK_OK && g1_aff_is_inf(&vk.alpha_g1));
    cuzk_groth16_vk_free(&vk);
    memset(buf + point_at(&t, -1, 0), 0, 96);
    buf[point_at(&t, -1, 0)] = 0x40;
    CHECK(cuzk_params_vk_decode(&vk, buf, 868 + 96 * 3, &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, "vk.ic[0] at byte 868") && strstr(err.msg, "infinity"));
    memcpy(buf, orig, len);

    free(orig);
    free(buf);
    cuzk_groth16_pk_free(&pk);
}

/* ---- writing errors and the shape rules ---------------------------------------------------------- */

static void test_write_errors(void)
{
    cuzk_groth16_pk_t pk;
    tp_rand_key(&pk, 1, 2, 1, 1, 1, 1);
    cuzk_err_t err;
    char path[700];
    snprintf(path, sizeof path, "%s/no-such-dir/x.params", tp_dir);
    CHECK(cuzk_params_write(path, &pk, 1, &err) == CUZK_ERR_IO);
    CHECK(cuzk_params_vk_write(path, &pk.vk, &err) == CUZK_ERR_IO);
    size_t saved = pk.h_len;
    pk.h_len = (size_t)UINT32_MAX + 1; /* refused before anything is read or written */
    CHECK(cuzk_params_write(tp_path("big.params"), &pk, 1, &err) == CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "section h"));
    pk.h_len = saved;
    g1_aff *l = pk.l;
    pk.l = NULL;
    CHECK(cuzk_params_write(tp_path("big.params"), &pk, 1, &err) == CUZK_ERR_INVALID_ARG);
    pk.l = l;
    CHECK(tp_count("big.params") == 0 && tp_count(".tmp.") == 0);

    /* Overwriting an existing file replaces it whole. */
    const char *dst = tp_path("over.params");
    CHECK(tp_write_file(dst, "old", 3) == 0);
    CHECK(cuzk_params_write(dst, &pk, 1, &err) == CUZK_OK);
    struct stat st;
    CHECK(stat(dst, &st) == 0 && (uint64_t)st.st_size == cuzk_params_file_size(&pk));
    cuzk_groth16_pk_free(&pk);
}

static void test_check_circuit(void)
{
    /* 3 inputs, 5 aux, 5 constraints: 8 rows, m = 8, h = 7; a = 3 + 2, b = 1 + 3. */
    cuzk_groth16_pk_t pk = {0};
    pk.vk.ic_len = 3, pk.h_len = 7, pk.l_len = 5, pk.a_len = 5, pk.b_g1_len = 4, pk.b_g2_len = 4;
    cuzk_err_t err;
    CHECK(cuzk_params_check_circuit(&pk, 3, 5, 5, 2, 1, 3, &err) == CUZK_OK);
    /* 6 constraints: 9 rows, m = 16 */
    CHECK(cuzk_params_check_circuit(&pk, 3, 5, 6, 2, 1, 3, &err) == CUZK_ERR_MISMATCH &&
          strstr(err.msg, "h_len is 7, the circuit needs 15"));
    CHECK(cuzk_params_check_circuit(&pk, 4, 5, 4, 2, 1, 3, &err) == CUZK_ERR_MISMATCH &&
          strstr(err.msg, "ic_len is 3, the circuit needs 4"));
    CHECK(cuzk_params_check_circuit(&pk, 3, 6, 5, 2, 1, 3, &err) == CUZK_ERR_MISMATCH &&
          strstr(err.msg, "l_len is 5, the circuit needs 6"));
    CHECK(cuzk_params_check_circuit(&pk, 3, 5, 5, 3, 1, 3, &err) == CUZK_ERR_MISMATCH &&
          strstr(err.msg, "a_len is 5, the circuit needs 6"));
    CHECK(cuzk_params_check_circuit(&pk, 3, 5, 5, 2, 2, 3, &err) == CUZK_ERR_MISMATCH &&
          strstr(err.msg, "b_g1_len is 4, the circuit needs 5"));
    pk.b_g1_len = 5;
    CHECK(cuzk_params_check_circuit(&pk, 3, 5, 5, 2, 2, 3, &err) == CUZK_ERR_MISMATCH &&
          strstr(err.msg, "b_g2_len is 4, the circuit needs 5"));
    pk.b_g1_len = 4;
    /* the first mismatch is the one named */
    CHECK(cuzk_params_check_circuit(&pk, 3, 9, 9, 2, 1, 3, &err) == CUZK_ERR_MISMATCH &&
          strstr(err.msg, "h_len is 7, the circuit needs 15"));
    /* 1 constraint + 1 input: m = 2, h = 1; 0 + 1: m = 1, h = 0 */
    cuzk_groth16_pk_t q = {0};
    q.vk.ic_len = 1, q.h_len = 1, q.a_len = 1;
    CHECK(cuzk_params_check_circuit(&q, 1, 0, 1, 0, 0, 0, &err) == CUZK_OK);
    q.h_len = 0;
    CHECK(cuzk_params_check_circuit(&q, 1, 0, 0, 0, 0, 0, &err) == CUZK_OK);
    CHECK(cuzk_params_check_circuit(&q, 1, 0, 1, 0, 0, 0, &err) == CUZK_ERR_MISMATCH);
    /* inconsistent density counts and an impossible domain */
    CHECK(cuzk_params_check_circuit(&pk, 3, 5, 5, 6, 1, 3, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_params_check_circuit(&pk, 3, 5, ((size_t)1 << 32), 2, 1, 3, &err) == CUZK_ERR_UNSUPPORTED);
}

int main(void)
{
    test_init("test_params");
    tp_init();
    test_noble_layout();
    test_random_roundtrip();
    test_truncated_and_overlong();
    test_bad_points();
    test_write_errors();
    test_check_circuit();
    tp_cleanup();
    return test_finish();
}
