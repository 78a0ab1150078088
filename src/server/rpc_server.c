/* Unary gRPC server on gRPC core (see rpc_server.h).
 *
 * Design: one completion queue (a "next" queue registered with the server) and one dispatcher thread
 * that drains it. Every call's operations are bound to that queue; their tags say which call and which
 * operation completed, and the dispatcher only records the completion in the call (under the call's
 * mutex) and wakes whoever waits on it. It never runs a handler. Each accepted call gets its own
 * thread, which starts the call's batches (receive the request, send the reply) and sleeps on the
 * call's condition variable until the dispatcher reports them done; a handler may therefore block
 * for as long as it likes while other calls are accepted and answered. At acceptance the dispatcher
 * also starts RECV_CLOSE_ON_SERVER, whose completion (with `cancelled`) is what cuzk_rpc_client_gone
 * reads. A call's thread, once done, moves the call to a list of finished threads that the
 * dispatcher (at the next accepted call) or the shutdown joins and frees. A call that arrives while
 * max_calls threads are live gets no thread: the dispatcher ends it with RESOURCE_EXHAUSTED at once,
 * so that a crowd of waiting clients costs a bounded number of threads. */
#define _GNU_SOURCE
#include "server/rpc_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "server/net_addr.h"
#include "server/utf8.h"

/* After the last call has ended, how long the graceful phase waits for gRPC's own shutdown (idle
 * connections closing) before it forces the connections closed. */
#define SHUTDOWN_LINGER_MS 1000

enum tag_kind { TAG_NEW, TAG_OPS, TAG_CLOSE, TAG_SHUTDOWN };

struct tag {
    enum tag_kind kind;
    cuzk_rpc_call_t *call;
};

struct cuzk_rpc_call {
    cuzk_rpc_server_t *srv;
    grpc_call *call;
    grpc_call_details details;
    grpc_metadata_array md;
    struct tag t_new, t_ops, t_close;
    const cuzk_rpc_method_t *method; /* NULL: unknown path */
    char *path;                      /* NUL-terminated copy of details.method */
    char *peer;                      /* gpr_malloc'd by gRPC */

    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool ops_busy, ops_ok; /* the batch in flight (at most one at a time) */
    bool closed;           /* RECV_CLOSE_ON_SERVER completed */
    int cancelled;         /* ... and said the call ended without our status */
    bool replied;
    bool start_failed; /* a batch was refused: the call must be cancelled to end */
    bool orphan; /* no thread: the dispatcher frees the call when it closes */

    const cuzk_rpc_server_options_t *opts;
    cuzk_rpc_result_t *local_res; /* a call of cuzk_rpc_call_local: the reply is stored here */

    pthread_t thread;
    cuzk_rpc_call_t *next, *prev; /* server's live list, then its finished list */
};

struct cuzk_rpc_server {
    grpc_server *server;
    grpc_completion_queue *cq;
    cuzk_rpc_method_t *methods;
    size_t n_methods;
    void *ctx;
    cuzk_rpc_server_options_t opts;
    int port;
    char *unix_path; /* the socket file we created (removed at destroy if still ours) */
    ino_t unix_ino;

    pthread_t dispatcher;
    bool started;
    struct tag t_shutdown;

    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool shutting_down, shutdown_done, stopped;
    size_t live;              /* calls whose thread has not finished */
    cuzk_rpc_call_t *live_head;
    cuzk_rpc_call_t *finished; /* threads to join */
};

static const uint8_t empty_msg[1];

/* ---- time helpers (condition variables run on CLOCK_MONOTONIC) ---- */

static void cond_init_monotonic(pthread_cond_t *cv)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(cv, &a);
    pthread_condattr_destroy(&a);
}

static struct timespec deadline_after(uint64_t ms)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (ms > (uint64_t)1 << 40) /* far enough: ~35 years */
        ms = (uint64_t)1 << 40;
    t.tv_sec += (time_t)(ms / 1000);
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L)
        t.tv_sec++, t.tv_nsec -= 1000000000L;
    return t;
}

