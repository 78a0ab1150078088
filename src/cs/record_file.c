/* The constraint-system cache file: a record (the compact A, B, C + density bitmaps) saved once and
 * loaded for every proof. Layout and checksum are specified in docs/FORMATS.md
 * ("Constraint-system cache"); a load checks everything, so a bad file never reaches the prover. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cs/cs_internal.h"
#include "cuzk/file.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the cache file is little-endian, as the host");

#define FILE_MAGIC "CUZKR1CS"
#define FILE_VERSION 2u
#define HEADER_SIZE 512
#define PER_MATRIX 5 /* row_len, long_rows, col, idx, table */
#define N_SECTIONS (3 * PER_MATRIX + 3)
#define ALIGN 64
#define IO_CHUNK ((size_t)8 << 20) /* a multiple of 32: checksum lanes stay aligned per chunk */

enum {
    H_MAGIC = 0,
    H_VERSION = 8,
    H_HSIZE = 12,
    H_INPUTS = 16,
    H_AUX = 24,
    H_ROWS = 32,
    H_NNZ = 40,
    H_POP = 64,
    H_LONG = 88,
    H_TABLE = 112,
    H_SUMS = 136,
    H_RESERVED = H_SUMS + 8 * N_SECTIONS,
    H_SUM = 504,
};
enum { S_ROW_LEN = 0, S_LONG = 1, S_COL = 2, S_IDX = 3, S_TABLE = 4, S_DENSITY = 3 * PER_MATRIX };

static const char *const section_names[N_SECTIONS] = {
    "A.row_len", "A.long_rows", "A.col", "A.idx", "A.table",         "B.row_len",
    "B.long_rows", "B.col",     "B.idx", "B.table", "C.row_len",     "C.long_rows",
    "C.col",     "C.idx",       "C.table", "a_aux_density", "b_input_density", "b_aux_density",
};

/* ---- checksum: 4 lanes of 64-bit multiply–rotate over little-endian words ---- */
#define CK_P1 0x9E3779B97F4A7C15ULL
#define CK_P2 0xC2B2AE3D27D4EB4FULL

typedef struct {
    uint64_t v[4];
    uint64_t words, len;
} ck_state;

static inline uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static void ck_init(ck_state *s)
{
    for (int j = 0; j < 4; j++)
        s->v[j] = CK_P1 * (uint64_t)(j + 1);
    s->words = s->len = 0;
}

/* len must be a multiple of 8 except in the last call. */
static void ck_update(ck_state *s, const void *data, size_t len)
{
    const uint8_t *p = data;
    size_t n = len / 8;
    uint64_t w, i = s->words;
    for (size_t k = 0; k < n; k++, i++) {
        memcpy(&w, p + 8 * k, 8);
        s->v[i & 3] = rotl64((s->v[i & 3] ^ w) * CK_P2, 31);
    }
    if (len % 8) {
        w = 0;
        memcpy(&w, p + 8 * n, len % 8);
        s->v[i & 3] = rotl64((s->v[i & 3] ^ w) * CK_P2, 31);
        i++;
    }
    s->words = i;
    s->len += len;
}

static uint64_t ck_final(const ck_state *s)
{
    uint64_t h = s->len;
    for (int j = 0; j < 4; j++)
        h = rotl64((h ^ s->v[j]) * CK_P1, 27);
    h ^= h >> 33;
    h *= CK_P2;
    h ^= h >> 29;
    h *= CK_P1;
    h ^= h >> 32;
    return h;
}

static uint64_t ck_buf(const void *p, size_t len)
{
    ck_state s;
    ck_init(&s);
    ck_update(&s, p, len);
    return ck_final(&s);
}

static inline uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
static inline uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static inline void wr64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static inline void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

/* Sizes and offsets of the sections for given counts; false on arithmetic overflow. */
typedef struct {
    uint64_t size[N_SECTIONS], off[N_SECTIONS], total;
} layout;

typedef struct {
    uint64_t ni, na, rows, nnz[3], num_long[3], table_len[3];
} counts;

