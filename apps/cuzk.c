/* cuzk: the offline tool.
 *   cuzk selfcheck    quick known-answer checks of the arithmetic on this machine
 *   cuzk groth16 ... / cuzk zkey ...   snarkjs-compatible commands (cuzk_groth16_cmd.c)
 *   cuzk params ...                    bellperson parameter files (cuzk_params_cmd.c)
 *   cuzk circuit info ...              shapes of Filecoin circuits (cuzk_circuit_cmd.c)
 *   cuzk seal ...                      seal a small sector, write its C1 output (cuzk_seal_cmd.c)
 *   cuzk porep prove|verify ...        PoRep C2 from a C1 output (cuzk_porep_cmd.c) */
#include <stdio.h>
#include <string.h>
#include "cuzk_circuit_cmd.h"
#include "cuzk_groth16_cmd.h"
#include "cuzk_params_cmd.h"
#include "cuzk_porep_cmd.h"
#include "cuzk_seal_cmd.h"
#include "selfcheck.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk <command>\n\ncommands:\n"
               "  selfcheck   run quick known-answer checks of the arithmetic on this machine\n");
    cuzk_groth16_cmd_usage(f);
    cuzk_params_cmd_usage(f);
    cuzk_circuit_cmd_usage(f);
    cuzk_seal_cmd_usage(f);
    cuzk_porep_cmd_usage(f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "selfcheck") == 0)
        return cuzk_selfcheck() ? 1 : 0;
    if (strcmp(argv[1], "groth16") == 0)
        return cuzk_groth16_cmd(argc - 1, argv + 1);
    if (strcmp(argv[1], "zkey") == 0)
        return cuzk_zkey_cmd(argc - 1, argv + 1);
    if (strcmp(argv[1], "params") == 0)
        return cuzk_params_cmd(argc - 1, argv + 1);
    if (strcmp(argv[1], "circuit") == 0)
        return cuzk_circuit_cmd(argc - 1, argv + 1);
    if (strcmp(argv[1], "seal") == 0)
        return cuzk_seal_cmd(argc - 1, argv + 1);
    if (strcmp(argv[1], "porep") == 0)
        return cuzk_porep_cmd(argc - 1, argv + 1);
    fprintf(stderr, "cuzk: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
