/* Micro benchmark of .params loading: a file image in memory with 2^log2 points in each of the five
 * query sections (h, l, a, b_g1 in G1, b_g2 in G2; default 2^16), decoded in full by cuzk_params_load
 * at each check level. Subgroup checks cost about a scalar multiplication per point, so that level
 * is timed on a smaller image (at most 2^10 points per section; the printed log2 says which). After
 * timing, the decoded arrays and verifying key are compared with the points that were written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cuzk/params.h"
#include "ec/ec.h"
#include "util/timer.h"

#define MAX_LOG2 24           /* 2^24 points per section: a 9 GiB image, as much decoded */
#define SUBGROUP_MAX_LOG2 10  /* the subgroup level's image at most 2^10 points per section */
#define RUN_MAX ((size_t)1 << 16) /* distinct points per section; larger sections repeat them */
#define IC_LEN 3

enum { NSEC = 5 };

/* xorshift64*: reproducible inputs without a test framework */
static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dULL;
}

static void rand_scalar(cuzk_scalar_t *k, uint64_t *seed)
{
    for (int i = 0; i < 4; i++)
        k->l[i] = next_rand(seed);
    k->l[3] &= 0x0fffffffffffffffULL; /* < 2^252 < r */
}

/* n points: a run of min(n, RUN_MAX) consecutive multiples k·G, (k+1)·G, ... (one mixed addition
 * each, then one batch inversion), repeated to fill n. */
static int g1_points(g1_aff *out, size_t n, uint64_t *seed)
{
    size_t run = n < RUN_MAX ? n : RUN_MAX;
    g1_jac *j = malloc(run * sizeof *j);
    if (!j)
        return -1;
    g1_aff gen;
    g1_generator(&gen);
    cuzk_scalar_t k;
    rand_scalar(&k, seed);
    g1_jac_from_aff(&j[0], &gen);
    g1_jac_mul(&j[0], &j[0], &k);
    for (size_t i = 1; i < run; i++)
        g1_jac_add_aff(&j[i], &j[i - 1], &gen);
    g1_jac_batch_to_aff(out, j, run);
    for (size_t i = run; i < n; i++)
        out[i] = out[i - run];
    free(j);
    return 0;
}

static int g2_points(g2_aff *out, size_t n, uint64_t *seed)
{
    size_t run = n < RUN_MAX ? n : RUN_MAX;
    g2_jac *j = malloc(run * sizeof *j);
    if (!j)
        return -1;
    g2_aff gen;
    g2_generator(&gen);
    cuzk_scalar_t k;
    rand_scalar(&k, seed);
    g2_jac_from_aff(&j[0], &gen);
    g2_jac_mul(&j[0], &j[0], &k);
    for (size_t i = 1; i < run; i++)
        g2_jac_add_aff(&j[i], &j[i - 1], &gen);
    g2_jac_batch_to_aff(out, j, run);
    for (size_t i = run; i < n; i++)
        out[i] = out[i - run];
    free(j);
    return 0;
}

