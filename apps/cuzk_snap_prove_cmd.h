/* `cuzk snap prove|verify`: a SnapDeals (empty sector update) proof from a sector's vanilla partition
 * proofs (cuzk_snap_prove_cmd.c).
 *   cuzk snap prove  --registered-proof N --vanilla FILE --comm-r-old HEX --comm-r-new HEX --comm-d-new HEX
 *                    --params DIR --out PROOF [--threads N]
 *   cuzk snap verify (the same request) --params DIR --proof PROOF
 * FILE is a bincode Vec<PartitionProof> (`cuzk snap vanilla -o`); PROOF is every partition's 192-byte proof
 * in partition order (filecoin-proofs' update proof bytes). */
#ifndef CUZK_APPS_SNAP_PROVE_CMD_H
#define CUZK_APPS_SNAP_PROVE_CMD_H
#include <stdio.h>

/* argv[0] is "prove" / "verify". Exit codes: 0 proof written / valid, 1 the proof does not verify (or
 * proving failed on this machine), 2 usage or bad input (a message on stderr naming the file, partition,
 * challenge or commitment; no output file). */
int cuzk_snap_prove_cmd(int argc, char **argv);
int cuzk_snap_verify_cmd(int argc, char **argv);
void cuzk_snap_prove_cmd_usage(FILE *f);
#endif
