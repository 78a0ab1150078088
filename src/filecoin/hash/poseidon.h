/* The Poseidon hash as Filecoin computes it (neptune, Strength::Standard): state[0] = domain tag,
 * state[1..] = the arity preimage elements, output state[1]. Over Montgomery Fr and over the 32-byte
 * little-endian Fr representation that Filecoin's Merkle trees store (PoseidonDomain). */
#ifndef CUZK_FILECOIN_POSEIDON_H
#define CUZK_FILECOIN_POSEIDON_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "ff/fr.h"
#include "filecoin/hash/poseidon_constants.h"

/* neptune's OptimizedStatic hash (compressed constants, sparse partial rounds): the fast path.
 * in has c->arity elements; out may alias in[0]. */
void cuzk_poseidon_hash_with(fr *out, const cuzk_poseidon_constants_t *c, const fr *tag, const fr *in);

/* n independent hashes with the same constants and tag: hash i reads in[i·arity .. i·arity + arity)
 * and writes out[i]. out may equal in, so that a tree level can be computed in place (hash i reads
 * its inputs before writing out[i], and out[i] lies inside the inputs of hash i / arity <= i). The
 * entry point for tree building: sixteen hashes at a time in AVX-512 IFMA lanes with the IFMA
 * implementation (poseidon_ifma.h; the adx and portable implementations keep the scalar loop). */
void cuzk_poseidon_hash_batch(fr *out, const cuzk_poseidon_constants_t *c, const fr *tag, const fr *in, size_t n);

/* The same over 32-byte little-endian canonical Fr values (tree nodes): in holds n·arity of them, out
 * gets n; the aliasing rule above holds with 32-byte units. Values >= r are the caller's error (they
 * hash as some value, without a report). */
void cuzk_poseidon_hash_batch_bytes(uint8_t *out, const cuzk_poseidon_constants_t *c, const fr *tag,
                                    const uint8_t *in, size_t n);

/* The textbook permutation (add round key, S-box, full MDS; neptune's HashMode::Correct): the
 * oracle the fast path is tested against. Same arguments. */
void cuzk_poseidon_hash_textbook(fr *out, const cuzk_poseidon_constants_t *c, const fr *tag, const fr *in);

/* MerkleTree hash of `arity` elements (tag 2^arity − 1). CUZK_ERR_INVALID_ARG for an arity outside
 * 1..36, CUZK_ERR_NO_MEMORY when the constants cannot be built. */
cuzk_status cuzk_poseidon_hash(fr *out, unsigned arity, const fr *in, cuzk_err_t *err);

/* A Merkle node of an arity-k tree from its k children, each a 32-byte little-endian canonical Fr
 * (children: k·32 bytes, out: 32 bytes, may alias children). CUZK_ERR_NOT_CANONICAL (with the child's
 * index) for a child >= r; errors of cuzk_poseidon_hash otherwise. */
cuzk_status cuzk_poseidon_node(uint8_t out[32], unsigned arity, const uint8_t *children, cuzk_err_t *err);

/* The same with an explicit domain tag (e.g. cuzk_poseidon_tag_custom), for non-tree uses such as
 * SnapDeals' Poseidon over (comm_r_new, index) with Custom(1). */
cuzk_status cuzk_poseidon_node_tagged(uint8_t out[32], unsigned arity, const fr *tag, const uint8_t *children,
                                      cuzk_err_t *err);

/* filecoin-hashers' hash_md: arity-36 MerkleTree hashes folded over n > 1 elements (acc = in[0];
 * acc = H(acc, next 35 elements), the last chunk may be shorter: the missing elements are zero).
 * CUZK_ERR_INVALID_ARG for n < 2. */
cuzk_status cuzk_poseidon_hash_md(fr *out, const fr *in, size_t n, cuzk_err_t *err);

#endif
