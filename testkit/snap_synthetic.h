/* SYNTHETIC SnapDeals vanilla partition proofs of any sector size, for benchmarks and tests only: every
 * partition's bincode PartitionProof of one updated sector that was never sealed nor encoded, passing
 * every check a prover makes (cuzk_fc_snap_vproof_verify: shapes, comm_r_old and comm_r_new from comm_c
 * and the roots, the challenges of comm_r_new, every path, the encoding at the challenged nodes, the apex
 * leaves). The sector: an old replica of one value (from the seed) and data of one value, except a few
 * hundred nodes of their own (every node of sectors up to 256 nodes); tree D over the data and tree R old
 * are sparse trees (sparse_tree.h), tree R new = old + data · rho(node) a banded one (band_tree.h: one
 * value per rho). A 32GiB sector's 16 partitions are made in about a second instead of needing a sealed
 * 32GiB sector. */
#ifndef CUZK_TESTKIT_SNAP_SYNTHETIC_H
#define CUZK_TESTKIT_SNAP_SYNTHETIC_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/snap.h"
#include "cuzk/status.h"

/* A synthetic updated sector: its commitments and each partition's proof bytes. */
typedef struct {
    cuzk_snap_config_t cfg;
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    size_t n;                                /* cfg.partition_count */
    uint8_t *data[CUZK_SNAP_MAX_PARTITIONS]; /* partition k's bincode PartitionProof, malloc'd */
    size_t len[CUZK_SNAP_MAX_PARTITIONS];
} cuzk_fc_snap_synthetic_t;

/* The partitions of a synthetic sector of shape cfg (cuzk_snap_config_check'ed; any h of hs) with comm_c
 * (a canonical Fr): the old replica's and the data's values are drawn from seed_bytes, so the same
 * arguments give the same bytes. threads: 0 = every online CPU. Errors: CUZK_ERR_INVALID_ARG (NULL, a bad
 * cfg), CUZK_ERR_NOT_CANONICAL (comm_c), CUZK_ERR_NO_MEMORY; on error *out is empty. Free with
 * cuzk_fc_snap_synthetic_free. */
cuzk_status cuzk_fc_snap_synthetic(cuzk_fc_snap_synthetic_t *out, const cuzk_snap_config_t *cfg,
                                   const uint8_t comm_c[32], const uint8_t seed_bytes[32], int threads,
                                   cuzk_err_t *err);

/* Frees the proofs' bytes and empties *s (NULL-safe). */
void cuzk_fc_snap_synthetic_free(cuzk_fc_snap_synthetic_t *s);

#endif
