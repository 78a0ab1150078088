/* The dispatch table (dispatch.h) and the public initialisation (cuzk/cuzk.h): resolving the options
 * against the CPU, making the choice once, and filling each entry on its first read. */
#include "util/dispatch.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/cpu.h"
#include "util/timing.h"

cuzk_dispatch_t cuzk_dispatch_table;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t auto_once = PTHREAD_ONCE_INIT;
static atomic_bool chosen;
static cuzk_variant_fn overrides[CUZK_ENTRY_COUNT];

typedef struct {
    cuzk_impl_t impl;
    cuzk_ntt_kernels_t ntt;
    cuzk_init_options_t asked;
} choice;

static const char *const ntt_names[] = {"auto", "portable", "adx", "avx2", "ifma"};

const char *cuzk_ntt_kernels_name(cuzk_ntt_kernels_t set)
{
    return (unsigned)set < sizeof ntt_names / sizeof ntt_names[0] ? ntt_names[set] : "?";
}

bool cuzk_ntt_kernels_parse(const char *name, cuzk_ntt_kernels_t *out)
{
    for (unsigned i = 0; i < sizeof ntt_names / sizeof ntt_names[0]; i++)
        if (strcmp(name, ntt_names[i]) == 0) {
            *out = (cuzk_ntt_kernels_t)i;
            return true;
        }
    return false;
}

/* Whether the CPU runs a kernel set (whether it was compiled is the NTT's own business: its
 * variant function answers with the best set it has). */
static bool ntt_supported(cuzk_ntt_kernels_t set)
{
    switch (set) {
    case CUZK_NTT_KERNELS_AUTO:
    case CUZK_NTT_KERNELS_PORTABLE: return true;
    case CUZK_NTT_KERNELS_ADX: return cuzk_impl_supported(CUZK_IMPL_ADX);
    case CUZK_NTT_KERNELS_AVX2: return cuzk_cpu()->avx2 && cuzk_impl_supported(CUZK_IMPL_ADX);
    case CUZK_NTT_KERNELS_IFMA: return cuzk_impl_supported(CUZK_IMPL_IFMA);
    }
    return false;
}

/* Keeps the first problem's status and message: later ones are consequences or less important. */
__attribute__((format(printf, 4, 5))) static cuzk_status note(cuzk_status st, cuzk_err_t *err, cuzk_status now,
                                                              const char *fmt, ...)
{
    if (st != CUZK_OK)
        return st;
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return now;
}

/* The options against the environment (when asked) and the CPU. Whatever was asked and cannot be
 * had is replaced by the automatic choice; the status says so. */