static void put_u32be(uint8_t *p, size_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* The written key and its file image. */
typedef struct {
    cuzk_groth16_vk_t vk;
    g1_aff ic[IC_LEN];
    g1_aff *g1[4]; /* h, l, a, b_g1 */
    g2_aff *g2;    /* b_g2 */
    size_t n;
    uint8_t *file;
    size_t file_len;
} image_t;

static void image_free(image_t *im)
{
    for (int s = 0; s < 4; s++)
        free(im->g1[s]);
    free(im->g2);
    free(im->file);
}

/* The bellperson layout (docs/FORMATS.md), serialized by the curve layer's own encoders rather than
 * the parameter writer, so that the check after timing does not compare the codec with itself. */
static int image_build(image_t *im, size_t n, uint64_t seed)
{
    memset(im, 0, sizeof *im);
    im->n = n;
    g1_aff v1[3 + IC_LEN];
    g2_aff v2[3];
    if (g1_points(v1, 3 + IC_LEN, &seed) || g2_points(v2, 3, &seed))
        return -1;
    im->vk = (cuzk_groth16_vk_t){.alpha_g1 = v1[0], .beta_g1 = v1[1], .beta_g2 = v2[0],
                                 .gamma_g2 = v2[1], .delta_g1 = v1[2], .delta_g2 = v2[2],
                                 .ic = im->ic, .ic_len = IC_LEN};
    memcpy(im->ic, v1 + 3, sizeof im->ic);
    for (int s = 0; s < 4; s++)
        if (!(im->g1[s] = malloc(n * sizeof(g1_aff))) || g1_points(im->g1[s], n, &seed))
            return -1;
    if (!(im->g2 = malloc(n * sizeof(g2_aff))) || g2_points(im->g2, n, &seed))
        return -1;

    im->file_len = CUZK_PARAMS_VK_FIXED_BYTES + 96 * IC_LEN + NSEC * 4 + n * (4 * 96 + 192);
    uint8_t *f = im->file = malloc(im->file_len);
    if (!f)
        return -1;
    const cuzk_groth16_vk_t *vk = &im->vk;
    cuzk_g1_serialize(f, &vk->alpha_g1);
    cuzk_g1_serialize(f + 96, &vk->beta_g1);
    cuzk_g2_serialize(f + 192, &vk->beta_g2);
    cuzk_g2_serialize(f + 384, &vk->gamma_g2);
    cuzk_g1_serialize(f + 576, &vk->delta_g1);
    cuzk_g2_serialize(f + 672, &vk->delta_g2);
    put_u32be(f + 864, IC_LEN);
    size_t off = 868;
    for (int i = 0; i < IC_LEN; i++, off += 96)
        cuzk_g1_serialize(f + off, &im->ic[i]);
    for (int s = 0; s < NSEC; s++) {
        put_u32be(f + off, n);
        off += 4;
        for (size_t i = 0; i < n; i++) {
            if (s < 4)
                cuzk_g1_serialize(f + off, &im->g1[s][i]), off += 96;
            else
                cuzk_g2_serialize(f + off, &im->g2[i]), off += 192;
        }
    }
    return off == im->file_len ? 0 : -1;
}

/* The decoded key equals the written one. */
static int image_check(const image_t *im, const cuzk_groth16_pk_t *pk)
{
    const cuzk_groth16_vk_t *a = &im->vk, *b = &pk->vk;
    if (!g1_aff_eq(&a->alpha_g1, &b->alpha_g1) || !g1_aff_eq(&a->beta_g1, &b->beta_g1) ||
        !g2_aff_eq(&a->beta_g2, &b->beta_g2) || !g2_aff_eq(&a->gamma_g2, &b->gamma_g2) ||
        !g1_aff_eq(&a->delta_g1, &b->delta_g1) || !g2_aff_eq(&a->delta_g2, &b->delta_g2) ||
        b->ic_len != IC_LEN)
        return 0;
    for (int i = 0; i < IC_LEN; i++)
        if (!g1_aff_eq(&a->ic[i], &b->ic[i]))
            return 0;
    const g1_aff *got[4] = {pk->h, pk->l, pk->a, pk->b_g1};
    const size_t len[NSEC] = {pk->h_len, pk->l_len, pk->a_len, pk->b_g1_len, pk->b_g2_len};
    for (int s = 0; s < NSEC; s++)
        if (len[s] != im->n)
            return 0;
    for (int s = 0; s < 4; s++)
        for (size_t i = 0; i < im->n; i++)
            if (!got[s] || !g1_aff_eq(&got[s][i], &im->g1[s][i]))
                return 0;
    for (size_t i = 0; i < im->n; i++)
        if (!pk->b_g2 || !g2_aff_eq(&pk->b_g2[i], &im->g2[i]))
            return 0;
    return 1;
}

typedef struct {
    cuzk_params_t *p;
    cuzk_status st;
    cuzk_err_t err;
} load_ctx;

/* One sample: decode all five sections into fresh arrays (allocation and first touch included, as in
 * a real load), then free them again so that the next sample decodes from scratch. */
static void run_load(void *ctx)
{
    load_ctx *c = ctx;
    cuzk_params_unload(c->p, CUZK_PARAMS_SEC_ALL);
    cuzk_status st = cuzk_params_load(c->p, CUZK_PARAMS_SEC_ALL, &c->err);
    if (st != CUZK_OK && c->st == CUZK_OK)
        c->st = st;
}

/* Times one level on one image; returns 0 when the loads succeeded and the points came back. */
static int bench_level(const image_t *im, cuzk_params_check level, const char *name,
                       const micro_args *a, unsigned log2)
{
    load_ctx c = {.p = NULL, .st = CUZK_OK};
    cuzk_status st = cuzk_params_open_buffer(&c.p, im->file, im->file_len, level, a->threads, &c.err);
    if (st != CUZK_OK) {
        fprintf(stderr, "%s: open failed: %s\n", name, c.err.msg);
        return 1;
    }
    micro_args shown = *a;
    shown.log2 = log2, shown.log2_set = true;
    bench_stats stats = bench_time(a->iters, run_load, &c);
    bench_print(name, &shown, stats, (double)NSEC * im->n, "points");
    int bad = 0;
    if (c.st != CUZK_OK) {
        fprintf(stderr, "%s: load failed: %s\n", name, c.err.msg);
        bad = 1;
    } else if (!image_check(im, cuzk_params_key(c.p))) {
        fprintf(stderr, "%s: the decoded points differ from the written ones\n", name);
        bad = 1;
    }
    cuzk_params_close(c.p);
    return bad;
}

int micro_params_load(const micro_args *a)
{
    const unsigned log2 = a->log2_set ? a->log2 : 16;
    if (log2 > MAX_LOG2)
        return micro_bad_arg("params-load: --log2 must be at most %d", MAX_LOG2);
    const unsigned sg_log2 = log2 < SUBGROUP_MAX_LOG2 ? log2 : SUBGROUP_MAX_LOG2;
    image_t big, small;
    uint64_t t0 = cuzk_now_ns();
    int fail = image_build(&big, (size_t)1 << log2, 0x9e3779b97f4a7c15ULL ^ log2);
    if (!fail)
        fail = image_build(&small, (size_t)1 << sg_log2, 0x5851f42d4c957f2dULL ^ sg_log2);
    else
        memset(&small, 0, sizeof small);
    if (fail) {
        fprintf(stderr, "params-load: out of memory building a 2^%u-point image\n", log2);
        image_free(&big), image_free(&small);
        return MICRO_ERROR;
    }
    printf("params-load log2=%u: image of %.1f MiB in memory (4 G1 sections and 1 G2 section of "
           "2^%u points), built in %.3fs; subgroup level on 2^%u points per section\n",
           log2, (double)big.file_len / (1 << 20), log2, (double)(cuzk_now_ns() - t0) * 1e-9, sg_log2);
    int bad = 0;
    bad |= bench_level(&big, CUZK_PARAMS_CHECK_NONE, "params-load-none", a, log2);
    bad |= bench_level(&big, CUZK_PARAMS_CHECK_CURVE, "params-load-curve", a, log2);
    bad |= bench_level(&small, CUZK_PARAMS_CHECK_SUBGROUP, "params-load-subgroup", a, sg_log2);
    image_free(&big);
    image_free(&small);
    return bad ? MICRO_WRONG : MICRO_OK;
}
