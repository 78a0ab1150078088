/* The SIGBUS handler behind cuzk_map_guard_run (see map_guard.h): each thread keeps a stack of armed
 * recovery points in thread-local storage; a fault whose address lies in one of them jumps back to it,
 * anything else goes to the handler we replaced, or to the default action. */
#include "util/map_guard.h"
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

typedef struct guard {
    sigjmp_buf env;
    uintptr_t base, len;
    volatile uintptr_t fault_addr;
    struct guard *prev; /* the recovery point armed before this one on the same thread */
} guard_t;

/* initial-exec: the handler must not be the first to touch a dynamically allocated TLS block. */
static __thread guard_t *armed __attribute__((tls_model("initial-exec")));

static struct sigaction previous; /* the SIGBUS disposition before ours */
static bool installed;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

/* A fault the kernel raised for an address that cannot be read: the file's page is gone (truncated),
 * could not be read, or is poisoned. Signals sent by kill() or sigqueue() have si_code <= 0. */
static bool is_read_fault(const siginfo_t *si)
{
    return si->si_code == BUS_ADRERR || si->si_code == BUS_OBJERR
#ifdef BUS_MCEERR_AR
           || si->si_code == BUS_MCEERR_AR
#endif
        ;
}

/* Gives a SIGBUS that is not ours the effect it would have had without us. */
static void pass_on(int sig, siginfo_t *si, void *uc)
{
    if (previous.sa_flags & SA_SIGINFO) {
        previous.sa_sigaction(sig, si, uc);
        return;
    }
    if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
        return;
    }
    if (previous.sa_handler == SIG_IGN && si->si_code <= 0)
        return; /* a sent signal that was ignored stays ignored */
    /* The default action (a fault cannot be ignored: the kernel would reset it to the default too).
     * Returning re-executes a faulting instruction, which now meets the default action; a sent signal is
     * raised again, and is delivered when this handler returns (SIGBUS is blocked until then). */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGBUS, &dfl, NULL);
    if (si->si_code <= 0)
        raise(SIGBUS);
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
    int saved_errno = errno;
    if (is_read_fault(si)) {
        uintptr_t a = (uintptr_t)si->si_addr;
        for (guard_t *g = armed; g; g = g->prev)
            if (a - g->base < g->len) {
                g->fault_addr = a;
                siglongjmp(g->env, 1); /* restores the mask saved by sigsetjmp: SIGBUS unblocked */
            }
    }
    pass_on(sig, si, uc);
    errno = saved_errno;
}

static void install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, NULL, &previous) != 0)
        return;
    /* keep running on an alternate stack where the handler we replace asked for one */
    sa.sa_flags = SA_SIGINFO | (previous.sa_flags & SA_ONSTACK);
    installed = sigaction(SIGBUS, &sa, NULL) == 0;
}

bool cuzk_map_guard_run(const void *base, size_t len, void (*fn)(void *ctx), void *ctx, size_t *fault_off)
{
    pthread_once(&install_once, install);
    if (!installed) {
        fn(ctx);
        return true;
    }
    guard_t g; /* every field the landing reads is set before sigsetjmp, or volatile */
    g.base = (uintptr_t)base;
    g.len = len;
    g.fault_addr = 0;
    g.prev = armed;
    if (sigsetjmp(g.env, 1) != 0) {
        armed = g.prev;
        if (fault_off)
            *fault_off = g.fault_addr - g.base;
        return false;
    }
    armed = &g;
    __atomic_signal_fence(__ATOMIC_SEQ_CST); /* armed before the first read, as the handler sees it */
    fn(ctx);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    armed = g.prev;
    return true;
}

typedef struct {
    void *dst;
    const void *src;
    size_t len;
} copy_job;

static void copy_bytes(void *ctx)
{
    copy_job *j = ctx;
    memcpy(j->dst, j->src, j->len);
}

bool cuzk_map_guard_copy(void *dst, const void *src, size_t len, size_t *fault_off)
{
    copy_job j = {dst, src, len};
    return cuzk_map_guard_run(src, len, copy_bytes, &j, fault_off);
}
