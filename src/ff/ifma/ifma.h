/* AVX-512 IFMA batched arithmetic: 8-lane Fp and Fr in radix 2^52 and the batch kernels built on
 * them (G1 batch-affine addition for the MSM buckets, element-wise products for the NTT).
 * Every kernel exists twice from one source: the real AVX-512 build and a portable emulation of
 * the same instructions, which exists only so the algorithm is tested on every machine.
 *
 * Representation of ifma_fp8 (8 Fp elements, the "lanes"):
 *   - limb-major: l[j][i] is limb j (weight 2^(52j)) of lane i; 8 limbs hold 416 bits.
 *   - Montgomery factor R' = 2^416: a lane whose integer value is V stands for V·2^-416 mod p.
 *     (The scalar fp of fp.h uses R = 2^384; from_fp/to_fp change the factor.)
 *   - normalized: every limb in [0, 2^52). Every function requires normalized inputs and returns
 *     normalized outputs; IFMA reads only the low 52 bits of each limb, so this is a hard rule.
 *   - values are lazily reduced; the ranges each operation needs and gives:
 *       mul(a, b), sqr(a)  need a·b < p·2^416 (e.g. a, b < 2^17·p, or a < 2^32·p and b < p);
 *                          give [0, 2p) (no final subtraction).
 *       add, sub           need a, b < 2p; give [0, 2p).
 *       add_lazy           gives a + b exactly; needs a + b < 2^416.
 *       sub_lazy           gives a + 4p - b exactly; needs b <= 4p and a + 4p < 2^416.
 *       reduce             needs a < 2p; gives the canonical [0, p).
 *       to_fp              takes any normalized value; from_fp gives [0, 2p).
 * ifma_fr8 is the same for Fr with 5 limbs (260 bits), R' = 2^260 (fr.h uses 2^256), and r in
 * place of p: mul needs a·b < r·2^260 (e.g. a, b < 4r); add/sub need and give [0, 2r).
 *
 * None of these functions allocate; all are variable-time only in n (no secret-dependent branch).
 * Scalar inputs (fp, fr, points) must be canonical (limbs < modulus), as fp.h/fr.h keep them. */
#ifndef CUZK_FF_IFMA_IFMA_H
#define CUZK_FF_IFMA_IFMA_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/curve.h"
#include "ff/fp.h"
#include "ff/fr.h"

typedef struct { _Alignas(64) uint64_t l[8][8]; } ifma_fp8;
typedef struct { _Alignas(64) uint64_t l[5][8]; } ifma_fr8;

/* One build of the kernels. Both builds compute bit-identical results. */
typedef struct {
    const char *name; /* "avx512-ifma" or "emulated" */
    void (*fp8_mul)(ifma_fp8 *r, const ifma_fp8 *a, const ifma_fp8 *b);
    void (*fp8_sqr)(ifma_fp8 *r, const ifma_fp8 *a);
    void (*fp8_add)(ifma_fp8 *r, const ifma_fp8 *a, const ifma_fp8 *b);
    void (*fp8_sub)(ifma_fp8 *r, const ifma_fp8 *a, const ifma_fp8 *b);
    void (*fp8_add_lazy)(ifma_fp8 *r, const ifma_fp8 *a, const ifma_fp8 *b);
    void (*fp8_sub_lazy)(ifma_fp8 *r, const ifma_fp8 *a, const ifma_fp8 *b);
    void (*fp8_reduce)(ifma_fp8 *r, const ifma_fp8 *a);
    void (*fp8_from_fp)(ifma_fp8 *r, const fp a[8]);
    void (*fp8_to_fp)(fp r[8], const ifma_fp8 *a);
    void (*fr8_mul)(ifma_fr8 *r, const ifma_fr8 *a, const ifma_fr8 *b);
    void (*fr8_sqr)(ifma_fr8 *r, const ifma_fr8 *a);
    void (*fr8_add)(ifma_fr8 *r, const ifma_fr8 *a, const ifma_fr8 *b);
    void (*fr8_sub)(ifma_fr8 *r, const ifma_fr8 *a, const ifma_fr8 *b);
    void (*fr8_reduce)(ifma_fr8 *r, const ifma_fr8 *a);
    void (*fr8_from_fr)(ifma_fr8 *r, const fr a[8]);
    void (*fr8_to_fr)(fr r[8], const ifma_fr8 *a);
    /* The batch kernels below, in this build. */
    void (*fp_mul_n)(fp *r, const fp *a, const fp *b, size_t n);
    void (*fr_mul_n)(fr *r, const fr *a, const fr *b, size_t n);
    bool (*g1_batch_add)(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                         const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n,
                         void *scratch);
    size_t (*g1_batch_add_skip)(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                                const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n,
                                void *scratch, uint8_t *skipped);
    void (*g1_on_curve_n)(const cuzk_g1_affine_t *p, size_t n, uint8_t *ok);
    void (*g2_on_curve_n)(const cuzk_g2_affine_t *p, size_t n, uint8_t *ok);
    bool (*g2_batch_add)(cuzk_g2_affine_t *const *out, const cuzk_g2_affine_t *const *p,
                         const cuzk_g2_affine_t *const *q, const uint8_t *q_neg, size_t n,
                         void *scratch);
} ifma_ops;

