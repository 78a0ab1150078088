/* The implementation choice of every tool: `--impl portable|adx|ifma` anywhere on the command line
 * (also `--impl=NAME`), else CUZK_IMPL in the environment; CUZK_NTT_KERNELS forces the NTT kernel
 * set. Made once, at start, before any command runs. */
#ifndef CUZK_APPS_CLI_IMPL_H
#define CUZK_APPS_CLI_IMPL_H

/* Takes --impl off argv (updating *argc) and initialises the library (cuzk_init, environment read).
 * An unknown or unsupported --impl is an error: a message on stderr and 2 returned. A problem with
 * the environment is a warning: the best implementation runs instead, and 0 is returned. */
int cli_impl_init(const char *prog, int *argc, char **argv);

#endif
