/* File plumbing for the parameter files: read-only mappings, and output through "<path>.tmp.<pid>"
 * renamed into place only once everything is written, so a failed write never leaves a partial file
 * under the real name. */
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
    if (m->len > 0) { /* an empty file cannot be mapped; callers see a zero-length buffer */
        void *p = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            close(fd);
            return cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot map %zu bytes: %s", path, m->len,
                                strerror(e));
        }
        m->data = p;
    }
    close(fd); /* the mapping keeps the file alive */
    return CUZK_OK;
}

void params_unmap(params_map_t *m)
{
    if (m->data)
        munmap((void *)m->data, m->len);
    memset(m, 0, sizeof *m);
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
    memset(o, 0, sizeof *o);
    o->path = path;
    size_t n = strlen(path) + 32;
    o->tmp = malloc(n);
    if (!o->tmp)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
    snprintf(o->tmp, n, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        cuzk_status st = cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot create: %s", o->tmp, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return st;
    }
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        cuzk_status st = cuzk_err_set(err, CUZK_ERR_IO, "%s: %s", o->tmp, strerror(errno));
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return st;
    }
    setvbuf(o->f, NULL, _IOFBF, 1 << 20);
    return CUZK_OK;
}

cuzk_status params_out_write(params_out_t *o, const void *buf, size_t len, cuzk_err_t *err)
{
    if (len && fwrite(buf, 1, len, o->f) != len)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: write failed: %s", o->tmp, strerror(errno));
    return CUZK_OK;
}

cuzk_status params_out_commit(params_out_t *o, cuzk_err_t *err)
{
    cuzk_status st = CUZK_OK;
    if (fflush(o->f) != 0 || fsync(fileno(o->f)) != 0)
        st = cuzk_err_set(err, CUZK_ERR_IO, "%s: write failed: %s", o->tmp, strerror(errno));
    if (fclose(o->f) != 0 && st == CUZK_OK)
        st = cuzk_err_set(err, CUZK_ERR_IO, "%s: close failed: %s", o->tmp, strerror(errno));
    o->f = NULL;
    if (st == CUZK_OK && rename(o->tmp, o->path) != 0)
        st = cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot rename to %s: %s", o->tmp, o->path,
                          strerror(errno));
    if (st != CUZK_OK)
        unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    return st;
}

void params_out_abort(params_out_t *o)
{
    if (o->f)
        fclose(o->f);
    if (o->tmp) {
        unlink(o->tmp);
        free(o->tmp);
    }
    memset(o, 0, sizeof *o);
}
