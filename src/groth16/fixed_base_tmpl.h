/* Template body of fixed_base.c, instantiated once per group: FB_PREFIX (g1/g2), FB_AFF, FB_JAC. */
#define FB_CAT2(a, b) a##_##b
#define FB_CAT(a, b) FB_CAT2(a, b)
#define FB(name) FB_CAT(FB_PREFIX, name)

typedef struct {
    FB_AFF *table;   /* table[k·255 + d − 1] = d·2^(8k)·G */
    FB_AFF *out;
    const fr *scalars;
} FB(fb_ctx);

static void FB(fb_chunk)(void *p, size_t begin, size_t end)
{
    FB(fb_ctx) *ctx = p;
    FB_JAC acc[FB_CHUNK];
    for (size_t base = begin; base < end; base += FB_CHUNK) {
        size_t count = end - base < FB_CHUNK ? end - base : FB_CHUNK;
        for (size_t i = 0; i < count; i++) {
            cuzk_scalar_t s;
            fr_to_scalar(&s, &ctx->scalars[base + i]);
            FB(jac_set_inf)(&acc[i]);
            for (unsigned k = 0; k < FB_WINDOWS; k++) {
                unsigned d = (unsigned)(s.l[k / 8] >> (8 * (k % 8))) & 0xff;
                if (d)
                    FB(jac_add_aff)(&acc[i], &acc[i], &ctx->table[k * 255 + d - 1]);
            }
            g16_wipe(&s, sizeof s); /* the setup's scalars derive from its toxic waste */
        }
        FB(jac_batch_to_aff)(ctx->out + base, acc, count);
    }
}

cuzk_status FB_CAT(g16_fixed_base, FB_PREFIX)(FB_AFF *out, const fr *scalars, size_t n, int threads)
{
    if (n == 0)
        return CUZK_OK;
    FB_AFF gen;
    FB(generator)(&gen);
    FB_JAC *jt = malloc(FB_WINDOWS * 255 * sizeof *jt);
    FB(fb_ctx) ctx = {malloc(FB_WINDOWS * 255 * sizeof(FB_AFF)), out, scalars};
    if (!jt || !ctx.table) {
        free(jt);
        free(ctx.table);
        return CUZK_ERR_NO_MEMORY;
    }
    FB_JAC step;   /* 2^(8k)·G */
    FB(jac_from_aff)(&step, &gen);
    for (unsigned k = 0; k < FB_WINDOWS; k++) {
        jt[k * 255] = step;
        for (unsigned d = 1; d < 255; d++)
            FB(jac_add)(&jt[k * 255 + d], &jt[k * 255 + d - 1], &step);
        FB(jac_add)(&step, &jt[k * 255 + 254], &step);   /* 256·step */
    }
    FB(jac_batch_to_aff)(ctx.table, jt, FB_WINDOWS * 255);
    free(jt);
    cuzk_parallel_for(threads, n, 256, FB(fb_chunk), &ctx);
    free(ctx.table);
    return CUZK_OK;
}

#undef FB
#undef FB_CAT
#undef FB_CAT2
