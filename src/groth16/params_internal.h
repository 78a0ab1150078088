/* Internal pieces shared by the parameter-file sources: the bulk point codec (fast, multi-threaded
 * decoding of uncompressed points straight from a mapping), the verifying-key codec the .params reader
 * reuses, and writing through the atomic file writer. */
#ifndef CUZK_GROTH16_PARAMS_INTERNAL_H
#define CUZK_GROTH16_PARAMS_INTERNAL_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cuzk/file.h"
#include "cuzk/params.h"

#define PARAMS_G1_BYTES 96
#define PARAMS_G2_BYTES 192
#define PARAMS_VK_POINTS_BYTES 864 /* 3·96 + 3·192 */

/* Per-point result codes: 0 = ok, a cuzk_status, PARAMS_DEC_INFINITY (the point at infinity where it
 * is not allowed; the public functions turn it into CUZK_ERR_FORMAT), or PARAMS_DEC_MAP_FAULT (the
 * array decoders only: the input could not be read there, a mapped file that shrank while in use or a
 * failed read; CUZK_ERR_IO). */
#define PARAMS_DEC_INFINITY 1000
#define PARAMS_DEC_MAP_FAULT 1001

int params_dec_g1(cuzk_g1_affine_t *out, const uint8_t in[PARAMS_G1_BYTES], cuzk_params_check check,
                  bool allow_inf);
int params_dec_g2(cuzk_g2_affine_t *out, const uint8_t in[PARAMS_G2_BYTES], cuzk_params_check check,
                  bool allow_inf);

/* Decodes n consecutive points (no infinity allowed) on `threads` threads (resolved: >= 1). Returns
 * true on success; otherwise *bad_index is the lowest bad index and *bad_code its code, and out holds
 * garbage. The input may be a file mapping: a read fault in it (util/map_guard.h) stops every thread and
 * is reported as PARAMS_DEC_MAP_FAULT at the point that faulted (the lowest such index when several
 * did; bad points at lower indices may then go unreported). */
bool params_dec_g1_array(cuzk_g1_affine_t *out, const uint8_t *in, size_t n, cuzk_params_check check,
                         int threads, size_t *bad_index, int *bad_code);
bool params_dec_g2_array(cuzk_g2_affine_t *out, const uint8_t *in, size_t n, cuzk_params_check check,
                         int threads, size_t *bad_index, int *bad_code);

void params_enc_g1(uint8_t out[PARAMS_G1_BYTES], const cuzk_g1_affine_t *p);
void params_enc_g2(uint8_t out[PARAMS_G2_BYTES], const cuzk_g2_affine_t *p);
void params_enc_g1_array(uint8_t *out, const cuzk_g1_affine_t *in, size_t n, int threads);
void params_enc_g2_array(uint8_t *out, const cuzk_g2_affine_t *in, size_t n, int threads);

/* "bad flag bits", "not on the curve", ...: what a point code means, for messages. */
const char *params_code_str(int code);
/* The status a point code becomes. */
cuzk_status params_code_status(int code);

/* Decodes the verifying key at the start of buf: the six points and ic_len must fit in len, ic
 * must too (otherwise CUZK_ERR_FORMAT); *used = bytes consumed. Always fully checked. `what` names
 * the source in messages (a path or "verifying key"). */
cuzk_status params_vk_decode_prefix(cuzk_groth16_vk_t *vk, const uint8_t *buf, size_t len,
                                    size_t *used, int threads, const char *what, cuzk_err_t *err);

/* Threads to use for a caller's request (0 = every online CPU). */
int params_threads(int requested);

/* A read-only private mapping of a whole file (data = NULL for an empty file), with the file kept open
 * while it is mapped (fd, valid only when data is not NULL) for reading ahead. */
typedef struct {
    const uint8_t *data;
    size_t len;
    int fd;
} params_map_t;
cuzk_status params_map_file(params_map_t *m, const char *path, cuzk_err_t *err);
void params_unmap(params_map_t *m);
/* The error for a read of a mapped file (path; NULL: a caller's buffer) that faulted at byte `at`
 * while reading `what` (a section's name): CUZK_ERR_IO saying whether the file shrank since it was
 * mapped (mapped_len bytes) or could not be read. */
