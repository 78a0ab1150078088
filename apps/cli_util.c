/* Option values, output files and directories (checked before the work) and clocks of the tools' commands
 * (see cli_util.h). */
#include "cli_util.h"
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

int cli_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int cli_hex32(uint8_t out[32], const char *s)
{
    if (strncmp(s, "0x", 2) == 0)
        s += 2;
    if (strlen(s) != 64)
        return -1;
    for (int i = 0; i < 32; i++) {
        int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

void cli_hex32_format(char out[65], const uint8_t b[32])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

char *cli_temp_dir_beside(const char *prog, const char *path, const char *tag)
{
    size_t n = strlen(path) + strlen(tag) + 64;
    char *dir = malloc(n);
    const char *slash = strrchr(path, '/');
    if (dir)
        snprintf(dir, n, "%.*s.cuzk-%s-XXXXXX", slash ? (int)(slash - path + 1) : 0, path, tag);
    if (!dir || !mkdtemp(dir)) {
        fprintf(stderr, "%s: temporary directory beside %s: %s\n", prog, path, strerror(errno));
        free(dir);
        return NULL;
    }
    return dir;
}

int cli_make_dirs(const char *dir)
{
    char *p = strdup(dir);
    if (!p)
        return -1;
    int rc = 0;
    for (char *c = p + 1; rc == 0; c++) {
        if (*c != '/' && *c != '\0')
            continue;
        char save = *c;
        *c = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            rc = -1;
        *c = save;
        if (save == '\0')
            break;
    }
    free(p);
    return rc;
}

/* A file can be created in dir (what: the output, for the message): one is, and removed. */
static int probe_dir(const char *prog, const char *dir, const char *what)
{
    size_t n = strlen(dir) + 32;
    char *probe = malloc(n);
    if (!probe) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return -1;
    }
    snprintf(probe, n, "%s/.cuzk-probe-XXXXXX", dir);
    int fd = mkstemp(probe);
    if (fd < 0)
        fprintf(stderr, "%s: %s: cannot create a file in %s: %s\n", prog, what, dir, strerror(errno));
    else {
        close(fd);
        unlink(probe);
    }
    free(probe);
    return fd < 0 ? -1 : 0;
}

/* The directory part of path ("." when it has none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

int cli_check_output_file(const char *prog, const char *path, uint64_t need)
{
    struct stat st;
    if (!*path || path[strlen(path) - 1] == '/' || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
        fprintf(stderr, "%s: %s: a directory, not an output file name\n", prog, path);
        return -1;
    }
    char *dir = dir_of(path);
    if (!dir) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return -1;
    }
    int rc = 0, found = stat(dir, &st) == 0 ? 0 : errno;
    if (found || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: %s: the output's directory %s %s\n", prog, path, dir,
                found == ENOENT ? "does not exist" : found ? strerror(found) : "is not a directory");
        rc = -1;
    }
    if (rc == 0)
        rc = probe_dir(prog, dir, path);
    struct statvfs vs;
    if (rc == 0 && statvfs(dir, &vs) == 0) {
        uint64_t free_bytes = (uint64_t)(geteuid() == 0 ? vs.f_bfree : vs.f_bavail) * vs.f_frsize;
        if (free_bytes < need) {
            fprintf(stderr, "%s: %s: %llu bytes free in %s, the output needs %llu\n", prog, path,
                    (unsigned long long)free_bytes, dir, (unsigned long long)need);
            rc = -1;
        }
    }
    free(dir);
    return rc;
}

int cli_check_output_dir(const char *prog, const char *dir)
{
    char *d = strdup(dir);
    if (!d) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return -1;
    }
    /* the directory itself, else its nearest existing ancestor */
    struct stat st;
    while (stat(d, &st) != 0 && (errno == ENOENT || errno == ENOTDIR) && strcmp(d, ".") != 0 &&
           strcmp(d, "/") != 0) {
        size_t n = strlen(d);
        while (n > 1 && d[n - 1] == '/')
            d[--n] = '\0';
        char *up = dir_of(d);
        free(d);
        if (!(d = up)) {
            fprintf(stderr, "%s: out of memory\n", prog);
            return -1;
        }
    }
    int rc = 0;
    if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: %s: %s is not a directory\n", prog, dir, d);
        rc = -1;
    } else {
        rc = probe_dir(prog, d, dir);
    }
    free(d);
    return rc;
}

double cli_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

uint64_t cli_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static bool timing_on;
static pthread_once_t timing_once = PTHREAD_ONCE_INIT;

static void timing_read_env(void)
{
    const char *v = getenv("CUZK_TIMING");
    timing_on = v && *v && strcmp(v, "0") != 0;
}

void cli_timing_report(const char *phase, double t0)
{
    pthread_once(&timing_once, timing_read_env);
    if (!timing_on)
        return;
    char line[160];
    int len = snprintf(line, sizeof line, "CUZK_TIMING: phase=%s ms=%.3f\n", phase, (cli_now() - t0) * 1e3);
    if (len > 0)
        fputs(line, stderr); /* one call: lines from concurrent phases do not interleave */
}

int cli_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

uint64_t cli_parse_sector_size(const char *s)
{
    static const struct { const char *name; uint64_t bytes; } sizes[] = {
        {"2KiB", 2048}, {"8MiB", 8ull << 20}, {"512MiB", 512ull << 20}, {"32GiB", 32ull << 30},
        {"64GiB", 64ull << 30}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(s, sizes[i].name) == 0)
            return sizes[i].bytes;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    for (size_t i = 0; *s >= '0' && *s <= '9' && !*end && !errno && i < sizeof sizes / sizeof sizes[0]; i++)
        if (v == sizes[i].bytes)
            return v;
    return 0;
}

int cli_os_random(void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n) {
        ssize_t r = getrandom(p, n, 0);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += (size_t)r;
        n -= (size_t)r;
    }
    return 0;
}
