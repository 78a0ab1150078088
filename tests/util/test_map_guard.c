/* Reads of a file mapping that survive the file shrinking (util/map_guard.h), on a real file truncated
 * under its mapping: a guarded read past the new end returns false with the faulting offset and the
 * process goes on (on one thread, on several at once, nested); reads before the new end and in other
 * guards are unaffected; and every SIGBUS the guard is not for keeps its effect, checked in child
 * processes: an unguarded fault and a fault outside the guarded range kill with SIGBUS, a SIGBUS sent
 * by kill() too, and a handler installed before the guard still gets the faults that are not ours. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test_util.h"
#include "util/map_guard.h"

#define PAGES 16

static char path[512];
static size_t page;

/* A fresh PAGES-page file of known bytes, mapped read-only (MAP_PRIVATE, as the readers map). */
static const uint8_t *map_fresh(void)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    uint8_t *buf = malloc(PAGES * page);
    for (size_t i = 0; i < PAGES * page; i++)
        buf[i] = (uint8_t)(i * 7 + 3);
    CHECK(fd >= 0 && write(fd, buf, PAGES * page) == (ssize_t)(PAGES * page));
    free(buf);
    void *m = mmap(NULL, PAGES * page, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    CHECK(m != MAP_FAILED);
    return m;
}

static void shrink_to(size_t bytes) { CHECK(truncate(path, (off_t)bytes) == 0); }

typedef struct {
    const uint8_t *p;
    size_t from, to;
    uint64_t sum;
} read_job;

/* Reads bytes [from, to) one by one, front to back (the first fault is at the new end's page). */
static void read_range(void *ctx)
{
    read_job *j = ctx;
    for (size_t i = j->from; i < j->to; i++)
        j->sum += ((const volatile uint8_t *)j->p)[i];
}

static uint64_t expected_sum(size_t from, size_t to)
{
    uint64_t s = 0;
    for (size_t i = from; i < to; i++)
        s += (uint8_t)(i * 7 + 3);
    return s;
}

static void test_single_thread(void)
{
    const uint8_t *m = map_fresh();
    read_job j = {m, 0, PAGES * page, 0};
    size_t off = 12345;
    CHECK(cuzk_map_guard_run(m, PAGES * page, read_range, &j, &off));
    CHECK(j.sum == expected_sum(0, PAGES * page));
    CHECK(off == 12345); /* untouched when nothing faulted */

    shrink_to(3 * page + 10); /* pages 0..3 still back the file */
    j = (read_job){m, 0, PAGES * page, 0};
    CHECK_MSG(!cuzk_map_guard_run(m, PAGES * page, read_range, &j, &off), "a read past the new end returned");
    CHECK_MSG(off == 4 * page, "fault at %zu, expected %zu", off, 4 * page);
    CHECK(j.sum == expected_sum(0, 3 * page + 10)); /* the bytes before the end were read; past it, zeros */

    /* again, and a read of what is left: the guard works every time and leaves no state behind */
    j = (read_job){m, page, PAGES * page, 0};
    CHECK(!cuzk_map_guard_run(m, PAGES * page, read_range, &j, &off) && off == 4 * page);
    j = (read_job){m, 0, 3 * page, 0};
    CHECK(cuzk_map_guard_run(m, PAGES * page, read_range, &j, NULL) && j.sum == expected_sum(0, 3 * page));

    uint8_t copy[64];
    CHECK(cuzk_map_guard_copy(copy, m + 100, sizeof copy, NULL) && copy[0] == (uint8_t)(100 * 7 + 3));
    uint8_t *big = malloc(PAGES * page);
    CHECK(!cuzk_map_guard_copy(big, m, PAGES * page, &off) && off >= 3 * page + 10 && off <= 4 * page);
    free(big);
    munmap((void *)m, PAGES * page);
}

/* An inner guard over another range does not catch the outer range's fault; the outer one does, and
 * a guard used afterwards still works (the abandoned inner one is not left armed). */
typedef struct {
    const uint8_t *outer, *inner;
    bool inner_returned;
} nest_job;

static void nested_body(void *ctx)
{
    nest_job *n = ctx;
    read_job j = {n->outer, 0, PAGES * page, 0}; /* faults: not in the inner range */
    (void)cuzk_map_guard_run(n->inner, page, read_range, &j, NULL);
    n->inner_returned = true;
}

static void test_nested(void)
{
    const uint8_t *m = map_fresh();
    uint8_t *other = malloc(page);
    memset(other, 1, page);
    shrink_to(page);
    nest_job n = {m, other, false};
    size_t off = 0;
    CHECK(!cuzk_map_guard_run(m, PAGES * page, nested_body, &n, &off) && off == page);
    CHECK(!n.inner_returned);
    read_job j = {other, 0, page, 0};
    CHECK(cuzk_map_guard_run(other, page, read_range, &j, NULL) && j.sum == page);
    free(other);
    munmap((void *)m, PAGES * page);
}