/* ---- calls ---- */

static cuzk_rpc_call_t *call_new(cuzk_rpc_server_t *s)
{
    cuzk_rpc_call_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->srv = s;
    c->opts = s ? &s->opts : NULL;
    grpc_call_details_init(&c->details);
    grpc_metadata_array_init(&c->md);
    c->t_new = (struct tag){TAG_NEW, c};
    c->t_ops = (struct tag){TAG_OPS, c};
    c->t_close = (struct tag){TAG_CLOSE, c};
    pthread_mutex_init(&c->mu, NULL);
    cond_init_monotonic(&c->cv);
    return c;
}

static void call_free(cuzk_rpc_call_t *c)
{
    if (c->call)
        grpc_call_unref(c->call);
    grpc_call_details_destroy(&c->details);
    grpc_metadata_array_destroy(&c->md);
    free(c->path);
    gpr_free(c->peer);
    pthread_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->cv);
    free(c);
}

/* Starts a batch on the call and sleeps until the dispatcher reports it complete. */
static bool call_run_ops(cuzk_rpc_call_t *c, const grpc_op *ops, size_t n)
{
    pthread_mutex_lock(&c->mu);
    c->ops_busy = true;
    pthread_mutex_unlock(&c->mu);
    if (grpc_call_start_batch(c->call, ops, n, &c->t_ops, NULL) != GRPC_CALL_OK) {
        pthread_mutex_lock(&c->mu);
        c->ops_busy = false;
        c->start_failed = true;
        pthread_mutex_unlock(&c->mu);
        return false;
    }
    pthread_mutex_lock(&c->mu);
    while (c->ops_busy)
        pthread_cond_wait(&c->cv, &c->mu);
    bool ok = c->ops_ok;
    pthread_mutex_unlock(&c->mu);
    return ok;
}

/* A local call's reply: kept for cuzk_rpc_call_local's caller. */
static bool store_reply(cuzk_rpc_call_t *c, grpc_status_code code, const char *text, const uint8_t *resp, size_t len)
{
    cuzk_rpc_result_t *r = c->local_res;
    r->code = code;
    r->message = strdup(text);
    if (code == GRPC_STATUS_OK && len) {
        r->data = malloc(len);
        if (r->data) {
            memcpy(r->data, resp, len);
            r->len = len;
        }
    }
    return !cuzk_rpc_client_gone(c);
}

static bool send_reply(cuzk_rpc_call_t *c, grpc_status_code code, const char *message, const uint8_t *resp,
                       size_t len)
{
    bool too_big = code == GRPC_STATUS_OK && len > c->opts->max_message;
    if (too_big) {
        code = GRPC_STATUS_RESOURCE_EXHAUSTED;
        message = "response exceeds the server's message size limit";
    }
    char *text = cuzk_utf8_escape(message ? message : ""); /* gRPC status messages are UTF-8 text */
    if (c->local_res) {
        bool ok = store_reply(c, code, text ? text : "", resp, len);
        free(text);
        return ok && !too_big;
    }
    grpc_slice details = grpc_slice_from_copied_string(text ? text : "");
    free(text);
    grpc_slice body = grpc_empty_slice();
    grpc_byte_buffer *bb = NULL;
    grpc_op ops[3];
    size_t n = 0;
    memset(ops, 0, sizeof ops);
    ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
    if (code == GRPC_STATUS_OK) {
        if (len)
            body = grpc_slice_from_copied_buffer((const char *)resp, len);
        bb = grpc_raw_byte_buffer_create(&body, 1);
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n++].data.send_message.send_message = bb;
    }
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.status = code;
    ops[n++].data.send_status_from_server.status_details = &details;
    bool ok = call_run_ops(c, ops, n);
    if (bb)
        grpc_byte_buffer_destroy(bb);
    grpc_slice_unref(body);
    grpc_slice_unref(details);
    return ok && !too_big;
}

