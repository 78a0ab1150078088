/* Protobuf messages at the transport's edge (see rpc_message.h): a walk over a request's wire form
 * that checks its text fields and its input size before protobuf-c copies a byte, and an encoder
 * that makes every text field of a response valid UTF-8. Both follow the message descriptors, so
 * they hold for every method and every field, present and future. */
#include "server/rpc_message.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/utf8.h"

/* Deeper nesting than any message of ours: a request that nests further is refused, not recursed. */
#define MAX_DEPTH 32

/* ---- requests: the walk over the wire ---- */

typedef struct {
    const uint64_t *limits;
    const char *type; /* the request's type, for "malformed <type> message" */
    cuzk_err_t *err;
} walk_t;

static bool read_varint(const uint8_t *p, size_t n, size_t *off, uint64_t *v)
{
    uint64_t x = 0;
    for (int i = 0; i < 10 && *off < n; i++) {
        uint8_t b = p[(*off)++];
        x |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *v = x;
            return true;
        }
    }
    return false;
}

static cuzk_status malformed(const walk_t *w)
{
    return cuzk_err_set(w->err, CUZK_ERR_FORMAT, "malformed %s message", w->type);
}

static cuzk_status check_text(const walk_t *w, const char *path, const ProtobufCFieldDescriptor *f,
                              const uint8_t *s, size_t n)
{
    size_t at;
    if (cuzk_utf8_is_text(s, n, &at))
        return CUZK_OK;
    if (s[at] == 0)
        return cuzk_err_set(w->err, CUZK_ERR_INVALID_ARG, "%s.%s: a NUL byte at offset %zu; text fields must not hold NUL",
                            path, f->name, at);
    return cuzk_err_set(w->err, CUZK_ERR_INVALID_ARG, "%s.%s: byte %zu (0x%02X) is not UTF-8; text fields must be UTF-8",
                        path, f->name, at, s[at]);
}

/* The most input bytes the kind may have, 0 for no limit. */
static uint64_t kind_limit(const walk_t *w, uint64_t kind)
{
    return w->limits && kind < CUZK_RPC_MAX_KINDS ? w->limits[kind] : 0;
}

static cuzk_status over_limit(const walk_t *w, const char *path, const ProtobufCFieldDescriptor *kf, uint64_t kind,
                              uint64_t input, uint64_t limit)
{
    const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value(kf->descriptor, (int)kind);
    char lim[48];
    if (limit % (1u << 20) == 0)
        snprintf(lim, sizeof lim, "%" PRIu64 " MiB", limit >> 20);
    else
        snprintf(lim, sizeof lim, "%" PRIu64 " bytes", limit);
    return cuzk_err_set(w->err, CUZK_ERR_INVALID_ARG,
                        "%s: %" PRIu64 " bytes of proof input for %s; this daemon takes at most %s for that kind",
                        path, input, ev ? ev->name : "that proof_kind", lim);
}

static cuzk_status walk(const walk_t *w, const ProtobufCMessageDescriptor *d, const uint8_t *p, size_t n,
                        const char *path, int depth)
{
    const ProtobufCFieldDescriptor *kind_field = protobuf_c_message_descriptor_get_field_by_name(d, "proof_kind");
    if (kind_field && kind_field->type != PROTOBUF_C_TYPE_ENUM)
        kind_field = NULL;
    uint64_t kind = 0, input = 0; /* proto3: an absent enum is 0 */
    size_t off = 0;
    while (off < n) {
        uint64_t tag, v;
        if (!read_varint(p, n, &off, &tag) || tag >> 3 == 0 || tag >> 3 > 0x1FFFFFFF)
            return malformed(w);
        const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(d, (unsigned)(tag >> 3));
        switch (tag & 7) {
        case 0: /* varint */
            if (!read_varint(p, n, &off, &v))
                return malformed(w);
            if (f && f == kind_field)
                kind = (uint32_t)v; /* protobuf-c reads an enum as its low 32 bits; the last one counts */
            break;
        case 1: /* 64-bit */
            if (n - off < 8)
                return malformed(w);
            off += 8;
            break;
        case 5: /* 32-bit */
            if (n - off < 4)
                return malformed(w);
            off += 4;
            break;
        case 2: { /* length-delimited */
            if (!read_varint(p, n, &off, &v) || v > n - off)
                return malformed(w);
            const uint8_t *q = p + off;
            off += (size_t)v;
            if (!f)
                break; /* an unknown field: kept aside by protobuf-c, read by nobody */
            cuzk_status st = CUZK_OK;
            if (f->type == PROTOBUF_C_TYPE_STRING) {
                st = check_text(w, path, f, q, (size_t)v);
            } else if (f->type == PROTOBUF_C_TYPE_BYTES) {
                input += v;
            } else if (f->type == PROTOBUF_C_TYPE_MESSAGE) {
                char sub[256];
                snprintf(sub, sizeof sub, "%s.%s", path, f->name);
                st = depth + 1 >= MAX_DEPTH ? malformed(w) : walk(w, f->descriptor, q, (size_t)v, sub, depth + 1);
            }
            if (st != CUZK_OK)
                return st;
            break;
        }
        default: /* groups (3, 4), which protobuf-c does not read, and 6, 7 */
            return malformed(w);
        }
    }
    uint64_t limit = kind_field ? kind_limit(w, kind) : 0;
    if (limit && input > limit)
        return over_limit(w, path, kind_field, kind, input, limit);
    return CUZK_OK;
}

