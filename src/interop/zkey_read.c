/* snarkjs Groth16 .zkey reader (BLS12-381): sections 1 (protocol), 2 (header + vk points), 3 (IC),
 * 4 (A/B coefficients), 5–7 (A, B1, B2 per wire), 8 (C per aux wire), 9 (H per domain point); 10
 * (MPC contributions) is ignored. Every section size is checked against the header before any point is
 * decoded; points are checked in parallel and used in place in the mapped file (see load_points). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "cuzk/interop.h"
#include "interop/binfile.h"
#include "interop/interop_internal.h"
#include "util/bigmem.h"
#include "util/parallel.h"

#define HEADER_BYTES (4 + 48 + 4 + 32 + 12 + 3 * LEM_G1_BYTES + 3 * LEM_G2_BYTES)
#define COEF_BYTES (12 + 32)

typedef struct {
    uint32_t n_vars, n_public, domain;
    const uint8_t *sec[10];
    uint64_t len[10];
} zkey_layout_t;

static const char *const SECTION_NAMES[10] = {
    "", "protocol", "header", "IC", "coefficients", "A points", "B1 points", "B2 points", "C points",
    "H points"};

/* Arrays of the key from 256 KiB on get huge pages (rounded up to a MiB, see util/bigmem.h): a
 * 4 KiB page fault costs ~10 µs on some virtual machines, and these are written once, right away.
 * free() releases them. */
static void *zkey_malloc(size_t bytes)
{
    if (bytes >= ((size_t)256 << 10) && bytes < ((size_t)1 << 20))
        bytes = (size_t)1 << 20;
    return cuzk_big_malloc(bytes);
}

static void free_csr(cuzk_csr_t *m)
{
    free(m->row_start);
    free(m->col);
    free(m->coeff);
    memset(m, 0, sizeof *m);
}

void cuzk_interop_vk_free(cuzk_groth16_vk_t *vk)
{
    if (!vk)
        return;
    free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

void cuzk_zkey_free(cuzk_zkey_t *zk)
{
    if (!zk)
        return;
    cuzk_groth16_pk_t *pk = &zk->pk;
    cuzk_interop_vk_free(&pk->vk);
    if (!zk->h_in_place)
        free(pk->h);
    if (!zk->l_in_place)
        free(pk->l);
    if (!zk->a_in_place)
        free(pk->a);
    if (!zk->b_g1_in_place)
        free(pk->b_g1);
    if (!zk->b_g2_in_place)
        free(pk->b_g2);
    free_csr(&zk->a);
    free_csr(&zk->b);
    free(zk->row_position);
    free(zk->h_source);
    if (zk->map)
        munmap((void *)zk->map, zk->map_size);
    memset(zk, 0, sizeof *zk);
}

/* Sections 1 and 2, and the header's vk points (checked in full: there are six). */
static cuzk_status read_header(const binfile_t *bf, zkey_layout_t *lay, cuzk_groth16_vk_t *vk,
                               cuzk_err_t *err)
{
    cuzk_status s;
    for (uint32_t t = 1; t <= 2; t++)
        if ((s = binfile_section(bf, t, &lay->sec[t], &lay->len[t], err)) != CUZK_OK)
            return s;
    if (lay->len[1] != 4)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: protocol section has %llu bytes, expected 4",
                            bf->path, (unsigned long long)lay->len[1]);
    uint32_t proto = binfile_u32(lay->sec[1]);
    if (proto != 1)
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "%s: zkey is for %s (protocol %u), not Groth16",
                            bf->path, proto == 2 ? "PLONK" : proto == 10 ? "FFLONK" : "another protocol",
                            proto);
    const uint8_t *h = lay->sec[2];
    uint64_t hlen = lay->len[2];
    uint32_t n8q = hlen >= 4 ? binfile_u32(h) : 0;
    if (hlen < 4 || n8q > hlen - 4)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: header section too short (%llu bytes)", bf->path,
                            (unsigned long long)hlen);
    if (!interop_is_bls_p(h + 4, n8q))
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "%s: zkey built for another curve (%s), not BLS12-381",
                            bf->path, interop_is_bn128_q(h + 4, n8q) ? "bn128" : "unknown base field");
    if (hlen != HEADER_BYTES)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: header section has %llu bytes, expected %d",
                            bf->path, (unsigned long long)hlen, HEADER_BYTES);
    if (binfile_u32(h + 52) != 32 || !interop_is_bls_r(h + 56, 32))
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "%s: zkey scalar field is not BLS12-381's r",
                            bf->path);
    lay->n_vars = binfile_u32(h + 88);
    lay->n_public = binfile_u32(h + 92);
    lay->domain = binfile_u32(h + 96);
    if ((uint64_t)lay->n_public + 1 > lay->n_vars)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: header: %u public signals + ONE > %u wires",
                            bf->path, lay->n_public, lay->n_vars);
    if (lay->domain < 2 || (lay->domain & (lay->domain - 1)) != 0 || lay->domain > (1u << 31))
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: header: domain size %u is not a power of two in 2..2^31",
                            bf->path, lay->domain);
    const uint8_t *p = h + 100;
    struct {
        int g2;
        void *dst;
        const char *name;
    } pts[6] = {{0, &vk->alpha_g1, "alpha_1"}, {0, &vk->beta_g1, "beta_1"},   {1, &vk->beta_g2, "beta_2"},
                {1, &vk->gamma_g2, "gamma_2"}, {0, &vk->delta_g1, "delta_1"}, {1, &vk->delta_g2, "delta_2"}};
    for (int i = 0; i < 6; i++) {
        s = pts[i].g2 ? interop_g2_from_lem(pts[i].dst, p, true) : interop_g1_from_lem(pts[i].dst, p, true);
        if (s != CUZK_OK)
            return cuzk_err_set(err, s, "%s: header: vk_%s: %s", bf->path, pts[i].name,
                                interop_point_err_word(s));
        p += pts[i].g2 ? LEM_G2_BYTES : LEM_G1_BYTES;
    }
    return CUZK_OK;
}