bool cuzk_rpc_reply(cuzk_rpc_call_t *c, grpc_status_code code, const char *message, const uint8_t *resp,
                    size_t len)
{
    pthread_mutex_lock(&c->mu);
    bool again = c->replied;
    c->replied = true;
    pthread_mutex_unlock(&c->mu);
    if (again)
        return false;
    return send_reply(c, code, message, resp, len);
}

bool cuzk_rpc_client_gone(cuzk_rpc_call_t *c)
{
    pthread_mutex_lock(&c->mu);
    bool gone = c->closed && c->cancelled;
    pthread_mutex_unlock(&c->mu);
    return gone;
}

bool cuzk_rpc_wait_client_gone(cuzk_rpc_call_t *c, uint64_t timeout_ms)
{
    struct timespec until = deadline_after(timeout_ms);
    pthread_mutex_lock(&c->mu);
    while (!c->closed) {
        if (timeout_ms == UINT64_MAX)
            pthread_cond_wait(&c->cv, &c->mu);
        else if (pthread_cond_timedwait(&c->cv, &c->mu, &until) == ETIMEDOUT)
            break;
    }
    bool gone = c->closed && c->cancelled;
    pthread_mutex_unlock(&c->mu);
    return gone;
}

const char *cuzk_rpc_call_method(const cuzk_rpc_call_t *c) { return c->path ? c->path : ""; }
const char *cuzk_rpc_call_peer(const cuzk_rpc_call_t *c) { return c->peer ? c->peer : ""; }
const cuzk_rpc_server_options_t *cuzk_rpc_call_options(const cuzk_rpc_call_t *c) { return c->opts; }

/* Receives the request, runs the handler, makes sure a status goes out. */
static void call_serve(cuzk_rpc_call_t *c)
{
    cuzk_rpc_server_t *s = c->srv;
    if (!c->method) {
        char msg[160];
        snprintf(msg, sizeof msg, "unknown method %.120s", c->path);
        cuzk_rpc_reply(c, GRPC_STATUS_UNIMPLEMENTED, msg, NULL, 0);
        return;
    }
    grpc_byte_buffer *bb = NULL;
    grpc_op op;
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_MESSAGE;
    op.data.recv_message.recv_message = &bb;
    if (!call_run_ops(c, &op, 1) || !bb) {
        if (bb)
            grpc_byte_buffer_destroy(bb);
        cuzk_rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, "no request message", NULL, 0);
        return;
    }
    grpc_byte_buffer_reader reader;
    if (!grpc_byte_buffer_reader_init(&reader, bb)) { /* a compressed message that does not inflate */
        grpc_byte_buffer_destroy(bb);
        cuzk_rpc_reply(c, GRPC_STATUS_INTERNAL, "cannot decompress the request", NULL, 0);
        return;
    }
    grpc_slice req = grpc_byte_buffer_reader_readall(&reader);
    grpc_byte_buffer_reader_destroy(&reader);
    grpc_byte_buffer_destroy(bb);
    size_t len = GRPC_SLICE_LENGTH(req);
    c->method->handler(s->ctx, c, len ? GRPC_SLICE_START_PTR(req) : empty_msg, len);
    grpc_slice_unref(req);
    cuzk_rpc_reply(c, GRPC_STATUS_INTERNAL, "the handler returned without a reply", NULL, 0);
}

static void live_insert(cuzk_rpc_server_t *s, cuzk_rpc_call_t *c)
{
    c->prev = NULL;
    c->next = s->live_head;
    if (s->live_head)
        s->live_head->prev = c;
    s->live_head = c;
    s->live++;
}

static void live_remove(cuzk_rpc_server_t *s, cuzk_rpc_call_t *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        s->live_head = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->next = c->prev = NULL;
    s->live--;
    pthread_cond_broadcast(&s->cv);
}

