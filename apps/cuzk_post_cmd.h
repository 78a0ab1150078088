/* Fallback PoSt commands of the cuzk tool (Winning and Window PoSt from vanilla proofs):
 *   cuzk post prove  --kind winning|window (--registered-proof NAME | --sector-size SIZE) --vanilla FILE...
 *                    --randomness HEX --miner-id N [--partition-index K] --params DIR --out PROOF [--threads N]
 *   cuzk post verify (the same request) --params DIR --proof PROOF
 *   cuzk post vanilla ...   vanilla proofs of sectors kept by `cuzk seal` (cuzk_post_vanilla_cmd.c) */
#ifndef CUZK_APPS_POST_CMD_H
#define CUZK_APPS_POST_CMD_H
#include <stdio.h>

/* argv[0] is "post". Exit codes: 0 proof written / valid, 1 the proof does not verify (or proving
 * failed), 2 usage or bad input (message on stderr naming the first bad sector and challenge; no output
 * file). */
int cuzk_post_cmd(int argc, char **argv);
void cuzk_post_cmd_usage(FILE *f);
#endif
