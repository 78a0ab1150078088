/* Parent cache generation: threaded fill of node ranges, streamed SHA-256 and file output. The cache is
 * produced in chunks so that a 32GiB graph (56 GiB of parents) needs only one chunk of memory. */
#define OPENSSL_API_COMPAT 0x10100000L
#include "filecoin/sdr/parent_cache.h"
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/file.h"
#include "cuzk/params.h"
#include "util/parallel.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "the parent cache is written from host-order u32 words");

#define CHUNK_NODES (1u << 16)
#define FILL_GRAIN 2048

typedef struct {
    const cuzk_fc_graph_t *g;
    uint64_t first;
    uint32_t *out;
} fill_job;

static void fill_range(void *ctx, size_t begin, size_t end)
{
    fill_job *j = ctx;
    /* in range: checked by the caller */
    cuzk_fc_graph_parents_range(j->g, j->first + begin, end - begin, j->out + CUZK_FC_PARENTS * begin);
}

cuzk_status cuzk_fc_parent_cache_fill(const cuzk_fc_graph_t *g, uint64_t first, uint64_t count,
                                      uint32_t *out, int threads, cuzk_err_t *err)
{
    if (!g || (!out && count))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "parent cache: NULL argument");
    if (first > g->nodes || count > g->nodes - first)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "parent cache: nodes [%llu, +%llu) outside a graph of %llu nodes",
                            (unsigned long long)first, (unsigned long long)count,
                            (unsigned long long)g->nodes);
    if (threads <= 0)
        threads = cuzk_cpu_count();
    fill_job job = {g, first, out};
    cuzk_parallel_for(threads, (size_t)count, FILL_GRAIN, fill_range, &job);
    return CUZK_OK;
}

/* Generates the cache chunk by chunk, hashing each chunk and handing it to `sink` (may be NULL). */
static cuzk_status generate(const cuzk_fc_graph_t *g, uint8_t digest[32], int threads,
                            cuzk_status (*sink)(void *, const void *, size_t, cuzk_err_t *), void *sink_ctx,
                            cuzk_err_t *err)
{
    uint64_t chunk = g->nodes < CHUNK_NODES ? g->nodes : CHUNK_NODES;
    uint32_t *buf = malloc((size_t)chunk * CUZK_FC_PARENT_CACHE_ENTRY_BYTES);
    if (!buf)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "parent cache: cannot allocate a %llu-node chunk",
                            (unsigned long long)chunk);
    SHA256_CTX sha;
    SHA256_Init(&sha);
    cuzk_status st = CUZK_OK;
    for (uint64_t first = 0; first < g->nodes && st == CUZK_OK; first += chunk) {
        uint64_t n = g->nodes - first < chunk ? g->nodes - first : chunk;
        st = cuzk_fc_parent_cache_fill(g, first, n, buf, threads, err);
        if (st != CUZK_OK)
            break;
        size_t bytes = (size_t)n * CUZK_FC_PARENT_CACHE_ENTRY_BYTES;
        SHA256_Update(&sha, buf, bytes);
        if (sink)
            st = sink(sink_ctx, buf, bytes, err);
    }
    uint8_t md[32];
    SHA256_Final(md, &sha);
    if (st == CUZK_OK && digest)
        memcpy(digest, md, 32);
    free(buf);
    return st;
}

cuzk_status cuzk_fc_parent_cache_digest(const cuzk_fc_graph_t *g, uint8_t digest[32], int threads,
                                        cuzk_err_t *err)
{
    if (!g || !digest)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "parent cache digest: NULL argument");
    return generate(g, digest, threads, NULL, NULL, err);
}

static cuzk_status write_chunk(void *ctx, const void *buf, size_t len, cuzk_err_t *err)
{
    return cuzk_atomic_write(ctx, buf, len, err);
}

cuzk_status cuzk_fc_parent_cache_write(const cuzk_fc_graph_t *g, const char *path, uint8_t digest[32],
                                       int threads, cuzk_err_t *err)
{
    if (!g || !path)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "parent cache write: NULL argument");
    cuzk_atomic_file_t *f = NULL;
    cuzk_status st = cuzk_atomic_open(&f, path, 0644, err);
    if (st != CUZK_OK)
        return st;
    st = generate(g, digest, threads, write_chunk, f, err);
    if (st != CUZK_OK) {
        cuzk_atomic_abort(f);
        return st;
    }
    return cuzk_atomic_commit(f, err);
}

cuzk_status cuzk_fc_parent_cache_name(char *out, size_t out_len, const cuzk_fc_graph_t *g)
{
    if (!out || !g)
        return CUZK_ERR_INVALID_ARG;
    char id[192];
    cuzk_status st = cuzk_fc_graph_identifier(id, sizeof id, g);
    if (st != CUZK_OK)
        return st;
    uint8_t keys[32], nodes_le[4];
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 8; i++)
            keys[8 * k + i] = (uint8_t)(g->feistel.keys[k] >> (8 * i));
    /* cache_entries is a u32 in the reference; a 2^32-node graph would wrap to 0 there too. */
    uint32_t entries = (uint32_t)g->nodes;
    for (int i = 0; i < 4; i++)
        nodes_le[i] = (uint8_t)(entries >> (8 * i));
    SHA256_CTX c;
    SHA256_Init(&c);
    SHA256_Update(&c, "poseidon_hasher", strlen("poseidon_hasher"));
    SHA256_Update(&c, id, strlen(id));
    SHA256_Update(&c, keys, 32);
    SHA256_Update(&c, nodes_le, 4);
    uint8_t h[32];
    SHA256_Final(h, &c);
    static const char hx[] = "0123456789abcdef";
    char hex[65];
    for (int i = 0; i < 32; i++)
        hex[2 * i] = hx[h[i] >> 4], hex[2 * i + 1] = hx[h[i] & 15];
    hex[64] = 0;
    int w = snprintf(out, out_len, "v%d-sdr-parent-%s", CUZK_PARAMS_VERSION, hex);
    if (w < 0 || (size_t)w >= out_len) {
        if (out_len)
            out[0] = 0;
        return CUZK_ERR_BAD_LENGTH;
    }
    return CUZK_OK;
}
