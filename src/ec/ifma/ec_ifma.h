/* AVX-512 IFMA point kernels: batch-affine G1 and G2 addition for the MSM buckets and batched
 * curve-membership checks, built on ff's 8-lane Fp arithmetic (ff/ifma/). As the field kernels,
 * every kernel exists twice from one source: the real AVX-512 build and the portable emulation of
 * the same instructions, which exists only so the algorithm is tested on every machine.
 *
 * Points are cuzk_g1_affine_t / cuzk_g2_affine_t with canonical coordinates in fp.h's Montgomery
 * form; the kernels convert to and from the lane form themselves. None of them allocate; all are
 * variable-time only in n (no secret-dependent branch). */
#ifndef CUZK_EC_IFMA_EC_IFMA_H
#define CUZK_EC_IFMA_EC_IFMA_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/curve.h"
#include "util/dispatch.h"

/* One build of the point kernels. Both builds compute bit-identical results.
 *
 * g1_batch_add: batch-affine G1 addition with one shared inversion (Montgomery's trick):
 *   *out[i] = *p[i] + (q_neg && q_neg[i] ? -*q[i] : *q[i])   for i < n.
 * Preconditions (the caller's, e.g. the MSM's bucket scheduler):
 *   - every p[i], q[i] is a finite affine point with canonical coordinates (not (0,0));
 *   - x(p[i]) != x(q[i]) (so neither doubling nor P + (-P) occurs).
 * Aliasing: out[i] may equal p[i] or q[i]; out[i] must not be an input of any other pair j != i,
 * and the out[i] must be distinct. scratch: ec_ifma_g1_batch_add_scratch_bytes(n) bytes, any
 * alignment (64 is best), not overlapping the points; its contents are not needed afterwards.
 * q_neg may be NULL (no negation).
 * Returns false, writing no output, when some x(p[i]) == x(q[i]) after all (a broken precondition
 * the caller can then handle pair by pair); true otherwise.
 * Cost per pair: 6 Fp multiplications on 8 lanes plus conversions; per call one scalar
 * inversion and ~30 scalar multiplications, so batches of a few hundred pairs or more amortize it.
 *
 * g1_batch_add_skip: the same addition for callers that cannot rule out x(p[i]) == x(q[i]) or a q[i]
 * at infinity cheaply (the MSM's buckets and bases: the checks would read every bucket and every base
 * once more): such pairs are left out instead of refused. skipped[i] (n bytes, all written) is 1 for
 * each pair with x(p[i]) == x(q[i]) or x(q[i]) == 0, whose *out[i] is then not written (P + P, P − P,
 * P + infinity: the caller's to handle), 0 for the others, all added as g1_batch_add does. Returns
 * the number of pairs left out. q[i] may be (0, 0); the other preconditions, the aliasing rules and
 * the scratch size are g1_batch_add's.
 *
 * g2_batch_add: the same as g1_batch_add for G2 (coordinates in Fp2), with the same preconditions,
 * aliasing rules, refusal and q_neg, and scratch of ec_ifma_g2_batch_add_scratch_bytes(n) bytes.
 * Each Fp2 inversion goes through its norm in Fp, so one scalar Fp inversion serves the whole
 * batch. Cost per pair: 15 Fp multiplications on 8 lanes plus conversions.
 *
 * g1_on_curve_n, g2_on_curve_n: ok[i] = 1 when p[i] is on the curve (G1: y² = x³ + 4;
 * G2: y² = x³ + 4(1 + u)) or is the point at infinity (all coordinates zero), else 0.
 *
 * fp_to_mont_n: c[i] becomes fp.h's Montgomery form of the raw value it holds (canonical in and out), in
 * place: the coordinates of points decoded from a file. */
typedef struct {
    const char *name; /* "avx512-ifma" or "emulated" */
    bool (*g1_batch_add)(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                         const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n,
                         void *scratch);
    size_t (*g1_batch_add_skip)(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                                const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n,
                                void *scratch, uint8_t *skipped);
    bool (*g2_batch_add)(cuzk_g2_affine_t *const *out, const cuzk_g2_affine_t *const *p,
                         const cuzk_g2_affine_t *const *q, const uint8_t *q_neg, size_t n,
                         void *scratch);
    void (*g1_on_curve_n)(const cuzk_g1_affine_t *p, size_t n, uint8_t *ok);
    void (*g2_on_curve_n)(const cuzk_g2_affine_t *p, size_t n, uint8_t *ok);
    void (*fp_to_mont_n)(cuzk_fp_t *c, size_t n);
} ec_ifma_ops;

/* The real build when it is compiled in and this CPU runs it (AVX-512F + IFMA), else NULL. Which build the library uses is the dispatch
 * table's entry CUZK_ENTRY_EC_LANES (ec_lanes() below), not this. */
const ec_ifma_ops *ec_ifma_ops_real(void);
/* The emulated build: for tests only, never for speed. */
extern const ec_ifma_ops ec_ifma_ops_emulated;

/* The variants of CUZK_ENTRY_EC_LANES: the real build for IFMA where it runs, else NULL (the scalar
 * point code). */
const void *ec_lanes_variant(cuzk_variant v);
/* The point kernels in use: what the MSM's buckets flush through and the batched curve checks use;
 * NULL = the scalar code. */
static inline const ec_ifma_ops *ec_lanes(void)
{
    return cuzk_dispatch_get(CUZK_ENTRY_EC_LANES, ec_lanes_variant);
}

/* Scratch sizes of the batch additions, the same for both builds. */
size_t ec_ifma_g1_batch_add_scratch_bytes(size_t n);
size_t ec_ifma_g2_batch_add_scratch_bytes(size_t n);

#endif