static bool make_layout(layout *L, const counts *c)
{
    bool ovf = false;
    for (int k = 0; k < 3; k++) {
        uint64_t *sz = &L->size[PER_MATRIX * k];
        sz[S_ROW_LEN] = c->rows;
        ovf |= __builtin_mul_overflow(c->num_long[k], 16, &sz[S_LONG]);
        ovf |= __builtin_mul_overflow(c->nnz[k], 4, &sz[S_COL]);
        ovf |= __builtin_mul_overflow(c->nnz[k], c->table_len[k] <= 256 ? 1 : 2, &sz[S_IDX]);
        ovf |= __builtin_mul_overflow(c->table_len[k], 32, &sz[S_TABLE]);
    }
    L->size[S_DENSITY] = L->size[S_DENSITY + 2] = ((c->na + 63) / 64) * 8;
    L->size[S_DENSITY + 1] = ((c->ni + 63) / 64) * 8;
    uint64_t off = HEADER_SIZE;
    for (int s = 0; s < N_SECTIONS; s++) {
        L->off[s] = off;
        ovf |= __builtin_add_overflow(off, L->size[s], &off);
        ovf |= __builtin_add_overflow(off, ALIGN - 1, &off);
        off &= ~(uint64_t)(ALIGN - 1);
    }
    L->total = off;
    return !ovf;
}

/* The arrays of a record, in section order (addresses of the pointers, for the loader). */
static void section_slots(cuzk_cs_record_t *rec, void **slots[N_SECTIONS])
{
    cuzk_cmat_t *ms[3] = {&rec->m.a, &rec->m.b, &rec->m.c};
    for (int k = 0; k < 3; k++) {
        void ***s = &slots[PER_MATRIX * k];
        s[S_ROW_LEN] = (void **)&ms[k]->row_len;
        s[S_LONG] = (void **)&ms[k]->long_rows;
        s[S_COL] = (void **)&ms[k]->col;
        s[S_IDX] = ms[k]->table_len <= 256 ? (void **)&ms[k]->idx8 : (void **)&ms[k]->idx16;
        s[S_TABLE] = (void **)&ms[k]->table;
    }
    slots[S_DENSITY] = (void **)&rec->a_aux_density;
    slots[S_DENSITY + 1] = (void **)&rec->b_input_density;
    slots[S_DENSITY + 2] = (void **)&rec->b_aux_density;
}

static void record_counts(counts *c, const cuzk_cs_record_t *rec)
{
    const cuzk_cmat_t *ms[3] = {&rec->m.a, &rec->m.b, &rec->m.c};
    *c = (counts){.ni = rec->m.num_inputs, .na = rec->m.num_aux, .rows = rec->m.num_constraints};
    for (int k = 0; k < 3; k++) {
        c->nnz[k] = ms[k]->nnz;
        c->num_long[k] = ms[k]->num_long;
        c->table_len[k] = ms[k]->table_len;
    }
}

uint64_t cuzk_cs_record_file_bytes(const cuzk_cs_record_t *rec)
{
    counts c;
    record_counts(&c, rec);
    layout L;
    return make_layout(&L, &c) ? L.total : 0;
}

/* ---- save ---- */

