/* The SDR stacked graph (storage-proofs-core drgraph.rs BucketGraph + storage-proofs-porep
 * stacked/vanilla/graph.rs StackedGraph): each node's 6 DRG parents (bucket sampling driven by a ChaCha8
 * stream per node) and 8 expander parents (a Feistel permutation of node·8 + i), on demand for any node
 * of any sector size. */
#ifndef CUZK_FILECOIN_GRAPH_H
#define CUZK_FILECOIN_GRAPH_H
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/sdr/feistel.h"
#include "filecoin/registry/registered_proof.h"

typedef struct {
    uint64_t nodes;
    cuzk_fc_api_t api;
    uint8_t porep_id[32];
    uint8_t drg_seed[28];        /* sha256("Filecoin_DRSample" ‖ porep_id)[0..28] */
    cuzk_fc_feistel_t feistel;   /* keys: sha256("Filecoin_Feistel" ‖ porep_id) as 4 LE u64 */
} cuzk_fc_graph_t;

/* nodes in [2, 2^32] (parents are u32). CUZK_ERR_INVALID_ARG for a bad node count or API version.
 * No allocation: the graph is a value, and every parent function below is pure and thread-safe. */
cuzk_status cuzk_fc_graph_init(cuzk_fc_graph_t *g, uint64_t nodes, const uint8_t porep_id[32],
                               cuzk_fc_api_t api, cuzk_err_t *err);
/* The graph of a registered proof: its node count, porep_id and API version. */
cuzk_status cuzk_fc_graph_init_proof(cuzk_fc_graph_t *g, const cuzk_fc_seal_proof_t *p, cuzk_err_t *err);

/* The 6 DRG parents of node (nodes 0 and 1: all 0). CUZK_ERR_INVALID_ARG when node >= nodes (the
 * only failure of these three). */
cuzk_status cuzk_fc_graph_drg_parents(const cuzk_fc_graph_t *g, uint64_t node, uint32_t out[6]);
/* The 8 expander parents. */
cuzk_status cuzk_fc_graph_exp_parents(const cuzk_fc_graph_t *g, uint64_t node, uint32_t out[8]);
/* All 14 parents in parent-cache order: 6 DRG, then 8 expander. */
cuzk_status cuzk_fc_graph_parents(const cuzk_fc_graph_t *g, uint64_t node, uint32_t out[14]);

/* All 14 parents of nodes [first, first + count) into out[count·14], the expander's Feistel permutations
 * batched (cuzk_fc_feistel_permute_n): the parent cache's fill. CUZK_ERR_INVALID_ARG when the range
 * leaves the graph. The drg / exp forms fill only their part of each 14-entry row (entries 0..5 /
 * 6..13), so that sealing can compute the first layer's parents before the rest. */
cuzk_status cuzk_fc_graph_parents_range(const cuzk_fc_graph_t *g, uint64_t first, uint64_t count, uint32_t *out);
cuzk_status cuzk_fc_graph_drg_parents_range(const cuzk_fc_graph_t *g, uint64_t first, uint64_t count,
                                            uint32_t *out);
cuzk_status cuzk_fc_graph_exp_parents_range(const cuzk_fc_graph_t *g, uint64_t first, uint64_t count,
                                            uint32_t *out);

/* StackedGraph::identifier(): "stacked_graph::StackedGraph{expansion_degree: 8 base_graph:
 * drgraph::BucketGraph{size: <nodes>; degree: 6; hasher: poseidon_hasher} }". CUZK_ERR_BAD_LENGTH
 * when out is too small (160 bytes suffice). */
cuzk_status cuzk_fc_graph_identifier(char *out, size_t out_len, const cuzk_fc_graph_t *g);

#endif
