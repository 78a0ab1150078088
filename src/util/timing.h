/* Per-phase timing lines for humans and scripts: with CUZK_TIMING=1 in the environment, each phase
 * prints `CUZK_TIMING: phase=<name> ms=<value>` on stderr (one line, written atomically). The
 * environment is read once, when the library is initialised (util/dispatch.h). */
#ifndef CUZK_UTIL_TIMING_H
#define CUZK_UTIL_TIMING_H
#include <stdbool.h>
#include <stdint.h>

/* True when CUZK_TIMING was set to a value other than "0" at initialisation. */
bool cuzk_timing_enabled(void);

/* Prints the line for a phase that started at start_ns (cuzk_now_ns) and ends now, when enabled. */
void cuzk_timing_report(const char *phase, uint64_t start_ns);

/* Reads CUZK_TIMING now: for the initialisation only. */
bool cuzk_timing_from_env(void);

#endif
