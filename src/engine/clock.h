/* The engine's clock (CLOCK_MONOTONIC, nanoseconds since boot) and time arithmetic on it that
 * cannot wrap. The clock starts near 0 at boot, so "now minus a span" is not a timestamp; and a
 * timestamp written by another thread after `now` was read is later than now. Spans are therefore
 * measured forward and clamped at 0, and millisecond settings too large for nanoseconds saturate
 * ("forever") instead of wrapping to a short time. */
#ifndef CUZK_ENGINE_CLOCK_H
#define CUZK_ENGINE_CLOCK_H
#include <pthread.h>
#include <stdint.h>
#include <time.h>

/* The engine's clock: CLOCK_MONOTONIC in nanoseconds (the clock of the library's CUZK_TIMING lines). */
static inline uint64_t cuzk_engine_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* now - then; 0 when then is not earlier than now. */
static inline uint64_t cuzk_elapsed_ns(uint64_t now, uint64_t then) { return now > then ? now - then : 0; }

/* ms in nanoseconds; UINT64_MAX when that does not fit (about 584 years and more). */
static inline uint64_t cuzk_ms_to_ns(uint64_t ms)
{
    return ms > UINT64_MAX / 1000000u ? UINT64_MAX : ms * 1000000u;
}

/* t + span; UINT64_MAX (never reached) when the sum does not fit. */
static inline uint64_t cuzk_after_ns(uint64_t t, uint64_t span)
{
    return span > UINT64_MAX - t ? UINT64_MAX : t + span;
}

/* A condition variable whose timed waits run on the engine's clock (deadlines from cuzk_engine_timespec). */
static inline void cuzk_engine_cond_init(pthread_cond_t *cv)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(cv, &ca);
    pthread_condattr_destroy(&ca);
}

/* t as the deadline of pthread_cond_timedwait on a condition variable of CLOCK_MONOTONIC. */
static inline struct timespec cuzk_engine_timespec(uint64_t t)
{
    return (struct timespec){(time_t)(t / 1000000000u), (long)(t % 1000000000u)};
}
#endif
