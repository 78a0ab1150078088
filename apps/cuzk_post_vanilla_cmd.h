/* `cuzk post vanilla`: Winning / Window PoSt vanilla proofs of sectors sealed and kept by `cuzk seal`.
 *   cuzk post vanilla --kind winning|window --sector DIR [--sector DIR ...] --randomness HEX
 *                     [--registered-proof NAME] [--sector-index N] -o FILE [-o FILE ...]
 * One bincode FallbackPoStSectorProof per sector, each in its own file (what filecoin-ffi's
 * generate_single_vanilla_proof returns, what Curio hands the proving daemon per sector and what
 * `cuzk post prove --vanilla` reads), the files written all or none. */
#ifndef CUZK_APPS_POST_VANILLA_CMD_H
#define CUZK_APPS_POST_VANILLA_CMD_H
#include <stdio.h>

/* argv[0] is "vanilla". Exit codes: 0 every file written, 1 a failure of this machine (memory, the output
 * files), 2 usage or bad input (a missing or damaged sector directory, a non-canonical randomness, a
 * registered proof of another kind or size: the message names the sector and the file; nothing is
 * written). */
int cuzk_post_vanilla_cmd(int argc, char **argv);
void cuzk_post_vanilla_cmd_usage(FILE *f);
#endif
