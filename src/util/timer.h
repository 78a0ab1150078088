/* Monotonic wall-clock time for benchmarks and CUZK_TIMING lines. */
#ifndef CUZK_UTIL_TIMER_H
#define CUZK_UTIL_TIMER_H
#include <stdint.h>
#include <time.h>

static inline uint64_t cuzk_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif
