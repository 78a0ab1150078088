/* .params files (bellperson Parameters::write): writing, and reading through a mapping whose section
 * table is checked against the file size up front, with the verifying key decoded at open and each
 * query section decoded on first use, multi-threaded, into arrays owned by the opened file. Every read
 * of the mapping is guarded: a file that shrinks while in use gives CUZK_ERR_IO, not SIGBUS. */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "groth16/params_internal.h"
#include "util/map_guard.h"
#include "util/timer.h"
#include "util/timing.h"

enum { SEC_H, SEC_L, SEC_A, SEC_B_G1, SEC_B_G2, NSEC };

static const char *const SEC_NAME[NSEC] = {"h", "l", "a", "b_g1", "b_g2"};
static const char *const SEC_PHASE[NSEC] = {"params_load_h", "params_load_l", "params_load_a",
                                            "params_load_b_g1", "params_load_b_g2"};

static size_t sec_point_bytes(int s) { return s == SEC_B_G2 ? PARAMS_G2_BYTES : PARAMS_G1_BYTES; }
static size_t sec_elem_size(int s)
{
    return s == SEC_B_G2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t);
}

typedef struct {
    uint64_t off; /* byte offset of the first point */
    size_t n;
} section_t;

struct cuzk_params {
    params_map_t map; /* the file's mapping; empty when opened over a caller's buffer */
    const uint8_t *data;
    size_t len;
    char *what; /* the path, or "parameters buffer", for messages */
    cuzk_params_check check;
    int threads;
    section_t sec[NSEC];
    cuzk_groth16_pk_t pk;
    unsigned loaded;
    size_t decoded_bytes;
    pthread_mutex_t lock;
};

/* Where each section's array and length live in the key. */
static const size_t ARR_OFF[NSEC] = {
    offsetof(cuzk_groth16_pk_t, h), offsetof(cuzk_groth16_pk_t, l), offsetof(cuzk_groth16_pk_t, a),
    offsetof(cuzk_groth16_pk_t, b_g1), offsetof(cuzk_groth16_pk_t, b_g2)};
static const size_t LEN_OFF[NSEC] = {
    offsetof(cuzk_groth16_pk_t, h_len), offsetof(cuzk_groth16_pk_t, l_len),
    offsetof(cuzk_groth16_pk_t, a_len), offsetof(cuzk_groth16_pk_t, b_g1_len),
    offsetof(cuzk_groth16_pk_t, b_g2_len)};

static size_t pk_len(const cuzk_groth16_pk_t *pk, int s)
{
    return *(const size_t *)((const char *)pk + LEN_OFF[s]);
}
static const void *pk_arr(const cuzk_groth16_pk_t *pk, int s)
{
    return *(void *const *)((const char *)pk + ARR_OFF[s]);
}
static void **pk_arr_slot(cuzk_groth16_pk_t *pk, int s) { return (void **)((char *)pk + ARR_OFF[s]); }

/* ---- writing --------------------------------------------------------------------------------- */

uint64_t cuzk_params_file_size(const cuzk_groth16_pk_t *pk)
{
    uint64_t n = cuzk_params_vk_size(pk->vk.ic_len);
    for (int s = 0; s < NSEC; s++)
        n += 4 + (uint64_t)sec_point_bytes(s) * pk_len(pk, s);
    return n;
}

#define WRITE_CHUNK_POINTS 32768 /* 3 MiB of G1 encodings per write */

