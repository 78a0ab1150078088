/* The SnapDeals partition proofs of a vanilla file as the daemon takes them: the daemon's request carries one
 * bincode PartitionProof per partition (as Curio sends them), the files hold a sector's bincode
 * Vec<PartitionProof> (`cuzk snap vanilla`, `cuzk-bench gen-vanilla snap`) or one bare PartitionProof. In the
 * benchkit: it reads the files with the library's own decoder. */
#ifndef CUZK_APPS_BENCH_SNAP_PARTS_H
#define CUZK_APPS_BENCH_SNAP_PARTS_H
#include <stddef.h>
#include <stdint.h>

/* Appends the byte ranges of buf's partition proofs to off[] / len[] (from index *n, at most max in all;
 * *n grows by their number): a Vec<PartitionProof> filling buf exactly, else one PartitionProof filling it.
 * 0, or -1 with a message in msg (naming the proof and byte offset) when buf is neither or has too many. */
int bench_snap_parts(const uint8_t *buf, size_t len, size_t *off, size_t *lens, size_t max, size_t *n, char *msg,
                     size_t msg_len);

#endif
