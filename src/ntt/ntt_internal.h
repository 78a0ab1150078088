/* Internal interfaces of the NTT: root and twiddle tables, the arithmetic kernels (one instance per
 * field implementation), and the drivers that block the transform for the cache and the threads.
 * Data in flight is in [0, 2r) (see ntt_arith.h); every public result is fully reduced. */
#ifndef CUZK_NTT_INTERNAL_H
#define CUZK_NTT_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/ntt.h"
#include "ff/fr.h"
#include "util/dispatch.h"

/* Blocks of up to 2^NTT_BLOCK_LOG elements (128 KiB; 288 KiB in the AVX2 kernels' limb form,
 * 160 KiB in the IFMA kernels') are transformed entirely in the L2 cache; larger transforms
 * first run "passes" of up to NTT_PASS_MAX radix-2 stages over the whole array, one column block
 * of 2^NTT_SCRATCH_LOG elements at a time, on a per-thread scratch copy. */
#define NTT_BLOCK_LOG 12
#define NTT_PASS_MAX 8
/* Elements of one column block of a pass: 2^m rows times the columns of the block. */
#define NTT_SCRATCH_LOG 12
/* Scratch bytes per thread, for any kernel set: a column block (or an in-cache block) and the
 * twiddles of one stage, in the widest element format (72 bytes in ntt_avx2.h's, 36 per packed
 * twiddle, and a stage's column roots, 32 per column; the IFMA kernels need 40 per element and
 * 40 per twiddle). */
#define NTT_SCRATCH_BYTES ((size_t)108 << NTT_SCRATCH_LOG)

/* Tables (ntt_tables.c). ntt_tables_init() must have succeeded before any other call here. */
typedef struct {
    fr omega[33];     /* omega[k] = ω_{2^k}, primitive 2^k-th root of unity */
    fr omega_inv[33]; /* omega_inv[k] = ω_{2^k}^−1 */
    fr inv_n[33];     /* inv_n[k] = 2^−k */
    fr g, g_inv;      /* coset generator 7 and its inverse */
    /* small[h + j] = ω_{2h}^j and small_inv[h + j] = ω_{2h}^−j for 1 <= h < 2^NTT_BLOCK_LOG,
     * j < h: the twiddles of every stage of an in-cache block, contiguous per stage. */
    const fr *small, *small_inv;
} ntt_consts;

const ntt_consts *ntt_tables_init(void);

/* The twiddles of the passes, without a table per size: any power of a root of unity of order up
 * to 2^NTT_ROOT_LOG is the product of one entry of each of two tables of powers of ω_{2^27},
 * lo[i] = ω_{2^27}^i (i < 2^NTT_ROOT_LO_LOG) and hi[j] = ω_{2^27}^(j·2^NTT_ROOT_LO_LOG): 768 KiB
 * in all, where one table T[i] = ω_{2^s}^i per size took 16 bytes per transformed element. A pass
 * computes the twiddles of its column block from them (ntt_col_roots and the small table). */
#define NTT_ROOT_LOG CUZK_NTT_MAX_LOG
#define NTT_ROOT_LO_LOG 14
typedef struct {
    const fr *lo, *hi;
} ntt_roots;

/* The two tables, built on first use and cached (counted by cuzk_ntt_table_bytes); NULL when
 * they cannot be allocated. Thread-safe. */
const ntt_roots *ntt_roots_get(void);
/* *out = ω_{2^s}^e (inv = 0) or ω_{2^s}^−e (inv = 1), fully reduced; s <= NTT_ROOT_LOG, any e. */
void ntt_root_pow(fr *out, const ntt_roots *rt, unsigned s, uint64_t e, int inv);
/* v[c] = ω_{2^s}^±(b + c) for c < n, fully reduced (one multiplication each). */
void ntt_col_roots(fr *v, const ntt_roots *rt, unsigned s, uint64_t b, size_t n, int inv);

/* How a kernel leaves the values it finalises. */
typedef enum {
    NTT_FIN_NONE = 0,  /* lazy, in [0, 2r) */
    NTT_FIN_REDUCE,    /* fully reduced */
    NTT_FIN_SCALE,     /* multiplied by `scale` (< r), fully reduced */
} ntt_fin_mode;