cuzk_status cuzk_params_write(const char *path, const cuzk_groth16_pk_t *pk, int threads,
                              cuzk_err_t *err)
{
    if (!path || !pk)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "params write: NULL argument");
    for (int s = 0; s < NSEC; s++) {
        size_t n = pk_len(pk, s);
        if (n > UINT32_MAX)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                                "%s: section %s has %zu points, more than a u32 length field holds",
                                path, SEC_NAME[s], n);
        if (n && !pk_arr(pk, s))
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%s: section %s is NULL with %zu points",
                                path, SEC_NAME[s], n);
    }
    threads = params_threads(threads);
    size_t vk_bytes = cuzk_params_vk_size(pk->vk.ic_len);
    uint8_t *vk_buf = malloc(vk_bytes);
    uint8_t *buf = malloc((size_t)WRITE_CHUNK_POINTS * PARAMS_G2_BYTES);
    cuzk_status st = CUZK_OK;
    if (!vk_buf || !buf)
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    if (st == CUZK_OK)
        st = cuzk_params_vk_encode(vk_buf, vk_bytes, &pk->vk, err);
    params_out_t o;
    if (st == CUZK_OK)
        st = params_out_open(&o, path, err);
    if (st != CUZK_OK) {
        free(vk_buf);
        free(buf);
        return st;
    }
    st = params_out_write(&o, vk_buf, vk_bytes, err);
    for (int s = 0; s < NSEC && st == CUZK_OK; s++) {
        size_t n = pk_len(pk, s);
        uint8_t len_be[4];
        params_put_u32be(len_be, (uint32_t)n);
        st = params_out_write(&o, len_be, 4, err);
        for (size_t i = 0; i < n && st == CUZK_OK; i += WRITE_CHUNK_POINTS) {
            size_t m = n - i < WRITE_CHUNK_POINTS ? n - i : WRITE_CHUNK_POINTS;
            if (s == SEC_B_G2)
                params_enc_g2_array(buf, pk->b_g2 + i, m, threads);
            else
                params_enc_g1_array(buf, (const cuzk_g1_affine_t *)pk_arr(pk, s) + i, m, threads);
            st = params_out_write(&o, buf, m * sec_point_bytes(s), err);
        }
    }
    if (st == CUZK_OK)
        st = params_out_commit(&o, err);
    else
        params_out_abort(&o);
    free(vk_buf);
    free(buf);
    return st;
}

/* ---- opening ------------------------------------------------------------------------------------ */

/* Walks the section table. Every count is checked against what is left of the file before the next
 * field is read, so a lying count can neither run past the end nor size an allocation. */
static cuzk_status parse_table(cuzk_params_t *p, cuzk_err_t *err)
{
    const uint8_t *d = p->data;
    uint64_t len = p->len;
    if (len < CUZK_PARAMS_VK_FIXED_BYTES)
        return cuzk_err_set(err, CUZK_ERR_FORMAT,
                            "%s: truncated in the verifying key: the file has %llu bytes, the "
                            "verifying key's fixed part alone needs %d",
                            p->what, (unsigned long long)len, CUZK_PARAMS_VK_FIXED_BYTES);
    uint32_t ic_len = params_get_u32be(d + PARAMS_VK_POINTS_BYTES);
    uint64_t off = CUZK_PARAMS_VK_FIXED_BYTES + (uint64_t)PARAMS_G1_BYTES * ic_len;
    if (off > len)
        return cuzk_err_set(err, CUZK_ERR_FORMAT,
                            "%s: truncated in vk.ic: %u points from byte %d need the file to reach "
                            "byte %llu, it ends at byte %llu",
                            p->what, ic_len, CUZK_PARAMS_VK_FIXED_BYTES, (unsigned long long)off,
                            (unsigned long long)len);
    for (int s = 0; s < NSEC; s++) {
        if (len - off < 4)
            return cuzk_err_set(err, CUZK_ERR_FORMAT,
                                "%s: truncated at the %s length field (byte %llu): the file ends at "
                                "byte %llu",
                                p->what, SEC_NAME[s], (unsigned long long)off, (unsigned long long)len);
        uint32_t n = params_get_u32be(d + off);
        off += 4;
        uint64_t bytes = (uint64_t)n * sec_point_bytes(s);
        if (bytes > len - off)
            return cuzk_err_set(err, CUZK_ERR_FORMAT,
                                "%s: truncated in section %s: %u points (%llu bytes) from byte %llu "
                                "need the file to reach byte %llu, it ends at byte %llu",
                                p->what, SEC_NAME[s], n, (unsigned long long)bytes,
                                (unsigned long long)off, (unsigned long long)(off + bytes),
                                (unsigned long long)len);
        p->sec[s].off = off;
        p->sec[s].n = n;
        off += bytes;
    }
    if (off != len)
        return cuzk_err_set(err, CUZK_ERR_FORMAT,
                            "%s: over-long: %llu bytes follow the end of section b_g2 (byte %llu)",
                            p->what, (unsigned long long)(len - off), (unsigned long long)off);
    return CUZK_OK;
}

