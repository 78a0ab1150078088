/* Accepting HTTP connections with a bounded waiting room (see http_accept.h). One poll loop over the
 * listening sockets, a wake-up pipe and the waiting connections, oldest first. */
#define _GNU_SOURCE
#include "server/http_accept.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "server/net_addr.h"

typedef struct {
    int fd;
    uint64_t since_ms;
    struct sockaddr_storage addr;
    socklen_t addr_len;
} waiting_t;

struct cuzk_http_accept {
    int listen_fd[CUZK_NET_MAX_ADDRS];
    size_t n_listen;
    int port;
    int wake[2]; /* a byte in wake[1] stops the thread */
    waiting_t *waiting; /* oldest first */
    size_t n_waiting, max_waiting;
    uint64_t idle_ms;
    cuzk_http_accept_fn hand;
    void *ctx;
    struct pollfd *pfd; /* listeners, wake, waiting */
    uint64_t listen_again_ms; /* out of descriptors: the listeners rest until then */
    pthread_t thread;
    bool started;
};

static uint64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static void drop_waiting(cuzk_http_accept_t *a, size_t i, bool close_it)
{
    if (close_it)
        close(a->waiting[i].fd);
    memmove(&a->waiting[i], &a->waiting[i + 1], (a->n_waiting - i - 1) * sizeof *a->waiting);
    a->n_waiting--;
}

