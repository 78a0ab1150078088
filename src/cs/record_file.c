/* The constraint-system cache file: a record (CSR A, B, C + density bitmaps) saved once and
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
#define FILE_VERSION 1u
#define HEADER_SIZE 256
#define N_SECTIONS 12
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
    H_SUMS = 88,
    H_RESERVED = 184,
    H_SUM = 248,
};

static const char *const section_names[N_SECTIONS] = {
    "A.row_start", "A.col", "A.coeff", "B.row_start",   "B.col",           "B.coeff",
    "C.row_start", "C.col", "C.coeff", "a_aux_density", "b_input_density", "b_aux_density",
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

/* Sizes of the sections for given counts; false on arithmetic overflow. */
typedef struct {
    uint64_t size[N_SECTIONS], off[N_SECTIONS], total;
} layout;

static bool make_layout(layout *L, uint64_t ni, uint64_t na, uint64_t rows, const uint64_t nnz[3])
{
    bool ovf = false;
    for (int k = 0; k < 3; k++) {
        uint64_t r1;
        ovf |= __builtin_add_overflow(rows, 1, &r1);
        ovf |= __builtin_mul_overflow(r1, 8, &L->size[3 * k]);
        ovf |= __builtin_mul_overflow(nnz[k], 4, &L->size[3 * k + 1]);
        ovf |= __builtin_mul_overflow(nnz[k], 32, &L->size[3 * k + 2]);
    }
    L->size[9] = L->size[11] = ((na + 63) / 64) * 8;
    L->size[10] = ((ni + 63) / 64) * 8;
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

/* The twelve arrays of a record, in section order. */
static void section_ptrs(const cuzk_cs_record_t *rec, void *ptrs[N_SECTIONS])
{
    const cuzk_csr_t *ms[3] = {&rec->r1cs.a, &rec->r1cs.b, &rec->r1cs.c};
    for (int k = 0; k < 3; k++) {
        ptrs[3 * k] = ms[k]->row_start;
        ptrs[3 * k + 1] = ms[k]->col;
        ptrs[3 * k + 2] = ms[k]->coeff;
    }
    ptrs[9] = rec->a_aux_density;
    ptrs[10] = rec->b_input_density;
    ptrs[11] = rec->b_aux_density;
}

/* ---- save ---- */

cuzk_status cuzk_cs_record_save(const cuzk_cs_record_t *rec, const char *path, cuzk_err_t *err)
{
    const cuzk_r1cs_t *r = &rec->r1cs;
    uint64_t nnz[3] = {r->a.row_start[r->num_constraints], r->b.row_start[r->num_constraints],
                       r->c.row_start[r->num_constraints]};
    layout L;
    if (!make_layout(&L, r->num_inputs, r->num_aux, r->num_constraints, nnz))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%s: record too large to save", path);
    cuzk_cs_counts_t cnt;
    cuzk_cs_record_counts(rec, &cnt);

    uint8_t h[HEADER_SIZE] = {0};
    memcpy(h + H_MAGIC, FILE_MAGIC, 8);
    wr32(h + H_VERSION, FILE_VERSION);
    wr32(h + H_HSIZE, HEADER_SIZE);
    wr64(h + H_INPUTS, r->num_inputs);
    wr64(h + H_AUX, r->num_aux);
    wr64(h + H_ROWS, r->num_constraints);
    for (int k = 0; k < 3; k++)
        wr64(h + H_NNZ + 8 * k, nnz[k]);
    wr64(h + H_POP, cnt.a_aux_density);
    wr64(h + H_POP + 8, cnt.b_input_density);
    wr64(h + H_POP + 16, cnt.b_aux_density);
    void *ptrs[N_SECTIONS];
    section_ptrs(rec, ptrs);
    for (int s = 0; s < N_SECTIONS; s++)
        wr64(h + H_SUMS + 8 * s, ck_buf(ptrs[s], L.size[s]));
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
        st = cuzk_atomic_write(f, ptrs[s], L.size[s], err);
        if (st == CUZK_OK)
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

/* The arrays for a record of this layout (at least one element each). */
static bool alloc_record(cuzk_cs_record_t *rec, const layout *L)
{
    void **dst[N_SECTIONS] = {
        (void **)&rec->r1cs.a.row_start, (void **)&rec->r1cs.a.col,      (void **)&rec->r1cs.a.coeff,
        (void **)&rec->r1cs.b.row_start, (void **)&rec->r1cs.b.col,      (void **)&rec->r1cs.b.coeff,
        (void **)&rec->r1cs.c.row_start, (void **)&rec->r1cs.c.col,      (void **)&rec->r1cs.c.coeff,
        (void **)&rec->a_aux_density,    (void **)&rec->b_input_density, (void **)&rec->b_aux_density,
    };
    for (int s = 0; s < N_SECTIONS; s++) {
        size_t bytes = (size_t)L->size[s];
        *dst[s] = cs_big_realloc(NULL, 0, bytes ? bytes : 8);
        if (!*dst[s])
            return false;
    }
    return true;
}

/* CSR invariants of one matrix: row_start from 0 up to nnz, columns strictly increasing within a
 * row and below the number of variables, coefficients canonical and non-zero. */
static cuzk_status check_matrix(const cuzk_csr_t *m, int k, const cuzk_r1cs_t *r, uint64_t nnz,
                                const layout *L, const char *path, cuzk_err_t *err)
{
    const char *name = section_names[3 * k];
    uint64_t nvars = r->num_inputs + r->num_aux;
    if (m->row_start[0] != 0)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s (offset %llu): first entry is %llu, not 0", path,
                            name, (unsigned long long)L->off[3 * k], (unsigned long long)m->row_start[0]);
    for (size_t row = 0; row < r->num_constraints; row++) {
        uint64_t b = m->row_start[row], e = m->row_start[row + 1];
        if (e < b || e > nnz)
            return cuzk_err_set(
                err, CUZK_ERR_FORMAT,
                "%s: %s (offset %llu): row %zu ends at %llu (starts at %llu, %llu terms in all)", path, name,
                (unsigned long long)(L->off[3 * k] + 8 * (row + 1)), row, (unsigned long long)e,
                (unsigned long long)b, (unsigned long long)nnz);
        for (uint64_t t = b; t < e; t++) {
            if (m->col[t] >= nvars || (t > b && m->col[t] <= m->col[t - 1]))
                return cuzk_err_set(
                    err, CUZK_ERR_FORMAT,
                    "%s: %s (offset %llu): row %zu column %u out of range or order (%llu variables)", path,
                    section_names[3 * k + 1], (unsigned long long)(L->off[3 * k + 1] + 4 * t), row, m->col[t],
                    (unsigned long long)nvars);
            const fr *c = &m->coeff[t];
            bool below = false;
            for (int i = FR_LIMBS - 1; i >= 0; i--)
                if (c->l[i] != FR_MODULUS[i]) {
                    below = c->l[i] < FR_MODULUS[i];
                    break;
                }
            if (!below || fr_is_zero(c))
                return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s (offset %llu): coefficient %llu is %s",
                                    path, section_names[3 * k + 2],
                                    (unsigned long long)(L->off[3 * k + 2] + 32 * t), (unsigned long long)t,
                                    below ? "zero" : "not below the modulus");
        }
    }
    if (m->row_start[r->num_constraints] != nnz)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s: last entry %llu, header says %llu terms", path,
                            name, (unsigned long long)m->row_start[r->num_constraints],
                            (unsigned long long)nnz);
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
    if (fsize < HEADER_SIZE)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: truncated: %llu bytes, the header alone is %d", path,
                            (unsigned long long)fsize, HEADER_SIZE);
    if (!pread_full(fd, h, HEADER_SIZE, 0, &eno))
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: reading the header: %s", path,
                            eno ? strerror(eno) : "end of file");
    if (memcmp(h + H_MAGIC, FILE_MAGIC, 8) != 0)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: not a constraint-system cache (bad magic at offset 0)",
                            path);
    if (rd32(h + H_VERSION) != FILE_VERSION)
        return cuzk_err_set(err, CUZK_ERR_FORMAT,
                            "%s: format version %u (offset 8), this build reads version %u", path,
                            rd32(h + H_VERSION), FILE_VERSION);
    if (rd32(h + H_HSIZE) != HEADER_SIZE)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: header size %u (offset 12), expected %d", path,
                            rd32(h + H_HSIZE), HEADER_SIZE);
    if (ck_buf(h, H_SUM) != rd64(h + H_SUM))
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: header checksum mismatch (offset %d)", path, H_SUM);
    for (int i = H_RESERVED; i < H_SUM; i++)
        if (h[i])
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: reserved header byte at offset %d is not zero",
                                path, i);
    uint64_t ni = rd64(h + H_INPUTS), na = rd64(h + H_AUX), rows = rd64(h + H_ROWS);
    uint64_t nnz[3] = {rd64(h + H_NNZ), rd64(h + H_NNZ + 8), rd64(h + H_NNZ + 16)};
    if (ni < 1 || ni > (uint64_t)CUZK_VAR_MAX_INDEX + 1 || na > (uint64_t)CUZK_VAR_MAX_INDEX + 1 ||
        rows > SIZE_MAX / 64)
        return cuzk_err_set(
            err, CUZK_ERR_FORMAT, "%s: counts out of range (offset %d): %llu inputs, %llu aux, %llu rows",
            path, H_INPUTS, (unsigned long long)ni, (unsigned long long)na, (unsigned long long)rows);
    layout L;
    if (!make_layout(&L, ni, na, rows, nnz) || L.total > (uint64_t)SIZE_MAX / 2)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: sizes in the header overflow (offset %d)", path,
                            H_NNZ);
    if (fsize != L.total)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s: file has %llu bytes, the header describes %llu",
                            path, fsize < L.total ? "truncated" : "trailing data", (unsigned long long)fsize,
                            (unsigned long long)L.total);

    rec->r1cs.num_inputs = (size_t)ni;
    rec->r1cs.num_aux = (size_t)na;
    rec->r1cs.num_constraints = (size_t)rows;
    if (!alloc_record(rec, &L))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory for %llu bytes", path,
                            (unsigned long long)L.total);
    void *ptrs[N_SECTIONS];
    section_ptrs(rec, ptrs);
    for (int s = 0; s < N_SECTIONS; s++) {
        uint64_t sum;
        if (!read_section(fd, L.off[s], ptrs[s], L.size[s], &sum, &eno))
            return cuzk_err_set(err, eno ? CUZK_ERR_IO : CUZK_ERR_FORMAT, "%s: section %s (offset %llu): %s",
                                path, section_names[s], (unsigned long long)L.off[s],
                                eno ? strerror(eno) : "truncated");
        if (sum != rd64(h + H_SUMS + 8 * s))
            return cuzk_err_set(
                err, CUZK_ERR_FORMAT, "%s: section %s (offset %llu, %llu bytes): checksum mismatch", path,
                section_names[s], (unsigned long long)L.off[s], (unsigned long long)L.size[s]);
        uint64_t end = L.off[s] + L.size[s], next = s + 1 < N_SECTIONS ? L.off[s + 1] : L.total;
        uint8_t pad[ALIGN];
        if (next > end && !pread_full(fd, pad, (size_t)(next - end), end, &eno))
            return cuzk_err_set(err, CUZK_ERR_IO, "%s: padding at offset %llu: %s", path,
                                (unsigned long long)end, eno ? strerror(eno) : "end of file");
        for (uint64_t i = 0; i < next - end; i++)
            if (pad[i])
                return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: padding byte at offset %llu is not zero", path,
                                    (unsigned long long)(end + i));
    }

    const cuzk_csr_t *ms[3] = {&rec->r1cs.a, &rec->r1cs.b, &rec->r1cs.c};
    for (int k = 0; k < 3; k++) {
        cuzk_status stt = check_matrix(ms[k], k, &rec->r1cs, nnz[k], &L, path, err);
        if (stt != CUZK_OK)
            return stt;
    }
    /* The stored bitmaps must be exactly the matrices' densities (no stray bits past the counts). */
    size_t wa = cs_words((size_t)na), wi = cs_words((size_t)ni);
    uint64_t *d = malloc((2 * wa + wi + 1) * 8);
    if (!d)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    cuzk_r1cs_density(&rec->r1cs, d, d + wa, d + wa + wi);
    int bad = memcmp(d, rec->a_aux_density, wa * 8)             ? 9
              : memcmp(d + wa, rec->b_input_density, wi * 8)    ? 10
              : memcmp(d + wa + wi, rec->b_aux_density, wa * 8) ? 11
                                                                : 0;
    free(d);
    if (bad)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: section %s (offset %llu) does not match the matrices",
                            path, section_names[bad], (unsigned long long)L.off[bad]);
    cuzk_cs_counts_t cnt;
    cuzk_cs_record_counts(rec, &cnt);
    if (cnt.a_aux_density != rd64(h + H_POP) || cnt.b_input_density != rd64(h + H_POP + 8) ||
        cnt.b_aux_density != rd64(h + H_POP + 16))
        return cuzk_err_set(err, CUZK_ERR_FORMAT,
                            "%s: density counts in the header (offset %d) do not match the bitmaps", path,
                            H_POP);
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