/* Sections 3..9 against the header's counts. */
static cuzk_status check_sections(const binfile_t *bf, zkey_layout_t *lay, cuzk_err_t *err)
{
    cuzk_status s;
    for (uint32_t t = 3; t <= 9; t++)
        if ((s = binfile_section(bf, t, &lay->sec[t], &lay->len[t], err)) != CUZK_OK)
            return s;
    uint64_t nv = lay->n_vars, np = lay->n_public;
    uint64_t want[10] = {0};
    want[3] = (np + 1) * LEM_G1_BYTES;
    want[4] = lay->len[4] >= 4 ? 4 + (uint64_t)binfile_u32(lay->sec[4]) * COEF_BYTES : 4;
    want[5] = nv * LEM_G1_BYTES;
    want[6] = nv * LEM_G1_BYTES;
    want[7] = nv * LEM_G2_BYTES;
    want[8] = (nv - np - 1) * LEM_G1_BYTES;
    want[9] = (uint64_t)lay->domain * LEM_G1_BYTES;
    for (uint32_t t = 3; t <= 9; t++)
        if (lay->len[t] != want[t])
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: section %u (%s) has %llu bytes, expected %llu",
                                bf->path, t, SECTION_NAMES[t], (unsigned long long)lay->len[t],
                                (unsigned long long)want[t]);
    return CUZK_OK;
}

static cuzk_status decode_points(const binfile_t *bf, uint32_t sec, const uint8_t *src, size_t n, int g2,
                                 void *dst, int threads, bool subgroup, cuzk_err_t *err);

/* The IC points belong to the verifying key: always copied, always checked in full. */
static cuzk_status read_ic(const binfile_t *bf, const zkey_layout_t *lay, cuzk_groth16_vk_t *vk, int threads,
                           cuzk_err_t *err)
{
    size_t n = (size_t)lay->n_public + 1;
    vk->ic = malloc(n * sizeof *vk->ic);
    if (!vk->ic)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", bf->path);
    vk->ic_len = n;
    return decode_points(bf, 3, lay->sec[3], n, 0, vk->ic, threads, true, err);
}