static void *call_main(void *arg)
{
    cuzk_rpc_call_t *c = arg;
    cuzk_rpc_server_t *s = c->srv;
    call_serve(c);
    /* The close event comes once our status is out or the call is cancelled; after it no event for
     * this call remains in the queue and the call can go. A reply that could not even start would
     * leave the call open: cancel it so that the close event comes. */
    if (c->start_failed)
        grpc_call_cancel(c->call, NULL);
    cuzk_rpc_wait_client_gone(c, UINT64_MAX);

    pthread_mutex_lock(&s->mu);
    live_remove(s, c);
    c->next = s->finished;
    s->finished = c;
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Joins the threads that have finished and frees their calls. */
static void reap_finished(cuzk_rpc_server_t *s)
{
    pthread_mutex_lock(&s->mu);
    cuzk_rpc_call_t *list = s->finished;
    s->finished = NULL;
    pthread_mutex_unlock(&s->mu);
    while (list) {
        cuzk_rpc_call_t *next = list->next;
        pthread_join(list->thread, NULL);
        call_free(list);
        list = next;
    }
}

/* ---- the dispatcher ---- */

static void request_next_call(cuzk_rpc_server_t *s)
{
    pthread_mutex_lock(&s->mu);
    bool stop = s->shutting_down;
    pthread_mutex_unlock(&s->mu);
    if (stop)
        return;
    cuzk_rpc_call_t *c = call_new(s);
    if (!c) { /* out of memory: nothing accepts calls any more; they wait until shutdown */
        fprintf(stderr, "rpc server: out of memory, no longer accepting calls\n");
        return;
    }
    if (grpc_server_request_call(s->server, &c->call, &c->details, &c->md, s->cq, s->cq, &c->t_new) !=
        GRPC_CALL_OK)
        call_free(c);
}

static const cuzk_rpc_method_t *find_method(const cuzk_rpc_server_t *s, const char *path)
{
    for (size_t i = 0; i < s->n_methods; i++)
        if (strcmp(s->methods[i].path, path) == 0)
            return &s->methods[i];
    return NULL;
}

static void on_new_call(cuzk_rpc_server_t *s, cuzk_rpc_call_t *c, bool ok)
{
    if (!ok) { /* the request was withdrawn: the server is shutting down */
        call_free(c);
        return;
    }
    request_next_call(s);
    reap_finished(s);

    c->path = grpc_slice_to_c_string(c->details.method);
    c->peer = grpc_call_get_peer(c->call);
    c->method = c->path ? find_method(s, c->path) : NULL;
    grpc_op op;
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    op.data.recv_close_on_server.cancelled = &c->cancelled;
    if (grpc_call_start_batch(c->call, &op, 1, &c->t_close, NULL) != GRPC_CALL_OK) {
        call_free(c); /* cannot happen on a fresh call; nothing of it is in the queue */
        return;
    }

    pthread_mutex_lock(&s->mu);
    bool full = s->live >= s->opts.max_calls;
    if (!full)
        live_insert(s, c);
    pthread_mutex_unlock(&s->mu);
    if (full) { /* no thread for it: refused at once, freed when gRPC reports it closed */
        char msg[160];
        snprintf(msg, sizeof msg, "the server is busy: %u calls in progress, its limit; try again later",
                 s->opts.max_calls);
        pthread_mutex_lock(&c->mu);
        c->orphan = true;
        pthread_mutex_unlock(&c->mu);
        grpc_call_cancel_with_status(c->call, GRPC_STATUS_RESOURCE_EXHAUSTED, msg, NULL);
        return;
    }
    if (pthread_create(&c->thread, NULL, call_main, c) != 0) {
        pthread_mutex_lock(&s->mu);
        live_remove(s, c);
        pthread_mutex_unlock(&s->mu);
        pthread_mutex_lock(&c->mu);
        c->orphan = true;
        pthread_mutex_unlock(&c->mu);
        grpc_call_cancel_with_status(c->call, GRPC_STATUS_RESOURCE_EXHAUSTED, "server cannot start a thread",
                                     NULL);
    }
}

static void on_close(cuzk_rpc_call_t *c)
{
    pthread_mutex_lock(&c->mu);
    c->closed = true;
    bool orphan = c->orphan;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
    if (orphan)
        call_free(c);
}

static void *dispatcher_main(void *arg)
{
    cuzk_rpc_server_t *s = arg;
    for (;;) {
        grpc_event ev = grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN)
            break;
        if (ev.type != GRPC_OP_COMPLETE)
            continue;
        struct tag *t = ev.tag;
        cuzk_rpc_call_t *c = t->call;
        switch (t->kind) {
        case TAG_NEW:
            on_new_call(s, c, ev.success);
            break;
        case TAG_OPS: /* after the unlock the call's thread may free c: touch nothing after it */
            pthread_mutex_lock(&c->mu);
            c->ops_busy = false;
            c->ops_ok = ev.success;
            pthread_cond_broadcast(&c->cv);
            pthread_mutex_unlock(&c->mu);
            break;
        case TAG_CLOSE:
            on_close(c);
            break;
        case TAG_SHUTDOWN:
            pthread_mutex_lock(&s->mu);
            s->shutdown_done = true;
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
            break;
        }
    }
    return NULL;
}

