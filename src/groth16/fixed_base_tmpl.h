/* Template body of fixed_base.c, instantiated once per group: FB_PREFIX (g1/g2), FB_AFF, FB_JAC, FB_IS_G2,
 * the lane kernel FB_LANE_ADD (a member of ec_ifma_ops) and its scratch size FB_LANE_SCRATCH. */
#define FB_CAT2(a, b) a##_##b
#define FB_CAT(a, b) FB_CAT2(a, b)
#define FB(name) FB_CAT(FB_PREFIX, name)

/* ---- the table ---- */

typedef struct {
    const g16_fb_table *t;
    const FB_AFF *bases; /* bases[k] = 2^(w·k)·G */
    bool oom;            /* a worker could not allocate (atomic) */
} FB(build_job);

/* Windows [begin, end): multiples 1..per of their base, added up in Jacobian form, then made affine
 * together. */
static void FB(build_windows)(void *p, size_t begin, size_t end)
{
    FB(build_job) *j = p;
    const g16_fb_table *t = j->t;
    FB_JAC *jt = malloc(t->per * sizeof *jt);
    if (!jt) {
        __atomic_store_n(&j->oom, true, __ATOMIC_RELAXED);
        return;
    }
    for (size_t k = begin; k < end; k++) {
        FB(jac_from_aff)(&jt[0], &j->bases[k]);
        for (size_t d = 1; d < t->per; d++)
            FB(jac_add_aff)(&jt[d], &jt[d - 1], &j->bases[k]);
        FB(jac_batch_to_aff)((FB_AFF *)t->pts + k * t->per, jt, t->per);
    }
    free(jt);
}

static bool FB(build_table)(g16_fb_table *t, int threads)
{
    FB_AFF *bases = malloc(t->nwin * sizeof *bases);
    if (!bases)
        return false;
    FB_JAC b;
    FB(generator)(&bases[0]);
    FB(jac_from_aff)(&b, &bases[0]);
    for (unsigned k = 1; k < t->nwin; k++) {
        for (unsigned i = 0; i < t->w; i++)
            FB(jac_dbl)(&b, &b);
        FB(jac_to_aff)(&bases[k], &b);
    }
    FB(build_job) job = {t, bases, false};
    cuzk_parallel_for(threads, t->nwin, 1, FB(build_windows), &job);
    free(bases);
    return !job.oom;
}

/* ---- products ---- */

typedef struct {
    const g16_fb_table *t;
    FB_AFF *out;
    const fr *scalars;
    bool oom; /* atomic */
} FB(mul_job);

/* acc += sign·q in Jacobian form, for the pairs the lane kernel refused (x(acc) = x(q): impossible
 * for canonical scalars, kept so that a broken assumption costs time, not a wrong point). */
static void FB(add_slow)(FB_AFF *acc, bool *inf, const FB_AFF *q, bool neg)
{
    FB_AFF qq = *q;
    if (neg)
        FB(aff_neg)(&qq, &qq);
    FB_JAC j;
    FB(jac_from_aff)(&j, acc);
    FB(jac_add_aff)(&j, &j, &qq);
    *inf = FB(jac_is_inf)(&j);
    if (!*inf)
        FB(jac_to_aff)(acc, &j);
}

/* Batch-affine: each window adds one table point to every product whose digit is non-zero, all of
 * them through one lane-kernel call (one shared inversion). */
