/* Vanilla PoSt proofs made for the PoSt product-path tests from a small real tree R: random leaves, every
 * node hashed with Poseidon, comm_r = Poseidon2(comm_c, comm_r_last), and the paths of the challenged
 * leaves written as bincode FallbackPoStSectorProof by an encoder of the tests' own (one MerkleProof per
 * path, Single variant for base-only trees). The challenged leaves come from a SHA-256 oracle here, not
 * from the library's challenge code. */
#ifndef CUZK_TESTS_POST_API_VANILLA_H
#define CUZK_TESTS_POST_API_VANILLA_H
#include <stddef.h>
#include <stdint.h>

/* A base-only tree of `arity` over `leaves` leaves (a power of it): level 0 the leaves, the last level the
 * root (comm_r_last); 32-byte little-endian Fr nodes. */
typedef struct {
    unsigned arity, levels;
    uint64_t leaves;
    uint8_t *nodes;      /* every level, leaves first */
    uint64_t offset[16]; /* first node of each level, in nodes */
    uint8_t comm_c[32], comm_r_last[32], comm_r[32];
} tv_tree_t;

/* Random leaves and comm_c from the tests' seeded generator. 0 on success. */
int tv_tree_make(tv_tree_t *t, unsigned arity, uint64_t leaves);
void tv_tree_free(tv_tree_t *t);

/* The bincode proof of sector_id whose n_paths paths open leaves[0..n_paths) of t (with sector_proofs
 * copies of the sector proof), into a new malloc'd buffer of *len bytes. */
uint8_t *tv_encode(size_t *len, uint64_t sector_id, const tv_tree_t *t, const uint64_t *leaves, size_t n_paths,
                   unsigned sector_proofs);

/* The same for the challenges of a PoSt: n_paths paths opening fc_test_post_leaf(randomness, sector_id, sector_index,
 * n_paths, n, v1_2, t->leaves) for n = 0..n_paths. */
uint8_t *tv_encode_post(size_t *len, uint64_t sector_id, const tv_tree_t *t, const uint8_t randomness[32],
                        uint64_t sector_index, uint32_t n_paths, int v1_2);

/* Byte offsets in a tv_encode output of one sector proof over an arity-8 two-level tree (2KiB): */
#define TV_HEADER 56u                                 /* sector_id, comm_r, sector proof count, path count */
#define TV_LEVEL (8u + 7u * 32u + 8u)                 /* sibling count, 7 siblings, index */
#define TV_PATH (4u + 32u + 32u + 8u + 2u * TV_LEVEL) /* kind, root, leaf, level count, 2 levels */
#define TV_COMM_R 8u
#define TV_ROOT(n) (TV_HEADER + (n)*TV_PATH + 4u)
#define TV_LEAF(n) (TV_ROOT(n) + 32u)
#define TV_SIBLING(n, l, j) (TV_HEADER + (n)*TV_PATH + 76u + (l)*TV_LEVEL + 8u + 32u * (j))
#endif
