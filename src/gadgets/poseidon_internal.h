/* Internals of the Poseidon gadget: the walk through neptune's legacy circuit (poseidon_synth.c) over
 * local variable numbers, which either records the constraint template of an (arity, tag) or computes
 * the values of one hash; and the template itself (poseidon.c). */
#ifndef CUZK_GADGETS_POSEIDON_INTERNAL_H
#define CUZK_GADGETS_POSEIDON_INTERNAL_H
#include <stdbool.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "filecoin/hash/poseidon_constants.h"
#include "gadgets/num.h"

/* Local variables: 0 is ONE, 1..arity the preimage, arity + 1 + k the walk's k-th allocation. */
typedef struct {
    uint32_t var;
    fr coeff;
} pz_term;

/* A linear combination over local variables, sorted by variable, duplicates merged (bellpepper's
 * LinearCombination). Heap storage; used only while recording a template. */
typedef struct {
    pz_term *t;
    uint32_t n, cap;
} pz_lc;

typedef struct pz_walk pz_walk;
struct pz_walk {
    const cuzk_poseidon_constants_t *c;
    fr tag;
    bool lcs;        /* build linear combinations and pass them to on_enforce */
    const fr *input; /* preimage values (arity of them), or NULL: compute no values */
    /* Called for every allocation, in order (var = arity + 1 + k), with its value or NULL. */
    void (*on_alloc)(pz_walk *w, uint32_t var, const fr *value);
    /* Called for every constraint, in order; a, b, c are NULL unless lcs; values: the values of a, b, c
     * when the walk computes values (input given), else NULL. */
    void (*on_enforce)(pz_walk *w, const pz_lc *a, const pz_lc *b, const pz_lc *c, const fr *values);
    void *ctx;
    /* results */
    uint32_t next_var;
    uint32_t out_var; /* the hash result's local variable */
    bool has_out_value;
    fr out_value;
    bool oom; /* an LC could not grow (lcs only) */
};

/* Walks neptune's poseidon_hash for w->c with w->tag; fills the results. */
void pz_walk_run(pz_walk *w);

/* The constraint system shape of one hash: allocations and constraints strictly alternate (each
 * constraint follows the allocation it defines), so constraint k may use locals up to arity + 1 + k. */
typedef struct pz_template {
    const cuzk_poseidon_constants_t *c;
    fr tag;
    uint32_t n;         /* constraints = allocations */
    uint32_t out_local; /* local variable of the result */
    uint32_t *start;    /* 3n + 1 offsets into var/coeff: A, B, C of constraint k at 3k, 3k+1, 3k+2 */
    uint32_t *var;
    fr *coeff; /* non-zero only */
    struct pz_template *next;
} pz_template;

/* The cached template of (arity of c, tag); NULL when out of memory. */
const pz_template *pz_template_get(const cuzk_poseidon_constants_t *c, const fr *tag);

/* The legacy circuit synthesized without the template: the walk's linear combinations go straight
 * into cs. Slow; the tests' reference for the template path. Same contract as
 * cuzk_poseidon_circuit_tagged. */
cuzk_status pz_circuit_direct(cuzk_cs_t *cs, cuzk_num_t *out, const cuzk_poseidon_constants_t *c, const fr *tag,
                              const cuzk_num_t *preimage);

#endif