cuzk_status params_map_fault(const char *path, const char *what, uint64_t at, uint64_t mapped_len,
                             cuzk_err_t *err);
/* madvise over [base, base + len), widened to whole pages; failures are ignored (advice only). */
void params_advise(const void *base, size_t len, int advice);
/* Starts reading bytes [off, off + len) of a mapped file into the page cache and returns without waiting
 * for the disk (posix_fadvise WILLNEED, in steps of the kernel's readahead window: one call reads no more
 * than that, and madvise WILLNEED on the mapping reads nothing). Advice only: failures are ignored, and
 * an unmapped m reads nothing. */
void params_read_ahead(const params_map_t *m, uint64_t off, uint64_t len);
/* Reads bytes [off, off + len) of a mapped file into the page cache and returns when they are there
 * (MADV_POPULATE_READ over short-lived mappings of the range: nothing stays mapped in the process). For a
 * thread that reads ahead of the decoder: the kernel drops WILLNEED requests beyond its device queue (on
 * the Xeon VM one 1 GiB request in 8 MiB steps brought in 123 MiB), populating reads them all, with large
 * requests (1.35 GB/s from that VM's disk against 0.42 GB/s for the decoder's own faults or 8 MiB preads).
 * Where the kernel cannot populate (before Linux 5.14) it falls back to params_read_ahead. */
void params_read_in(const params_map_t *m, uint64_t off, uint64_t len);

/* Decodes points [first, first + n) of section s (0 h, 1 l, 2 a, 3 b_g1, 4 b_g2) of an opened file into
 * out (n cuzk_g1_affine_t, or cuzk_g2_affine_t for b_g2), at the file's check level, whether or not the
 * section is loaded; the file's pages of that range are read ahead before and dropped from the mapping
 * after. A range outside the section: CUZK_ERR_INVALID_ARG; otherwise the errors of cuzk_params_load.
 * Any number of threads may call it at once. */
cuzk_status params_decode_range(cuzk_params_t *p, int s, size_t first, size_t n, void *out, cuzk_err_t *err);

/* Reading ahead: the file's pages of points [first, first + n) of section s are brought into the page
 * cache (params_read_in) by a thread of its own, so that the disk reads the next piece of
 * a streamed section while the caller computes on the current one. Advice only: a range outside the
 * section is clipped, a buffer-backed key or a thread that cannot start reads nothing ahead, and nothing
 * is mapped into the process (its RSS does not grow). params_readahead_wait joins the thread (a no-op when
 * none runs); call it before the next start and before the file is closed. */
typedef struct {
    pthread_t thread;
    const params_map_t *map;
    uint64_t off, len;
    bool running;
} params_readahead_t;
void params_readahead_start(params_readahead_t *r, const cuzk_params_t *p, int s, size_t first, size_t n);
void params_readahead_wait(params_readahead_t *r);

/* Writing through the atomic writer (cuzk/file.h): open, write, then commit (flush, fsync, rename, fsync
 * of the directory) or abort (the temporary file removed). Commit and abort release the file. */
typedef struct {
    cuzk_atomic_file_t *f;
} params_out_t;
cuzk_status params_out_open(params_out_t *o, const char *path, cuzk_err_t *err);
cuzk_status params_out_write(params_out_t *o, const void *buf, size_t len, cuzk_err_t *err);
cuzk_status params_out_commit(params_out_t *o, cuzk_err_t *err);
void params_out_abort(params_out_t *o);

static inline void params_put_u32be(uint8_t out[4], uint32_t v)
{
    out[0] = (uint8_t)(v >> 24);
    out[1] = (uint8_t)(v >> 16);
    out[2] = (uint8_t)(v >> 8);
    out[3] = (uint8_t)v;
}

static inline uint32_t params_get_u32be(const uint8_t in[4])
{
    return (uint32_t)in[0] << 24 | (uint32_t)in[1] << 16 | (uint32_t)in[2] << 8 | in[3];
}

#endif
