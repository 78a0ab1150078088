/* Input files read whole with a bound (file_read.h, and cuzk/file.h's cuzk_file_read): a regular file is
 * sized with fstat and refused before anything is allocated when it is over the bound, then read with
 * one request for a byte more than its size so that a file that grew meanwhile is seen; a stream (pipe,
 * character device) is read until its end or until it passes the bound. Every read is checked: a
 * directory or a failing device is an error, never an empty or partial input. */
#include "util/file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/file.h"
#include "util/bigmem.h"

enum { STREAM_CHUNK = 1 << 16 };

/* Up to cap bytes of fd into buf (fewer at the end of the file): *got. CUZK_ERR_IO naming path. */
static cuzk_status read_upto(int fd, const char *path, uint8_t *buf, size_t cap, size_t *got, cuzk_err_t *err)
{
    size_t n = *got;
    while (n < cap) {
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            *got = n;
            return cuzk_err_set(err, CUZK_ERR_IO, "%s: read error after %zu bytes: %s", path, n, strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    *got = n;
    return CUZK_OK;
}

/* A regular file of st_size bytes. */
static cuzk_status read_regular(uint8_t **out, size_t *len, int fd, const char *path, uint64_t size, size_t max,
                                const char *what, cuzk_err_t *err)
{
    if (size > max)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %llu bytes, larger than %s (%zu at most)", path,
                            (unsigned long long)size, what, max);
    size_t n = (size_t)size, got = 0;
    uint8_t *buf = cuzk_big_malloc(n + 1);
    if (!buf)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory for %zu bytes", path, n);
    cuzk_status st = read_upto(fd, path, buf, n + 1, &got, err);
    if (st == CUZK_OK && got != n)
        st = cuzk_err_set(err, CUZK_ERR_IO, "%s: changed while being read (%zu bytes, then %zu)", path, n, got);
    if (st != CUZK_OK) {
        free(buf);
        return st;
    }
    *out = buf;
    *len = n;
    return CUZK_OK;
}

/* A pipe or character device: read by chunks until its end, refused once past max. */
static cuzk_status read_stream(uint8_t **out, size_t *len, int fd, const char *path, size_t max, const char *what,
                               cuzk_err_t *err)
{
    size_t cap = 0, got = 0, limit = max < SIZE_MAX ? max + 1 : max; /* a byte past max tells a longer one */
    uint8_t *buf = NULL;
    for (;;) {
        if (got == cap) {
            if (cap == limit)
                break;
            size_t next = cap == 0 ? STREAM_CHUNK : cap > limit / 2 ? limit : cap * 2;
            if (next > limit)
                next = limit;
            uint8_t *q = realloc(buf, next ? next : 1);
            if (!q) {
                free(buf);
                return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory for %zu bytes", path, next);
            }
            buf = q;
            cap = next;
        }
        cuzk_status st = read_upto(fd, path, buf, cap, &got, err);
        if (st != CUZK_OK) {
            free(buf);
            return st;
        }
        if (got < cap)
            break; /* read_upto stops short only at the end */
    }
    if (got > max) {
        free(buf);
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: more than %zu bytes, larger than %s", path, max, what);
    }
    *out = buf;
    *len = got;
    return CUZK_OK;
}

static cuzk_status read_file(uint8_t **out, size_t *len, const char *path, size_t max, const char *what,
                             bool streams, cuzk_err_t *err)
{
    *out = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat sb;
    cuzk_status st;
    if (fstat(fd, &sb) != 0)
        st = cuzk_err_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    else if (S_ISREG(sb.st_mode))
        st = read_regular(out, len, fd, path, (uint64_t)sb.st_size, max, what, err);
    else if (S_ISDIR(sb.st_mode))
        st = cuzk_err_set(err, CUZK_ERR_IO, "%s: a directory, not a file", path);
    else if (streams && (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)))
        st = read_stream(out, len, fd, path, max, what, err);
    else
        st = cuzk_err_set(err, CUZK_ERR_IO, "%s: not a regular file", path);
    close(fd);
    return st;
}

cuzk_status cuzk_read_small_file(uint8_t **out, size_t *len, const char *path, size_t max, const char *what,
                                 cuzk_err_t *err)
{
    return read_file(out, len, path, max, what, false, err);
}

cuzk_status cuzk_file_read(uint8_t **out, size_t *len, const char *path, size_t max, const char *what,
                           cuzk_err_t *err)
{
    return read_file(out, len, path, max, what, true, err);
}
