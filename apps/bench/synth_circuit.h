/* A Filecoin-shaped circuit for the synthesis benchmark (cuzk-bench micro synth), written against
 * cuzk/cs.h only: SHA-256 labelling and binary Merkle levels built from bellpepper's gadgets, field
 * elements unpacked to bits and digests packed back, and Poseidon octree levels and column hashes. */
#ifndef CUZK_BENCH_SYNTH_CIRCUIT_H
#define CUZK_BENCH_SYNTH_CIRCUIT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"

/* The units a circuit is made of (each chains on the previous one's output, like a PoRep challenge):
 *   LABEL   2 parent labels unpacked to bits, SHA-256 of replica id ‖ 32 constant bytes ‖ parents
 *           (128 bytes: 2 blocks of variable words, then the constant padding block), digest packed;
 *   TREED   a binary SHA-256 Merkle level: swap by a path bit, both children unpacked, SHA-256 of
 *           64 bytes (one variable block, one constant padding block), digest packed;
 *   OCT     a Poseidon octree level: 3 path bits, 8-way selection, width-9 Poseidon;
 *   COLUMN  a width-12 Poseidon hash of 11 fresh elements (a column of labels);
 *   UNPACK  a fresh element unpacked to 255 bits. */
typedef enum { SYNTH_LABEL, SYNTH_TREED, SYNTH_OCT, SYNTH_COLUMN, SYNTH_UNPACK, SYNTH_KINDS } synth_kind;

typedef struct synth_tables synth_tables;

typedef struct {
    unsigned log2;
    size_t constraints;                /* 2^log2: what synth_circuit enforces, exactly */
    size_t prelude;                    /* constraints before the first unit (replica id to bits) */
    size_t unit_constraints[SYNTH_KINDS];
    size_t unit_count[SYNTH_KINDS];
    size_t booleans;                   /* trailing booleanity constraints that fill up to 2^log2 */
    size_t sha_constraints;            /* inside SHA-256 compressions (all units) */
    size_t poseidon_constraints;       /* inside Poseidon permutations (all units) */
    uint8_t *units;                    /* the schedule: n_units synth_kind values */
    size_t n_units;
    synth_tables *tables;              /* Poseidon constants, powers of two */
} synth_plan;

/* The first SHA-256 of a run on a backend with values: its message and the digest bits, so that a
 * checker can compare the witness with another SHA-256 implementation. */
typedef struct {
    bool have;
    uint8_t msg[128];
    size_t msg_len;
    cuzk_var_t digest_var[256]; /* digest bit k (byte k/8, most significant bit first) */
    bool digest_neg[256];       /* the bit is 1 − the variable's value */
} synth_probe;

/* Measures each unit on a count system and lays out a schedule of exactly 2^log2 constraints:
 * whole rounds of LABEL, TREED ×2, OCT ×8, COLUMN while they fit (about 96% of the constraints in
 * SHA-256, 2% in Poseidon), then TREED levels and UNPACK units while they fit, then booleans.
 * log2 in 10..26. */
cuzk_status synth_plan_make(synth_plan *p, unsigned log2, cuzk_err_t *err);
void synth_plan_free(synth_plan *p);
const char *synth_kind_name(synth_kind k);

/* Synthesizes the planned circuit into cs (any backend). The structure depends only on the plan,
 * the values only on seed. probe may be NULL. */
void synth_circuit(cuzk_cs_t *cs, const synth_plan *p, uint64_t seed, synth_probe *probe);

#endif
