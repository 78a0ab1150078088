/* The daemon's optional HTTP status endpoint (libmicrohttpd): GET /status (the engine's JSON snapshot)
 * and GET /metrics (Prometheus text); anything else 404, other methods 405.
 *
 * Connections are bounded so that a crowd of idle ones cannot keep a monitor out: an acceptor thread
 * of ours takes every connection at once and holds it until its request starts to arrive; only then
 * does libmicrohttpd get it. When max_connections are waiting so, the oldest is closed to make room,
 * and one silent for idle_timeout_ms is closed too; libmicrohttpd serves at most max_connections at
 * once and closes a kept-alive connection silent that long. */
#ifndef CUZK_SERVER_HTTP_STATUS_H
#define CUZK_SERVER_HTTP_STATUS_H
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/status.h"

typedef struct cuzk_http_status cuzk_http_status_t;

/* Zero fields take the defaults. */
typedef struct {
    uint32_t max_connections; /* waiting for their request, and being served: each; default 64 */
    uint64_t idle_timeout_ms; /* default 10 s; served connections count it in whole seconds (at least 1) */
} cuzk_http_status_options_t;

#define CUZK_HTTP_STATUS_MAX_CONNECTIONS 64u
#define CUZK_HTTP_STATUS_IDLE_TIMEOUT_MS 10000u

/* Listens on "host:port" or "[v6]:port" (port 0: any free port, see cuzk_http_status_port): every
 * address the host resolves to, on one port, or none. opts may be NULL (the defaults).
 * CUZK_ERR_INVALID_ARG for a malformed address, CUZK_ERR_IO when an address cannot be bound (the
 * message names it), CUZK_ERR_NO_MEMORY. */
cuzk_status cuzk_http_status_start_with(cuzk_http_status_t **out, const char *addr, cuzk_engine_t *engine,
                                        const cuzk_http_status_options_t *opts, cuzk_err_t *err);
/* The same with the defaults. */
cuzk_status cuzk_http_status_start(cuzk_http_status_t **out, const char *addr, cuzk_engine_t *engine,
                                   cuzk_err_t *err);
int cuzk_http_status_port(const cuzk_http_status_t *h);
/* Stops serving and frees (NULL-safe). */
void cuzk_http_status_stop(cuzk_http_status_t *h);
#endif