cuzk_status cuzk_zkey_read_vk(cuzk_groth16_vk_t *vk, const char *path, cuzk_err_t *err)
{
    if (!vk || !path)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_zkey_read_vk: NULL argument");
    binfile_t bf;
    cuzk_status s = binfile_open(&bf, path, "zkey", 2, err);
    if (s != CUZK_OK)
        return s;
    zkey_layout_t lay;
    cuzk_groth16_vk_t v;
    memset(&lay, 0, sizeof lay);
    memset(&v, 0, sizeof v);
    if ((s = read_header(&bf, &lay, &v, err)) == CUZK_OK && (s = check_sections(&bf, &lay, err)) == CUZK_OK &&
        (s = read_ic(&bf, &lay, &v, cuzk_cpu_count(), err)) == CUZK_OK) {
        *vk = v;
        memset(&v, 0, sizeof v);
    }
    cuzk_interop_vk_free(&v);
    binfile_close(&bf);
    return s;
}

/* ---- points ------------------------------------------------------------------------------------- */

/* zkey points are little-endian Montgomery coordinates, x then y (c0 before c1 in Fp2): byte for byte
 * cuzk's affine structs, whose Montgomery factor 2^384 is ffjavascript's too. So the arrays can be
 * used where they lie in the mapped file, after a check of every point, instead of being copied. */
_Static_assert(sizeof(g1_aff) == LEM_G1_BYTES, "g1 affine layout differs from the zkey's");
_Static_assert(sizeof(g2_aff) == LEM_G2_BYTES, "g2 affine layout differs from the zkey's");

typedef struct {
    const uint8_t *src;
    void *dst;            /* NULL: check only */
    int g2;
    bool subgroup;
    pthread_mutex_t mu;
    size_t bad_index;     /* first failing index, SIZE_MAX = none */
    cuzk_status bad_status;
} decode_job_t;

static void decode_fail(decode_job_t *job, size_t i, cuzk_status s)
{
    pthread_mutex_lock(&job->mu);
    if (i < job->bad_index) {
        job->bad_index = i;
        job->bad_status = s;
    }
    pthread_mutex_unlock(&job->mu);
}

#define DECODE_BLOCK 128

/* Block by block: coordinates (into dst, or a scratch block when only checking), then the curve
 * equation for the block at once, then the subgroup if asked; the first failure is what counts. */
static void decode_chunk(void *ctx, size_t begin, size_t end)
{
    decode_job_t *job = ctx;
    size_t esz = job->g2 ? sizeof(g2_aff) : sizeof(g1_aff);
    union {
        g1_aff g1[DECODE_BLOCK];
        g2_aff g2[DECODE_BLOCK];
    } scratch;
    for (size_t b = begin; b < end; b += DECODE_BLOCK) {
        size_t m = end - b < DECODE_BLOCK ? end - b : DECODE_BLOCK;
        void *pts = job->dst ? (uint8_t *)job->dst + b * esz : (void *)&scratch;
        g1_aff *p1 = pts;
        g2_aff *p2 = pts;
        const uint8_t *src = job->src + b * esz;
        size_t ok = 0; /* leading points with canonical coordinates */
        while (ok < m && (job->g2 ? interop_g2_lem_coords(&p2[ok], src + ok * esz)
                                  : interop_g1_lem_coords(&p1[ok], src + ok * esz)))
            ok++;
        size_t off = job->g2 ? g2_aff_first_off_curve(p2, ok) : g1_aff_first_off_curve(p1, ok);
        if (off < ok || ok < m) {
            decode_fail(job, b + (off < ok ? off : ok), off < ok ? CUZK_ERR_NOT_ON_CURVE : CUZK_ERR_NOT_CANONICAL);
            return;
        }
        for (size_t i = 0; job->subgroup && i < m; i++) {
            bool in = job->g2 ? g2_aff_is_inf(&p2[i]) || g2_aff_in_subgroup(&p2[i])
                              : g1_aff_is_inf(&p1[i]) || g1_aff_in_subgroup(&p1[i]);
            if (!in) {
                decode_fail(job, b + i, CUZK_ERR_NOT_IN_SUBGROUP);
                return;
            }
        }
    }
}

