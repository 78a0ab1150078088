/* The constraint-system cache file: save → load round trips; the header and checksums recomputed
 * here from docs/FORMATS.md; truncated, extended, bit-flipped, wrong-magic and wrong-version files,
 * and files with correct checksums but broken CSR rules, all rejected with a message; failed
 * writes (missing directory, target a directory, file-size limit) leave no file behind. */
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

/* Section offsets and sizes from the header (spec: 64-byte aligned, in order, from 256). */
static void sections(const uint8_t *h, uint64_t off[12], uint64_t size[12], uint64_t *total)
{
    uint64_t ni = get64(h + 16), na = get64(h + 24), rows = get64(h + 32);
    for (int k = 0; k < 3; k++) {
        uint64_t nnz = get64(h + 40 + 8 * k);
        size[3 * k] = (rows + 1) * 8, size[3 * k + 1] = nnz * 4, size[3 * k + 2] = nnz * 32;
    }
    size[9] = size[11] = (na + 63) / 64 * 8;
    size[10] = (ni + 63) / 64 * 8;
    uint64_t o = 256;
    for (int s = 0; s < 12; s++) {
        off[s] = o;
        o = (o + size[s] + 63) & ~63ULL;
    }
    *total = o;
}

/* Recomputes every checksum of a (modified) file image, so only the structural checks can object. */
static void fix_checksums(uint8_t *f)
{
    uint64_t off[12], size[12], total;
    sections(f, off, size, &total);
    for (int s = 0; s < 12; s++)
        put64(f + 88 + 8 * s, spec_checksum(f + off[s], size[s]));
    put64(f + 248, spec_checksum(f, 248));
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

static bool rec_equal(const cuzk_cs_record_t *x, const cuzk_cs_record_t *y)
{
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
    CHECK(r.r1cs.a.row_start == NULL && r.a_aux_density == NULL); /* nothing handed out */
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

static void make_record(cuzk_cs_record_t *rec, cuzk_cs_t **wit, const circuit_random_params *p)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, CUZK_CS_RECORD, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    circuit_random_synthesize(cs, p);
    CHECK(cuzk_cs_take_record(cs, rec, NULL) == CUZK_OK);
    cuzk_cs_free(cs);
    if (wit) {
        CHECK(cuzk_cs_new(wit, CUZK_CS_WITNESS, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
        circuit_random_synthesize(*wit, p);
    }
}

static void round_trip(void)
{
    char path[512];
    path_of(path, sizeof path, "rt.r1cs");
    for (int it = 0; it < 4; it++) {
        circuit_random_params p = {test_rand64(), 1 + test_rand_below(70), 1 + test_rand_below(90),
                                   it == 0 ? 0 : test_rand_below(400), 1 + (unsigned)test_rand_below(6)};
        cuzk_cs_record_t rec, back;
        cuzk_cs_t *wit;
        make_record(&rec, &wit, &p);
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
        CHECK(f && memcmp(f, "CUZKR1CS", 8) == 0 && f[8] == 1 && f[12] == 0 && f[13] == 1);
        uint64_t off[12], size[12], total;
        sections(f, off, size, &total);
        CHECK(len == total && get64(f + 16) == rec.r1cs.num_inputs && get64(f + 24) == rec.r1cs.num_aux);
        CHECK(get64(f + 64) == c1.a_aux_density && get64(f + 72) == c1.b_input_density);
        CHECK(get64(f + 248) == spec_checksum(f, 248));
        for (int s = 0; s < 12; s++)
            CHECK(get64(f + 88 + 8 * s) == spec_checksum(f + off[s], size[s]));
        /* coefficients are Montgomery limbs: the first A coefficient, as stored */
        if (get64(f + 40))
            CHECK(memcmp(f + off[2], &rec.r1cs.a.coeff[0], 32) == 0);
        free(f);
        cuzk_cs_record_free(&back);
        cuzk_cs_record_free(&rec);
        cuzk_cs_free(wit);
    }
    CHECK(dir_entries(dir) == 1);
    unlink(path);
}

static void corrupt(void)
{
    char good[512], bad[512];
    path_of(good, sizeof good, "good.r1cs");
    path_of(bad, sizeof bad, "bad.r1cs");
    circuit_random_params p = {test_rand64(), 3, 10, 60, 4};
    cuzk_cs_record_t rec;
    make_record(&rec, NULL, &p);
    CHECK(cuzk_cs_record_save(&rec, good, NULL) == CUZK_OK);
    cuzk_cs_record_free(&rec);
    size_t len;
    uint8_t *f = slurp(good, &len), *g = malloc(len + 64);
    uint64_t off[12], size[12], total;
    sections(f, off, size, &total);

    /* truncations and trailing data */
    size_t cuts[] = {0, 7, 100, 255, 256, 257, (size_t)off[1] + 3, len / 2, len - 64, len - 1};
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
        size_t pos = i < 256 ? (size_t)i * 7 % 256 : test_rand_below(len);
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
    memcpy(g, f, len), g[8] = 2;
    spit(bad, g, len);
    expect_format(bad, "version 2", "version");
    memcpy(g, f, len), g[8] = 2, fix_checksums(g);
    spit(bad, g, len);
    expect_format(bad, "version 2", "version with a valid checksum");

    /* consistent checksums, broken contents: the structural checks must object */
    struct {
        const char *what, *needle;
        int section;
        size_t at;
        uint64_t value;
        int width;
    } cases[] = {
        {"column out of range", "A.col", 1, 0, 0xffffffu, 4},
        {"row_start[0] != 0", "A.row_start", 0, 0, 1, 8},
        {"row past nnz", "B.row_start", 3, 8, 1u << 30, 8},
        {"coefficient = r", "A.coeff", 2, 0, 0, 32},
        {"coefficient zero", "C.coeff", 8, 0, 0, 33},
        {"density bit cleared", "a_aux_density", 9, 0, 0, 9},
        {"stray density bit", "b_input_density", 10, 0, 1ULL << 63, 8},
        {"popcount", "density counts", -1, 64, 0, 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(g, f, len);
        uint8_t *at = cases[i].section >= 0 ? g + off[cases[i].section] + cases[i].at : g + cases[i].at;
        if (cases[i].width == 4) {
            uint32_t v = (uint32_t)cases[i].value;
            memcpy(at, &v, 4);
        } else if (cases[i].width == 8) {
            uint64_t v = get64(at) | cases[i].value;
            if (cases[i].section == 0 || cases[i].section == 3)
                v = cases[i].value;
            if (cases[i].section < 0)
                v = get64(at) + 1;
            put64(at, v);
        } else if (cases[i].width == 32) {
            const uint64_t r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                   0x73eda753299d7d48ULL};
            memcpy(at, r, 32);
        } else if (cases[i].width == 33) {
            memset(at, 0, 32);
        } else { /* clear the lowest set bit of the first non-zero word */
            for (size_t w = 0; w < size[9] / 8; w++) {
                uint64_t v = get64(g + off[9] + 8 * w);
                if (v) {
                    put64(g + off[9] + 8 * w, v & (v - 1));
                    break;
                }
            }
        }
        fix_checksums(g);
        spit(bad, g, len);
        expect_format(bad, cases[i].needle, cases[i].what);
    }
    /* columns out of order within a row: swap the first two terms of a row with two or more */
    memcpy(g, f, len);
    for (uint64_t row = 0; row < get64(g + 32); row++) {
        uint64_t b = get64(g + off[0] + 8 * row), e = get64(g + off[0] + 8 * row + 8);
        if (e - b >= 2) {
            uint32_t c0, c1;
            memcpy(&c0, g + off[1] + 4 * b, 4), memcpy(&c1, g + off[1] + 4 * b + 4, 4);
            memcpy(g + off[1] + 4 * b, &c1, 4), memcpy(g + off[1] + 4 * b + 4, &c0, 4);
            break;
        }
    }
    fix_checksums(g);
    spit(bad, g, len);
    expect_format(bad, "order", "unordered columns");
    /* a non-zero padding byte */
    memcpy(g, f, len);
    if (off[1] > off[0] + size[0]) {
        g[off[0] + size[0]] = 1;
        spit(bad, g, len);
        expect_format(bad, "padding", "padding");
    }
    /* huge counts (header checksum fixed): sizes that overflow or exceed the file */
    memcpy(g, f, len), put64(g + 40, UINT64_MAX / 8), put64(g + 248, spec_checksum(g, 248));
    spit(bad, g, len);
    expect_format(bad, NULL, "huge nnz");
    memcpy(g, f, len), put64(g + 24, 1ULL << 40), put64(g + 248, spec_checksum(g, 248));
    spit(bad, g, len);
    expect_format(bad, "out of range", "huge aux");

    cuzk_cs_record_t r;
    cuzk_err_t err = {{0}};
    path_of(bad, sizeof bad, "missing.r1cs");
    CHECK(cuzk_cs_record_load(&r, bad, &err) == CUZK_ERR_IO && strstr(err.msg, "missing.r1cs"));
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
