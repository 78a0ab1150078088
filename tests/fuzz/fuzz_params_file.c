/* libFuzzer target for .params reading: cuzk_params_open_buffer (section walker, verifying key) and
 * cuzk_params_load / _unload / _get at each check level. The first input byte is a mode:
 *   bits 0-1  check level (3 = an unknown level, which open must refuse);
 *   bit 2     "repair": the rest is not a file but a recipe for one whose section table is always
 *             consistent (see build_repaired), so that the point decoders are reached;
 *   bit 4     two decoding threads instead of one;
 *   bits 5-7  the order in which sections are loaded one by one.
 * Every answer is checked against a reference worked out here: the status and message of open (table
 * walked independently, points by the curve layer's decoders), each section's status and the index
 * and offset of its first bad point, the decoded points (re-encoded, they give the input bytes back),
 * which arrays exist after each call, and cuzk_params_decoded_bytes. */
#include "fuzz_util.h"

enum { NSEC = 5 };
static const char *const SEC_NAME[NSEC] = {"h", "l", "a", "b_g1", "b_g2"};
static const char *const VK_NAME[6] = {"alpha_g1", "beta_g1", "beta_g2", "gamma_g2", "delta_g1", "delta_g2"};
static const size_t VK_OFF[6] = {0, 96, 192, 384, 576, 672};

static size_t psize(int s) { return s == 4 ? 192 : 96; }

typedef struct {
    size_t off, n;
} ref_sec;

typedef struct {
    cuzk_status st;
    char where[96]; /* a fragment the error message must contain */
    size_t ic_len;
    ref_sec sec[NSEC];
} ref_open;

/* The section table as docs/FORMATS.md lays it out, walked with 64-bit arithmetic. */
static bool ref_table(const uint8_t *d, size_t len, ref_open *r)
{
    if (len < 868)
        return false;
    r->ic_len = fz_be32(d + 864);
    uint64_t off = 868 + 96 * (uint64_t)r->ic_len;
    for (int s = 0; s < NSEC; s++) {
        if (off + 4 > len)
            return false;
        r->sec[s].n = fz_be32(d + off);
        off += 4;
        r->sec[s].off = off;
        off += (uint64_t)r->sec[s].n * psize(s);
        if (off > len)
            return false;
    }
    return off == len;
}

static void ref_open_of(const uint8_t *d, size_t len, ref_open *r)
{
    memset(r, 0, sizeof *r);
    if (!ref_table(d, len, r)) {
        r->st = CUZK_ERR_FORMAT;
        return;
    }
    for (int k = 0; k < 6; k++) {
        bool g2 = k == 2 || k == 3 || k == 5;
        cuzk_status st = g2 ? fz_ref_g2(d + VK_OFF[k], CUZK_PARAMS_CHECK_SUBGROUP, true)
                            : fz_ref_g1(d + VK_OFF[k], CUZK_PARAMS_CHECK_SUBGROUP, true);
        if (st != CUZK_OK) {
            r->st = st;
            snprintf(r->where, sizeof r->where, "vk.%s at byte %zu", VK_NAME[k], VK_OFF[k]);
            return;
        }
    }
    for (size_t i = 0; i < r->ic_len; i++) {
        cuzk_status st = fz_ref_g1(d + 868 + 96 * i, CUZK_PARAMS_CHECK_SUBGROUP, false);
        if (st != CUZK_OK) {
            r->st = st;
            snprintf(r->where, sizeof r->where, "vk.ic[%zu] at byte %zu", i, 868 + 96 * i);
            return;
        }
    }
}

/* Status of loading section s, and the message fragment naming its first bad point. */
static cuzk_status ref_section(const uint8_t *d, const ref_open *r, int s, cuzk_params_check level,
                               char *where, size_t cap)
{
    for (size_t i = 0; i < r->sec[s].n; i++) {
        size_t off = r->sec[s].off + i * psize(s);
        cuzk_status st = s == 4 ? fz_ref_g2(d + off, level, false) : fz_ref_g1(d + off, level, false);
        if (st != CUZK_OK) {
            snprintf(where, cap, "%s[%zu] at byte %zu", SEC_NAME[s], i, off);
            return st;
        }
    }
    return CUZK_OK;
}

