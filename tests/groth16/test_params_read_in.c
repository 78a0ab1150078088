/* params_read_in, the read-ahead thread's way into the page cache: on a file whose pages were dropped from
 * the cache (fsync, then POSIX_FADV_DONTNEED), every page of the range asked for is resident when it
 * returns (mincore over a mapping of the file), from an offset inside a page to a length past the end of
 * the file (clipped); the file's bytes read back unchanged; an offset at or past the end, an empty range
 * and an unmapped file read nothing and do not fail. */
#define _GNU_SOURCE /* mincore */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "groth16/params_internal.h"
#include "test_util.h"

#define FILE_BYTES (((size_t)24 << 20) + 1234)

/* Pages of bytes [off, off + len) of the file that are in the page cache. */
static size_t resident_pages(int fd, size_t off, size_t len, size_t *pages)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), b = off / page * page;
    *pages = (off + len - b + page - 1) / page;
    void *m = mmap(NULL, off + len - b, PROT_READ, MAP_SHARED, fd, (off_t)b);
    unsigned char *v = malloc(*pages);
    size_t in = 0;
    if (m != MAP_FAILED && v && mincore(m, off + len - b, v) == 0)
        for (size_t i = 0; i < *pages; i++)
            in += v[i] & 1;
    if (m != MAP_FAILED)
        munmap(m, off + len - b);
    free(v);
    return in;
}

int main(void)
{
    test_init("test_params_read_in");
    char path[] = "/tmp/cuzk-test-read-in-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    unsigned char *data = malloc(FILE_BYTES);
    CHECK(data != NULL);
    if (fd < 0 || !data)
        return test_finish();
    test_rand_bytes(data, FILE_BYTES);
    CHECK(write(fd, data, FILE_BYTES) == (ssize_t)FILE_BYTES);
    CHECK(fsync(fd) == 0);
    CHECK(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0);
    size_t pages, before = resident_pages(fd, 0, FILE_BYTES, &pages);
    printf("  %zu of %zu pages resident after the drop\n", before, pages);
    CHECK(before < pages / 2); /* otherwise the read below would prove nothing */

    params_map_t m;
    cuzk_err_t err = {{0}};
    CHECK(params_map_file(&m, path, &err) == CUZK_OK);
    /* from inside page 3 to past the end: clipped at the end of the file */
    const size_t off = 3 * 4096 + 17;
    params_read_in(&m, off, FILE_BYTES);
    size_t n, in = resident_pages(fd, off, FILE_BYTES - off, &n);
    CHECK(in == n);
    CHECK(m.data && memcmp(m.data, data, FILE_BYTES) == 0);
    /* nothing to read: no failure, nothing read */
    params_read_in(&m, FILE_BYTES, 1 << 20);
    params_read_in(&m, (uint64_t)FILE_BYTES + 4096, 1);
    params_read_in(&m, 0, 0);
    params_map_t none;
    memset(&none, 0, sizeof none);
    none.fd = -1;
    params_read_in(&none, 0, 1 << 20);
    params_unmap(&m);
    close(fd);
    unlink(path);
    free(data);
    return test_finish();
}
