/* The one writer of output files (include/cuzk/file.h): a temporary file beside the target, fsync, rename,
 * fsync of the directory, and the temporary file removed on every error path. */
#include "cuzk/file.h"
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { BUF_CAP = 1 << 20, NAME_TRIES = 100 };

struct cuzk_atomic_file {
    int fd;
    int write_errno; /* the first write error: the file is lost, only commit (reports it) or abort remain */
    char *path, *tmp;
    uint8_t *buf;    /* BUF_CAP bytes, allocated at the first small write */
    size_t used;
};

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* "<path>.tmp.XXXXXX" created with O_EXCL as mkstemp does; mkstemp itself is not used because it fixes the
 * mode to 0600, and an fchmod afterwards would bypass the umask. */
static int create_tmp(char *tmp, const char *path, unsigned mode)
{
    static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static _Atomic uint64_t counter;
    size_t n = strlen(path);
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".tmp.", 5);
    for (int attempt = 0; attempt < NAME_TRIES; attempt++) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t r = mix((uint64_t)getpid() << 32 ^ (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 20 ^
                         atomic_fetch_add(&counter, 1) * 0x9e3779b97f4a7c15ull);
        for (int i = 0; i < 6; i++, r /= 62)
            tmp[n + 5 + i] = set[r % 62];
        tmp[n + 11] = '\0';
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, (mode_t)mode);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

static void release(cuzk_atomic_file_t *f)
{
    free(f->buf);
    free(f->tmp);
    free(f->path);
    free(f);
}

cuzk_status cuzk_atomic_open(cuzk_atomic_file_t **out, const char *path, unsigned mode, cuzk_err_t *err)
{
    *out = NULL;
    size_t n = strlen(path);
    if (n == 0 || path[n - 1] == '/')
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "'%s': not a file name", path);
    cuzk_atomic_file_t *f = calloc(1, sizeof *f);
    if (f) {
        f->path = strdup(path);
        f->tmp = malloc(n + 12);
    }
    if (!f || !f->path || !f->tmp) {
        if (f)
            release(f);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    f->fd = create_tmp(f->tmp, path, mode);
    if (f->fd < 0) {
        cuzk_status st = cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
        release(f);
        return st;
    }
    *out = f;
    return CUZK_OK;
}

const char *cuzk_atomic_path(const cuzk_atomic_file_t *f) { return f->path; }

/* write(2) until done; false with f->write_errno set on failure. */
static bool put(cuzk_atomic_file_t *f, const uint8_t *p, size_t len)
{
    while (len) {
        ssize_t w = write(f->fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            f->write_errno = w < 0 ? errno : EIO;
            return false;
        }
        p += w, len -= (size_t)w;
    }
    return true;
}

static bool flush_buf(cuzk_atomic_file_t *f)
{
    bool ok = put(f, f->buf, f->used);
    f->used = 0;
    return ok;
}

static cuzk_status write_error(const cuzk_atomic_file_t *f, cuzk_err_t *err)
{
    return cuzk_err_set(err, CUZK_ERR_IO, "%s: write failed: %s", f->path, strerror(f->write_errno));
}

cuzk_status cuzk_atomic_write(cuzk_atomic_file_t *f, const void *buf, size_t len, cuzk_err_t *err)
{
    if (f->write_errno)
        return write_error(f, err);
    if (len == 0) /* buf may be NULL then */
        return CUZK_OK;
    const uint8_t *p = buf;
    if (len >= BUF_CAP / 2) { /* large pieces go straight to the file */
        if (!flush_buf(f) || !put(f, p, len))
            return write_error(f, err);
        return CUZK_OK;
    }
    if (!f->buf && !(f->buf = malloc(BUF_CAP))) {
        /* no buffer: unbuffered writes are slower, not wrong */
        if (!put(f, p, len))
            return write_error(f, err);
        return CUZK_OK;
    }
    if (f->used + len > BUF_CAP && !flush_buf(f))
        return write_error(f, err);
    memcpy(f->buf + f->used, p, len);
    f->used += len;
    return CUZK_OK;
}

