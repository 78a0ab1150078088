/* libFuzzer target for the constraint-system cache reader, cuzk_cs_record_load (format version 2: the
 * compact matrices). The input goes to an in-memory file (memfd, read through /proc/self/fd; a temporary
 * file where that is missing). The first input byte is a mode:
 *   bit 0  "recipe": the rest is not a file but a recipe for one (build_recipe) whose checksums and
 *          layout are always right, so that the row, index, table and density checks are reached;
 *   bit 1  raw file with its checksums recomputed (when the header gives a layout of this size);
 *   bit 2  evaluate with two threads instead of one;
 *   bit 7  after a successful load, save the record and require the very same bytes back.
 * Every answer is checked against a reading of docs/FORMATS.md written here: the status (OK exactly
 * when every rule holds, CUZK_ERR_FORMAT otherwise, with a message naming the file and an empty
 * record); on success the arrays equal the file's sections, the popcounts the header's, and
 * cuzk_r1cs_compact_eval equals a plain row-by-row evaluation of the file. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cuzk/cs.h"
#include "ff/fr.h"
#include "fuzz_util.h"


enum { HDR = 512, NSEC = 18, PER = 5, MAX_VARS = 0x7fffffff, MAX_TABLE = 65536, SUMS = 136, HSUM = 504 };
enum { ROW_LEN = 0, LONG = 1, COL = 2, IDX = 3, TABLE = 4, DENS = 15 };

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The checksum of docs/FORMATS.md, step by step. */
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t spec_sum(const uint8_t *p, uint64_t len)
{
    const uint64_t P1 = 0x9E3779B97F4A7C15ULL, P2 = 0xC2B2AE3D27D4EB4FULL;
    uint64_t v[4] = {P1, 2 * P1, 3 * P1, 4 * P1};
    for (uint64_t i = 0; i * 8 < len; i++) {
        uint64_t w = 0;
        for (uint64_t b = 0; b < 8 && i * 8 + b < len; b++)
            w |= (uint64_t)p[i * 8 + b] << (8 * b);
        v[i % 4] = rotl((v[i % 4] ^ w) * P2, 31);
    }
    uint64_t h = len;
    for (int j = 0; j < 4; j++)
        h = rotl((h ^ v[j]) * P1, 27);
    h ^= h >> 33, h *= P2, h ^= h >> 29, h *= P1, h ^= h >> 32;
    return h;
}

typedef struct {
    uint64_t ni, na, rows, nnz[3], nl[3], tl[3];
    unsigned __int128 off[NSEC], size[NSEC], total; /* wide: no overflow to reason about */
} layout;

static void layout_of(const uint8_t *h, layout *L)
{
    L->ni = rd64(h + 16), L->na = rd64(h + 24), L->rows = rd64(h + 32);
    for (int k = 0; k < 3; k++) {
        L->nnz[k] = rd64(h + 40 + 8 * k), L->nl[k] = rd64(h + 88 + 8 * k), L->tl[k] = rd64(h + 112 + 8 * k);
        unsigned __int128 *sz = &L->size[PER * k];
        sz[ROW_LEN] = L->rows;
        sz[LONG] = (unsigned __int128)L->nl[k] * 16;
        sz[COL] = (unsigned __int128)L->nnz[k] * 4;
        sz[IDX] = (unsigned __int128)L->nnz[k] * (L->tl[k] <= 256 ? 1 : 2);
        sz[TABLE] = (unsigned __int128)L->tl[k] * 32;
    }
    L->size[DENS] = L->size[DENS + 2] = ((unsigned __int128)L->na + 63) / 64 * 8;
    L->size[DENS + 1] = ((unsigned __int128)L->ni + 63) / 64 * 8;
    unsigned __int128 o = HDR;
    for (int s = 0; s < NSEC; s++) {
        L->off[s] = o;
        o = (o + L->size[s] + 63) / 64 * 64;
    }
    L->total = o;
}

