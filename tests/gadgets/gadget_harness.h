/* Shared checks for the gadget tests: a gadget circuit run on every backend must give the same
 * counts and assignment everywhere, record + witness must evaluate to the direct backend's a, b, c,
 * and the test backend must be satisfied; plus small helpers (tampering, SHA-256 messages); random field
 * elements come from test_util.h (test_rand_fr). */
#ifndef CUZK_TEST_GADGET_HARNESS_H
#define CUZK_TEST_GADGET_HARNESS_H
#include <stdbool.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "ff/fr.h"
#include "gadgets/boolean.h"

typedef void (*gh_synth_fn)(cuzk_cs_t *cs, const void *params);

/* The circuit on one backend; the status is checked (CHECK) to be OK. Caller frees. */
cuzk_cs_t *gh_run(gh_synth_fn f, const void *params, cuzk_cs_backend backend, cuzk_lc_strategy s);
/* The circuit on count, witness, record, direct and test with strategy s: counts and densities
 * agree, the values backends hold one assignment, record + witness gives direct's a, b, c, every
 * row has a·b = c, the test backend is satisfied. Returns the counts and the test hash (either may
 * be NULL). */
void gh_check_backends(const char *name, gh_synth_fn f, const void *params, cuzk_lc_strategy s,
                       cuzk_cs_counts_t *counts, char hash[65]);
/* gh_check_backends with every LC strategy; the counts and hash must not depend on it. */
void gh_check_all_strategies(const char *name, gh_synth_fn f, const void *params, cuzk_cs_counts_t *counts,
                             char hash[65]);
/* Sets v to value on a test system and reports whether some constraint then fails; the old value
 * is put back. */
bool gh_breaks(cuzk_cs_t *cs, cuzk_var_t v, const fr *value);
/* The same with v's value + 1 (for a bit: 0 ↔ 1 when flip_bit). */
bool gh_breaks_changed(cuzk_cs_t *cs, cuzk_var_t v, bool flip_bit);
/* Whether the test system is satisfied. */
bool gh_satisfied(const cuzk_cs_t *cs);
/* SHA-256 by OpenSSL (the reference for the circuit). */
void gh_openssl_sha256(const uint8_t *m, size_t n, uint8_t out[32]);
/* Message bytes as allocated bits in SHA-256 order (each byte most significant bit first). */
void gh_alloc_message(cuzk_cs_t *cs, const uint8_t *m, size_t n, cuzk_boolean_t *bits);
/* 256 digest bits (message order) as bytes; false if some bit has no value. */
bool gh_digest_bytes(const cuzk_boolean_t bits[256], uint8_t out[32]);
/* The test hash of a system (CHECKed to succeed). */
void gh_hash(const cuzk_cs_t *cs, char hex[65]);

#endif
