/* Opening and section-table parsing of iden3 binary files (see binfile.h). A file is read whole into
 * memory once (read_whole says why not mapped); readers then index into it, so a 10 GiB zkey costs that
 * one copy and no other until its points are decoded. */
#include "interop/binfile.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Magic, version and section table, each checked against the file size. */
static cuzk_status parse_table(binfile_t *bf, uint32_t max_version, cuzk_err_t *err)
{
    const char *path = bf->path, *kind = bf->kind;
    if (memcmp(bf->data, kind, 4) != 0)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: not a .%s file (magic is not \"%s\")", path, kind,
                            kind);
    bf->version = binfile_u32(bf->data + 4);
    if (bf->version == 0 || bf->version > max_version)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: .%s version %u not supported (1..%u)", path, kind,
                            bf->version, max_version);
    uint32_t nsec = binfile_u32(bf->data + 8);
    uint64_t pos = 12;
    for (uint32_t i = 0; i < nsec; i++) {
        if (bf->size - pos < 12)
            return cuzk_err_set(err, CUZK_ERR_FORMAT,
                                "%s: truncated: section header %u of %u at byte %llu past the end", path, i,
                                nsec, (unsigned long long)pos);
        uint32_t type = binfile_u32(bf->data + pos);
        uint64_t len = binfile_u64(bf->data + pos + 4);
        pos += 12;
        if (len > bf->size - pos)
            return cuzk_err_set(err, CUZK_ERR_FORMAT,
                                "%s: truncated: section %u (type %u) at byte %llu claims %llu bytes, %llu left",
                                path, i, type, (unsigned long long)pos, (unsigned long long)len,
                                (unsigned long long)(bf->size - pos));
        if (type <= BINFILE_MAX_TYPE) {
            if (bf->count[type]++ == 0) {
                bf->off[type] = pos;
                bf->len[type] = len;
            }
        }
        pos += len;
    }
    if (pos != bf->size)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %llu bytes after the last of %u sections", path,
                            (unsigned long long)(bf->size - pos), nsec);
    return CUZK_OK;
}

#define READ_CHUNK ((size_t)1 << 30)

/* The file's size bytes in anonymous memory (mmap'ed: page-aligned as a file mapping would be, so the
 * readers' in-place arrays keep their alignment, and released with munmap like one), read with pread.
 * Reading instead of mapping: a file that shrinks while it is read gives a short read, an error here, and
 * nothing read afterwards can fault; with a mapping, a truncated file raised SIGBUS wherever a reader
 * touched a page past the new end, the zkey's points used in place by the MSMs included. */
static cuzk_status read_whole(int fd, const char *path, size_t size, uint8_t **out, cuzk_err_t *err)
{
    uint8_t *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: cannot allocate %zu bytes: %s", path, size,
                            strerror(errno));
    (void)madvise(m, size, MADV_HUGEPAGE); /* a hint: fewer TLB misses when the MSMs read points in place */
    for (size_t done = 0; done < size;) {
        size_t want = size - done < READ_CHUNK ? size - done : READ_CHUNK;
        ssize_t got = pread(fd, m + done, want, (off_t)done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            int e = errno;
            munmap(m, size);
            if (got < 0)
                return cuzk_err_set(err, CUZK_ERR_IO, "%s: read failed at byte %zu: %s", path, done, strerror(e));
            return cuzk_err_set(err, CUZK_ERR_IO, "%s: changed size while in use (%zu bytes when opened, it ends "
                                "at byte %zu now)", path, size, done);
        }
        done += (size_t)got;
    }
    (void)mprotect(m, size, PROT_READ); /* readers never write it */
    *out = m;
    return CUZK_OK;
}

cuzk_status binfile_open(binfile_t *bf, const char *path, const char *kind, uint32_t max_version,
                         cuzk_err_t *err)
{
    memset(bf, 0, sizeof *bf);
    bf->path = path;
    bf->kind = kind;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: not a regular file", path);
    }
    if (st.st_size < 12) {
        close(fd);
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %lld bytes, too short for a .%s header", path,
                            (long long)st.st_size, kind);
    }
    uint8_t *m = NULL;
    cuzk_status s = read_whole(fd, path, (size_t)st.st_size, &m, err);
    close(fd);
    if (s != CUZK_OK)
        return s;
    bf->data = m;
    bf->size = (size_t)st.st_size;
    s = parse_table(bf, max_version, err);
    if (s != CUZK_OK)
        binfile_close(bf);
    return s;
}

void binfile_populate(const binfile_t *bf)
{
    (void)bf; /* the bytes are in memory since binfile_open */
}

void binfile_close(binfile_t *bf)
{
    if (bf->data)
        munmap((void *)bf->data, bf->size);
    bf->data = NULL;
    bf->size = 0;
}

cuzk_status binfile_section(const binfile_t *bf, uint32_t type, const uint8_t **p, uint64_t *len,
                            cuzk_err_t *err)
{
    if (type > BINFILE_MAX_TYPE || bf->count[type] == 0)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: .%s section %u is missing", bf->path, bf->kind,
                            type);
    if (bf->count[type] > 1)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: .%s section %u appears %u times", bf->path,
                            bf->kind, type, bf->count[type]);
    *p = bf->data + bf->off[type];
    *len = bf->len[type];
    return CUZK_OK;
}
