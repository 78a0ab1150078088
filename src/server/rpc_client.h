/* A generic unary gRPC client on gRPC core's C API: one channel, any number of concurrent calls from
 * any threads, each a request's bytes in and a status plus the response's bytes out. cuzk-bench and
 * the tests use it to talk to a cuzk-daemon. */
#ifndef CUZK_SERVER_RPC_CLIENT_H
#define CUZK_SERVER_RPC_CLIENT_H

#include <grpc/status.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

/* Largest request or response message, both ways (as Curio's Go client). */
#define CUZK_RPC_CLIENT_MAX_MESSAGE (256u << 20)

typedef struct cuzk_rpc_client cuzk_rpc_client_t;

/* Lets another thread cancel a call in progress (a Ctrl-C, a lost race). */
typedef struct cuzk_rpc_cancel cuzk_rpc_cancel_t;

typedef struct {
    grpc_status_code code; /* as returned by cuzk_rpc_client_call */
    char *message;         /* the status message ("" when none; NULL only when memory ran out) */
    uint8_t *data;         /* the response message when code is OK (NULL when it is empty) */
    size_t len;
} cuzk_rpc_result_t;

/* Opens a channel to addr: "host:port", "http://host:port" (the scheme is dropped), "unix:///abs/path",
 * or any target gRPC understands ("dns:///host:port", "ipv4:..."). No connection is made yet: the first
 * call connects. "https://" is refused (no TLS here). Errors: CUZK_ERR_INVALID_ARG, CUZK_ERR_NO_MEMORY. */
cuzk_status cuzk_rpc_client_create(cuzk_rpc_client_t **out, const char *addr, cuzk_err_t *err);

/* Closes the channel. No call may be in progress. NULL is a no-op. */
void cuzk_rpc_client_destroy(cuzk_rpc_client_t *c);

/* Makes one unary call of method (e.g. "/cuzk.v1.ProvingEngine/Prove") with the request's len bytes
 * (req may be NULL when len is 0) and waits for its end. timeout_ms is the call's deadline from now
 * (0 = none). cancel (NULL = none) lets another thread end the call early. Returns the call's status
 * code, also stored in res->code: OK, the server's own code, or one gRPC made up (UNAVAILABLE: no
 * server; DEADLINE_EXCEEDED; CANCELLED; RESOURCE_EXHAUSTED: a message over the size limit). res is
 * always filled in; free it with cuzk_rpc_result_free. */
grpc_status_code cuzk_rpc_client_call(cuzk_rpc_client_t *c, const char *method, const uint8_t *req, size_t len,
                                      uint64_t timeout_ms, cuzk_rpc_cancel_t *cancel, cuzk_rpc_result_t *res);

void cuzk_rpc_result_free(cuzk_rpc_result_t *res);

/* A cancellation token. Fired, it cancels the call using it (the call returns CANCELLED) and every later
 * call given it, at once. One call at a time per token. NULL from create when out of memory. */
cuzk_rpc_cancel_t *cuzk_rpc_cancel_create(void);
void cuzk_rpc_cancel_fire(cuzk_rpc_cancel_t *t);
void cuzk_rpc_cancel_destroy(cuzk_rpc_cancel_t *t);

#endif
