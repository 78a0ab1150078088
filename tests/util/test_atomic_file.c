/* The atomic file writer (cuzk/file.h): the content and mode of a written file, no temporary file left,
 * and on every error path (missing or unwritable directory, a target that is a directory, a write
 * failing part-way, abort) neither the target nor a temporary file; an existing target is replaced whole
 * or kept intact. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cuzk/file.h"
#include "test_util.h"

static char dir[256];

/* dir/name, in one of four rotating buffers (enough for one call's arguments). */
static const char *at(const char *name)
{
    static char p[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

/* Entries of d (without . and ..); with sub, only those whose name contains it. */
static int entries(const char *d, const char *sub)
{
    DIR *h = opendir(d);
    if (!h)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(h)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && (!sub || strstr(e->d_name, sub)))
            n++;
    closedir(h);
    return n;
}

/* The file's bytes equal want[0..len). */
static bool holds(const char *path, const void *want, size_t len)
{
    size_t got_len = 0;
    char *got = test_read_file(path, &got_len);
    bool same = got && got_len == len && memcmp(got, want, len) == 0;
    free(got);
    return same;
}

static void clean(void)
{
    DIR *h = opendir(dir);
    struct dirent *e;
    while (h && (e = readdir(h))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        const char *p = at(e->d_name);
        if (unlink(p) != 0)
            rmdir(p);
    }
    if (h)
        closedir(h);
}

static void test_success(void)
{
    cuzk_err_t err = {{0}};
    static const char text[] = "{\"pi_a\": [1, 2]}\n";
    CHECK_MSG(cuzk_atomic_write_file(at("proof.json"), text, sizeof text - 1, &err) == CUZK_OK, "%s", err.msg);
    CHECK(holds(at("proof.json"), text, sizeof text - 1));
    struct stat st;
    CHECK(stat(at("proof.json"), &st) == 0 && (st.st_mode & 07777) == 0644);
    CHECK(entries(dir, NULL) == 1 && entries(dir, ".tmp.") == 0);

    /* streaming: many small pieces around the buffer's size and a large one, mode as given */
    size_t n = (3u << 20) + 12345;
    uint8_t *big = malloc(n);
    test_rand_bytes(big, n);
    cuzk_atomic_file_t *f = NULL;
    CHECK(cuzk_atomic_open(&f, at("big.params"), 0600, &err) == CUZK_OK && f);
    CHECK(strcmp(cuzk_atomic_path(f), at("big.params")) == 0);
    CHECK(entries(dir, ".tmp.") == 1 && entries(dir, "big.params") == 1); /* only the temporary file */
    size_t off = 0;
    while (off < n) {
        size_t k = test_rand_below(4) == 0 ? (size_t)test_rand_below(1u << 20) : (size_t)test_rand_below(4096);
        k = k < n - off ? k : n - off;
        CHECK(cuzk_atomic_write(f, big + off, k, &err) == CUZK_OK);
        off += k;
    }
    CHECK(access(at("big.params"), F_OK) != 0); /* nothing under the name before the commit */
    CHECK_MSG(cuzk_atomic_commit(f, &err) == CUZK_OK, "%s", err.msg);
    CHECK(holds(at("big.params"), big, n));
    CHECK(stat(at("big.params"), &st) == 0 && (st.st_mode & 07777) == 0600);
    CHECK(entries(dir, ".tmp.") == 0);
    free(big);

    /* an empty file, and a relative path (the directory to sync is ".") */
    char cwd[512];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK(chdir(dir) == 0);
    CHECK(cuzk_atomic_write_file("empty", NULL, 0, &err) == CUZK_OK);
    CHECK(chdir(cwd) == 0);
    CHECK(holds(at("empty"), "", 0));
    CHECK(entries(dir, ".tmp.") == 0);

    /* several files together */
    const char *paths[3] = {at("a.json"), at("b.json"), at("c.json")};
    const void *bufs[3] = {"aa", "bbb", "c"};
    size_t lens[3] = {2, 3, 1};
    CHECK(cuzk_atomic_write_files(3, paths, bufs, lens, &err) == CUZK_OK);
    CHECK(holds(paths[0], "aa", 2) && holds(paths[1], "bbb", 3) && holds(paths[2], "c", 1));
    CHECK(entries(dir, ".tmp.") == 0);
    clean();
}

static void test_errors(void)
{
    cuzk_err_t err = {{0}};
    cuzk_atomic_file_t *f = (cuzk_atomic_file_t *)&err;

    /* not a file name */
    CHECK(cuzk_atomic_open(&f, "", 0644, &err) == CUZK_ERR_INVALID_ARG && f == NULL);
    CHECK(cuzk_atomic_write_file(at(""), "x", 1, &err) == CUZK_ERR_INVALID_ARG);

    /* a directory that does not exist; a parent that is a file */
    err.msg[0] = 0;
    CHECK(cuzk_atomic_write_file(at("nodir/x.json"), "x", 1, &err) == CUZK_ERR_IO);
    CHECK_MSG(strstr(err.msg, "nodir/x.json") != NULL, "%s", err.msg);
    CHECK(cuzk_atomic_write_file(at("plain"), "x", 1, &err) == CUZK_OK);
    CHECK(cuzk_atomic_write_file(at("plain/x.json"), "x", 1, &err) == CUZK_ERR_IO);
    CHECK(entries(dir, NULL) == 1);
    clean();

    /* an unwritable directory (root writes anywhere: checked only as another user) */
    if (geteuid() != 0) {
        CHECK(mkdir(at("ro"), 0555) == 0);
        CHECK(cuzk_atomic_write_file(at("ro/x.json"), "x", 1, &err) == CUZK_ERR_IO);
        CHECK(entries(at("ro"), NULL) == 0);
        chmod(at("ro"), 0755);
        clean();
    }

    /* the target is a directory: the rename fails after the whole file was written */
    CHECK(mkdir(at("target"), 0755) == 0);
    err.msg[0] = 0;
    CHECK(cuzk_atomic_write_file(at("target"), "data", 4, &err) == CUZK_ERR_IO && err.msg[0]);
    CHECK(entries(dir, NULL) == 1 && entries(at("target"), NULL) == 0);
    clean();

    /* abort in the middle */
    CHECK(cuzk_atomic_open(&f, at("aborted"), 0644, &err) == CUZK_OK);
    CHECK(cuzk_atomic_write(f, "partial", 7, &err) == CUZK_OK);
    cuzk_atomic_abort(f);
    cuzk_atomic_abort(NULL);
    CHECK(entries(dir, NULL) == 0);

    /* the write itself fails part-way (file size limit): the write or the commit says so, nothing stays */
    struct rlimit old, lim;
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
    lim = old;
    lim.rlim_cur = 4096;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    size_t n = 1 << 20;
    uint8_t *buf = calloc(1, n);
    if (setrlimit(RLIMIT_FSIZE, &lim) == 0) {
        cuzk_status big = cuzk_atomic_write_file(at("limited"), buf, n, &err);
        /* small writes: the failure shows at the flush, in the commit */
        CHECK(cuzk_atomic_open(&f, at("limited2"), 0644, &err) == CUZK_OK);
        cuzk_status w = CUZK_OK;
        for (int i = 0; i < 8 && w == CUZK_OK; i++)
            w = cuzk_atomic_write(f, buf, 1000, &err);
        cuzk_status c = cuzk_atomic_commit(f, &err);
        /* a failed write keeps failing */
        CHECK(cuzk_atomic_open(&f, at("limited3"), 0644, &err) == CUZK_OK);
        cuzk_status w1 = cuzk_atomic_write(f, buf, n, &err), w2 = cuzk_atomic_write(f, buf, 1, &err);
        cuzk_status c3 = cuzk_atomic_commit(f, &err);
        setrlimit(RLIMIT_FSIZE, &old);
        CHECK_MSG(big == CUZK_ERR_IO, "status %d", (int)big);
        CHECK(w == CUZK_OK && c == CUZK_ERR_IO);
        CHECK(w1 == CUZK_ERR_IO && w2 == CUZK_ERR_IO && c3 == CUZK_ERR_IO);
        CHECK_MSG(strstr(err.msg, "limited3") != NULL, "%s", err.msg);
        CHECK(entries(dir, NULL) == 0);
    } else {
        printf("note: setrlimit(RLIMIT_FSIZE) refused: the failing-write case is skipped\n");
    }

    /* several files: one that cannot be made leaves none */
    const char *paths[3] = {at("a.json"), at("nodir/b.json"), at("c.json")};
    const void *bufs[3] = {"aa", "bbb", "c"};
    size_t lens[3] = {2, 3, 1};
    CHECK(cuzk_atomic_write_files(3, paths, bufs, lens, &err) == CUZK_ERR_IO);
    CHECK(entries(dir, NULL) == 0);
    paths[1] = at("b.json");
    bufs[1] = NULL;
    CHECK(cuzk_atomic_write_files(3, paths, bufs, lens, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(entries(dir, NULL) == 0);

    signal(SIGXFSZ, prev);
    free(buf);
    clean();
}

static void test_replace(void)
{
    cuzk_err_t err = {{0}};
    char p[512];
    snprintf(p, sizeof p, "%s", at("c1.json"));
    CHECK(cuzk_atomic_write_file(p, "old content", 11, &err) == CUZK_OK);
    struct stat before, after;
    CHECK(stat(p, &before) == 0);

    /* a new write that aborts, or fails, leaves the old file */
    cuzk_atomic_file_t *f = NULL;
    CHECK(cuzk_atomic_open(&f, p, 0644, &err) == CUZK_OK);
    CHECK(cuzk_atomic_write(f, "new", 3, &err) == CUZK_OK);
    CHECK(holds(p, "old content", 11));
    cuzk_atomic_abort(f);
    CHECK(holds(p, "old content", 11));

    struct rlimit old, lim;
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
    lim = old;
    lim.rlim_cur = 100;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    char big[4096];
    memset(big, 'n', sizeof big);
    if (setrlimit(RLIMIT_FSIZE, &lim) == 0) {
        cuzk_status st = cuzk_atomic_write_file(p, big, sizeof big, &err);
        setrlimit(RLIMIT_FSIZE, &old);
        CHECK(st == CUZK_ERR_IO);
        CHECK(holds(p, "old content", 11));
    }
    signal(SIGXFSZ, prev);

    /* several files where one cannot be renamed (a directory): the ones before it are replaced, the
     * temporary files are gone */
    CHECK(cuzk_atomic_write_file(at("x.json"), "old x", 5, &err) == CUZK_OK);
    CHECK(mkdir(at("y.json"), 0755) == 0);
    const char *paths[2] = {at("x.json"), at("y.json")};
    const void *bufs[2] = {"new x", "new y"};
    size_t lens[2] = {5, 5};
    CHECK(cuzk_atomic_write_files(2, paths, bufs, lens, &err) == CUZK_ERR_IO);
    CHECK(holds(at("x.json"), "new x", 5) && entries(at("y.json"), NULL) == 0);
    CHECK(entries(dir, ".tmp.") == 0);
    /* and one that cannot be created leaves every target as it was */
    const char *paths2[2] = {at("x.json"), at("nodir/z.json")};
    CHECK(cuzk_atomic_write_files(2, paths2, bufs, lens, &err) == CUZK_ERR_IO);
    CHECK(holds(at("x.json"), "new x", 5));

    /* a successful write replaces the file (a new inode: readers holding the old one keep it whole) */
    CHECK_MSG(cuzk_atomic_write_file(p, "new content!", 12, &err) == CUZK_OK, "%s", err.msg);
    CHECK(holds(p, "new content!", 12));
    CHECK(stat(p, &after) == 0 && after.st_ino != before.st_ino);
    CHECK(entries(dir, ".tmp.") == 0);
    clean();
}

int main(void)
{
    test_init("test_atomic_file");
    umask(022);
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/cuzk-atomic-XXXXXX", tmp && *tmp && strlen(tmp) < 200 ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "cannot create a temporary directory: %s\n", strerror(errno));
        return 1;
    }
    test_success();
    test_errors();
    test_replace();
    clean();
    rmdir(dir);
    return test_finish();
}