/* ---- addresses ---- */

static cuzk_status mkdir_parents(const char *path, cuzk_err_t *err)
{
    char *dir = strdup(path);
    if (!dir)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        for (char *p = dir + 1;; p++) {
            bool end = *p == '\0';
            if (*p == '/' || end) {
                *p = '\0';
                if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
                    cuzk_status st = cuzk_err_set(err, CUZK_ERR_IO, "cannot create directory %s: %s", dir,
                                                  strerror(errno));
                    free(dir);
                    return st;
                }
                if (end)
                    break;
                *p = '/';
            }
        }
    }
    free(dir);
    return CUZK_OK;
}

/* Prepares a Unix socket path: parent directory, stale socket. A socket someone still accepts on is
 * an address in use (gRPC would silently replace it). */
static cuzk_status prepare_unix_path(const char *path, cuzk_err_t *err)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof sa.sun_path)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "unix socket path too long (%zu bytes, limit %zu): %s",
                            strlen(path), sizeof sa.sun_path - 1, path);
    cuzk_status st = mkdir_parents(path, err);
    if (st != CUZK_OK)
        return st;
    struct stat sb;
    if (lstat(path, &sb) != 0)
        return CUZK_OK;
    if (!S_ISSOCK(sb.st_mode))
        return cuzk_err_set(err, CUZK_ERR_IO, "cannot listen on unix://%s: the file exists and is not a socket",
                            path);
    strcpy(sa.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return cuzk_err_set(err, CUZK_ERR_IO, "socket: %s", strerror(errno));
    int in_use = connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    close(fd);
    if (in_use)
        return cuzk_err_set(err, CUZK_ERR_IO, "cannot listen on unix://%s: address in use (a server accepts there)",
                            path);
    if (unlink(path) != 0 && errno != ENOENT)
        return cuzk_err_set(err, CUZK_ERR_IO, "cannot remove the stale socket %s: %s", path, strerror(errno));
    return CUZK_OK;
}

/* ---- the server ---- */

/* Why binding sa fails, in words: gRPC says only that a port could not be added. */
static const char *why_bind_fails(const struct sockaddr *sa, socklen_t len, char *buf, size_t cap)
{
    const char *why = "gRPC could not bind it";
    int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(buf, cap, "%s", strerror(errno));
        return buf;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, sa, len) != 0 || listen(fd, 1) != 0) {
        snprintf(buf, cap, "%s", strerror(errno));
        why = buf;
    }
    close(fd);
    return why;
}

/* TCP: every address the host resolves to, on one port (the first bind picks it when port is 0), so
 * that "localhost:9820" is not served on 127.0.0.1 alone because [::1]:9820 was taken. gRPC would
 * bind what it can of a name and say nothing of the rest: each address is given to it numerically. */
