/* Circuit commands of the cuzk tool:
 *   cuzk circuit info --kind porep|winning-post|window-post --sector-size <2KiB|8MiB|512MiB|32GiB|64GiB>
 *                     [--partition N] [--hash] [--registered-proof NAME] */
#ifndef CUZK_APPS_CIRCUIT_CMD_H
#define CUZK_APPS_CIRCUIT_CMD_H
#include <stdio.h>

/* argv[0] is "circuit". Exit codes: 0 done, 1 the circuit could not be built (message on stderr),
 * 2 usage or bad input. */
int cuzk_circuit_cmd(int argc, char **argv);
void cuzk_circuit_cmd_usage(FILE *f);
#endif
