/* Parameter-file commands of the cuzk tool (bellperson .params / .vk, Filecoin's parameters.json):
 *   cuzk params check <file.params|file.vk> [--check none|curve|subgroup] [--threads N]
 *   cuzk params digest <file> [--manifest parameters.json] */
#ifndef CUZK_APPS_PARAMS_CMD_H
#define CUZK_APPS_PARAMS_CMD_H
#include <stdio.h>

/* argv[0] is "params". Exit codes: 0 the file is good (digest matches), 1 the digest does not
 * match the manifest, 2 usage or bad input (with a message on stderr). */
int cuzk_params_cmd(int argc, char **argv);
void cuzk_params_cmd_usage(FILE *f);
#endif
