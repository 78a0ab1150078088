/* Sealing command of the cuzk tool: makes a real PoRep C1 output from local data and keeps the sector for PoSt.
 *   cuzk seal --sector-size <2KiB|8MiB|512MiB> --out DIR [--data FILE] [--miner-id N] [--sector-num N]
 *             [--ticket HEX] [--seed HEX] [--registered-proof NAME] [--threads N] [--c1-only] */
#ifndef CUZK_APPS_SEAL_CMD_H
#define CUZK_APPS_SEAL_CMD_H
#include <stdio.h>

/* argv[0] is "seal". Writes DIR/c1.json (filecoin-ffi's C1 JSON), DIR/c1-wrapper.json (Curio's wrapper)
 * and, unless --c1-only, the sector directory's files (sealed, sc-02-data-tree-r-last.dat, p_aux, t_aux,
 * sector.json: docs/FORMATS.md), all or none. Exit codes: 0 done, 1 sealing failed, 2 usage or bad input
 * (message on stderr). */
int cuzk_seal_cmd(int argc, char **argv);
void cuzk_seal_cmd_usage(FILE *f);
#endif