static void accept_all(cuzk_http_accept_t *a, int lfd)
{
    for (;;) {
        waiting_t w;
        w.addr_len = sizeof w.addr;
        w.fd = accept4(lfd, (struct sockaddr *)&w.addr, &w.addr_len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (w.fd < 0 && (errno == EINTR || errno == ECONNABORTED))
            continue;
        if (w.fd < 0 && (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)) {
            if (a->n_waiting) { /* a silent connection gives its descriptor up */
                drop_waiting(a, 0, true);
                continue;
            }
            a->listen_again_ms = now_ms() + 100; /* the backlog keeps the rest meanwhile; no busy loop */
        }
        if (w.fd < 0)
            return; /* EAGAIN: all taken */
        if (a->n_waiting == a->max_waiting)
            drop_waiting(a, 0, true); /* the oldest silent one makes room */
        w.since_ms = now_ms();
        a->waiting[a->n_waiting++] = w;
    }
}

static void *accept_main(void *arg)
{
    cuzk_http_accept_t *a = arg;
    for (;;) {
        size_t n = 0;
        uint64_t now = now_ms();
        bool listening = now >= a->listen_again_ms;
        for (size_t i = 0; i < a->n_listen; i++) /* fd -1: poll skips it */
            a->pfd[n++] = (struct pollfd){.fd = listening ? a->listen_fd[i] : -1, .events = POLLIN};
        a->pfd[n++] = (struct pollfd){.fd = a->wake[0], .events = POLLIN};
        size_t first = n, n_polled = a->n_waiting;
        for (size_t i = 0; i < n_polled; i++)
            a->pfd[n++] = (struct pollfd){.fd = a->waiting[i].fd, .events = POLLIN};
        int timeout = listening ? -1 : (int)(a->listen_again_ms - now);
        if (a->n_waiting) {
            uint64_t due = a->waiting[0].since_ms + a->idle_ms;
            int t = due <= now ? 0 : (int)(due - now > 60000 ? 60000 : due - now);
            if (timeout < 0 || t < timeout)
                timeout = t;
        }
        if (poll(a->pfd, n, timeout) < 0 && errno != EINTR)
            break;
        if (a->pfd[first - 1].revents)
            break; /* stop */
        /* the waiting connections that spoke (or hung up) go on; walk from the newest so that the
         * indexes of those not yet looked at stay put */
        for (size_t i = n_polled; i-- > 0;) {
            if (!a->pfd[first + i].revents)
                continue;
            waiting_t w = a->waiting[i];
            drop_waiting(a, i, false);
            a->hand(a->ctx, w.fd, (struct sockaddr *)&w.addr, w.addr_len);
        }
        now = now_ms();
        while (a->n_waiting && now - a->waiting[0].since_ms >= a->idle_ms)
            drop_waiting(a, 0, true);
        for (size_t i = 0; i < a->n_listen; i++)
            if (a->pfd[i].revents)
                accept_all(a, a->listen_fd[i]);
    }
    return NULL;
}

/* ---- binding ---- */

/* Binds one address (its port set; 0: any) and listens; the socket, or -1 with errno. */
static int listen_on(const cuzk_net_addr_t *addr)
{
    int fd = socket(addr->sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (addr->sa.ss_family == AF_INET6) /* [::] is IPv6 only: 0.0.0.0 may be bound beside it */
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    if (bind(fd, (const struct sockaddr *)&addr->sa, addr->len) != 0 || listen(fd, SOMAXCONN) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

static int bound_port(int fd)
{
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    if (getsockname(fd, (struct sockaddr *)&sa, &len) != 0)
        return 0;
    return ntohs(sa.ss_family == AF_INET ? ((struct sockaddr_in *)&sa)->sin_port
                                         : ((struct sockaddr_in6 *)&sa)->sin6_port);
}

static cuzk_status bind_all(cuzk_http_accept_t *a, const char *addr, cuzk_err_t *err)
{
    char host[256], port_s[8];
    if (!cuzk_net_split_host_port(addr, host, port_s))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "status address %s: expected host:port", addr);
    cuzk_net_addr_t ips[CUZK_NET_MAX_ADDRS];
    size_t n = 0;
    int gai = cuzk_net_resolve(host, port_s, ips, &n);
    if (gai != 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "status address %s: cannot resolve: %s", addr,
                            gai_strerror(gai));
    if (n == 0 || n > CUZK_NET_MAX_ADDRS)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "status address %s: resolves to %zu IP addresses (1 to %d)",
                            addr, n, CUZK_NET_MAX_ADDRS);
    int port = atoi(port_s);
    for (size_t i = 0; i < n; i++) {
        cuzk_net_set_port(&ips[i], port);
        int fd = listen_on(&ips[i]);
        if (fd < 0) {
            char ip[NI_MAXHOST + 2] = "?";
            cuzk_net_numeric(&ips[i], ip, sizeof ip);
            if (n > 1)
                return cuzk_err_set(err, CUZK_ERR_IO, "status address %s: cannot listen on %s port %d: %s (%s "
                                    "resolves to %zu addresses; all of them are bound, or none)", addr, ip, port,
                                    strerror(errno), host, n);
            return cuzk_err_set(err, CUZK_ERR_IO, "status address %s: cannot listen: %s", addr, strerror(errno));
        }
        a->listen_fd[a->n_listen++] = fd;
        port = bound_port(fd);
    }
    a->port = port;
    return CUZK_OK;
}

/* ---- life cycle ---- */

void cuzk_http_accept_stop(cuzk_http_accept_t *a)
{
    if (!a)
        return;
    if (a->started) {
        char b = 1;
        while (write(a->wake[1], &b, 1) < 0 && errno == EINTR)
            ;
        pthread_join(a->thread, NULL);
    }
    for (size_t i = 0; i < a->n_listen; i++)
        close(a->listen_fd[i]);
    for (size_t i = 0; i < a->n_waiting; i++)
        close(a->waiting[i].fd);
    if (a->wake[0] >= 0)
        close(a->wake[0]), close(a->wake[1]);
    free(a->waiting);
    free(a->pfd);
    free(a);
}

cuzk_status cuzk_http_accept_start(cuzk_http_accept_t **out, const char *addr, size_t max_waiting, uint64_t idle_ms,
                                   cuzk_http_accept_fn hand, void *ctx, cuzk_err_t *err)
{
    *out = NULL;
    if (max_waiting == 0 || idle_ms == 0 || !hand)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "http accept: max_waiting, idle_ms and hand are required");
    cuzk_http_accept_t *a = calloc(1, sizeof *a);
    if (!a)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    a->wake[0] = a->wake[1] = -1;
    a->max_waiting = max_waiting;
    a->idle_ms = idle_ms;
    a->hand = hand;
    a->ctx = ctx;
    a->waiting = calloc(max_waiting, sizeof *a->waiting);
    a->pfd = calloc(CUZK_NET_MAX_ADDRS + 1 + max_waiting, sizeof *a->pfd);
    if (!a->waiting || !a->pfd || pipe2(a->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        cuzk_http_accept_stop(a);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "http accept: out of memory or descriptors");
    }
    cuzk_status st = bind_all(a, addr, err);
    if (st == CUZK_OK && pthread_create(&a->thread, NULL, accept_main, a) != 0)
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "http accept: cannot start a thread");
    if (st != CUZK_OK) {
        cuzk_http_accept_stop(a);
        return st;
    }
    a->started = true;
    *out = a;
    return CUZK_OK;
}

int cuzk_http_accept_port(const cuzk_http_accept_t *a) { return a->port; }