/* Below r (little-endian limbs) and not zero. */
static bool coeff_ok(const uint8_t *c)
{
    bool zero = true;
    for (int i = 0; i < 32; i++)
        zero &= c[i] == 0;
    for (int l = 3; l >= 0; l--) {
        uint64_t v = rd64(c + 8 * l);
        if (v != FR_MODULUS[l])
            return v < FR_MODULUS[l] && !zero;
    }
    return false;
}

static uint64_t popcount_words(const uint8_t *p, uint64_t bytes)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < bytes; i++)
        n += (uint64_t)__builtin_popcount(p[i]);
    return n;
}

static unsigned idx_at(const uint8_t *d, const layout *L, int k, uint64_t t)
{
    const uint8_t *p = d + L->off[PER * k + IDX];
    return L->tl[k] <= 256 ? p[t] : (unsigned)(p[2 * t] | p[2 * t + 1] << 8);
}

/* The length of row r of matrix k, *li the next long-row pair; false when the row's mark and the pairs
 * disagree. */
static bool row_length(const uint8_t *d, const layout *L, int k, uint64_t r, uint64_t *li, uint64_t *n)
{
    const uint8_t *lr = d + L->off[PER * k + LONG];
    *n = d[L->off[PER * k + ROW_LEN] + r];
    bool pair_here = *li < L->nl[k] && rd64(lr + 16 * *li) == r;
    if (*n == 255) {
        if (!pair_here || rd64(lr + 16 * *li + 8) < 255)
            return false;
        *n = rd64(lr + 16 * *li + 8);
        ++*li;
        return true;
    }
    return !(*li < L->nl[k] && rd64(lr + 16 * *li) <= r);
}

/* Whether a file obeys every rule of docs/FORMATS.md (L filled when the header is readable). */
static bool ref_valid(const uint8_t *d, size_t len, layout *L)
{
    if (len < HDR || memcmp(d, "CUZKR1CS", 8) != 0 || rd32(d + 8) != 2 || rd32(d + 12) != HDR ||
        spec_sum(d, HSUM) != rd64(d + HSUM))
        return false;
    for (int i = SUMS + 8 * NSEC; i < HSUM; i++)
        if (d[i])
            return false;
    layout_of(d, L);
    if (L->ni < 1 || L->ni > MAX_VARS || L->na > MAX_VARS || L->total != len)
        return false;
    for (int k = 0; k < 3; k++)
        if (L->tl[k] < 2 || L->tl[k] > MAX_TABLE || L->nl[k] > L->rows)
            return false;
    for (int s = 0; s < NSEC; s++) {
        size_t off = (size_t)L->off[s], end = off + (size_t)L->size[s];
        size_t next = s + 1 < NSEC ? (size_t)L->off[s + 1] : len;
        if (spec_sum(d + off, L->size[s]) != rd64(d + SUMS + 8 * s))
            return false;
        for (size_t i = end; i < next; i++)
            if (d[i])
                return false;
    }
    fr m1;
    fr_neg(&m1, &FR_ONE);
    uint64_t nv = L->ni + L->na, wa = (L->na + 63) / 64, wi = (L->ni + 63) / 64;
    uint8_t *dens = calloc(2 * wa + wi + 1, 8); /* a_aux, b_input, b_aux */
    REQUIRE(dens);
    bool ok = true;
    for (int k = 0; k < 3 && ok; k++) {
        const uint8_t *tab = d + L->off[PER * k + TABLE], *col = d + L->off[PER * k + COL];
        ok = memcmp(tab, &FR_ONE, 32) == 0 && memcmp(tab + 32, &m1, 32) == 0;
        for (uint64_t i = 0; i < L->tl[k] && ok; i++) {
            ok = coeff_ok(tab + 32 * i);
            for (uint64_t j = 0; j < i && ok; j++)
                ok = memcmp(tab + 32 * i, tab + 32 * j, 32) != 0;
        }
        uint64_t t = 0, li = 0;
        for (uint64_t r = 0; r < L->rows && ok; r++) {
            uint64_t n;
            ok = row_length(d, L, k, r, &li, &n) && n <= L->nnz[k] - t;
            for (uint64_t b = t; ok && t < b + n; t++) {
                uint32_t c = rd32(col + 4 * t);
                ok = c < nv && (t == b || c > rd32(col + 4 * (t - 1))) && idx_at(d, L, k, t) < L->tl[k];
                uint64_t bit = c < L->ni ? c : c - L->ni;
                uint8_t *map = k == 0 ? (c >= L->ni ? dens : NULL)
                               : k == 1 ? (c < L->ni ? dens + 8 * wa : dens + 8 * (wa + wi))
                                        : NULL;
                if (ok && map)
                    map[bit / 8] |= (uint8_t)(1u << (bit % 8));
            }
        }
        ok = ok && t == L->nnz[k] && li == L->nl[k];
    }
    ok = ok && memcmp(dens, d + L->off[DENS], 8 * wa) == 0 && memcmp(dens + 8 * wa, d + L->off[DENS + 1], 8 * wi) == 0 &&
         memcmp(dens + 8 * (wa + wi), d + L->off[DENS + 2], 8 * wa) == 0;
    ok = ok && popcount_words(d + L->off[DENS], 8 * wa) == rd64(d + 64) &&
         popcount_words(d + L->off[DENS + 1], 8 * wi) == rd64(d + 72) &&
         popcount_words(d + L->off[DENS + 2], 8 * wa) == rd64(d + 80);
    free(dens);
    return ok;
}

