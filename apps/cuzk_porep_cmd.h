/* PoRep C2 commands of the cuzk tool, and the parameter-directory layout they share with
 * `cuzk params generate`:
 *   cuzk porep prove  --c1 FILE --params DIR --out PROOF [--sector-num N --miner-id N] [--threads T]
 *                     [--synth direct|record] [--sector-size SIZE]
 *   cuzk porep verify --c1 FILE --params DIR --proof PROOF [--sector-size SIZE]
 *   cuzk params generate --kind porep|winning-post|window-post --sector-size SIZE --out DIR
 *                        [--registered-proof NAME] [--threads T] */
#ifndef CUZK_APPS_POREP_CMD_H
#define CUZK_APPS_POREP_CMD_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "cuzk/porep.h"

/* argv[0] is "porep". Exit codes: 0 proof written / valid, 1 the proof does not verify, 2 usage or
 * bad input (message on stderr, no output file). */
int cuzk_porep_cmd(int argc, char **argv);
void cuzk_porep_cmd_usage(FILE *f);

/* argv[0] is "generate" (called by `cuzk params`). Exit codes: 0 written or reused, 1 setup failed,
 * 2 usage or bad input. */
int cuzk_params_generate_cmd(int argc, char **argv);
void cuzk_params_generate_usage(FILE *f);

bool cuzk_porep_file_exists(const char *path);
/* The warning printed on stderr whenever development parameters are used. */
void cuzk_porep_dev_warning(const char *who, const char *stem);
#endif
