/* cuzk-bench gen-vanilla snap: a sector's SnapDeals vanilla partition proofs (bincode Vec<PartitionProof>, the
 * file `cuzk snap prove --vanilla` reads): of a CC sector sealed here and updated with random data (2KiB,
 * 8MiB, 512MiB), or with --synthetic of any allowed size (testkit/snap_synthetic.h: they pass every check
 * and describe no real sector; a 32GiB sector's 16 partitions in about a second). */
#ifndef CUZK_APPS_BENCH_GEN_VANILLA_SNAP_H
#define CUZK_APPS_BENCH_GEN_VANILLA_SNAP_H
#include <stdbool.h>
#include <stdint.h>

typedef struct {
    const char *out;          /* the output file */
    const char *proof_name;   /* a registered update proof, or NULL: the size's */
    uint64_t size;            /* bytes, when have_size */
    bool have_size, synthetic;
    const uint8_t *seed;      /* --synthetic: 32 bytes the sector is made from */
    uint64_t threads;
} gen_snap_args;

/* Writes the proofs to a->out (the atomic writer) and prints comm_r_old=<hex> comm_d_new=<hex>
 * comm_r_new=<hex>, then a line on what was made. Exit code: 0, 1 (a failure), 2 (usage). */
int bench_gen_vanilla_snap(const gen_snap_args *a);

#endif
