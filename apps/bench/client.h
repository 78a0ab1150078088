/* cuzk-bench's daemon client commands (single, batch, submit, await, cancel, status, preload, evict,
 * metrics) and gen-vanilla. */
#ifndef CUZK_BENCH_CLIENT_H
#define CUZK_BENCH_CLIENT_H
#include <stdbool.h>
#include <stdio.h>

bool bench_client_command(const char *cmd);
/* Runs the command argv[0] against the daemon at addr with the options that follow. Exit codes:
 * 0 success, 1 the call or the proof failed, 2 usage or bad input. */
int bench_client(const char *addr, int argc, char **argv);
void bench_client_usage(FILE *f);

/* gen-vanilla porep [--sector-size S] [--miner-id N] [--sector-num N] [-o FILE] [--threads T]: seals a
 * sector with random data through the sealing code and writes the C1 output in Curio's wrapper
 * (default c1-wrapper.json).
 * gen-vanilla winning|window --sector-size S [--sectors N] [--randomness HEX] (-o FILE... | --out-dir DIR)
 * [--synthetic]: Fallback PoSt vanilla proofs, one bincode file per sector, of sectors sealed for it
 * (2KiB, 8MiB, 512MiB) or synthetic ones of any size (apps/bench/gen_vanilla.c, in the benchkit).
 * argv[0] is "gen-vanilla", argv[1] the kind. Exit codes: 0 written, 1 failed, 2 usage. */
int bench_gen_vanilla(int argc, char **argv);
#endif
