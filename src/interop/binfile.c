/* Opening and section-table parsing of iden3 binary files (see binfile.h). A file is mapped once;
 * readers then index into it, so a 10 GiB zkey costs no copy until its points are decoded. */
#include "interop/binfile.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot map: %s", path, strerror(errno));
    bf->data = m;
    bf->size = (size_t)st.st_size;

    cuzk_status s = CUZK_OK;
    if (memcmp(bf->data, kind, 4) != 0) {
        s = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: not a .%s file (magic is not \"%s\")", path, kind,
                         kind);
        goto fail;
    }
    bf->version = binfile_u32(bf->data + 4);
    if (bf->version == 0 || bf->version > max_version) {
        s = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: .%s version %u not supported (1..%u)", path, kind,
                         bf->version, max_version);
        goto fail;
    }
    uint32_t nsec = binfile_u32(bf->data + 8);
    uint64_t pos = 12;
    for (uint32_t i = 0; i < nsec; i++) {
        if (bf->size - pos < 12) {
            s = cuzk_err_set(err, CUZK_ERR_FORMAT,
                             "%s: truncated: section header %u of %u at byte %llu past the end", path, i,
                             nsec, (unsigned long long)pos);
            goto fail;
        }
        uint32_t type = binfile_u32(bf->data + pos);
        uint64_t len = binfile_u64(bf->data + pos + 4);
        pos += 12;
        if (len > bf->size - pos) {
            s = cuzk_err_set(err, CUZK_ERR_FORMAT,
                             "%s: truncated: section %u (type %u) at byte %llu claims %llu bytes, %llu left",
                             path, i, type, (unsigned long long)pos, (unsigned long long)len,
                             (unsigned long long)(bf->size - pos));
            goto fail;
        }
        if (type <= BINFILE_MAX_TYPE) {
            if (bf->count[type]++ == 0) {
                bf->off[type] = pos;
                bf->len[type] = len;
            }
        }
        pos += len;
    }
    if (pos != bf->size) {
        s = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %llu bytes after the last of %u sections", path,
                         (unsigned long long)(bf->size - pos), nsec);
        goto fail;
    }
    return CUZK_OK;
fail:
    binfile_close(bf);
    return s;
}

void binfile_populate(const binfile_t *bf)
{
#ifdef MADV_POPULATE_READ
    if (madvise((void *)bf->data, bf->size, MADV_POPULATE_READ) == 0)
        return;
#endif
    (void)madvise((void *)bf->data, bf->size, MADV_WILLNEED); /* older kernels: read-ahead at least */
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
