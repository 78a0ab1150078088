/* HTTP /status and /metrics on libmicrohttpd's own polling thread; each request builds a fresh
 * snapshot from the engine (cheap: a walk over the jobs under the engine's lock). */
#include "server/http_status.h"

#include <microhttpd.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>

struct cuzk_http_status {
    struct MHD_Daemon *d;
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

/* "host:port" or "[v6]:port" → a socket address. */
static cuzk_status resolve(const char *addr, struct sockaddr_storage *ss, int *family, cuzk_err_t *err)
{
    char host[256];
    const char *colon = strrchr(addr, ':');
    size_t hl = colon ? (size_t)(colon - addr) : 0;
    if (!colon || hl == 0 || hl >= sizeof host || !colon[1])
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "status address %s: expected host:port", addr);
    memcpy(host, addr, hl);
    host[hl] = 0;
    if (host[0] == '[' && hl >= 2 && host[hl - 1] == ']') {
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = 0;
    }
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *res = NULL;
    if (getaddrinfo(host, colon + 1, &hints, &res) != 0 || !res)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "status address %s: cannot resolve", addr);
    memcpy(ss, res->ai_addr, res->ai_addrlen);
    *family = res->ai_family;
    freeaddrinfo(res);
    return CUZK_OK;
}

cuzk_status cuzk_http_status_start(cuzk_http_status_t **out, const char *addr, cuzk_engine_t *engine,
                                   cuzk_err_t *err)
{
    *out = NULL;
    struct sockaddr_storage ss;
    int family = 0;
    cuzk_status st = resolve(addr, &ss, &family, err);
    if (st != CUZK_OK)
        return st;
    cuzk_http_status_t *h = calloc(1, sizeof *h);
    if (!h)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    h->engine = engine;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | (family == AF_INET6 ? MHD_USE_IPv6 : 0);
    h->d = MHD_start_daemon(flags, 0, NULL, NULL, handle, h, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
                            MHD_OPTION_CONNECTION_TIMEOUT, 30u, MHD_OPTION_END);
    if (!h->d) {
        free(h);
        return cuzk_err_set(err, CUZK_ERR_IO, "status address %s: cannot listen (in use?)", addr);
    }
    *out = h;
    return CUZK_OK;
}

int cuzk_http_status_port(const cuzk_http_status_t *h)
{
    const union MHD_DaemonInfo *i = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
    return i ? i->port : 0;
}

void cuzk_http_status_stop(cuzk_http_status_t *h)
{
    if (!h)
        return;
    MHD_stop_daemon(h->d);
    free(h);
}
