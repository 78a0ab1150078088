/* Insertion permutation (storage-proofs-core gadgets/insertion.rs): put an element at a position
 * given by bits among the siblings of a Merkle path level, and the selection and pick gadgets it is
 * built from. Sizes 2, 4 and 8 have bellperson's hand-optimized circuits (2, 8 and 22 constraints),
 * other sizes the general one (size·(size − 1) constraints). */
#ifndef CUZK_GADGETS_INSERTION_H
#define CUZK_GADGETS_INSERTION_H
#include <stddef.h>
#include "cuzk/cs.h"
#include "gadgets/boolean.h"
#include "gadgets/num.h"

/* condition ? a : b as a new num c, with (b − a)·condition = b − c. */
cuzk_num_t cuzk_insertion_pick(cuzk_cs_t *cs, cuzk_boolean_t condition, const cuzk_num_t *a, const cuzk_num_t *b);
/* from[n], n = 2^nbits, where n is given by bits (least significant first): a tree of picks, most
 * significant bit first; n − 1 constraints. nbits <= 24, otherwise the system fails. */
cuzk_num_t cuzk_insertion_select(cuzk_cs_t *cs, const cuzk_num_t *from, const cuzk_boolean_t *bits, size_t nbits);
/* out[0 .. 2^nbits − 1] = elements with element inserted at position n (bits, least significant
 * first): out[n] = element. elements has 2^nbits − 1 entries; out must not overlap them. For size 8
 * the first two bits must be allocated and not negated (Boolean Is), as rust-fil-proofs requires;
 * otherwise, or for nbits > 24, the system fails. */
void cuzk_insertion_insert(cuzk_cs_t *cs, const cuzk_num_t *element, const cuzk_boolean_t *bits, size_t nbits,
                           const cuzk_num_t *elements, cuzk_num_t *out);

#endif
