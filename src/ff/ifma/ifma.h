/* AVX-512 IFMA batched arithmetic: 8-lane Fp and Fr in radix 2^52 and element-wise products built
 * on them. The kernels of the upper layers reuse the lane operations (fp8_ops.h, fr8_ops.h): the
 * point kernels (ec/ifma/), the NTT butterflies and the Poseidon lanes.
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
 * Scalar inputs (fp, fr) must be canonical (limbs < modulus), as fp.h/fr.h keep them. */
#ifndef CUZK_FF_IFMA_IFMA_H
#define CUZK_FF_IFMA_IFMA_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ff/fp.h"
#include "ff/fr.h"

typedef struct { _Alignas(64) uint64_t l[8][8]; } ifma_fp8;
typedef struct { _Alignas(64) uint64_t l[5][8]; } ifma_fr8;

/* One build of the kernels. Both builds compute bit-identical results. */
typedef struct {
    const char *name; /* "avx512-ifma" or "emulated" */
    void (*fp8_mul)(ifma_fp8 *r, const ifma_fp8 *a, const ifma_fp8 *b);
    void (*fp8_sqr)(ifma_fp8 *r, const ifma_fp8 *a);
    /* r = a·b and s = c·d (r = a², s = c²) in one interleaved pass, each bit for bit as fp8_mul (fp8_sqr);
     * r and s distinct, either may alias any input. */
    void (*fp8_mul2)(ifma_fp8 *r, const ifma_fp8 *a, const ifma_fp8 *b, ifma_fp8 *s, const ifma_fp8 *c,
                     const ifma_fp8 *d);
    void (*fp8_sqr2)(ifma_fp8 *r, const ifma_fp8 *a, ifma_fp8 *s, const ifma_fp8 *c);
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
    /* The element-wise products below, in this build. */
    void (*fp_mul_n)(fp *r, const fp *a, const fp *b, size_t n);
    void (*fr_mul_n)(fr *r, const fr *a, const fr *b, size_t n);
} ifma_ops;

/* True when the real kernels are compiled in and this CPU runs them (AVX-512F + IFMA, see
 * cuzk_impl_supported(CUZK_IMPL_IFMA) in cuzk/cuzk.h). The functions below and ifma_ops_real()
 * need it. */
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

#endif
