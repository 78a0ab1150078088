/* Reader of tests/vectors/noble-bls12-381.txt (values computed by @noble/curves, see
 * tests/vectors/README.md) shared by the test_noble_* programs, and small helpers they share. */
#ifndef CUZK_TEST_NOBLE_COMMON_H
#define CUZK_TEST_NOBLE_COMMON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ec/ec.h"

#define NOBLE_VECTORS "tests/vectors/noble-bls12-381.txt"
#define NOBLE_MAX_TOKENS 8

typedef struct {
    const char *tok[NOBLE_MAX_TOKENS];   /* tok[0] is the tag */
    int n;
    int line;
} noble_record;

/* Calls fn for every record (comments skipped); returns the number of records, or -1 (and counts a
 * test failure) when the file cannot be read. Run from the repository root. */
long noble_for_each(void (*fn)(const noble_record *rec, void *ctx), void *ctx);

/* Decodes field i, which must be exactly len bytes of hex; otherwise counts a failure. */
bool noble_hex(const noble_record *rec, int i, uint8_t *out, size_t len);

void noble_g1_mul_gen(g1_aff *r, const uint8_t k_be[32]);   /* k·G1 for a 32-byte big-endian k */
void noble_g2_mul_gen(g2_aff *r, const uint8_t k_be[32]);

#endif
