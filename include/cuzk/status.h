/* cuzk status codes: every library function that can fail on its input returns one of these.
 * cuzk_status_str() gives a short, stable, human-readable description.
 *
 * Ownership: a cuzk_err_t is the caller's storage (usually on its stack); cuzk_status_str's strings
 * are static. Threading: both functions are thread-safe (an err is written only by the call given it).
 * Errors: every function of the API that returns a cuzk_status states which codes it returns;
 * CUZK_OK is always 0. cuzk_err_set returns its status argument unchanged (for `return
 * cuzk_err_set(...)`), so it is not marked CUZK_WARN_UNUSED_RESULT.
 */
#ifndef CUZK_STATUS_H
#define CUZK_STATUS_H
#include "cuzk/api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CUZK_OK = 0,
    CUZK_ERR_INVALID_ARG,     /* caller error: bad size, NULL where not allowed, unknown option */
    CUZK_ERR_BAD_LENGTH,      /* input buffer has the wrong length */
    CUZK_ERR_BAD_FLAGS,       /* point encoding: compression/infinity/sign flag bits inconsistent */
    CUZK_ERR_NOT_CANONICAL,   /* field element encoding is >= the modulus */
    CUZK_ERR_NOT_ON_CURVE,    /* point does not satisfy the curve equation (or x has no square root) */
    CUZK_ERR_NOT_IN_SUBGROUP, /* point is on the curve but not in the prime-order subgroup */
    CUZK_ERR_NO_MEMORY,
    CUZK_ERR_UNSUPPORTED,     /* the requested implementation or size is not available here */
    CUZK_ERR_IO,
    CUZK_ERR_FORMAT,          /* malformed file or message: bad magic, version, section or size field */
    CUZK_ERR_MISMATCH,        /* inputs disagree: circuit vs parameters, witness vs circuit, curve */
    CUZK_ERR_CANCELLED,       /* the caller asked the work to stop (cancel, shutdown) */
    CUZK_ERR_SHUTTING_DOWN,   /* the engine is stopping (drain, shutdown) and takes no new work */
} cuzk_status;

/* Room for a human-readable message next to a status: functions that parse files or check shapes
 * take an optional cuzk_err_t* (NULL = no message) and say there what was wrong and where. */
typedef struct {
    char msg[256];
} cuzk_err_t;

/* Formats a message into err (if err is not NULL) and returns status, so that error paths read
 *   return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: truncated at byte %zu", path, off); */
CUZK_API cuzk_status cuzk_err_set(cuzk_err_t *err, cuzk_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Returns a static string describing the status (never NULL). */
CUZK_API const char *cuzk_status_str(cuzk_status status);

#ifdef __cplusplus
}
#endif
#endif
