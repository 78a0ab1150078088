/* Small files read whole (util/file_read.h) against the bytes written with stdio: random files of 0, 1,
 * 4095 and 65,536 bytes read back exactly at and under their bound; a file one byte over its bound is
 * CUZK_ERR_FORMAT naming the file, its size and what the bound is for, a missing file and a directory are
 * CUZK_ERR_IO naming the path, and on every error *out is NULL and *len 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "test_util.h"
#include "util/file_read.h"

static char dir[256];

static void write_bytes(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL && (n == 0 || fwrite(b, 1, n, f) == n) && fclose(f) == 0);
}

static void reads_back(size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/f%zu", dir, n);
    uint8_t *want = malloc(n + 1);
    test_rand_bytes(want, n);
    write_bytes(path, want, n);
    for (size_t max = n; max <= n + 1; max++) {
        uint8_t *got = NULL;
        size_t len = 7;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_read_small_file(&got, &len, path, max, "this test's files", &err) == CUZK_OK, "%zu: %s", n,
                  err.msg);
        CHECK_MSG(got != NULL && len == n && memcmp(got, want, n) == 0, "%zu bytes read back", n);
        free(got);
    }
    if (n) {
        uint8_t *got = (uint8_t *)1;
        size_t len = 7;
        cuzk_err_t err = {{0}};
        char size[32];
        snprintf(size, sizeof size, "%zu bytes", n);
        CHECK(cuzk_read_small_file(&got, &len, path, n - 1, "this test's files", &err) == CUZK_ERR_FORMAT);
        CHECK_MSG(got == NULL && len == 0 && strstr(err.msg, path) && strstr(err.msg, size) &&
                      strstr(err.msg, "this test's files"),
                  "over the bound: %s", err.msg);
    }
    unlink(path);
    free(want);
}

static void io_error(const char *path)
{
    uint8_t *got = (uint8_t *)1;
    size_t len = 7;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_read_small_file(&got, &len, path, 1 << 20, "x", &err) == CUZK_ERR_IO);
    CHECK_MSG(got == NULL && len == 0 && strstr(err.msg, path), "%s: %s", path, err.msg);
}

int main(void)
{
    test_init("test_file_read");
    snprintf(dir, sizeof dir, "/tmp/cuzk-file-read-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    static const size_t sizes[] = {0, 1, 4095, 65536};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        reads_back(sizes[i]);
    char missing[512];
    snprintf(missing, sizeof missing, "%s/missing", dir);
    io_error(missing);
    io_error(dir); /* a directory is not a regular file */
    rmdir(dir);
    return test_finish();
}
