/* The one dispatch table: which implementation every kernel family runs, chosen once (cuzk_init in
 * cuzk/cuzk.h, or automatically on first use) and then only read. ff, ec, msm, ntt, Poseidon and the
 * SDR Feistel permutation take their choice from here and nowhere else.
 *
 * The table has two parts:
 *   - the choice: the CPU implementation, the NTT kernel set, the backend of the MSM and the NTT,
 *     and from them the variant each entry takes; fixed when the choice is made;
 *   - the entries: one pointer per kernel family (cuzk_entry), owned by the area that holds the
 *     kernels. util knows none of their types: the owner passes its variant function (variant ->
 *     its kernels) on every read, and the first read after the choice stores the result, which
 *     from then on is only read. So an entry is complete before its first use, and upper layers
 *     register their kernels without util calling up into them.
 * A backend other than the CPU (CUDA, later) slots in as one more variant of the MSM and NTT
 * entries: its area supplies that variant and the choice names its backend.
 *
 * Thread-safe, except cuzk_dispatch_reinit and cuzk_dispatch_override (tests and benchmarks
 * only). */
#ifndef CUZK_UTIL_DISPATCH_H
#define CUZK_UTIL_DISPATCH_H
#include <stdatomic.h>
#include <stdbool.h>
#include "cuzk/cuzk.h"

/* Where the whole MSM or NTT runs. Only the CPU exists today; CUDA keeps its slot. */
typedef enum {
    CUZK_BACKEND_CPU = 0,
    CUZK_BACKEND_CUDA = 1,
    CUZK_BACKEND_COUNT
} cuzk_backend;

/* The variants an entry may offer. An owner answers every variant (NULL where its contract says
 * NULL is meaningful, e.g. "no lane kernels: the scalar code"). */
typedef enum {
    CUZK_VARIANT_PORTABLE = 0,
    CUZK_VARIANT_ADX,
    CUZK_VARIANT_AVX2, /* NTT kernel set only */
    CUZK_VARIANT_IFMA,
    CUZK_VARIANT_CUDA, /* the MSM and NTT entries, once a GPU backend exists */
    CUZK_VARIANT_COUNT
} cuzk_variant;

/* The kernel families. The owner's header names the entry's type and its variant function. */
typedef enum {
    CUZK_ENTRY_FF = 0,         /* ff/ff_impl.h: const ff_ops *, scalar Fp and Fr */
    CUZK_ENTRY_EC_LANES,       /* ec/ifma/ec_ifma.h: const ec_ifma_ops *, NULL = the scalar point code */
    CUZK_ENTRY_MSM,            /* msm/msm_internal.h: const msm_backend *, the whole MSM */
    CUZK_ENTRY_NTT,            /* ntt/ntt_internal.h: const ntt_backend *, the whole transform */
    CUZK_ENTRY_NTT_KERNELS,    /* ntt/ntt_internal.h: const ntt_kernels *, the CPU butterflies */
    CUZK_ENTRY_POSEIDON_LANES, /* filecoin/hash/poseidon_ifma.h: const cuzk_pl_kernels_t *, NULL = scalar */
    CUZK_ENTRY_FEISTEL_LANES,  /* filecoin/sdr/feistel_kernels.h: const cuzk_fc_feistel_lanes_t *, NULL = scalar */
    CUZK_ENTRY_COUNT
} cuzk_entry;

/* An owner's map from variant to its kernels (a pointer to a table of them, or NULL). */
typedef const void *(*cuzk_variant_fn)(cuzk_variant v);

typedef struct {
    /* the choice */
    cuzk_init_options_t asked;      /* what it was made from (environment merged in, refused values AUTO) */
    cuzk_impl_t impl;               /* never AUTO */
    cuzk_ntt_kernels_t ntt_kernels; /* never AUTO */
    cuzk_backend msm_backend, ntt_backend;
    cuzk_variant variant[CUZK_ENTRY_COUNT]; /* the variant each entry takes */
    bool timing;                            /* CUZK_TIMING lines (util/timing.h) */
    /* ff's hot path: the FF entry is the ADX code, which ff inlines instead of calling through the
     * entry. Read with cuzk_dispatch_ff_adx(). */
    atomic_bool ff_adx_inline;
    /* the entries: entry[e] is final once bit e of filled is set */
    atomic_uint filled;
    const void *entry[CUZK_ENTRY_COUNT];
} cuzk_dispatch_t;

/* The table, with the choice made (automatically if nobody made it yet). */
const cuzk_dispatch_t *cuzk_dispatch(void);

/* Entry e: variant_of(the variant the choice gives e), computed on the first read and stored; the
 * owner area calls this with its own variant function (a test's override, if one is registered,
 * takes its place). Cheap after the first read: one atomic load. variant_of runs with the table's
 * lock held: it may look at the CPU, never at the table. */
const void *cuzk_dispatch_get(cuzk_entry e, cuzk_variant_fn variant_of);

/* The table object, only for the inline read below (ff's hot path); written only by dispatch.c. */
extern cuzk_dispatch_t cuzk_dispatch_table;

/* Whether Fp/Fr multiplications run the inlined ADX code; false also before the choice is made, so
 * the caller's other path (through the FF entry) makes it. */
static inline bool cuzk_dispatch_ff_adx(void)
{
    return atomic_load_explicit(&cuzk_dispatch_table.ff_adx_inline, memory_order_relaxed);
}

/* The variant of an implementation (PORTABLE, ADX or IFMA) and of an NTT kernel set. */
cuzk_variant cuzk_variant_of_impl(cuzk_impl_t impl);
cuzk_variant cuzk_variant_of_ntt_kernels(cuzk_ntt_kernels_t set);

/* ---- tests and benchmarks only: not thread-safe, call only while no kernel runs ---- */

/* Makes the choice again, as cuzk_init would on a fresh process (the same statuses, never
 * CUZK_ERR_MISMATCH), and forgets every stored entry. So tests compare implementations in one
 * process. */
cuzk_status cuzk_dispatch_reinit(const cuzk_init_options_t *opts, cuzk_err_t *err);

/* cuzk_dispatch_reinit with the implementation impl and otherwise the options of the current choice
 * (a forced NTT set stays forced); CUZK_ERR_UNSUPPORTED, nothing changed, when the CPU does not run
 * impl. To restore a choice: cuzk_init_options_t saved = cuzk_dispatch()->asked; ...;
 * cuzk_dispatch_reinit(&saved, NULL). */
cuzk_status cuzk_dispatch_use(cuzk_impl_t impl);

/* From the next cuzk_dispatch_reinit on, entry e is read through fn instead of its owner's variant
 * function (fn = NULL: the owner's again). While the FF entry is overridden, ff calls through it
 * instead of inlining the ADX code. For tests that count the calls reaching each variant. */
void cuzk_dispatch_override(cuzk_entry e, cuzk_variant_fn fn);

#endif