/* Checks the n points of section sec and decodes them into dst (NULL: check only). */
static cuzk_status decode_points(const binfile_t *bf, uint32_t sec, const uint8_t *src, size_t n, int g2,
                                 void *dst, int threads, bool subgroup, cuzk_err_t *err)
{
    decode_job_t job = {.src = src, .dst = dst, .g2 = g2, .subgroup = subgroup, .bad_index = SIZE_MAX,
                        .bad_status = CUZK_OK};
    pthread_mutex_init(&job.mu, NULL);
    /* Subgroup checks cost ~10^3 times a decode: smaller chunks keep the threads balanced. */
    cuzk_parallel_for(threads, n, subgroup ? 16 : 1024, decode_chunk, &job);
    pthread_mutex_destroy(&job.mu);
    if (job.bad_index != SIZE_MAX)
        return cuzk_err_set(err, job.bad_status, "%s: section %u (%s) point %zu: %s", bf->path, sec,
                            SECTION_NAMES[sec], job.bad_index, interop_point_err_word(job.bad_status));
    return CUZK_OK;
}

/* The point array of section sec: checked in place in the mapping when its offset suits the structs'
 * alignment (then *in_place is set), else decoded into a fresh array. */
static cuzk_status load_points(const binfile_t *bf, uint32_t sec, const uint8_t *src, size_t n, int g2,
                               void **out, bool *in_place, int threads, bool subgroup, cuzk_err_t *err)
{
    size_t align = g2 ? _Alignof(g2_aff) : _Alignof(g1_aff);
    *in_place = ((uintptr_t)src % align) == 0;
    void *dst = NULL;
    if (!*in_place) {
        dst = cuzk_big_malloc(n * (g2 ? sizeof(g2_aff) : sizeof(g1_aff)));
        if (!dst)
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory for %zu points of section %u",
                                bf->path, n, sec);
    }
    cuzk_status s = decode_points(bf, sec, src, n, g2, dst, threads, subgroup, err);
    if (s != CUZK_OK) {
        free(dst);
        return s;
    }
    *out = *in_place ? (void *)src : dst;
    return CUZK_OK;
}

/* ---- coefficients, in parallel ------------------------------------------------------------------- */

/* snarkjs writes each matrix's coefficients in row order (the two matrices interleaved), so entry i's
 * place in its matrix is the number of entries of that matrix before it: chunks of the section can be
 * checked, counted and placed by separate threads. This path takes only well-formed sections in that
 * order; anything else (a bad value, rows out of order, a wrong input row) goes to the serial reader
 * below, which finds and names the first fault exactly as before. */
#define COEF_CHUNK_MIN 8192

typedef struct {
    uint32_t max_row;          /* largest row seen */
    bool ok;                   /* every entry in range, canonical, rows non-decreasing per matrix */
    bool inputs_ok;            /* (pass 2) the input-row entries are as zkey_new writes them */
    int64_t first_row[2], last_row[2]; /* per matrix, -1 when the chunk has none */
    uint64_t cnt[2];           /* (pass 2) circuit-row entries per matrix */
    int64_t last_circ[2];      /* (pass 2) their last row, -1 if none */
    uint64_t n_input;          /* (pass 2) input-row entries */
    uint64_t at[2];            /* (pass 3) where the chunk's entries of each matrix start */
    int64_t prev_row[2];       /* (pass 3) the matrix's last row before this chunk, -1 if none */
} coef_chunk_t;

typedef struct {
    const uint8_t *p;          /* the first entry */
    uint32_t n, domain, n_vars;
    uint64_t n_cons;
    size_t nch;
    coef_chunk_t *ch;
    atomic_uchar *seen;        /* input rows seen (pass 2) */
    cuzk_csr_t *mats[2];
} coef_job_t;

static void coef_range(const coef_job_t *j, size_t c, uint32_t *lo, uint32_t *hi)
{
    *lo = (uint32_t)((uint64_t)j->n * c / j->nch);
    *hi = (uint32_t)((uint64_t)j->n * (c + 1) / j->nch);
}

/* Pass 1: ranges, canonical values, row order. */
static void coef_check_chunk(void *ctx, size_t begin, size_t end)
{
    coef_job_t *j = ctx;
    for (size_t c = begin; c < end; c++) {
        coef_chunk_t *k = &j->ch[c];
        uint32_t lo, hi, max_row = 0;
        coef_range(j, c, &lo, &hi);
        k->first_row[0] = k->first_row[1] = k->last_row[0] = k->last_row[1] = -1;
        k->ok = true;
        for (uint32_t i = lo; i < hi && k->ok; i++) {
            const uint8_t *e = j->p + (uint64_t)i * COEF_BYTES;
            uint32_t m = binfile_u32(e), row = binfile_u32(e + 4), wire = binfile_u32(e + 8);
            uint64_t lim[FR_LIMBS];
            binfile_limbs(lim, e + 12, FR_LIMBS);
            if (m > 1 || row >= j->domain || wire >= j->n_vars || !interop_limbs_lt(lim, FR_MODULUS, FR_LIMBS) ||
                (int64_t)row < k->last_row[m]) {
                k->ok = false;
                break;
            }
            if (k->first_row[m] < 0)
                k->first_row[m] = row;
            k->last_row[m] = row;
            if (row > max_row)
                max_row = row;
        }
        k->max_row = max_row;
    }
}