static cuzk_status resolve(const cuzk_init_options_t *opts, cuzk_err_t *err, choice *c)
{
    cuzk_init_options_t o = {0};
    if (opts)
        o = *opts;
    cuzk_status st = CUZK_OK;
    const char *best = cuzk_impl_name(cuzk_impl_best());
    if ((unsigned)o.impl > CUZK_IMPL_IFMA) {
        st = note(st, err, CUZK_ERR_INVALID_ARG, "implementation %d out of range; using the best available (%s)",
                  (int)o.impl, best);
        o.impl = CUZK_IMPL_AUTO;
    }
    if ((unsigned)o.ntt_kernels > CUZK_NTT_KERNELS_IFMA) {
        st = note(st, err, CUZK_ERR_INVALID_ARG, "NTT kernel set %d out of range; using the automatic one",
                  (int)o.ntt_kernels);
        o.ntt_kernels = CUZK_NTT_KERNELS_AUTO;
    }
    if (o.from_env) {
        const char *e = getenv("CUZK_IMPL");
        if (o.impl == CUZK_IMPL_AUTO && e && *e && !cuzk_impl_parse(e, &o.impl))
            st = note(st, err, CUZK_ERR_INVALID_ARG,
                      "CUZK_IMPL=%s is not one of portable|adx|ifma; using the best available (%s)", e, best);
        e = getenv("CUZK_NTT_KERNELS");
        if (o.ntt_kernels == CUZK_NTT_KERNELS_AUTO && e && *e && !cuzk_ntt_kernels_parse(e, &o.ntt_kernels))
            st = note(st, err, CUZK_ERR_INVALID_ARG,
                      "CUZK_NTT_KERNELS=%s is not one of portable|adx|avx2|ifma; using the automatic set", e);
    }
    if (!cuzk_impl_supported(o.impl)) {
        st = note(st, err, CUZK_ERR_UNSUPPORTED,
                  "implementation %s is not supported by this CPU; using the best available (%s)",
                  cuzk_impl_name(o.impl), best);
        o.impl = CUZK_IMPL_AUTO;
    }
    c->impl = o.impl == CUZK_IMPL_AUTO ? cuzk_impl_best() : o.impl;
    o.from_env = false; /* merged in */
    c->asked = o;
    if (c->impl == CUZK_IMPL_PORTABLE) {
        c->ntt = CUZK_NTT_KERNELS_PORTABLE; /* the portable implementation is portable throughout */
        return st;
    }
    if (!ntt_supported(o.ntt_kernels)) {
        st = note(st, err, CUZK_ERR_UNSUPPORTED,
                  "NTT kernels %s are not supported by this CPU; using the automatic set",
                  cuzk_ntt_kernels_name(o.ntt_kernels));
        o.ntt_kernels = CUZK_NTT_KERNELS_AUTO;
    }
    c->ntt = o.ntt_kernels;
    c->asked = o;
    if (c->ntt == CUZK_NTT_KERNELS_AUTO) {
        if (c->impl == CUZK_IMPL_IFMA)
            c->ntt = CUZK_NTT_KERNELS_IFMA;
        else
            c->ntt = ntt_supported(CUZK_NTT_KERNELS_AVX2) ? CUZK_NTT_KERNELS_AVX2 : CUZK_NTT_KERNELS_ADX;
    }
    return st;
}

cuzk_variant cuzk_variant_of_impl(cuzk_impl_t impl)
{
    switch (impl) {
    case CUZK_IMPL_ADX: return CUZK_VARIANT_ADX;
    case CUZK_IMPL_IFMA: return CUZK_VARIANT_IFMA;
    default: return CUZK_VARIANT_PORTABLE;
    }
}

cuzk_variant cuzk_variant_of_ntt_kernels(cuzk_ntt_kernels_t set)
{
    switch (set) {
    case CUZK_NTT_KERNELS_ADX: return CUZK_VARIANT_ADX;
    case CUZK_NTT_KERNELS_AVX2: return CUZK_VARIANT_AVX2;
    case CUZK_NTT_KERNELS_IFMA: return CUZK_VARIANT_IFMA;
    default: return CUZK_VARIANT_PORTABLE;
    }
}

/* Writes the choice and forgets the entries; with the lock held, before anyone reads (first
 * choice) or while no kernel runs (reinit). */
static void choose_locked(const choice *c)
{
    cuzk_dispatch_t *t = &cuzk_dispatch_table;
    atomic_store_explicit(&t->filled, 0, memory_order_relaxed);
    memset(t->entry, 0, sizeof t->entry);
    t->asked = c->asked;
    t->impl = c->impl;
    t->ntt_kernels = c->ntt;
    t->msm_backend = CUZK_BACKEND_CPU;
    t->ntt_backend = CUZK_BACKEND_CPU;
    const cuzk_variant cpu = cuzk_variant_of_impl(c->impl);
    t->variant[CUZK_ENTRY_FF] = cpu;
    t->variant[CUZK_ENTRY_EC_LANES] = cpu;
    t->variant[CUZK_ENTRY_POSEIDON_LANES] = cpu;
    t->variant[CUZK_ENTRY_FEISTEL_LANES] = cpu;
    t->variant[CUZK_ENTRY_NTT_KERNELS] = cuzk_variant_of_ntt_kernels(c->ntt);
    t->variant[CUZK_ENTRY_MSM] = t->msm_backend == CUZK_BACKEND_CUDA ? CUZK_VARIANT_CUDA : cpu;
    t->variant[CUZK_ENTRY_NTT] = t->ntt_backend == CUZK_BACKEND_CUDA ? CUZK_VARIANT_CUDA : cpu;
    t->timing = cuzk_timing_from_env();
    /* ff's ADX and IFMA variants are the ADX code, which ff inlines (unless a test counts calls). */
    atomic_store_explicit(&t->ff_adx_inline, cpu != CUZK_VARIANT_PORTABLE && !overrides[CUZK_ENTRY_FF],
                          memory_order_relaxed);
    atomic_store_explicit(&chosen, true, memory_order_release);
}

