/* snarkjs-compatible commands of the cuzk tool:
 *   cuzk groth16 prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> [--threads N]
 *   cuzk groth16 verify <verification_key.json> <public.json> <proof.json>
 *   cuzk zkey export verificationkey <circuit.zkey> <verification_key.json> */
#ifndef CUZK_APPS_GROTH16_CMD_H
#define CUZK_APPS_GROTH16_CMD_H
#include <stdio.h>

/* argv[0] is the command word ("groth16" or "zkey"). Exit codes: 0 success (a valid proof for
 * verify), 1 an invalid proof, 2 usage or bad input (with a message on stderr). */
int cuzk_groth16_cmd(int argc, char **argv);
int cuzk_zkey_cmd(int argc, char **argv);
/* The usage lines of these commands, for the tool's help. */
void cuzk_groth16_cmd_usage(FILE *f);
#endif