/* Recomputes the section and header checksums of a file whose header gives a layout of len bytes. */
static void fix_checksums(uint8_t *d, size_t len)
{
    if (len < HDR)
        return;
    layout L;
    layout_of(d, &L);
    if (L.total != len)
        return;
    for (int s = 0; s < NSEC; s++)
        wr64(d + SUMS + 8 * s, spec_sum(d + L.off[s], L.size[s]));
    wr64(d + HSUM, spec_sum(d, HSUM));
}

/* ---- recipes ---- */

typedef struct {
    const uint8_t *p;
    size_t n, i;
} stream;
static uint8_t next(stream *s) { return s->i < s->n ? s->p[s->i++] : 0; }

/* h0: inputs 1 + (h0 & 3), aux (h0 >> 2 & 7) + 60 with bit 7 (bitmaps of two words); h1: rows h1 & 7,
 * h1 bits 3-7: one deliberate fault each (density bit, popcount, padding byte, reserved byte, a row
 * marked long or a pair for a row). h2: each matrix's table has 2 + (h2 >> 2k & 3) entries, 1 and −1 then
 * values picked by one byte each (low 3 bits: small values, zero, r, r − 1, or 32 raw bytes from the
 * stream). Each row has next & 3 terms; a term byte picks the column (bit 7: anywhere in 0 .. nvars + 1,
 * else 1-4 after the previous one) and the index (bits 3-5, modulo table length + 1: past the table
 * sometimes). Returns the file length. */
