/* The front door of the HTTP status endpoint: listening sockets on every address of "host:port" and
 * one thread that accepts each connection at once and holds it until the client starts sending its
 * request; then the connection is handed over. A client that connects and says nothing cannot hold a
 * place: at most max_waiting such connections are kept, the oldest is closed when another arrives,
 * and any is closed after idle_ms of silence. So a crowd of idle connections neither fills the
 * listen backlog nor keeps out a client that asks for something. */
#ifndef CUZK_SERVER_HTTP_ACCEPT_H
#define CUZK_SERVER_HTTP_ACCEPT_H
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "cuzk/status.h"

typedef struct cuzk_http_accept cuzk_http_accept_t;

/* Called on the acceptor thread with a connected, non-blocking socket whose request has begun to
 * arrive (or that the client closed); the socket is the callee's from then on. */
typedef void (*cuzk_http_accept_fn)(void *ctx, int fd, const struct sockaddr *addr, socklen_t addr_len);

/* Binds every address addr ("host:port", "[v6]:port"; port 0 = a free one, the same for all) resolves
 * to and starts the thread. max_waiting >= 1, idle_ms >= 1. CUZK_ERR_INVALID_ARG: a malformed or
 * unresolvable address; CUZK_ERR_IO: an address cannot be bound (the message names it);
 * CUZK_ERR_NO_MEMORY. */
cuzk_status cuzk_http_accept_start(cuzk_http_accept_t **out, const char *addr, size_t max_waiting, uint64_t idle_ms,
                                   cuzk_http_accept_fn hand, void *ctx, cuzk_err_t *err);
/* The bound port. */
int cuzk_http_accept_port(const cuzk_http_accept_t *a);
/* Stops the thread, closes the listening sockets and the connections still waiting; NULL-safe. No
 * call of hand runs after it returns. */
void cuzk_http_accept_stop(cuzk_http_accept_t *a);
#endif