cuzk_status cuzk_cs_record_save(const cuzk_cs_record_t *rec, const char *path, cuzk_err_t *err)
{
    counts c;
    record_counts(&c, rec);
    layout L;
    if (!make_layout(&L, &c))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%s: record too large to save", path);
    cuzk_cs_counts_t cnt;
    cuzk_cs_record_counts(rec, &cnt);

    uint8_t h[HEADER_SIZE] = {0};
    memcpy(h + H_MAGIC, FILE_MAGIC, 8);
    wr32(h + H_VERSION, FILE_VERSION);
    wr32(h + H_HSIZE, HEADER_SIZE);
    wr64(h + H_INPUTS, c.ni);
    wr64(h + H_AUX, c.na);
    wr64(h + H_ROWS, c.rows);
    for (int k = 0; k < 3; k++) {
        wr64(h + H_NNZ + 8 * k, c.nnz[k]);
        wr64(h + H_LONG + 8 * k, c.num_long[k]);
        wr64(h + H_TABLE + 8 * k, c.table_len[k]);
    }
    wr64(h + H_POP, cnt.a_aux_density);
    wr64(h + H_POP + 8, cnt.b_input_density);
    wr64(h + H_POP + 16, cnt.b_aux_density);
    void **slots[N_SECTIONS];
    section_slots((cuzk_cs_record_t *)rec, slots); /* only read */
    for (int s = 0; s < N_SECTIONS; s++)
        wr64(h + H_SUMS + 8 * s, ck_buf(*slots[s], L.size[s]));
    wr64(h + H_SUM, ck_buf(h, H_SUM));

    cuzk_atomic_file_t *f = NULL;
    cuzk_status st = cuzk_atomic_open(&f, path, 0644, err);
    if (st != CUZK_OK)
        return st;
    static const uint8_t zeros[ALIGN] = {0};
    st = cuzk_atomic_write(f, h, HEADER_SIZE, err);
    for (int s = 0; st == CUZK_OK && s < N_SECTIONS; s++) {
        uint64_t end = L.off[s] + L.size[s];
        uint64_t next = s + 1 < N_SECTIONS ? L.off[s + 1] : L.total;
        if (L.size[s])
            st = cuzk_atomic_write(f, *slots[s], L.size[s], err);
        if (st == CUZK_OK && next > end)
            st = cuzk_atomic_write(f, zeros, next - end, err);
    }
    if (st != CUZK_OK) {
        cuzk_atomic_abort(f);
        return st;
    }
    return cuzk_atomic_commit(f, err);
}

/* ---- load ---- */

/* Reads exactly n bytes at off; false on error or end of file (errno, or 0 for end of file). */
static bool pread_full(int fd, void *dst, size_t n, uint64_t off, int *eno)
{
    uint8_t *p = dst;
    while (n) {
        ssize_t got = pread(fd, p, n, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            *eno = got < 0 ? errno : 0;
            return false;
        }
        p += got, n -= (size_t)got, off += (uint64_t)got;
    }
    return true;
}

/* Reads a section into dst in chunks, checksumming each while it is in cache. */
static bool read_section(int fd, uint64_t off, void *dst, uint64_t size, uint64_t *sum, int *eno)
{
    ck_state ck;
    ck_init(&ck);
    uint8_t *p = dst;
    for (uint64_t done = 0; done < size;) {
        size_t want = size - done > IO_CHUNK ? IO_CHUNK : (size_t)(size - done);
        if (!pread_full(fd, p + done, want, off + done, eno))
            return false;
        ck_update(&ck, p + done, want);
        done += want;
    }
    *sum = ck_final(&ck);
    return true;
}

static bool fr_canonical(const fr *c)
{
    for (int i = FR_LIMBS - 1; i >= 0; i--)
        if (c->l[i] != FR_MODULUS[i])
            return c->l[i] < FR_MODULUS[i];
    return false;
}

static int fr_cmp(const void *x, const void *y)
{
    const fr *a = x, *b = y;
    for (int i = FR_LIMBS - 1; i >= 0; i--)
        if (a->l[i] != b->l[i])
            return a->l[i] < b->l[i] ? -1 : 1;
    return 0;
}

/* The table of matrix k: 1, −1, then canonical, non-zero, distinct values. */
static cuzk_status check_table(const cuzk_cmat_t *m, int k, const layout *L, const char *path, cuzk_err_t *err)
{
    const char *name = section_names[PER_MATRIX * k + S_TABLE];
    uint64_t off = L->off[PER_MATRIX * k + S_TABLE];
    fr minus_one;
    fr_neg(&minus_one, &FR_ONE);
    if (!fr_eq(&m->table[0], &FR_ONE) || !fr_eq(&m->table[1], &minus_one))
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s (offset %llu): entries 0 and 1 are not 1 and -1", path,
                            name, (unsigned long long)off);
    for (size_t i = 0; i < m->table_len; i++)
        if (!fr_canonical(&m->table[i]) || fr_is_zero(&m->table[i]))
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s (offset %llu): entry %zu is %s", path, name,
                                (unsigned long long)(off + 32 * i), i,
                                fr_is_zero(&m->table[i]) ? "zero" : "not below the modulus");
    fr *sorted = malloc(m->table_len * sizeof *sorted);
    if (!sorted)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    memcpy(sorted, m->table, m->table_len * sizeof *sorted);
    qsort(sorted, m->table_len, sizeof *sorted, fr_cmp);
    bool dup = false;
    for (size_t i = 1; i < m->table_len && !dup; i++)
        dup = fr_cmp(&sorted[i - 1], &sorted[i]) == 0;
    free(sorted);
    if (dup)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s (offset %llu): a value appears twice", path, name,
                            (unsigned long long)off);
    return CUZK_OK;
}

