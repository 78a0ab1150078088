/* Small files read whole (util/file_read.h) against the bytes written with stdio: random files of 0, 1,
 * 4095 and 65,536 bytes read back exactly at and under their bound; a file one byte over its bound is
 * CUZK_ERR_FORMAT naming the file, its size and what the bound is for, a missing file and a directory are
 * CUZK_ERR_IO naming the path, and on every error *out is NULL and *len 0. The public cuzk_file_read
 * (cuzk/file.h) the same, and streams: a pipe read to its end, /dev/null empty, /dev/zero refused once past
 * the bound, and a device whose read fails (/proc/self/mem at address 0) an error, never an empty input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cuzk/file.h"
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

static void public_io_error(const char *path, const char *needle)
{
    uint8_t *got = (uint8_t *)1;
    size_t len = 7;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_file_read(&got, &len, path, 1 << 20, "x", &err) == CUZK_ERR_IO);
    CHECK_MSG(got == NULL && len == 0 && strstr(err.msg, path) && strstr(err.msg, needle), "%s: %s", path, err.msg);
}

/* n random bytes through a pipe (a writer process), read with the bound max. */
static cuzk_status pipe_read(size_t n, size_t max, bool *same, cuzk_err_t *err)
{
    uint8_t *want = malloc(n + 1);
    test_rand_bytes(want, n);
    char path[512];
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *f = fopen(path, "wb");
        size_t put = f ? fwrite(want, 1, n, f) : 0;
        _exit(f && put == n && fclose(f) == 0 ? 0 : 1);
    }
    uint8_t *got = NULL;
    size_t len = 0;
    cuzk_status st = cuzk_file_read(&got, &len, path, max, "this test's stream", err);
    /* a refused stream is closed unread: the writer may then fail, which is its business */
    int status = 0;
    waitpid(pid, &status, 0);
    *same = st == CUZK_OK && len == n && memcmp(got, want, n) == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    CHECK(st == CUZK_OK || (got == NULL && len == 0));
    free(got);
    free(want);
    unlink(path);
    return st;
}

static void streams(void)
{
    uint8_t *got = (uint8_t *)1;
    size_t len = 7;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_file_read(&got, &len, "/dev/null", 100, "x", &err) == CUZK_OK && len == 0, "%s", err.msg);
    free(got);
    got = (uint8_t *)1;
    CHECK(cuzk_file_read(&got, &len, "/dev/zero", 1000, "this test's stream", &err) == CUZK_ERR_FORMAT);
    CHECK_MSG(got == NULL && len == 0 && strstr(err.msg, "/dev/zero") && strstr(err.msg, "more than 1000 bytes") &&
                  strstr(err.msg, "this test's stream"),
              "%s", err.msg);
    /* the internal reader takes regular files only */
    CHECK(cuzk_read_small_file(&got, &len, "/dev/null", 100, "x", &err) == CUZK_ERR_IO);
    bool same = false;
    CHECK_MSG(pipe_read(200000, 200000, &same, &err) == CUZK_OK && same, "pipe: %s", err.msg);
    CHECK(pipe_read(200001, 200000, &same, &err) == CUZK_ERR_FORMAT && strstr(err.msg, "more than 200000"));
    public_io_error(dir, "a directory");
    public_io_error("/proc/self/mem", "read error"); /* page 0 is never mapped: EIO, not an empty file */
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
    streams();
    rmdir(dir);
    return test_finish();
}