/* Pass 2: entries per matrix in circuit rows; the input rows (A = 1·wire s at row n_cons + s). */
static void coef_count_chunk(void *ctx, size_t begin, size_t end)
{
    coef_job_t *j = ctx;
    for (size_t c = begin; c < end; c++) {
        coef_chunk_t *k = &j->ch[c];
        uint32_t lo, hi;
        coef_range(j, c, &lo, &hi);
        k->cnt[0] = k->cnt[1] = k->n_input = 0;
        k->last_circ[0] = k->last_circ[1] = -1;
        k->inputs_ok = true;
        for (uint32_t i = lo; i < hi; i++) {
            const uint8_t *e = j->p + (uint64_t)i * COEF_BYTES;
            uint32_t m = binfile_u32(e), row = binfile_u32(e + 4), wire = binfile_u32(e + 8);
            if (row < j->n_cons) {
                k->cnt[m]++;
                k->last_circ[m] = row;
                continue;
            }
            uint64_t s = row - j->n_cons;
            cuzk_fr_t v, w;
            binfile_limbs(v.l, e + 12, FR_LIMBS);
            fr_from_mont(w.l, &v);
            if (m != 0 || wire != s || !fr_eq(&w, &FR_ONE) || atomic_exchange(&j->seen[s], 1)) {
                k->inputs_ok = false;
                break;
            }
            k->n_input++;
        }
    }
}

/* Pass 3: columns, values (one Montgomery reduction each, see read_coefficients) and row starts:
 * rows prev+1 .. row start where the first entry of `row` goes; each row start has one writer. */
static void coef_fill_chunk(void *ctx, size_t begin, size_t end)
{
    coef_job_t *j = ctx;
    for (size_t c = begin; c < end; c++) {
        coef_chunk_t *k = &j->ch[c];
        uint32_t lo, hi;
        coef_range(j, c, &lo, &hi);
        uint64_t at[2] = {k->at[0], k->at[1]};
        int64_t prev[2] = {k->prev_row[0], k->prev_row[1]};
        for (uint32_t i = lo; i < hi; i++) {
            const uint8_t *e = j->p + (uint64_t)i * COEF_BYTES;
            uint32_t m = binfile_u32(e), row = binfile_u32(e + 4), wire = binfile_u32(e + 8);
            if (row >= j->n_cons)
                continue;
            cuzk_csr_t *mat = j->mats[m];
            for (int64_t r = prev[m] + 1; r <= (int64_t)row; r++)
                mat->row_start[r] = at[m];
            prev[m] = row;
            cuzk_fr_t v;
            binfile_limbs(v.l, e + 12, FR_LIMBS);
            mat->col[at[m]] = wire;
            fr_from_mont(mat->coeff[at[m]].l, &v);
            at[m]++;
        }
    }
}