static const void *key_arr(const cuzk_groth16_pk_t *pk, int s)
{
    const void *a[NSEC] = {pk->h, pk->l, pk->a, pk->b_g1, pk->b_g2};
    return a[s];
}

/* The arrays that exist are exactly the loaded non-empty sections, and they hold the input's points. */
static void check_key(const uint8_t *d, const ref_open *r, const cuzk_params_t *p, unsigned loaded,
                      cuzk_params_check level)
{
    const cuzk_groth16_pk_t *pk = cuzk_params_key(p);
    size_t bytes = r->ic_len * sizeof(cuzk_g1_affine_t);
    for (int s = 0; s < NSEC; s++) {
        const void *arr = key_arr(pk, s);
        bool have = (loaded >> s & 1) && r->sec[s].n > 0;
        REQUIRE((arr != NULL) == have);
        if (!have)
            continue;
        for (size_t i = 0; i < r->sec[s].n; i++) {
            const uint8_t *in = d + r->sec[s].off + i * psize(s);
            if (s == 4)
                fz_require_g2((const cuzk_g2_affine_t *)arr + i, in, level);
            else
                fz_require_g1((const cuzk_g1_affine_t *)arr + i, in, level);
        }
        bytes += r->sec[s].n * (s == 4 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t));
    }
    REQUIRE(cuzk_params_decoded_bytes(p) == bytes);
}

static void check_vk(const uint8_t *d, const ref_open *r, const cuzk_groth16_vk_t *vk)
{
    const cuzk_g1_affine_t *g1[3] = {&vk->alpha_g1, &vk->beta_g1, &vk->delta_g1};
    const cuzk_g2_affine_t *g2[3] = {&vk->beta_g2, &vk->gamma_g2, &vk->delta_g2};
    static const int g1k[3] = {0, 1, 4}, g2k[3] = {2, 3, 5};
    for (int i = 0; i < 3; i++) {
        fz_require_g1(g1[i], d + VK_OFF[g1k[i]], CUZK_PARAMS_CHECK_SUBGROUP);
        fz_require_g2(g2[i], d + VK_OFF[g2k[i]], CUZK_PARAMS_CHECK_SUBGROUP);
    }
    REQUIRE(vk->ic_len == r->ic_len);
    for (size_t i = 0; i < r->ic_len; i++)
        fz_require_g1(&vk->ic[i], d + 868 + 96 * i, CUZK_PARAMS_CHECK_SUBGROUP);
}