/* Rows of matrix k: lengths (long rows exactly those marked, in order), terms adding up to nnz, columns
 * strictly increasing within a row and below the number of variables, indices within the table; fills
 * block_start. */
static cuzk_status check_rows(cuzk_cmat_t *m, int k, const counts *c, const layout *L, const char *path,
                              cuzk_err_t *err)
{
    const uint64_t *off = &L->off[PER_MATRIX * k];
    const char *const *names = &section_names[PER_MATRIX * k];
    uint64_t nvars = c->ni + c->na, t = 0;
    size_t li = 0;
    for (size_t row = 0; row < c->rows; row++) {
        if (row % CUZK_CMAT_BLOCK == 0)
            m->block_start[row / CUZK_CMAT_BLOCK] = t;
        uint64_t n = m->row_len[row];
        if (n == CUZK_CMAT_LONG_ROW) {
            if (li >= m->num_long || m->long_rows[2 * li] != row || m->long_rows[2 * li + 1] < CUZK_CMAT_LONG_ROW)
                return cuzk_err_set(err, CUZK_ERR_FORMAT,
                                    "%s: %s (offset %llu): row %zu is long, the next pair (entry %zu) does not "
                                    "give it a length of %d or more",
                                    path, names[S_LONG], (unsigned long long)(off[S_LONG] + 16 * li), row, li,
                                    CUZK_CMAT_LONG_ROW);
            n = m->long_rows[2 * li++ + 1];
        } else if (li < m->num_long && m->long_rows[2 * li] <= row) {
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s (offset %llu): pair %zu names row %llu, which is not "
                                "marked long (or rows out of order)", path, names[S_LONG],
                                (unsigned long long)(off[S_LONG] + 16 * li), li,
                                (unsigned long long)m->long_rows[2 * li]);
        }
        if (n > c->nnz[k] - t)
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s (offset %llu): row %zu has %llu terms, past the %llu "
                                "the header gives", path, names[S_ROW_LEN], (unsigned long long)(off[S_ROW_LEN] + row),
                                row, (unsigned long long)n, (unsigned long long)c->nnz[k]);
        for (uint64_t b = t, e = t + n; t < e; t++) {
            if (m->col[t] >= nvars || (t > b && m->col[t] <= m->col[t - 1]))
                return cuzk_err_set(err, CUZK_ERR_FORMAT,
                                    "%s: %s (offset %llu): row %zu column %u out of range or order (%llu "
                                    "variables)", path, names[S_COL], (unsigned long long)(off[S_COL] + 4 * t),
                                    row, m->col[t], (unsigned long long)nvars);
            unsigned i = m->idx16 ? m->idx16[t] : m->idx8[t];
            if (i >= m->table_len)
                return cuzk_err_set(err, CUZK_ERR_FORMAT,
                                    "%s: %s (offset %llu): term %llu's index %u is past the table (%zu entries)",
                                    path, names[S_IDX],
                                    (unsigned long long)(off[S_IDX] + (m->idx16 ? 2 : 1) * t),
                                    (unsigned long long)t, i, m->table_len);
        }
    }
    if (li != m->num_long || t != c->nnz[k])
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s: the rows hold %llu terms and %zu long rows, the header "
                            "says %llu and %zu", path, names[S_ROW_LEN], (unsigned long long)t, li,
                            (unsigned long long)c->nnz[k], m->num_long);
    m->block_start[(c->rows + CUZK_CMAT_BLOCK - 1) / CUZK_CMAT_BLOCK] = t;
    return CUZK_OK;
}

