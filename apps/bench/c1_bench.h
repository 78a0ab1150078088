/* cuzk-bench c1-check: parse and check times of a synthetic C1 output of any sector size (bench/c1_bench.c). */
#ifndef CUZK_BENCH_C1_BENCH_H
#define CUZK_BENCH_C1_BENCH_H
/* argv[0]: "c1-check", then its options. Exit codes: 0 done, 1 a result check failed, 2 usage. */
int bench_c1_check(int argc, char **argv);
#endif