static void fuzz_file(const uint8_t *d, size_t len, int mode)
{
    int lv = mode & 3;
    cuzk_params_check level = (cuzk_params_check)lv;
    int threads = mode & 0x10 ? 2 : 1;
    cuzk_params_t *p = NULL;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_params_open_buffer(&p, d, len, level, threads, &err);
    if (lv == 3) {
        REQUIRE(st == CUZK_ERR_INVALID_ARG && p == NULL && err.msg[0]);
        return;
    }
    ref_open r;
    ref_open_of(d, len, &r);
    REQUIRE(st == r.st);
    if (st != CUZK_OK) {
        REQUIRE(p == NULL && err.msg[0]);
        REQUIRE(!r.where[0] || strstr(err.msg, r.where));
        return;
    }
    const cuzk_groth16_pk_t *pk = cuzk_params_key(p);
    check_vk(d, &r, &pk->vk);
    const size_t lens[NSEC] = {pk->h_len, pk->l_len, pk->a_len, pk->b_g1_len, pk->b_g2_len};
    for (int s = 0; s < NSEC; s++)
        REQUIRE(lens[s] == r.sec[s].n);
    check_key(d, &r, p, 0, level);

    /* Each section alone, in an order taken from the mode. */
    cuzk_status want[NSEC];
    char where[NSEC][96];
    for (int s = 0; s < NSEC; s++)
        want[s] = ref_section(d, &r, s, level, where[s], sizeof where[s]);
    unsigned loaded = 0;
    int rot = mode >> 5;
    for (int k = 0; k < NSEC; k++) {
        int s = (k + rot) % NSEC;
        err.msg[0] = 0;
        st = cuzk_params_load(p, 1u << s, &err);
        REQUIRE(st == want[s]);
        if (st == CUZK_OK)
            loaded |= 1u << s;
        else
            REQUIRE(strstr(err.msg, where[s]) != NULL);
        check_key(d, &r, p, loaded, level);
    }

    /* Unload some, then everything at once: sections load in file order up to the first bad one. */
    unsigned drop = (unsigned)(len * 7 + (size_t)mode) & CUZK_PARAMS_SEC_ALL;
    cuzk_params_unload(p, drop);
    loaded &= ~drop;
    check_key(d, &r, p, loaded, level);
    const cuzk_groth16_pk_t *got = NULL;
    err.msg[0] = 0;
    st = cuzk_params_get(&got, p, &err);
    int first_bad = NSEC;
    for (int s = 0; s < NSEC && first_bad == NSEC; s++)
        if (want[s] != CUZK_OK)
            first_bad = s;
    if (first_bad == NSEC) {
        REQUIRE(st == CUZK_OK && got == pk);
        loaded = CUZK_PARAMS_SEC_ALL;
    } else {
        REQUIRE(st == want[first_bad] && strstr(err.msg, where[first_bad]) && got == NULL);
        loaded |= (1u << first_bad) - 1;
    }
    check_key(d, &r, p, loaded, level);
    cuzk_params_close(p);
}

/* A file with a consistent table from a recipe: header bytes h[0..5] (missing ones read as 0), then
 * a stream of point bytes. ic_len = h0 & 3; with h0 & 4 the verifying key is made of valid points,
 * otherwise its points come from the stream. Section s has h[1+s] & 7 points, or 65 + (h[1+s] & 7)
 * for the first section with bit 7 set (more than one chunk of the subgroup level's grain). Each
 * point takes the next bytes of the stream while there are enough, and a valid point after that. */
static size_t build_repaired(uint8_t *out, const uint8_t *in, size_t len)
{
    uint8_t h[6] = {0};
    size_t hn = len < 6 ? len : 6;
    memcpy(h, in, hn);
    in += hn, len -= hn;
    size_t pos = 0, o = 0;
    int fill = 0;
#define PUT_POINT(size, table)                                                                     \
    do {                                                                                           \
        if (len - pos >= (size))                                                                   \
            memcpy(out + o, in + pos, (size)), pos += (size);                                      \
        else                                                                                       \
            memcpy(out + o, table[fill++ % FZ_TABLE], (size));                                     \
        o += (size);                                                                               \
    } while (0)
    bool vk_valid = h[0] & 4;
    for (int k = 0; k < 6; k++) {
        bool g2 = k == 2 || k == 3 || k == 5;
        if (vk_valid)
            memcpy(out + o, g2 ? fz_g2_enc[k] : fz_g1_enc[k], g2 ? 192 : 96), o += g2 ? 192 : 96;
        else if (g2)
            PUT_POINT(192, fz_g2_enc);
        else
            PUT_POINT(96, fz_g1_enc);
    }
    size_t ic = h[0] & 3;
    fz_put_be32(out + o, (uint32_t)ic), o += 4;
    for (size_t i = 0; i < ic; i++) {
        if (vk_valid)
            memcpy(out + o, fz_g1_enc[i], 96), o += 96;
        else
            PUT_POINT(96, fz_g1_enc);
    }
    bool big_used = false;
    for (int s = 0; s < NSEC; s++) {
        size_t n = h[1 + s] & 7;
        if ((h[1 + s] & 0x80) && !big_used)
            n += 65, big_used = true;
        fz_put_be32(out + o, (uint32_t)n), o += 4;
        for (size_t i = 0; i < n; i++) {
            if (s == 4)
                PUT_POINT(192, fz_g2_enc);
            else
                PUT_POINT(96, fz_g1_enc);
        }
    }
#undef PUT_POINT
    return o;
}