static bool FB(mul_lanes)(const g16_fb_table *t, FB_AFF *out, const int32_t *dig, size_t n)
{
    size_t scratch_bytes = FB_LANE_SCRATCH(n);
    size_t ptr_bytes = 3 * n * sizeof(void *);
    unsigned char *mem = malloc(ptr_bytes + n * 2 + scratch_bytes);
    if (!mem)
        return false;
    FB_AFF **outp = (FB_AFF **)mem;
    const FB_AFF **pp = (const FB_AFF **)(mem + n * sizeof(void *));
    const FB_AFF **qp = (const FB_AFF **)(mem + 2 * n * sizeof(void *));
    uint8_t *neg = mem + ptr_bytes;
    bool *inf = (bool *)(neg + n);
    void *scratch = neg + 2 * n;
    const FB_AFF *pts = t->pts;
    for (size_t i = 0; i < n; i++)
        inf[i] = true;
    size_t idx[FB_BATCH];
    for (unsigned k = 0; k < t->nwin; k++) {
        size_t np = 0;
        const FB_AFF *win = pts + (size_t)k * t->per;
        for (size_t i = 0; i < n; i++) {
            int32_t d = dig[i * t->nwin + k];
            if (!d)
                continue;
            const FB_AFF *q = &win[(d < 0 ? -d : d) - 1];
            if (inf[i]) {
                out[i] = *q;
                if (d < 0)
                    FB(aff_neg)(&out[i], &out[i]);
                inf[i] = false;
                continue;
            }
            outp[np] = &out[i];
            pp[np] = &out[i];
            qp[np] = q;
            neg[np] = d < 0;
            idx[np] = i;
            np++;
        }
        if (np && !t->lanes->FB_LANE_ADD(outp, pp, qp, neg, np, scratch))
            for (size_t m = 0; m < np; m++)
                FB(add_slow)(&out[idx[m]], &inf[idx[m]], qp[m], neg[m]);
    }
    for (size_t i = 0; i < n; i++)
        if (inf[i])
            FB(aff_set_inf)(&out[i]);
    free(mem);
    return true;
}

/* Jacobian: each product summed on its own, the batch made affine with one inversion. */
static bool FB(mul_jacobian)(const g16_fb_table *t, FB_AFF *out, const int32_t *dig, size_t n)
{
    FB_JAC *acc = malloc(n * sizeof *acc);
    if (!acc)
        return false;
    const FB_AFF *pts = t->pts;
    for (size_t i = 0; i < n; i++) {
        FB(jac_set_inf)(&acc[i]);
        for (unsigned k = 0; k < t->nwin; k++) {
            int32_t d = dig[i * t->nwin + k];
            if (!d)
                continue;
            const FB_AFF *q = &pts[(size_t)k * t->per + (size_t)(d < 0 ? -d : d) - 1];
            if (d < 0) {
                FB_AFF nq;
                FB(aff_neg)(&nq, q);
                FB(jac_add_aff)(&acc[i], &acc[i], &nq);
            } else {
                FB(jac_add_aff)(&acc[i], &acc[i], q);
            }
        }
    }
    FB(jac_batch_to_aff)(out, acc, n);
    free(acc);
    return true;
}

static void FB(mul_chunk)(void *p, size_t begin, size_t end)
{
    FB(mul_job) *j = p;
    const g16_fb_table *t = j->t;
    int32_t *dig = malloc((size_t)FB_BATCH * t->nwin * sizeof *dig);
    if (!dig) {
        __atomic_store_n(&j->oom, true, __ATOMIC_RELAXED);
        return;
    }
    for (size_t base = begin; base < end; base += FB_BATCH) {
        size_t n = end - base < FB_BATCH ? end - base : FB_BATCH;
        for (size_t i = 0; i < n; i++) {
            cuzk_scalar_t s;
            fr_to_scalar(&s, &j->scalars[base + i]);
            fb_recode(&dig[i * t->nwin], &s, t->w, t->nwin);
            g16_wipe(&s, sizeof s); /* the setup's scalars derive from its toxic waste */
        }
        bool ok = t->lanes ? FB(mul_lanes)(t, j->out + base, dig, n) : FB(mul_jacobian)(t, j->out + base, dig, n);
        g16_wipe(dig, n * t->nwin * sizeof dig[0]);
        if (!ok) {
            __atomic_store_n(&j->oom, true, __ATOMIC_RELAXED);
            break;
        }
    }
    free(dig);
}

cuzk_status FB(fb_mul)(const g16_fb_table *t, FB_AFF *out, const fr *scalars, size_t n, int threads)
{
    if (t->g2 != FB_IS_G2)
        return CUZK_ERR_INVALID_ARG;
    FB(mul_job) job = {t, out, scalars, false};
    if (n)
        cuzk_parallel_for(threads, n, FB_BATCH, FB(mul_chunk), &job);
    return job.oom ? CUZK_ERR_NO_MEMORY : CUZK_OK;
}

#undef FB
#undef FB_CAT
#undef FB_CAT2