/* The file's path for messages about its mapping (NULL for a caller's buffer). */
static const char *map_path(const cuzk_params_t *p) { return p->map.data ? p->what : NULL; }

typedef struct {
    cuzk_params_t *p;
    cuzk_err_t *err;
    cuzk_status st;
} table_job;

static void parse_table_job(void *ctx)
{
    table_job *j = ctx;
    j->st = parse_table(j->p, j->err); /* only reads the mapping: a fault abandons nothing */
}

/* The section table, then the verifying key from a copy of its bytes: each read of the mapping is
 * guarded (util/map_guard.h), so a file that shrinks after it was mapped gives an error, not SIGBUS. */
static cuzk_status read_header(cuzk_params_t *p, cuzk_err_t *err)
{
    table_job tj = {p, err, CUZK_OK};
    size_t at;
    if (!cuzk_map_guard_run(p->data, p->len, parse_table_job, &tj, &at))
        return params_map_fault(map_path(p), "the section table", at, p->len, err);
    if (tj.st != CUZK_OK)
        return tj.st;
    size_t vk_bytes = (size_t)p->sec[SEC_H].off - 4; /* the key ends where h's length field starts */
    uint8_t *vk = malloc(vk_bytes);
    if (!vk)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", p->what);
    cuzk_status st = CUZK_OK;
    size_t used;
    if (!cuzk_map_guard_copy(vk, p->data, vk_bytes, &at))
        st = params_map_fault(map_path(p), "the verifying key", at, p->len, err);
    else
        st = params_vk_decode_prefix(&p->pk.vk, vk, vk_bytes, &used, p->threads, p->what, err);
    free(vk);
    return st;
}

static cuzk_status open_common(cuzk_params_t *p, cuzk_params_t **out, cuzk_err_t *err)
{
    uint64_t t0 = cuzk_now_ns();
    cuzk_status st = read_header(p, err);
    if (st != CUZK_OK) {
        params_unmap(&p->map);
        free(p->what);
        free(p);
        return st;
    }
    cuzk_timing_report("params_load_vk", t0);
    for (int s = 0; s < NSEC; s++)
        *(size_t *)((char *)&p->pk + LEN_OFF[s]) = p->sec[s].n;
    p->decoded_bytes = sizeof(cuzk_g1_affine_t) * p->pk.vk.ic_len;
    pthread_mutex_init(&p->lock, NULL);
    *out = p;
    return CUZK_OK;
}

static cuzk_params_t *params_new(const char *what, cuzk_params_check check, int threads)
{
    cuzk_params_t *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->what = strdup(what);
    if (!p->what) {
        free(p);
        return NULL;
    }
    p->check = check;
    p->threads = params_threads(threads);
    return p;
}

static cuzk_status check_level(cuzk_params_check check, cuzk_err_t *err)
{
    if (check != CUZK_PARAMS_CHECK_NONE && check != CUZK_PARAMS_CHECK_CURVE &&
        check != CUZK_PARAMS_CHECK_SUBGROUP)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "params open: unknown check level %d",
                            (int)check);
    return CUZK_OK;
}

cuzk_status cuzk_params_open(cuzk_params_t **out, const char *path, cuzk_params_check check,
                             int threads, cuzk_err_t *err)
{
    if (!out || !path)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "params open: NULL argument");
    cuzk_status st = check_level(check, err);
    if (st != CUZK_OK)
        return st;
    cuzk_params_t *p = params_new(path, check, threads);
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    st = params_map_file(&p->map, path, err);
    if (st != CUZK_OK) {
        free(p->what);
        free(p);
        return st;
    }
    static const uint8_t none[1];
    p->data = p->map.data ? p->map.data : none;
    p->len = p->map.len;
    /* Sections are decoded front to back by several threads at once: let the kernel read ahead. */
    params_advise(p->map.data, p->map.len, MADV_SEQUENTIAL);
    return open_common(p, out, err);
}

