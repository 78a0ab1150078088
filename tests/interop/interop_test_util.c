/* Scratch-directory helpers for the interop tests (see interop_test_util.h). */
#include "interop_test_util.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[512];

const char *scratch_dir(void)
{
    if (!dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/cuzk-interop-XXXXXX", t && *t ? t : P_tmpdir);
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            exit(2);
        }
    }
    return dir;
}

const char *scratch_path(const char *name)
{
    static char bufs[8][640];
    static int k;
    char *b = bufs[k++ & 7];
    snprintf(b, sizeof bufs[0], "%s/%s", scratch_dir(), name);
    return b;
}

int scratch_count(void)
{
    DIR *d = opendir(scratch_dir());
    int n = 0;
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

void scratch_cleanup(void)
{
    if (!dir[0])
        return;
    DIR *d = opendir(dir);
    if (d) {
        for (struct dirent *e; (e = readdir(d));) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char p[1024];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
    dir[0] = '\0';
}

bool write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}
