/* The Poseidon work of checking a C1 output done ahead of the per-challenge checks: the roots of every tree R
 * and tree C path and every column hash, level by level across all paths, each distinct node input hashed
 * once in IFMA lane batches on every CPU. Internal to c1.c's cuzk_fc_c1_verify. */
#ifndef CUZK_FILECOIN_C1_HASHES_H
#define CUZK_FILECOIN_C1_HASHES_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/c1.h"

/* Per challenge: slot 0 is comm_r_last_proof, slot 1 replica_column_proofs.c_x, slots 2..7 the DRG parents'
 * columns and 8..15 the expander parents'. */
#define CUZK_FC_C1_SLOTS (2 + CUZK_FC_PARENTS)

typedef struct {
    size_t n_ch;          /* challenges: n_partitions · challenges_per_partition */
    uint8_t (*root)[32];  /* n_ch · CUZK_FC_C1_SLOTS: the root the slot's path hashes to */
    uint8_t (*col)[32];   /* the same indexing: the column hash of slots 1..15 */
    uint8_t *have;        /* bit 0: root computed, bit 1: column hash computed */
} cuzk_fc_c1_hashes_t;

/* Computes what can be computed: a path's root when the path has the tree shape of c1->proof (its
 * base-sub-top arities over p->nodes leaves) and its leaf and every sibling are canonical Fr; a column's
 * hash when the proof has p->layers rows and all are canonical. Everything else is left to the caller's
 * one-at-a-time checks, which then report the problem exactly as without this step. Identical node
 * inputs (the full arity × 32 bytes, never their position) are hashed once. threads >= 1.
 * CUZK_ERR_NO_MEMORY; *h is empty on error. */
cuzk_status cuzk_fc_c1_hashes_compute(cuzk_fc_c1_hashes_t *h, const cuzk_fc_c1_t *c1, int threads, cuzk_err_t *err);
void cuzk_fc_c1_hashes_free(cuzk_fc_c1_hashes_t *h);

/* The computed root of challenge j's slot s, or NULL. */
static inline const uint8_t *cuzk_fc_c1_hashes_root(const cuzk_fc_c1_hashes_t *h, size_t j, unsigned s)
{
    size_t g = j * CUZK_FC_C1_SLOTS + s;
    return h && (h->have[g] & 1) ? h->root[g] : NULL;
}

/* The computed column hash of challenge j's slot s (1..15), or NULL. */
static inline const uint8_t *cuzk_fc_c1_hashes_column(const cuzk_fc_c1_hashes_t *h, size_t j, unsigned s)
{
    size_t g = j * CUZK_FC_C1_SLOTS + s;
    return h && (h->have[g] & 2) ? h->col[g] : NULL;
}

#endif