static cuzk_status bind_tcp(cuzk_rpc_server_t *s, const char *addr, cuzk_err_t *err)
{
    char host[256], port_s[8];
    if (!cuzk_net_split_host_port(addr, host, port_s))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "listen address must be host:port or unix:///absolute/path, got %s", addr);
    cuzk_net_addr_t ips[CUZK_NET_MAX_ADDRS];
    size_t n = 0;
    int gai = cuzk_net_resolve(host, port_s, ips, &n);
    if (gai != 0)
        return cuzk_err_set(err, gai == EAI_SERVICE ? CUZK_ERR_INVALID_ARG : CUZK_ERR_IO,
                            "cannot listen on %s: cannot resolve it: %s", addr, gai_strerror(gai));
    if (n == 0 || n > CUZK_NET_MAX_ADDRS)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cannot listen on %s: it resolves to %zu IP addresses (1 to %d)",
                            addr, n, CUZK_NET_MAX_ADDRS);
    int port = atoi(port_s);
    for (size_t i = 0; i < n; i++) {
        cuzk_net_set_port(&ips[i], port);
        char ip[NI_MAXHOST + 2], target[NI_MAXHOST + 16];
        if (!cuzk_net_numeric(&ips[i], ip, sizeof ip))
            return cuzk_err_set(err, CUZK_ERR_IO, "cannot listen on %s: an address it resolves to has no numeric form",
                                addr);
        snprintf(target, sizeof target, "%s:%d", ip, port);
        grpc_server_credentials *creds = grpc_insecure_server_credentials_create();
        int got = grpc_server_add_http2_port(s->server, target, creds);
        grpc_server_credentials_release(creds);
        if (got <= 0) {
            char why[128];
            const char *w = why_bind_fails((const struct sockaddr *)&ips[i].sa, ips[i].len, why, sizeof why);
            if (n > 1)
                return cuzk_err_set(err, CUZK_ERR_IO, "cannot listen on %s: %s: %s (%s resolves to %zu addresses; "
                                    "all of them are bound, or none)", addr, target, w, host, n);
            return cuzk_err_set(err, CUZK_ERR_IO, "cannot listen on %s: %s", addr, w);
        }
        port = got;
    }
    s->port = port;
    return CUZK_OK;
}

/* A unix socket with the configured mode. gRPC creates it with the umask's bits; a tight umask for the
 * moment of the bind means nobody else can connect in the moment before the chmod. */
static cuzk_status bind_unix(cuzk_rpc_server_t *s, const char *addr, cuzk_err_t *err)
{
    if (strncmp(addr, "unix:///", 8) != 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "unix socket address must be unix:///absolute/path, got %s",
                            addr);
    const char *path = addr + 7;
    cuzk_status st = prepare_unix_path(path, err);
    if (st != CUZK_OK)
        return st;
    grpc_server_credentials *creds = grpc_insecure_server_credentials_create();
    mode_t old = umask(0177);
    int port = grpc_server_add_http2_port(s->server, addr, creds);
    umask(old);
    grpc_server_credentials_release(creds);
    if (port <= 0)
        return cuzk_err_set(err, CUZK_ERR_IO, "cannot listen on %s: gRPC could not bind the socket", addr);
    struct stat sb;
    if (chmod(path, (mode_t)s->opts.socket_mode) != 0 || stat(path, &sb) != 0) {
        st = cuzk_err_set(err, CUZK_ERR_IO, "cannot give %s the mode %04o: %s", path, s->opts.socket_mode,
                          strerror(errno));
        unlink(path);
        return st;
    }
    s->unix_path = strdup(path);
    s->unix_ino = sb.st_ino;
    return CUZK_OK;
}

static cuzk_status bind_address(cuzk_rpc_server_t *s, const char *addr, cuzk_err_t *err)
{
    if (strncmp(addr, "unix:", 5) == 0)
        return bind_unix(s, addr, err);
    if (!strchr(addr, ':') || strstr(addr, "://"))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "listen address must be host:port or unix:///absolute/path, got %s", addr);
    return bind_tcp(s, addr, err);
}

