/* A generic unary gRPC server on gRPC core's C API: a table of method paths and handlers, each call
 * run on its own thread so that a handler may block for minutes (a whole proof) without holding up
 * the acceptance or the replies of other calls. The number of calls served at once is capped (each
 * holds a thread): beyond the cap a call is refused with RESOURCE_EXHAUSTED, which clients retry.
 * Knows nothing about cuzk.v1; the service sits on top (rpc_message.h decodes and encodes its
 * messages).
 *
 * Life cycle: cuzk_rpc_server_create (binds) -> cuzk_rpc_server_start -> cuzk_rpc_server_shutdown
 * (graceful, from any thread) -> cuzk_rpc_server_destroy. */
#ifndef CUZK_SERVER_RPC_SERVER_H
#define CUZK_SERVER_RPC_SERVER_H

#include <grpc/status.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "server/rpc_client.h"

/* Default largest request or response message, both ways (a 32GiB PoRep C1 output is about 51 MB). */
#define CUZK_RPC_SERVER_MAX_MESSAGE (128u << 20)
/* Default number of calls served at once. */
#define CUZK_RPC_SERVER_MAX_CALLS 256u
/* Default permission bits of a unix socket: owner and group. */
#define CUZK_RPC_SERVER_SOCKET_MODE 0660u
/* Proof kinds (a request's proof_kind value) that can have an input limit of their own. */
#define CUZK_RPC_MAX_KINDS 8

/* Limits and modes; zero fields take the defaults above. */
typedef struct {
    size_t max_message;   /* largest message either way (gRPC refuses a larger request from its length
                           * prefix, before reading it); at most INT32_MAX */
    uint32_t max_calls;   /* calls served at once; the next one gets RESOURCE_EXHAUSTED */
    uint32_t socket_mode; /* a unix socket's permission bits (whatever the umask) */
    /* For a request message with an enum field proof_kind: the most bytes its `bytes` fields may hold
     * together, by proof_kind value (0 = no limit beyond max_message). Checked by cuzk_rpc_unpack
     * before the message is decoded; a larger one is INVALID_ARGUMENT (a retry cannot help). */
    uint64_t max_input_by_kind[CUZK_RPC_MAX_KINDS];
} cuzk_rpc_server_options_t;

typedef struct cuzk_rpc_server cuzk_rpc_server_t;
typedef struct cuzk_rpc_call cuzk_rpc_call_t;

/* Runs on the call's own thread. req is the request message (len bytes; never NULL, len may be 0),
 * valid until the handler returns. The handler must call cuzk_rpc_reply exactly once before it
 * returns; if it does not, the client gets INTERNAL. */
typedef void (*cuzk_rpc_handler_fn)(void *ctx, cuzk_rpc_call_t *call, const uint8_t *req, size_t len);

typedef struct {
    const char *path;          /* full method path, e.g. "/cuzk.v1.ProvingEngine/Prove" */
    cuzk_rpc_handler_fn handler;
} cuzk_rpc_method_t;

/* Creates a server listening on addr and binds it (nothing is served until start):
 *   "host:port", "[::1]:port", "0.0.0.0:port" — TCP; port 0 picks a free port (cuzk_rpc_server_port).
 *   A host name is resolved and every address it resolves to is bound (localhost: 127.0.0.1 and ::1
 *   on most hosts), on one port; if any of them cannot be, nothing is served and the error names it.
 *   "unix:///abs/path" — a Unix socket, created with opts->socket_mode whatever the umask (the umask
 *   is tightened for the moment of the bind: other threads creating files then get no more than
 *   0600); the parent directory is created (0755) when missing and a stale socket file (one nobody
 *   accepts on) is removed. "unix://relative" is rejected.
 * methods (n_methods entries, copied; paths must stay valid for the server's life), ctx (passed to
 * every handler) and opts (copied; NULL = the defaults) are the caller's. Returns
 * CUZK_ERR_INVALID_ARG for a malformed address or options, CUZK_ERR_IO when the address cannot be
 * bound (in use, not available, no permission), with a message in err. */