cuzk_status cuzk_rpc_check_request(const ProtobufCMessageDescriptor *d, const uint8_t *req, size_t len,
                                   const uint64_t *max_input_by_kind, cuzk_err_t *err)
{
    walk_t w = {max_input_by_kind, d->short_name, err};
    return walk(&w, d, req, len, d->short_name, 0);
}

ProtobufCMessage *cuzk_rpc_unpack(cuzk_rpc_call_t *call, const ProtobufCMessageDescriptor *d, const uint8_t *req,
                                  size_t len)
{
    cuzk_err_t err = {{0}};
    const cuzk_rpc_server_options_t *o = cuzk_rpc_call_options(call);
    if (cuzk_rpc_check_request(d, req, len, o ? o->max_input_by_kind : NULL, &err) == CUZK_OK) {
        ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, len, req);
        if (m)
            return m;
        cuzk_err_set(&err, CUZK_ERR_FORMAT, "malformed %s message", d->short_name);
    }
    cuzk_rpc_reply(call, GRPC_STATUS_INVALID_ARGUMENT, err.msg, NULL, 0);
    return NULL;
}

/* ---- responses: text fields made UTF-8 ---- */

/* The strings swapped for escaped copies, to be put back. */
typedef struct {
    struct {
        char **slot;
        char *orig;
    } *v;
    size_t n, cap;
    bool no_memory;
} swaps_t;

static void escape_one(char **slot, swaps_t *sw)
{
    if (!*slot || cuzk_utf8_is_text((const uint8_t *)*slot, strlen(*slot), NULL))
        return;
    if (sw->n == sw->cap) {
        size_t cap = sw->cap ? 2 * sw->cap : 8;
        void *nv = realloc(sw->v, cap * sizeof *sw->v);
        if (!nv) {
            sw->no_memory = true;
            return;
        }
        sw->v = nv;
        sw->cap = cap;
    }
    char *copy = cuzk_utf8_escape(*slot);
    if (!copy) {
        sw->no_memory = true;
        return;
    }
    sw->v[sw->n].slot = slot;
    sw->v[sw->n++].orig = *slot;
    *slot = copy;
}

static void escape_strings(ProtobufCMessage *m, swaps_t *sw, int depth)
{
    const ProtobufCMessageDescriptor *d = m->descriptor;
    char *base = (char *)m;
    for (unsigned i = 0; i < d->n_fields && !sw->no_memory; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (f->type != PROTOBUF_C_TYPE_STRING && f->type != PROTOBUF_C_TYPE_MESSAGE)
            continue;
        if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) && *(const uint32_t *)(base + f->quantifier_offset) != f->id)
            continue; /* another member of the oneof is set */
        size_t count = 1;
        void *items = base + f->offset;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            count = *(const size_t *)(base + f->quantifier_offset);
            items = *(void **)(base + f->offset);
            if (!items)
                continue;
        }
        for (size_t k = 0; k < count; k++) {
            if (f->type == PROTOBUF_C_TYPE_STRING)
                escape_one(&((char **)items)[k], sw);
            else if (((ProtobufCMessage **)items)[k] && depth + 1 < MAX_DEPTH)
                escape_strings(((ProtobufCMessage **)items)[k], sw, depth + 1);
        }
    }
}

cuzk_status cuzk_rpc_pack(ProtobufCMessage *m, uint8_t **out, size_t *len, cuzk_err_t *err)
{
    *out = NULL;
    *len = 0;
    swaps_t sw = {0};
    escape_strings(m, &sw, 0);
    uint8_t *buf = NULL;
    size_t n = 0;
    if (!sw.no_memory) {
        n = protobuf_c_message_get_packed_size(m);
        if ((buf = malloc(n ? n : 1)))
            protobuf_c_message_pack(m, buf);
    }
    for (size_t i = sw.n; i-- > 0;) {
        free(*sw.v[i].slot);
        *sw.v[i].slot = sw.v[i].orig;
    }
    free(sw.v);
    if (!buf)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory for a %s", m->descriptor->short_name);
    *out = buf;
    *len = n;
    return CUZK_OK;
}

bool cuzk_rpc_reply_message(cuzk_rpc_call_t *call, ProtobufCMessage *m)
{
    uint8_t *buf;
    size_t len;
    cuzk_err_t err = {{0}};
    if (cuzk_rpc_pack(m, &buf, &len, &err) != CUZK_OK) {
        cuzk_rpc_reply(call, GRPC_STATUS_RESOURCE_EXHAUSTED, err.msg, NULL, 0);
        return false;
    }
    bool sent = cuzk_rpc_reply(call, GRPC_STATUS_OK, NULL, buf, len);
    free(buf);
    return sent;
}
