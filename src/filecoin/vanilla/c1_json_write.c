/* Writes the C1 output as serde_json does (compact, declaration order, 32-byte values as arrays of 32
 * integers, externally tagged enums, Column's PhantomData as "_h":null), Curio's base64 wrapper around it,
 * and files through a temporary name. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "cuzk/file.h"
#include "filecoin/vanilla/c1_json.h"

typedef struct {
    char *p;
    size_t len, cap;
    int oom;
} wbuf;

static void reserve(wbuf *b, size_t n)
{
    if (b->oom || b->cap - b->len > n)
        return;
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (cap - b->len <= n)
        cap *= 2;
    char *q = realloc(b->p, cap);
    if (!q) {
        b->oom = 1;
        return;
    }
    b->p = q;
    b->cap = cap;
}

static void put(wbuf *b, const char *s, size_t n)
{
    reserve(b, n);
    if (b->oom)
        return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

#define PUTS(b, lit) put((b), (lit), sizeof(lit) - 1)

static void put_u64(wbuf *b, uint64_t v)
{
    char t[24];
    int n = snprintf(t, sizeof t, "%" PRIu64, v);
    put(b, t, (size_t)n);
}

/* [b0,b1,…,b31]: the hot path of the writer (a 32GiB C1 has ~320k of them). */
static void put_domain(wbuf *b, const uint8_t d[32])
{
    reserve(b, 32 * 4 + 2);
    if (b->oom)
        return;
    char *o = b->p + b->len;
    *o++ = '[';
    for (int i = 0; i < 32; i++) {
        unsigned v = d[i];
        if (v >= 100) {
            *o++ = (char)('0' + v / 100);
            *o++ = (char)('0' + v / 10 % 10);
        } else if (v >= 10)
            *o++ = (char)('0' + v / 10);
        *o++ = (char)('0' + v % 10);
        *o++ = i == 31 ? ']' : ',';
    }
    b->len = (size_t)(o - b->p);
}

static void put_domains(wbuf *b, const uint8_t (*d)[32], size_t n)
{
    PUTS(b, "[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            PUTS(b, ",");
        put_domain(b, d[i]);
    }
    PUTS(b, "]");
}

/* InclusionPath {"path":[{"hashes":[…],"index":i},…]} over levels [from, to). */
static void put_inclusion(wbuf *b, const cuzk_fc_merkle_path_t *p, uint32_t from, uint32_t to)
{
    const uint8_t *sib = p->siblings;
    for (uint32_t i = 0; i < from; i++)
        sib += (size_t)(p->steps[i].arity - 1) * 32;
    PUTS(b, "{\"path\":[");
    for (uint32_t i = from; i < to; i++) {
        if (i > from)
            PUTS(b, ",");
        PUTS(b, "{\"hashes\":");
        put_domains(b, (const uint8_t(*)[32])sib, p->steps[i].arity - 1u);
        sib += (size_t)(p->steps[i].arity - 1) * 32;
        PUTS(b, ",\"index\":");
        put_u64(b, p->steps[i].index);
        PUTS(b, "}");
    }
    PUTS(b, "]}");
}

/* MerkleProof {"data":{"Single"|"Sub"|"Top":{…}}} by the path's layers. */
static void put_merkle(wbuf *b, const cuzk_fc_merkle_path_t *p)
{
    uint32_t nb = p->n_base, ns = p->n_sub, nt = p->n_top;
    if (ns == 0 && nt == 0) {
        PUTS(b, "{\"data\":{\"Single\":{\"root\":");
        put_domain(b, p->root);
        PUTS(b, ",\"leaf\":");
        put_domain(b, p->leaf);
        PUTS(b, ",\"path\":");
        put_inclusion(b, p, 0, nb);
        PUTS(b, "}}}");
        return;
    }
    if (nt == 0)
        PUTS(b, "{\"data\":{\"Sub\":{\"base_proof\":");
    else
        PUTS(b, "{\"data\":{\"Top\":{\"base_proof\":");
    put_inclusion(b, p, 0, nb);
    PUTS(b, ",\"sub_proof\":");
    put_inclusion(b, p, nb, nb + ns);
    if (nt) {
        PUTS(b, ",\"top_proof\":");
        put_inclusion(b, p, nb + ns, nb + ns + nt);
    }
    PUTS(b, ",\"root\":");
    put_domain(b, p->root);
    PUTS(b, ",\"leaf\":");
    put_domain(b, p->leaf);
    PUTS(b, "}}}");
}

static void put_column(wbuf *b, const cuzk_fc_c1_column_t *c, uint32_t layers)
{
    PUTS(b, "{\"column\":{\"index\":");
    put_u64(b, c->index);
    PUTS(b, ",\"rows\":");
    put_domains(b, (const uint8_t(*)[32])c->rows, layers);
    PUTS(b, ",\"_h\":null},\"inclusion_proof\":");
    put_merkle(b, &c->path);
    PUTS(b, "}");
}

