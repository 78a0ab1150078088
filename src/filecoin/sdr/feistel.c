/* Feistel permutation with BLAKE2b-512 round functions (the short single-block BLAKE2b: the expander
 * calls it ~6 times per parent), one index at a time, and in batches through the 16-lane builds. */
#include "filecoin/sdr/feistel.h"
#include "filecoin/hash/blake2b.h"
#include "filecoin/sdr/feistel_kernels.h"
#include "util/cpu.h"

void cuzk_fc_feistel_init(cuzk_fc_feistel_t *f, uint64_t num_elements, const uint64_t keys[4])
{
    /* Smallest power of four >= num_elements (at least 4): both halves get the same bit width. */
    uint64_t next_pow4 = 4;
    unsigned log4 = 1;
    while (next_pow4 < num_elements) {
        next_pow4 *= 4;
        log4++;
    }
    f->num_elements = num_elements;
    for (int i = 0; i < 4; i++)
        f->keys[i] = keys[i];
    f->right_mask = (1ull << log4) - 1;
    f->left_mask = f->right_mask << log4;
    f->half_bits = log4;
}

static uint64_t round_fn(uint64_t right, uint64_t key, uint64_t mask)
{
    uint8_t data[16], h[64];
    for (int i = 0; i < 8; i++) {
        data[i] = (uint8_t)(right >> (56 - 8 * i));
        data[8 + i] = (uint8_t)(key >> (56 - 8 * i));
    }
    cuzk_fc_blake2b512_short(h, data, 16);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | h[i];
    return v & mask;
}

static uint64_t encode(const cuzk_fc_feistel_t *f, uint64_t index)
{
    uint64_t left = (index & f->left_mask) >> f->half_bits, right = index & f->right_mask;
    for (int r = 0; r < CUZK_FC_FEISTEL_ROUNDS; r++) {
        uint64_t t = left ^ round_fn(right, f->keys[r], f->right_mask);
        left = right;
        right = t;
    }
    return (left << f->half_bits) | right;
}

static uint64_t decode(const cuzk_fc_feistel_t *f, uint64_t index)
{
    uint64_t left = (index & f->left_mask) >> f->half_bits, right = index & f->right_mask;
    for (int r = CUZK_FC_FEISTEL_ROUNDS - 1; r >= 0; r--) {
        uint64_t t = right ^ round_fn(left, f->keys[r], f->right_mask);
        right = left;
        left = t;
    }
    return (left << f->half_bits) | right;
}

/* Cycle walking: the network permutes [0, 4^k); re-applying it until the value lands below n gives a
 * permutation of [0, n). */
uint64_t cuzk_fc_feistel_permute(const cuzk_fc_feistel_t *f, uint64_t index)
{
    if (index >= f->num_elements)
        return index;
    uint64_t u = encode(f, index);
    while (u >= f->num_elements)
        u = encode(f, u);
    return u;
}

uint64_t cuzk_fc_feistel_invert(const cuzk_fc_feistel_t *f, uint64_t index)
{
    if (index >= f->num_elements)
        return index;
    uint64_t u = decode(f, index);
    while (u >= f->num_elements)
        u = decode(f, u);
    return u;
}

/* ---- batches ---- */

extern const bool cuzk_fc_feistel_avx512_compiled;

bool cuzk_fc_feistel_build_supported(cuzk_fc_feistel_build_t b)
{
    switch (b) {
    case CUZK_FC_FEISTEL_SCALAR:
    case CUZK_FC_FEISTEL_GENERIC: return true;
    case CUZK_FC_FEISTEL_AVX512: return cuzk_fc_feistel_avx512_compiled && cuzk_cpu()->avx512f;
    }
    return false;
}

const cuzk_fc_feistel_lanes_t cuzk_fc_feistel_lanes_avx512 = {"avx512", cuzk_fc_feistel_encode_lanes_avx512};

const void *cuzk_fc_feistel_lanes_variant(cuzk_variant v)
{
    if ((v == CUZK_VARIANT_ADX || v == CUZK_VARIANT_IFMA) && cuzk_fc_feistel_build_supported(CUZK_FC_FEISTEL_AVX512))
        return &cuzk_fc_feistel_lanes_avx512;
    return NULL;
}

const cuzk_fc_feistel_lanes_t *cuzk_fc_feistel_lanes(void)
{
    return cuzk_dispatch_get(CUZK_ENTRY_FEISTEL_LANES, cuzk_fc_feistel_lanes_variant);
}

/* Indexes go through the lanes in blocks: every pending value is encoded once per pass, those that
 * landed in [0, n) leave, the rest (about half, for the graphs' 4^k / n <= 4) walk again. */
#define PERM_BLOCK 512

static void permute_block(void (*enc)(const cuzk_fc_feistel_t *, uint64_t *, size_t), const cuzk_fc_feistel_t *f,
                          const uint64_t *in, uint64_t *out, size_t n)
{
    uint64_t val[PERM_BLOCK + CUZK_FC_FEISTEL_LANES];
    uint16_t idx[PERM_BLOCK];
    size_t np = 0;
    for (size_t i = 0; i < n; i++) {
        if (in[i] >= f->num_elements) {
            out[i] = in[i];
            continue;
        }
        idx[np] = (uint16_t)i;
        val[np++] = in[i];
    }
    while (np) {
        size_t padded = (np + CUZK_FC_FEISTEL_LANES - 1) / CUZK_FC_FEISTEL_LANES * CUZK_FC_FEISTEL_LANES;
        for (size_t k = np; k < padded; k++)
            val[k] = val[0]; /* any valid input: the padding lanes' results are dropped */
        enc(f, val, padded);
        size_t keep = 0;
        for (size_t k = 0; k < np; k++) {
            if (val[k] < f->num_elements) {
                out[idx[k]] = val[k];
            } else {
                idx[keep] = idx[k];
                val[keep++] = val[k];
            }
        }
        np = keep;
    }
}

static void permute_lanes(void (*enc)(const cuzk_fc_feistel_t *, uint64_t *, size_t), const cuzk_fc_feistel_t *f,
                          const uint64_t *in, uint64_t *out, size_t n)
{
    for (size_t i = 0; i < n; i += PERM_BLOCK)
        permute_block(enc, f, in + i, out + i, n - i < PERM_BLOCK ? n - i : PERM_BLOCK);
}

static void permute_scalar(const cuzk_fc_feistel_t *f, const uint64_t *in, uint64_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = cuzk_fc_feistel_permute(f, in[i]);
}

void cuzk_fc_feistel_permute_n_with(cuzk_fc_feistel_build_t b, const cuzk_fc_feistel_t *f, const uint64_t *in,
                                    uint64_t *out, size_t n)
{
    if (!cuzk_fc_feistel_build_supported(b))
        b = CUZK_FC_FEISTEL_SCALAR;
    if (b == CUZK_FC_FEISTEL_SCALAR)
        permute_scalar(f, in, out, n);
    else
        permute_lanes(b == CUZK_FC_FEISTEL_AVX512 ? cuzk_fc_feistel_encode_lanes_avx512
                                                  : cuzk_fc_feistel_encode_lanes_generic,
                      f, in, out, n);
}

void cuzk_fc_feistel_permute_n(const cuzk_fc_feistel_t *f, const uint64_t *in, uint64_t *out, size_t n)
{
    const cuzk_fc_feistel_lanes_t *l = cuzk_fc_feistel_lanes();
    if (l)
        permute_lanes(l->encode_lanes, f, in, out, n);
    else
        permute_scalar(f, in, out, n);
}
