/* Known-answer checks that the arithmetic works on the running machine: the published encodings of the
 * BLS12-381 generators, scalar multiplication and the subgroup check, pairing bilinearity, an MSM
 * against the sum of its terms, the NTT's root of unity and a coset round trip; once for every
 * implementation (cuzk/cuzk.h) the CPU runs. A second or two. `cuzk selfcheck` prints them. */
#ifndef CUZK_SELFCHECK_H
#define CUZK_SELFCHECK_H
#include <stdbool.h>
#include <stddef.h>
#include "cuzk/api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_SELFCHECK_MAX_RESULTS 24

typedef struct {
    const char *impl;  /* the implementation it ran on: "portable", "adx", "ifma" (static storage) */
    const char *check; /* what was checked, for humans (static storage) */
    bool ok;
} cuzk_selfcheck_result_t;

typedef struct {
    bool bmi2, adx, avx2, avx512f, avx512ifma; /* the CPU's features */
    const char *best;                          /* the best implementation it runs */
    size_t n;                                  /* results[0 .. n) */
    cuzk_selfcheck_result_t results[CUZK_SELFCHECK_MAX_RESULTS];
    unsigned failures;                         /* results that are not ok */
} cuzk_selfcheck_report_t;

/* Runs every check on every implementation the CPU supports and returns the number that failed (0:
 * all good), with the details in *out. Bad arithmetic is reported, never aborts.
 * Threading: it switches the library's implementation for each round and puts the choice in force
 * before it back when it returns, so call it alone: while no other cuzk call runs in the process
 * (first thing in a program, as `cuzk selfcheck` does). */
CUZK_API CUZK_NONNULL(1) unsigned cuzk_selfcheck(cuzk_selfcheck_report_t *out);

#ifdef __cplusplus
}
#endif
#endif