static size_t build_recipe(uint8_t **out, const uint8_t *in, size_t n)
{
    stream s = {in, n, 0};
    uint8_t h0 = next(&s), h1 = next(&s), h2 = next(&s);
    uint64_t ni = 1 + (h0 & 3), na = ((h0 >> 2) & 7) + (h0 & 0x80 ? 60 : 0), rows = h1 & 7, nv = ni + na;
    uint64_t nnz[3] = {0}, tl[3];
    uint8_t len[3][8];
    uint32_t col[3][7 * 3];
    uint8_t idx[3][7 * 3], tab[3][5][32];
    for (int k = 0; k < 3; k++) {
        tl[k] = 2 + ((h2 >> (2 * k)) & 3);
        fr m1;
        fr_neg(&m1, &FR_ONE);
        memcpy(tab[k][0], &FR_ONE, 32), memcpy(tab[k][1], &m1, 32);
        for (uint64_t i = 2; i < tl[k]; i++) {
            uint8_t b = next(&s), *cf = tab[k][i];
            memset(cf, 0, 32);
            int v = b & 7;
            if (v == 7) {
                for (int j = 0; j < 32; j++)
                    cf[j] = next(&s);
            } else if (v == 1 || v == 2) {
                for (int l = 0; l < 4; l++)
                    wr64(cf + 8 * l, FR_MODULUS[l]);
                if (v == 2)
                    cf[0]--; /* r − 1, not in Montgomery form: a plain canonical value */
            } else if (v) {
                cf[0] = (uint8_t)(v + (b >> 3)); /* small, possibly repeated */
            }
        }
        for (uint64_t r = 0; r < rows; r++) {
            int terms = next(&s) & 3;
            len[k][r] = (uint8_t)terms;
            int64_t prev = -1;
            for (int t = 0; t < terms; t++) {
                uint8_t b = next(&s);
                int64_t c = b & 0x80 ? (int64_t)(b % (nv + 2)) : prev + 1 + (b & 3);
                prev = c;
                col[k][nnz[k]] = (uint32_t)c;
                idx[k][nnz[k]] = (uint8_t)(((b >> 3) & 7) % (tl[k] + 1));
                nnz[k]++;
            }
        }
    }
    uint64_t nl[3] = {0}, long_row = 0;
    int long_k = -1;
    if ((h1 & 0x80) && rows) { /* a row marked long without its pair, or a pair for an unmarked row */
        uint8_t b = next(&s);
        long_k = b % 3, long_row = (b >> 2) % rows;
        if (b & 0x80)
            nl[long_k] = 1;
        else
            len[long_k][long_row] = 255;
    }
    uint8_t h[HDR] = {0};
    memcpy(h, "CUZKR1CS", 8);
    h[8] = 2, h[13] = 2; /* version 2, header size 512 */
    wr64(h + 16, ni), wr64(h + 24, na), wr64(h + 32, rows);
    for (int k = 0; k < 3; k++)
        wr64(h + 40 + 8 * k, nnz[k]), wr64(h + 88 + 8 * k, nl[k]), wr64(h + 112 + 8 * k, tl[k]);
    layout L;
    layout_of(h, &L);
    uint8_t *f = calloc(1, (size_t)L.total);
    REQUIRE(f);
    for (int k = 0; k < 3; k++) {
        memcpy(f + L.off[PER * k + ROW_LEN], len[k], rows);
        if (nl[k])
            wr64(f + L.off[PER * k + LONG], long_row), wr64(f + L.off[PER * k + LONG] + 8, 300);
        for (uint64_t t = 0; t < nnz[k]; t++) {
            uint8_t *cp = f + L.off[PER * k + COL] + 4 * t;
            cp[0] = (uint8_t)col[k][t], cp[1] = (uint8_t)(col[k][t] >> 8);
            f[L.off[PER * k + IDX] + t] = idx[k][t];
        }
        memcpy(f + L.off[PER * k + TABLE], tab[k], 32 * tl[k]);
    }
    /* the densities the columns imply (out-of-range columns set nothing) */
    for (int k = 0; k < 2; k++)
        for (uint64_t t = 0; t < nnz[k]; t++) {
            uint64_t c = col[k][t];
            if (c >= nv || (k == 0 && c < ni))
                continue;
            int sec = k == 0 ? DENS : c < ni ? DENS + 1 : DENS + 2;
            uint64_t bit = c < ni ? c : c - ni;
            f[L.off[sec] + bit / 8] |= (uint8_t)(1u << (bit % 8));
        }
    if (h1 & 0x08) { /* a stray density bit, possibly past the counts */
        uint8_t b = next(&s);
        int sec = DENS + b % 3;
        if (L.size[sec])
            f[L.off[sec] + (b >> 2) % L.size[sec]] ^= (uint8_t)(1u << (b & 7));
    }
    uint64_t wa = (na + 63) / 64 * 8, wi = (ni + 63) / 64 * 8;
    wr64(h + 64, popcount_words(f + L.off[DENS], wa) + (h1 & 0x10 ? 1 : 0));
    wr64(h + 72, popcount_words(f + L.off[DENS + 1], wi));
    wr64(h + 80, popcount_words(f + L.off[DENS + 2], wa));
    if (h1 & 0x20) { /* a padding byte, where a section leaves a gap */
        for (int sec = 0; sec < NSEC; sec++) {
            uint64_t end = L.off[sec] + L.size[sec], nxt = sec + 1 < NSEC ? L.off[sec + 1] : L.total;
            if (end < nxt) {
                f[end + next(&s) % (nxt - end)] = (uint8_t)(next(&s) | 1);
                break;
            }
        }
    }
    if (h1 & 0x40)
        h[SUMS + 8 * NSEC + next(&s) % (HSUM - SUMS - 8 * NSEC)] = 1;
    memcpy(f, h, HDR);
    fix_checksums(f, (size_t)L.total);
    *out = f;
    return (size_t)L.total;
}