static void choose_auto(void)
{
    pthread_mutex_lock(&lock);
    if (!atomic_load_explicit(&chosen, memory_order_relaxed)) {
        choice c;
        (void)resolve(NULL, NULL, &c); /* nothing asked, nothing to refuse */
        choose_locked(&c);
    }
    pthread_mutex_unlock(&lock);
}

const cuzk_dispatch_t *cuzk_dispatch(void)
{
    if (!atomic_load_explicit(&chosen, memory_order_acquire))
        pthread_once(&auto_once, choose_auto);
    return &cuzk_dispatch_table;
}

const void *cuzk_dispatch_get(cuzk_entry e, cuzk_variant_fn variant_of)
{
    cuzk_dispatch_t *t = &cuzk_dispatch_table;
    const unsigned bit = 1u << e;
    if (atomic_load_explicit(&t->filled, memory_order_acquire) & bit)
        return t->entry[e];
    (void)cuzk_dispatch();
    pthread_mutex_lock(&lock);
    if (!(atomic_load_explicit(&t->filled, memory_order_relaxed) & bit)) {
        cuzk_variant_fn fn = overrides[e] ? overrides[e] : variant_of;
        t->entry[e] = fn(t->variant[e]);
        atomic_fetch_or_explicit(&t->filled, bit, memory_order_release);
    }
    const void *v = t->entry[e];
    pthread_mutex_unlock(&lock);
    return v;
}

cuzk_status cuzk_init(const cuzk_init_options_t *opts, cuzk_err_t *err)
{
    choice c;
    cuzk_status st = resolve(opts, err, &c);
    pthread_mutex_lock(&lock);
    if (!atomic_load_explicit(&chosen, memory_order_relaxed)) {
        choose_locked(&c);
        pthread_mutex_unlock(&lock);
        return st;
    }
    const cuzk_dispatch_t *t = &cuzk_dispatch_table;
    const bool same = t->impl == c.impl && t->ntt_kernels == c.ntt;
    const cuzk_impl_t impl = t->impl;
    const cuzk_ntt_kernels_t ntt = t->ntt_kernels;
    pthread_mutex_unlock(&lock);
    if (!same)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "the implementation is already chosen (%s, NTT kernels %s); cuzk_init asked for "
                            "%s, NTT kernels %s",
                            cuzk_impl_name(impl), cuzk_ntt_kernels_name(ntt), cuzk_impl_name(c.impl),
                            cuzk_ntt_kernels_name(c.ntt));
    return st;
}

cuzk_status cuzk_dispatch_reinit(const cuzk_init_options_t *opts, cuzk_err_t *err)
{
    choice c;
    cuzk_status st = resolve(opts, err, &c);
    (void)cuzk_dispatch(); /* the automatic choice must not come after this one */
    pthread_mutex_lock(&lock);
    choose_locked(&c);
    pthread_mutex_unlock(&lock);
    return st;
}

cuzk_status cuzk_dispatch_use(cuzk_impl_t impl)
{
    if ((unsigned)impl > CUZK_IMPL_IFMA || !cuzk_impl_supported(impl))
        return CUZK_ERR_UNSUPPORTED;
    cuzk_init_options_t o = cuzk_dispatch()->asked;
    o.impl = impl;
    return cuzk_dispatch_reinit(&o, NULL);
}

void cuzk_dispatch_override(cuzk_entry e, cuzk_variant_fn fn)
{
    if ((unsigned)e < CUZK_ENTRY_COUNT)
        overrides[e] = fn;
}

cuzk_impl_t cuzk_impl_active(void) { return cuzk_dispatch()->impl; }

const char *cuzk_impl_active_name(void) { return cuzk_impl_name(cuzk_impl_active()); }

cuzk_ntt_kernels_t cuzk_ntt_kernels_active(void) { return cuzk_dispatch()->ntt_kernels; }