/* opts with the defaults filled in. */
static cuzk_status take_options(cuzk_rpc_server_options_t *o, const cuzk_rpc_server_options_t *in, cuzk_err_t *err)
{
    if (in)
        *o = *in;
    else
        memset(o, 0, sizeof *o);
    if (!o->max_message)
        o->max_message = CUZK_RPC_SERVER_MAX_MESSAGE;
    if (!o->max_calls)
        o->max_calls = CUZK_RPC_SERVER_MAX_CALLS;
    if (!o->socket_mode)
        o->socket_mode = CUZK_RPC_SERVER_SOCKET_MODE;
    if (o->max_message > INT32_MAX)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "a message limit of %zu bytes is over gRPC's %d", o->max_message,
                            INT32_MAX);
    if (o->socket_mode & ~0777u)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "socket mode %o: only permission bits (0 to 0777)",
                            o->socket_mode);
    return CUZK_OK;
}

cuzk_status cuzk_rpc_server_create_with(cuzk_rpc_server_t **out, const char *addr, const cuzk_rpc_method_t *methods,
                                        size_t n_methods, void *ctx, const cuzk_rpc_server_options_t *opts,
                                        cuzk_err_t *err)
{
    *out = NULL;
    if (!addr || !*addr)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "empty listen address");
    for (size_t i = 0; i < n_methods; i++)
        if (!methods[i].path || methods[i].path[0] != '/' || !methods[i].handler)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "method %zu: a path /pkg.Service/Method and a handler",
                                i);
    cuzk_rpc_server_options_t o;
    cuzk_status st = take_options(&o, opts, err);
    if (st != CUZK_OK)
        return st;
    cuzk_rpc_server_t *s = calloc(1, sizeof *s);
    if (!s || !(s->methods = malloc((n_methods ? n_methods : 1) * sizeof *methods))) {
        free(s);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    }
    if (n_methods)
        memcpy(s->methods, methods, n_methods * sizeof *methods);
    s->n_methods = n_methods;
    s->ctx = ctx;
    s->opts = o;
    s->t_shutdown = (struct tag){TAG_SHUTDOWN, NULL};
    pthread_mutex_init(&s->mu, NULL);
    cond_init_monotonic(&s->cv);

    grpc_init();
    grpc_arg args[3];
    memset(args, 0, sizeof args);
    args[0].type = args[1].type = args[2].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = (int)o.max_message;
    args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = (int)o.max_message;
    args[2].key = GRPC_ARG_ALLOW_REUSEPORT; /* two daemons on one port would share its calls */
    args[2].value.integer = 0;
    grpc_channel_args chargs = {3, args};
    s->server = grpc_server_create(&chargs, NULL);
    s->cq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(s->server, s->cq, NULL);

    st = bind_address(s, addr, err);
    if (st != CUZK_OK) { /* some addresses may be bound already: the whole shutdown */
        cuzk_rpc_server_destroy(s);
        return st;
    }
    *out = s;
    return CUZK_OK;
}

cuzk_status cuzk_rpc_server_create(cuzk_rpc_server_t **out, const char *addr, const cuzk_rpc_method_t *methods,
                                   size_t n_methods, void *ctx, cuzk_err_t *err)
{
    return cuzk_rpc_server_create_with(out, addr, methods, n_methods, ctx, NULL, err);
}

int cuzk_rpc_server_port(const cuzk_rpc_server_t *s) { return s->port; }

cuzk_status cuzk_rpc_server_start(cuzk_rpc_server_t *s, cuzk_err_t *err)
{
    pthread_mutex_lock(&s->mu);
    bool bad = s->started || s->shutting_down;
    pthread_mutex_unlock(&s->mu);
    if (bad)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "server already started or shut down");
    if (pthread_create(&s->dispatcher, NULL, dispatcher_main, s) != 0)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "cannot start the dispatcher thread");
    pthread_mutex_lock(&s->mu);
    s->started = true;
    pthread_mutex_unlock(&s->mu);
    grpc_server_start(s->server);
    request_next_call(s);
    return CUZK_OK;
}