/* Several threads reading the shrunk mapping at once, each under its own guard: all get false. */
typedef struct {
    const uint8_t *m;
    bool ok;
    size_t off;
} thread_job;

static void *reader_thread(void *p)
{
    thread_job *t = p;
    for (int k = 0; k < 50; k++) {
        read_job j = {t->m, 0, PAGES * page, 0};
        t->ok |= cuzk_map_guard_run(t->m, PAGES * page, read_range, &j, &t->off);
    }
    return NULL;
}

static void test_threads(void)
{
    const uint8_t *m = map_fresh();
    shrink_to(2 * page);
    thread_job t[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        t[i] = (thread_job){m, false, 0};
        CHECK(pthread_create(&th[i], NULL, reader_thread, &t[i]) == 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CHECK_MSG(!t[i].ok && t[i].off == 2 * page, "thread %d: ok %d, fault at %zu", i, t[i].ok, t[i].off);
    }
    munmap((void *)m, PAGES * page);
}

/* ---- what is not ours keeps its effect (child processes) ------------------------------------------- */

static bool sigbus_was_default;

/* How a child that should die of SIGBUS ended: killed by it, or (when a sanitizer's handler was there
 * before ours and reports the fault itself) exited with a failure. */
static bool died_of_sigbus(int status)
{
    if (WIFSIGNALED(status))
        return WTERMSIG(status) == SIGBUS;
    return !sigbus_was_default && WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 77;
}

static int run_child(void (*body)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2); /* a sanitizer's report of the expected death is noise here */
        body();
        _exit(77); /* survived */
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

static void child_unguarded_fault(void)
{
    const uint8_t *m = map_fresh();
    shrink_to(page);
    read_job j = {m, 0, page, 0};
    cuzk_map_guard_run(m, page, read_range, &j, NULL); /* the handler is installed */
    j = (read_job){m, 0, PAGES * page, 0};
    read_range(&j); /* unguarded */
}

static void child_fault_outside_range(void)
{
    const uint8_t *m = map_fresh();
    shrink_to(page);
    read_job j = {m, 0, PAGES * page, 0};
    cuzk_map_guard_run(m, 2 * page, read_range, &j, NULL); /* the guard covers pages 0 and 1 only: caught */
    j = (read_job){m, 2 * page, PAGES * page, 0};
    cuzk_map_guard_run(m, 2 * page, read_range, &j, NULL); /* page 2 faults outside it */
}

static void child_sent_sigbus(void)
{
    const uint8_t *m = map_fresh();
    read_job j = {m, 0, page, 0};
    cuzk_map_guard_run(m, page, read_range, &j, NULL);
    kill(getpid(), SIGBUS);
    usleep(100000);
}

static void their_handler(int sig)
{
    (void)sig;
    _exit(42);
}

static void child_previous_handler(void)
{
    signal(SIGBUS, their_handler); /* before the guard's first use: it is installed over this one */
    const uint8_t *m = map_fresh();
    shrink_to(page);
    read_job j = {m, 0, PAGES * page, 0};
    if (cuzk_map_guard_run(m, PAGES * page, read_range, &j, NULL))
        _exit(1); /* the guarded fault must not reach their handler */
    j = (read_job){m, 0, PAGES * page, 0};
    read_range(&j); /* unguarded: theirs */
}

int main(void)
{
    test_init("test_map_guard");
    page = (size_t)sysconf(_SC_PAGESIZE);
    const char *base = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/cuzk-test-map-guard-%d", base && *base ? base : "/tmp", (int)getpid());
    struct sigaction before;
    sigaction(SIGBUS, NULL, &before);
    sigbus_was_default = !(before.sa_flags & SA_SIGINFO) && before.sa_handler == SIG_DFL;

    /* first, while no guard was ever used in this process (the child inherits that) */
    int st = run_child(child_previous_handler);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 42, "a handler installed before: status 0x%x", st);

    test_single_thread();
    test_nested();
    test_threads();

    st = run_child(child_unguarded_fault);
    CHECK_MSG(died_of_sigbus(st), "an unguarded fault: status 0x%x", st);
    st = run_child(child_fault_outside_range);
    CHECK_MSG(died_of_sigbus(st), "a fault outside the guarded range: status 0x%x", st);
    st = run_child(child_sent_sigbus);
    CHECK_MSG(died_of_sigbus(st), "a SIGBUS sent by kill: status 0x%x", st);

    unlink(path);
    return test_finish();
}
