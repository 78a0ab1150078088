/* File plumbing for the parameter files: read-only mappings (and the error a read of one gives when the
 * file shrank under it), and output through the atomic writer (cuzk/file.h), so a failed write never
 * leaves a partial file under the real name. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "groth16/params_internal.h"

cuzk_status params_map_file(params_map_t *m, const char *path, cuzk_err_t *err)
{
    memset(m, 0, sizeof *m);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot stat: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: not a regular file", path);
    }
    m->len = (size_t)st.st_size;
    m->fd = -1;
    if (m->len > 0) { /* an empty file cannot be mapped; callers see a zero-length buffer */
        void *p = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            close(fd);
            return cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot map %zu bytes: %s", path, m->len,
                                strerror(e));
        }
        m->data = p;
        m->fd = fd; /* kept for reading ahead */
        return CUZK_OK;
    }
    close(fd);
    return CUZK_OK;
}

void params_unmap(params_map_t *m)
{
    if (m->data) {
        munmap((void *)m->data, m->len);
        close(m->fd);
    }
    memset(m, 0, sizeof *m);
    m->fd = -1;
}

/* What one WILLNEED call reads at most: the kernel caps it at the device's readahead window (8 MiB on
 * the machines measured; a smaller window only means more calls). */
#define READ_AHEAD_STEP ((uint64_t)8 << 20)

/* Clips [off, off + *len) to the mapped file; false when nothing of it is there. */
static bool clip_to_file(const params_map_t *m, uint64_t off, uint64_t *len)
{
    if (!m->data || off >= m->len)
        return false;
    if (*len > m->len - off)
        *len = m->len - off;
    return *len > 0;
}

void params_read_ahead(const params_map_t *m, uint64_t off, uint64_t len)
{
    if (!clip_to_file(m, off, &len))
        return;
    for (uint64_t d = 0; d < len; d += READ_AHEAD_STEP)
        (void)posix_fadvise(m->fd, (off_t)(off + d), (off_t)(len - d < READ_AHEAD_STEP ? len - d : READ_AHEAD_STEP),
                            POSIX_FADV_WILLNEED);
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14; older kernels refuse it with EINVAL */
#endif

/* Bytes of the file one mapping of params_read_in covers: its page tables are built and torn down whole. */
#define READ_IN_STEP ((uint64_t)64 << 20)

void params_read_in(const params_map_t *m, uint64_t off, uint64_t len)
{
    if (!clip_to_file(m, off, &len))
        return;
    const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t end = off + len;
    for (uint64_t b = off & ~(page - 1); b < end; b += READ_IN_STEP) {
        size_t n = (size_t)(end - b < READ_IN_STEP ? end - b : READ_IN_STEP);
        /* a mapping of its own, dropped at once: the pages stay in the page cache, not in the process */
        void *w = mmap(NULL, n, PROT_READ, MAP_SHARED, m->fd, (off_t)b);
        bool done = w != MAP_FAILED && madvise(w, n, MADV_POPULATE_READ) == 0;
        if (w != MAP_FAILED)
            munmap(w, n);
        if (!done) /* an old kernel, or a read error the decoder will name: the hint at least */
            params_read_ahead(m, b, n);
    }
}

cuzk_status params_map_fault(const char *path, const char *what, uint64_t at, uint64_t mapped_len,
                             cuzk_err_t *err)
{
    struct stat st;
    if (!path)
        return cuzk_err_set(err, CUZK_ERR_IO, "parameters buffer: %s unreadable at byte %llu", what,
                            (unsigned long long)at);
    if (stat(path, &st) != 0)
        return cuzk_err_set(err, CUZK_ERR_IO,
                            "%s: changed while in use: %s unreadable at byte %llu, and the file is gone (%s)",
                            path, what, (unsigned long long)at, strerror(errno));
    if ((uint64_t)st.st_size < mapped_len)
        return cuzk_err_set(err, CUZK_ERR_IO,
                            "%s: changed size while in use (%llu bytes when opened, %llu now): %s unreadable "
                            "at byte %llu",
                            path, (unsigned long long)mapped_len, (unsigned long long)st.st_size, what,
                            (unsigned long long)at);
    /* the size is back (or never changed): a failed read, or a file shrunk and grown again */
    return cuzk_err_set(err, CUZK_ERR_IO, "%s: read failed while in use: %s unreadable at byte %llu", path,
                        what, (unsigned long long)at);
}

void params_advise(const void *base, size_t len, int advice)
{
    if (!len)
        return;
    /* madvise wants a page-aligned start; widening to the page is harmless. */
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)base & ~(page - 1);
    (void)madvise((void *)a, (uintptr_t)base + len - a, advice);
}

cuzk_status params_out_open(params_out_t *o, const char *path, cuzk_err_t *err)
{
    return cuzk_atomic_open(&o->f, path, 0644, err);
}

cuzk_status params_out_write(params_out_t *o, const void *buf, size_t len, cuzk_err_t *err)
{
    return cuzk_atomic_write(o->f, buf, len, err);
}

cuzk_status params_out_commit(params_out_t *o, cuzk_err_t *err)
{
    cuzk_status st = cuzk_atomic_commit(o->f, err);
    o->f = NULL;
    return st;
}

void params_out_abort(params_out_t *o)
{
    cuzk_atomic_abort(o->f);
    o->f = NULL;
}
