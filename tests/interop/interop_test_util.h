/* Helpers for the interop tests: the checked-in snarkjs vectors, scratch files in a private temp
 * directory, and damaged copies of a file. */
#ifndef CUZK_TESTS_INTEROP_UTIL_H
#define CUZK_TESTS_INTEROP_UTIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VEC_DIR "tests/interop/vectors/"

/* Creates the scratch directory (removed by scratch_cleanup) and returns its path. */
const char *scratch_dir(void);
void scratch_cleanup(void);
/* A path inside the scratch directory (static buffer rotation of 8 entries). */
const char *scratch_path(const char *name);
bool write_bytes(const char *path, const void *data, size_t len);
bool file_exists(const char *path);
/* Number of entries in the scratch directory (to catch leftover temp files). */
int scratch_count(void);

#endif