/* ---- the target ---- */

static int mem_fd = -1;
static char dir[4096], path[4200];

static void cleanup(void)
{
    if (mem_fd < 0 && path[0])
        unlink(path);
    if (dir[0])
        rmdir(dir);
}

/* Makes the bytes readable at `path`. */
static void put_file(const uint8_t *d, size_t n)
{
    int fd = mem_fd;
    if (fd < 0) {
        snprintf(path, sizeof path, "%s/in", dir);
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    } else {
        REQUIRE(ftruncate(fd, 0) == 0);
    }
    REQUIRE(fd >= 0);
    REQUIRE(n == 0 || pwrite(fd, d, n, 0) == (ssize_t)n);
    if (fd != mem_fd)
        close(fd);
}

static void check_eval(const cuzk_cs_record_t *rec, const uint8_t *d, const layout *L, int threads)
{
    const cuzk_r1cs_compact_t *m = &rec->m;
    size_t nv = m->num_inputs + m->num_aux, rows = m->num_constraints;
    fr *z = malloc((nv + 1) * sizeof *z), *out = malloc((3 * rows + 1) * sizeof *out);
    REQUIRE(z && out);
    for (size_t i = 0; i < nv; i++)
        fr_from_u64(&z[i], 0x1234567 * (i + 1));
    cuzk_r1cs_compact_eval(m, z, z + m->num_inputs, out, out + rows, out + 2 * rows, threads);
    for (int k = 0; k < 3; k++) {
        uint64_t t = 0, li = 0;
        for (size_t r = 0; r < rows; r++) {
            fr acc = FR_ZERO, c, p;
            uint64_t n;
            REQUIRE(row_length(d, L, k, r, &li, &n));
            for (uint64_t e = t + n; t < e; t++) {
                memcpy(&c, d + L->off[PER * k + TABLE] + 32 * idx_at(d, L, k, t), 32); /* limbs = fr layout */
                fr_mul(&p, &c, &z[rd32(d + L->off[PER * k + COL] + 4 * t)]);
                fr_add(&acc, &acc, &p);
            }
            REQUIRE(fr_eq(&acc, &out[(size_t)k * rows + r]));
        }
    }
    free(z);
    free(out);
}

static void check_saved(const cuzk_cs_record_t *rec, const uint8_t *d, size_t n)
{
    char out[4200];
    snprintf(out, sizeof out, "%s/saved", dir);
    cuzk_err_t err = {{0}};
    REQUIRE(cuzk_cs_record_save(rec, out, &err) == CUZK_OK);
    FILE *f = fopen(out, "rb");
    REQUIRE(f);
    uint8_t *back = malloc(n + 1);
    REQUIRE(back);
    REQUIRE(fread(back, 1, n + 1, f) == n && memcmp(back, d, n) == 0);
    fclose(f);
    free(back);
    unlink(out);
}