static cuzk_status load_fd(cuzk_cs_record_t *rec, int fd, const char *path, cuzk_err_t *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    uint64_t fsize = (uint64_t)st.st_size;
    uint8_t h[HEADER_SIZE];
    int eno = 0;
    if (fsize < 16)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: truncated: %llu bytes, not even a header", path,
                            (unsigned long long)fsize);
    if (!pread_full(fd, h, 16, 0, &eno))
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: reading the header: %s", path, eno ? strerror(eno) : "end of file");
    if (memcmp(h + H_MAGIC, FILE_MAGIC, 8) != 0)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: not a constraint-system cache (bad magic at offset 0)", path);
    if (rd32(h + H_VERSION) != FILE_VERSION)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: format version %u (offset 8), this build reads version %u%s",
                            path, rd32(h + H_VERSION), FILE_VERSION,
                            rd32(h + H_VERSION) == 1 ? " (record the circuit again)" : "");
    if (rd32(h + H_HSIZE) != HEADER_SIZE)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: header size %u (offset 12), expected %d", path,
                            rd32(h + H_HSIZE), HEADER_SIZE);
    if (fsize < HEADER_SIZE)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: truncated: %llu bytes, the header alone is %d", path,
                            (unsigned long long)fsize, HEADER_SIZE);
    if (!pread_full(fd, h, HEADER_SIZE, 0, &eno))
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: reading the header: %s", path, eno ? strerror(eno) : "end of file");
    if (ck_buf(h, H_SUM) != rd64(h + H_SUM))
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: header checksum mismatch (offset %d)", path, H_SUM);
    for (int i = H_RESERVED; i < H_SUM; i++)
        if (h[i])
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: reserved header byte at offset %d is not zero", path, i);
    counts c = {.ni = rd64(h + H_INPUTS), .na = rd64(h + H_AUX), .rows = rd64(h + H_ROWS)};
    for (int k = 0; k < 3; k++) {
        c.nnz[k] = rd64(h + H_NNZ + 8 * k);
        c.num_long[k] = rd64(h + H_LONG + 8 * k);
        c.table_len[k] = rd64(h + H_TABLE + 8 * k);
    }
    if (c.ni < 1 || c.ni > (uint64_t)CUZK_VAR_MAX_INDEX + 1 || c.na > (uint64_t)CUZK_VAR_MAX_INDEX + 1 ||
        c.rows > SIZE_MAX / 64)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: counts out of range (offset %d): %llu inputs, %llu aux, %llu rows",
                            path, H_INPUTS, (unsigned long long)c.ni, (unsigned long long)c.na,
                            (unsigned long long)c.rows);
    for (int k = 0; k < 3; k++)
        if (c.table_len[k] < 2 || c.table_len[k] > CUZK_CMAT_MAX_TABLE || c.num_long[k] > c.rows)
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %c: %llu table entries (offset %d; 2 to %d), %llu long rows "
                                "(offset %d)", path, "ABC"[k], (unsigned long long)c.table_len[k], H_TABLE + 8 * k,
                                CUZK_CMAT_MAX_TABLE, (unsigned long long)c.num_long[k], H_LONG + 8 * k);
    layout L;
    if (!make_layout(&L, &c) || L.total > (uint64_t)SIZE_MAX / 2)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: sizes in the header overflow (offset %d)", path, H_NNZ);
    if (fsize != L.total)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s: file has %llu bytes, the header describes %llu", path,
                            fsize < L.total ? "truncated" : "trailing data", (unsigned long long)fsize,
                            (unsigned long long)L.total);

    rec->m.num_inputs = (size_t)c.ni;
    rec->m.num_aux = (size_t)c.na;
    rec->m.num_constraints = (size_t)c.rows;
    cuzk_cmat_t *ms[3] = {&rec->m.a, &rec->m.b, &rec->m.c};
    size_t blocks = ((size_t)c.rows + CUZK_CMAT_BLOCK - 1) / CUZK_CMAT_BLOCK;
    for (int k = 0; k < 3; k++) {
        ms[k]->nnz = c.nnz[k];
        ms[k]->num_long = (size_t)c.num_long[k];
        ms[k]->table_len = (size_t)c.table_len[k];
        ms[k]->block_start = cs_big_realloc(NULL, 0, (blocks + 1) * sizeof(uint64_t));
        if (!ms[k]->block_start)
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    void **slots[N_SECTIONS];
    section_slots(rec, slots);
    for (int s = 0; s < N_SECTIONS; s++) {
        size_t bytes = (size_t)L.size[s];
        *slots[s] = cs_big_realloc(NULL, 0, bytes ? bytes : 8);
        if (!*slots[s])
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory for %llu bytes", path,
                                (unsigned long long)L.total);
        uint64_t sum;
        if (!read_section(fd, L.off[s], *slots[s], L.size[s], &sum, &eno))
            return cuzk_err_set(err, eno ? CUZK_ERR_IO : CUZK_ERR_FORMAT, "%s: section %s (offset %llu): %s", path,
                                section_names[s], (unsigned long long)L.off[s], eno ? strerror(eno) : "truncated");
        if (sum != rd64(h + H_SUMS + 8 * s))
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: section %s (offset %llu, %llu bytes): checksum mismatch",
                                path, section_names[s], (unsigned long long)L.off[s], (unsigned long long)L.size[s]);
        uint64_t end = L.off[s] + L.size[s], next = s + 1 < N_SECTIONS ? L.off[s + 1] : L.total;
        uint8_t pad[ALIGN];
        if (next > end && !pread_full(fd, pad, (size_t)(next - end), end, &eno))
            return cuzk_err_set(err, CUZK_ERR_IO, "%s: padding at offset %llu: %s", path, (unsigned long long)end,
                                eno ? strerror(eno) : "end of file");
        for (uint64_t i = 0; i < next - end; i++)
            if (pad[i])
                return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: padding byte at offset %llu is not zero", path,
                                    (unsigned long long)(end + i));
    }

    for (int k = 0; k < 3; k++) {
        cuzk_status stt = check_table(ms[k], k, &L, path, err);
        if (stt == CUZK_OK)
            stt = check_rows(ms[k], k, &c, &L, path, err);
        if (stt != CUZK_OK)
            return stt;
    }
    /* The stored bitmaps must be exactly the matrices' densities (no stray bits past the counts). */
    size_t wa = cs_words((size_t)c.na), wi = cs_words((size_t)c.ni);
    uint64_t *d = malloc((2 * wa + wi + 1) * 8);
    if (!d)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    cs_compact_density(&rec->m, d, d + wa, d + wa + wi);
    int bad = memcmp(d, rec->a_aux_density, wa * 8)             ? 0
              : memcmp(d + wa, rec->b_input_density, wi * 8)    ? 1
              : memcmp(d + wa + wi, rec->b_aux_density, wa * 8) ? 2
                                                                : -1;
    free(d);
    if (bad >= 0)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: section %s (offset %llu) does not match the matrices", path,
                            section_names[S_DENSITY + bad], (unsigned long long)L.off[S_DENSITY + bad]);
    cuzk_cs_counts_t cnt;
    cuzk_cs_record_counts(rec, &cnt);
    if (cnt.a_aux_density != rd64(h + H_POP) || cnt.b_input_density != rd64(h + H_POP + 8) ||
        cnt.b_aux_density != rd64(h + H_POP + 16))
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: density counts in the header (offset %d) do not match the bitmaps",
                            path, H_POP);
    return CUZK_OK;
}

cuzk_status cuzk_cs_record_load(cuzk_cs_record_t *rec, const char *path, cuzk_err_t *err)
{
    *rec = (cuzk_cs_record_t){0};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    cuzk_status st = load_fd(rec, fd, path, err);
    close(fd);
    if (st != CUZK_OK)
        cuzk_cs_record_free(rec);
    return st;
}