/* The parallel reader: false (with nothing kept in zk) when the section is not one it takes. */
static bool coef_parallel(const zkey_layout_t *lay, cuzk_zkey_t *zk, int threads, const interop_zkey_coef_opts *o)
{
    coef_job_t j = {.p = lay->sec[4] + 4, .n = binfile_u32(lay->sec[4]), .domain = lay->domain,
                    .n_vars = lay->n_vars, .mats = {&zk->a, &zk->b}};
    if (o->serial_only)
        return false;
    size_t coef_chunk_min = o->chunk_min ? o->chunk_min : COEF_CHUNK_MIN;
    size_t nch = (size_t)threads * 4;
    if (nch > j.n / coef_chunk_min)
        nch = j.n / coef_chunk_min;
    j.nch = nch ? nch : 1;
    j.ch = calloc(j.nch, sizeof *j.ch);
    uint64_t n_in = (uint64_t)lay->n_public + 1;
    bool ok = j.ch != NULL;
    if (ok)
        cuzk_parallel_for(threads, j.nch, 1, coef_check_chunk, &j);
    /* Rows in order across chunks too; the largest row gives the circuit's size. */
    uint64_t rows = 0;
    int64_t last[2] = {-1, -1};
    for (size_t c = 0; ok && c < j.nch; c++) {
        coef_chunk_t *k = &j.ch[c];
        ok = k->ok && !(k->first_row[0] >= 0 && k->first_row[0] < last[0]) &&
             !(k->first_row[1] >= 0 && k->first_row[1] < last[1]);
        for (int m = 0; m < 2; m++)
            if (k->last_row[m] >= 0)
                last[m] = k->last_row[m];
        if (j.n && k->max_row + 1ull > rows)
            rows = k->max_row + 1ull;
    }
    uint64_t want = 2;
    while (want < rows)
        want <<= 1;
    ok = ok && rows >= n_in && want == lay->domain;
    if (ok) {
        j.n_cons = rows - n_in;
        j.seen = calloc(n_in, sizeof *j.seen);
        ok = j.seen != NULL;
    }
    if (ok)
        cuzk_parallel_for(threads, j.nch, 1, coef_count_chunk, &j);
    uint64_t tot[2] = {0, 0}, inputs = 0;
    int64_t prev[2] = {-1, -1};
    for (size_t c = 0; ok && c < j.nch; c++) {
        coef_chunk_t *k = &j.ch[c];
        ok = k->inputs_ok;
        inputs += k->n_input;
        for (int m = 0; m < 2; m++) {
            k->at[m] = tot[m];
            k->prev_row[m] = prev[m];
            tot[m] += k->cnt[m];
            if (k->cnt[m])
                prev[m] = k->last_circ[m];
        }
    }
    ok = ok && inputs == n_in; /* none twice (pass 2), so each one once */
    for (int m = 0; ok && m < 2; m++) {
        cuzk_csr_t *mat = j.mats[m];
        mat->row_start = zkey_malloc((j.n_cons + 2) * sizeof(uint64_t));
        mat->col = zkey_malloc((tot[m] ? tot[m] : 1) * sizeof(uint32_t));
        mat->coeff = cuzk_big_malloc((tot[m] ? tot[m] : 1) * sizeof(cuzk_fr_t));
        ok = mat->row_start && mat->col && mat->coeff;
    }
    if (ok) {
        cuzk_parallel_for(threads, j.nch, 1, coef_fill_chunk, &j);
        for (int m = 0; m < 2; m++) /* the rows after the matrix's last entry, and the end */
            for (int64_t r = prev[m] + 1; r <= (int64_t)j.n_cons + 1; r++)
                j.mats[m]->row_start[r] = tot[m];
        zk->num_constraints = (size_t)j.n_cons;
    } else {
        free_csr(&zk->a);
        free_csr(&zk->b);
    }
    free(j.ch);
    free(j.seen);
    return ok;
}

/* ---- coefficients, serially ---------------------------------------------------------------------- */

/* Splits section 4 into the circuit's A and B rows and checks the n_public + 1 input rows that
 * zkey_new appends (A = 1·wire s at row num_constraints + s, nothing in B). */