typedef struct {
    ntt_fin_mode mode;
    fr scale;
} ntt_fin;

/* The arithmetic kernels, instantiated per implementation (ntt_kern.h). */
typedef struct {
    const char *name; /* "portable", "adx", "avx2", "ifma" */
    /* In-cache transforms of a block of 2^k elements (1 <= k <= NTT_BLOCK_LOG), with the roots
     * ω (inv = 0) or ω^−1 (inv = 1). dif: natural -> bit-reversed; dit: bit-reversed -> natural.
     * Inputs in [0, 2r); outputs per fin. */
    void (*dif_block)(fr *a, unsigned k, int inv, const ntt_fin *fin, void *scratch);
    void (*dit_block)(fr *a, unsigned k, int inv, const ntt_fin *fin, void *scratch);
    /* One pass of m radix-2 stages over the column block [b, b + cols) of a segment of 2^s
     * elements seen as 2^m rows of 2^(s−m) elements: the top m stages of the DIF (or the last m of
     * the DIT) of size 2^s; 2^m·cols <= 2^NTT_SCRATCH_LOG. The twiddles come from rt (see
     * ntt_pass_stage in ntt_kern.h). The DIT pass finalises its output per fin (the DIF
     * pass leaves it lazy: the blocks finish it).
     * Every function gets NTT_SCRATCH_BYTES of 64-byte aligned scratch, its own. */
    void (*dif_pass)(fr *seg, unsigned s, unsigned m, size_t b, size_t cols, const ntt_roots *rt,
                     int inv, void *scratch);
    void (*dit_pass)(fr *seg, unsigned s, unsigned m, size_t b, size_t cols, const ntt_roots *rt,
                     int inv, void *scratch, const ntt_fin *fin);
    /* a[i] = (a[i]·hi·lo[i]) mod r for i < n: one chunk of a coset scaling (a[i] < 2r,
     * hi and lo[i] < r); the result is fully reduced. */
    void (*scale)(fr *a, size_t n, const fr *hi, const fr *lo);
} ntt_kernels;

extern const ntt_kernels ntt_kernels_portable;
#if defined(__x86_64__)
extern const ntt_kernels ntt_kernels_adx;  /* needs ADX and BMI2 */
extern const ntt_kernels ntt_kernels_avx2; /* needs AVX2, ADX and BMI2 */
#endif
/* AVX-512 IFMA (ntt_kern_ifma.c): needs ntt_kernels_ifma_compiled and ifma_available(). */
extern const ntt_kernels ntt_kernels_ifma;
extern const bool ntt_kernels_ifma_compiled;
/* The same kernels over the portable emulation of the IFMA instructions: a test oracle for the
 * algorithm on any CPU, never selected (and slow). */
extern const ntt_kernels ntt_kernels_ifma_emulated;
/* The kernels in use: the dispatch table's entry CUZK_ENTRY_NTT_KERNELS, whose variants
 * (ntt_kernels_variant) are the sets of the same names; the IFMA variant falls back to the fastest
 * other set where the IFMA kernels were not compiled. The choice follows the implementation
 * (cuzk/cuzk.h: portable with PORTABLE, AVX2 or ADX with ADX, IFMA with IFMA) unless the caller of
 * cuzk_init forced a set (CUZK_NTT_KERNELS for the tools). */
const ntt_kernels *ntt_kernels_current(void);
const void *ntt_kernels_variant(cuzk_variant v);
/* One backend's whole transform: the dispatch table's entry CUZK_ENTRY_NTT, which the public calls
 * run after their argument checks (shift NULL: the generator 7 for the coset kinds). The CPU one is
 * ntt_run_shift with ntt_kernels_current(); a GPU backend (later) is one more variant. */