static void fuzz_file(const uint8_t *d, size_t n, int mode)
{
    layout L;
    bool valid = ref_valid(d, n, &L);
    put_file(d, n);
    cuzk_cs_record_t rec;
    memset(&rec, 0xa5, sizeof rec); /* the loader must fill it either way */
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_cs_record_load(&rec, path, &err);
    const cuzk_cmat_t *ms[3] = {&rec.m.a, &rec.m.b, &rec.m.c};
    if (!valid) {
        REQUIRE(st == CUZK_ERR_FORMAT);
        REQUIRE(strncmp(err.msg, path, strlen(path)) == 0 && strlen(err.msg) > strlen(path) + 2);
        for (int k = 0; k < 3; k++)
            REQUIRE(!ms[k]->block_start && !ms[k]->row_len && !ms[k]->long_rows && !ms[k]->col && !ms[k]->idx8 &&
                    !ms[k]->idx16 && !ms[k]->table);
        REQUIRE(!rec.r1cs.a.row_start && !rec.a_aux_density && !rec.b_input_density && !rec.b_aux_density &&
                rec.m.num_constraints == 0);
        return;
    }
    REQUIRE(st == CUZK_OK);
    const cuzk_r1cs_compact_t *m = &rec.m;
    REQUIRE(m->num_inputs == L.ni && m->num_aux == L.na && m->num_constraints == L.rows && !rec.r1cs.a.row_start);
    for (int k = 0; k < 3; k++) {
        const cuzk_cmat_t *x = ms[k];
        REQUIRE(x->nnz == L.nnz[k] && x->num_long == L.nl[k] && x->table_len == L.tl[k]);
        REQUIRE((x->idx8 != NULL) == (L.tl[k] <= 256) && (x->idx16 != NULL) == (L.tl[k] > 256));
        const void *idx = x->idx8 ? (const void *)x->idx8 : (const void *)x->idx16;
        const void *arr[PER] = {x->row_len, x->long_rows, x->col, idx, x->table};
        for (int s = 0; s < PER; s++)
            REQUIRE(memcmp(arr[s], d + L.off[PER * k + s], (size_t)L.size[PER * k + s]) == 0);
        uint64_t li = 0, t = 0, len;
        for (uint64_t r = 0; r < L.rows; t += len, r++) {
            if (r % 64 == 0)
                REQUIRE(x->block_start[r / 64] == t);
            REQUIRE(row_length(d, &L, k, r, &li, &len));
        }
        REQUIRE(x->block_start[(L.rows + 63) / 64] == t);
    }
    REQUIRE(memcmp(rec.a_aux_density, d + L.off[DENS], (size_t)L.size[DENS]) == 0);
    REQUIRE(memcmp(rec.b_input_density, d + L.off[DENS + 1], (size_t)L.size[DENS + 1]) == 0);
    REQUIRE(memcmp(rec.b_aux_density, d + L.off[DENS + 2], (size_t)L.size[DENS + 2]) == 0);
    cuzk_cs_counts_t cnt;
    cuzk_cs_record_counts(&rec, &cnt);
    REQUIRE(cnt.has_density && cnt.a_aux_density == rd64(d + 64) && cnt.b_input_density == rd64(d + 72) &&
            cnt.b_aux_density == rd64(d + 80));
    check_eval(&rec, d, &L, mode & 4 ? 2 : 1);
    if (mode & 0x80) {
        REQUIRE(cuzk_cs_record_file_bytes(&rec) == n);
        check_saved(&rec, d, n);
    }
    cuzk_cs_record_free(&rec);
}

/* Seeds: files saved by the library from small record systems, under a few modes, and recipes. */
static void write_seed(const char *sdir, const char *name, uint8_t mode, const uint8_t *d, size_t n)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", sdir, name);
    FILE *f = fopen(p, "wb");
    REQUIRE(f && fwrite(&mode, 1, 1, f) == 1 && (n == 0 || fwrite(d, 1, n, f) == n) && fclose(f) == 0);
}

