/* The constraint-system cache file (version 2, the compact matrices): save → load round trips (one-byte
 * and two-byte coefficient indices, long rows); the header and checksums recomputed here from
 * docs/FORMATS.md; truncated, extended, bit-flipped, wrong-magic and wrong-version files, and files with
 * correct checksums but broken rules (row lengths, long rows, columns, indices, table entries, densities),
 * all rejected with a message; failed writes (missing directory, target a directory, file-size limit)
 * leave no file behind. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "circuits/circuits.h"
#include "cuzk/cs.h"
#include "ff/fr.h"
#include "test_util.h"

static char dir[256];

/* ---- the checksum, written from docs/FORMATS.md ---- */
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t spec_checksum(const uint8_t *p, size_t len)
{
    const uint64_t P1 = 0x9E3779B97F4A7C15ULL, P2 = 0xC2B2AE3D27D4EB4FULL;
    uint64_t v[4] = {P1, 2 * P1, 3 * P1, 4 * P1};
    for (size_t i = 0; i * 8 < len; i++) {
        uint64_t w = 0;
        for (size_t b = 0; b < 8 && i * 8 + b < len; b++)
            w |= (uint64_t)p[i * 8 + b] << (8 * b);
        v[i % 4] = rotl((v[i % 4] ^ w) * P2, 31);
    }
    uint64_t h = len;
    for (int j = 0; j < 4; j++)
        h = rotl((h ^ v[j]) * P1, 27);
    h ^= h >> 33, h *= P2, h ^= h >> 29, h *= P1, h ^= h >> 32;
    return h;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* The spec's layout: a 512-byte header, then per matrix (A, B, C) row_len, long_rows, col, idx, table,
 * then the three bitmaps, each section 64-byte aligned. */
enum { HDR = 512, NSEC = 18, ROW_LEN = 0, LONG = 1, COL = 2, IDX = 3, TABLE = 4, DENS = 15, SUMS = 136, HSUM = 504 };

static void sections(const uint8_t *h, uint64_t off[NSEC], uint64_t size[NSEC], uint64_t *total)
{
    uint64_t ni = get64(h + 16), na = get64(h + 24), rows = get64(h + 32);
    for (int k = 0; k < 3; k++) {
        uint64_t nnz = get64(h + 40 + 8 * k), nl = get64(h + 88 + 8 * k), tl = get64(h + 112 + 8 * k);
        uint64_t *sz = size + 5 * k;
        sz[ROW_LEN] = rows, sz[LONG] = 16 * nl, sz[COL] = 4 * nnz, sz[IDX] = nnz * (tl <= 256 ? 1 : 2);
        sz[TABLE] = 32 * tl;
    }
    size[DENS] = size[DENS + 2] = (na + 63) / 64 * 8;
    size[DENS + 1] = (ni + 63) / 64 * 8;
    uint64_t o = HDR;
    for (int s = 0; s < NSEC; s++) {
        off[s] = o;
        o = (o + size[s] + 63) & ~63ULL;
    }
    *total = o;
}

/* Recomputes every checksum of a (modified) file image, so only the structural checks can object. */
static void fix_checksums(uint8_t *f)
{
    uint64_t off[NSEC], size[NSEC], total;
    sections(f, off, size, &total);
    for (int s = 0; s < NSEC; s++)
        put64(f + SUMS + 8 * s, spec_checksum(f + off[s], size[s]));
    put64(f + HSUM, spec_checksum(f, HSUM));
}

static void path_of(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", dir, name); }

static uint8_t *slurp(const char *path, size_t *len) { return (uint8_t *)test_read_file(path, len); }

static void spit(const char *path, const uint8_t *p, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(p, 1, len, f) == len);
    if (f)
        fclose(f);
}

/* Both records' CSR forms (expanded here) and bitmaps are equal. */
static bool rec_equal(cuzk_cs_record_t *x, cuzk_cs_record_t *y)
{
    if (cuzk_cs_record_expand(x, NULL) != CUZK_OK || cuzk_cs_record_expand(y, NULL) != CUZK_OK)
        return false;
    const cuzk_r1cs_t *a = &x->r1cs, *b = &y->r1cs;
    if (a->num_inputs != b->num_inputs || a->num_aux != b->num_aux ||
        a->num_constraints != b->num_constraints)
        return false;
    const cuzk_csr_t *ma[3] = {&a->a, &a->b, &a->c}, *mb[3] = {&b->a, &b->b, &b->c};
    for (int k = 0; k < 3; k++) {
        size_t rows = a->num_constraints, nnz = ma[k]->row_start[rows];
        if (memcmp(ma[k]->row_start, mb[k]->row_start, (rows + 1) * 8) ||
            memcmp(ma[k]->col, mb[k]->col, nnz * 4) || memcmp(ma[k]->coeff, mb[k]->coeff, nnz * 32))
            return false;
    }
    size_t wa = (a->num_aux + 63) / 64, wi = (a->num_inputs + 63) / 64;
    return !memcmp(x->a_aux_density, y->a_aux_density, wa * 8) &&
           !memcmp(x->b_aux_density, y->b_aux_density, wa * 8) &&
           !memcmp(x->b_input_density, y->b_input_density, wi * 8);
}

/* Loading path must fail with CUZK_ERR_FORMAT and a message containing `needle` (if given). */
static void expect_format(const char *path, const char *needle, const char *what)
{
    cuzk_cs_record_t r;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_cs_record_load(&r, path, &err);
    CHECK_MSG(st == CUZK_ERR_FORMAT, "%s: status %d (%s)", what, (int)st, err.msg);
    CHECK_MSG(err.msg[0] && (!needle || strstr(err.msg, needle)), "%s: message '%s' lacks '%s'", what,
              err.msg, needle ? needle : "");
    CHECK(r.m.a.row_len == NULL && r.m.c.table == NULL && r.r1cs.a.row_start == NULL &&
          r.a_aux_density == NULL); /* nothing handed out */
}

static size_t dir_entries(const char *d)
{
    DIR *dp = opendir(d);
    size_t n = 0;
    struct dirent *e;
    while (dp && (e = readdir(dp)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (dp)
        closedir(dp);
    return n;
}

/* A random circuit's record (compact form only) and, when wit is given, its assignment; with bits, the
 * bit-decomposition circuit instead (coefficients ±1 and powers of two: one-byte indices). */
static void make_record_of(cuzk_cs_record_t *rec, cuzk_cs_t **wit, const circuit_random_params *p, bool bits)
{
    circuit_bits_params bp = {p->seed, 64};
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, CUZK_CS_RECORD, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    bits ? circuit_bits_synthesize(cs, &bp) : circuit_random_synthesize(cs, p);
    CHECK(cuzk_cs_take_record_compact(cs, rec, NULL) == CUZK_OK);
    CHECK(rec->r1cs.a.row_start == NULL);
    cuzk_cs_free(cs);
    if (wit) {
        CHECK(cuzk_cs_new(wit, CUZK_CS_WITNESS, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
        bits ? circuit_bits_synthesize(*wit, &bp) : circuit_random_synthesize(*wit, p);
    }
}

static void make_record(cuzk_cs_record_t *rec, cuzk_cs_t **wit, const circuit_random_params *p)
{
    make_record_of(rec, wit, p, false);
}

/* make_record, redrawing p->seed until the random circuit's A has long rows (255 terms and more): with
 * max_terms 700 most seeds give a few, some none (seed 0x7726db1d8c334ee9 in corrupt below). After 64
 * draws the last one is kept as it is; the callers check the shape. */
static void make_record_with_long_rows(cuzk_cs_record_t *rec, cuzk_cs_t **wit, circuit_random_params *p)
{
    for (int tries = 1;; tries++) {
        make_record(rec, wit, p);
        if (rec->m.a.num_long > 0 || tries == 64)
            return;
        cuzk_cs_record_free(rec);
        if (wit)
            cuzk_cs_free(*wit);
        p->seed = test_rand64();
    }
}

static void round_trip(void)
{
    char path[512];
    path_of(path, sizeof path, "rt.r1cs");
    bool saw_long = false, saw_wide = false, saw_narrow = false;
    for (int it = 0; it < 6; it++) {
        circuit_random_params p = {test_rand64(), 1 + test_rand_below(70), 1 + test_rand_below(90),
                                   it == 0 ? 0 : test_rand_below(400), 1 + (unsigned)test_rand_below(6)};
        cuzk_cs_record_t rec, back;
        cuzk_cs_t *wit;
        if (it == 4) { /* rows of 255 terms and more: long rows */
            p.num_aux = 900, p.num_constraints = 12, p.max_terms = 700;
            make_record_with_long_rows(&rec, &wit, &p);
        } else {
            make_record_of(&rec, &wit, &p, it == 5);
        }
        saw_long |= rec.m.a.num_long + rec.m.b.num_long + rec.m.c.num_long > 0;
        saw_wide |= rec.m.a.idx16 != NULL, saw_narrow |= rec.m.a.idx8 != NULL;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_cs_record_save(&rec, path, &err) == CUZK_OK, "%s", err.msg);
        CHECK_MSG(cuzk_cs_record_load(&back, path, &err) == CUZK_OK, "%s", err.msg);
        CHECK(rec_equal(&rec, &back));
        cuzk_cs_counts_t c1, c2;
        cuzk_cs_record_counts(&rec, &c1), cuzk_cs_record_counts(&back, &c2);
        CHECK(c1.a_aux_density == c2.a_aux_density && c1.b_input_density == c2.b_input_density &&
              c1.b_aux_density == c2.b_aux_density);
        /* the loaded record proves the same: a·b = c with the witness */
        cuzk_groth16_witness_t w;
        cuzk_cs_abc_t abc;
        CHECK(cuzk_cs_record_witness(&w, &abc, &back, wit, 2, NULL) == CUZK_OK);
        for (size_t k = 0; k < w.num_constraints; k++) {
            fr ab;
            fr_mul(&ab, &w.a[k], &w.b[k]);
            CHECK(fr_eq(&ab, &w.c[k]));
        }
        cuzk_cs_abc_free(&abc);
        /* the file follows the spec: header fields, size and checksums recomputed here */
        size_t len;
        uint8_t *f = slurp(path, &len);
        CHECK(f && memcmp(f, "CUZKR1CS", 8) == 0 && f[8] == 2 && f[12] == 0 && f[13] == 2);
        uint64_t off[NSEC], size[NSEC], total;
        sections(f, off, size, &total);
        CHECK(len == total && get64(f + 16) == rec.m.num_inputs && get64(f + 24) == rec.m.num_aux);
        CHECK(get64(f + 64) == c1.a_aux_density && get64(f + 72) == c1.b_input_density);
        CHECK(get64(f + HSUM) == spec_checksum(f, HSUM));
        for (int s = 0; s < NSEC; s++)
            CHECK(get64(f + SUMS + 8 * s) == spec_checksum(f + off[s], size[s]));
        /* the table holds Montgomery limbs, 1 then −1 first; the first A term's coefficient is its entry */
        fr m1;
        fr_neg(&m1, &FR_ONE);
        CHECK(memcmp(f + off[TABLE], &FR_ONE, 32) == 0 && memcmp(f + off[TABLE] + 32, &m1, 32) == 0);
        if (get64(f + 40)) {
            unsigned i = get64(f + 112) <= 256 ? f[off[IDX]] : (unsigned)(f[off[IDX]] | f[off[IDX] + 1] << 8);
            CHECK(memcmp(f + off[TABLE] + 32 * i, &rec.r1cs.a.coeff[0], 32) == 0);
        }
        free(f);
        cuzk_cs_record_free(&back);
        cuzk_cs_record_free(&rec);
        cuzk_cs_free(wit);
    }
    CHECK(saw_long && saw_wide && saw_narrow);
    CHECK(dir_entries(dir) == 1);
    unlink(path);
}

/* Saves f with a change (checksums recomputed) and expects the loader to name it. */
static void expect_changed(const char *bad, uint8_t *g, size_t len, const char *needle, const char *what)
{
    fix_checksums(g);
    spit(bad, g, len);
    expect_format(bad, needle, what);
}

static void corrupt(void)
{
    char good[512], bad[512];
    path_of(good, sizeof good, "good.r1cs");
    path_of(bad, sizeof bad, "bad.r1cs");
    /* random coefficients: more than 256 in A (two-byte indices), a few long rows */
    circuit_random_params p = {test_rand64(), 3, 900, 40, 700};
    cuzk_cs_record_t rec;
    make_record_with_long_rows(&rec, NULL, &p);
    bool shape = rec.m.a.idx16 && rec.m.a.num_long > 0;
    CHECK(shape);
    if (!shape) { /* the cases below assume it */
        cuzk_cs_record_free(&rec);
        return;
    }
    CHECK(cuzk_cs_record_save(&rec, good, NULL) == CUZK_OK);
    cuzk_cs_record_free(&rec);
    size_t len;
    uint8_t *f = slurp(good, &len), *g = malloc(len + 64);
    uint64_t off[NSEC], size[NSEC], total;
    sections(f, off, size, &total);

    /* truncations and trailing data */
    size_t cuts[] = {0, 7, 100, 255, 256, 511, 512, 513, (size_t)off[COL] + 3, len / 2, len - 64, len - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        spit(bad, f, cuts[i]);
        expect_format(bad, "truncated", "truncated");
    }
    memcpy(g, f, len), memset(g + len, 0, 64);
    spit(bad, g, len + 64);
    expect_format(bad, "trailing", "extended");

    /* single bit flips anywhere: all caught (a flip changes one word: the checksum always sees it) */
    for (int i = 0; i < 300; i++) {
        memcpy(g, f, len);
        size_t pos = i < 256 ? (size_t)i * 7 % HDR : test_rand_below(len);
        g[pos] ^= (uint8_t)(1u << test_rand_below(8));
        spit(bad, g, len);
        char what[64];
        snprintf(what, sizeof what, "bit flip at %zu", pos);
        expect_format(bad, NULL, what);
    }
    /* magic and version, named as such */
    memcpy(g, f, len), g[0] = 'X';
    spit(bad, g, len);
    expect_format(bad, "magic", "magic");
    memcpy(g, f, len), g[8] = 3;
    spit(bad, g, len);
    expect_format(bad, "version 3", "version");
    memcpy(g, f, len), g[8] = 1, fix_checksums(g);
    spit(bad, g, len);
    expect_format(bad, "version 1", "version 1 (the CSR form) with a valid checksum");

    /* consistent checksums, broken contents: the structural checks must object */
    const uint64_t r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                           0x73eda753299d7d48ULL};
    uint64_t tl_a = get64(f + 112), tl_b = get64(f + 120);
    memcpy(g, f, len), put64(g + off[COL], 0xffffff);
    expect_changed(bad, g, len, "A.col", "column out of range");
    memcpy(g, f, len), g[off[5 + IDX]] = (uint8_t)tl_b, g[off[5 + IDX] + 1] = (uint8_t)(tl_b >> 8);
    if (tl_b <= 256)
        g[off[5 + IDX]] = (uint8_t)(tl_b < 256 ? tl_b : 0); /* one-byte indices: past the table if it can be */
    if (tl_b < 256 || tl_b > 256)
        expect_changed(bad, g, len, "B.idx", "index past the table");
    memcpy(g, f, len), g[off[IDX]] = 0xff, g[off[IDX] + 1] = 0xff;
    if (tl_a < 65536)
        expect_changed(bad, g, len, "A.idx", "two-byte index past the table");
    memcpy(g, f, len), memcpy(g + off[TABLE], r, 32);
    expect_changed(bad, g, len, "A.table", "table entry 0 is not 1");
    memcpy(g, f, len), memcpy(g + off[TABLE] + 64, r, 32);
    expect_changed(bad, g, len, "not below the modulus", "table entry = r");
    memcpy(g, f, len), memset(g + off[10 + TABLE] + 64, 0, 32);
    if (get64(f + 128) > 2)
        expect_changed(bad, g, len, "zero", "table entry zero");
    memcpy(g, f, len), memcpy(g + off[TABLE] + 96, g + off[TABLE] + 64, 32);
    expect_changed(bad, g, len, "twice", "table entry repeated");
    /* row lengths: one more term in row 0 than the file holds; a row marked long without its pair; a pair
     * whose row is not marked long */
    memcpy(g, f, len), g[off[ROW_LEN]] = g[off[ROW_LEN]] == 254 ? 253 : 254;
    expect_changed(bad, g, len, NULL, "row length changed");
    size_t plain = 0;
    while (plain < get64(f + 32) && f[off[ROW_LEN] + plain] == 255)
        plain++;
    memcpy(g, f, len), g[off[ROW_LEN] + plain] = 255;
    expect_changed(bad, g, len, "A.long_rows", "row marked long without a pair");
    uint64_t long_row = get64(f + off[LONG]);
    memcpy(g, f, len), g[off[ROW_LEN] + long_row] = 200;
    expect_changed(bad, g, len, "A.long_rows", "pair for a row not marked long");
    memcpy(g, f, len), put64(g + off[LONG] + 8, 254);
    expect_changed(bad, g, len, "A.long_rows", "long row shorter than 255");
    /* densities and their popcounts */
    memcpy(g, f, len);
    for (size_t w = 0; w < size[DENS] / 8; w++) { /* clear the lowest set bit of the first non-zero word */
        uint64_t v = get64(g + off[DENS] + 8 * w);
        if (v) {
            put64(g + off[DENS] + 8 * w, v & (v - 1));
            break;
        }
    }
    expect_changed(bad, g, len, "a_aux_density", "density bit cleared");
    memcpy(g, f, len), put64(g + off[DENS + 1], get64(g + off[DENS + 1]) | 1ULL << 63);
    expect_changed(bad, g, len, "b_input_density", "stray density bit");
    memcpy(g, f, len), put64(g + 64, get64(g + 64) + 1);
    expect_changed(bad, g, len, "density counts", "popcount");
    /* columns out of order within a row: swap the first two terms of a row with two or more */
    memcpy(g, f, len);
    for (uint64_t row = 0, t = 0, li = 0; row < get64(g + 32); row++) {
        uint64_t n = g[off[ROW_LEN] + row];
        if (n == 255)
            n = get64(g + off[LONG] + 16 * li++ + 8);
        if (n >= 2) {
            uint32_t c0, c1;
            memcpy(&c0, g + off[COL] + 4 * t, 4), memcpy(&c1, g + off[COL] + 4 * t + 4, 4);
            memcpy(g + off[COL] + 4 * t, &c1, 4), memcpy(g + off[COL] + 4 * t + 4, &c0, 4);
            break;
        }
        t += n;
    }
    expect_changed(bad, g, len, "order", "unordered columns");
    /* a non-zero padding byte */
    for (int s = 0; s + 1 < NSEC; s++)
        if (off[s + 1] > off[s] + size[s]) {
            memcpy(g, f, len), g[off[s] + size[s]] = 1;
            spit(bad, g, len);
            expect_format(bad, "padding", "padding");
            break;
        }
    /* header counts (header checksum fixed): sizes that overflow or exceed the file, tables out of range */
    struct {
        size_t at;
        uint64_t v;
        const char *needle;
    } hdr[] = {{40, UINT64_MAX / 8, NULL},     {24, 1ULL << 40, "out of range"}, {112, 1, "table entries"},
               {120, 65537, "table entries"}, {96, 1ULL << 40, "long rows"},    {104, get64(f + 104) + 1, NULL}};
    for (size_t i = 0; i < sizeof hdr / sizeof hdr[0]; i++) {
        memcpy(g, f, len), put64(g + hdr[i].at, hdr[i].v), put64(g + HSUM, spec_checksum(g, HSUM));
        spit(bad, g, len);
        expect_format(bad, hdr[i].needle, "header count");
    }

    cuzk_cs_record_t rr;
    cuzk_err_t err = {{0}};
    path_of(bad, sizeof bad, "missing.r1cs");
    CHECK(cuzk_cs_record_load(&rr, bad, &err) == CUZK_ERR_IO && strstr(err.msg, "missing.r1cs"));
    free(f), free(g);
    path_of(bad, sizeof bad, "bad.r1cs");
    unlink(bad), unlink(good);
}

static void failed_writes(void)
{
    circuit_random_params p = {test_rand64(), 2, 20, 300, 4};
    cuzk_cs_record_t rec;
    make_record(&rec, NULL, &p);
    char path[512];
    cuzk_err_t err = {{0}};
    /* a directory that does not exist */
    path_of(path, sizeof path, "nodir/x.r1cs");
    CHECK(cuzk_cs_record_save(&rec, path, &err) == CUZK_ERR_IO && err.msg[0]);
    CHECK(dir_entries(dir) == 0);
    /* the target is a directory: the rename fails after the whole file was written */
    path_of(path, sizeof path, "target");
    CHECK(mkdir(path, 0700) == 0);
    err.msg[0] = 0;
    CHECK(cuzk_cs_record_save(&rec, path, &err) == CUZK_ERR_IO && err.msg[0]);
    CHECK(dir_entries(dir) == 1 && dir_entries(path) == 0);
    rmdir(path);
    /* the write itself fails part-way (file size limit) */
    path_of(path, sizeof path, "limited.r1cs");
    struct rlimit old, lim;
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = 4096;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    if (setrlimit(RLIMIT_FSIZE, &lim) == 0) {
        cuzk_status st = cuzk_cs_record_save(&rec, path, &err);
        setrlimit(RLIMIT_FSIZE, &old);
        CHECK_MSG(st == CUZK_ERR_IO, "status %d", (int)st);
        CHECK(dir_entries(dir) == 0);
    }
    signal(SIGXFSZ, prev);
    cuzk_cs_record_free(&rec);
}

int main(void)
{
    test_init("test_cs_cache");
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/cuzk-cs-cache-XXXXXX", tmp && *tmp ? tmp : P_tmpdir);
    if (!mkdtemp(dir)) {
        fprintf(stderr, "cannot create a temporary directory\n");
        return 1;
    }
    round_trip();
    corrupt();
    failed_writes();
    rmdir(dir);
    return test_finish();
}
