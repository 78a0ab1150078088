/* The daemon's optional HTTP status endpoint (libmicrohttpd): GET /status (the engine's JSON snapshot)
 * and GET /metrics (Prometheus text); anything else 404, other methods 405. */
#ifndef CUZK_SERVER_HTTP_STATUS_H
#define CUZK_SERVER_HTTP_STATUS_H
#include "cuzk/engine.h"
#include "cuzk/status.h"

typedef struct cuzk_http_status cuzk_http_status_t;

/* Listens on "host:port" or "[v6]:port" (port 0: any free port, see cuzk_http_status_port).
 * CUZK_ERR_INVALID_ARG for a malformed address, CUZK_ERR_IO when it cannot be bound. */
cuzk_status cuzk_http_status_start(cuzk_http_status_t **out, const char *addr, cuzk_engine_t *engine,
                                   cuzk_err_t *err);
int cuzk_http_status_port(const cuzk_http_status_t *h);
/* Stops serving and frees (NULL-safe). */
void cuzk_http_status_stop(cuzk_http_status_t *h);
#endif
