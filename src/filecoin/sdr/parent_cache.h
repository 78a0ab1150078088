/* The SDR parent cache (storage-proofs-porep stacked/vanilla/cache.rs): for every node its 14 parents (6 DRG,
 * then 8 expander) as u32 little-endian, 56 bytes per node; its SHA-256 is the digest that
 * parent_cache.json records, and its file name hashes the graph's identity. */
#ifndef CUZK_FILECOIN_PARENT_CACHE_H
#define CUZK_FILECOIN_PARENT_CACHE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/sdr/graph.h"

#define CUZK_FC_PARENT_CACHE_ENTRY_BYTES (CUZK_FC_PARENTS * 4)

/* Parents of nodes [first, first + count) into out[count·14] (host order u32; on little-endian hosts
 * these are the cache bytes). threads: 0 = every online CPU. No allocation per node.
 * CUZK_ERR_INVALID_ARG when the range leaves the graph. */
cuzk_status cuzk_fc_parent_cache_fill(const cuzk_fc_graph_t *g, uint64_t first, uint64_t count,
                                      uint32_t *out, int threads, cuzk_err_t *err);

/* SHA-256 of the whole cache, generated chunk by chunk (bounded memory: 3.5 MiB whatever the size). */
cuzk_status cuzk_fc_parent_cache_digest(const cuzk_fc_graph_t *g, uint8_t digest[32], int threads,
                                        cuzk_err_t *err);

/* Writes the cache to path (with the atomic writer, cuzk/file.h: whole or not at all; nothing is left
 * behind on error) and returns its SHA-256 in digest (may be NULL). CUZK_ERR_IO naming the path on a write
 * error. */
cuzk_status cuzk_fc_parent_cache_write(const cuzk_fc_graph_t *g, const char *path, uint8_t digest[32],
                                       int threads, cuzk_err_t *err);

/* The cache's manifest key "v28-sdr-parent-<hex sha256("poseidon_hasher" ‖ graph identifier ‖ 4 Feistel
 * keys u64 LE ‖ u32 LE nodes)>" (the file adds ".cache"). Note that the API version is not part of it.
 * CUZK_ERR_BAD_LENGTH when out_len < 80. */
cuzk_status cuzk_fc_parent_cache_name(char *out, size_t out_len, const cuzk_fc_graph_t *g);

#endif
