/* The markers of the public API, used by every header in include/cuzk/.
 *   CUZK_API                 the symbol is part of libcuzk's ABI (the library is built with
 *                            -fvisibility=hidden: everything else stays inside it)
 *   CUZK_WARN_UNUSED_RESULT  the returned status must be looked at
 *   CUZK_NONNULL(i, ...)     the numbered pointer arguments (from 1) must not be NULL */
#ifndef CUZK_API_H
#define CUZK_API_H

#if defined(__GNUC__) || defined(__clang__)
#define CUZK_API __attribute__((visibility("default")))
#define CUZK_WARN_UNUSED_RESULT __attribute__((warn_unused_result))
#define CUZK_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#else
#define CUZK_API
#define CUZK_WARN_UNUSED_RESULT
#define CUZK_NONNULL(...)
#endif

#endif
