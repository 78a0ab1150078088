/* Human-readable names for cuzk_status codes. */
#include "cuzk/status.h"
#include <stdarg.h>
#include <stdio.h>

const char *cuzk_status_str(cuzk_status status)
{
    switch (status) {
    case CUZK_OK: return "ok";
    case CUZK_ERR_INVALID_ARG: return "invalid argument";
    case CUZK_ERR_BAD_LENGTH: return "input has the wrong length";
    case CUZK_ERR_BAD_FLAGS: return "inconsistent point-encoding flag bits";
    case CUZK_ERR_NOT_CANONICAL: return "field element not canonical (>= modulus)";
    case CUZK_ERR_NOT_ON_CURVE: return "point not on the curve";
    case CUZK_ERR_NOT_IN_SUBGROUP: return "point not in the prime-order subgroup";
    case CUZK_ERR_NO_MEMORY: return "out of memory";
    case CUZK_ERR_UNSUPPORTED: return "not supported on this machine";
    case CUZK_ERR_IO: return "i/o error";
    case CUZK_ERR_FORMAT: return "malformed input";
    case CUZK_ERR_MISMATCH: return "inputs do not match";
    case CUZK_ERR_CANCELLED: return "cancelled";
    case CUZK_ERR_SHUTTING_DOWN: return "shutting down: no new work accepted";
    }
    return "unknown status";
}

cuzk_status cuzk_err_set(cuzk_err_t *err, cuzk_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return status;
}
