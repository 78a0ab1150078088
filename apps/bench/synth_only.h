/* cuzk-bench synth-only: the PoRep C2 synthesis microbenchmark (bench/synth_only.c). */
#ifndef CUZK_BENCH_SYNTH_ONLY_H
#define CUZK_BENCH_SYNTH_ONLY_H
/* argv[0]: "synth-only", then its options. Exit codes: 0 done, 1 synthesis failed, 2 usage. */
int bench_synth_only(int argc, char **argv);
#endif