/* Flushes, fsyncs and closes the temporary file; on error removes it. */
static cuzk_status finish_data(cuzk_atomic_file_t *f, cuzk_err_t *err)
{
    cuzk_status st = CUZK_OK;
    if (f->write_errno || (f->buf && !flush_buf(f)))
        st = write_error(f, err);
    else if (fsync(f->fd) != 0)
        st = cuzk_err_set(err, CUZK_ERR_IO, "%s: write failed (fsync): %s", f->path, strerror(errno));
    if (close(f->fd) != 0 && st == CUZK_OK)
        st = cuzk_err_set(err, CUZK_ERR_IO, "%s: write failed (close): %s", f->path, strerror(errno));
    f->fd = -1;
    if (st != CUZK_OK)
        unlink(f->tmp);
    return st;
}

/* fsync of path's directory, so that the rename itself survives a crash. File systems that cannot sync
 * a directory (EINVAL) are taken as they are. */
static cuzk_status sync_dir(const char *path, cuzk_err_t *err)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    cuzk_status st = CUZK_OK;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || (fsync(fd) != 0 && errno != EINVAL))
        st = cuzk_err_set(err, CUZK_ERR_IO, "%s: written, but its directory %s cannot be synced: %s", path, dir,
                          strerror(errno));
    if (fd >= 0)
        close(fd);
    free(dir);
    return st;
}

/* Renames the finished temporary file onto the target; on error removes it. */
static cuzk_status publish(cuzk_atomic_file_t *f, cuzk_err_t *err)
{
    if (rename(f->tmp, f->path) != 0) {
        cuzk_status st = cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot rename into place: %s", f->path,
                                      strerror(errno));
        unlink(f->tmp);
        return st;
    }
    return sync_dir(f->path, err);
}

cuzk_status cuzk_atomic_commit(cuzk_atomic_file_t *f, cuzk_err_t *err)
{
    cuzk_status st = finish_data(f, err);
    if (st == CUZK_OK)
        st = publish(f, err);
    release(f);
    return st;
}

void cuzk_atomic_abort(cuzk_atomic_file_t *f)
{
    if (!f)
        return;
    if (f->fd >= 0)
        close(f->fd);
    unlink(f->tmp);
    release(f);
}

cuzk_status cuzk_atomic_write_file(const char *path, const void *buf, size_t len, cuzk_err_t *err)
{
    return cuzk_atomic_write_files(1, &path, &buf, &len, err);
}

cuzk_status cuzk_atomic_write_files(size_t n, const char *const *paths, const void *const *bufs, const size_t *lens,
                                    cuzk_err_t *err)
{
    if (n == 0)
        return CUZK_OK;
    if (!paths || !bufs || !lens)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "atomic write: NULL argument");
    cuzk_atomic_file_t **f = calloc(n, sizeof *f);
    if (!f)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    cuzk_status st = CUZK_OK;
    size_t made = 0, done = 0;
    /* every file written and synced first: until then no target has changed */
    for (; made < n && st == CUZK_OK; made++) {
        if (!paths[made] || (!bufs[made] && lens[made])) {
            st = cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "atomic write: file %zu: NULL path or content", made);
            break;
        }
        st = cuzk_atomic_open(&f[made], paths[made], 0644, err);
        if (st == CUZK_OK && lens[made])
            st = cuzk_atomic_write(f[made], bufs[made], lens[made], err);
        if (st != CUZK_OK) {
            cuzk_atomic_abort(f[made]);
            f[made] = NULL;
        } else if ((st = finish_data(f[made], err)) != CUZK_OK) { /* removed its temporary file */
            release(f[made]);
            f[made] = NULL;
        }
    }
    for (; done < n && st == CUZK_OK; done++)
        st = publish(f[done], err);
    /* what was not renamed is removed; publish removed its own file on failure */
    for (size_t i = 0; i < n; i++) {
        if (!f[i])
            continue;
        if (i >= done)
            unlink(f[i]->tmp);
        release(f[i]);
    }
    free(f);
    return st;
}
