/* HTTP /status and /metrics: libmicrohttpd's own polling thread serves the requests, each building a
 * fresh snapshot from the engine (cheap: a walk over the jobs under the engine's lock); the
 * connections come to it from http_accept, which keeps silent ones from taking its places. */
#include "server/http_status.h"

#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>

#include "server/http_accept.h"

struct cuzk_http_status {
    struct MHD_Daemon *d;
    cuzk_http_accept_t *door;
    cuzk_engine_t *engine;
};

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned code, char *body, bool owned, const char *type)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), body,
                                                             owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    if (!r) {
        if (owned)
            free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Access-Control-Allow-Origin", "*");
    enum MHD_Result ok = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_len, void **state)
{
    (void)version;
    (void)upload;
    (void)upload_len;
    (void)state;
    cuzk_http_status_t *h = cls;
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return send_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET\n", false, "text/plain");
    char *body = NULL;
    const char *type = "text/plain";
    if (strcmp(url, "/status") == 0) {
        body = cuzk_engine_status_json(h->engine);
        type = "application/json";
    } else if (strcmp(url, "/metrics") == 0) {
        body = cuzk_engine_metrics_text(h->engine);
        type = "text/plain; version=0.0.4";
    } else
        return send_text(c, MHD_HTTP_NOT_FOUND, "not found: try /status or /metrics\n", false, "text/plain");
    if (!body)
        return send_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n", false, "text/plain");
    return send_text(c, MHD_HTTP_OK, body, true, type);
}

/* A connection whose request has begun: libmicrohttpd's from now on (it closes it when it has no room). */
static void hand_over(void *ctx, int fd, const struct sockaddr *addr, socklen_t len)
{
    cuzk_http_status_t *h = ctx;
    MHD_add_connection(h->d, fd, addr, len);
}

cuzk_status cuzk_http_status_start_with(cuzk_http_status_t **out, const char *addr, cuzk_engine_t *engine,
                                        const cuzk_http_status_options_t *opts, cuzk_err_t *err)
{
    *out = NULL;
    uint32_t max_conn = opts && opts->max_connections ? opts->max_connections : CUZK_HTTP_STATUS_MAX_CONNECTIONS;
    uint64_t idle_ms = opts && opts->idle_timeout_ms ? opts->idle_timeout_ms : CUZK_HTTP_STATUS_IDLE_TIMEOUT_MS;
    uint64_t idle_s = (idle_ms + 999) / 1000;
    if (idle_s > 86400)
        idle_s = 86400;
    cuzk_http_status_t *h = calloc(1, sizeof *h);
    if (!h)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    h->engine = engine;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC | MHD_USE_NO_LISTEN_SOCKET;
    h->d = MHD_start_daemon(flags, 0, NULL, NULL, handle, h, MHD_OPTION_CONNECTION_LIMIT, (unsigned)max_conn,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)idle_s, MHD_OPTION_END);
    if (!h->d) {
        free(h);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "status address %s: cannot start the HTTP server", addr);
    }
    cuzk_status st = cuzk_http_accept_start(&h->door, addr, max_conn, idle_ms, hand_over, h, err);
    if (st != CUZK_OK) {
        MHD_stop_daemon(h->d);
        free(h);
        return st;
    }
    *out = h;
    return CUZK_OK;
}

cuzk_status cuzk_http_status_start(cuzk_http_status_t **out, const char *addr, cuzk_engine_t *engine,
                                   cuzk_err_t *err)
{
    return cuzk_http_status_start_with(out, addr, engine, NULL, err);
}

int cuzk_http_status_port(const cuzk_http_status_t *h) { return cuzk_http_accept_port(h->door); }

void cuzk_http_status_stop(cuzk_http_status_t *h)
{
    if (!h)
        return;
    cuzk_http_accept_stop(h->door); /* first: no connection is handed over to a stopped server */
    MHD_stop_daemon(h->d);
    free(h);
}