/* Waits (s->mu held) until no call is live and gRPC reported its shutdown, or the deadline. */
static bool wait_quiet(cuzk_rpc_server_t *s, const struct timespec *until)
{
    while (s->live > 0 || !s->shutdown_done) {
        if (!until)
            pthread_cond_wait(&s->cv, &s->mu);
        else if (pthread_cond_timedwait(&s->cv, &s->mu, until) == ETIMEDOUT)
            return s->live == 0 && s->shutdown_done;
    }
    return true;
}

void cuzk_rpc_server_shutdown(cuzk_rpc_server_t *s, uint64_t grace_ms)
{
    pthread_mutex_lock(&s->mu);
    if (s->shutting_down) { /* someone else is at it: wait for them */
        while (!s->stopped)
            pthread_cond_wait(&s->cv, &s->mu);
        pthread_mutex_unlock(&s->mu);
        return;
    }
    s->shutting_down = true;
    bool started = s->started;
    pthread_mutex_unlock(&s->mu);

    grpc_server_shutdown_and_notify(s->server, s->cq, &s->t_shutdown);
    if (!started) { /* no dispatcher: drain the queue here */
        grpc_server_cancel_all_calls(s->server);
        grpc_event ev;
        do
            ev = grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL);
        while (ev.type != GRPC_OP_COMPLETE || ev.tag != &s->t_shutdown);
        s->shutdown_done = true;
    } else {
        struct timespec grace = deadline_after(grace_ms);
        pthread_mutex_lock(&s->mu);
        bool quiet = wait_quiet(s, &grace);
        if (!quiet && s->live == 0) { /* calls done; idle connections may still be closing */
            struct timespec linger = deadline_after(SHUTDOWN_LINGER_MS);
            quiet = wait_quiet(s, &linger);
        }
        pthread_mutex_unlock(&s->mu);
        if (!quiet)
            grpc_server_cancel_all_calls(s->server);
        pthread_mutex_lock(&s->mu);
        wait_quiet(s, NULL);
        pthread_mutex_unlock(&s->mu);
    }
    grpc_server_destroy(s->server);
    s->server = NULL;
    grpc_completion_queue_shutdown(s->cq);
    if (started)
        pthread_join(s->dispatcher, NULL);
    else
        while (grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL).type !=
               GRPC_QUEUE_SHUTDOWN)
            ;
    reap_finished(s);
    grpc_completion_queue_destroy(s->cq);
    s->cq = NULL;

    pthread_mutex_lock(&s->mu);
    s->stopped = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

void cuzk_rpc_server_destroy(cuzk_rpc_server_t *s)
{
    if (!s)
        return;
    cuzk_rpc_server_shutdown(s, 0);
    if (s->unix_path) { /* only our own socket: another server may have taken the path since */
        struct stat sb;
        if (lstat(s->unix_path, &sb) == 0 && S_ISSOCK(sb.st_mode) && sb.st_ino == s->unix_ino)
            unlink(s->unix_path);
        free(s->unix_path);
    }
    free(s->methods);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
    grpc_shutdown();
}

/* ---- calls without a network ---- */

grpc_status_code cuzk_rpc_call_local(const cuzk_rpc_method_t *method, void *ctx, const cuzk_rpc_server_options_t *opts,
                                     const uint8_t *req, size_t len, bool client_gone, cuzk_rpc_result_t *res)
{
    memset(res, 0, sizeof *res);
    cuzk_rpc_server_options_t o;
    cuzk_err_t err = {{0}};
    cuzk_rpc_call_t *c = NULL;
    if (take_options(&o, opts, &err) != CUZK_OK || !(c = call_new(NULL))) {
        res->code = GRPC_STATUS_INTERNAL;
        res->message = strdup(err.msg[0] ? err.msg : "out of memory");
        return res->code;
    }
    c->opts = &o;
    c->local_res = res;
    c->method = method;
    c->path = strdup(method->path);
    c->closed = client_gone;
    c->cancelled = client_gone;
    method->handler(ctx, c, len ? req : empty_msg, len);
    cuzk_rpc_reply(c, GRPC_STATUS_INTERNAL, "the handler returned without a reply", NULL, 0);
    call_free(c);
    return res->code;
}