cuzk_status cuzk_params_open_buffer(cuzk_params_t **out, const void *buf, size_t len,
                                    cuzk_params_check check, int threads, cuzk_err_t *err)
{
    if (!out || (!buf && len))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "params open: NULL argument");
    cuzk_status st = check_level(check, err);
    if (st != CUZK_OK)
        return st;
    cuzk_params_t *p = params_new("parameters buffer", check, threads);
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "parameters buffer: out of memory");
    static const uint8_t none[1];
    p->data = buf ? buf : none;
    p->len = len;
    return open_common(p, out, err);
}

/* ---- lazy decoding ------------------------------------------------------------------------------ */

/* Decoded arrays reach tens of GiB: ask for transparent huge pages (fewer TLB misses in the MSMs). */
#define HUGE_PAGE (2u << 20)

static void *array_alloc(size_t bytes)
{
    void *a = NULL;
    if (bytes >= HUGE_PAGE) {
        if (posix_memalign(&a, HUGE_PAGE, bytes) != 0)
            return NULL;
        (void)madvise(a, bytes, MADV_HUGEPAGE);
        return a;
    }
    return malloc(bytes);
}

/* Points decoded per run: the file's pages of one run are dropped before the next is read, so a
 * section's decoding adds at most this much to the process's RssFile (192 MiB of G1 encodings). */
#define LOAD_PIECE_POINTS ((size_t)1 << 21)

static cuzk_status load_section(cuzk_params_t *p, int s, cuzk_err_t *err)
{
    size_t n = p->sec[s].n;
    if (n == 0)
        return CUZK_OK;
    uint64_t t0 = cuzk_now_ns();
    size_t bytes = n * sec_elem_size(s);
    void *arr = array_alloc(bytes);
    if (!arr)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory for section %s (%zu bytes)",
                            p->what, SEC_NAME[s], bytes);
    cuzk_status st = params_decode_range(p, s, 0, n, arr, err);
    if (st != CUZK_OK) {
        free(arr);
        return st;
    }
    *pk_arr_slot(&p->pk, s) = arr;
    __atomic_store_n(&p->decoded_bytes, p->decoded_bytes + bytes, __ATOMIC_RELAXED);
    cuzk_timing_report(SEC_PHASE[s], t0);
    return CUZK_OK;
}

/* Decodes one run of at most LOAD_PIECE_POINTS points, its file pages read ahead before and dropped after:
 * the page cache keeps them, the process's RssFile grows by one run at most (only our own mapping: madvise
 * on a caller's buffer could discard its contents). */
static cuzk_status decode_run(cuzk_params_t *p, int s, size_t first, size_t n, void *out, cuzk_err_t *err)
{
    uint64_t off = p->sec[s].off + (uint64_t)first * sec_point_bytes(s);
    const uint8_t *src = p->data + off;
    size_t bytes = n * sec_point_bytes(s);
    params_read_ahead(&p->map, off, bytes); /* nothing to do where a read-ahead thread has been */
    size_t bad = 0;
    int code = CUZK_OK;
    bool ok = s == SEC_B_G2 ? params_dec_g2_array(out, src, n, p->check, p->threads, &bad, &code)
                            : params_dec_g1_array(out, src, n, p->check, p->threads, &bad, &code);
    if (p->map.data)
        params_advise(src, bytes, MADV_DONTNEED);
    if (!ok && code == PARAMS_DEC_MAP_FAULT) {
        char what[32];
        snprintf(what, sizeof what, "section %s", SEC_NAME[s]);
        return params_map_fault(map_path(p), what, off + (uint64_t)bad * sec_point_bytes(s), p->len, err);
    }
    if (!ok)
        return cuzk_err_set(err, params_code_status(code), "%s: %s[%zu] at byte %llu: %s", p->what, SEC_NAME[s],
                            first + bad, (unsigned long long)(off + (uint64_t)bad * sec_point_bytes(s)),
                            params_code_str(code));
    return CUZK_OK;
}

