/* Unary gRPC client on gRPC core (see rpc_client.h). Each call owns a pluck completion queue: the
 * calling thread starts the whole call as one batch and plucks its completion, so calls on the shared
 * channel never wait on each other. The deadline is gRPC's own (the call then ends DEADLINE_EXCEEDED),
 * so the pluck itself never needs a timeout. */
#define _GNU_SOURCE
#include "server/rpc_client.h"

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct cuzk_rpc_client {
    grpc_channel *channel;
};

struct cuzk_rpc_cancel {
    pthread_mutex_t mu;
    grpc_call *call; /* the call in progress, if any */
    bool fired;
};

cuzk_status cuzk_rpc_client_create(cuzk_rpc_client_t **out, const char *addr, cuzk_err_t *err)
{
    *out = NULL;
    if (!addr || !*addr)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "empty server address");
    if (strncmp(addr, "https://", 8) == 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%s: TLS is not supported, use http:// or host:port", addr);
    if (strncmp(addr, "http://", 7) == 0) /* Curio's form; gRPC knows no http scheme */
        addr += 7;
    if (strncmp(addr, "unix:", 5) == 0 && strncmp(addr, "unix:///", 8) != 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "unix socket address must be unix:///absolute/path, got %s",
                            addr);
    size_t n = strlen(addr);
    if (n && addr[n - 1] == '/') /* "http://host:port/" */
        n--;
    char *target = strndup(addr, n);
    cuzk_rpc_client_t *c = calloc(1, sizeof *c);
    if (!target || !c) {
        free(target);
        free(c);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    }
    grpc_init();
    grpc_arg args[2];
    memset(args, 0, sizeof args);
    args[0].type = args[1].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = (int)CUZK_RPC_CLIENT_MAX_MESSAGE;
    args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = (int)CUZK_RPC_CLIENT_MAX_MESSAGE;
    grpc_channel_args chargs = {2, args};
    grpc_channel_credentials *creds = grpc_insecure_credentials_create();
    c->channel = grpc_channel_create(target, creds, &chargs);
    grpc_channel_credentials_release(creds);
    free(target);
    *out = c;
    return CUZK_OK;
}

void cuzk_rpc_client_destroy(cuzk_rpc_client_t *c)
{
    if (!c)
        return;
    grpc_channel_destroy(c->channel);
    free(c);
    grpc_shutdown();
}

static char *slice_to_string(grpc_slice s)
{
    size_t n = GRPC_SLICE_LENGTH(s);
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, GRPC_SLICE_START_PTR(s), n);
        p[n] = '\0';
    }
    return p;
}

/* Fills res with a status made up here (gRPC never saw the call). */
static grpc_status_code local_status(cuzk_rpc_result_t *res, grpc_status_code code, const char *msg)
{
    res->code = code;
    res->message = strdup(msg);
    return code;
}

/* Copies the response message out of gRPC's slices straight into one buffer of ours (readall
 * would make an intermediate copy: 40 MB more to fault in and move). */
static bool take_message(grpc_byte_buffer *bb, cuzk_rpc_result_t *res)
{
    grpc_byte_buffer_reader reader;
    if (!grpc_byte_buffer_reader_init(&reader, bb))
        return false;
    size_t cap = grpc_byte_buffer_length(bb), len = 0; /* exact unless the message was compressed */
    uint8_t *buf = cap ? malloc(cap) : NULL;
    bool ok = !cap || buf;
    grpc_slice s;
    while (ok && grpc_byte_buffer_reader_next(&reader, &s)) {
        size_t n = GRPC_SLICE_LENGTH(s);
        if (n > cap - len) {
            size_t want = len + n > 2 * cap ? len + n : 2 * cap;
            uint8_t *more = realloc(buf, want);
            if (more)
                buf = more, cap = want;
            else
                ok = false;
        }
        if (ok) {
            memcpy(buf + len, GRPC_SLICE_START_PTR(s), n);
            len += n;
        }
        grpc_slice_unref(s);
    }
    grpc_byte_buffer_reader_destroy(&reader);
    if (!ok || !len) {
        free(buf);
        buf = NULL;
        len = 0;
    }
    res->data = buf;
    res->len = len;
    return ok;
}

static void cancel_attach(cuzk_rpc_cancel_t *t, grpc_call *call)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->mu);
    t->call = call;
    if (t->fired && call)
        grpc_call_cancel(call, NULL);
    pthread_mutex_unlock(&t->mu);
}