static void put_label(wbuf *b, const cuzk_fc_c1_label_t *l)
{
    PUTS(b, "{\"parents\":");
    put_domains(b, (const uint8_t(*)[32])l->parents, l->n_parents);
    PUTS(b, ",\"layer_index\":");
    put_u64(b, l->layer_index);
    PUTS(b, ",\"node\":");
    put_u64(b, l->node);
    PUTS(b, "}");
}

static void put_vproof(wbuf *b, const cuzk_fc_c1_vproof_t *v)
{
    PUTS(b, "{\"comm_d_proofs\":");
    put_merkle(b, &v->comm_d);
    PUTS(b, ",\"comm_r_last_proof\":");
    put_merkle(b, &v->comm_r_last);
    PUTS(b, ",\"replica_column_proofs\":{\"c_x\":");
    put_column(b, &v->c_x, v->n_layers);
    PUTS(b, ",\"drg_parents\":[");
    for (int i = 0; i < CUZK_FC_DRG_DEGREE; i++) {
        if (i)
            PUTS(b, ",");
        put_column(b, &v->drg[i], v->n_layers);
    }
    PUTS(b, "],\"exp_parents\":[");
    for (int i = 0; i < CUZK_FC_EXP_DEGREE; i++) {
        if (i)
            PUTS(b, ",");
        put_column(b, &v->exp[i], v->n_layers);
    }
    PUTS(b, "]},\"labeling_proofs\":[");
    for (uint32_t l = 0; l < v->n_layers; l++) {
        if (l)
            PUTS(b, ",");
        put_label(b, &v->labeling[l]);
    }
    PUTS(b, "],\"encoding_proof\":");
    put_label(b, &v->encoding);
    PUTS(b, "}");
}

cuzk_status cuzk_fc_c1_json_write(char **out, size_t *out_len, const cuzk_fc_c1_t *c1, cuzk_err_t *err)
{
    *out = NULL;
    *out_len = 0;
    const char *shape = c1->proof ? cuzk_fc_c1_shape_name(c1->proof) : NULL;
    if (!shape)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "c1 json: no registered proof / unknown sector shape");
    wbuf b = {0};
    PUTS(&b, "{\"registered_proof\":\"");
    put(&b, c1->proof->name, strlen(c1->proof->name));
    PUTS(&b, "\",\"vanilla_proofs\":{\"");
    put(&b, shape, strlen(shape));
    PUTS(&b, "\":[");
    for (uint32_t k = 0; k < c1->n_partitions; k++) {
        if (k)
            PUTS(&b, ",");
        PUTS(&b, "[");
        for (uint32_t i = 0; i < c1->challenges_per_partition; i++) {
            if (i)
                PUTS(&b, ",");
            put_vproof(&b, cuzk_fc_c1_vproof(c1, k, i));
        }
        PUTS(&b, "]");
    }
    PUTS(&b, "]},\"comm_r\":");
    put_domain(&b, c1->comm_r);
    PUTS(&b, ",\"comm_d\":");
    put_domain(&b, c1->comm_d);
    PUTS(&b, ",\"replica_id\":");
    put_domain(&b, c1->replica_id);
    PUTS(&b, ",\"seed\":");
    put_domain(&b, c1->seed);
    PUTS(&b, ",\"ticket\":");
    put_domain(&b, c1->ticket);
    PUTS(&b, "}");
    reserve(&b, 1);
    if (b.oom) {
        free(b.p);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1 json: out of memory");
    }
    b.p[b.len] = 0;
    *out = b.p;
    *out_len = b.len;
    return CUZK_OK;
}

cuzk_status cuzk_fc_c1_wrapper_write(char **out, size_t *out_len, const char *c1_json, size_t c1_len,
                                     uint64_t sector_num, uint64_t sector_size, cuzk_err_t *err)
{
    *out = NULL;
    *out_len = 0;
    if (c1_len > (size_t)1 << 40)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "c1 wrapper: input too large");
    size_t b64 = 4 * ((c1_len + 2) / 3);
    char *buf = malloc(b64 + 128);
    if (!buf)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1 wrapper: out of memory");
    int n = snprintf(buf, 64, "{\"SectorNum\":%" PRIu64 ",\"Phase1Out\":\"", sector_num);
    size_t len = (size_t)n;
    /* EVP_EncodeBlock takes an int length: go in pieces of 3·2^28 bytes. */
    const size_t piece = (size_t)3 << 28;
    for (size_t off = 0; off < c1_len; off += piece) {
        size_t m = c1_len - off < piece ? c1_len - off : piece;
        len += (size_t)EVP_EncodeBlock((unsigned char *)buf + len, (const unsigned char *)c1_json + off, (int)m);
    }
    len += (size_t)snprintf(buf + len, 64, "\",\"SectorSize\":%" PRIu64 "}", sector_size);
    *out = buf;
    *out_len = len;
    return CUZK_OK;
}

cuzk_status cuzk_fc_c1_save(const char *path, const char *buf, size_t len, cuzk_err_t *err)
{
    return cuzk_atomic_write_file(path, buf, len, err);
}