static void make_seeds(const char *sdir)
{
    for (int size = 0; size < 4; size++) {
        cuzk_cs_t *cs;
        REQUIRE(cuzk_cs_new(&cs, CUZK_CS_RECORD, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
        cuzk_var_t in = cuzk_cs_alloc_input(cs, NULL), x[300];
        size_t nx = size == 3 ? 300 : size == 2 ? 70 : 3;
        for (size_t i = 0; i < nx; i++)
            x[i] = cuzk_cs_alloc(cs, NULL);
        for (int r = 0; r < (size ? 4 : 0); r++) { /* size 0: no rows at all */
            cuzk_lc_t a, b, c;
            cuzk_lc_init(&a, cs), cuzk_lc_init(&b, cs), cuzk_lc_init(&c, cs);
            cuzk_lc_add(&a, cuzk_cs_one());
            cuzk_lc_sub(&a, x[(size_t)r % nx]);
            cuzk_lc_add(&b, x[(size_t)(r + 1) % nx]);
            cuzk_lc_add(&b, in);
            cuzk_lc_add(&c, x[nx - 1]);
            for (size_t i = 0; size == 3 && r == 0 && i < nx; i++) { /* a long row, distinct coefficients */
                cuzk_fr_t v;
                fr_from_u64(&v, i + 2);
                cuzk_lc_add_term(&c, x[i], &v);
            }
            cuzk_cs_enforce_free(cs, &a, &b, &c);
        }
        cuzk_cs_record_t rec;
        char p[4200];
        snprintf(p, sizeof p, "%s/record-%d.tmp", sdir, size);
        REQUIRE(cuzk_cs_take_record(cs, &rec, NULL) == CUZK_OK && cuzk_cs_record_save(&rec, p, NULL) == CUZK_OK);
        cuzk_cs_record_free(&rec);
        cuzk_cs_free(cs);
        FILE *f = fopen(p, "rb");
        REQUIRE(f);
        static uint8_t buf[1 << 16];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        unlink(p);
        static const uint8_t modes[3] = {0x00, 0x86, 0x02};
        for (int m = 0; m < 3; m++) {
            char name[64];
            snprintf(name, sizeof name, "record-%d-mode%02x", size, modes[m]);
            write_seed(sdir, name, modes[m], buf, n);
        }
    }
    /* Recipes: three fixed byte strings for the fuzzer to start from (build_recipe says what each byte
     * does; with the version 2 recipe they give valid and faulty files alike). */
    static const uint8_t r0[] = {0x05, 0x03, 0x01, 0x18, 0x02, 0x20, 0x19, 0x00, 0x01, 0x1a,
                                 0x01, 0x28, 0x00, 0x01, 0x38, 0x00, 0x00};
    uint8_t r1[64] = {0x9f, 0x07, 0x02, 0x98, 0xb8, 0x01, 0x9a, 0, 0, 0, 0, 0, 0x01, 0xd8, 0x05};
    r1[52] = 0x01, r1[53] = 0x18; /* B rows 1-6 empty, then C row 0: column 0 */
    static const uint8_t r2[] = {0x05, 0xfa, 0x01, 0x18, 0x01, 0x19, 0x01, 0x1a, 0x00, 0x02, 0x18, 0x21,
                                 0x07, 0x03, 0x05, 0x11, 0x22, 0x33};
    write_seed(sdir, "recipe-0", 0x01, r0, sizeof r0);
    write_seed(sdir, "recipe-1", 0x85, r1, sizeof r1);
    write_seed(sdir, "recipe-2", 0x01, r2, sizeof r2);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/cuzk-fuzz-cs-XXXXXX", tmp && *tmp ? tmp : P_tmpdir);
    REQUIRE(mkdtemp(dir));
    atexit(cleanup);
    mem_fd = memfd_create("cs-cache", MFD_CLOEXEC);
    if (mem_fd >= 0) {
        snprintf(path, sizeof path, "/proc/self/fd/%d", mem_fd);
        if (access(path, R_OK) != 0) {
            close(mem_fd);
            mem_fd = -1;
        }
    }
    const char *seeds = getenv("CUZK_FUZZ_SEEDS");
    if (seeds && *seeds) {
        make_seeds(seeds);
        exit(0);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    if (len < 1)
        return 0;
    int mode = data[0];
    if (mode & 1) {
        uint8_t *f;
        size_t n = build_recipe(&f, data + 1, len - 1);
        fuzz_file(f, n, mode);
        free(f);
    } else {
        uint8_t *copy = malloc(len > 1 ? len - 1 : 1); /* exact size: a read past the end is caught */
        REQUIRE(copy);
        memcpy(copy, data + 1, len - 1);
        if (mode & 2)
            fix_checksums(copy, len - 1);
        fuzz_file(copy, len - 1, mode);
        free(copy);
    }
    return 0;
}