static cuzk_status read_coefficients(const binfile_t *bf, const zkey_layout_t *lay, cuzk_zkey_t *zk,
                                     int threads, const interop_zkey_coef_opts *coef, cuzk_err_t *err)
{
    if (coef_parallel(lay, zk, threads, coef))
        return CUZK_OK;
    const uint8_t *p = lay->sec[4] + 4;
    uint32_t n = binfile_u32(lay->sec[4]);
    uint64_t rows = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = p + (uint64_t)i * COEF_BYTES;
        uint32_t m = binfile_u32(e), row = binfile_u32(e + 4), wire = binfile_u32(e + 8);
        if (m > 1 || row >= lay->domain || wire >= lay->n_vars)
            return cuzk_err_set(err, CUZK_ERR_FORMAT,
                                "%s: coefficient %u: matrix %u, row %u, wire %u out of range "
                                "(2 matrices, %u rows, %u wires)",
                                bf->path, i, m, row, wire, lay->domain, lay->n_vars);
        uint64_t lim[FR_LIMBS];
        binfile_limbs(lim, e + 12, FR_LIMBS);
        if (!interop_limbs_lt(lim, FR_MODULUS, FR_LIMBS))
            return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "%s: coefficient %u: value not below r",
                                bf->path, i);
        if (row + 1ull > rows)
            rows = row + 1ull;
    }
    uint64_t n_in = (uint64_t)lay->n_public + 1;
    if (rows < n_in)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: coefficients: the %llu input rows are missing",
                            bf->path, (unsigned long long)n_in);
    uint64_t n_cons = rows - n_in;
    uint64_t want = 2;
    while (want < rows)
        want <<= 1;
    if (want != lay->domain)
        return cuzk_err_set(err, CUZK_ERR_FORMAT,
                            "%s: domain size %u does not fit %llu constraints + %llu inputs (expected %llu)",
                            bf->path, lay->domain, (unsigned long long)n_cons, (unsigned long long)n_in,
                            (unsigned long long)want);

    /* Count per row, checking the input rows on the way. */
    cuzk_csr_t *mats[2] = {&zk->a, &zk->b};
    for (int m = 0; m < 2; m++) {
        mats[m]->row_start = calloc(n_cons + 2, sizeof(uint64_t));
        if (!mats[m]->row_start)
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", bf->path);
    }
    uint8_t *seen = calloc(n_in, 1);
    if (!seen)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", bf->path);
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = p + (uint64_t)i * COEF_BYTES;
        uint32_t m = binfile_u32(e), row = binfile_u32(e + 4), wire = binfile_u32(e + 8);
        if (row < n_cons) {
            mats[m]->row_start[row + 2]++;
            continue;
        }
        uint64_t s = row - n_cons;
        cuzk_fr_t v, w; /* 1 is stored as R² mod r: see the conversion below */
        binfile_limbs(v.l, e + 12, FR_LIMBS);
        fr_from_mont(w.l, &v);
        if (m != 0 || wire != s || seen[s] || !fr_eq(&w, &FR_ONE)) {
            free(seen);
            return cuzk_err_set(err, CUZK_ERR_FORMAT,
                                "%s: coefficient %u: input row %llu must hold exactly A = 1 x wire %llu",
                                bf->path, i, (unsigned long long)row, (unsigned long long)s);
        }
        seen[s] = 1;
    }
    for (uint64_t s = 0; s < n_in; s++) {
        if (!seen[s]) {
            free(seen);
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: coefficients: input row %llu (wire %llu) missing",
                                bf->path, (unsigned long long)(n_cons + s), (unsigned long long)s);
        }
    }
    free(seen);
    /* row_start[k + 2] holds row k's count: prefix sums leave row k's start in row_start[k + 1],
     * the fill below advances it to row k's end = row k + 1's start. */
    for (int m = 0; m < 2; m++) {
        uint64_t *rs = mats[m]->row_start;
        for (uint64_t k = 2; k < n_cons + 2; k++)
            rs[k] += rs[k - 1];
        uint64_t total = rs[n_cons + 1];
        mats[m]->col = cuzk_big_malloc(total * sizeof(uint32_t));
        mats[m]->coeff = cuzk_big_malloc(total * sizeof(cuzk_fr_t));
        if (!mats[m]->col || !mats[m]->coeff)
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory for %llu coefficients",
                                bf->path, (unsigned long long)total);
    }
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = p + (uint64_t)i * COEF_BYTES;
        uint32_t m = binfile_u32(e), row = binfile_u32(e + 4), wire = binfile_u32(e + 8);
        if (row >= n_cons)
            continue;
        /* The stored integer is value·R² mod r; read as Montgomery limbs it is value·R, so one
         * Montgomery reduction gives the Montgomery form of value. */
        cuzk_fr_t v;
        binfile_limbs(v.l, e + 12, FR_LIMBS);
        uint64_t at = mats[m]->row_start[row + 1]++;
        mats[m]->col[at] = wire;
        fr_from_mont(mats[m]->coeff[at].l, &v);
    }
    zk->num_constraints = (size_t)n_cons;
    return CUZK_OK;
}

