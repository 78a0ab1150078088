/* Small helpers of the Groth16 code: randomness, wiping, sizes, conversions, key freeing. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "groth16/groth16_internal.h"
#include "util/parallel.h"

cuzk_status g16_random_fr(fr *out, cuzk_err_t *err)
{
    uint8_t buf[FR_BYTES];
    for (;;) {
        size_t got = 0;
        while (got < sizeof buf) {
            ssize_t n = getrandom(buf + got, sizeof buf - got, 0);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                g16_wipe(buf, sizeof buf);
                return cuzk_err_set(err, CUZK_ERR_IO, "getrandom failed: %s", strerror(errno));
            }
            got += (size_t)n;
        }
        buf[FR_BYTES - 1] &= 0x7f;   /* r < 2^255: accept about 91% of 255-bit draws, no bias */
        if (fr_from_bytes_le(out, buf))
            break;
    }
    g16_wipe(buf, sizeof buf);
    return CUZK_OK;
}

void g16_wipe(void *p, size_t n)
{
    explicit_bzero(p, n);
}

unsigned g16_log2_ceil(size_t rows)
{
    unsigned log = 0;
    while (((size_t)1 << log) < rows)
        log++;
    return log;
}

size_t g16_popcount(const uint64_t *bits, size_t nbits)
{
    size_t count = 0, words = nbits / 64;
    for (size_t i = 0; i < words; i++)
        count += (size_t)__builtin_popcountll(bits[i]);
    if (nbits % 64)
        count += (size_t)__builtin_popcountll(bits[words] & ((1ull << (nbits % 64)) - 1));
    return count;
}

typedef struct {
    cuzk_scalar_t *out;
    const fr *in;
    const uint32_t *source;
} to_scalars_ctx;

static void to_scalars_chunk(void *p, size_t begin, size_t end)
{
    to_scalars_ctx *ctx = p;
    for (size_t i = begin; i < end; i++) {
        cuzk_scalar_t s;
        fr_to_scalar(&s, &ctx->in[ctx->source ? ctx->source[i] : i]);
        ctx->out[i] = s;
    }
}

void g16_to_scalars(cuzk_scalar_t *out, const fr *in, size_t n, int threads)
{
    g16_to_scalars_gather(out, in, NULL, n, threads);
}

void g16_to_scalars_gather(cuzk_scalar_t *out, const fr *in, const uint32_t *source, size_t n, int threads)
{
    to_scalars_ctx ctx = {out, in, source};
    cuzk_parallel_for(threads, n, 1 << 14, to_scalars_chunk, &ctx);
}

void cuzk_groth16_vk_free(cuzk_groth16_vk_t *vk)
{
    if (!vk)
        return;
    free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

void cuzk_groth16_pk_free(cuzk_groth16_pk_t *pk)
{
    if (!pk)
        return;
    cuzk_groth16_vk_free(&pk->vk);
    free(pk->h);
    free(pk->l);
    free(pk->a);
    free(pk->b_g1);
    free(pk->b_g2);
    memset(pk, 0, sizeof *pk);
}