#define REPAIRED_MAX (868 + 3 * 96 + NSEC * 4 + 4 * 7 * 96 + 7 * 192 + 72 * 192)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_tables_init();
    const char *dir = getenv("CUZK_FUZZ_SEEDS");
    if (!dir || !*dir)
        return 0;
    /* Raw files at each level: a small valid key; one with an empty section and the point at
     * infinity in the verifying key; recipes for repaired files. */
    static uint8_t f[4096];
    size_t o = 0;
    static const int vk_g2[6] = {0, 0, 1, 1, 0, 1};
    for (int k = 0; k < 6; k++)
        memcpy(f + 1 + o, vk_g2[k] ? fz_g2_enc[k] : fz_g1_enc[k], vk_g2[k] ? 192 : 96),
            o += vk_g2[k] ? 192 : 96;
    fz_put_be32(f + 1 + o, 2), o += 4;
    memcpy(f + 1 + o, fz_g1_enc[6], 96), o += 96;
    memcpy(f + 1 + o, fz_g1_enc[7], 96), o += 96;
    static const size_t counts[NSEC] = {3, 2, 2, 1, 2};
    for (int s = 0; s < NSEC; s++) {
        fz_put_be32(f + 1 + o, (uint32_t)counts[s]), o += 4;
        for (size_t i = 0; i < counts[s]; i++)
            memcpy(f + 1 + o, s == 4 ? fz_g2_enc[i + s] : fz_g1_enc[i + s], psize(s)), o += psize(s);
    }
    static const uint8_t modes[4] = {0x00, 0x01, 0x12, 0x61};
    char name[64];
    for (int m = 0; m < 4; m++) {
        f[0] = modes[m];
        snprintf(name, sizeof name, "valid-mode%02x", modes[m]);
        fz_seed(dir, name, f, 1 + o);
    }
    /* alpha_g1 at infinity, section l empty */
    memset(f + 1, 0, 96);
    f[1] = 0x40;
    size_t l_at = 868 + 2 * 96 + 4 + 3 * 96;
    fz_put_be32(f + 1 + l_at, 0);
    memmove(f + 1 + l_at + 4, f + 1 + l_at + 4 + 2 * 96, o - (l_at + 4 + 2 * 96));
    f[0] = 0x01;
    fz_seed(dir, "vk-infinity-empty-l", f, 1 + o - 2 * 96);
    static const uint8_t recipes[][8] = {
        {0x04, 0x04, 0x03, 0x02, 0x01, 0x02, 0x01, 0x00}, /* valid vk, small sections, stream empty */
        {0x06, 0x06, 0x81, 0x00, 0x00, 0x00, 0x01, 0x00}, /* subgroup level, 66 points in h */
        {0x14, 0x05, 0x00, 0x00, 0x00, 0x00, 0x81, 0x40}, /* 2 threads, big b_g2, a stray byte */
        {0x05, 0x07, 0x01, 0x01, 0x01, 0x01, 0x01, 0xff}, /* curve level */
    };
    for (size_t i = 0; i < sizeof recipes / sizeof recipes[0]; i++) {
        snprintf(name, sizeof name, "recipe-%zu", i);
        fz_seed(dir, name, recipes[i], sizeof recipes[i]);
    }
    exit(0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    if (len < 1)
        return 0;
    int mode = data[0];
    if (mode & 4) {
        static uint8_t buf[REPAIRED_MAX];
        size_t n = build_repaired(buf, data + 1, len - 1);
        /* an exact-size copy, so that a read past the end is caught */
        uint8_t *copy = malloc(n);
        memcpy(copy, buf, n);
        fuzz_file(copy, n, mode);
        free(copy);
    } else {
        fuzz_file(data + 1, len - 1, mode);
    }
    return 0;
}