/* row_position and h_source for ffjavascript's root ω^K. */
static cuzk_status build_positions(const binfile_t *bf, cuzk_zkey_t *zk, cuzk_err_t *err)
{
    uint64_t m = zk->domain_size, k = cuzk_interop_ffjs_root_log();
    size_t rows = zk->num_constraints + zk->n_public + 1;
    zk->row_position = zkey_malloc(rows * sizeof(uint32_t));
    zk->h_source = zkey_malloc(m * sizeof(uint32_t));
    if (!zk->row_position || !zk->h_source)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", bf->path);
    uint64_t km = k & (m - 1), k2m = k & (2 * m - 1);
    for (size_t i = 0; i < rows; i++)
        zk->row_position[i] = (uint32_t)((km * i) & (m - 1));
    for (uint64_t i = 0; i < m; i++)
        zk->h_source[i] = (uint32_t)((((k2m * (2 * i + 1)) & (2 * m - 1)) - 1) / 2);
    return CUZK_OK;
}

cuzk_status cuzk_zkey_read(cuzk_zkey_t *out, const char *path, int threads, unsigned flags, cuzk_err_t *err)
{
    return interop_zkey_read_ex(out, path, threads, flags, NULL, err);
}

cuzk_status interop_zkey_read_ex(cuzk_zkey_t *out, const char *path, int threads, unsigned flags,
                                 const interop_zkey_coef_opts *coef, cuzk_err_t *err)
{
    static const interop_zkey_coef_opts defaults = {0};
    if (!coef)
        coef = &defaults;
    if (!out || !path || threads < 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_zkey_read: bad argument");
    if (threads == 0)
        threads = cuzk_cpu_count();
    bool subgroup = (flags & CUZK_ZKEY_CHECK_SUBGROUP) != 0;
    binfile_t bf;
    cuzk_status s = binfile_open(&bf, path, "zkey", 2, err);
    if (s != CUZK_OK)
        return s;
    binfile_populate(&bf);
    zkey_layout_t lay;
    cuzk_zkey_t zk;
    memset(&lay, 0, sizeof lay);
    memset(&zk, 0, sizeof zk);
    cuzk_groth16_pk_t *pk = &zk.pk;
    if ((s = read_header(&bf, &lay, &pk->vk, err)) != CUZK_OK ||
        (s = check_sections(&bf, &lay, err)) != CUZK_OK ||
        (s = read_ic(&bf, &lay, &pk->vk, threads, err)) != CUZK_OK)
        goto out;
    zk.n_vars = lay.n_vars;
    zk.n_public = lay.n_public;
    zk.domain_size = lay.domain;
    if ((s = read_coefficients(&bf, &lay, &zk, threads, coef, err)) != CUZK_OK ||
        (s = build_positions(&bf, &zk, err)) != CUZK_OK)
        goto out;
    size_t nv = lay.n_vars, naux = nv - lay.n_public - 1;
    struct {
        uint32_t sec;
        size_t n;
        int g2;
        void **dst;
        bool *in_place;
    } arrays[5] = {{5, nv, 0, (void **)&pk->a, &zk.a_in_place},
                   {6, nv, 0, (void **)&pk->b_g1, &zk.b_g1_in_place},
                   {7, nv, 1, (void **)&pk->b_g2, &zk.b_g2_in_place},
                   {8, naux, 0, (void **)&pk->l, &zk.l_in_place},
                   {9, lay.domain, 0, (void **)&pk->h, &zk.h_in_place}};
    for (int i = 0; i < 5; i++) {
        s = load_points(&bf, arrays[i].sec, lay.sec[arrays[i].sec], arrays[i].n, arrays[i].g2, arrays[i].dst,
                        arrays[i].in_place, threads, subgroup, err);
        if (s != CUZK_OK)
            goto out;
    }
    pk->a_len = pk->b_g1_len = pk->b_g2_len = nv;
    pk->l_len = naux;
    pk->h_len = lay.domain;
    if (zk.a_in_place || zk.b_g1_in_place || zk.b_g2_in_place || zk.l_in_place || zk.h_in_place) {
        zk.map = bf.data; /* the in-place arrays live as long as the key */
        zk.map_size = bf.size;
        bf.data = NULL;
    }
    *out = zk;
    memset(&zk, 0, sizeof zk);
out:
    cuzk_zkey_free(&zk);
    binfile_close(&bf);
    return s;
}
