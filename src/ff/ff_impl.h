/* The scalar Fp/Fr operations of each implementation, as the dispatch table's entry CUZK_ENTRY_FF
 * (util/dispatch.h). fp_mul, fp_sqr, fr_mul, fr_sqr, fp_mul_wide and fp_redc (and everything built on
 * them) run the entry's code: the ADX one inlined behind one well-predicted flag, the others through
 * the entry. Tests and benchmarks switch with cuzk_dispatch_reinit. */
#ifndef CUZK_FF_IMPL_H
#define CUZK_FF_IMPL_H
#include <stdint.h>
#include "ff/fp.h"
#include "ff/fr.h"
#include "util/dispatch.h"

typedef struct {
    const char *name; /* "portable", "adx" */
    void (*fp_mul)(fp *r, const fp *a, const fp *b);
    void (*fp_sqr)(fp *r, const fp *a);
    void (*fr_mul)(fr *r, const fr *a, const fr *b);
    void (*fr_sqr)(fr *r, const fr *a);
    void (*fp_mul_wide)(uint64_t t[12], const uint64_t a[6], const uint64_t b[6]);
    void (*fp_redc)(fp *r, const uint64_t t[12]);
} ff_ops;

extern const ff_ops ff_ops_portable;
#if defined(__x86_64__)
extern const ff_ops ff_ops_adx; /* needs cuzk_impl_supported(CUZK_IMPL_ADX) */
#endif

/* The variants of CUZK_ENTRY_FF: the ADX code for ADX and IFMA (IFMA's scalar operations are the
 * ADX ones), the portable code otherwise. */
const void *ff_variant(cuzk_variant v);

/* The entry in use. */
static inline const ff_ops *ff_active(void) { return cuzk_dispatch_get(CUZK_ENTRY_FF, ff_variant); }

#endif
