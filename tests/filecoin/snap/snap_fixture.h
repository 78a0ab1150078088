/* A real, consistent SnapDeals instance built from whole trees, as storage-proofs-update's tests/circuit.rs
 * builds one: a random old replica and tree R over it, a random comm_c, random new data and tree D over it
 * (the library's SHA-256 node hash, level by level), phi and rho by the textbook Poseidon (an oracle written
 * apart from the library's hashes), the encoded replica and its tree R, then per partition the challenges
 * (cuzk_snap_challenges) and their paths read off the trees. Test-only. */
#ifndef CUZK_TESTS_SNAP_FIXTURE_H
#define CUZK_TESTS_SNAP_FIXTURE_H
#include <stdint.h>
#include "cuzk/snap.h"
#include "ff/fr.h"
#include "test_util.h"

#define SNAP_FIXTURE_MAX_LEVELS 32

typedef struct {
    cuzk_snap_config_t cfg;
    unsigned r_levels, r_arity[SNAP_FIXTURE_MAX_LEVELS];
    uint64_t r_width[SNAP_FIXTURE_MAX_LEVELS + 1];
    fr *r_old[SNAP_FIXTURE_MAX_LEVELS + 1], *r_new[SNAP_FIXTURE_MAX_LEVELS + 1]; /* level 0: the replicas */
    unsigned d_levels;
    fr *d[SNAP_FIXTURE_MAX_LEVELS + 1]; /* tree D, level 0: the new data */
    fr comm_c, comm_r_old, comm_d_new, comm_r_new, phi;
} snap_fixture_t;

/* A constants.rs shape: sector size in bytes, h = hs[h_index] (needs no instance: the gadget tests use it
 * alone). */
static inline cuzk_snap_config_t snap_fixture_config(uint64_t sector_size, unsigned h_index)
{
    cuzk_snap_config_t cfg;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_snap_config_for_size(&cfg, sector_size, &err) == CUZK_OK, "%s", err.msg);
    uint32_t hs[CUZK_SNAP_H_CHOICES];
    cuzk_snap_hs(cfg.nodes, hs);
    cfg.h = hs[h_index];
    return cfg;
}

/* Builds an instance of cfg (a constants.rs shape; small sizes only: every node is kept). */
void snap_fixture_make(snap_fixture_t *f, const cuzk_snap_config_t *cfg);
void snap_fixture_free(snap_fixture_t *f);

/* rho of a node index by the oracle: Poseidon2^Custom(1)(phi, node >> (log2 nodes − h)). */
void snap_fixture_rho(fr *rho, const snap_fixture_t *f, uint64_t node);

/* Partition k's witness (initialized here: free it with cuzk_snap_witness_free) and the public inputs the
 * circuit must expose, ONE first: ONE, k | h_select << log2(partitions), comm_r_old, comm_d_new,
 * comm_r_new (h_select = 1 << the first index of h in constants.rs' hs, written out here). challenges[]
 * gets the partition's challenges when not NULL. */
void snap_fixture_witness(cuzk_snap_witness_t *w, const snap_fixture_t *f, uint32_t k,
                          fr inputs[CUZK_SNAP_NUM_INPUTS], uint64_t *challenges);

/* The Poseidon2 hashes the instance is made of, by the textbook permutation: MerkleTree tag (trees R,
 * comm_r) and SnapDeals' Custom(1) tag (phi, rho, challenge digests). */
void snap_fixture_poseidon2(fr *out, const fr *a, const fr *b, bool gen_tag);

#endif
