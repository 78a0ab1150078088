/* The builds of the 16-lane Feistel encode (feistel_lanes.h) and the scalar one: the dispatch table's
 * entry CUZK_ENTRY_FEISTEL_LANES, which cuzk_fc_feistel_permute_n follows, and every build by name for
 * the tests, which run each against the scalar permutation. */
#ifndef CUZK_FILECOIN_FEISTEL_KERNELS_H
#define CUZK_FILECOIN_FEISTEL_KERNELS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "filecoin/sdr/feistel.h"
#include "util/dispatch.h"

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

/* Whether the build is compiled in and this CPU runs it. */
bool cuzk_fc_feistel_build_supported(cuzk_fc_feistel_build_t b);

/* cuzk_fc_feistel_permute_n with a given build (an unsupported one falls back to the scalar build). */
void cuzk_fc_feistel_permute_n_with(cuzk_fc_feistel_build_t b, const cuzk_fc_feistel_t *f, const uint64_t *in,
                                    uint64_t *out, size_t n);

/* A lane build as the dispatch table holds it: the entry CUZK_ENTRY_FEISTEL_LANES is a
 * const cuzk_fc_feistel_lanes_t *, NULL = the scalar permutation. */
typedef struct {
    const char *name;
    void (*encode_lanes)(const cuzk_fc_feistel_t *f, uint64_t *v, size_t n); /* as the builds above */
} cuzk_fc_feistel_lanes_t;

extern const cuzk_fc_feistel_lanes_t cuzk_fc_feistel_lanes_avx512; /* runs only where supported */

/* The variants of CUZK_ENTRY_FEISTEL_LANES: the AVX-512 build for ADX and IFMA where
 * cuzk_fc_feistel_build_supported(CUZK_FC_FEISTEL_AVX512), else NULL: the scalar permutation, the fast
 * one without AVX-512 (the plain-vector build spills its 16-lane state). */
const void *cuzk_fc_feistel_lanes_variant(cuzk_variant v);
/* The lanes in use (the entry): what cuzk_fc_feistel_permute_n drives its blocks through. */
const cuzk_fc_feistel_lanes_t *cuzk_fc_feistel_lanes(void);

#endif