grpc_status_code cuzk_rpc_client_call(cuzk_rpc_client_t *c, const char *method, const uint8_t *req, size_t len,
                                      uint64_t timeout_ms, cuzk_rpc_cancel_t *cancel, cuzk_rpc_result_t *res)
{
    memset(res, 0, sizeof *res);
    if (!method || method[0] != '/')
        return local_status(res, GRPC_STATUS_INVALID_ARGUMENT, "method must be a path /pkg.Service/Method");
    if (len > CUZK_RPC_CLIENT_MAX_MESSAGE)
        return local_status(res, GRPC_STATUS_RESOURCE_EXHAUSTED, "request exceeds the client's message size limit");

    gpr_timespec deadline = gpr_inf_future(GPR_CLOCK_REALTIME);
    if (timeout_ms)
        deadline = gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC),
                                gpr_time_from_millis(timeout_ms > INT64_MAX ? INT64_MAX : (int64_t)timeout_ms,
                                                     GPR_TIMESPAN));
    grpc_completion_queue *cq = grpc_completion_queue_create_for_pluck(NULL);
    grpc_slice path = grpc_slice_from_copied_string(method);
    grpc_call *call = grpc_channel_create_call(c->channel, NULL, GRPC_PROPAGATE_DEFAULTS, cq, path, NULL, deadline,
                                               NULL);
    grpc_slice_unref(path);

    /* The request is copied: gRPC may hold on to the slice after the call ends. */
    grpc_slice body = len ? grpc_slice_from_copied_buffer((const char *)req, len) : grpc_empty_slice();
    grpc_byte_buffer *send = grpc_raw_byte_buffer_create(&body, 1);
    grpc_slice_unref(body);
    grpc_byte_buffer *recv = NULL;
    grpc_metadata_array initial_md, trailing_md;
    grpc_metadata_array_init(&initial_md);
    grpc_metadata_array_init(&trailing_md);
    grpc_status_code status = GRPC_STATUS_UNKNOWN;
    grpc_slice details = grpc_empty_slice();

    grpc_op ops[6];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = send;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &initial_md;
    ops[4].op = GRPC_OP_RECV_MESSAGE;
    ops[4].data.recv_message.recv_message = &recv;
    ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[5].data.recv_status_on_client.trailing_metadata = &trailing_md;
    ops[5].data.recv_status_on_client.status = &status;
    ops[5].data.recv_status_on_client.status_details = &details;

    cancel_attach(cancel, call);
    grpc_call_error e = grpc_call_start_batch(call, ops, 6, call, NULL);
    if (e == GRPC_CALL_OK) {
        grpc_completion_queue_pluck(cq, call, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        res->code = status;
        res->message = slice_to_string(details);
        if (status == GRPC_STATUS_OK && recv && !take_message(recv, res)) {
            free(res->message);
            res->message = NULL;
            local_status(res, GRPC_STATUS_INTERNAL, "cannot copy the response message");
        }
    } else {
        local_status(res, GRPC_STATUS_INTERNAL, grpc_call_error_to_string(e));
    }
    cancel_attach(cancel, NULL);

    if (recv)
        grpc_byte_buffer_destroy(recv);
    grpc_byte_buffer_destroy(send);
    grpc_slice_unref(details);
    grpc_metadata_array_destroy(&initial_md);
    grpc_metadata_array_destroy(&trailing_md);
    grpc_call_unref(call);
    grpc_completion_queue_shutdown(cq);
    while (grpc_completion_queue_pluck(cq, NULL, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN)
        ;
    grpc_completion_queue_destroy(cq);
    if (!res->message) /* strdup failed above: the caller may still rely on a string */
        res->message = calloc(1, 1);
    return res->code;
}

void cuzk_rpc_result_free(cuzk_rpc_result_t *res)
{
    if (!res)
        return;
    free(res->message);
    free(res->data);
    memset(res, 0, sizeof *res);
}

cuzk_rpc_cancel_t *cuzk_rpc_cancel_create(void)
{
    cuzk_rpc_cancel_t *t = calloc(1, sizeof *t);
    if (t)
        pthread_mutex_init(&t->mu, NULL);
    return t;
}

void cuzk_rpc_cancel_fire(cuzk_rpc_cancel_t *t)
{
    pthread_mutex_lock(&t->mu);
    t->fired = true;
    if (t->call)
        grpc_call_cancel(t->call, NULL);
    pthread_mutex_unlock(&t->mu);
}

void cuzk_rpc_cancel_destroy(cuzk_rpc_cancel_t *t)
{
    if (!t)
        return;
    pthread_mutex_destroy(&t->mu);
    free(t);
}
