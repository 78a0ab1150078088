/* The builds of the 16-lane Feistel encode (feistel_lanes.h) and the scalar one, for feistel.c's choice
 * and for the tests, which run every build against the scalar permutation. */
#ifndef CUZK_FILECOIN_FEISTEL_KERNELS_H
#define CUZK_FILECOIN_FEISTEL_KERNELS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "filecoin/sdr/feistel.h"

typedef enum {
    CUZK_FC_FEISTEL_SCALAR = 0,  /* one index at a time (feistel.c, the oracle) */
    CUZK_FC_FEISTEL_GENERIC = 1, /* the lanes in plain C vectors: any CPU, for the tests */
    CUZK_FC_FEISTEL_AVX512 = 2,  /* the lanes in AVX-512F registers */
} cuzk_fc_feistel_build_t;

#define CUZK_FC_FEISTEL_LANES 16

/* v[i] = encode(v[i]) for i < n, n a multiple of CUZK_FC_FEISTEL_LANES, every v[i] < 4^half_bits. The
 * AVX-512 build runs only where cuzk_fc_feistel_build_supported says so. */
void cuzk_fc_feistel_encode_lanes_generic(const cuzk_fc_feistel_t *f, uint64_t *v, size_t n);
void cuzk_fc_feistel_encode_lanes_avx512(const cuzk_fc_feistel_t *f, uint64_t *v, size_t n);

/* Whether the build is compiled in and this CPU runs it; the fastest such build. */
bool cuzk_fc_feistel_build_supported(cuzk_fc_feistel_build_t b);
cuzk_fc_feistel_build_t cuzk_fc_feistel_build_best(void);

/* cuzk_fc_feistel_permute_n with a given build (an unsupported one falls back to the scalar build). */
void cuzk_fc_feistel_permute_n_with(cuzk_fc_feistel_build_t b, const cuzk_fc_feistel_t *f, const uint64_t *in,
                                    uint64_t *out, size_t n);

#endif
