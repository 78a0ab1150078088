/* Poseidon on sixteen hashes at once, two groups of eight AVX-512 IFMA lanes of ff/ifma (radix 2^52,
 * Montgomery factor 2^260): the constants in that form, and the kernels of the real and the emulated
 * build, which poseidon.c dispatches to behind cuzk_poseidon_hash_batch and _batch_bytes. */
#ifndef CUZK_FILECOIN_POSEIDON_IFMA_H
#define CUZK_FILECOIN_POSEIDON_IFMA_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ff/fr.h"
#include "filecoin/hash/poseidon_constants.h"
#include "util/dispatch.h"

/* One Fr constant as five 52-bit limbs of c·2^260 mod r (canonical): what a lane product with it needs. */
typedef struct {
    uint64_t l[5];
} cuzk_pl_const_t;

/* neptune's OptimizedStatic schedule of one arity in lane form (poseidon.c builds it from the
 * cuzk_poseidon_constants_t once per arity). */
typedef struct {
    unsigned width, half_full_rounds, partial_rounds;
    const cuzk_pl_const_t *k;          /* compressed round constants, R_F·t + R_P */
    const cuzk_pl_const_t *mds;        /* t×t, row-major */
    const cuzk_pl_const_t *pre_sparse; /* t×t */
    const cuzk_pl_const_t *w_hat;      /* R_P rows of t */
    const cuzk_pl_const_t *v_rest;     /* R_P rows of t − 1 */
} cuzk_pl_table_t;

/* n hashes (any n; the last group's missing lanes are padding). Bytes: in holds n·arity 32-byte
 * little-endian values below 2^256 (hashed mod r: canonical tree nodes in practice), out n·32 bytes,
 * canonical. Fr: fr.h's Montgomery form in and out. out may equal in, as cuzk_poseidon_hash_batch
 * allows. tag: the domain tag in lane form. */
typedef struct {
    const char *name;
    void (*hash_bytes)(const cuzk_pl_table_t *c, const cuzk_pl_const_t *tag, uint8_t *out, const uint8_t *in,
                       size_t n);
    void (*hash_fr)(const cuzk_pl_table_t *c, const cuzk_pl_const_t *tag, fr *out, const fr *in, size_t n);
} cuzk_pl_kernels_t;

extern const cuzk_pl_kernels_t cuzk_pl_kernels_ifma;     /* runs only where ifma_available() */
extern const cuzk_pl_kernels_t cuzk_pl_kernels_emulated; /* any CPU, slow: the tests' bridge */
extern const bool cuzk_pl_kernels_ifma_compiled;

/* The lane table of an arity's constants (built on first use, thread-safe, never freed), NULL when
 * memory runs out; and a value in lane form. */
const cuzk_pl_table_t *cuzk_pl_table(const cuzk_poseidon_constants_t *c);
void cuzk_pl_const_from_fr(cuzk_pl_const_t *out, const fr *a);

/* Which kernels cuzk_poseidon_hash_batch{,_bytes} use: the dispatch table's entry
 * CUZK_ENTRY_POSEIDON_LANES, whose IFMA variant is the real build (where it was compiled and the CPU
 * runs it) and the others NULL = the scalar loop. */
const cuzk_pl_kernels_t *cuzk_pl_kernels(void);
const void *cuzk_pl_kernels_variant(cuzk_variant v);

#endif
