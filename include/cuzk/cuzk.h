/* The library's entry point: initialisation and the choice of arithmetic implementation.
 *
 * cuzk runs its field, curve, MSM, NTT and Poseidon kernels in one of several implementations
 * (portable C, x86-64 ADX/BMI2, AVX-512 IFMA lanes). The choice is made once, by cuzk_init() or,
 * when the program never calls it, automatically (the best one this CPU runs) on the first call
 * that needs it; it then holds for the life of the process.
 *
 * Threading: every function here is thread-safe. The choice itself is fixed once made, so kernels
 * running on other threads never see it change.
 * Environment: the library reads CUZK_IMPL and CUZK_NTT_KERNELS only when the caller asks for it
 * (cuzk_init_options_t.from_env), and CUZK_TIMING (per-phase timing lines on stderr) once, at
 * initialisation. It prints nothing about the choice: problems come back in the status and message. */
#ifndef CUZK_CUZK_H
#define CUZK_CUZK_H
#include <stdbool.h>
#include "cuzk/api.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The arithmetic implementation. AUTO (0, the zero-initialised default) is the best one this CPU
 * runs: IFMA, else ADX, else portable. */
typedef enum {
    CUZK_IMPL_AUTO = 0,
    CUZK_IMPL_PORTABLE = 1, /* plain C with unsigned __int128: the oracle for the others */
    CUZK_IMPL_ADX = 2,      /* x86-64 MULX/ADCX/ADOX */
    CUZK_IMPL_IFMA = 3,     /* AVX-512 IFMA lanes for the batched kernels; scalar operations use ADX */
} cuzk_impl_t;

/* The NTT's butterfly kernels. AUTO follows the implementation: portable with PORTABLE, the
 * fastest of ADX and AVX2 with ADX, IFMA with IFMA. A forced set is for A/B measurements; the
 * PORTABLE implementation always uses the portable set. */
typedef enum {
    CUZK_NTT_KERNELS_AUTO = 0,
    CUZK_NTT_KERNELS_PORTABLE = 1,
    CUZK_NTT_KERNELS_ADX = 2,
    CUZK_NTT_KERNELS_AVX2 = 3,
    CUZK_NTT_KERNELS_IFMA = 4,
} cuzk_ntt_kernels_t;

typedef struct {
    cuzk_impl_t impl;               /* AUTO: the best this CPU runs */
    cuzk_ntt_kernels_t ntt_kernels; /* AUTO: the set matching impl */
    /* true: CUZK_IMPL=portable|adx|ifma and CUZK_NTT_KERNELS=portable|adx|avx2|ifma in the
     * environment fill impl and ntt_kernels where those are AUTO (an explicit option wins). For
     * programs that want the environment to steer them, as cuzk's own tools do. */
    bool from_env;
} cuzk_init_options_t;

/* Makes the choice: opts NULL or zero-initialised = everything AUTO, environment not read.
 * Idempotent: the first call (or the first kernel, if that comes first) fixes the choice; later
 * calls change nothing and report whether they asked for the same.
 * Returns
 *   CUZK_OK                everything as asked;
 *   CUZK_ERR_UNSUPPORTED   the implementation or NTT set asked for does not run on this CPU: the
 *                          library is initialised with the automatic choice in its place (err says
 *                          which), so the caller may warn and go on;
 *   CUZK_ERR_INVALID_ARG   an option out of range, or an environment value that names no
 *                          implementation: likewise replaced by the automatic choice, err says so;
 *   CUZK_ERR_MISMATCH      the choice was already made (by an earlier call or by a kernel that ran
 *                          first) and differs from this request: nothing changed, err names the
 *                          active implementation.
 * err may be NULL. */
CUZK_API CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_init(const cuzk_init_options_t *opts, cuzk_err_t *err);

/* The implementation in use (never AUTO); makes the automatic choice if none was made yet. */
CUZK_API cuzk_impl_t cuzk_impl_active(void);
/* The name of the implementation in use: "portable", "adx" or "ifma". */
CUZK_API const char *cuzk_impl_active_name(void);
/* The NTT kernel set in use (never AUTO). */
CUZK_API cuzk_ntt_kernels_t cuzk_ntt_kernels_active(void);

/* Whether this CPU runs impl (AUTO and PORTABLE: always). */
CUZK_API bool cuzk_impl_supported(cuzk_impl_t impl);
/* The best implementation this CPU runs (never AUTO). */
CUZK_API cuzk_impl_t cuzk_impl_best(void);
/* "auto", "portable", "adx", "ifma" ("?" for a value out of range); never NULL. */
CUZK_API const char *cuzk_impl_name(cuzk_impl_t impl);
/* Parses one of the names above into *out; false (and *out untouched) on anything else. */
CUZK_API bool cuzk_impl_parse(const char *name, cuzk_impl_t *out) CUZK_NONNULL(1, 2);
/* "auto", "portable", "adx", "avx2", "ifma" ("?" out of range); never NULL. */
CUZK_API const char *cuzk_ntt_kernels_name(cuzk_ntt_kernels_t set);
/* Parses one of the names above; false (and *out untouched) on anything else. */
CUZK_API bool cuzk_ntt_kernels_parse(const char *name, cuzk_ntt_kernels_t *out) CUZK_NONNULL(1, 2);

#ifdef __cplusplus
}
#endif
#endif
