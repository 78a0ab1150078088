/* Shared test helpers: a seeded PRNG with a printed, replayable seed, and CHECK macros.
 * Replay a failing run with CUZK_TEST_SEED=<seed printed at start>. */
#ifndef CUZK_TEST_UTIL_H
#define CUZK_TEST_UTIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Starts a test program: picks the seed (CUZK_TEST_SEED or the clock) and prints it. */
void test_init(const char *name);
/* Prints the summary; returns the process exit code (0 when every check passed). */
int test_finish(void);

uint64_t test_rand64(void);
uint64_t test_rand_below(uint64_t n);   /* uniform in [0, n), n > 0 */
void test_rand_bytes(void *out, size_t n);

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
