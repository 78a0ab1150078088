/* Linear combinations: bellpepper's sorted, merging term list (lc.rs Indexer) over the three
 * storage strategies (heap vector, inline buffer spilling to the heap, arena). The inline fast
 * path (append after the last term) is in cs.h; everything else is here. */
#include <stdlib.h>
#include "cs/cs_internal.h"

const cuzk_fr_t cuzk_lc_coeff_one = {
    {0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL}};
/* r − R mod r, i.e. −1 in Montgomery form (checked against fr_neg(FR_ONE) in tests/cs). */
const cuzk_fr_t cuzk_lc_coeff_minus_one = {
    {0xfffffffd00000003ULL, 0xfb38ec08fffb13fcULL, 0x99ad88181ce5880fULL, 0x5bc8f5f97cd877d8ULL}};

static const char *const strategy_names[CUZK_LC_STRATEGY_COUNT] = {"heap", "inline1", "inline2", "inline4",
                                                                   "arena"};

const char *cuzk_lc_strategy_name(cuzk_lc_strategy s)
{
    return (unsigned)s < CUZK_LC_STRATEGY_COUNT ? strategy_names[s] : NULL;
}

cuzk_status cuzk_lc_strategy_parse(cuzk_lc_strategy *s, const char *name, cuzk_err_t *err)
{
    if (name && strcmp(name, "default") == 0) {
        *s = CUZK_LC_DEFAULT;
        return CUZK_OK;
    }
    for (int i = 0; name && i < CUZK_LC_STRATEGY_COUNT; i++)
        if (strcmp(name, strategy_names[i]) == 0) {
            *s = (cuzk_lc_strategy)i;
            return CUZK_OK;
        }
    return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                        "unknown LC strategy '%s' (heap, inline1, inline2, inline4, arena, default)",
                        name ? name : "(null)");
}

void cuzk_lc_init(cuzk_lc_t *lc, cuzk_cs_t *cs)
{
    lc->ext = NULL;
    lc->len = 0;
    lc->cap = cs->inline_cap;
    lc->active = cs->want_lcs;
    lc->ext_kind = LC_EXT_NONE;
    lc->cs = cs;
}

static void release_ext(cuzk_lc_t *lc)
{
    if (lc->ext_kind == LC_EXT_HEAP) {
        free(lc->ext);
    } else if (lc->ext_kind == LC_EXT_ARENA) {
        cs_arena *a = &lc->cs->arena;
        /* The last LC holding arena memory is gone: everything in the arena is dead. */
        if (--a->live == 0)
            cs_arena_reset(a);
    }
    lc->ext = NULL;
    lc->ext_kind = LC_EXT_NONE;
}

void cuzk_lc_free(cuzk_lc_t *lc)
{
    release_ext(lc);
    lc->len = 0;
    lc->cap = lc->cs ? lc->cs->inline_cap : 0;
}

/* Makes room for `need` terms, keeping the current ones. Growth doubles (Vec and SmallVec do the
 * same), the first heap block holds 4 terms (Vec's minimum for elements of this size). */
static bool lc_grow(cuzk_lc_t *lc, size_t need)
{
    if (need <= lc->cap)
        return true;
    cuzk_cs_t *cs = lc->cs;
    if (need > UINT32_MAX / 2) {
        cs_failf(cs, CUZK_ERR_INVALID_ARG, "linear combination with more than %u terms", UINT32_MAX / 2);
        return false;
    }
    size_t cap = lc->cap ? lc->cap : 4;
    while (cap < need)
        cap *= 2;
    size_t esz = sizeof(cuzk_lc_term_t);
    cuzk_lc_term_t *old = cuzk_lc_terms(lc), *t;
    if (cs->strategy == CUZK_LC_ARENA) {
        if (lc->ext_kind == LC_EXT_ARENA && cs_arena_extend(&cs->arena, lc->ext, lc->cap * esz, cap * esz)) {
            lc->cap = (uint32_t)cap;
            return true;
        }
        t = cs_arena_alloc(&cs->arena, cap * esz);
        if (!t)
            goto oom;
        memcpy(t, old, lc->len * esz);
        if (lc->ext_kind != LC_EXT_ARENA)
            cs->arena.live++;
        /* The old block is abandoned; the arena takes it back at its next reset. */
        lc->ext_kind = LC_EXT_ARENA;
    } else if (lc->ext_kind == LC_EXT_HEAP) {
        t = realloc(lc->ext, cap * esz);
        if (!t)
            goto oom;
    } else {
        t = malloc(cap * esz);
        if (!t)
            goto oom;
        memcpy(t, old, lc->len * esz);
        lc->ext_kind = LC_EXT_HEAP;
    }
    lc->ext = t;
    lc->cap = (uint32_t)cap;
    return true;
oom:
    cs_failf(cs, CUZK_ERR_NO_MEMORY, "out of memory growing a linear combination to %zu terms", cap);
    return false;
}

