/* Filecoin's registered update proofs (SnapDeals, rust-filecoin-proofs-api RegisteredUpdateProof) and the
 * shapes storage-proofs-update's constants.rs gives every allowed sector size: partitions, challenges,
 * apex leaves, the encoding's high-bit counts hs and tree R's arities. The public calls are cuzk/snap.h's
 * (registered proofs, configurations); this header adds the lookups the other SnapDeals parts share. */
#ifndef CUZK_FILECOIN_SNAP_PROOF_H
#define CUZK_FILECOIN_SNAP_PROOF_H
#include <stdint.h>
#include "cuzk/snap.h"
#include "cuzk/status.h"

#define CUZK_FC_SNAP_PROOF_COUNT 5
#define CUZK_FC_SNAP_SIZE_COUNT 11 /* constants.rs ALLOWED_SECTOR_SIZES */

typedef struct {
    uint32_t id;           /* RegisteredUpdateProof number */
    const char *name;      /* "StackedDrg32GiBV1" (the Go name adds the prefix "RegisteredUpdateProof_") */
    const char *size_name; /* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" */
    uint64_t sector_size;  /* bytes */
} cuzk_fc_snap_proof_t;

/* The whole table in id order (CUZK_FC_SNAP_PROOF_COUNT entries). */
const cuzk_fc_snap_proof_t *cuzk_fc_snap_proofs(void);

/* The allowed sector sizes in nodes, smallest first (CUZK_FC_SNAP_SIZE_COUNT entries). */
const uint64_t *cuzk_fc_snap_allowed_nodes(void);

/* log2 of a power of two (nodes, partition counts). */
uint32_t cuzk_fc_snap_log2(uint64_t v);

/* Bits of a challenge that name the partition: log2(partition_count). */
uint32_t cuzk_fc_snap_partition_bits(const cuzk_snap_config_t *cfg);

/* constants.rs h_select: 1 << the first index of cfg->h in hs(nodes); 0 when h is not one of them. */
uint64_t cuzk_fc_snap_h_select(const cuzk_snap_config_t *cfg);

/* Right shift that leaves a node index's h high bits: log2(nodes) − h (vanilla.rs Rhos::calc_bits_shr). */
uint32_t cuzk_fc_snap_high_shift(const cuzk_snap_config_t *cfg);

#endif
