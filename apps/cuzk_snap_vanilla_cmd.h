/* `cuzk snap vanilla`: the SnapDeals vanilla partition proofs of an update directory written by
 * `cuzk snap encode`.
 *   cuzk snap vanilla --update DIR [--sector DIR] -o FILE [--threads N]
 * One file of bincode Vec<PartitionProof> (every partition, in order: what filecoin-ffi's
 * generate_partition_proofs returns, what `cuzk snap prove --vanilla` reads), written only when every
 * partition passes the prover's checks. */
#ifndef CUZK_APPS_SNAP_VANILLA_CMD_H
#define CUZK_APPS_SNAP_VANILLA_CMD_H
#include <stdio.h>

/* argv[0] is "vanilla". Exit codes: 0 the file written, 1 a failure of this machine (memory, the output
 * file), 2 usage or bad input (a missing or damaged update or sector directory: the message names the file;
 * nothing is written). */
int cuzk_snap_vanilla_cmd(int argc, char **argv);
void cuzk_snap_vanilla_cmd_usage(FILE *f);
#endif
