/* SHA-256 digests, trimmed digests and tree D (comm_d). The low-level SHA256_* interface is used on
 * purpose: it needs no context allocation (so hashing cannot fail) and costs less per call than EVP,
 * which matters for tree D's 2^30 node hashes at 32GiB; it runs the same SHA-NI code. */
#define OPENSSL_API_COMPAT 0x10100000L
#include "filecoin/hash/sha256_tree.h"
#include <openssl/sha.h>
#include <string.h>
#include "filecoin/hash/fr32.h"
#include "util/parallel.h"

void cuzk_fc_sha256(uint8_t out[32], const cuzk_fc_span_t *parts, size_t n)
{
    SHA256_CTX c;
    SHA256_Init(&c);
    for (size_t i = 0; i < n; i++)
        if (parts[i].len)
            SHA256_Update(&c, parts[i].ptr, parts[i].len);
    SHA256_Final(out, &c);
}

void cuzk_fc_sha256_trimmed(uint8_t out[32], const cuzk_fc_span_t *parts, size_t n)
{
    cuzk_fc_sha256(out, parts, n);
    cuzk_fr32_trim(out);
}

void cuzk_fc_sha256_node(uint8_t out[32], const uint8_t left[32], const uint8_t right[32])
{
    SHA256_CTX c;
    SHA256_Init(&c);
    SHA256_Update(&c, left, 32);
    SHA256_Update(&c, right, 32);
    SHA256_Final(out, &c);
    cuzk_fr32_trim(out);
}

static int log2_exact(uint64_t v)
{
    if (v == 0 || (v & (v - 1)))
        return -1;
    return __builtin_ctzll(v);
}

cuzk_status cuzk_fc_zero_comm_d(uint8_t out[32], uint64_t sector_size, cuzk_err_t *err)
{
    int lg = log2_exact(sector_size);
    if (lg < 5 || lg > 62)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "zero comm_d: sector size %llu is not a power of two >= 32",
                            (unsigned long long)sector_size);
    uint8_t node[32] = {0};
    for (int level = 5; level < lg; level++)
        cuzk_fc_sha256_node(node, node, node);
    memcpy(out, node, 32);
    return CUZK_OK;
}

/* Root of a subtree over `leaves` (a power of two) 32-byte leaves, in one pass with a stack of pending
 * left siblings: O(log n) memory and no allocation, so any number of threads can run one each. */
static void subtree_root(uint8_t out[32], const uint8_t *data, uint64_t leaves)
{
    uint8_t stack[64][32];
    int height[64];
    int top = 0;
    for (uint64_t i = 0; i < leaves; i++) {
        memcpy(stack[top], data + 32 * i, 32);
        height[top++] = 0;
        while (top >= 2 && height[top - 1] == height[top - 2]) {
            cuzk_fc_sha256_node(stack[top - 2], stack[top - 2], stack[top - 1]);
            height[top - 2]++;
            top--;
        }
    }
    memcpy(out, stack[0], 32);
}

#define MAX_CHUNKS 256

typedef struct {
    const uint8_t *data;
    uint64_t chunk_leaves;
    uint8_t (*roots)[32];
} comm_d_job;

static void comm_d_chunk(void *ctx, size_t begin, size_t end)
{
    comm_d_job *j = ctx;
    for (size_t c = begin; c < end; c++)
        subtree_root(j->roots[c], j->data + 32 * j->chunk_leaves * c, j->chunk_leaves);
}

cuzk_status cuzk_fc_comm_d(uint8_t out[32], const uint8_t *data, uint64_t len, int threads,
                           cuzk_err_t *err)
{
    int lg = log2_exact(len);
    if (lg < 5 || !data)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "comm_d: data length %llu is not 32 times a power of two",
                            (unsigned long long)len);
    if (threads <= 0)
        threads = cuzk_cpu_count();
    uint64_t leaves = len / 32;
    /* Enough chunks to balance the threads, each big enough that per-chunk overhead is noise. */
    uint64_t chunks = 1;
    while (chunks < MAX_CHUNKS && chunks < (uint64_t)threads * 4 && leaves / chunks >= 2048)
        chunks *= 2;
    uint8_t roots[MAX_CHUNKS][32];
    comm_d_job job = {data, leaves / chunks, roots};
    cuzk_parallel_for(threads, (size_t)chunks, 1, comm_d_chunk, &job);
    subtree_root(out, &roots[0][0], chunks);
    return CUZK_OK;
}