/* True when the real kernels are compiled in and this CPU runs them (AVX-512F + IFMA, see
 * cuzk_impl_supported(CUZK_IMPL_IFMA)). The functions below and ifma_ops_real() need it. */
bool ifma_available(void);
/* The real build, or NULL when !ifma_available(). */
const ifma_ops *ifma_ops_real(void);
/* The emulated build: for tests only, never for speed. */
extern const ifma_ops ifma_ops_emulated;

/* r[i] = a[i]·b[i] (fp.h semantics: Montgomery R = 2^384, canonical in and out), 8 at a time.
 * r may alias a or b. Requires ifma_available(). */
void ifma_fp_mul_n(fp *r, const fp *a, const fp *b, size_t n);
/* The same for Fr (fr.h semantics: R = 2^256). */
void ifma_fr_mul_n(fr *r, const fr *a, const fr *b, size_t n);

/* Batch-affine G1 addition with one shared inversion (Montgomery's trick):
 *   *out[i] = *p[i] + (q_neg && q_neg[i] ? -*q[i] : *q[i])   for i < n.
 * Preconditions (the caller's, e.g. the MSM's bucket scheduler):
 *   - every p[i], q[i] is a finite affine point with canonical coordinates (not (0,0));
 *   - x(p[i]) != x(q[i]) (so neither doubling nor P + (-P) occurs).
 * Aliasing: out[i] may equal p[i] or q[i]; out[i] must not be an input of any other pair j != i,
 * and the out[i] must be distinct. scratch: ifma_g1_batch_add_scratch_bytes(n) bytes, any
 * alignment (64 is best), not overlapping the points; its contents are not needed afterwards.
 * q_neg may be NULL (no negation).
 * Returns false, writing no output, when some x(p[i]) == x(q[i]) after all (a broken precondition
 * the caller can then handle pair by pair); true otherwise.
 * Cost per pair: 6 Fp multiplications on 8 lanes plus conversions; per call one scalar
 * inversion and ~30 scalar multiplications, so batches of a few hundred pairs or more amortize it.
 * Requires ifma_available(). */
bool ifma_g1_batch_add(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                       const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n,
                       void *scratch);
size_t ifma_g1_batch_add_scratch_bytes(size_t n);

/* The same addition for callers that cannot rule out x(p[i]) == x(q[i]) cheaply (the MSM's buckets:
 * the check would read every bucket once more): such pairs are left out instead of refused.
 * skipped[i] (n bytes, all written) is 1 for each pair with x(p[i]) == x(q[i]), whose *out[i] is
 * then not written (it is P + P or P − P: the caller's to handle), 0 for the others, all added as
 * ifma_g1_batch_add does. Returns the number of pairs left out. Same preconditions otherwise, same
 * aliasing rules and scratch size. Requires ifma_available(). */
size_t ifma_g1_batch_add_skip(cuzk_g1_affine_t *const *out, const cuzk_g1_affine_t *const *p,
                              const cuzk_g1_affine_t *const *q, const uint8_t *q_neg, size_t n,
                              void *scratch, uint8_t *skipped);

/* The same for G2 (coordinates in Fp2), with the same preconditions, aliasing rules, refusal and
 * q_neg, and scratch of ifma_g2_batch_add_scratch_bytes(n) bytes. Each Fp2 inversion goes through
 * its norm in Fp, so one scalar Fp inversion serves the whole batch.
 * Cost per pair: 15 Fp multiplications on 8 lanes plus conversions. Requires ifma_available(). */
bool ifma_g2_batch_add(cuzk_g2_affine_t *const *out, const cuzk_g2_affine_t *const *p,
                       const cuzk_g2_affine_t *const *q, const uint8_t *q_neg, size_t n,
                       void *scratch);
size_t ifma_g2_batch_add_scratch_bytes(size_t n);

/* ok[i] = 1 when p[i] is on the curve (G1: y² = x³ + 4; G2: y² = x³ + 4(1 + u)) or is the point at
 * infinity (all coordinates zero), else 0. Coordinates must be canonical. Requires ifma_available(). */
void ifma_g1_on_curve_n(const cuzk_g1_affine_t *p, size_t n, uint8_t *ok);
void ifma_g2_on_curve_n(const cuzk_g2_affine_t *p, size_t n, uint8_t *ok);

#endif
