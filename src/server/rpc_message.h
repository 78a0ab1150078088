/* Protobuf messages at the edge of the gRPC transport, for any service built on rpc_server: what a
 * request must be before it is decoded, and what a response must be when it is encoded.
 *
 * In: a request is walked on the wire, before protobuf-c copies anything: every `string` field (at
 * any depth) must be UTF-8 without NUL (protobuf-c would cut "abc\0def" to "abc", so that different
 * ids meet), and a message with a proof_kind field must keep its `bytes` fields within the server's
 * limit for that kind. Out: every `string` field of a response is made valid UTF-8 (other bytes as
 * \xHH) so that clients' protobuf libraries, which refuse anything else, can read it. */
#ifndef CUZK_SERVER_RPC_MESSAGE_H
#define CUZK_SERVER_RPC_MESSAGE_H
#include <protobuf-c/protobuf-c.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "server/rpc_server.h"

/* Checks a request of type d (len bytes) without decoding it: CUZK_OK; CUZK_ERR_FORMAT when the wire
 * is not a protobuf message ("malformed <Type> message"); CUZK_ERR_INVALID_ARG naming the field whose
 * text has a NUL or bytes that are not UTF-8, or the kind whose input is over its limit.
 * max_input_by_kind: CUZK_RPC_MAX_KINDS limits as in cuzk_rpc_server_options_t (NULL = none). */
cuzk_status cuzk_rpc_check_request(const ProtobufCMessageDescriptor *d, const uint8_t *req, size_t len,
                                   const uint64_t *max_input_by_kind, cuzk_err_t *err);

/* Checks (with the call's server options) and decodes a request for a handler: the message (free it
 * with protobuf_c_message_free_unpacked(m, NULL)), or NULL after replying INVALID_ARGUMENT with the
 * reason (RESOURCE_EXHAUSTED when memory ran out). */
ProtobufCMessage *cuzk_rpc_unpack(cuzk_rpc_call_t *call, const ProtobufCMessageDescriptor *d, const uint8_t *req,
                                  size_t len);

/* Encodes m with every string field at any depth made valid UTF-8 (the strings are swapped for
 * escaped copies during the call and put back: m must not be in use by another thread meanwhile).
 * *out is malloc'd (free it), *len its size. CUZK_ERR_NO_MEMORY is the only failure. */
cuzk_status cuzk_rpc_pack(ProtobufCMessage *m, uint8_t **out, size_t *len, cuzk_err_t *err);

/* cuzk_rpc_pack, then cuzk_rpc_reply(call, OK, ...). Returns whether the response went out (false:
 * the client had gone, or the reply could not be made: the client then gets RESOURCE_EXHAUSTED). */
bool cuzk_rpc_reply_message(cuzk_rpc_call_t *call, ProtobufCMessage *m);

#endif