/* First position whose variable is >= var. */
static size_t lower_bound(const cuzk_lc_term_t *t, size_t n, uint32_t var)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t[mid].var < var)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void cuzk_lc_insert_slow(cuzk_lc_t *lc, uint32_t var, const cuzk_fr_t *coeff)
{
    if (!lc->active)
        return;
    cuzk_lc_term_t *t = cuzk_lc_terms(lc);
    size_t n = lc->len;
    size_t i = (n && t[n - 1].var < var) ? n : lower_bound(t, n, var);
    if (i < n && t[i].var == var) {
        fr_add(&t[i].coeff, &t[i].coeff, coeff);
        return;
    }
    fr c = *coeff; /* coeff may point into this LC's storage, which may move */
    if (!lc_grow(lc, n + 1))
        return;
    t = cuzk_lc_terms(lc);
    memmove(&t[i + 1], &t[i], (n - i) * sizeof *t);
    t[i].coeff = c;
    t[i].var = var;
    lc->len = (uint32_t)(n + 1);
}

void cuzk_lc_sub_term(cuzk_lc_t *lc, cuzk_var_t v, const cuzk_fr_t *coeff)
{
    if (!lc->active)
        return;
    fr neg;
    fr_neg(&neg, coeff);
    cuzk_lc_add_term(lc, v, &neg);
}

enum { SCALE_ONE, SCALE_MINUS_ONE, SCALE_BY };

static inline void scaled(fr *out, const fr *c, int mode, const fr *k)
{
    if (mode == SCALE_ONE)
        *out = *c;
    else if (mode == SCALE_MINUS_ONE)
        fr_neg(out, c);
    else
        fr_mul(out, c, k);
}

/* lc += k·other for sorted lc and other: an append when other starts after lc's end, otherwise
 * a merge in place from the back (the merged length is counted first, so nothing is overwritten
 * before it is read). */
static void add_lc_mode(cuzk_lc_t *lc, const cuzk_lc_t *other, int mode, const fr *k)
{
    if (!lc->active || other->len == 0)
        return;
    if (other == lc) {
        /* bellpepper cannot alias; here lc + k·lc scales every coefficient by 1 + k. */
        fr f = cuzk_lc_coeff_one, tmp;
        if (mode == SCALE_ONE)
            fr_add(&f, &f, &cuzk_lc_coeff_one);
        else if (mode == SCALE_MINUS_ONE)
            f = FR_ZERO;
        else
            fr_add(&f, &f, k);
        cuzk_lc_term_t *t = cuzk_lc_terms(lc);
        for (size_t i = 0; i < lc->len; i++) {
            fr_mul(&tmp, &t[i].coeff, &f);
            t[i].coeff = tmp;
        }
        return;
    }
    size_t n = lc->len, m = other->len;
    const cuzk_lc_term_t *o = cuzk_lc_terms(other);
    cuzk_lc_term_t *t = cuzk_lc_terms(lc);
    if (n == 0 || t[n - 1].var < o[0].var) {
        if (!lc_grow(lc, n + m))
            return;
        t = cuzk_lc_terms(lc);
        for (size_t j = 0; j < m; j++) {
            t[n + j].var = o[j].var;
            scaled(&t[n + j].coeff, &o[j].coeff, mode, k);
        }
        lc->len = (uint32_t)(n + m);
        return;
    }
    size_t common = 0;
    for (size_t i = 0, j = 0; i < n && j < m;) {
        if (t[i].var < o[j].var)
            i++;
        else if (t[i].var > o[j].var)
            j++;
        else
            common++, i++, j++;
    }
    size_t total = n + m - common;
    if (!lc_grow(lc, total))
        return;
    t = cuzk_lc_terms(lc);
    size_t i = n, j = m, w = total;
    while (j > 0) {
        fr s;
        if (i > 0 && t[i - 1].var > o[j - 1].var) {
            t[--w] = t[--i];
        } else if (i > 0 && t[i - 1].var == o[j - 1].var) {
            scaled(&s, &o[j - 1].coeff, mode, k);
            --i, --j, --w;
            fr_add(&t[w].coeff, &t[i].coeff, &s);
            t[w].var = t[i].var;
        } else {
            --j, --w;
            scaled(&t[w].coeff, &o[j].coeff, mode, k);
            t[w].var = o[j].var;
        }
    }
    /* What is left of lc (i terms) is already in place: w == i here. */
    lc->len = (uint32_t)total;
}

void cuzk_lc_add_lc(cuzk_lc_t *lc, const cuzk_lc_t *other) { add_lc_mode(lc, other, SCALE_ONE, NULL); }
void cuzk_lc_sub_lc(cuzk_lc_t *lc, const cuzk_lc_t *other) { add_lc_mode(lc, other, SCALE_MINUS_ONE, NULL); }
void cuzk_lc_add_scaled_lc(cuzk_lc_t *lc, const cuzk_fr_t *coeff, const cuzk_lc_t *other)
{
    fr k = *coeff;
    add_lc_mode(lc, other, SCALE_BY, &k);
}

void cuzk_lc_copy(cuzk_lc_t *dst, const cuzk_lc_t *src)
{
    if (dst == src || !dst->active)
        return;
    dst->len = 0;
    add_lc_mode(dst, src, SCALE_ONE, NULL);
}