cuzk_status cuzk_rpc_server_create_with(cuzk_rpc_server_t **out, const char *addr, const cuzk_rpc_method_t *methods,
                                        size_t n_methods, void *ctx, const cuzk_rpc_server_options_t *opts,
                                        cuzk_err_t *err);
/* The same with the default options. */
cuzk_status cuzk_rpc_server_create(cuzk_rpc_server_t **out, const char *addr, const cuzk_rpc_method_t *methods,
                                   size_t n_methods, void *ctx, cuzk_err_t *err);

/* The bound TCP port (useful after "host:0"); 0 for a Unix socket. */
int cuzk_rpc_server_port(const cuzk_rpc_server_t *s);

/* Starts accepting calls (on a dispatcher thread of its own). */
cuzk_status cuzk_rpc_server_start(cuzk_rpc_server_t *s, cuzk_err_t *err);

/* Graceful shutdown: stops accepting calls, lets the calls in flight finish for up to grace_ms, then
 * cancels those still running (their clients get CANCELLED and cuzk_rpc_client_gone turns true) and
 * waits for every handler to return: handlers that run long should watch cuzk_rpc_client_gone.
 * Idempotent; may be called from any thread except a handler's. */
void cuzk_rpc_server_shutdown(cuzk_rpc_server_t *s, uint64_t grace_ms);

/* Shuts down (grace 0) if that has not happened yet, then frees everything; NULL is a no-op. A Unix
 * socket file is removed. */
void cuzk_rpc_server_destroy(cuzk_rpc_server_t *s);

/* Completes the call: status code, an optional status message (NULL = none; bytes that are not UTF-8
 * go out as \xHH, as gRPC wants text there) and, when code is GRPC_STATUS_OK, the response message
 * (resp may be NULL when len is 0: an empty message). Blocks until the reply has been handed to the
 * transport. Returns false when the response did not go out: the client had gone, the response was
 * over max_message (the client gets RESOURCE_EXHAUSTED instead), or a second reply on the same call,
 * which is ignored. */
bool cuzk_rpc_reply(cuzk_rpc_call_t *call, grpc_status_code code, const char *message, const uint8_t *resp,
                    size_t len);

/* True once the call has ended without our reply: the client cancelled it, disconnected, its deadline
 * passed, or the server's shutdown cancelled it. Cheap; any thread. */
bool cuzk_rpc_client_gone(cuzk_rpc_call_t *call);

/* Waits up to timeout_ms for the call to end (UINT64_MAX = no limit); returns cuzk_rpc_client_gone.
 * A long handler can sleep in this instead of polling. */
bool cuzk_rpc_wait_client_gone(cuzk_rpc_call_t *call, uint64_t timeout_ms);

/* The call's method path (NUL-terminated) and the client's address as gRPC writes it, for logs. */
const char *cuzk_rpc_call_method(const cuzk_rpc_call_t *call);
const char *cuzk_rpc_call_peer(const cuzk_rpc_call_t *call);

/* The options of the server the call came to (every field filled in: no zeros for defaults). */
const cuzk_rpc_server_options_t *cuzk_rpc_call_options(const cuzk_rpc_call_t *call);

/* Runs method's handler on the calling thread, without a network, as if a client had sent req (len
 * bytes; req may be NULL when len is 0): for tests and fuzzing of a service. opts as for create (NULL =
 * the defaults). client_gone: whether the call counts as abandoned from the start
 * (cuzk_rpc_client_gone true); when false, cuzk_rpc_wait_client_gone sleeps its whole timeout. res
 * gets the reply as a client would (code, message, response bytes; free with cuzk_rpc_result_free);
 * returns res->code. */
grpc_status_code cuzk_rpc_call_local(const cuzk_rpc_method_t *method, void *ctx, const cuzk_rpc_server_options_t *opts,
                                     const uint8_t *req, size_t len, bool client_gone, cuzk_rpc_result_t *res);

#endif
