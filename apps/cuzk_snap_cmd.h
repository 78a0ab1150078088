/* SnapDeals commands of the cuzk tool:
 *   cuzk snap encode --sector DIR --data FILE --out DIR [--threads N]
 *                    a committed-capacity sector kept by `cuzk seal` takes new data: the update directory
 *   cuzk snap decode --update DIR --out FILE [--length N] [--threads N]
 *                    the data back from an update directory
 *   cuzk snap vanilla ...       the vanilla partition proofs of an update (cuzk_snap_vanilla_cmd.h)
 *   cuzk snap prove|verify ...  the SnapDeals proof from them (cuzk_snap_prove_cmd.h) */
#ifndef CUZK_APPS_SNAP_CMD_H
#define CUZK_APPS_SNAP_CMD_H
#include <stdio.h>

/* argv[0] is "snap". Exit codes: 0 done, 1 a failure of this machine (out of memory), 2 usage or bad input
 * (a message on stderr naming it; no output written). */
int cuzk_snap_cmd(int argc, char **argv);
void cuzk_snap_cmd_usage(FILE *f);
#endif
