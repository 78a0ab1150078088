/* Shared test helpers: a seeded PRNG with a printed, replayable seed (and the random Fr element drawn
 * from it), and CHECK macros.
 * Replay a failing run with CUZK_TEST_SEED=<seed printed at start>. */
#ifndef CUZK_TEST_UTIL_H
#define CUZK_TEST_UTIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cuzk/field.h"

/* Starts a test program: picks the seed (CUZK_TEST_SEED or the clock) and prints it. */
void test_init(const char *name);
/* Prints the summary; returns the process exit code (0 when every check passed). */
int test_finish(void);

uint64_t test_rand64(void);
/* SplitMix64 over a state of the caller's own: seeded streams for generators that must repeat a draw. */
uint64_t test_splitmix64(uint64_t *state);
uint64_t test_rand_below(uint64_t n);   /* uniform in [0, n), n > 0 */
void test_rand_bytes(void *out, size_t n);
/* SHA-256 of the concatenation of n parts, by libcrypto's EVP interface: the oracle of the derivations
 * that hash several fields. */
void test_sha256_parts(uint8_t out[32], const uint8_t *const *parts, const size_t *lens, int n);
/* The one random field element of the tests: uniform in [0, r), from the seeded generator.
 * test_rand_fr gives its Montgomery form (an fr), test_rand_scalar its canonical limbs, and
 * test_rand_fr_bytes its 32-byte little-endian encoding (a canonical Fr32 node). */
void test_rand_fr(cuzk_fr_t *x);
void test_rand_scalar(cuzk_scalar_t *k);
void test_rand_fr_bytes(uint8_t out[32]);
/* The same draw from another 64-bit stream (a test's own seeded generator, e.g. one that must not
 * disturb the shared one). */
void test_rand_fr_from(cuzk_fr_t *x, uint64_t (*next)(void *ctx), void *ctx);

extern unsigned long test_failures, test_checks;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        test_checks++;                                                               \
        if (!(cond)) {                                                               \
            test_failures++;                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

#define CHECK_MSG(cond, ...)                                                          \
    do {                                                                              \
        test_checks++;                                                                \
        if (!(cond)) {                                                                \
            test_failures++;                                                          \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);  \
            fprintf(stderr, __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                      \
        }                                                                             \
    } while (0)

/* Reads a whole file (for checked-in vectors); returns NULL on error. Caller frees. */
char *test_read_file(const char *path, size_t *len);
/* Parses a hex string (no 0x) into out; returns the number of bytes or -1. */
long test_hex_decode(const char *hex, uint8_t *out, size_t cap);

/* CPU seconds of the calling thread, for the figures some tests print (the machine is shared). */
double test_thread_cpu_s(void);
/* 1 in sanitizer builds, whose figures mean nothing. */
#ifdef CUZK_SANITIZE
#define TEST_SANITIZED 1
#else
#define TEST_SANITIZED 0
#endif

/* A stop request for the should_stop hooks: counts its polls and says "stop" at poll stop_at
 * (0 = never). Pass test_stop_after with a test_stop_counter as its argument. */
typedef struct {
    int polls, stop_at;
} test_stop_counter;
bool test_stop_after(void *counter);

#endif