cuzk_status params_decode_range(cuzk_params_t *p, int s, size_t first, size_t n, void *out, cuzk_err_t *err)
{
    if (s < 0 || s >= NSEC || first > p->sec[s].n || n > p->sec[s].n - first)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%s: points %zu..+%zu of section %s (%zu points)", p->what,
                            first, n, s >= 0 && s < NSEC ? SEC_NAME[s] : "?", s >= 0 && s < NSEC ? p->sec[s].n : 0);
    cuzk_status st = CUZK_OK;
    for (size_t done = 0; done < n && st == CUZK_OK; done += LOAD_PIECE_POINTS) {
        size_t count = n - done < LOAD_PIECE_POINTS ? n - done : LOAD_PIECE_POINTS;
        st = decode_run(p, s, first + done, count, (char *)out + done * sec_elem_size(s), err);
    }
    return st;
}

static void *readahead_main(void *arg)
{
    params_readahead_t *r = arg;
    params_read_in(r->map, r->off, r->len);
    return NULL;
}

void params_readahead_start(params_readahead_t *r, const cuzk_params_t *p, int s, size_t first, size_t n)
{
    r->running = false;
    if (!p->map.data || s < 0 || s >= NSEC || first >= p->sec[s].n)
        return;
    if (n > p->sec[s].n - first)
        n = p->sec[s].n - first;
    r->map = &p->map;
    r->off = p->sec[s].off + (uint64_t)first * sec_point_bytes(s);
    r->len = (uint64_t)n * sec_point_bytes(s);
    r->running = n > 0 && pthread_create(&r->thread, NULL, readahead_main, r) == 0;
}

void params_readahead_wait(params_readahead_t *r)
{
    if (r->running)
        pthread_join(r->thread, NULL);
    r->running = false;
}

cuzk_status cuzk_params_load(cuzk_params_t *p, unsigned sections, cuzk_err_t *err)
{
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "params load: NULL argument");
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&p->lock);
    for (int s = 0; s < NSEC && st == CUZK_OK; s++) {
        unsigned bit = 1u << s;
        if ((sections & bit) && !(p->loaded & bit)) {
            st = load_section(p, s, err);
            if (st == CUZK_OK)
                p->loaded |= bit;
        }
    }
    pthread_mutex_unlock(&p->lock);
    return st;
}

void cuzk_params_unload(cuzk_params_t *p, unsigned sections)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    for (int s = 0; s < NSEC; s++) {
        unsigned bit = 1u << s;
        if ((sections & bit) && (p->loaded & bit)) {
            void **slot = pk_arr_slot(&p->pk, s);
            free(*slot);
            *slot = NULL;
            __atomic_store_n(&p->decoded_bytes, p->decoded_bytes - p->sec[s].n * sec_elem_size(s),
                             __ATOMIC_RELAXED);
            p->loaded &= ~bit;
        }
    }
    pthread_mutex_unlock(&p->lock);
}

const cuzk_groth16_pk_t *cuzk_params_key(const cuzk_params_t *p) { return p ? &p->pk : NULL; }

cuzk_status cuzk_params_get(const cuzk_groth16_pk_t **pk, cuzk_params_t *p, cuzk_err_t *err)
{
    if (!pk || !p)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "params get: NULL argument");
    cuzk_status st = cuzk_params_load(p, CUZK_PARAMS_SEC_ALL, err);
    if (st == CUZK_OK)
        *pk = &p->pk;
    return st;
}

size_t cuzk_params_decoded_bytes(const cuzk_params_t *p)
{
    /* Written under the lock, read without it: a budget only needs a recent value. */
    return p ? __atomic_load_n(&p->decoded_bytes, __ATOMIC_RELAXED) : 0;
}

void cuzk_params_close(cuzk_params_t *p)
{
    if (!p)
        return;
    cuzk_params_unload(p, CUZK_PARAMS_SEC_ALL);
    free(p->pk.vk.ic);
    pthread_mutex_destroy(&p->lock);
    params_unmap(&p->map);
    free(p->what);
    free(p);
}