typedef struct {
    const char *name; /* "cpu" */
    cuzk_status (*run)(cuzk_fr_t *data, unsigned log_n, cuzk_ntt_kind kind, cuzk_ntt_order order,
                       const cuzk_fr_t *shift, int threads);
} ntt_backend;
extern const ntt_backend ntt_backend_cpu;
/* The variants of CUZK_ENTRY_NTT: the CPU backend for every CPU implementation; NULL for CUDA. */
const void *ntt_backend_variant(cuzk_variant v);
/* Every kernel set this CPU can run, portable first, fastest last; returns how many (at most
 * NTT_KERNELS_MAX). */
#define NTT_KERNELS_MAX 4
int ntt_kernels_available(const ntt_kernels **out);
/* cuzk_ntt_ordered with the kernel set kn (ntt.c), so that tests reach every set. */
cuzk_status ntt_run(const ntt_kernels *kn, cuzk_fr_t *data, unsigned log_n, cuzk_ntt_kind kind,
                    cuzk_ntt_order order, int threads);
/* The same with the coset shift given (NULL: the generator 7), for cuzk_ntt_coset_shifted. */
cuzk_status ntt_run_shift(const ntt_kernels *kn, cuzk_fr_t *data, unsigned log_n, cuzk_ntt_kind kind,
                          cuzk_ntt_order order, const fr *shift, int threads);

/* A transform of 2^k elements, split into levels: level i runs passes of m[i] stages over
 * segments of 2^s[i] elements, with the twiddles from roots; the last level (s[levels] <=
 * NTT_BLOCK_LOG) is done by in-cache blocks. Everything it needs is acquired by ntt_plan_init,
 * so that running it cannot fail. */
#define NTT_MAX_LEVELS 4
typedef struct {
    unsigned k, levels;
    unsigned s[NTT_MAX_LEVELS + 1], m[NTT_MAX_LEVELS];
    size_t cols[NTT_MAX_LEVELS]; /* columns per block in the passes of each level */
    const ntt_roots *roots;      /* NULL when levels = 0 */
    int threads;
    unsigned char *scratch; /* threads × NTT_SCRATCH_BYTES */
} ntt_plan;

/* CUZK_ERR_NO_MEMORY when the root tables or the scratch cannot be allocated (nothing is held
 * then). */
cuzk_status ntt_plan_init(ntt_plan *p, unsigned k, int threads);
/* The same with other block and pass limits (block_log <= NTT_BLOCK_LOG), so that tests reach
 * several levels at small sizes; CUZK_ERR_INVALID_ARG when more than NTT_MAX_LEVELS result. */
cuzk_status ntt_plan_init_split(ntt_plan *p, unsigned k, int threads, unsigned block_log,
                                unsigned pass_max);
void ntt_plan_free(ntt_plan *p);

/* Drivers (ntt_exec.c): the whole transform, in place. dif: natural -> bit-reversed; dit:
 * bit-reversed -> natural. Inputs in [0, 2r); fin applies to every output. */
void ntt_dif(const ntt_kernels *kn, const ntt_plan *p, fr *a, int inv, const ntt_fin *fin);
void ntt_dit(const ntt_kernels *kn, const ntt_plan *p, fr *a, int inv, const ntt_fin *fin);

/* Bit-reversal permutation of 2^k elements (ntt_bitrev.c). */
void ntt_bitrev(fr *a, unsigned k, int threads);

/* Coset scaling (ntt_scale.c): a[p] = a[p]·c·g^idx(p) mod r for the 2^k elements, where
 * idx(p) = p, or the k-bit reversal of p when bitrev is set. Inputs in [0, 2r); outputs fully
 * reduced. The factor c·g^idx(p) is hi[p >> kl]·lo[p mod 2^kl], from two small tables. */
typedef struct {
    unsigned k, kl;
    fr *hi, *lo;
} ntt_scale_tabs;

cuzk_status ntt_scale_init(ntt_scale_tabs *st, unsigned k, const fr *g, const fr *c, int bitrev);
void ntt_scale_apply(const ntt_kernels *kn, const ntt_scale_tabs *st, fr *a, int threads);
void ntt_scale_free(ntt_scale_tabs *st);

/* k-bit reversal of x (k <= 32). */
static inline uint32_t ntt_rev(uint32_t x, unsigned k)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    x = (x >> 16) | (x << 16);
    return k ? x >> (32 - k) : 0;
}

#endif
